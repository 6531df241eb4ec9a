"""mx.nd.np: the imperative NumPy-compatible functions (what `F.np` is in an unhybridized
HybridBlock under npx.set_np()). They take and return mx.np.ndarray; mx.np's functions are
these same functions. `_internal` holds the raw `_np_*` / `_npi_*` / `_npx_*` operators."""
# pylint: disable=wildcard-import
from . import _internal  # noqa: F401
from ...numpy.multiarray import __all__ as _multiarray_all
from ...numpy.function_base import __all__ as _function_base_all
from ...numpy.routines import __all__ as _routines_all
from ...numpy.multiarray import *  # noqa: F401,F403
from ...numpy.function_base import *  # noqa: F401,F403
from ...numpy.routines import *  # noqa: F401,F403
from . import linalg, random  # noqa: F401

__all__ = [n for n in _multiarray_all + _function_base_all + _routines_all if n != 'ndarray']
