"""ResNet v1 (He et al., 2015: post-activation) and v2 (He et al., 2016: pre-activation)
with 18, 34, 50, 101 or 152 layers."""
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ._common import load_pretrained

__all__ = ["ResNetV1", "ResNetV2", "BasicBlockV1", "BasicBlockV2", "BottleneckV1",
           "BottleneckV2", "resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1",
           "resnet152_v1", "resnet18_v2", "resnet34_v2", "resnet50_v2", "resnet101_v2",
           "resnet152_v2", "get_resnet"]


def _conv3x3(channels, stride, in_channels):
    return nn.Conv2D(channels, kernel_size=3, strides=stride, padding=1, use_bias=False,
                     in_channels=in_channels)


def _projection_v1(channels, stride, in_channels):
    """1x1 strided convolution + BatchNorm that matches the shortcut to the block output."""
    shortcut = nn.HybridSequential(prefix="")
    shortcut.add(nn.Conv2D(channels, kernel_size=1, strides=stride, use_bias=False,
                           in_channels=in_channels))
    shortcut.add(nn.BatchNorm())
    return shortcut


class BasicBlockV1(HybridBlock):
    """Two 3x3 convolutions (BatchNorm after each, ReLU between) plus the shortcut, then
    ReLU. Used by ResNet-18/34 v1."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BasicBlockV1, self).__init__(**kwargs)
        # Children are deliberately created in the enclosing scope (not this block's):
        # that is what gives 1.9.1's parameter names ('resnetv10_stage1_conv0_weight').
        self.body = nn.HybridSequential(prefix="")
        self.body.add(_conv3x3(channels, stride, in_channels), nn.BatchNorm(),
                      nn.Activation("relu"), _conv3x3(channels, 1, channels), nn.BatchNorm())
        self.downsample = _projection_v1(channels, stride, in_channels) if downsample else None

    def hybrid_forward(self, F, x):
        # body before shortcut, shortcut as the left operand: the graph's node order then
        # matches 1.9.1's exported JSON.
        out = self.body(x)
        shortcut = self.downsample(x) if self.downsample else x
        return F.Activation(shortcut + out, act_type="relu")


class BottleneckV1(HybridBlock):
    """1x1 reduce (carrying the stride), 3x3, 1x1 expand, each followed by BatchNorm, plus
    the shortcut, then ReLU. Used by ResNet-50/101/152 v1."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BottleneckV1, self).__init__(**kwargs)
        width = channels // 4
        self.body = nn.HybridSequential(prefix="")
        self.body.add(nn.Conv2D(width, kernel_size=1, strides=stride), nn.BatchNorm(),
                      nn.Activation("relu"), _conv3x3(width, 1, width), nn.BatchNorm(),
                      nn.Activation("relu"), nn.Conv2D(channels, kernel_size=1, strides=1),
                      nn.BatchNorm())
        self.downsample = _projection_v1(channels, stride, in_channels) if downsample else None

    def hybrid_forward(self, F, x):
        out = self.body(x)
        shortcut = self.downsample(x) if self.downsample else x
        return F.Activation(out + shortcut, act_type="relu")


class BasicBlockV2(HybridBlock):
    """Pre-activation basic block: (BN, ReLU, 3x3 conv) twice plus the shortcut, which is
    projected from the first activation when the shape changes."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BasicBlockV2, self).__init__(**kwargs)
        self.bn1 = nn.BatchNorm()
        self.conv1 = _conv3x3(channels, stride, in_channels)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(channels, 1, channels)
        self.downsample = (nn.Conv2D(channels, 1, stride, use_bias=False,
                                     in_channels=in_channels) if downsample else None)

    def hybrid_forward(self, F, x):
        shortcut = x
        x = F.Activation(self.bn1(x), act_type="relu")
        if self.downsample:
            shortcut = self.downsample(x)
        x = self.conv1(x)
        x = F.Activation(self.bn2(x), act_type="relu")
        return self.conv2(x) + shortcut


class BottleneckV2(HybridBlock):
    """Pre-activation bottleneck: (BN, ReLU, conv) with 1x1 reduce, strided 3x3 and 1x1
    expand, plus the (projected) shortcut."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BottleneckV2, self).__init__(**kwargs)
        width = channels // 4
        self.bn1 = nn.BatchNorm()
        self.conv1 = nn.Conv2D(width, kernel_size=1, strides=1, use_bias=False)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(width, stride, width)
        self.bn3 = nn.BatchNorm()
        self.conv3 = nn.Conv2D(channels, kernel_size=1, strides=1, use_bias=False)
        self.downsample = (nn.Conv2D(channels, 1, stride, use_bias=False,
                                     in_channels=in_channels) if downsample else None)

    def hybrid_forward(self, F, x):
        shortcut = x
        x = F.Activation(self.bn1(x), act_type="relu")
        if self.downsample:
            shortcut = self.downsample(x)
        x = self.conv1(x)
        x = F.Activation(self.bn2(x), act_type="relu")
        x = self.conv2(x)
        x = F.Activation(self.bn3(x), act_type="relu")
        return self.conv3(x) + shortcut


def _make_stage(block, num_blocks, channels, stride, stage_index, in_channels):
    """One resolution stage; only its first block changes stride/width."""
    stage = nn.HybridSequential(prefix="stage%d_" % stage_index)
    with stage.name_scope():
        stage.add(block(channels, stride, channels != in_channels, in_channels=in_channels,
                        prefix=""))
        for _ in range(num_blocks - 1):
            stage.add(block(channels, 1, False, in_channels=channels, prefix=""))
    return stage


def _add_stem(features, channels, thumbnail):
    """7x7/2 convolution + BN + ReLU + 3x3/2 max-pool, or one 3x3 convolution for small
    (CIFAR-sized) inputs when `thumbnail`."""
    if thumbnail:
        features.add(_conv3x3(channels, 1, 0))
    else:
        features.add(nn.Conv2D(channels, 7, 2, 3, use_bias=False), nn.BatchNorm(),
                     nn.Activation("relu"), nn.MaxPool2D(3, 2, 1))


class ResNetV1(HybridBlock):
    """ResNet v1: `layers[i]` blocks of type `block` per stage, `channels` = [stem width,
    stage widths...]."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super(ResNetV1, self).__init__(**kwargs)
        assert len(layers) == len(channels) - 1, \
            "ResNetV1 needs one more channel count than stages: layers=%s channels=%s" \
            % (layers, channels)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            _add_stem(self.features, channels[0], thumbnail)
            for i, num_blocks in enumerate(layers):
                self.features.add(_make_stage(block, num_blocks, channels[i + 1],
                                              1 if i == 0 else 2, i + 1, channels[i]))
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes, in_units=channels[-1])

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class ResNetV2(HybridBlock):
    """ResNet v2 (pre-activation); the input first goes through a BatchNorm without
    learned scale/shift."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super(ResNetV2, self).__init__(**kwargs)
        assert len(layers) == len(channels) - 1, \
            "ResNetV2 needs one more channel count than stages: layers=%s channels=%s" \
            % (layers, channels)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.BatchNorm(scale=False, center=False))
            _add_stem(self.features, channels[0], thumbnail)
            in_channels = channels[0]
            for i, num_blocks in enumerate(layers):
                self.features.add(_make_stage(block, num_blocks, channels[i + 1],
                                              1 if i == 0 else 2, i + 1, in_channels))
                in_channels = channels[i + 1]
            self.features.add(nn.BatchNorm(), nn.Activation("relu"), nn.GlobalAvgPool2D(),
                              nn.Flatten())
            self.output = nn.Dense(classes, in_units=in_channels)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# num_layers -> (block type, blocks per stage, [stem width] + stage widths)
resnet_spec = {18: ("basic_block", [2, 2, 2, 2], [64, 64, 128, 256, 512]),
               34: ("basic_block", [3, 4, 6, 3], [64, 64, 128, 256, 512]),
               50: ("bottle_neck", [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
               101: ("bottle_neck", [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
               152: ("bottle_neck", [3, 8, 36, 3], [64, 256, 512, 1024, 2048])}
resnet_net_versions = [ResNetV1, ResNetV2]
resnet_block_versions = [{"basic_block": BasicBlockV1, "bottle_neck": BottleneckV1},
                         {"basic_block": BasicBlockV2, "bottle_neck": BottleneckV2}]


def get_resnet(version, num_layers, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """ResNet `version` (1 or 2) with `num_layers` (18, 34, 50, 101, 152) layers; extra
    kwargs (classes, thumbnail, prefix...) go to ResNetV1/ResNetV2."""
    assert num_layers in resnet_spec, \
        "Invalid number of layers: %d. Options are %s" % (num_layers,
                                                          str(sorted(resnet_spec.keys())))
    assert 1 <= version <= 2, "Invalid resnet version: %d. Options are 1 and 2." % version
    block_type, layers, channels = resnet_spec[num_layers]
    net = resnet_net_versions[version - 1](resnet_block_versions[version - 1][block_type],
                                           layers, channels, **kwargs)
    if pretrained:
        load_pretrained(net, "resnet%d_v%d" % (num_layers, version), ctx, root)
    return net


def _resnet_constructor(version, num_layers):
    def constructor(**kwargs):
        return get_resnet(version, num_layers, **kwargs)
    constructor.__name__ = "resnet%d_v%d" % (num_layers, version)
    constructor.__doc__ = ("ResNet-%d v%d; accepts pretrained, ctx, root and ResNetV%d "
                           "arguments." % (num_layers, version, version))
    return constructor


resnet18_v1 = _resnet_constructor(1, 18)
resnet34_v1 = _resnet_constructor(1, 34)
resnet50_v1 = _resnet_constructor(1, 50)
resnet101_v1 = _resnet_constructor(1, 101)
resnet152_v1 = _resnet_constructor(1, 152)
resnet18_v2 = _resnet_constructor(2, 18)
resnet34_v2 = _resnet_constructor(2, 34)
resnet50_v2 = _resnet_constructor(2, 50)
resnet101_v2 = _resnet_constructor(2, 101)
resnet152_v2 = _resnet_constructor(2, 152)
