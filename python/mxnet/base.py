"""ctypes plumbing: loading libmxnet, checking return codes, typed errors, C conversions."""
import ctypes
import re
import sys

import numpy as np

from . import libinfo

__all__ = ["MXNetError", "check_call", "c_str", "py_str", "c_array", "c_array_buf",
           "c_str_array", "c_handle_array", "mx_uint", "mx_int64", "NDArrayHandle",
           "SymbolHandle", "OpHandle", "ExecutorHandle", "_LIB", "string_types",
           "numeric_types", "integer_types", "register_error", "get_last_ffi_error"]

string_types = (str,)
numeric_types = (float, int, np.generic)
integer_types = (int, np.integer)

mx_uint = ctypes.c_uint
mx_int = ctypes.c_int
mx_int64 = ctypes.c_int64
mx_float = ctypes.c_float
mx_float_p = ctypes.POINTER(mx_float)
NDArrayHandle = ctypes.c_void_p
FunctionHandle = ctypes.c_void_p
OpHandle = ctypes.c_void_p
CachedOpHandle = ctypes.c_void_p
SymbolHandle = ctypes.c_void_p
ExecutorHandle = ctypes.c_void_p
DataIterCreatorHandle = ctypes.c_void_p
DataIterHandle = ctypes.c_void_p
KVStoreHandle = ctypes.c_void_p
RecordIOHandle = ctypes.c_void_p


class MXNetError(RuntimeError):
    """Error raised by the mxnet library."""


class InternalError(MXNetError):
    """A broken invariant inside the library (a bug), not bad input."""


_ERROR_TYPES = {"MXNetError": MXNetError, "InternalError": InternalError}


def register_error(name, cls=None):
    """Register an error class so C++ errors of type `name` raise it (MXNet 1.x signature)."""
    def _register(mycls):
        _ERROR_TYPES[name] = mycls
        return mycls
    if cls is None:
        if isinstance(name, type):
            cls, name = name, name.__name__
            return _register(cls)
        return _register
    return _register(cls)


def _make_typed(builtin):
    cls = type(builtin.__name__, (MXNetError, builtin), {
        "__doc__": "MXNetError that is also a %s." % builtin.__name__,
        "__module__": __name__})
    _ERROR_TYPES[builtin.__name__] = cls
    return cls


ValueError = _make_typed(ValueError)             # noqa: A001  (MXNet's names)
TypeError = _make_typed(TypeError)               # noqa: A001
AttributeError = _make_typed(AttributeError)     # noqa: A001
IndexError = _make_typed(IndexError)             # noqa: A001
NotImplementedError = _make_typed(NotImplementedError)  # noqa: A001
MemoryError = _make_typed(MemoryError)           # noqa: A001

_TYPE_PREFIX = re.compile(r"^([A-Za-z0-9_.]+): ")


def c2pyerror(err_msg):
    """Split "<Type>: message" into (exception class, message)."""
    match = _TYPE_PREFIX.match(err_msg)
    if match and match.group(1) in _ERROR_TYPES:
        return _ERROR_TYPES[match.group(1)], err_msg
    return MXNetError, err_msg


def _load_lib():
    path = libinfo.find_lib_path()[0]
    lib = ctypes.CDLL(path, ctypes.RTLD_LOCAL)
    lib.MXGetLastError.restype = ctypes.c_char_p
    lib.NNGetLastError.restype = ctypes.c_char_p
    return lib


_LIB = _load_lib()
__version__ = libinfo.__version__


def get_last_ffi_error():
    """The exception for the library's last error on this thread."""
    msg = py_str(_LIB.MXGetLastError())
    cls, text = c2pyerror(msg)
    return cls(text)


def check_call(ret):
    """Raise the library's last error when a C API call returned non-zero."""
    if ret != 0:
        raise get_last_ffi_error()


def c_str(string):
    """Python str -> const char*."""
    return ctypes.c_char_p(string.encode("utf-8"))


def py_str(x):
    """bytes -> str."""
    return x.decode("utf-8") if isinstance(x, bytes) else x


def c_str_array(strings):
    """list of str -> const char**."""
    arr = (ctypes.c_char_p * len(strings))()
    arr[:] = [s.encode("utf-8") for s in strings]
    return arr


def c_array(ctype, values):
    """Python sequence -> ctype array."""
    out = (ctype * len(values))()
    out[:] = values
    return out


def c_array_buf(ctype, buf):
    """Buffer -> ctype array sharing its memory."""
    return (ctype * len(buf)).from_buffer(buf)


def c_handle_array(objs):
    """Sequence of objects with .handle -> void* array."""
    arr = (ctypes.c_void_p * len(objs))()
    arr[:] = [o.handle for o in objs]
    return arr


def ctypes2buffer(cptr, length):
    """Copy `length` bytes from a char pointer into a bytearray."""
    if not isinstance(cptr, ctypes.POINTER(ctypes.c_char)):
        raise TypeError("expected char pointer")
    res = bytearray(length)
    rptr = (ctypes.c_char * length).from_buffer(res)
    if not ctypes.memmove(rptr, cptr, length):
        raise RuntimeError("memmove failed")
    return res


def ctypes2numpy_shared(cptr, shape):
    """A NumPy view over float memory owned by the library."""
    if not isinstance(cptr, ctypes.POINTER(mx_float)):
        raise RuntimeError("expected float pointer")
    size = 1
    for s in shape:
        size *= s
    dbuffer = (mx_float * size).from_address(ctypes.addressof(cptr.contents))
    return np.frombuffer(dbuffer, dtype=np.float32).reshape(shape)


def _notify_shutdown():
    if hasattr(_LIB, "MXNotifyShutdown"):
        _LIB.MXNotifyShutdown()


if sys.version_info[0] < 3:
    raise ImportError("mxnet needs Python 3")
