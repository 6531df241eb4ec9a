"""mx.np: NumPy-compatible arrays and functions (MXNet 1.9.1's numpy front end).

Use with `npx.set_np()` (or the `mx.util.use_np` decorator) so that Gluon blocks return
mx.np.ndarray and zero-size / 0-d shapes have their NumPy meaning.
"""
from .multiarray import *  # pylint: disable=wildcard-import
from .multiarray import ndarray  # noqa: F401  (mx.np.ndarray)
from .function_base import *  # pylint: disable=wildcard-import
from .routines import *  # pylint: disable=wildcard-import
from .fallback import *  # pylint: disable=wildcard-import
from .stride_tricks import *  # pylint: disable=wildcard-import
from .io import *  # pylint: disable=wildcard-import
from . import multiarray, function_base, routines, fallback, stride_tricks, io, utils
from . import random
from . import linalg

__all__ = (multiarray.__all__ + function_base.__all__ + routines.__all__  # pylint: disable=undefined-variable
           + fallback.__all__ + stride_tricks.__all__ + io.__all__ + ['random', 'linalg'])
