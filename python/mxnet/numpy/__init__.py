"""mx.np: NumPy-compatible arrays and functions (MXNet 1.9.1's numpy front end).

Use with `npx.set_np()` (or the `mx.util.use_np` decorator) so that Gluon blocks return
mx.np.ndarray and zero-size / 0-d shapes have their NumPy meaning.
"""
from .multiarray import *  # pylint: disable=wildcard-import
from .multiarray import ndarray  # noqa: F401  (mx.np.ndarray)
from .function_base import *  # pylint: disable=wildcard-import
from . import multiarray, function_base
from . import random
from . import linalg

__all__ = multiarray.__all__ + function_base.__all__ + ['random', 'linalg']  # pylint: disable=undefined-variable
