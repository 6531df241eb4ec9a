"""Deformable convolution layers (DCNv1 and DCNv2) as HybridBlocks.

Each layer owns two convolutions: a plain ``Convolution`` over the input that predicts the
sampling offsets (for DCNv2 also the modulation mask, through ``2 * sigmoid``), and the
deformable convolution that produces the output. Parameter names and shapes are MXNet 1.9.1's
(``offset_weight``, ``offset_bias``, ``deformable_conv_weight``, ``deformable_conv_bias``), so
1.9.1 parameter files load:

    layer = DeformableConvolution(16, kernel_size=3, padding=1)
    layer.initialize()
    y = layer(mx.nd.ones((1, 8, 10, 10)))     # (1, 16, 10, 10)
"""

from .... import symbol  # noqa: F401  (1.9.1 exposes it from this module)
from ...block import HybridBlock
from ....base import numeric_types
from ...nn import Activation

__all__ = ['DeformableConvolution', 'ModulatedDeformableConvolution']


def _pair(value, name):
    """An int becomes (v, v); sequences are kept as tuples."""
    if isinstance(value, numeric_types):
        return (value,) * 2
    value = tuple(value)
    if len(value) != 2:
        raise ValueError("%s must be an int or 2 ints, got %s" % (name, str(value)))
    return value


class _DeformableConvBase(HybridBlock):
    """Shared construction. `offset_per_tap` is the number of offset-conv channels per kernel
    tap and deformable group (2 for DCNv1: dy, dx; 3 for DCNv2: dy, dx, mask)."""

    _offset_per_tap = 2
    _offset_params_first = True

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups,
                 num_deformable_group, layout, use_bias, in_channels, activation,
                 weight_initializer, bias_initializer, offset_weight_initializer,
                 offset_bias_initializer, offset_use_bias, op_name, adj, prefix, params):
        super(_DeformableConvBase, self).__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            assert layout in ('NCHW', 'NHWC'), "Only supports 'NCHW' and 'NHWC' layout for now"
            kernel_size = _pair(kernel_size, "kernel_size")
            strides = _pair(strides, "strides")
            padding = _pair(padding, "padding")
            dilation = _pair(dilation, "dilation")
            self._op_name = op_name
            taps = kernel_size[0] * kernel_size[1] * num_deformable_group
            self._offset_split_index = 2 * taps
            self._kwargs_offset = {
                'kernel': kernel_size, 'stride': strides, 'dilate': dilation, 'pad': padding,
                'num_filter': self._offset_per_tap * taps, 'num_group': groups,
                'no_bias': not offset_use_bias, 'layout': layout}
            self._kwargs_deformable_conv = {
                'kernel': kernel_size, 'stride': strides, 'dilate': dilation, 'pad': padding,
                'num_filter': channels, 'num_group': groups,
                'num_deformable_group': num_deformable_group, 'no_bias': not use_bias,
                'layout': layout}
            if adj:
                self._kwargs_offset['adj'] = adj
                self._kwargs_deformable_conv['adj'] = adj

            # The offset conv's weight knows its input channels when in_channels is given;
            # the deformable conv weight's input dimension is left to shape inference (as in
            # MXNet 1.9.1).
            in_dim = in_channels // groups if in_channels else 0
            offset_shapes = ((self._kwargs_offset['num_filter'], in_dim) + kernel_size,
                             (self._kwargs_offset['num_filter'],))
            conv_shapes = ((channels, 0) + kernel_size, (channels,))

            def add_offset():
                self.offset_weight = self.params.get(
                    'offset_weight', shape=offset_shapes[0], init=offset_weight_initializer,
                    allow_deferred_init=True)
                self.offset_bias = self.params.get(
                    'offset_bias', shape=offset_shapes[1], init=offset_bias_initializer,
                    allow_deferred_init=True) if offset_use_bias else None

            def add_conv():
                self.deformable_conv_weight = self.params.get(
                    'deformable_conv_weight', shape=conv_shapes[0], init=weight_initializer,
                    allow_deferred_init=True)
                self.deformable_conv_bias = self.params.get(
                    'deformable_conv_bias', shape=conv_shapes[1], init=bias_initializer,
                    allow_deferred_init=True) if use_bias else None

            # Registration order (hence collect_params order) follows MXNet 1.9.1.
            for add in ((add_offset, add_conv) if self._offset_params_first
                        else (add_conv, add_offset)):
                add()
            self.act = Activation(activation, prefix=activation + '_') if activation else None

    def _offsets(self, F, x, offset_weight, offset_bias):
        args = [x, offset_weight] + ([] if offset_bias is None else [offset_bias])
        return F.Convolution(*args, cudnn_off=True, **self._kwargs_offset)

    def _finish(self, act):
        return self.act(act) if self.act else act


class DeformableConvolution(_DeformableConvBase):
    """2-D Deformable Convolution v_1 (Dai, 2017).

    Normal Convolution uses sampling points in a regular grid, while the sampling points of
    Deformable Convolution can be offset. The offset is learned with a separate convolution
    layer during the training. Both the convolution layer for generating the output features
    and the offsets are included in this gluon layer.

    Parameters
    ----------
    channels : int
        The number of output channels.
    kernel_size : int or tuple/list of 2 ints, (Default value = (1,1))
        Specifies the dimensions of the convolution window.
    strides : int or tuple/list of 2 ints, (Default value = (1,1))
        Specifies the strides of the convolution.
    padding : int or tuple/list of 2 ints, (Default value = (0,0))
        Implicit zero padding on both sides of each spatial dimension.
    dilation : int or tuple/list of 2 ints, (Default value = (1,1))
        Specifies the dilation rate to use for dilated convolution.
    groups : int, (Default value = 1)
        Number of groups for both convolutions (input and output channels split evenly).
    num_deformable_group : int, (Default value = 1)
        Number of deformable group partitions (each has its own offsets).
    layout : str, (Default value = NCHW)
        Dimension ordering of data and weight ('NCHW'; 'NHWC' is accepted but the CPU
        operators only implement NCHW).
    use_bias : bool, (Default value = True)
        Whether the deformable convolution has a bias vector.
    in_channels : int, (Default value = 0)
        The number of input channels; 0 defers initialization to the first forward.
    activation : str, (Default value = None)
        Activation function applied to the output (see :func:`~mxnet.ndarray.Activation`).
    weight_initializer : str or `Initializer`, (Default value = None)
        Initializer of the deformable convolution weight.
    bias_initializer : str or `Initializer`, (Default value = zeros)
        Initializer of the deformable convolution bias.
    offset_weight_initializer : str or `Initializer`, (Default value = zeros)
        Initializer of the offset convolution weight.
    offset_bias_initializer : str or `Initializer`, (Default value = zeros),
        Initializer of the offset convolution bias.
    offset_use_bias: bool, (Default value = True)
        Whether the offset convolution has a bias vector.

    Inputs:
        - **data**: 4D input tensor with shape `(batch_size, in_channels, height, width)`.

    Outputs:
        - **out**: 4D output tensor with shape `(batch_size, channels, out_height, out_width)`,
          out_height = floor((height+2*padding[0]-dilation[0]*(kernel_size[0]-1)-1)/stride[0])+1
          and likewise for out_width.
    """

    _offset_per_tap = 2
    _offset_params_first = True

    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0),
                 dilation=(1, 1), groups=1, num_deformable_group=1, layout='NCHW',
                 use_bias=True, in_channels=0, activation=None, weight_initializer=None,
                 bias_initializer='zeros', offset_weight_initializer='zeros',
                 offset_bias_initializer='zeros', offset_use_bias=True,
                 op_name='DeformableConvolution', adj=None, prefix=None, params=None):
        super(DeformableConvolution, self).__init__(
            channels, kernel_size, strides, padding, dilation, groups, num_deformable_group,
            layout, use_bias, in_channels, activation, weight_initializer, bias_initializer,
            offset_weight_initializer, offset_bias_initializer, offset_use_bias, op_name, adj,
            prefix, params)

    def hybrid_forward(self, F, x, offset_weight, deformable_conv_weight, offset_bias=None,
                       deformable_conv_bias=None):
        offset = self._offsets(F, x, offset_weight, offset_bias)
        args = [x, offset, deformable_conv_weight]
        if deformable_conv_bias is not None:
            args.append(deformable_conv_bias)
        act = F.contrib.DeformableConvolution(*args, name='fwd', **self._kwargs_deformable_conv)
        return self._finish(act)

    def _alias(self):
        return 'deformable_conv'

    def __repr__(self):
        kw = self._kwargs_deformable_conv
        n = len(kw['kernel'])
        s = '{name}({mapping}, kernel_size={kernel}, stride={stride}'
        if kw['pad'] != (0,) * n:
            s += ', padding={pad}'
        if kw['dilate'] != (1,) * n:
            s += ', dilation={dilate}'
        if kw['num_group'] != 1:
            s += ', groups={num_group}'
        if self.deformable_conv_bias is None:
            s += ', bias=False'
        if self.act:
            s += ', {}'.format(self.act)
        s += ')'
        shape = self.deformable_conv_weight.shape
        return s.format(name=self.__class__.__name__,
                        mapping='{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0]),
                        **kw)


class ModulatedDeformableConvolution(_DeformableConvBase):
    """2-D Deformable Convolution v2 (Dai, 2018).

    The modulated deformable convolution operation is described in
    https://arxiv.org/abs/1811.11168. The offset convolution predicts, per kernel tap and
    deformable group, two offsets and a modulation scalar; the layer feeds the offsets and
    ``2 * sigmoid(scalar)`` as the mask to ``ModulatedDeformableConvolution``.

    Parameters
    ----------
    channels : int
        The number of output channels.
    kernel_size : int or tuple/list of 2 ints, (Default value = (1,1))
        Specifies the dimensions of the convolution window.
    strides : int or tuple/list of 2 ints, (Default value = (1,1))
        Specifies the strides of the convolution.
    padding : int or tuple/list of 2 ints, (Default value = (0,0))
        Implicit zero padding on both sides of each spatial dimension.
    dilation : int or tuple/list of 2 ints, (Default value = (1,1))
        Specifies the dilation rate to use for dilated convolution.
    groups : int, (Default value = 1)
        Number of groups for both convolutions.
    num_deformable_group : int, (Default value = 1)
        Number of deformable group partitions.
    layout : str, (Default value = NCHW)
        Dimension ordering of data and weight.
    use_bias : bool, (Default value = True)
        Whether the deformable convolution has a bias vector.
    in_channels : int, (Default value = 0)
        The number of input channels; 0 defers initialization to the first forward.
    activation : str, (Default value = None)
        Activation function applied to the output.
    weight_initializer : str or `Initializer`, (Default value = None)
        Initializer of the deformable convolution weight.
    bias_initializer : str or `Initializer`, (Default value = zeros)
        Initializer of the deformable convolution bias.
    offset_weight_initializer : str or `Initializer`, (Default value = zeros)
        Initializer of the offset convolution weight.
    offset_bias_initializer : str or `Initializer`, (Default value = zeros),
        Initializer of the offset convolution bias.
    offset_use_bias: bool, (Default value = True)
        Whether the offset convolution has a bias vector.

    Inputs:
        - **data**: 4D input tensor with shape `(batch_size, in_channels, height, width)`.

    Outputs:
        - **out**: 4D output tensor with shape `(batch_size, channels, out_height, out_width)`.
    """

    _offset_per_tap = 3
    _offset_params_first = False

    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0),
                 dilation=(1, 1), groups=1, num_deformable_group=1, layout='NCHW',
                 use_bias=True, in_channels=0, activation=None, weight_initializer=None,
                 bias_initializer='zeros', offset_weight_initializer='zeros',
                 offset_bias_initializer='zeros', offset_use_bias=True,
                 op_name='ModulatedDeformableConvolution', adj=None, prefix=None, params=None):
        super(ModulatedDeformableConvolution, self).__init__(
            channels, kernel_size, strides, padding, dilation, groups, num_deformable_group,
            layout, use_bias, in_channels, activation, weight_initializer, bias_initializer,
            offset_weight_initializer, offset_bias_initializer, offset_use_bias, op_name, adj,
            prefix, params)

    @property
    def offset_split_index(self):
        """Channels [0, offset_split_index) of the offset conv are offsets, the rest masks."""
        return self._offset_split_index

    def hybrid_forward(self, F, x, offset_weight, deformable_conv_weight, offset_bias=None,
                       deformable_conv_bias=None):
        both = self._offsets(F, x, offset_weight, offset_bias)
        offset = F.slice_axis(both, axis=1, begin=0, end=self._offset_split_index)
        mask = F.sigmoid(F.slice_axis(both, axis=1, begin=self._offset_split_index,
                                      end=None)) * 2
        args = [x, offset, mask, deformable_conv_weight]
        if deformable_conv_bias is not None:
            args.append(deformable_conv_bias)
        act = F.contrib.ModulatedDeformableConvolution(*args, name='fwd',
                                                       **self._kwargs_deformable_conv)
        return self._finish(act)

    def _alias(self):
        return 'modulated_deformable_conv'
