"""DenseNet 121/161/169/201 (Huang et al., 2016)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ...contrib.nn import HybridConcurrent, Identity
from ._common import load_pretrained

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201",
           "get_densenet"]


def _dense_layer(growth_rate, bn_size, dropout):
    """BN-ReLU-1x1 conv (bottleneck) then BN-ReLU-3x3 conv producing `growth_rate` new
    channels, concatenated to the layer's input."""
    new_features = nn.HybridSequential(prefix="")
    new_features.add(nn.BatchNorm(), nn.Activation("relu"),
                     nn.Conv2D(bn_size * growth_rate, kernel_size=1, use_bias=False),
                     nn.BatchNorm(), nn.Activation("relu"),
                     nn.Conv2D(growth_rate, kernel_size=3, padding=1, use_bias=False))
    if dropout:
        new_features.add(nn.Dropout(dropout))
    layer = HybridConcurrent(axis=1, prefix="")
    layer.add(Identity(), new_features)
    return layer


def _dense_block(num_layers, bn_size, growth_rate, dropout, stage_index):
    block = nn.HybridSequential(prefix="stage%d_" % stage_index)
    with block.name_scope():
        for _ in range(num_layers):
            block.add(_dense_layer(growth_rate, bn_size, dropout))
    return block


def _transition(num_output_features):
    """BN-ReLU-1x1 conv then 2x2 average pool: halves channels and resolution."""
    transition = nn.HybridSequential(prefix="")
    transition.add(nn.BatchNorm(), nn.Activation("relu"),
                   nn.Conv2D(num_output_features, kernel_size=1, use_bias=False),
                   nn.AvgPool2D(pool_size=2, strides=2))
    return transition


class DenseNet(HybridBlock):
    """DenseNet with `block_config[i]` dense layers in stage i. The classifier ends in a 7x7
    average pool, so inputs must be 224x224 (any size giving a 7x7 final map)."""

    def __init__(self, num_init_features, growth_rate, block_config, bn_size=4, dropout=0,
                 classes=1000, **kwargs):
        super(DenseNet, self).__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.Conv2D(num_init_features, kernel_size=7, strides=2,
                                        padding=3, use_bias=False),
                              nn.BatchNorm(), nn.Activation("relu"),
                              nn.MaxPool2D(pool_size=3, strides=2, padding=1))
            num_features = num_init_features
            for i, num_layers in enumerate(block_config):
                self.features.add(_dense_block(num_layers, bn_size, growth_rate, dropout,
                                               i + 1))
                num_features += num_layers * growth_rate
                if i != len(block_config) - 1:
                    num_features //= 2
                    self.features.add(_transition(num_features))
            self.features.add(nn.BatchNorm(), nn.Activation("relu"),
                              nn.AvgPool2D(pool_size=7), nn.Flatten())
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# num_layers -> (initial features, growth rate, dense layers per stage)
densenet_spec = {121: (64, 32, [6, 12, 24, 16]),
                 161: (96, 48, [6, 12, 36, 24]),
                 169: (64, 32, [6, 12, 32, 32]),
                 201: (64, 32, [6, 12, 48, 32])}


def get_densenet(num_layers, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """DenseNet with `num_layers` (121, 161, 169, 201) layers."""
    if num_layers not in densenet_spec:
        raise ValueError("Invalid number of DenseNet layers: %s. Options are %s"
                         % (num_layers, sorted(densenet_spec.keys())))
    num_init_features, growth_rate, block_config = densenet_spec[num_layers]
    net = DenseNet(num_init_features, growth_rate, block_config, **kwargs)
    if pretrained:
        load_pretrained(net, "densenet%d" % num_layers, ctx, root)
    return net


def _densenet_constructor(num_layers):
    def constructor(**kwargs):
        return get_densenet(num_layers, **kwargs)
    constructor.__name__ = "densenet%d" % num_layers
    constructor.__doc__ = "DenseNet-%d; accepts pretrained, ctx, root and DenseNet " \
                          "arguments." % num_layers
    return constructor


densenet121 = _densenet_constructor(121)
densenet161 = _densenet_constructor(161)
densenet169 = _densenet_constructor(169)
densenet201 = _densenet_constructor(201)
