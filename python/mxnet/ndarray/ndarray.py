"""The NDArray class and the array functions of `mx.nd` that are written by hand.

An NDArray is a handle to an n-dimensional array owned by libmxnet. Operations are asynchronous:
they return once queued, and `asnumpy()`, `wait_to_read()` or `mx.nd.waitall()` wait for the
result (and raise any error the operator hit while running).
"""
import ctypes
import operator
import warnings
from functools import reduce

import numpy as np

from ..base import (_LIB, check_call, c_handle_array, c_array, mx_uint, mx_int64,
                    NDArrayHandle, numeric_types, integer_types, get_last_ffi_error,
                    lib_function, ctypes2buffer)
from ..context import Context, current_context
from . import _internal, op
from ._invoke import (NDArrayBase, OPS, invoke_nd_nd, invoke_nd_scalar, invoke_nd,
                      set_ndarray_class)
from . import indexing as _indexing
from ._shape import infer_reshape, shape_size
from .._enums import (mx_real_t, dtype_to_mx, _DTYPE_NP_TO_MX, _DTYPE_MX_TO_NP, _GRAD_REQ_MAP,
                      _STORAGE_TYPE_ID_TO_STR)
# The shared vocabulary used to live here; user code still imports it from this module.
from .._enums import (is_bfloat16 as _is_bfloat16, to_bfloat16 as _to_bfloat16)
from .._enums import (_bfloat16, _STORAGE_TYPE_UNDEFINED, _STORAGE_TYPE_DEFAULT,  # noqa: F401
                      _STORAGE_TYPE_ROW_SPARSE, _STORAGE_TYPE_CSR, _STORAGE_TYPE_STR_TO_ID)
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array as native_array  # noqa: F401
from builtins import slice as py_slice  # noqa: F401
from ..base import mx_int, c_array_buf, c_str, DLPackHandle  # noqa: F401
from ..util import is_np_array  # noqa: F401
from ..runtime import Features  # noqa: F401

__all__ = ["NDArray", "concatenate", "_DTYPE_NP_TO_MX", "_DTYPE_MX_TO_NP", "_GRAD_REQ_MAP",
           "ones", "add", "arange", "linspace", "eye", "divide", "equal", "full", "greater",
           "greater_equal", "imdecode", "lesser", "lesser_equal", "logical_and", "logical_or",
           "logical_xor", "maximum", "minimum", "moveaxis", "modulo", "multiply", "not_equal",
           "onehot_encode", "power", "subtract", "true_divide", "waitall", "_new_empty_handle",
           "histogram", "split_v2", "to_dlpack_for_read", "to_dlpack_for_write", "from_dlpack",
           "from_numpy", "zeros", "empty", "array", "negative"]

_DEVTYPE2STR = Context.devtype2str

_MXNDArrayGetShapeEx64 = lib_function("MXNDArrayGetShapeEx64")
_MXNDArrayGetDType = lib_function("MXNDArrayGetDType")
_MXNDArrayAt64 = lib_function("MXNDArrayAt64")
_MXNDArraySlice64 = lib_function("MXNDArraySlice64")
_MXNDArrayReshape64 = lib_function("MXNDArrayReshape64")


def _get_shape(handle):
    ndim = ctypes.c_int()
    pdata = ctypes.POINTER(mx_int64)()
    if _MXNDArrayGetShapeEx64(handle, ctypes.byref(ndim), ctypes.byref(pdata)) != 0:
        raise get_last_ffi_error()
    n = ndim.value
    if n < 0:
        return None
    return tuple(pdata[:n])


def _new_empty_handle():
    """A new handle to a "none" array (no shape, dtype or storage yet)."""
    hdl = NDArrayHandle()
    check_call(_LIB.MXNDArrayCreateNone(ctypes.byref(hdl)))
    return hdl


def _new_alloc_handle(shape, ctx, delay_alloc, dtype=mx_real_t):
    """A new handle to a dense array of `shape`, `dtype` on `ctx` (MXNDArrayCreateEx64)."""
    hdl = NDArrayHandle()
    dims = (mx_int64 * len(shape))(*shape)
    check_call(_LIB.MXNDArrayCreateEx64(
        dims, ctypes.c_int(len(shape)), ctypes.c_int(ctx.device_typeid),
        ctypes.c_int(ctx.device_id), ctypes.c_int(int(delay_alloc)),
        ctypes.c_int(dtype_to_mx(dtype)), ctypes.byref(hdl)))
    return hdl


def _normalize_shape(shape):
    if isinstance(shape, integer_types):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def _fluent_method(op_name):
    def method(self, *args, **kwargs):
        return getattr(op, op_name)(self, *args, **kwargs)
    method.__name__ = op_name
    method.__qualname__ = "NDArray." + op_name
    method.__doc__ = ("Convenience fluent method for :py:func:`%s`.\n\n"
                      "The arguments are the same as for :py:func:`%s`, with\n"
                      "this array as data." % (op_name, op_name))
    return method


_FLUENT_METHODS = (
    "abs", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "argmax",
    "argmax_channel", "argmin", "argsort", "broadcast_axes", "cbrt", "ceil", "clip", "cos",
    "cosh", "degrees", "depth_to_space", "diag", "exp", "expm1", "fix", "flip", "floor", "log",
    "log10", "log1p", "log2", "log_softmax", "max", "mean", "min", "nanprod", "nansum", "norm",
    "one_hot", "ones_like", "pad", "pick", "prod", "radians", "rcbrt", "reciprocal", "relu",
    "repeat", "reshape_like", "rint", "round", "rsqrt", "shape_array", "sigmoid", "sign", "sin",
    "sinh", "size_array", "slice", "slice_axis", "slice_like", "softmax", "softmin", "sort",
    "space_to_depth", "split", "sqrt", "square", "sum", "swapaxes", "take", "tan", "tanh",
    "tile", "topk", "transpose", "trunc", "zeros_like", "dot", "batch_dot")


class NDArray(NDArrayBase):
    """An array of fixed-size items on a device, owned by libmxnet.

    Create one with :func:`array`, :func:`zeros`, :func:`empty`, ... rather than directly;
    ``NDArray(handle)`` wraps an existing ``NDArrayHandle`` and takes ownership of it.
    """
    __slots__ = ()
    # Make NumPy call our reflected operators (np_array + nd -> nd.__radd__).
    __array_priority__ = 1000.0
    _tvm_tcode = 19

    # ---- basic properties ---------------------------------------------------------------
    def __repr__(self):
        shape_info = "x".join("%d" % x for x in self.shape)
        return "\n%s\n<%s %s @%s>" % (str(self.asnumpy()), self.__class__.__name__,
                                      shape_info, self.context)

    def __reduce__(self):
        return NDArray, (None,), self.__getstate__()

    def __getstate__(self):
        handle = self.handle
        this = {"handle": None}
        if handle is not None:
            length = ctypes.c_size_t()
            cptr = ctypes.POINTER(ctypes.c_char)()
            check_call(_LIB.MXNDArraySaveRawBytes(handle, ctypes.byref(length),
                                                  ctypes.byref(cptr)))
            this["handle"] = ctypes2buffer(cptr, length.value)
        return this

    def __setstate__(self, state):
        buf = state["handle"]
        self.writable = True
        if buf is None:
            self.handle = None
            return
        if not isinstance(buf, bytearray):
            buf = bytearray(buf)
        handle = NDArrayHandle()
        ptr = (ctypes.c_char * len(buf)).from_buffer(buf)
        check_call(_LIB.MXNDArrayLoadFromRawBytes(ptr, ctypes.c_size_t(len(buf)),
                                                  ctypes.byref(handle)))
        self.handle = handle

    def __deepcopy__(self, memo):
        return self.copy()

    def __hash__(self):
        return id(self) // 16

    @property
    def shape(self):
        """Tuple of array dimensions."""
        ndim = ctypes.c_int()
        pdata = ctypes.POINTER(mx_int64)()
        if _MXNDArrayGetShapeEx64(self.handle, ctypes.byref(ndim), ctypes.byref(pdata)) != 0:
            raise get_last_ffi_error()
        n = ndim.value
        if n < 0:
            return None
        return tuple(pdata[:n])

    @property
    def size(self):
        """Number of elements."""
        return shape_size(self.shape)

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self.shape)

    @property
    def dtype(self):
        """Element type, as a NumPy type (``numpy.float32``, ...)."""
        code = ctypes.c_int()
        if _MXNDArrayGetDType(self.handle, ctypes.byref(code)) != 0:
            raise get_last_ffi_error()
        return _DTYPE_MX_TO_NP[code.value]

    @property
    def context(self):
        """Device context of the array."""
        dev_typeid = ctypes.c_int()
        dev_id = ctypes.c_int()
        check_call(_LIB.MXNDArrayGetContext(self.handle, ctypes.byref(dev_typeid),
                                            ctypes.byref(dev_id)))
        return Context(_DEVTYPE2STR.get(dev_typeid.value, "cpu"), dev_id.value)

    ctx = context

    @property
    def stype(self):
        """Storage type: 'default', 'row_sparse' or 'csr'."""
        code = ctypes.c_int()
        check_call(_LIB.MXNDArrayGetStorageType(self.handle, ctypes.byref(code)))
        return _STORAGE_TYPE_ID_TO_STR[code.value]

    @property
    def T(self):  # pylint: disable=invalid-name
        """The array with axes reversed (itself for ndim < 2)."""
        if len(self.shape) < 2:
            return self
        return op.transpose(self)

    @property
    def grad(self):
        """The gradient buffer attached by attach_grad(), or None."""
        hdl = NDArrayHandle()
        check_call(_LIB.MXNDArrayGetGrad(self.handle, ctypes.byref(hdl)))
        if hdl.value is None:
            return None
        from .sparse import _ndarray_cls
        return _ndarray_cls(hdl)

    @property
    def _fresh_grad(self):
        out = ctypes.c_int()
        check_call(_LIB.MXNDArrayGetGradState(self.handle, ctypes.byref(out)))
        return out.value

    @_fresh_grad.setter
    def _fresh_grad(self, state):
        check_call(_LIB.MXNDArraySetGradState(self.handle, ctypes.c_int(state)))

    # ---- host transfer ------------------------------------------------------------------
    def asnumpy(self):
        """A NumPy copy of the array (waits for pending writes, raising their errors)."""
        shape = self.shape
        dtype = self.dtype
        data = np.empty(shape, dtype=dtype)
        check_call(_LIB.MXNDArraySyncCopyToCPU(self.handle, ctypes.c_void_p(data.ctypes.data),
                                               ctypes.c_size_t(data.size)))
        return data

    def asscalar(self):
        """The only element, as a NumPy scalar; ValueError unless size is 1."""
        if self.size != 1:
            raise ValueError("The current array is not a scalar")
        return self.asnumpy().reshape(-1)[0]

    def _sync_copyfrom(self, source_array):
        """Copy host data (broadcast to this array's shape) into the array."""
        dtype = self.dtype
        if dtype == _bfloat16:  # NumPy cannot convert numbers to the record dtype: round here
            source_array = _to_bfloat16(np.asarray(source_array, dtype=None if isinstance(
                source_array, np.ndarray) and source_array.dtype == _bfloat16 else np.float32))
        if not isinstance(source_array, np.ndarray):
            try:
                source_array = np.array(source_array, dtype=dtype)
            except Exception:
                raise TypeError("array must consist of array-like data, type %s is not "
                                "supported" % str(type(source_array))) from None
        source_array = np.asarray(source_array, dtype=dtype, order="C")
        shape = self.shape
        if source_array.shape != shape:
            try:
                source_array = np.ascontiguousarray(np.broadcast_to(source_array, shape))
            except ValueError:
                raise ValueError("Shape inconsistent: expected %s vs got %s"
                                 % (str(shape), str(source_array.shape))) from None
        check_call(_LIB.MXNDArraySyncCopyFromCPU(
            self.handle, ctypes.c_void_p(source_array.ctypes.data),
            ctypes.c_size_t(source_array.size)))

    def wait_to_read(self):
        """Block until pending writes finish; raises an error they hit."""
        check_call(_LIB.MXNDArrayWaitToRead(self.handle))

    def wait_to_write(self):
        """Block until pending reads and writes finish."""
        check_call(_LIB.MXNDArrayWaitToWrite(self.handle))

    # ---- copies and conversions ---------------------------------------------------------
    def astype(self, dtype, copy=True):
        """A copy converted to `dtype` (or self when copy=False and the dtype already matches)."""
        if dtype is None:
            dtype = mx_real_t
        if not copy and dtype_to_mx(dtype) == dtype_to_mx(self.dtype):
            return self
        res = empty(self.shape, ctx=self.context, dtype=dtype)
        self.copyto(res)
        return res

    def copyto(self, other):
        """Copy into NDArray `other` (returned), or into a new array on Context `other`."""
        if isinstance(other, NDArray):
            if other.handle.value == self.handle.value:
                warnings.warn("You are attempting to copy an array to itself", RuntimeWarning)
                return False
            return _internal._copyto(self, out=other)
        if isinstance(other, Context):
            hret = NDArray(_new_alloc_handle(self.shape, other, True, self.dtype))
            return _internal._copyto(self, out=hret)
        raise TypeError("copyto does not support type " + str(type(other)))

    def copy(self):
        """A deep copy on the same context."""
        return self.copyto(self.context)

    def as_in_context(self, context):
        """This array if already on `context`, else a copy there."""
        if self.context == context:
            return self
        return self.copyto(context)

    as_in_ctx = as_in_context

    def as_nd_ndarray(self):
        """This array (already a legacy NDArray)."""
        return self

    def as_np_ndarray(self):
        """An mx.np.ndarray sharing this array's data (and autograd history)."""
        from ..numpy.multiarray import ndarray as _np_ndarray, _shallow
        if self.stype != "default":
            raise ValueError("as_np_ndarray: only dense arrays convert, got stype=%s"
                             % self.stype)
        return _shallow(self, _np_ndarray)

    def tostype(self, stype):
        """A copy with storage type `stype` ('default', 'row_sparse', 'csr')."""
        if stype == "csr" and len(self.shape) != 2:
            raise ValueError("To convert to a CSR, the NDArray should be 2 Dimensional. "
                             "Current shape is %s" % str(self.shape))
        return op.cast_storage(self, stype=stype)

    # ---- views --------------------------------------------------------------------------
    def _reshape_view(self, shape):
        """A view with explicit `shape` (same element count), via MXNDArrayReshape64."""
        hdl = NDArrayHandle()
        dims = (mx_int64 * len(shape))(*shape)
        if _MXNDArrayReshape64(self.handle, ctypes.c_int(len(shape)), dims, ctypes.c_bool(False),
                               ctypes.byref(hdl)) != 0:
            raise get_last_ffi_error()
        return self.__class__(handle=hdl, writable=self.writable)

    def _slice(self, start, stop):
        """Rows [start, stop) of axis 0 as a view (MXNDArraySlice64)."""
        hdl = NDArrayHandle()
        if _MXNDArraySlice64(self.handle, mx_int64(start), mx_int64(stop),
                             ctypes.byref(hdl)) != 0:
            raise get_last_ffi_error()
        return self.__class__(handle=hdl, writable=self.writable)

    def _at(self, idx):
        """Row `idx` of axis 0 with that axis dropped, as a view (MXNDArrayAt64)."""
        shape = self.shape
        if not shape:
            raise IndexError("too many indices for array: array is 0-dimensional")
        length = shape[0]
        if idx < -length or idx >= length:
            raise IndexError("index %d is out of bounds for axis 0 with size %d"
                             % (idx, length))
        if idx < 0:
            idx += length
        hdl = NDArrayHandle()
        if _MXNDArrayAt64(self.handle, mx_int64(idx), ctypes.byref(hdl)) != 0:
            raise get_last_ffi_error()
        return self.__class__(handle=hdl, writable=self.writable)

    def reshape(self, *shape, **kwargs):
        """A view with a new shape; accepts ints or a tuple and `reverse=`.

        Special values: 0 copy the input dim, -1 infer, -2 copy all remaining dims, -3 merge
        two dims, -4 split a dim in the next two values. E.g. shape (2, 3, 4):
        reshape(-1) -> (24,), reshape(0, -3) -> (2, 12), reshape(-4, 1, 2, -2) -> (1, 2, 3, 4).
        """
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = shape[0]
        elif not shape:
            shape = kwargs.get("shape")
            if shape is None:
                raise TypeError("reshape() requires a shape")
        for k in kwargs:
            if k not in ("shape", "reverse"):
                raise TypeError("Got unknown keywords in reshape: %s. Accepted keyword "
                                "arguments are 'shape' and 'reverse'." % k)
        if isinstance(shape, integer_types):
            shape = (shape,)
        reverse = bool(kwargs.get("reverse", False))
        new_shape = infer_reshape(self.shape, shape, reverse)
        return self._reshape_view(new_shape)

    def expand_dims(self, axis, inplace=False):
        """Insert a size-1 axis at `axis`; with inplace=True a view."""
        if not inplace:
            return op.expand_dims(self, axis=axis)
        shape = list(self.shape)
        if axis < 0:
            axis += len(shape) + 1
        if not 0 <= axis <= len(shape):
            raise ValueError("axis %d out of range for %d-dimensional array"
                             % (axis, len(shape)))
        shape.insert(axis, 1)
        return self._reshape_view(tuple(shape))

    def squeeze(self, axis=None, inplace=False):
        """Remove size-1 axes (all, or `axis`); with inplace=True a view."""
        if not inplace:
            return op.squeeze(self, axis=axis)
        shape = self.shape
        if axis is None:
            axes = [i for i, d in enumerate(shape) if d == 1]
        else:
            axes = [a + len(shape) if a < 0 else a
                    for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]
            for a in axes:
                if shape[a] != 1:
                    raise ValueError("cannot select an axis to squeeze out which has size not "
                                     "equal to one")
        new_shape = tuple(d for i, d in enumerate(shape) if i not in axes) or (1,)
        return self._reshape_view(new_shape)

    def flatten(self, inplace=False):
        """Collapse all axes but the first; with inplace=True a view."""
        if not inplace:
            return op.flatten(self)
        shape = self.shape
        return self._reshape_view((shape[0], shape_size(shape[1:])) if shape else (1, 1))

    def broadcast_to(self, shape):
        """Broadcast to `shape` (NumPy rules; leading axes are added as needed)."""
        cur_shape = self.shape
        shape = tuple(shape)
        err_str = ("operands could not be broadcast together with remapped shapes "
                   "[original->remapped]: {} and requested shape {}".format(cur_shape, shape))
        if len(shape) < len(cur_shape):
            raise ValueError(err_str)
        padded = (1,) * (len(shape) - len(cur_shape)) + tuple(cur_shape)
        for have, want in zip(padded, shape):
            if have != want and have != 1:
                raise ValueError(err_str)
        src = self._reshape_view(padded) if padded != tuple(cur_shape) else self
        return op.broadcast_to(src, shape=shape)

    def broadcast_like(self, other):
        """Broadcast to the shape of `other`."""
        return self.broadcast_to(other.shape)

    def split_v2(self, *args, **kwargs):
        """Convenience fluent method for :py:func:`split_v2`."""
        return split_v2(self, *args, **kwargs)

    # ---- indexing -----------------------------------------------------------------------
    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of unsized object")
        return shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self._at(i)

    def __bool__(self):
        num_elements = reduce(operator.mul, self.shape, 1)
        if num_elements == 0:
            return False
        if num_elements == 1:
            return bool(self.asscalar())
        raise ValueError("The truth value of an NDArray with multiple elements is ambiguous.")

    __nonzero__ = __bool__

    def __getitem__(self, key):
        """``x[key]`` with NumPy semantics (see :mod:`mxnet.ndarray.indexing`).

        ``x[i]``, ``x[a:b]`` and other contiguous basic indexes return views sharing memory;
        strided basic indexes copy through the ``slice`` operator; integer-array indexes use
        ``take``; boolean masks (and mixed advanced indexes) are resolved on the host with
        NumPy. Without NumPy-shape mode a result with no axes left has shape (1,).
        """
        kt = type(key)
        if kt is int:
            return self._at(key)
        if kt is slice and (key.step is None or key.step == 1):
            shape = self.shape
            if shape:
                start, stop, _ = key.indices(shape[0])
                return self._slice(start, max(start, stop))
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        """``x[key] = value``; value is a number, an NDArray or array-like, broadcast as NumPy.

        Whole-array assignment uses ``_full``/``_copyto``/a host copy, basic regions
        ``_slice_assign``/``_slice_assign_scalar``, advanced indexes ``_scatter_set_nd``.
        """
        _indexing.setitem(self, key, value)

    def slice_assign(self, rhs, begin, end, step):
        """Assign NDArray `rhs` to the region begin:end:step in place; returns self."""
        return _internal._slice_assign(self, rhs, begin=begin, end=end, step=step, out=self)

    def slice_assign_scalar(self, value, begin, end, step):
        """Assign `value` to the region begin:end:step in place; returns self."""
        return _internal._slice_assign_scalar(self, scalar=float(value), begin=begin, end=end,
                                              step=step, out=self)

    # ---- arithmetic ---------------------------------------------------------------------
    def __add__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_add, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._plus_scalar, self, other)
        return NotImplemented

    __radd__ = __add__

    def __iadd__(self, other):
        if not self.writable:
            raise ValueError("trying to add to a readonly NDArray")
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_add, self, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._plus_scalar, self, other, self)
        return NotImplemented

    def __sub__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_sub, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._minus_scalar, self, other)
        return NotImplemented

    def __rsub__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_sub, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._rminus_scalar, self, other)
        return NotImplemented

    def __isub__(self, other):
        if not self.writable:
            raise ValueError("trying to subtract from a readonly NDArray")
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_sub, self, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._minus_scalar, self, other, self)
        return NotImplemented

    def __mul__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_mul, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._mul_scalar, self, other)
        return NotImplemented

    __rmul__ = __mul__

    def __imul__(self, other):
        if not self.writable:
            raise ValueError("trying to multiply to a readonly NDArray")
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_mul, self, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._mul_scalar, self, other, self)
        return NotImplemented

    def __neg__(self):
        return invoke_nd_scalar(OPS._mul_scalar, self, -1.0)

    def __abs__(self):
        return invoke_nd(OPS.abs, self)

    def __truediv__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_div, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._div_scalar, self, other)
        return NotImplemented

    def __rtruediv__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_div, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._rdiv_scalar, self, other)
        return NotImplemented

    def __itruediv__(self, other):
        if not self.writable:
            raise ValueError("trying to divide from a readonly NDArray")
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_div, self, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._div_scalar, self, other, self)
        return NotImplemented

    __div__ = __truediv__
    __rdiv__ = __rtruediv__
    __idiv__ = __itruediv__

    def __floordiv__(self, other):
        if not isinstance(other, (NDArray,) + numeric_types):
            return NotImplemented
        if np.dtype(self.dtype).kind != "f":
            raise TypeError("floor division (//) is only supported for floating-point NDArrays")
        return op.floor(self.__truediv__(other))

    def __rfloordiv__(self, other):
        if not isinstance(other, (NDArray,) + numeric_types):
            return NotImplemented
        if np.dtype(self.dtype).kind != "f":
            raise TypeError("floor division (//) is only supported for floating-point NDArrays")
        return op.floor(self.__rtruediv__(other))

    def __mod__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_mod, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._mod_scalar, self, other)
        return NotImplemented

    def __rmod__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_mod, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._rmod_scalar, self, other)
        return NotImplemented

    def __imod__(self, other):
        if not self.writable:
            raise ValueError("trying to take modulo from a readonly NDArray")
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_mod, self, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._mod_scalar, self, other, self)
        return NotImplemented

    def __pow__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_power, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._power_scalar, self, other)
        return NotImplemented

    def __rpow__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_power, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._rpower_scalar, self, other)
        return NotImplemented

    def __ipow__(self, other):
        if not self.writable:
            raise ValueError("trying to raise a readonly NDArray to a power")
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_power, self, other, self)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._power_scalar, self, other, self)
        return NotImplemented

    # ---- comparisons (0/1 arrays of the input dtype) ------------------------------------
    def __eq__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_equal, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._equal_scalar, self, other)
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_not_equal, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._not_equal_scalar, self, other)
        return NotImplemented

    def __gt__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_greater, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._greater_scalar, self, other)
        return NotImplemented

    def __ge__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_greater_equal, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._greater_equal_scalar, self, other)
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_lesser, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._lesser_scalar, self, other)
        return NotImplemented

    def __le__(self, other):
        if isinstance(other, NDArray):
            return invoke_nd_nd(OPS.broadcast_lesser_equal, self, other)
        if isinstance(other, numeric_types):
            return invoke_nd_scalar(OPS._lesser_equal_scalar, self, other)
        return NotImplemented

    # ---- autograd -----------------------------------------------------------------------
    def attach_grad(self, grad_req="write", stype=None):
        """Allocate a gradient buffer (zeros) and mark this array as an autograd variable."""
        if stype is not None:
            grad = op.zeros_like(self).tostype(stype)
        else:
            grad = op.zeros_like(self)
        grad_req = _GRAD_REQ_MAP[grad_req]
        check_call(_LIB.MXAutogradMarkVariables(
            mx_uint(1), ctypes.pointer(self.handle), ctypes.pointer(mx_uint(grad_req)),
            ctypes.pointer(grad.handle)))

    def detach(self):
        """A new array sharing data, cut from the recorded autograd graph."""
        hdl = NDArrayHandle()
        check_call(_LIB.MXNDArrayDetach(self.handle, ctypes.byref(hdl)))
        return self.__class__(hdl)

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        """Compute gradients of this array w.r.t. the marked variables."""
        ograd_handles = [NDArrayHandle(0) if out_grad is None else out_grad.handle]
        check_call(_LIB.MXAutogradBackwardEx(
            mx_uint(1), c_handle_array([self]), c_array(NDArrayHandle, ograd_handles),
            mx_uint(0), ctypes.c_void_p(0), ctypes.c_int(retain_graph), ctypes.c_int(0),
            ctypes.c_int(train_mode), ctypes.c_void_p(0), ctypes.c_void_p(0)))

    # ---- DLPack -------------------------------------------------------------------------
    def to_dlpack_for_read(self):
        """A DLPack capsule ('dltensor') sharing this array's memory, for reading."""
        return to_dlpack_for_read(self)

    def to_dlpack_for_write(self):
        """A DLPack capsule ('dltensor') sharing this array's memory, for writing."""
        return to_dlpack_for_write(self)

    def __dlpack__(self, stream=None):
        return to_dlpack_for_read(self)

    @property
    def __cuda_array_interface__(self):
        """CUDA Array Interface (version 3) of a GPU array, for CuPy, PyTorch, Numba, ...:
        the device pointer after pending writes finished. Absent on other devices."""
        if self.context.device_type != "gpu":
            raise AttributeError("__cuda_array_interface__: the array is on %s, not a GPU"
                                 % self.context)
        self.wait_to_read()
        ptr = ctypes.c_void_p()
        check_call(_LIB.MXNDArrayGetData(self.handle, ctypes.byref(ptr)))
        return {"shape": tuple(self.shape), "typestr": np.dtype(self.dtype).str,
                "data": (ptr.value or 0, False), "strides": None, "version": 3,
                "stream": None}

    def __dlpack_device__(self):
        ctx = self.context
        return ({"gpu": 2, "cpu_pinned": 3}.get(ctx.device_type, 1), ctx.device_id)


for _name in _FLUENT_METHODS:
    if not hasattr(NDArray, _name):
        setattr(NDArray, _name, _fluent_method(_name))
del _name

set_ndarray_class(NDArray)


# ---------------------------------------------------------------------------------------------
# Creation


def empty(shape, ctx=None, dtype=None, stype=None):
    """An uninitialised array of `shape` on `ctx` (default: current context), dtype float32."""
    if stype is not None and stype != "default":
        from . import sparse
        return sparse.empty(stype, shape, ctx, dtype)
    shape = _normalize_shape(shape)
    if ctx is None:
        ctx = current_context()
    if dtype is None:
        dtype = mx_real_t
    return NDArray(handle=_new_alloc_handle(shape, ctx, False, dtype))


def zeros(shape, ctx=None, dtype=None, stype=None, **kwargs):
    """An array of zeros."""
    if stype is not None and stype != "default":
        from . import sparse
        return sparse.zeros(stype, shape, ctx=ctx, dtype=dtype, **kwargs)
    if ctx is None:
        ctx = current_context()
    dtype = mx_real_t if dtype is None else dtype
    shape = _normalize_shape(shape)
    if 0 in shape:
        # Nothing to fill. (The _zeros op itself reads a 0 as "unknown", as in MXNet 1.x.)
        return empty(shape, ctx, dtype)
    return _internal._zeros(shape=shape, ctx=ctx, dtype=dtype, **kwargs)


def ones(shape, ctx=None, dtype=None, **kwargs):
    """An array of ones."""
    if ctx is None:
        ctx = current_context()
    dtype = mx_real_t if dtype is None else dtype
    shape = _normalize_shape(shape)
    if 0 in shape:
        return empty(shape, ctx, dtype)  # nothing to fill, see zeros()
    return _internal._ones(shape=shape, ctx=ctx, dtype=dtype, **kwargs)


def full(shape, val, ctx=None, dtype=mx_real_t, out=None):
    """An array filled with `val` (written into `out` when given)."""
    out = empty(shape, ctx, dtype) if out is None else out
    if isinstance(val, NDArray):
        val = val.asscalar()
    out[:] = val
    return out


def array(source_array, ctx=None, dtype=None):
    """An NDArray holding a copy of `source_array` (NDArray, NumPy array, list, ...).

    dtype defaults to the source's dtype when the source is an NDArray, float32 otherwise
    (as in MXNet 1.x, also for NumPy sources). A scalar source gives shape (1,).
    """
    if isinstance(source_array, NDArray):
        dtype = source_array.dtype if dtype is None else dtype
    else:
        dtype = mx_real_t if dtype is None else dtype
        if _is_bfloat16(dtype) and not (isinstance(source_array, np.ndarray)
                                        and source_array.dtype == _bfloat16):
            dtype = _bfloat16
            source_array = np.array(source_array, dtype=np.float32)  # rounded on copy
        if not isinstance(source_array, np.ndarray):
            try:
                source_array = np.array(source_array, dtype=dtype)
            except Exception:
                raise TypeError("source_array must be array like object") from None
        if source_array.ndim == 0:      # legacy shape mode has no 0-d arrays
            source_array = source_array.reshape(1)
    arr = empty(source_array.shape, ctx, dtype)
    if source_array.size:
        arr[:] = source_array
    return arr


def arange(start, stop=None, step=1.0, repeat=1, infer_range=None, ctx=None, dtype=mx_real_t):
    """Evenly spaced values in [start, stop) (or [0, start) when stop is None)."""
    if infer_range is not None:
        warnings.warn("`infer_range` argument has been deprecated", DeprecationWarning)
    if ctx is None:
        ctx = current_context()
    kwargs = {}
    if stop is not None:
        kwargs["stop"] = stop
    return _internal._arange(start=start, step=step, repeat=repeat, dtype=dtype, ctx=str(ctx),
                             **kwargs)


def linspace(start, stop, num, endpoint=True, ctx=None, dtype=mx_real_t):
    """`num` evenly spaced values from start to stop."""
    if ctx is None:
        ctx = current_context()
    return _internal._linspace(start=start, stop=stop, step=0, repeat=1, num=num,
                               endpoint=endpoint, dtype=dtype, ctx=str(ctx))


def eye(N, M=0, k=0, ctx=None, dtype=None, **kwargs):  # pylint: disable=invalid-name
    """A 2-D array with ones on the k-th diagonal."""
    if ctx is None:
        ctx = current_context()
    dtype = mx_real_t if dtype is None else dtype
    return _internal._eye(N=N, M=M, k=k, ctx=ctx, dtype=dtype, **kwargs)


def concatenate(arrays, axis=0, always_copy=True):
    """Join a list of NDArrays along `axis`."""
    if not isinstance(arrays, (list, tuple)) or not arrays:
        raise ValueError("concatenate needs a non-empty list of NDArrays")
    if not always_copy and len(arrays) == 1:
        return arrays[0]
    return op.concat(*arrays, dim=axis)


def moveaxis(tensor, source, destination):
    """Move axis `source` of `tensor` to position `destination`."""
    ndim = len(tensor.shape)
    source = source + ndim if source < 0 else source
    destination = destination + ndim if destination < 0 else destination
    if not (0 <= source < ndim and 0 <= destination < ndim):
        raise ValueError("axis out of range for a %d-dimensional array" % ndim)
    axes = [i for i in range(ndim) if i != source]
    axes.insert(destination, source)
    return op.transpose(tensor, axes=tuple(axes))


def onehot_encode(indices, out):
    """One-hot encode `indices` into the preallocated 2-D `out` (deprecated: use one_hot)."""
    return op.one_hot(indices, depth=out.shape[1], dtype=out.dtype, out=out)


def waitall():
    """Wait for every pending operation; raises the first error one hit."""
    # In slices: Python handles Ctrl-C only between C calls, and a queue can hold minutes.
    finished = ctypes.c_int(0)
    while not finished.value:
        check_call(_LIB.MXNDArrayWaitAllFor(ctypes.c_int(100), ctypes.byref(finished)))


def _ufunc_helper(lhs, rhs, fn_array, fn_scalar, lfn_scalar, rfn_scalar=None):
    if isinstance(lhs, numeric_types):
        if isinstance(rhs, numeric_types):
            return fn_scalar(lhs, rhs)
        if rfn_scalar is None:
            return lfn_scalar(rhs, float(lhs))
        return rfn_scalar(rhs, float(lhs))
    if isinstance(rhs, numeric_types):
        return lfn_scalar(lhs, float(rhs))
    if isinstance(rhs, NDArray):
        return fn_array(lhs, rhs)
    raise TypeError("type %s not supported" % str(type(rhs)))


def add(lhs, rhs):
    """Element-wise sum with broadcasting; either side may be a scalar."""
    return _ufunc_helper(lhs, rhs, op.broadcast_add, operator.add, _internal._plus_scalar)


def subtract(lhs, rhs):
    """Element-wise difference with broadcasting."""
    return _ufunc_helper(lhs, rhs, op.broadcast_sub, operator.sub, _internal._minus_scalar,
                         _internal._rminus_scalar)


def multiply(lhs, rhs):
    """Element-wise product with broadcasting."""
    return _ufunc_helper(lhs, rhs, op.broadcast_mul, operator.mul, _internal._mul_scalar)


def divide(lhs, rhs):
    """Element-wise division with broadcasting."""
    return _ufunc_helper(lhs, rhs, op.broadcast_div, operator.truediv, _internal._div_scalar,
                         _internal._rdiv_scalar)


true_divide = divide


def modulo(lhs, rhs):
    """Element-wise modulo with broadcasting."""
    return _ufunc_helper(lhs, rhs, op.broadcast_mod, operator.mod, _internal._mod_scalar,
                         _internal._rmod_scalar)


def power(base, exp):
    """Element-wise power with broadcasting."""
    return _ufunc_helper(base, exp, op.broadcast_power, operator.pow, _internal._power_scalar,
                         _internal._rpower_scalar)


def maximum(lhs, rhs):
    """Element-wise maximum with broadcasting."""
    return _ufunc_helper(lhs, rhs, op.broadcast_maximum, lambda x, y: x if x > y else y,
                         _internal._maximum_scalar)


def minimum(lhs, rhs):
    """Element-wise minimum with broadcasting."""
    return _ufunc_helper(lhs, rhs, op.broadcast_minimum, lambda x, y: x if x < y else y,
                         _internal._minimum_scalar)


def equal(lhs, rhs):
    """Element-wise ==, as 0/1 values of the input dtype."""
    return _ufunc_helper(lhs, rhs, op.broadcast_equal, lambda x, y: 1 if x == y else 0,
                         _internal._equal_scalar)


def not_equal(lhs, rhs):
    """Element-wise !=."""
    return _ufunc_helper(lhs, rhs, op.broadcast_not_equal, lambda x, y: 1 if x != y else 0,
                         _internal._not_equal_scalar)


def greater(lhs, rhs):
    """Element-wise >."""
    return _ufunc_helper(lhs, rhs, op.broadcast_greater, lambda x, y: 1 if x > y else 0,
                         _internal._greater_scalar, _internal._lesser_scalar)


def greater_equal(lhs, rhs):
    """Element-wise >=."""
    return _ufunc_helper(lhs, rhs, op.broadcast_greater_equal, lambda x, y: 1 if x >= y else 0,
                         _internal._greater_equal_scalar, _internal._lesser_equal_scalar)


def lesser(lhs, rhs):
    """Element-wise <."""
    return _ufunc_helper(lhs, rhs, op.broadcast_lesser, lambda x, y: 1 if x < y else 0,
                         _internal._lesser_scalar, _internal._greater_scalar)


def lesser_equal(lhs, rhs):
    """Element-wise <=."""
    return _ufunc_helper(lhs, rhs, op.broadcast_lesser_equal, lambda x, y: 1 if x <= y else 0,
                         _internal._lesser_equal_scalar, _internal._greater_equal_scalar)


def logical_and(lhs, rhs):
    """Element-wise logical and."""
    return _ufunc_helper(lhs, rhs, op.broadcast_logical_and, lambda x, y: 1 if x and y else 0,
                         _internal._logical_and_scalar)


def logical_or(lhs, rhs):
    """Element-wise logical or."""
    return _ufunc_helper(lhs, rhs, op.broadcast_logical_or, lambda x, y: 1 if x or y else 0,
                         _internal._logical_or_scalar)


def logical_xor(lhs, rhs):
    """Element-wise logical xor."""
    return _ufunc_helper(lhs, rhs, op.broadcast_logical_xor,
                         lambda x, y: 1 if bool(x) ^ bool(y) else 0,
                         _internal._logical_xor_scalar)


def negative(arr):
    """Element-wise negation."""
    return multiply(arr, -1.0)


def imdecode(*args, **kwargs):
    """Not supported: decode images with mx.image.imdecode (needs OpenCV)."""
    raise NotImplementedError("mx.nd.imdecode is not supported; use mx.image.imdecode")


def histogram(a, bins=10, range=None):  # pylint: disable=redefined-builtin
    """Histogram of `a` with `bins` equal bins over `range`, or explicit bin edges (NDArray)."""
    if isinstance(bins, NDArray):
        return _internal._histogram(data=a, bins=bins)
    if isinstance(bins, integer_types):
        if range is None:
            # As MXNet 1.9.1: without a range, NumPy picks the edges (data min/max).
            warnings.warn("range is not specified, using numpy's result "
                          "to ensure consistency with numpy")
            res, bin_bounds = np.histogram(a.asnumpy(), bins=bins)
            return array(res), array(bin_bounds)
        return _internal._histogram(data=a, bin_cnt=bins, range=range)
    raise ValueError("bins argument should be either an integer or an NDArray")


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    """Split into sub-arrays: `indices_or_sections` is a section count or split indices."""
    indices = []
    sections = 0
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
    elif isinstance(indices_or_sections, tuple):
        indices = [0] + list(indices_or_sections)
    else:
        raise ValueError("indices_or_sections must either int or tuple of ints")
    return _internal._split_v2(ary, indices=tuple(indices), axis=axis,
                               squeeze_axis=squeeze_axis, sections=sections)


# DLPack lives in its own module; re-exported here as in MXNet.
from ._dlpack import (to_dlpack_for_read, to_dlpack_for_write, from_dlpack,  # noqa: E402
                      from_numpy)
from ._dlpack import (DLContext, DLDataType, DLTensor, DLManagedTensor,  # noqa: E402,F401
                      _DeleterFunc as DeleterFunc, _PyCapsuleDestructor as PyCapsuleDestructor,
                      _numpy_tensor_deleter as dl_managed_tensor_deleter)
# MXNet 1.9.1's indexing helpers, public in this module there.
from .indexing import (get_indexing_dispatch_code, check_boolean_array_dimension,  # noqa: E402,F401
                       indexing_key_expand_implicit_axes, get_oshape_of_gather_nd_op)
