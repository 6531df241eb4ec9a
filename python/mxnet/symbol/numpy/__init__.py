"""mx.sym.np: the mx.np functions for Symbols (what `F.np` is inside a hybridized
HybridBlock.hybrid_forward under npx.set_np()). Shapes are unknown while the graph is built,
so only functions that need no shape knowledge are provided; they record the same operators
mx.np runs imperatively."""
# pylint: disable=redefined-builtin,wildcard-import
import numbers  # noqa: F401  (the module exposed it before its split)

from . import _internal  # noqa: F401
from ._symbol import *  # noqa: F401,F403
from ._symbol import __all__ as _symbol_all
from .routines import *  # noqa: F401,F403
from . import routines as _routines
from .host_routines import *  # noqa: F401,F403
from . import host_routines as _host_routines
from . import linalg, random  # noqa: F401

__all__ = _symbol_all + _routines.__all__ + _host_routines.__all__
