"""`mx.nd`: imperative n-dimensional arrays and the operators that act on them.

Operator functions (mx.nd.dot, mx.nd.FullyConnected, ...) are generated at import from the
library's operator registry into `op` (star-imported here), `_internal`, `contrib`, `linalg`,
`sparse`, `image` and `random`. `mx.nd.numpy` (`mx.nd.np`) is the mx.np frontend's view from
mx.nd, so mxnet/__init__ imports it after mx.np.
"""
from . import _internal, contrib, linalg, op, image  # noqa: F401  (filled in below)
from . import ndarray, indexing  # noqa: F401
from . import sparse, random, utils  # noqa: F401
from . import register as _register

_register.init_ndarray_module()

from .op import *  # noqa: F401,F403,E402
from .ndarray import *  # noqa: F401,F403,E402
from .ndarray import NDArray, _DTYPE_NP_TO_MX, _DTYPE_MX_TO_NP, _GRAD_REQ_MAP  # noqa: E402
from .ndarray import _new_empty_handle  # noqa: F401,E402
from .utils import load, load_frombuffer, save, zeros, empty, array  # noqa: F401,E402
from .sparse import _ndarray_cls  # noqa: F401,E402
from .sparse import CSRNDArray, RowSparseNDArray, BaseSparseNDArray  # noqa: F401,E402
from .cached_op import CachedOp  # noqa: F401,E402

__all__ = op.__all__ + ndarray.__all__ + ["load", "load_frombuffer", "save", "CSRNDArray",
                                          "RowSparseNDArray", "BaseSparseNDArray"]
