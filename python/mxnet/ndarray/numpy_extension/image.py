"""mx.nd.npx.image: the image operators on mx.np arrays (the functions of mx.npx.image)."""
from ...numpy_extension.image import OPERATORS as __all__  # noqa: F401
from ...numpy_extension.image import *  # noqa: F401,F403  pylint: disable=wildcard-import
