"""Generated functions for the `_np_*` / `_npi_*` / `_npx_*` operators (filled at import)."""
import sys as _sys

from ...base import list_op_names as _list_op_names, op_handle as _op_handle
from ...base import _is_np_op

__all__ = []


def _init():
    from ..register import make_ndarray_function
    module = _sys.modules[__name__]
    for name in _list_op_names():
        if not _is_np_op(name):
            continue
        function = make_ndarray_function(_op_handle(name), name, name)
        function.__module__ = __name__
        setattr(module, name, function)
        __all__.append(name)


_init()
