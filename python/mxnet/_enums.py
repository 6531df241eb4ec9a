"""The integer codes libmxnet and Python share: dtypes, storage types and gradient requests.

This module sits at the bottom of the package (it imports only NumPy) so that ndarray, symbol,
sparse, operator and module code can all read the same tables without importing each other.
"""
import numpy as np

__all__ = ["mx_real_t", "bfloat16", "dtype_to_mx", "dtype_str"]

mx_real_t = np.float32

# NumPy has no bfloat16; MXNet 1.9.1 names it with this structured dtype.
bfloat16 = np.dtype([("bfloat16", np.uint16)])
_bfloat16 = bfloat16

_DTYPE_NP_TO_MX = {
    None: -1,
    np.float32: 0,
    np.float64: 1,
    np.float16: 2,
    np.uint8: 3,
    np.int32: 4,
    np.int8: 5,
    np.int64: 6,
    np.bool_: 7,
    np.int16: 8,
    np.uint16: 9,
    np.uint32: 10,
    np.uint64: 11,
    bfloat16: 12,
}

_DTYPE_MX_TO_NP = {code: dtype for dtype, code in _DTYPE_NP_TO_MX.items()}

_STORAGE_TYPE_UNDEFINED = -1
_STORAGE_TYPE_DEFAULT = 0
_STORAGE_TYPE_ROW_SPARSE = 1
_STORAGE_TYPE_CSR = 2
_STORAGE_TYPE_STR_TO_ID = {"undefined": _STORAGE_TYPE_UNDEFINED, "default": _STORAGE_TYPE_DEFAULT,
                           "row_sparse": _STORAGE_TYPE_ROW_SPARSE, "csr": _STORAGE_TYPE_CSR}
_STORAGE_TYPE_ID_TO_STR = {v: k for k, v in _STORAGE_TYPE_STR_TO_ID.items()}

_GRAD_REQ_MAP = {"null": 0, "write": 1, "add": 3}


def is_bfloat16(dtype):
    """Whether `dtype` names bfloat16 ('bfloat16' or 1.9.1's record dtype)."""
    if isinstance(dtype, str):
        return dtype == "bfloat16"
    try:
        return np.dtype(dtype) == bfloat16
    except TypeError:
        return False


def to_bfloat16(values):
    """A NumPy array of 1.9.1's bfloat16 record dtype from float values: float32 rounded to
    nearest even, as the library rounds (a NaN stays a quiet NaN)."""
    a = np.asarray(values)
    if a.dtype == bfloat16:
        return a
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    out = np.where(nan, (bits >> 16) | 0x40, rounded).astype(np.uint16)
    return out.view(bfloat16).reshape(a.shape)


def dtype_to_mx(dtype):
    """MXNet dtype code of a NumPy dtype, type or name ('float32', np.int8, ...)."""
    if dtype is None:
        return -1
    if isinstance(dtype, str) and dtype == "bfloat16":
        return 12
    try:
        npd = np.dtype(dtype)
    except TypeError:
        raise TypeError("data type %r not understood" % (dtype,)) from None
    if npd == bfloat16:
        return 12
    try:
        return _DTYPE_NP_TO_MX[npd.type]
    except KeyError:
        raise TypeError("data type %s is not supported by NDArray (supported: %s)"
                        % (npd, ", ".join(np.dtype(t).name for t in _DTYPE_NP_TO_MX
                                          if t is not None and t is not bfloat16))) from None


def dtype_str(value, op=None):
    """How a `dtype` operator param is sent: the NumPy name ('float32'), 'bfloat16' or 'None'.
    A value NumPy does not know raises TypeError (as in MXNet 1.x) naming operator `op`."""
    if value is None:
        return "None"
    if isinstance(value, str) and value == "bfloat16":
        return value
    try:
        dt = np.dtype(value)
    except (TypeError, ValueError) as err:
        if op is None:
            raise
        raise TypeError("%s: argument 'dtype': %s" % (op, err)) from None
    if dt == bfloat16:
        return "bfloat16"
    return dt.name
