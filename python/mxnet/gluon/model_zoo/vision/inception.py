"""Inception v3 (Szegedy et al., 2015)."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ...contrib.nn import HybridConcurrent
from ._common import load_pretrained

__all__ = ["Inception3", "inception_v3", "make_aux"]


def _basic_conv(**conv_kwargs):
    """Conv (no bias) + BatchNorm(eps 1e-3) + ReLU."""
    unit = nn.HybridSequential(prefix="")
    unit.add(nn.Conv2D(use_bias=False, **conv_kwargs), nn.BatchNorm(epsilon=0.001),
             nn.Activation("relu"))
    return unit


def _branch(pool, *convs):
    """An optional pool ('avg': 3x3/1 pad 1, 'max': 3x3/2) followed by basic convolutions,
    each given as (channels, kernel_size, strides, padding) with None meaning default."""
    branch = nn.HybridSequential(prefix="")
    if pool == "avg":
        branch.add(nn.AvgPool2D(pool_size=3, strides=1, padding=1))
    elif pool == "max":
        branch.add(nn.MaxPool2D(pool_size=3, strides=2))
    for setting in convs:
        kwargs = {key: value for key, value in
                  zip(("channels", "kernel_size", "strides", "padding"), setting)
                  if value is not None}
        branch.add(_basic_conv(**kwargs))
    return branch


def make_aux(classes, norm_layer=None, norm_kwargs=None):
    """Inception v3's auxiliary classifier head: 5x5/3 average pooling, 1x1 (128) and 5x5
    (768) basic convolutions, then a Dense layer of `classes` outputs. `norm_layer` and
    `norm_kwargs` are accepted for MXNet 1.9.1's signature; the convolutions use BatchNorm."""
    if norm_layer is not None and norm_layer is not nn.BatchNorm:
        raise ValueError('make_aux: only nn.BatchNorm normalisation is supported, got %s'
                         % (norm_layer,))
    out = nn.HybridSequential(prefix="")
    out.add(nn.AvgPool2D(pool_size=5, strides=3))
    out.add(_basic_conv(channels=128, kernel_size=1))
    out.add(_basic_conv(channels=768, kernel_size=5))
    out.add(nn.Flatten())
    out.add(nn.Dense(classes))
    return out


def _concurrent(prefix, *branch_makers):
    """Runs the branches (built inside the module's name scope) side by side."""
    module = HybridConcurrent(axis=1, prefix=prefix)
    with module.name_scope():
        for make in branch_makers:
            module.add(make())
    return module


def _module_a(pool_features, prefix):
    return _concurrent(
        prefix,
        lambda: _branch(None, (64, 1, None, None)),
        lambda: _branch(None, (48, 1, None, None), (64, 5, None, 2)),
        lambda: _branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
        lambda: _branch("avg", (pool_features, 1, None, None)))


def _module_b(prefix):
    return _concurrent(
        prefix,
        lambda: _branch(None, (384, 3, 2, None)),
        lambda: _branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
        lambda: _branch("max"))


def _module_c(channels_7x7, prefix):
    c7 = channels_7x7
    return _concurrent(
        prefix,
        lambda: _branch(None, (192, 1, None, None)),
        lambda: _branch(None, (c7, 1, None, None), (c7, (1, 7), None, (0, 3)),
                        (192, (7, 1), None, (3, 0))),
        lambda: _branch(None, (c7, 1, None, None), (c7, (7, 1), None, (3, 0)),
                        (c7, (1, 7), None, (0, 3)), (c7, (7, 1), None, (3, 0)),
                        (192, (1, 7), None, (0, 3))),
        lambda: _branch("avg", (192, 1, None, None)))


def _module_d(prefix):
    return _concurrent(
        prefix,
        lambda: _branch(None, (192, 1, None, None), (320, 3, 2, None)),
        lambda: _branch(None, (192, 1, None, None), (192, (1, 7), None, (0, 3)),
                        (192, (7, 1), None, (3, 0)), (192, 3, 2, None)),
        lambda: _branch("max"))


def _split_branch(stem_convs):
    """`stem_convs`, then 1x3 and 3x1 convolutions side by side (module E)."""
    branch = nn.HybridSequential(prefix="")
    branch.add(_branch(None, *stem_convs))
    split = HybridConcurrent(axis=1, prefix="")
    split.add(_branch(None, (384, (1, 3), None, (0, 1))),
              _branch(None, (384, (3, 1), None, (1, 0))))
    branch.add(split)
    return branch


def _module_e(prefix):
    return _concurrent(
        prefix,
        lambda: _branch(None, (320, 1, None, None)),
        lambda: _split_branch([(384, 1, None, None)]),
        lambda: _split_branch([(448, 1, None, None), (384, 3, None, 1)]),
        lambda: _branch("avg", (192, 1, None, None)))


class Inception3(HybridBlock):
    """Inception v3. The classifier ends in an 8x8 average pool, so inputs must be 299x299
    (any size giving an 8x8 final map)."""

    def __init__(self, classes=1000, **kwargs):
        super(Inception3, self).__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(_basic_conv(channels=32, kernel_size=3, strides=2),
                              _basic_conv(channels=32, kernel_size=3),
                              _basic_conv(channels=64, kernel_size=3, padding=1),
                              nn.MaxPool2D(pool_size=3, strides=2),
                              _basic_conv(channels=80, kernel_size=1),
                              _basic_conv(channels=192, kernel_size=3),
                              nn.MaxPool2D(pool_size=3, strides=2))
            self.features.add(_module_a(32, "A1_"), _module_a(64, "A2_"),
                              _module_a(64, "A3_"))
            self.features.add(_module_b("B_"))
            self.features.add(_module_c(128, "C1_"), _module_c(160, "C2_"),
                              _module_c(160, "C3_"), _module_c(192, "C4_"))
            self.features.add(_module_d("D_"))
            self.features.add(_module_e("E1_"), _module_e("E2_"))
            self.features.add(nn.AvgPool2D(pool_size=8), nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def inception_v3(pretrained=False, ctx=cpu(), root=None, **kwargs):
    """Inception v3; accepts pretrained, ctx, root and Inception3 arguments."""
    net = Inception3(**kwargs)
    if pretrained:
        load_pretrained(net, "inceptionv3", ctx, root)
    return net
