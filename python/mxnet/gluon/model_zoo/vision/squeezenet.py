"""SqueezeNet 1.0 and 1.1 (Iandola et al., 2016)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ...contrib.nn import HybridConcurrent
from ._common import load_pretrained

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1", "get_squeezenet"]


def _conv_relu(channels, kernel_size, padding=0):
    unit = nn.HybridSequential(prefix="")
    unit.add(nn.Conv2D(channels, kernel_size, padding=padding), nn.Activation("relu"))
    return unit


def _fire(squeeze_channels, expand1x1_channels, expand3x3_channels):
    """Fire module: a 1x1 squeeze, then 1x1 and 3x3 expands whose outputs are concatenated."""
    module = nn.HybridSequential(prefix="")
    module.add(_conv_relu(squeeze_channels, 1))
    expand = HybridConcurrent(axis=1, prefix="")
    expand.add(_conv_relu(expand1x1_channels, 1), _conv_relu(expand3x3_channels, 3, 1))
    module.add(expand)
    return module


def _ceil_pool():
    return nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True)


class SqueezeNet(HybridBlock):
    """SqueezeNet `version` '1.0' or '1.1'. The classifier ends in a 13x13 average pool, so
    inputs must be 224x224 (or any size giving a 13x13 final feature map)."""

    def __init__(self, version, classes=1000, **kwargs):
        super(SqueezeNet, self).__init__(**kwargs)
        assert version in ["1.0", "1.1"], \
            "Unsupported SqueezeNet version {version}: 1.0 or 1.1 expected".format(
                version=version)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            if version == "1.0":
                self.features.add(nn.Conv2D(96, kernel_size=7, strides=2),
                                  nn.Activation("relu"), _ceil_pool(),
                                  _fire(16, 64, 64), _fire(16, 64, 64), _fire(32, 128, 128),
                                  _ceil_pool(),
                                  _fire(32, 128, 128), _fire(48, 192, 192),
                                  _fire(48, 192, 192), _fire(64, 256, 256),
                                  _ceil_pool(),
                                  _fire(64, 256, 256))
            else:
                self.features.add(nn.Conv2D(64, kernel_size=3, strides=2),
                                  nn.Activation("relu"), _ceil_pool(),
                                  _fire(16, 64, 64), _fire(16, 64, 64),
                                  _ceil_pool(),
                                  _fire(32, 128, 128), _fire(32, 128, 128),
                                  _ceil_pool(),
                                  _fire(48, 192, 192), _fire(48, 192, 192),
                                  _fire(64, 256, 256), _fire(64, 256, 256))
            self.features.add(nn.Dropout(0.5))
            self.output = nn.HybridSequential(prefix="")
            self.output.add(nn.Conv2D(classes, kernel_size=1), nn.Activation("relu"),
                            nn.AvgPool2D(13), nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def get_squeezenet(version, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """SqueezeNet '1.0' or '1.1'."""
    net = SqueezeNet(version, **kwargs)
    if pretrained:
        load_pretrained(net, "squeezenet%s" % version, ctx, root)
    return net


def squeezenet1_0(**kwargs):
    """SqueezeNet 1.0; accepts pretrained, ctx, root and SqueezeNet arguments."""
    return get_squeezenet("1.0", **kwargs)


def squeezenet1_1(**kwargs):
    """SqueezeNet 1.1 (fewer FLOPs than 1.0 at the same accuracy)."""
    return get_squeezenet("1.1", **kwargs)
