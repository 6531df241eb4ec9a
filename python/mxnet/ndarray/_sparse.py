"""Sparse NDArrays: CSRNDArray (2-D compressed sparse rows) and RowSparseNDArray.

A sparse array keeps its stored values in a dense `data` array and its layout in aux arrays
(csr: `indptr`, `indices`; row_sparse: `indices` of the stored rows). Operators that have no
sparse implementation accept sparse inputs by densifying them (storage fallback).
"""
import ctypes
import numbers

import numpy as np

from ..base import _LIB, check_call, NDArrayHandle, mx_int64, mx_uint
from ..context import Context, current_context
from . import _internal
from ._invoke import set_ndarray_class
from .._enums import (_STORAGE_TYPE_DEFAULT, _STORAGE_TYPE_ROW_SPARSE, _STORAGE_TYPE_CSR,
                      _STORAGE_TYPE_UNDEFINED, _STORAGE_TYPE_STR_TO_ID, dtype_to_mx, _DTYPE_MX_TO_NP,
                      mx_real_t)
from .ndarray import NDArray, _normalize_shape
from .ndarray import array as _dense_array
from .ndarray import empty as dense_empty
from .ndarray import zeros as dense_zeros



def _is_scipy_sparse(obj):
    """True for a scipy.sparse matrix (scipy is imported only when one is passed in)."""
    return type(obj).__module__.startswith("scipy.sparse")


def _scipy_sparse():
    try:
        import scipy.sparse as spsp  # optional, and slow to import: only on demand
    except ImportError:
        raise ImportError("this operation needs scipy") from None
    return spsp

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "_ndarray_cls", "csr_matrix",
           "row_sparse_array", "zeros", "empty", "array", "add", "subtract", "multiply", "divide"]

_STORAGE_AUX_TYPES = {"row_sparse": [np.int64], "csr": [np.int64, np.int64]}


def _new_alloc_handle(stype, shape, ctx, delay_alloc, dtype, aux_types=None, aux_shapes=None):
    """A new sparse array handle; aux arrays get `aux_types` and `aux_shapes` (default empty)."""
    aux_types = _STORAGE_AUX_TYPES[stype] if aux_types is None else aux_types
    n_aux = len(aux_types)
    aux_shapes = [(0,)] * n_aux if aux_shapes is None else aux_shapes
    if stype == "csr" and aux_shapes == [(0,)] * n_aux:
        aux_shapes = [(shape[0] + 1,), (0,)]  # an all-zero csr has a valid indptr
    aux_ndims = [len(s) for s in aux_shapes]
    flat = [d for s in aux_shapes for d in s]
    hdl = NDArrayHandle()
    check_call(_LIB.MXNDArrayCreateSparseEx64(
        ctypes.c_int(_STORAGE_TYPE_STR_TO_ID[stype]), (mx_int64 * len(shape))(*shape),
        ctypes.c_int(len(shape)), ctypes.c_int(ctx.device_typeid), ctypes.c_int(ctx.device_id),
        ctypes.c_int(int(delay_alloc)), ctypes.c_int(dtype_to_mx(dtype)), mx_uint(n_aux),
        (ctypes.c_int * n_aux)(*[dtype_to_mx(t) for t in aux_types]),
        (ctypes.c_int * n_aux)(*aux_ndims), (mx_int64 * len(flat))(*flat), ctypes.byref(hdl)))
    return hdl


def _as_dense_nd(src, dtype, ctx):
    """`src` (NDArray / NumPy / list) as a dense NDArray of `dtype`."""
    if isinstance(src, NDArray):
        if src.stype != "default":
            raise TypeError("expected a dense array, got a %s" % type(src).__name__)
        return src.astype(dtype) if np.dtype(src.dtype) != np.dtype(dtype) else src
    return _dense_array(np.asarray(src, dtype=dtype), ctx=ctx, dtype=dtype)


def _src_dtype(src, dtype):
    """MXNet 1.9.1's default dtype: the source's for NDArray/NumPy sources, else float32."""
    if dtype is not None:
        return dtype
    if isinstance(src, (NDArray, np.ndarray)):
        return src.dtype
    return mx_real_t


class BaseSparseNDArray(NDArray):
    """Common behaviour of sparse arrays."""
    __slots__ = ()

    def __repr__(self):
        shape_info = "x".join("%d" % x for x in self.shape)
        return "\n<%s %s @%s>" % (self.__class__.__name__, shape_info, self.context)

    def __reduce__(self):
        return self.__class__, (None,), self.__getstate__()

    def asnumpy(self):
        """The dense values as a NumPy array."""
        return self.tostype("default").asnumpy()

    def astype(self, dtype, copy=True):
        """A copy with values of `dtype` (same storage type and layout)."""
        if not copy and np.dtype(dtype) == np.dtype(self.dtype):
            return self
        aux = [self._aux_data(i) for i in range(self._num_aux)]
        return _from_parts(self.stype, self.shape, self.context, dtype,
                           self._data().astype(dtype), aux, self._aux_types)

    def copyto(self, other):
        """Copy into `other` (an NDArray of any storage type) or to a new array on a Context."""
        from .op import cast_storage
        if isinstance(other, NDArray):
            if other.handle.value == self.handle.value:
                return False
            src = self
            if np.dtype(other.dtype) != np.dtype(self.dtype):
                src = self.astype(other.dtype)
            if other.context != src.context:  # between devices: an engine copy (any stypes)
                return _internal._copyto(src, out=other)
            return cast_storage(src, stype=other.stype, out=other)
        if isinstance(other, Context):
            res = empty(self.stype, self.shape, ctx=other, dtype=self.dtype)
            if other != self.context:
                return _internal._copyto(self, out=res)
            return cast_storage(self, stype=self.stype, out=res)
        raise TypeError("copyto does not support type " + str(type(other)))

    def copy(self):
        return self.copyto(self.context)

    def reshape(self, *shape, **kwargs):
        raise NotImplementedError("reshape of a %s is not supported" % type(self).__name__)

    def __setitem__(self, key, value):
        if not (isinstance(key, slice) and key == slice(None)):
            raise ValueError("%s only supports assignment to the whole array (x[:] = value)"
                             % type(self).__name__)
        if isinstance(value, NDArray):
            if value.handle.value != self.handle.value:
                value.copyto(self)
        elif isinstance(value, numbers.Number):
            if self.stype != "row_sparse":
                raise ValueError("assigning a scalar to a %s is not supported"
                                 % type(self).__name__)
            # As MXNet 1.x: every row is stored, holding the value (0 too: initializers).
            from .sparse import row_sparse_array
            full = np.full(self.shape, value, dtype=self.dtype)
            rows = np.arange(self.shape[0], dtype=np.int64)
            row_sparse_array((full, rows), shape=self.shape, ctx=self.context,
                             dtype=self.dtype).copyto(self)
        else:
            _dense_array(np.asarray(value), ctx=self.context, dtype=self.dtype).copyto(self)

    def check_format(self, full_check=True):
        """Raise MXNetError if the layout is invalid (indices out of range, bad indptr, ...)."""
        check_call(_LIB.MXNDArraySyncCheckFormat(self.handle, ctypes.c_bool(full_check)))

    @property
    def _num_aux(self):
        return 2 if self.stype == "csr" else 1

    @property
    def _aux_types(self):
        out = []
        for i in range(self._num_aux):
            code = ctypes.c_int()
            check_call(_LIB.MXNDArrayGetAuxType(self.handle, mx_uint(i), ctypes.byref(code)))
            out.append(_DTYPE_MX_TO_NP[code.value])
        return out

    def _aux_data(self, i):
        """A dense copy of aux array i."""
        hdl = NDArrayHandle()
        check_call(_LIB.MXNDArrayGetAuxNDArray(self.handle, mx_uint(i), ctypes.byref(hdl)))
        return NDArray(hdl)

    def _data(self):
        hdl = NDArrayHandle()
        check_call(_LIB.MXNDArrayGetDataNDArray(self.handle, ctypes.byref(hdl)))
        return NDArray(hdl)

    @property
    def data(self):
        """The stored values as a dense NDArray (a copy)."""
        return self._data()

    # Same-shape arithmetic keeps sparse storage where an operator supports it.
    def __add__(self, other):
        return add(self, other)

    def __sub__(self, other):
        return subtract(self, other)

    def __mul__(self, other):
        return multiply(self, other)

    def __truediv__(self, other):
        return divide(self, other)

    __div__ = __truediv__


class CSRNDArray(BaseSparseNDArray):
    """A 2-D compressed-sparse-row array: `data`, `indices` (columns) and `indptr`."""
    __slots__ = ()

    @property
    def indices(self):
        """Column index of each stored value."""
        return self._aux_data(1)

    @property
    def indptr(self):
        """Row pointers into data/indices (length rows + 1)."""
        return self._aux_data(0)

    def __getitem__(self, key):
        """Rows: x[i] (a 1-row csr) or x[begin:end] (step 1)."""
        rows = self.shape[0]
        if isinstance(key, numbers.Integral):
            if key < 0:
                key += rows
            if not 0 <= key < rows:
                raise IndexError("index %d is out of bounds for axis 0 with size %d" % (key, rows))
            begin, end = key, key + 1
        elif isinstance(key, slice):
            if key.step not in (None, 1):
                raise ValueError("CSRNDArray only supports slicing with step 1")
            begin, end, _ = key.indices(rows)
            end = max(begin, end)
        else:
            raise ValueError("CSRNDArray supports integer and slice indexing of rows only, got %s"
                             % type(key).__name__)
        indptr = self.indptr.asnumpy()
        lo, hi = int(indptr[begin]), int(indptr[end])
        return csr_matrix((self.data.asnumpy()[lo:hi], self.indices.asnumpy()[lo:hi],
                           indptr[begin:end + 1] - lo), shape=(end - begin, self.shape[1]),
                          ctx=self.context, dtype=self.dtype)

    def slice(self, begin, end):  # pylint: disable=arguments-differ
        return self[begin:end]

    def tostype(self, stype):
        if stype == "row_sparse":
            raise ValueError("cast_storage from csr to row_sparse is not supported")
        return super().tostype(stype)

    def asscipy(self):
        """A scipy.sparse.csr_matrix with the same values (needs SciPy)."""
        return _scipy_sparse().csr_matrix((self.data.asnumpy(), self.indices.asnumpy(),
                                 self.indptr.asnumpy()), shape=self.shape, dtype=self.dtype)


class RowSparseNDArray(BaseSparseNDArray):
    """An array whose stored rows are listed in `indices`; the other rows are zero."""
    __slots__ = ()

    @property
    def indices(self):
        """Indices of the stored rows (increasing)."""
        return self._aux_data(0)

    def __getitem__(self, key):
        if isinstance(key, slice) and key == slice(None):
            return self
        raise ValueError("RowSparseNDArray only supports [:] for __getitem__")

    def tostype(self, stype):
        if stype == "csr":
            raise ValueError("cast_storage from row_sparse to csr is not supported")
        return super().tostype(stype)

    def retain(self, *args, **kwargs):
        """The stored rows whose index is listed (see mx.nd.sparse.retain)."""
        from . import sparse as _sparse_ops  # the generated `retain` (op _sparse_retain)
        return _sparse_ops.retain(self, *args, **kwargs)


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


def _from_parts(stype, shape, ctx, dtype, data, aux, aux_types):
    """A sparse array made of dense `data` and `aux` arrays (copied)."""
    hdl = _new_alloc_handle(stype, shape, ctx, False, dtype, aux_types,
                            [a.shape for a in aux])
    result = _ndarray_cls(hdl)
    check_call(_LIB.MXNDArraySyncCopyFromNDArray(result.handle, data.handle, ctypes.c_int(-1)))
    for i, a in enumerate(aux):
        check_call(_LIB.MXNDArraySyncCopyFromNDArray(result.handle, a.handle, ctypes.c_int(i)))
    return result


def csr_matrix(arg1, shape=None, ctx=None, dtype=None):
    """A CSRNDArray from (data, indices, indptr), a shape (M, N), a dense array, a scipy csr
    matrix or another CSRNDArray."""
    ctx = current_context() if ctx is None else ctx
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = arg1
        dtype = _src_dtype(data, dtype)
        itype = ptype = np.int64  # as MXNet 1.9.1: aux arrays are always int64
        data = _as_dense_nd(data, dtype, ctx)
        indices = _as_dense_nd(indices, itype, ctx)
        indptr = _as_dense_nd(indptr, ptype, ctx)
        if shape is None:
            if indices.shape[0] == 0:
                raise ValueError("csr_matrix: cannot infer the shape of an empty matrix; pass shape")
            shape = (indptr.shape[0] - 1, int(indices.asnumpy().max()) + 1)
        if len(shape) != 2:
            raise ValueError("csr_matrix: shape must be 2-D, got %s" % (shape,))
        if data.ndim != 1 or indices.ndim != 1 or indptr.ndim != 1:
            raise ValueError("csr_matrix: data, indices and indptr must be 1-D")
        return _from_parts("csr", tuple(shape), ctx, dtype, data, [indptr, indices],
                           [ptype, itype])
    if isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(d, numbers.Integral)
                                                         for d in arg1):
        return zeros("csr", arg1, ctx=ctx, dtype=dtype)
    if isinstance(arg1, CSRNDArray):
        return arg1.astype(dtype or arg1.dtype).copyto(ctx)
    if _is_scipy_sparse(arg1):
        csr = arg1.tocsr()
        csr.sort_indices()
        return csr_matrix((csr.data, csr.indices, csr.indptr), shape=csr.shape, ctx=ctx,
                          dtype=_src_dtype(csr.data, dtype))
    if isinstance(arg1, (NDArray, np.ndarray, list)):
        dense = arg1 if isinstance(arg1, NDArray) else _dense_array(
            arg1, ctx=ctx, dtype=_src_dtype(arg1, dtype))
        if dtype is not None:
            dense = dense.astype(dtype)
        return dense.tostype("csr")
    raise TypeError("csr_matrix: unsupported argument of type %s" % type(arg1).__name__)


def row_sparse_array(arg1, shape=None, ctx=None, dtype=None):
    """A RowSparseNDArray from (data, indices), a shape, a dense array or another
    RowSparseNDArray."""
    ctx = current_context() if ctx is None else ctx
    if isinstance(arg1, tuple) and len(arg1) == 2 and not all(
            isinstance(d, numbers.Integral) for d in arg1):
        data, indices = arg1
        dtype = _src_dtype(data, dtype)
        itype = np.int64
        data = _as_dense_nd(data, dtype, ctx)
        indices = _as_dense_nd(indices, itype, ctx)
        if shape is None:
            if indices.shape[0] == 0:
                raise ValueError("row_sparse_array: cannot infer the shape without rows; "
                                 "pass shape")
            shape = (int(indices.asnumpy().max()) + 1,) + tuple(data.shape[1:])
        shape = tuple(shape)
        if indices.ndim != 1 or data.ndim != len(shape) or data.shape[0] != indices.shape[0] or \
                tuple(data.shape[1:]) != shape[1:]:
            raise ValueError("row_sparse_array: data of shape %s and indices of shape %s do not "
                             "fit shape %s" % (data.shape, indices.shape, shape))
        return _from_parts("row_sparse", shape, ctx, dtype, data, [indices], [itype])
    if isinstance(arg1, tuple) and all(isinstance(d, numbers.Integral) for d in arg1):
        return zeros("row_sparse", arg1, ctx=ctx, dtype=dtype)
    if isinstance(arg1, RowSparseNDArray):
        return arg1.astype(dtype or arg1.dtype).copyto(ctx)
    if isinstance(arg1, (NDArray, np.ndarray, list)):
        dense = arg1 if isinstance(arg1, NDArray) else _dense_array(
            arg1, ctx=ctx, dtype=_src_dtype(arg1, dtype))
        if dtype is not None:
            dense = dense.astype(dtype)
        return dense.tostype("row_sparse")
    raise TypeError("row_sparse_array: unsupported argument of type %s" % type(arg1).__name__)


def empty(stype, shape, ctx=None, dtype=None):
    """An all-zero array of storage type `stype` (sparse arrays store nothing)."""
    if stype == "default":
        return dense_empty(shape, ctx=ctx, dtype=dtype)
    if stype not in _STORAGE_AUX_TYPES:
        raise ValueError("unknown storage type " + str(stype))
    ctx = current_context() if ctx is None else ctx
    dtype = mx_real_t if dtype is None else dtype
    return _ndarray_cls(_new_alloc_handle(stype, _normalize_shape(shape), ctx, True, dtype))


def zeros(stype, shape, ctx=None, dtype=None, **kwargs):
    """An all-zero array of storage type `stype` ('default', 'row_sparse', 'csr')."""
    if stype == "default":
        return dense_zeros(shape, ctx=ctx, dtype=dtype, **kwargs)
    out = kwargs.pop("out", None)
    res = empty(stype, shape, ctx, dtype)
    if out is not None:
        return res.copyto(out)
    return res


def array(source_array, ctx=None, dtype=None):
    """A sparse array copied from a sparse NDArray or a scipy.sparse matrix."""
    if isinstance(source_array, BaseSparseNDArray):
        dtype = source_array.dtype if dtype is None else dtype
        return source_array.astype(dtype).copyto(ctx or source_array.context)
    if _is_scipy_sparse(source_array):
        return csr_matrix(source_array, ctx=ctx, dtype=dtype)
    raise ValueError("Unexpected source_array type %s: expected a sparse NDArray or a "
                     "scipy.sparse matrix" % type(source_array).__name__)


def _binary(lhs, rhs, same_shape_op, broadcast_op, scalar_op, rscalar_op=None):
    from . import op
    if isinstance(lhs, NDArray) and isinstance(rhs, NDArray):
        if lhs.shape == rhs.shape:
            return getattr(op, same_shape_op)(lhs, rhs)
        return getattr(op, broadcast_op)(lhs, rhs)
    if isinstance(lhs, NDArray) and isinstance(rhs, numbers.Number):
        return getattr(_internal, scalar_op)(lhs, scalar=float(rhs))
    if isinstance(rhs, NDArray) and isinstance(lhs, numbers.Number):
        return getattr(_internal, rscalar_op or scalar_op)(rhs, scalar=float(lhs))
    raise TypeError("unsupported operand types %s and %s" % (type(lhs).__name__,
                                                             type(rhs).__name__))


def add(lhs, rhs):
    """Element-wise sum; row_sparse + row_sparse of the same shape stays row_sparse."""
    return _binary(lhs, rhs, "elemwise_add", "broadcast_add", "_plus_scalar")


def subtract(lhs, rhs):
    """Element-wise difference; row_sparse - row_sparse stays row_sparse."""
    return _binary(lhs, rhs, "elemwise_sub", "broadcast_sub", "_minus_scalar", "_rminus_scalar")


def multiply(lhs, rhs):
    """Element-wise product; row_sparse * row_sparse stays row_sparse."""
    return _binary(lhs, rhs, "elemwise_mul", "broadcast_mul", "_mul_scalar")


def divide(lhs, rhs):
    """Element-wise quotient (dense result)."""
    return _binary(lhs, rhs, "elemwise_div", "broadcast_div", "_div_scalar", "_rdiv_scalar")
