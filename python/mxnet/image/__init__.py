"""Image decoding, resizing, cropping and augmentation (``mx.image`` / ``mx.img``), and ImageIter.

The decoders and resize/border ops are libmxnet operators over libjpeg-turbo and libpng
(``_cvimdecode``, ``_cvimread``, ``_cvimresize``, ``_cvcopyMakeBorder``); images are
(height, width, channels) NDArrays, RGB by default.
"""
from .image import *  # noqa: F401,F403
from . import image
from .image import Number, cv2, numeric_types  # noqa: F401  (MXNet 1.9.1's package exposes them)
from . import detection
from .detection import *  # noqa: F401,F403
