"""mx.npx.image: the image operators (to_tensor, normalize, resize, crop, flips, colour
jitter, lighting) on mx.np arrays, and the mx.image functions and augmenters."""
from ..image import *  # noqa: F401,F403  pylint: disable=wildcard-import
from ..image.image import numeric_types, Number, cv2  # noqa: F401
from ..numpy.multiarray import _nd, _as_array

# The operators of mx.nd.image, by their names there.
OPERATORS = ['to_tensor', 'normalize', 'resize', 'crop', 'flip_left_right', 'flip_top_bottom',
             'random_flip_left_right', 'random_flip_top_bottom', 'random_brightness',
             'random_contrast', 'random_saturation', 'random_hue', 'random_color_jitter',
             'adjust_lighting', 'random_lighting']


def _make(name):
    def function(data, *args, **kwargs):
        from ..ndarray import image as _nd_image
        return _nd(getattr(_nd_image, name), _as_array(data), *args, **kwargs)
    function.__name__ = name
    function.__doc__ = 'npx.image.%s: runs operator image.%s on an mx.np array.' % (name, name)
    return function


for _name in OPERATORS:
    globals()[_name] = _make(_name)
