"""mx.sym.npx.image: the image operators (to_tensor, normalize, resize, crop, flips, colour
jitter, lighting) for Symbols; they record the operators mx.npx.image runs."""
from ...numpy_extension.image import OPERATORS as __all__  # noqa: F401


def _make(name):
    def function(data, *args, **kwargs):
        from .. import image as _sym_image
        return getattr(_sym_image, name)(data, *args, **kwargs)
    function.__name__ = name
    function.__doc__ = 'mx.sym.npx.image.%s: records operator image.%s.' % (name, name)
    return function


for _name in __all__:
    globals()[_name] = _make(_name)
