"""Gluon convolution and pooling layers (1-D, 2-D, 3-D).

ReflectionPad2D is not provided: it needs the `Pad` operator, which this libmxnet does not
register yet.
"""
from ..block import HybridBlock
from .activations import Activation
from ...base import numeric_types

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D",
           "AvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D",
           "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D", "ReflectionPad2D"]


def _tuple(value, n):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) != n:
        raise ValueError("Expected %d values (one per spatial dimension), got %s"
                         % (n, str(value)))
    return value


class _Conv(HybridBlock):
    """Shared implementation of (transposed) convolutions."""

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups, layout,
                 in_channels=0, activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", op_name="Convolution", adj=None, prefix=None,
                 params=None):
        super(_Conv, self).__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            n = len(kernel_size)
            strides, padding, dilation = (_tuple(strides, n), _tuple(padding, n),
                                          _tuple(dilation, n))
            self._op_name = op_name
            self._kwargs = {"kernel": kernel_size, "stride": strides, "dilate": dilation,
                            "pad": padding, "num_filter": channels, "num_group": groups,
                            "no_bias": not use_bias, "layout": layout}
            if adj is not None:
                self._kwargs["adj"] = adj
            if not layout.startswith("NC"):
                raise ValueError("Layout %s is not supported by %s on CPU; use a "
                                 "channel-first layout (NCW, NCHW, NCDHW)"
                                 % (layout, self.__class__.__name__))
            if op_name == "Convolution":
                wshape = (channels, in_channels // groups) + tuple(kernel_size)
            else:
                wshape = (in_channels, channels // groups) + tuple(kernel_size)
            self.weight = self.params.get("weight", shape=wshape, init=weight_initializer,
                                          allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get("bias", shape=(channels,), init=bias_initializer,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            if activation is not None:
                self.act = Activation(activation, prefix=activation + "_")
            else:
                self.act = None

    def hybrid_forward(self, F, x, weight, bias=None):
        op = getattr(F, self._op_name)
        if bias is None:
            act = op(x, weight, name="fwd", **self._kwargs)
        else:
            act = op(x, weight, bias, name="fwd", **self._kwargs)
        if self.act is not None:
            act = self.act(act)
        return act

    def _alias(self):
        return "conv"

    def __repr__(self):
        s = "{name}({mapping}, kernel_size={kernel}, stride={stride}"
        len_kernel_size = len(self._kwargs["kernel"])
        if self._kwargs["pad"] != (0,) * len_kernel_size:
            s += ", padding={pad}"
        if self._kwargs["dilate"] != (1,) * len_kernel_size:
            s += ", dilation={dilate}"
        if hasattr(self, "out_pad") and self.out_pad != (0,) * len_kernel_size:
            s += ", output_padding={out_pad}".format(out_pad=self.out_pad)
        if self._kwargs["num_group"] != 1:
            s += ", groups={num_group}"
        if self.bias is None:
            s += ", bias=False"
        if self.act:
            s += ", {}".format(self.act)
        s += ")"
        shape = self.weight.shape
        return s.format(name=self.__class__.__name__,
                        mapping="{0} -> {1}".format(shape[1] if shape[1] else None, shape[0]),
                        **self._kwargs)


def _make_conv(ndim, default_layout, name):
    class Conv(_Conv):
        def __init__(self, channels, kernel_size, strides=(1,) * ndim, padding=(0,) * ndim,
                     dilation=(1,) * ndim, groups=1, layout=default_layout, activation=None,
                     use_bias=True, weight_initializer=None, bias_initializer="zeros",
                     in_channels=0, **kwargs):
            kernel_size = _tuple(kernel_size, ndim)
            super(Conv, self).__init__(channels, kernel_size, strides, padding, dilation,
                                       groups, layout, in_channels, activation, use_bias,
                                       weight_initializer, bias_initializer, **kwargs)
    Conv.__name__ = Conv.__qualname__ = name
    Conv.__doc__ = "%d-D convolution over %s input." % (ndim, default_layout)
    return Conv


def _make_conv_transpose(ndim, default_layout, name):
    class ConvTranspose(_Conv):
        def __init__(self, channels, kernel_size, strides=(1,) * ndim, padding=(0,) * ndim,
                     output_padding=(0,) * ndim, dilation=(1,) * ndim, groups=1,
                     layout=default_layout, activation=None, use_bias=True,
                     weight_initializer=None, bias_initializer="zeros", in_channels=0,
                     **kwargs):
            kernel_size = _tuple(kernel_size, ndim)
            output_padding = _tuple(output_padding, ndim)
            super(ConvTranspose, self).__init__(
                channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                activation, use_bias, weight_initializer, bias_initializer,
                op_name="Deconvolution", adj=output_padding, **kwargs)
            self.outpad = output_padding
    ConvTranspose.__name__ = ConvTranspose.__qualname__ = name
    ConvTranspose.__doc__ = "%d-D transposed convolution over %s input." % (ndim,
                                                                              default_layout)
    return ConvTranspose


Conv1D = _make_conv(1, "NCW", "Conv1D")
Conv2D = _make_conv(2, "NCHW", "Conv2D")
Conv3D = _make_conv(3, "NCDHW", "Conv3D")
Conv1DTranspose = _make_conv_transpose(1, "NCW", "Conv1DTranspose")
Conv2DTranspose = _make_conv_transpose(2, "NCHW", "Conv2DTranspose")
Conv3DTranspose = _make_conv_transpose(3, "NCDHW", "Conv3DTranspose")


class _Pooling(HybridBlock):
    """Shared implementation of pooling layers."""

    def __init__(self, pool_size, strides, padding, ceil_mode, global_pool, pool_type, layout,
                 count_include_pad=None, **kwargs):
        super(_Pooling, self).__init__(**kwargs)
        if strides is None:
            strides = pool_size
        n = len(pool_size)
        strides = _tuple(strides, n)
        padding = _tuple(padding, n)
        self._kwargs = {"kernel": pool_size, "stride": strides, "pad": padding,
                        "global_pool": global_pool, "pool_type": pool_type, "layout": layout,
                        "pooling_convention": "full" if ceil_mode else "valid"}
        if count_include_pad is not None:
            self._kwargs["count_include_pad"] = count_include_pad

    def _alias(self):
        return "pool"

    def hybrid_forward(self, F, x):
        return F.Pooling(x, name="fwd", **self._kwargs)

    def __repr__(self):
        s = "{name}(size={kernel}, stride={stride}, padding={pad}, ceil_mode={ceil_mode}, " \
            "global_pool={global_pool}, pool_type={pool_type}, layout={layout})"
        return s.format(name=self.__class__.__name__,
                        ceil_mode=self._kwargs["pooling_convention"] == "full", **self._kwargs)


def _make_pool(ndim, default_layout, pool_type, name):
    if pool_type == "max":
        def __init__(self, pool_size=(2,) * ndim if ndim > 1 else 2, strides=None, padding=0,
                     layout=default_layout, ceil_mode=False, **kwargs):
            pool_size = _tuple(pool_size, ndim)
            _Pooling.__init__(self, pool_size, strides, padding, ceil_mode, False, "max",
                              layout, **kwargs)
    else:
        def __init__(self, pool_size=(2,) * ndim if ndim > 1 else 2, strides=None, padding=0,
                     ceil_mode=False, layout=default_layout, count_include_pad=True,
                     **kwargs):
            pool_size = _tuple(pool_size, ndim)
            _Pooling.__init__(self, pool_size, strides, padding, ceil_mode, False, "avg",
                              layout, count_include_pad, **kwargs)
    cls = type(name, (_Pooling,), {"__init__": __init__, "__doc__":
                                   "%d-D %s pooling over %s input." % (ndim, pool_type,
                                                                      default_layout)})
    return cls


def _make_global_pool(ndim, default_layout, pool_type, name):
    def __init__(self, layout=default_layout, **kwargs):
        _Pooling.__init__(self, (1,) * ndim, None, 0, True, True, pool_type, layout, **kwargs)
    return type(name, (_Pooling,), {"__init__": __init__, "__doc__":
                                    "Global %s pooling over the %d spatial axes of %s input."
                                    % (pool_type, ndim, default_layout)})


MaxPool1D = _make_pool(1, "NCW", "max", "MaxPool1D")
MaxPool2D = _make_pool(2, "NCHW", "max", "MaxPool2D")
MaxPool3D = _make_pool(3, "NCDHW", "max", "MaxPool3D")
AvgPool1D = _make_pool(1, "NCW", "avg", "AvgPool1D")
AvgPool2D = _make_pool(2, "NCHW", "avg", "AvgPool2D")
AvgPool3D = _make_pool(3, "NCDHW", "avg", "AvgPool3D")
GlobalMaxPool1D = _make_global_pool(1, "NCW", "max", "GlobalMaxPool1D")
GlobalMaxPool2D = _make_global_pool(2, "NCHW", "max", "GlobalMaxPool2D")
GlobalMaxPool3D = _make_global_pool(3, "NCDHW", "max", "GlobalMaxPool3D")
GlobalAvgPool1D = _make_global_pool(1, "NCW", "avg", "GlobalAvgPool1D")
GlobalAvgPool2D = _make_global_pool(2, "NCHW", "avg", "GlobalAvgPool2D")
GlobalAvgPool3D = _make_global_pool(3, "NCDHW", "avg", "GlobalAvgPool3D")


class ReflectionPad2D(HybridBlock):
    """Pads the two spatial axes of an NCHW batch by reflecting the border: `padding` is one
    size for all four sides, or the 8-tuple pad_width of the pad operator."""

    def __init__(self, padding=0, **kwargs):
        super(ReflectionPad2D, self).__init__(**kwargs)
        if isinstance(padding, numeric_types):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        if len(padding) != 8:
            raise ValueError('ReflectionPad2D: expected one size or 8 pad widths, got %s'
                             % (padding,))
        self._padding = tuple(int(p) for p in padding)

    def hybrid_forward(self, F, x):
        return F.pad(x, mode='reflect', pad_width=self._padding)
