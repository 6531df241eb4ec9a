"""Zero-copy exchange with other frameworks through DLPack capsules.

Protocol: a producer returns a PyCapsule named 'dltensor' around a DLManagedTensor*; a consumer
takes ownership by renaming the capsule 'used_dltensor' and later calls the tensor's deleter.
An unconsumed capsule calls the deleter when it is garbage collected.
"""
import ctypes

from ..base import _LIB, check_call, NDArrayHandle, c_str

__all__ = ["to_dlpack_for_read", "to_dlpack_for_write", "from_dlpack", "from_numpy"]

DLPackHandle = ctypes.c_void_p

_PyCapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_c_str_dltensor = c_str("dltensor")
_c_str_used_dltensor = c_str("used_dltensor")


def _capi(name, restype, *argtypes):
    # Private prototypes: ctypes.pythonapi's shared function objects are left untouched.
    return ctypes.PYFUNCTYPE(restype, *argtypes)((name, ctypes.pythonapi))


_capsule_new = _capi("PyCapsule_New", ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                     _PyCapsuleDestructor)
_capsule_is_valid = _capi("PyCapsule_IsValid", ctypes.c_int, ctypes.py_object, ctypes.c_char_p)
_capsule_get_pointer = _capi("PyCapsule_GetPointer", ctypes.c_void_p, ctypes.py_object,
                             ctypes.c_char_p)
_capsule_set_name = _capi("PyCapsule_SetName", ctypes.c_int, ctypes.py_object, ctypes.c_char_p)
_capsule_set_destructor = _capi("PyCapsule_SetDestructor", ctypes.c_int, ctypes.py_object,
                                ctypes.c_void_p)
# Raw-pointer forms, for the destructor: the capsule is being deallocated and must not be
# wrapped in a new Python reference.
_raw_is_valid = _capi("PyCapsule_IsValid", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)
_raw_get_pointer = _capi("PyCapsule_GetPointer", ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_char_p)
_incref = _capi("Py_IncRef", None, ctypes.py_object)
_decref = _capi("Py_DecRef", None, ctypes.py_object)
_decref_raw = _capi("Py_DecRef", None, ctypes.c_void_p)


def _dlpack_deleter(pycapsule):
    # Called with the raw PyObject* of a capsule being destroyed; only an unconsumed capsule
    # (still named 'dltensor') still owns its tensor.
    capsule = ctypes.c_void_p(pycapsule)
    if _raw_is_valid(capsule, _c_str_dltensor):
        ptr = _raw_get_pointer(capsule, _c_str_dltensor)
        check_call(_LIB.MXNDArrayCallDLPackDeleter(ctypes.c_void_p(ptr)))


_c_dlpack_deleter = _PyCapsuleDestructor(_dlpack_deleter)


def _to_capsule(handle):
    dlpack = DLPackHandle()
    check_call(_LIB.MXNDArrayToDLPack(handle, ctypes.byref(dlpack)))
    return _capsule_new(dlpack, _c_str_dltensor, _c_dlpack_deleter)


def to_dlpack_for_read(data):
    """A 'dltensor' capsule sharing `data`'s memory, after pending writes finished."""
    data.wait_to_read()
    return _to_capsule(data.handle)


def to_dlpack_for_write(data):
    """A 'dltensor' capsule sharing `data`'s memory, after pending reads and writes finished."""
    check_call(_LIB.MXNDArrayWaitToWrite(data.handle))
    return _to_capsule(data.handle)


def from_dlpack(dlpack):
    """An NDArray sharing the memory of a 'dltensor' capsule, which is consumed.

    Also accepts any object with a ``__dlpack__`` method (e.g. a NumPy array).
    """
    from .ndarray import NDArray
    if hasattr(dlpack, "__dlpack__"):
        dlpack = dlpack.__dlpack__()
    handle = NDArrayHandle()
    if not _capsule_is_valid(dlpack, _c_str_dltensor):
        raise ValueError("Invalid DLPack Tensor. DLTensor capsules can be consumed only once.")
    ptr = ctypes.c_void_p(_capsule_get_pointer(dlpack, _c_str_dltensor))
    check_call(_LIB.MXNDArrayFromDLPackEx(ptr, ctypes.c_bool(False), ctypes.byref(handle)))
    # The NDArray owns the tensor now: mark the capsule consumed, drop its destructor.
    _capsule_set_name(dlpack, _c_str_used_dltensor)
    _capsule_set_destructor(dlpack, None)
    return NDArray(handle=handle)


class DLContext(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("type_code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]
    TYPE_MAP = {
        "int8": (0, 8, 1), "int16": (0, 16, 1), "int32": (0, 32, 1), "int64": (0, 64, 1),
        "uint8": (1, 8, 1), "uint16": (1, 16, 1), "uint32": (1, 32, 1), "uint64": (1, 64, 1),
        "bool": (6, 8, 1), "float16": (2, 16, 1), "float32": (2, 32, 1), "float64": (2, 64, 1),
    }


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("ctx", DLContext), ("ndim", ctypes.c_int),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_DeleterFunc = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", _DeleterFunc)]


@_DeleterFunc
def _numpy_tensor_deleter(managed):
    # Drop the reference from_numpy took on the NumPy array (kept in manager_ctx).
    _decref_raw(ctypes.c_void_p(managed.contents.manager_ctx))


def from_numpy(ndarray, zero_copy=True):
    """An NDArray sharing (zero_copy=True) or copying a C-contiguous NumPy array.

    With zero_copy the NumPy array is made read-only and kept alive while the NDArray uses it.
    """
    from .ndarray import NDArray, array
    if not zero_copy:
        return array(ndarray, dtype=ndarray.dtype)
    if not ndarray.flags["C_CONTIGUOUS"]:
        raise ValueError("Only c-contiguous arrays are supported for zero-copy")
    dtype_name = str(ndarray.dtype)
    if dtype_name not in DLDataType.TYPE_MAP:
        raise ValueError(dtype_name + " is not supported.")
    ndarray.flags["WRITEABLE"] = False
    shape = (ctypes.c_int64 * max(ndarray.ndim, 1))(*ndarray.shape)
    managed = DLManagedTensor()
    managed.dl_tensor.data = ctypes.c_void_p(ndarray.ctypes.data)
    managed.dl_tensor.ctx = DLContext(1, 0)
    managed.dl_tensor.ndim = ndarray.ndim
    managed.dl_tensor.dtype = DLDataType(*DLDataType.TYPE_MAP[dtype_name])
    managed.dl_tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    managed.dl_tensor.strides = None
    managed.dl_tensor.byte_offset = 0
    pyobj = ctypes.py_object(ndarray)
    _incref(pyobj)
    managed.manager_ctx = id(ndarray)       # the PyObject* (CPython)
    managed.deleter = _numpy_tensor_deleter
    handle = NDArrayHandle()
    try:
        # transient_handle=True: the library copies the struct; `managed` may go away now.
        check_call(_LIB.MXNDArrayFromDLPackEx(ctypes.byref(managed), ctypes.c_bool(True),
                                              ctypes.byref(handle)))
    except Exception:
        _decref(pyobj)
        raise
    return NDArray(handle=handle)

