"""VGG 11/13/16/19 (Simonyan & Zisserman, 2014), optionally with BatchNorm after every
convolution."""
from ....context import cpu
from ....initializer import Xavier
from ...block import HybridBlock
from ... import nn
from ._common import load_pretrained

__all__ = ["VGG", "vgg11", "vgg13", "vgg16", "vgg19", "vgg11_bn", "vgg13_bn", "vgg16_bn",
           "vgg19_bn", "get_vgg"]


class VGG(HybridBlock):
    """Stages of `layers[i]` 3x3 convolutions with `filters[i]` channels, each stage ending in
    a 2x2 max-pool, then two 4096-unit hidden layers with dropout. Needs inputs of at least
    32x32."""

    def __init__(self, layers, filters, classes=1000, batch_norm=False, **kwargs):
        super(VGG, self).__init__(**kwargs)
        assert len(layers) == len(filters), \
            "VGG needs one filter count per stage: layers=%s filters=%s" % (layers, filters)
        with self.name_scope():
            self.features = self._make_features(layers, filters, batch_norm)
            for _ in range(2):
                self.features.add(nn.Dense(4096, activation="relu",
                                           weight_initializer="normal",
                                           bias_initializer="zeros"))
                self.features.add(nn.Dropout(rate=0.5))
            self.output = nn.Dense(classes, weight_initializer="normal",
                                   bias_initializer="zeros")

    def _make_features(self, layers, filters, batch_norm):
        features = nn.HybridSequential(prefix="")
        for num_convs, channels in zip(layers, filters):
            for _ in range(num_convs):
                features.add(nn.Conv2D(channels, kernel_size=3, padding=1,
                                       weight_initializer=Xavier(rnd_type="gaussian",
                                                                 factor_type="out",
                                                                 magnitude=2),
                                       bias_initializer="zeros"))
                if batch_norm:
                    features.add(nn.BatchNorm())
                features.add(nn.Activation("relu"))
            features.add(nn.MaxPool2D(strides=2))
        return features

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# num_layers -> (convolutions per stage, channels per stage)
vgg_spec = {11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]),
            13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
            16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]),
            19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512])}


def get_vgg(num_layers, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """VGG with `num_layers` (11, 13, 16, 19) layers; `batch_norm=True` adds BatchNorm."""
    if num_layers not in vgg_spec:
        raise ValueError("Invalid number of VGG layers: %s. Options are %s"
                         % (num_layers, sorted(vgg_spec.keys())))
    layers, filters = vgg_spec[num_layers]
    net = VGG(layers, filters, **kwargs)
    if pretrained:
        suffix = "_bn" if kwargs.get("batch_norm") else ""
        load_pretrained(net, "vgg%d%s" % (num_layers, suffix), ctx, root)
    return net


def _vgg_constructor(num_layers, batch_norm):
    def constructor(**kwargs):
        if batch_norm:
            kwargs["batch_norm"] = True
        return get_vgg(num_layers, **kwargs)
    constructor.__name__ = "vgg%d%s" % (num_layers, "_bn" if batch_norm else "")
    constructor.__doc__ = "VGG-%d%s; accepts pretrained, ctx, root and VGG arguments." % (
        num_layers, " with BatchNorm" if batch_norm else "")
    return constructor


vgg11 = _vgg_constructor(11, False)
vgg13 = _vgg_constructor(13, False)
vgg16 = _vgg_constructor(16, False)
vgg19 = _vgg_constructor(19, False)
vgg11_bn = _vgg_constructor(11, True)
vgg13_bn = _vgg_constructor(13, True)
vgg16_bn = _vgg_constructor(16, True)
vgg19_bn = _vgg_constructor(19, True)
