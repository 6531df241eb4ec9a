"""Array creation dispatching on storage type, and saving/loading arrays to files."""
import ctypes
import os

from ..base import (_LIB, check_call, c_str, c_str_array, c_handle_array, mx_uint, py_str,
                    NDArrayHandle, string_types)
from .ndarray import NDArray, array as _array, empty as _empty_ndarray, zeros as _zeros_ndarray
from ._sparse import _ndarray_cls, zeros as _zeros_sparse, empty as _empty_sparse

__all__ = ["zeros", "empty", "array", "load", "load_frombuffer", "save"]


def zeros(shape, ctx=None, dtype=None, stype=None, **kwargs):
    """An all-zero array; `stype` 'default' (dense, the default), 'row_sparse' or 'csr'."""
    if stype is None or stype == "default":
        return _zeros_ndarray(shape, ctx, dtype, **kwargs)
    return _zeros_sparse(stype, shape, ctx, dtype, **kwargs)


def empty(shape, ctx=None, dtype=None, stype=None):
    """An uninitialised array (sparse arrays are empty, i.e. all zero)."""
    if stype is None or stype == "default":
        return _empty_ndarray(shape, ctx, dtype)
    return _empty_sparse(stype, shape, ctx, dtype)


def array(source_array, ctx=None, dtype=None):
    """An NDArray copy of `source_array` (see mx.nd.ndarray.array)."""
    if isinstance(source_array, NDArray) and source_array.stype != "default":
        return source_array.astype(dtype or source_array.dtype).copyto(
            ctx or source_array.context)
    return _array(source_array, ctx=ctx, dtype=dtype)


def _fspath(fname):
    if isinstance(fname, os.PathLike):
        fname = os.fspath(fname)
    if not isinstance(fname, string_types):
        raise TypeError("fname required to be a string or path, got %s" % type(fname).__name__)
    return fname


def _unpack(out_size, handles, out_name_size, names):
    arrays = [_ndarray_cls(NDArrayHandle(handles[i])) for i in range(out_size.value)]
    if out_name_size.value == 0:
        return arrays
    if out_name_size.value != out_size.value:
        raise RuntimeError("library returned %d names for %d arrays"
                           % (out_name_size.value, out_size.value))
    return {py_str(names[i]): arrays[i] for i in range(out_size.value)}


def load(fname):
    """Load arrays saved by :func:`save`: a list, or a dict when they were saved with names."""
    fname = _fspath(fname)
    out_size = mx_uint()
    out_name_size = mx_uint()
    handles = ctypes.POINTER(NDArrayHandle)()
    names = ctypes.POINTER(ctypes.c_char_p)()
    check_call(_LIB.MXNDArrayLoad(c_str(fname), ctypes.byref(out_size), ctypes.byref(handles),
                                  ctypes.byref(out_name_size), ctypes.byref(names)))
    return _unpack(out_size, handles, out_name_size, names)


def load_frombuffer(buf):
    """Like :func:`load`, from the bytes of such a file."""
    if not isinstance(buf, (bytes, bytearray)):
        raise TypeError("buf required to be a bytes or bytearray object")
    out_size = mx_uint()
    out_name_size = mx_uint()
    handles = ctypes.POINTER(NDArrayHandle)()
    names = ctypes.POINTER(ctypes.c_char_p)()
    check_call(_LIB.MXNDArrayLoadFromBuffer(bytes(buf), ctypes.c_size_t(len(buf)),
                                            ctypes.byref(out_size), ctypes.byref(handles),
                                            ctypes.byref(out_name_size), ctypes.byref(names)))
    return _unpack(out_size, handles, out_name_size, names)


def save(fname, data):
    """Save an NDArray, a list of NDArrays, or a dict str -> NDArray to file `fname`.

    The file is MXNet's binary NDArray-list format, readable by MXNet 1.x's mx.nd.load.
    """
    fname = _fspath(fname)
    if isinstance(data, NDArray):
        data = [data]
    if isinstance(data, dict):
        keys = list(data.keys())
        vals = list(data.values())
        if any(not isinstance(k, string_types) for k in keys) or \
                any(not isinstance(v, NDArray) for v in vals):
            raise TypeError("save only accepts a dict str->NDArray or a list of NDArrays")
        c_keys = c_str_array(keys)
        handles = c_handle_array(vals)
    elif isinstance(data, (list, tuple)):
        if any(not isinstance(v, NDArray) for v in data):
            raise TypeError("save only accepts a dict str->NDArray or a list of NDArrays")
        c_keys = None
        handles = c_handle_array(list(data))
    else:
        raise ValueError("data needs to either be a NDArray, dict of str, NDArray pairs or a "
                         "list of NDarrays.")
    check_call(_LIB.MXNDArraySave(c_str(fname), mx_uint(len(handles)), handles, c_keys))
