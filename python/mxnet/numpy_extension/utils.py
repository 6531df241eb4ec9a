"""mx.npx.save / mx.npx.load: mx.np arrays to and from MXNet's binary NDArray file format."""
# pylint: disable=redefined-builtin
import ctypes  # noqa: F401  (names MXNet 1.9.1's module exposes)

from ..base import NDArrayHandle, mx_uint, string_types, check_call  # noqa: F401
from ..base import c_handle_array, c_str, c_str_array, py_str  # noqa: F401
from ..util import is_np_array, is_np_shape  # noqa: F401
from ..numpy.multiarray import ndarray  # noqa: F401

__all__ = ['save', 'load']


def save(file, arr):
    """Save an mx.np array, a list of them or a dict of name -> array to `file`."""
    from ..ndarray import utils as _utils
    if isinstance(arr, dict):
        arr = {k: v.as_nd_ndarray() for k, v in arr.items()}
    elif isinstance(arr, (list, tuple)):
        arr = [v.as_nd_ndarray() for v in arr]
    else:
        arr = [arr.as_nd_ndarray()]
    _utils.save(file, arr)


def load(file):
    """The arrays in `file` as mx.np arrays: a dict when saved with names, else a list."""
    from ..ndarray import utils as _utils
    res = _utils.load(file)
    if isinstance(res, dict):
        return {k: v.as_np_ndarray() for k, v in res.items()}
    return [v.as_np_ndarray() for v in res]
