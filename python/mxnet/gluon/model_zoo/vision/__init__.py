"""Computer-vision networks of MXNet 1.9.1's model zoo, built from gluon.nn layers.

Every constructor accepts ``pretrained`` (load weights from ``root``; this build cannot
download them, see model_store.get_model_file), ``ctx``, ``root`` and the network's own
arguments (``classes``, ...). Parameter names, shapes and save_parameters keys equal 1.9.1's,
so weight files are interchangeable.
"""
from .alexnet import *
from .densenet import *
from .inception import *
from .mobilenet import *
from .resnet import *
from .squeezenet import *
from .vgg import *

_MODELS = {
    "resnet18_v1": resnet18_v1, "resnet34_v1": resnet34_v1, "resnet50_v1": resnet50_v1,
    "resnet101_v1": resnet101_v1, "resnet152_v1": resnet152_v1,
    "resnet18_v2": resnet18_v2, "resnet34_v2": resnet34_v2, "resnet50_v2": resnet50_v2,
    "resnet101_v2": resnet101_v2, "resnet152_v2": resnet152_v2,
    "vgg11": vgg11, "vgg13": vgg13, "vgg16": vgg16, "vgg19": vgg19,
    "vgg11_bn": vgg11_bn, "vgg13_bn": vgg13_bn, "vgg16_bn": vgg16_bn, "vgg19_bn": vgg19_bn,
    "alexnet": alexnet,
    "densenet121": densenet121, "densenet161": densenet161, "densenet169": densenet169,
    "densenet201": densenet201,
    "squeezenet1.0": squeezenet1_0, "squeezenet1.1": squeezenet1_1,
    "inceptionv3": inception_v3,
    "mobilenet1.0": mobilenet1_0, "mobilenet0.75": mobilenet0_75,
    "mobilenet0.5": mobilenet0_5, "mobilenet0.25": mobilenet0_25,
    "mobilenetv2_1.0": mobilenet_v2_1_0, "mobilenetv2_0.75": mobilenet_v2_0_75,
    "mobilenetv2_0.5": mobilenet_v2_0_5, "mobilenetv2_0.25": mobilenet_v2_0_25,
}


def get_model(name, **kwargs):
    """Builds the model called `name` (case-insensitive, e.g. 'resnet18_v1',
    'mobilenet0.25', 'squeezenet1.1'); kwargs go to its constructor (pretrained, classes,
    ctx, root, ...)."""
    key = name.lower()
    if key not in _MODELS:
        raise ValueError("Model %s is not supported. Available options are\n\t%s"
                         % (name, "\n\t".join(sorted(_MODELS.keys()))))
    return _MODELS[key](**kwargs)
