"""`mx.sym`: symbolic graphs. Operator functions are generated at import from the library's
operator registry into `op` (star-imported here), `_internal`, `contrib`, `linalg`, `sparse`,
`image` and `random`."""
from . import _internal, contrib, linalg, op, sparse, image  # noqa: F401  (filled in below)
from . import symbol  # noqa: F401
from . import random  # noqa: F401
from . import register as _register

_register.init_symbol_module()

from .op import *  # noqa: F401,F403,E402
from .symbol import *  # noqa: F401,F403,E402
from .symbol import _install_fluent_methods  # noqa: E402

_install_fluent_methods()

__all__ = op.__all__ + symbol.__all__
