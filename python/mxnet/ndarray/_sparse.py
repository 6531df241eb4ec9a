"""Minimal sparse NDArray classes (storage types 'csr' and 'row_sparse').

Results of operators with sparse outputs are wrapped in these classes. They convert to dense
with `tostype('default')` / `asnumpy()` and expose their data/aux arrays; sparse indexing and
the sparse constructors (csr_matrix, row_sparse_array) are not implemented yet.
"""
import ctypes

from ..base import _LIB, check_call, NDArrayHandle, mx_int64
from ..context import current_context
from . import _internal
from ._invoke import set_ndarray_class
from .ndarray import (NDArray, _STORAGE_TYPE_DEFAULT, _STORAGE_TYPE_ROW_SPARSE, _STORAGE_TYPE_CSR,
                      _STORAGE_TYPE_UNDEFINED, _STORAGE_TYPE_STR_TO_ID, dtype_to_mx,
                      _normalize_shape, mx_real_t)

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "_ndarray_cls"]

_STORAGE_AUX_TYPES = {"row_sparse": [6], "csr": [6, 6]}    # int64 indices (and indptr)


class BaseSparseNDArray(NDArray):
    """Common behaviour of sparse arrays."""
    __slots__ = ()

    def __repr__(self):
        shape_info = "x".join("%d" % x for x in self.shape)
        return "\n<%s %s @%s>" % (self.__class__.__name__, shape_info, self.context)

    def asnumpy(self):
        return self.tostype("default").asnumpy()

    def __getitem__(self, key):
        raise NotImplementedError("indexing a %s is not supported" % type(self).__name__)

    def __setitem__(self, key, value):
        raise NotImplementedError("assigning into a %s is not supported" % type(self).__name__)

    def reshape(self, *shape, **kwargs):
        raise NotImplementedError("reshape of a sparse array is not supported")

    def _aux_data(self, i):
        hdl = NDArrayHandle()
        check_call(_LIB.MXNDArrayGetAuxNDArray(self.handle, ctypes.c_uint(i), ctypes.byref(hdl)))
        return NDArray(hdl)

    @property
    def data(self):
        """The stored (non-zero) values as a dense NDArray."""
        hdl = NDArrayHandle()
        check_call(_LIB.MXNDArrayGetDataNDArray(self.handle, ctypes.byref(hdl)))
        return NDArray(hdl)


class CSRNDArray(BaseSparseNDArray):
    """A 2-D compressed-sparse-row array: data, indices (columns) and indptr."""
    __slots__ = ()

    @property
    def indices(self):
        """Column index of each stored value."""
        return self._aux_data(1)

    @property
    def indptr(self):
        """Row pointers into data/indices (length rows + 1)."""
        return self._aux_data(0)


class RowSparseNDArray(BaseSparseNDArray):
    """An array whose stored rows are listed in `indices`; other rows are zero."""
    __slots__ = ()

    @property
    def indices(self):
        """Indices of the stored rows."""
        return self._aux_data(0)


_CLASSES = {_STORAGE_TYPE_DEFAULT: NDArray, _STORAGE_TYPE_ROW_SPARSE: RowSparseNDArray,
            _STORAGE_TYPE_CSR: CSRNDArray}
set_ndarray_class(NDArray, {_STORAGE_TYPE_ROW_SPARSE: RowSparseNDArray,
                            _STORAGE_TYPE_CSR: CSRNDArray})


def _ndarray_cls(handle, writable=True, stype=_STORAGE_TYPE_UNDEFINED):
    """Wrap `handle` in the class matching its storage type."""
    if stype == _STORAGE_TYPE_UNDEFINED:
        code = ctypes.c_int()
        check_call(_LIB.MXNDArrayGetStorageType(handle, ctypes.byref(code)))
        stype = code.value
    return _CLASSES.get(stype, NDArray)(handle, writable=writable)


def _new_alloc_handle(stype, shape, ctx, delay_alloc, dtype):
    aux_types = _STORAGE_AUX_TYPES[stype]
    hdl = NDArrayHandle()
    n_aux = len(aux_types)
    check_call(_LIB.MXNDArrayCreateSparseEx64(
        ctypes.c_int(_STORAGE_TYPE_STR_TO_ID[stype]), (mx_int64 * len(shape))(*shape),
        ctypes.c_int(len(shape)), ctypes.c_int(ctx.device_typeid), ctypes.c_int(ctx.device_id),
        ctypes.c_int(int(delay_alloc)), ctypes.c_int(dtype_to_mx(dtype)), ctypes.c_uint(n_aux),
        (ctypes.c_int * n_aux)(*aux_types), (ctypes.c_int * n_aux)(*([1] * n_aux)),
        (mx_int64 * n_aux)(*([0] * n_aux)), ctypes.byref(hdl)))
    return hdl


def empty(stype, shape, ctx=None, dtype=None):
    """An empty (all-zero) sparse array of storage type `stype`."""
    if stype == "default":
        from .ndarray import empty as dense_empty
        return dense_empty(shape, ctx=ctx, dtype=dtype)
    if stype not in _STORAGE_AUX_TYPES:
        raise ValueError("unknown storage type " + str(stype))
    ctx = current_context() if ctx is None else ctx
    dtype = mx_real_t if dtype is None else dtype
    return _ndarray_cls(_new_alloc_handle(stype, _normalize_shape(shape), ctx, True, dtype))


def zeros(stype, shape, ctx=None, dtype=None, **kwargs):
    """An all-zero array of storage type `stype` ('default', 'row_sparse', 'csr')."""
    if stype == "default":
        from .ndarray import zeros as dense_zeros
        return dense_zeros(shape, ctx=ctx, dtype=dtype, **kwargs)
    out = empty(stype, shape, ctx, dtype)
    ctx = current_context() if ctx is None else ctx
    dtype = mx_real_t if dtype is None else dtype
    return _internal._zeros(shape=_normalize_shape(shape), ctx=ctx, dtype=dtype, out=out,
                            **kwargs)
