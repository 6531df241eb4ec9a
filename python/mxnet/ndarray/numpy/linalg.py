"""mx.nd.np.linalg: the functions of mx.np.linalg (mx.np.ndarray in and out)."""
from ...numpy.linalg import *  # noqa: F401,F403  pylint: disable=wildcard-import
from ...numpy.linalg import __all__  # noqa: F401
