"""mx.nd.np.random: the samplers of mx.np.random (mx.np.ndarray out)."""
from ...numpy.random import *  # noqa: F401,F403  pylint: disable=wildcard-import
from ...numpy.random import __all__  # noqa: F401
