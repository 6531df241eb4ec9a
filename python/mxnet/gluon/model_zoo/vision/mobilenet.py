"""MobileNet v1 (Howard et al., 2017) and v2 (Sandler et al., 2018) with width multipliers
1.0, 0.75, 0.5 and 0.25."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import load_pretrained

__all__ = ["MobileNet", "MobileNetV2", "mobilenet1_0", "mobilenet_v2_1_0", "mobilenet0_75",
           "mobilenet_v2_0_75", "mobilenet0_5", "mobilenet_v2_0_5", "mobilenet0_25",
           "mobilenet_v2_0_25", "get_mobilenet", "get_mobilenet_v2"]


class RELU6(HybridBlock):
    """min(max(x, 0), 6)."""

    def hybrid_forward(self, F, x):
        return F.clip(x, 0, 6, name="relu6")


def _add_conv(seq, channels=1, kernel=1, stride=1, pad=0, num_group=1, active=True,
              relu6=False):
    """Appends conv (no bias) + BatchNorm (+ ReLU or ReLU6) to `seq`."""
    seq.add(nn.Conv2D(channels, kernel, stride, pad, groups=num_group, use_bias=False))
    seq.add(nn.BatchNorm(scale=True))
    if active:
        seq.add(RELU6() if relu6 else nn.Activation("relu"))


def _add_conv_dw(seq, dw_channels, channels, stride, relu6=False):
    """Depthwise-separable convolution: 3x3 depthwise then 1x1 pointwise."""
    _add_conv(seq, channels=dw_channels, kernel=3, stride=stride, pad=1,
              num_group=dw_channels, relu6=relu6)
    _add_conv(seq, channels=channels, relu6=relu6)


class LinearBottleneck(HybridBlock):
    """MobileNetV2 inverted residual: 1x1 expand by `t`, 3x3 depthwise (carrying the
    stride), 1x1 linear projection; adds the input when shapes allow."""

    def __init__(self, in_channels, channels, t, stride, **kwargs):
        super(LinearBottleneck, self).__init__(**kwargs)
        self.use_shortcut = stride == 1 and in_channels == channels
        expanded = in_channels * t
        with self.name_scope():
            self.out = nn.HybridSequential()
            _add_conv(self.out, expanded, relu6=True)
            _add_conv(self.out, expanded, kernel=3, stride=stride, pad=1, num_group=expanded,
                      relu6=True)
            _add_conv(self.out, channels, active=False, relu6=True)

    def hybrid_forward(self, F, x):
        out = self.out(x)
        if self.use_shortcut:
            out = F.elemwise_add(out, x)
        return out


class MobileNet(HybridBlock):
    """MobileNet v1 with every channel count scaled by `multiplier`."""

    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super(MobileNet, self).__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            with self.features.name_scope():
                _add_conv(self.features, channels=int(32 * multiplier), kernel=3, pad=1,
                          stride=2)
                dw_channels = [int(c * multiplier) for c in
                               [32, 64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024]]
                channels = [int(c * multiplier) for c in
                            [64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024] * 2]
                strides = [1, 2] * 3 + [1] * 5 + [2, 1]
                for dwc, c, s in zip(dw_channels, channels, strides):
                    _add_conv_dw(self.features, dw_channels=dwc, channels=c, stride=s)
                self.features.add(nn.GlobalAvgPool2D(), nn.Flatten())
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class MobileNetV2(HybridBlock):
    """MobileNet v2 with channel counts scaled by `multiplier` (the last 1x1 layer keeps
    1280 channels unless multiplier > 1)."""

    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super(MobileNetV2, self).__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="features_")
            with self.features.name_scope():
                _add_conv(self.features, int(32 * multiplier), kernel=3, stride=2, pad=1,
                          relu6=True)
                in_channels = [int(c * multiplier) for c in
                               [32] + [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3
                               + [160] * 3]
                out_channels = [int(c * multiplier) for c in
                                [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3
                                + [160] * 3 + [320]]
                expansions = [1] + [6] * 16
                strides = [1, 2] * 2 + [1, 1, 2] + [1] * 6 + [2] + [1] * 3
                for in_c, c, t, s in zip(in_channels, out_channels, expansions, strides):
                    self.features.add(LinearBottleneck(in_channels=in_c, channels=c, t=t,
                                                       stride=s))
                last_channels = int(1280 * multiplier) if multiplier > 1.0 else 1280
                _add_conv(self.features, last_channels, relu6=True)
                self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.HybridSequential(prefix="output_")
            with self.output.name_scope():
                self.output.add(nn.Conv2D(classes, 1, use_bias=False, prefix="pred_"),
                                nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def _version_suffix(multiplier):
    """1.0 -> '1.0', 0.75 -> '0.75', 0.5 -> '0.5', 0.25 -> '0.25' (weight file names)."""
    suffix = "{0:.2f}".format(multiplier)
    return suffix[:-1] if suffix in ("1.00", "0.50") else suffix


def get_mobilenet(multiplier, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """MobileNet v1 with width `multiplier`."""
    net = MobileNet(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, "mobilenet%s" % _version_suffix(multiplier), ctx, root)
    return net


def get_mobilenet_v2(multiplier, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """MobileNet v2 with width `multiplier`."""
    net = MobileNetV2(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, "mobilenetv2_%s" % _version_suffix(multiplier), ctx, root)
    return net


def _constructor(getter, multiplier, name):
    def constructor(**kwargs):
        return getter(multiplier, **kwargs)
    constructor.__name__ = name
    constructor.__doc__ = "%s with width multiplier %s; accepts pretrained, ctx, root." % (
        "MobileNetV2" if getter is get_mobilenet_v2 else "MobileNet", multiplier)
    return constructor


mobilenet1_0 = _constructor(get_mobilenet, 1.0, "mobilenet1_0")
mobilenet0_75 = _constructor(get_mobilenet, 0.75, "mobilenet0_75")
mobilenet0_5 = _constructor(get_mobilenet, 0.5, "mobilenet0_5")
mobilenet0_25 = _constructor(get_mobilenet, 0.25, "mobilenet0_25")
mobilenet_v2_1_0 = _constructor(get_mobilenet_v2, 1.0, "mobilenet_v2_1_0")
mobilenet_v2_0_75 = _constructor(get_mobilenet_v2, 0.75, "mobilenet_v2_0_75")
mobilenet_v2_0_5 = _constructor(get_mobilenet_v2, 0.5, "mobilenet_v2_0_5")
mobilenet_v2_0_25 = _constructor(get_mobilenet_v2, 0.25, "mobilenet_v2_0_25")
