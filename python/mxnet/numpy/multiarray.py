"""mx.np.ndarray and the NumPy-compatible array functions (MXNet 1.9.1's mx.np).

An `ndarray` is an NDArray (same handle, same engine, same autograd) with NumPy semantics:
0-d and zero-size shapes, NumPy indexing results, broadcasting binary operators with MXNet
1.9.1's result dtypes (mixed float/int -> the float type, true division of integers ->
float32, scalars never change the array's dtype), comparisons returning bool arrays, and
reductions over every axis returning 0-d arrays. The functions run the `_np_*`/`_npi_*`
operators (or, where MXNet 1.9.1 gives them the same semantics, the classic operators they
alias), so autograd and recorded graphs work as for mx.nd.
"""
# pylint: disable=redefined-builtin,invalid-name,too-many-lines
import builtins as _builtins
import ctypes
import numbers

import numpy as _onp

from ..base import _LIB, check_call, op_handle, NDArrayHandle
from ..context import current_context
from ..ndarray.ndarray import NDArray
from ..ndarray import op as _ndop
from ..ndarray import _internal as _ndi
from ..ndarray._invoke import imperative_invoke
from ..ndarray.register import param_str, dtype_str
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array as native_array  # noqa: E402,F401
from builtins import slice as py_slice  # noqa: F401
from ..autograd import is_recording  # noqa: F401
from ..base import (c_array, c_array_buf, integer_types, numeric_types, mx_real_t,  # noqa: F401
                    mx_uint)
from ..context import Context  # noqa: F401
from ..ndarray.ndarray import (from_numpy, get_indexing_dispatch_code,  # noqa: F401
                               get_oshape_of_gather_nd_op, indexing_key_expand_implicit_axes)
from ..util import set_module, wrap_np_unary_func, wrap_np_binary_func  # noqa: F401

__all__ = [
    'ndarray', 'array', 'asarray', 'zeros', 'ones', 'empty', 'full', 'zeros_like', 'ones_like',
    'empty_like', 'full_like', 'arange', 'linspace', 'eye', 'identity',
    'add', 'subtract', 'multiply', 'divide', 'true_divide', 'mod', 'remainder', 'power',
    'maximum', 'minimum', 'hypot', 'equal', 'not_equal', 'greater', 'greater_equal', 'less',
    'less_equal', 'negative', 'abs', 'absolute', 'exp', 'expm1', 'log', 'log10', 'log2', 'log1p',
    'sqrt', 'cbrt', 'square', 'reciprocal', 'sign', 'sin', 'cos', 'tan', 'arcsin', 'arccos',
    'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'degrees', 'radians',
    'floor', 'ceil', 'trunc', 'fix', 'rint', 'sum', 'mean', 'max', 'min', 'amax', 'amin', 'prod',
    'std', 'var', 'argmax', 'argmin', 'dot', 'matmul', 'tensordot', 'reshape', 'transpose',
    'swapaxes', 'expand_dims', 'squeeze', 'concatenate', 'stack', 'split', 'where', 'clip',
    'cumsum', 'sort', 'argsort', 'unique', 'ravel', 'broadcast_to', 'copy', 'shape', 'size',
    'ndim', 'take', 'logical_not', 'around', 'round', 'float16', 'float32', 'float64', 'int8', 'uint8',
    'int32', 'int64', 'bool_', 'pi', 'e', 'inf', 'nan', 'newaxis', 'may_share_memory']

float16 = _onp.float16
float32 = _onp.float32
float64 = _onp.float64
int8 = _onp.int8
uint8 = _onp.uint8
int32 = _onp.int32
int64 = _onp.int64
bool_ = _onp.bool_
pi = _onp.pi
e = _onp.e
inf = _onp.inf
nan = _onp.nan
newaxis = None

_HANDLES = {}
_SCALARS = (numbers.Number, _onp.generic)


# ---------------------------------------------------------------------------------------------
# Invocation


def _wrap(nd):
    """An mx.np.ndarray taking over the handle of a freshly created NDArray result."""
    if isinstance(nd, ndarray) or not isinstance(nd, NDArray) or type(nd) is not NDArray:
        return nd
    arr = object.__new__(ndarray)
    arr.handle = nd.handle
    arr.writable = nd.writable
    nd.handle = None
    return arr


def _shallow(src, cls):
    """A new array object of class `cls` sharing `src`'s data and autograd history."""
    hdl = NDArrayHandle()
    check_call(_LIB.MXShallowCopyNDArray(src.handle, ctypes.byref(hdl)))
    arr = object.__new__(cls)
    arr.handle = hdl
    arr.writable = src.writable
    return arr


def _invoke(op_name, inputs, out=None, **params):
    """Run registered operator `op_name` (e.g. `_np_sum`) on `inputs`; mx.np results."""
    handle = _HANDLES.get(op_name)
    if handle is None:
        handle = _HANDLES[op_name] = op_handle(op_name)
    keys = []
    vals = []
    for k, v in params.items():
        if v is None:
            continue
        keys.append(k.encode())
        vals.append((dtype_str(v) if k == 'dtype' else param_str(v)).encode())
    res = imperative_invoke(handle, list(inputs), keys, vals, out)
    if out is not None:
        return out
    if isinstance(res, list):
        return [_wrap(r) for r in res]
    return _wrap(res)


def _nd(fn, *args, **kwargs):
    """Call a classic mx.nd function; mx.np results."""
    res = fn(*args, **kwargs)
    if isinstance(res, (list, tuple)):
        return [_wrap(r) for r in res]
    return _wrap(res)


def _ctx(ctx):
    return current_context() if ctx is None else ctx


def _as_array(x, dtype=None):
    """x as an mx.np.ndarray (scalars and array-likes are copied in)."""
    if isinstance(x, ndarray):
        return x
    if isinstance(x, NDArray):
        return x.as_np_ndarray()
    return array(x, dtype=dtype)


def _to_shape(shape):
    if shape is None:
        return ()
    if isinstance(shape, (numbers.Integral, _onp.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def _is_float(dtype):
    return _onp.issubdtype(_onp.dtype(dtype), _onp.floating)


def _result_type(a, b):
    """MXNet 1.9.1's dtype for a binary operator on two arrays of dtypes a and b."""
    a = _onp.dtype(a)
    b = _onp.dtype(b)
    if a == b:
        return a
    fa, fb = _is_float(a), _is_float(b)
    if fa and not fb:
        return a
    if fb and not fa:
        return b
    return _onp.result_type(a, b)


def _cast(x, dtype):
    if _onp.dtype(x.dtype) == _onp.dtype(dtype):
        return x
    return _nd(_ndop.Cast, x, dtype=_onp.dtype(dtype).name)


# ---------------------------------------------------------------------------------------------
# The array class


class ndarray(NDArray):
    """An array with NumPy semantics (mx.np.ndarray); create it with mx.np functions."""
    __slots__ = ()

    def __repr__(self):
        value = self.asnumpy()
        text = repr(value)
        if value.dtype == _onp.float32:
            text = text.replace(', dtype=float32', '')
        if self.context.device_type != 'cpu':
            text = text[:-1] + ', ctx=%s)' % str(self.context)
        return text

    def __str__(self):
        return str(self.asnumpy())

    __hash__ = NDArray.__hash__

    @property
    def dtype(self):
        """Element type as a numpy.dtype (mx.nd.NDArray gives the scalar type instead)."""
        return _onp.dtype(NDArray.dtype.fget(self))

    def __reduce__(self):
        return ndarray, (None,), self.__getstate__()

    # ---- conversions ----------------------------------------------------------------------
    def as_nd_ndarray(self):
        """A classic mx.nd.NDArray sharing this array's data."""
        return _shallow(self, NDArray)

    def as_np_ndarray(self):
        return self

    def item(self, *args):
        """The element as a Python scalar (the only one when no index is given)."""
        value = self.asnumpy()
        if not args and value.size != 1:
            raise ValueError('can only convert an array of size 1 to a Python scalar')
        return value.item(*args)

    def tolist(self):
        return self.asnumpy().tolist()

    def asscalar(self):
        return self.item()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if not _onp.issubdtype(self.dtype, _onp.integer):
            raise TypeError('only integer arrays can be used as an index')
        return int(self.item())

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError('len() of unsized object')
        return shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __bool__(self):
        size = self.size
        if size == 1:
            return _builtins.bool(self.item())
        if size == 0:
            return False
        raise ValueError('The truth value of an ndarray with more than one element is '
                         'ambiguous. Use a.any() or a.all()')

    def __array__(self, dtype=None, copy=None):  # pylint: disable=unused-argument
        value = self.asnumpy()
        return value if dtype is None else value.astype(dtype)

    def __array_function__(self, func, types, args, kwargs):
        """NumPy functions on mx.np arrays run mx.np's (see numpy_dispatch_protocol)."""
        from ..numpy_dispatch_protocol import array_function
        return array_function(self, func, types, args, kwargs)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy ufuncs on mx.np arrays run mx.np's (see numpy_dispatch_protocol)."""
        from ..numpy_dispatch_protocol import array_ufunc
        return array_ufunc(self, ufunc, method, *inputs, **kwargs)

    def astype(self, dtype, copy=True):  # pylint: disable=arguments-differ
        if not copy and _onp.dtype(dtype) == _onp.dtype(self.dtype):
            return self
        if _onp.dtype(dtype) == _onp.dtype(self.dtype):
            return self.copy()
        return _cast(self, dtype)

    def copy(self, order='C'):  # pylint: disable=arguments-differ,unused-argument
        return _wrap(NDArray.copyto(self, self.context))

    def copyto(self, other):
        res = NDArray.copyto(self, other)
        return _wrap(res) if not isinstance(other, NDArray) else res

    def as_in_context(self, context):
        if self.context == context:
            return self
        return self.copyto(context)

    as_in_ctx = as_in_context

    def to_device(self, device):
        return self.as_in_context(device)

    @property
    def grad(self):
        g = NDArray.grad.fget(self)
        if g is None or isinstance(g, ndarray):
            return g
        if type(g) is NDArray:
            return _wrap(g)
        return g

    def detach(self):
        return _shallow_detach(self)

    # ---- shape ----------------------------------------------------------------------------
    @property
    def T(self):
        return self.transpose()

    def reshape(self, *args, **kwargs):  # pylint: disable=arguments-differ
        order = kwargs.pop('order', 'C')
        if kwargs:
            raise TypeError('reshape() got unexpected keyword arguments %s' % list(kwargs))
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            shape = tuple(args[0])
        else:
            shape = args
        return reshape(self, shape, order=order)

    def transpose(self, *axes):  # pylint: disable=arguments-differ
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return transpose(self, axes if axes else None)

    def flatten(self, order='C'):  # pylint: disable=arguments-differ
        return reshape(self, (-1,), order=order)

    def ravel(self, order='C'):
        return reshape(self, (-1,), order=order)

    def squeeze(self, axis=None):  # pylint: disable=arguments-differ
        return squeeze(self, axis)

    def expand_dims(self, axis):  # pylint: disable=arguments-differ
        return expand_dims(self, axis)

    def swapaxes(self, axis1, axis2):  # pylint: disable=arguments-differ
        return swapaxes(self, axis1, axis2)

    def broadcast_to(self, shape):
        return broadcast_to(self, shape)

    # ---- reductions and friends -----------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None, keepdims=False):  # pylint: disable=arguments-differ
        return sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):  # pylint: disable=arguments-differ
        return mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False):  # pylint: disable=arguments-differ
        return max(self, axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):  # pylint: disable=arguments-differ
        return min(self, axis=axis, out=out, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):  # pylint: disable=arguments-differ
        return prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def argmax(self, axis=None, out=None):  # pylint: disable=arguments-differ
        return argmax(self, axis, out)

    def argmin(self, axis=None, out=None):  # pylint: disable=arguments-differ
        return argmin(self, axis, out)

    def cumsum(self, axis=None, dtype=None, out=None):
        return cumsum(self, axis, dtype, out)

    def clip(self, min=None, max=None, out=None):  # pylint: disable=arguments-differ
        return clip(self, min, max, out)

    def dot(self, b, out=None):  # pylint: disable=arguments-differ
        return dot(self, b, out)

    def sort(self, axis=-1):  # pylint: disable=arguments-differ
        self[...] = sort(self, axis)

    def argsort(self, axis=-1):  # pylint: disable=arguments-differ
        return argsort(self, axis)

    def round(self, decimals=0):  # pylint: disable=arguments-differ
        return around(self, decimals)

    def exp(self):
        return exp(self)

    def log(self):
        return log(self)

    def sqrt(self):
        return sqrt(self)

    def abs(self):
        return absolute(self)

    def square(self):
        return square(self)

    def tanh(self):
        return tanh(self)

    def sigmoid(self):
        return _nd(_ndop.sigmoid, self)

    def relu(self):
        return _nd(_ndop.relu, self)

    def softmax(self, axis=-1):
        return _nd(_ndop.softmax, self, axis=axis)

    def log_softmax(self, axis=-1):
        return _nd(_ndop.log_softmax, self, axis=axis)

    def any(self, axis=None, keepdims=False):
        return _as_bool_reduce(self, axis, keepdims, any_=True)

    def all(self, axis=None, keepdims=False):
        return _as_bool_reduce(self, axis, keepdims, any_=False)

    # ---- indexing -------------------------------------------------------------------------
    def __getitem__(self, key):
        return _getitem(self, key)

    def __setitem__(self, key, value):
        _setitem(self, key, value)

    # ---- arithmetic -----------------------------------------------------------------------
    def __add__(self, other):
        return add(self, other)

    def __radd__(self, other):
        return add(other, self)

    def __iadd__(self, other):
        return add(self, other, out=self)

    def __sub__(self, other):
        return subtract(self, other)

    def __rsub__(self, other):
        return subtract(other, self)

    def __isub__(self, other):
        return subtract(self, other, out=self)

    def __mul__(self, other):
        return multiply(self, other)

    def __rmul__(self, other):
        return multiply(other, self)

    def __imul__(self, other):
        return multiply(self, other, out=self)

    def __truediv__(self, other):
        return true_divide(self, other)

    def __rtruediv__(self, other):
        return true_divide(other, self)

    def __itruediv__(self, other):
        return true_divide(self, other, out=self)

    def __mod__(self, other):
        return mod(self, other)

    def __rmod__(self, other):
        return mod(other, self)

    def __imod__(self, other):
        return mod(self, other, out=self)

    def __pow__(self, other):
        return power(self, other)

    def __rpow__(self, other):
        return power(other, self)

    def __ipow__(self, other):
        return power(self, other, out=self)

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    def __neg__(self):
        return negative(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return absolute(self)

    def __invert__(self):
        if self.dtype == _onp.bool_:
            return logical_not(self)
        raise TypeError('~ is only supported for bool arrays')

    def __eq__(self, other):
        return equal(self, other)

    def __ne__(self, other):
        return not_equal(self, other)

    def __gt__(self, other):
        return greater(self, other)

    def __ge__(self, other):
        return greater_equal(self, other)

    def __lt__(self, other):
        return less(self, other)

    def __le__(self, other):
        return less_equal(self, other)


def _shallow_detach(arr):
    hdl = NDArrayHandle()
    check_call(_LIB.MXNDArrayDetach(arr.handle, ctypes.byref(hdl)))
    out = object.__new__(ndarray)
    out.handle = hdl
    out.writable = True
    return out


# ---------------------------------------------------------------------------------------------
# Indexing


def _numpy_result_shape(shape, key):
    """The shape NumPy gives arr[key] for an array of `shape` (no memory is touched)."""
    dummy = _onp.lib.stride_tricks.as_strided(_onp.zeros(1, dtype=_onp.int8), shape=shape,
                                              strides=(0,) * len(shape))
    return dummy[key].shape


def _host_key(key):
    """key with mx arrays replaced by NumPy arrays (for shape computations / masks)."""
    if isinstance(key, tuple):
        return tuple(_host_key(k) for k in key)
    if isinstance(key, (NDArray, list, range)):
        value = key.asnumpy() if isinstance(key, NDArray) else _onp.array(key)
        if value.dtype.kind == 'f':
            # MXNet 1.9.1 accepts float index arrays (labels are float32 by default).
            value = value.astype(_onp.int64)
        return value
    return key


def _has_bool_mask(key):
    keys = key if isinstance(key, tuple) else (key,)
    for k in keys:
        if isinstance(k, (NDArray, _onp.ndarray)) and _onp.dtype(k.dtype) == _onp.bool_:
            return True
    return False


def _is_advanced(host_key):
    keys = host_key if isinstance(host_key, tuple) else (host_key,)
    return _builtins.any(isinstance(k, _onp.ndarray) for k in keys)


def _getitem(arr, key):
    shape = arr.shape
    host_key = _host_key(key)
    if _is_advanced(host_key):
        # Integer-array / boolean-mask indexes: the selected flat positions are computed on
        # the host with NumPy, the values gathered with `take` (differentiable).
        flat = _onp.arange(int(_onp.prod(shape)) if shape else 1).reshape(shape)
        positions = flat[host_key]
        out_shape = positions.shape
        idx = array(positions.reshape(-1), dtype='int64', ctx=arr.context)
        res = _nd(_ndop.take, reshape(arr, (-1,)), idx, axis=0)
        return reshape(res, out_shape)
    try:
        target = _numpy_result_shape(shape, host_key)
    except IndexError as err:
        raise IndexError(str(err)) from None
    if (isinstance(key, tuple) and not key) or key is Ellipsis:
        return arr
    if not shape:
        raise IndexError('too many indices for array: array is 0-dimensional, but indices '
                         'were given')
    res = NDArray.__getitem__(arr, key)
    if not isinstance(res, ndarray):
        res = _wrap(res) if type(res) is NDArray else res
    if res.shape != target:
        res = reshape(res, target)
    return res


def _setitem(arr, key, value):
    shape = arr.shape
    host_key = _host_key(key)
    if _has_bool_mask(host_key) or not shape:
        mask_like = not shape
        if mask_like and not ((isinstance(key, tuple) and not key) or key is Ellipsis or
                              (isinstance(key, slice) and key == slice(None))):
            if not _has_bool_mask(host_key):
                raise IndexError('too many indices for array: array is 0-dimensional')
        # Read-modify-write on the host: positions selected by the key get value.
        flat = _onp.arange(int(_onp.prod(shape)) if shape else 1).reshape(shape)
        positions = flat[host_key] if not (mask_like and not _has_bool_mask(host_key)) \
            else flat
        data = arr.asnumpy().reshape(-1)
        val = value.asnumpy() if isinstance(value, NDArray) else _onp.asarray(value)
        data[_onp.asarray(positions).reshape(-1)] = _onp.broadcast_to(
            val, _onp.shape(positions)).reshape(-1)
        arr._sync_copyfrom(data.reshape(shape))  # pylint: disable=protected-access
        return
    if isinstance(value, ndarray):
        value = value.as_nd_ndarray()
    NDArray.__setitem__(arr, key, value)


# ---------------------------------------------------------------------------------------------
# Creation


def array(object, dtype=None, ctx=None):
    """An ndarray holding a copy of `object` (default dtype float32 for Python data)."""
    ctx = _ctx(ctx)
    if isinstance(object, NDArray):
        if dtype is None:
            dtype = object.dtype
        res = object.as_in_context(ctx)
        res = res.copy() if res is object else res
        res = _wrap(res) if type(res) is NDArray else res
        if not isinstance(res, ndarray):
            res = _shallow(res, ndarray)
        return res.astype(dtype, copy=False)
    if isinstance(object, _onp.ndarray):
        value = object if dtype is None else object.astype(dtype)
    else:
        value = _onp.array(object)
        if dtype is not None:
            value = value.astype(dtype)
        elif value.dtype != _onp.bool_:
            value = value.astype(_onp.float32)
    value = _onp.require(value, requirements="C")
    res = empty(value.shape, dtype=value.dtype, ctx=ctx)
    if value.size:
        res._sync_copyfrom(value)  # pylint: disable=protected-access
    return res


def asarray(a, dtype=None, ctx=None):
    if isinstance(a, ndarray) and (dtype is None or _onp.dtype(dtype) == a.dtype):
        return a
    return array(a, dtype=dtype, ctx=ctx)


def _dtype_or_default(dtype):
    return _onp.float32 if dtype is None else _onp.dtype(dtype)


def empty(shape, dtype=None, order='C', ctx=None):  # pylint: disable=unused-argument
    from ..ndarray.ndarray import _new_alloc_handle
    hdl = _new_alloc_handle(_to_shape(shape), _ctx(ctx), False, _dtype_or_default(dtype))
    arr = object.__new__(ndarray)
    arr.handle = hdl
    arr.writable = True
    return arr


def zeros(shape, dtype=None, order='C', ctx=None):  # pylint: disable=unused-argument
    if 0 in _to_shape(shape):   # nothing to fill (the classic init ops read 0 as unknown)
        return empty(shape, dtype=dtype, ctx=ctx)
    return _invoke('_npi_zeros', [], shape=_to_shape(shape), ctx=str(_ctx(ctx)),
                   dtype=_dtype_or_default(dtype))


def ones(shape, dtype=None, order='C', ctx=None):  # pylint: disable=unused-argument
    if 0 in _to_shape(shape):   # nothing to fill (the classic init ops read 0 as unknown)
        return empty(shape, dtype=dtype, ctx=ctx)
    return _invoke('_npi_ones', [], shape=_to_shape(shape), ctx=str(_ctx(ctx)),
                   dtype=_dtype_or_default(dtype))


def full(shape, fill_value, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    if isinstance(fill_value, NDArray):
        dtype = fill_value.dtype if dtype is None else dtype
        res = broadcast_to(_cast(_as_array(fill_value), dtype), _to_shape(shape)).copy()
    elif 0 in _to_shape(shape):
        res = empty(shape, dtype=dtype, ctx=ctx)
    else:
        res = _invoke('_npi_full', [], shape=_to_shape(shape), ctx=str(_ctx(ctx)),
                      dtype=_dtype_or_default(dtype), value=float(fill_value))
    if out is not None:
        out[...] = res
        return out
    return res


def zeros_like(a, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    return full_like(a, 0, dtype=dtype, ctx=ctx, out=out)


def ones_like(a, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    return full_like(a, 1, dtype=dtype, ctx=ctx, out=out)


def empty_like(prototype, dtype=None, order='C', subok=False, shape=None):  # pylint: disable=unused-argument
    return empty(prototype.shape if shape is None else shape,
                 dtype=prototype.dtype if dtype is None else dtype, ctx=prototype.context)


def full_like(a, fill_value, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    a = _as_array(a)
    return full(a.shape, fill_value, dtype=a.dtype if dtype is None else dtype,
                ctx=a.context if ctx is None else ctx, out=out)


def arange(start, stop=None, step=1, dtype=None, ctx=None):
    if stop is None:
        start, stop = 0, start
    return _invoke('_npi_arange', [], start=float(start), stop=float(stop), step=float(step),
                   ctx=str(_ctx(ctx)), dtype=_dtype_or_default(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):
    if axis != 0:
        raise NotImplementedError('linspace: only axis=0 is supported')
    num = int(num)
    if num < 0:
        raise ValueError('Number of samples, %d, must be non-negative.' % num)
    div = (num - 1) if endpoint else num
    step = (float(stop) - float(start)) / div if div > 0 else float('nan')
    res = _invoke('_npi_linspace', [], start=float(start), stop=float(stop), num=num,
                  endpoint=_builtins.bool(endpoint), ctx=str(_ctx(ctx)), dtype=_dtype_or_default(dtype))
    if retstep:
        return res, step
    return res


def eye(N, M=None, k=0, dtype=None, ctx=None, **kwargs):  # pylint: disable=unused-argument
    return _invoke('_npi_eye', [], N=int(N), M=0 if M is None else int(M), k=int(k),
                   ctx=str(_ctx(ctx)), dtype=_dtype_or_default(dtype))


def identity(n, dtype=None, ctx=None):
    return eye(n, dtype=dtype, ctx=ctx)


def copy(a):
    return _as_array(a).copy()


def shape(a):
    return _onp.shape(a) if not isinstance(a, NDArray) else a.shape


def size(a, axis=None):
    s = shape(a)
    return int(_onp.prod(s)) if axis is None else s[axis]


def ndim(a):
    return len(shape(a))


def may_share_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """Whether the memory of a and b overlaps (arrays are contiguous, so this is exact)."""
    from .routines import shares_memory
    return shares_memory(a, b)


# ---------------------------------------------------------------------------------------------
# Element-wise


def _unary(nd_fn, x, out=None):
    if isinstance(x, _SCALARS) and not isinstance(x, NDArray):
        x = array(x)
    x = _as_array(x)
    return _nd(nd_fn, x, out=out) if out is None else nd_fn(x, out=out)


def _make_unary(op_name, doc_name=None):
    def function(x, out=None, **kwargs):  # pylint: disable=unused-argument
        return _unary(getattr(_ndop, op_name), x, out)
    function.__name__ = doc_name or op_name
    function.__doc__ = 'Element-wise %s (numpy.%s).' % (doc_name or op_name,
                                                         doc_name or op_name)
    return function


exp = _make_unary('exp')
expm1 = _make_unary('expm1')
log = _make_unary('log')
log10 = _make_unary('log10')
log2 = _make_unary('log2')
log1p = _make_unary('log1p')
sqrt = _make_unary('sqrt')
cbrt = _make_unary('cbrt')
square = _make_unary('square')
reciprocal = _make_unary('reciprocal')
sign = _make_unary('sign')
sin = _make_unary('sin')
cos = _make_unary('cos')
tan = _make_unary('tan')
arcsin = _make_unary('arcsin')
arccos = _make_unary('arccos')
arctan = _make_unary('arctan')
sinh = _make_unary('sinh')
cosh = _make_unary('cosh')
tanh = _make_unary('tanh')
arcsinh = _make_unary('arcsinh')
arccosh = _make_unary('arccosh')
arctanh = _make_unary('arctanh')
degrees = _make_unary('degrees')
radians = _make_unary('radians')
floor = _make_unary('floor')
ceil = _make_unary('ceil')
trunc = _make_unary('trunc')
fix = _make_unary('fix')
rint = _make_unary('rint')
absolute = _make_unary('abs', 'absolute')
abs = absolute
negative = _make_unary('negative')


def logical_not(x, out=None):
    x = _as_array(x)
    return equal(x, 0, out=out)


def around(x, decimals=0, out=None):
    x = _as_array(x)
    if decimals == 0:
        return _unary(_ndop.round, x, out)
    scale = 10.0 ** decimals
    return true_divide(_nd(_ndop.round, x * scale), scale, out=out)


round = around


def _binary(x1, x2, out, nd_op, scalar_op, rscalar_op, true_div=False):
    """A broadcasting binary operator with MXNet 1.9.1's dtype rules."""
    x1_scalar = isinstance(x1, _SCALARS) and not isinstance(x1, NDArray)
    x2_scalar = isinstance(x2, _SCALARS) and not isinstance(x2, NDArray)
    if x1_scalar and x2_scalar:
        return array(_REF[nd_op](x1, x2))
    if not x1_scalar and not isinstance(x1, NDArray):
        x1 = array(x1)
    if not x2_scalar and not isinstance(x2, NDArray):
        x2 = array(x2)
    if x2_scalar or x1_scalar:
        arr, scalar = (x1, x2) if x2_scalar else (x2, x1)
        op_name = scalar_op if x2_scalar else rscalar_op
        arr = _as_array(arr)
        if true_div and not _is_float(arr.dtype):
            arr = _cast(arr, _onp.float32)
        res = _nd(getattr(_ndi, op_name), arr, scalar=float(scalar))
    else:
        x1 = _as_array(x1)
        x2 = _as_array(x2)
        dtype = _result_type(x1.dtype, x2.dtype)
        if true_div and not _is_float(dtype):
            dtype = _onp.dtype(_onp.float32)
        res = _nd(getattr(_ndop, nd_op), _cast(x1, dtype), _cast(x2, dtype))
    if out is not None:
        if out is x1 or out is x2 or res.shape == out.shape:
            NDArray.__setitem__(out, slice(None), res) if out.shape else out._sync_copyfrom(  # pylint: disable=protected-access,expression-not-assigned
                res.asnumpy())
            return out
        raise ValueError('non-broadcastable output operand with shape %s doesn\'t match the '
                         'broadcast shape %s' % (out.shape, res.shape))
    return res


_REF = {'broadcast_add': _onp.add, 'broadcast_sub': _onp.subtract,
        'broadcast_mul': _onp.multiply, 'broadcast_div': _onp.true_divide,
        'broadcast_mod': _onp.mod, 'broadcast_power': _onp.power,
        'broadcast_maximum': _onp.maximum, 'broadcast_minimum': _onp.minimum,
        'broadcast_hypot': _onp.hypot}


def add(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_add', '_plus_scalar', '_plus_scalar')


def subtract(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_sub', '_minus_scalar', '_rminus_scalar')


def multiply(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_mul', '_mul_scalar', '_mul_scalar')


def true_divide(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_div', '_div_scalar', '_rdiv_scalar', true_div=True)


divide = true_divide


def mod(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_mod', '_mod_scalar', '_rmod_scalar')


remainder = mod


def power(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_power', '_power_scalar', '_rpower_scalar')


def maximum(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_maximum', '_maximum_scalar', '_maximum_scalar')


def minimum(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_minimum', '_minimum_scalar', '_minimum_scalar')


def hypot(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_hypot', '_hypot_scalar', '_hypot_scalar')


def _compare(x1, x2, out, op_name, reflected):
    """A broadcasting comparison (`_npi_<op_name>` / `_npi_<op_name>_scalar`): bool result.
    `reflected` is the comparison with the operands swapped (for scalar < array)."""
    x1_scalar = isinstance(x1, _SCALARS) and not isinstance(x1, NDArray)
    x2_scalar = isinstance(x2, _SCALARS) and not isinstance(x2, NDArray)
    if x1_scalar and x2_scalar:
        return array(getattr(_onp, op_name)(x1, x2))
    if x2_scalar or x1_scalar:
        arr, scalar, name = (x1, x2, op_name) if x2_scalar else (x2, x1, reflected)
        res = _invoke('_npi_%s_scalar' % name, [_as_array(arr)], scalar=float(scalar),
                      is_int=False)
    else:
        x1 = _as_array(x1)
        x2 = _as_array(x2)
        dtype = _result_type(x1.dtype, x2.dtype)
        res = _invoke('_npi_' + op_name, [_cast(x1, dtype), _cast(x2, dtype)])
    return _finish(res, out)


def equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'equal', 'equal')


def not_equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'not_equal', 'not_equal')


def greater(x1, x2, out=None):
    return _compare(x1, x2, out, 'greater', 'less')


def greater_equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'greater_equal', 'less_equal')


def less(x1, x2, out=None):
    return _compare(x1, x2, out, 'less', 'greater')


def less_equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'less_equal', 'greater_equal')


def clip(a, a_min, a_max, out=None):
    a = _as_array(a)
    if a_min is None and a_max is None:
        raise ValueError('array_clip: must set either max or min')
    lo = -_onp.inf if a_min is None else float(a_min)
    hi = _onp.inf if a_max is None else float(a_max)
    res = _nd(_ndop.clip, a, a_min=lo, a_max=hi)
    return _finish(res, out)


def _finish(res, out):
    if out is None:
        return res
    out[...] = res
    return out


# ---------------------------------------------------------------------------------------------
# Reductions


def _axis_param(axis):
    if axis is None:
        return None
    if isinstance(axis, (numbers.Integral, _onp.integer)):
        return (int(axis),)
    return tuple(int(a) for a in axis)


def _reduce(op_name, a, axis, dtype, keepdims, out):
    a = _as_array(a)
    params = {'axis': _axis_param(axis), 'keepdims': _builtins.bool(keepdims)}
    if dtype is not None:
        params['dtype'] = _onp.dtype(dtype)
    res = _invoke(op_name, [a], **params)
    return _finish(res, out)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, **kwargs):  # pylint: disable=unused-argument
    a = _as_array(a)
    if dtype is None and a.dtype == _onp.bool_:
        dtype = _onp.int64
    return _reduce('_np_sum', a, axis, dtype, keepdims, out)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):  # pylint: disable=unused-argument
    a = _as_array(a)
    if not _is_float(a.dtype):
        a = _cast(a, _onp.float32 if dtype is None else dtype)
    return _reduce('_npi_mean', a, axis, dtype, keepdims, out)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, **kwargs):  # pylint: disable=unused-argument
    return _reduce('_np_prod', a, axis, dtype, keepdims, out)


def max(a, axis=None, out=None, keepdims=False):
    return _reduce('_np_max', a, axis, None, keepdims, out)


def min(a, axis=None, out=None, keepdims=False):
    return _reduce('_np_min', a, axis, None, keepdims, out)


amax = max
amin = min


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    a = _as_array(a)
    if not _is_float(a.dtype):
        a = _cast(a, _onp.float32 if dtype is None else dtype)
    centered = a - mean(a, axis=axis, keepdims=True)
    res = mean(centered * centered, axis=axis, keepdims=keepdims)
    if ddof:
        n = a.size // _onp.prod(res.shape if keepdims else
                                mean(a, axis=axis, keepdims=True).shape, dtype=int)
        res = res * (float(n) / float(n - ddof))
    return _finish(res, out)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _finish(sqrt(var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)), out)


def _arg_reduce(nd_fn, a, axis, out):
    a = _as_array(a)
    if axis is None:
        res = _nd(nd_fn, reshape(a, (-1,)), axis=0)
        res = reshape(res, ())
    else:
        res = _nd(nd_fn, a, axis=int(axis))
    return _finish(_cast(res, _onp.int64), out)


def argmax(a, axis=None, out=None):
    return _arg_reduce(_ndop.argmax, a, axis, out)


def argmin(a, axis=None, out=None):
    return _arg_reduce(_ndop.argmin, a, axis, out)


def _as_bool_reduce(a, axis, keepdims, any_):
    nonzero = _cast(not_equal(a, 0), _onp.float32)
    res = _reduce('_np_max' if any_ else '_np_min', nonzero, axis, None, keepdims, None)
    return _cast(res, _onp.bool_)


def cumsum(a, axis=None, dtype=None, out=None):
    a = _as_array(a)
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    params = {'axis': int(axis)}
    if dtype is not None:
        params['dtype'] = _onp.dtype(dtype)
    return _finish(_invoke('_np_cumsum', [a], **params), out)


# ---------------------------------------------------------------------------------------------
# Linear algebra


def dot(a, b, out=None):
    a = _as_array(a)
    b = _as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b, out=out)
    if b.ndim > 2:
        # NumPy contracts a's last axis with b's second-to-last: move it first for `dot`.
        axes = [b.ndim - 2] + [i for i in range(b.ndim) if i != b.ndim - 2]
        b = transpose(b, axes)
    res = _nd(_ndop.dot, a, b)
    if a.ndim == 1 and b.ndim == 1:
        res = reshape(res, ())
    return _finish(res, out)


def matmul(a, b, out=None):
    a = _as_array(a)
    b = _as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError('matmul: Input operand does not have enough dimensions')
    if a.ndim <= 2 and b.ndim <= 2:
        return dot(a, b, out=out)
    squeeze_a = a.ndim == 1
    squeeze_b = b.ndim == 1
    if squeeze_a:
        a = reshape(a, (1,) + a.shape)
    if squeeze_b:
        b = reshape(b, b.shape + (1,))
    batch = _onp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = broadcast_to(a, batch + a.shape[-2:])
    b = broadcast_to(b, batch + b.shape[-2:])
    nbatch = int(_onp.prod(batch)) if batch else 1
    res = _nd(_ndop.batch_dot, reshape(a, (nbatch,) + a.shape[-2:]),
              reshape(b, (nbatch,) + b.shape[-2:]))
    shape_out = batch + (a.shape[-2], b.shape[-1])
    if squeeze_a:
        shape_out = shape_out[:-2] + shape_out[-1:]
    if squeeze_b:
        shape_out = shape_out[:-1]
    return _finish(reshape(res, shape_out), out)


def tensordot(a, b, axes=2):
    a = _as_array(a)
    b = _as_array(b)
    if isinstance(axes, (numbers.Integral, _onp.integer)):
        axes_a = list(range(a.ndim - int(axes), a.ndim))
        axes_b = list(range(int(axes)))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, numbers.Integral) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, numbers.Integral) else list(axes_b)
    axes_a = [x % a.ndim for x in axes_a] if a.ndim else []
    axes_b = [x % b.ndim for x in axes_b] if b.ndim else []
    if len(axes_a) != len(axes_b):
        raise ValueError('tensordot: shape-mismatch for sum')
    for x, y in zip(axes_a, axes_b):
        if a.shape[x] != b.shape[y]:
            raise ValueError('tensordot: shape-mismatch for sum: %s vs %s'
                             % (a.shape, b.shape))
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    k = int(_onp.prod([a.shape[i] for i in axes_a])) if axes_a else 1
    at = reshape(transpose(a, free_a + axes_a) if a.ndim else a, (-1, k))
    bt = reshape(transpose(b, axes_b + free_b) if b.ndim else b, (k, -1))
    res = _nd(_ndop.dot, at, bt)
    return reshape(res, tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


# ---------------------------------------------------------------------------------------------
# Shape manipulation


def reshape(a, newshape, order='C'):
    a = _as_array(a)
    newshape = _to_shape(newshape)
    if order != 'C':
        raise NotImplementedError('reshape: only order=C is supported')
    return _invoke('_np_reshape', [a], newshape=newshape)


def ravel(x, order='C'):
    return reshape(x, (-1,), order)


def transpose(a, axes=None):
    a = _as_array(a)
    if a.ndim < 2:
        if axes is not None and sorted(int(x) % a.ndim if a.ndim else x
                                       for x in axes) != list(range(a.ndim)):
            raise ValueError('axes don\'t match array')
        return _nd(_ndop.identity, a) if hasattr(_ndop, 'identity') else a.copy()
    if axes is None:
        return _invoke('_np_transpose', [a])
    return _invoke('_np_transpose', [a], axes=tuple(int(x) % a.ndim for x in axes))


def swapaxes(a, axis1, axis2):
    a = _as_array(a)
    return _nd(_ndop.swapaxes, a, dim1=int(axis1), dim2=int(axis2))


def expand_dims(a, axis):
    a = _as_array(a)
    dummy = _onp.lib.stride_tricks.as_strided(_onp.zeros(1, _onp.int8), a.shape, (0,) * a.ndim)
    return reshape(a, _onp.expand_dims(dummy, axis).shape)


def squeeze(a, axis=None):
    a = _as_array(a)
    dummy = _onp.lib.stride_tricks.as_strided(_onp.zeros(1, _onp.int8), a.shape, (0,) * a.ndim)
    return reshape(a, _onp.squeeze(dummy, axis).shape)


def broadcast_to(array_, shape):  # pylint: disable=redefined-outer-name
    a = _as_array(array_)
    shape = _to_shape(shape)
    _onp.broadcast_shapes(a.shape, shape)  # raises ValueError when incompatible
    if a.shape == shape:
        return a
    if a.ndim < len(shape):
        a = reshape(a, (1,) * (len(shape) - a.ndim) + a.shape)
    return _nd(_ndop.broadcast_to, a, shape=shape)


def concatenate(seq, axis=0, out=None):
    arrays = [_as_array(x) for x in seq]
    if axis is None:
        arrays = [reshape(x, (-1,)) for x in arrays]
        axis = 0
    dtype = arrays[0].dtype
    for x in arrays[1:]:
        dtype = _result_type(dtype, x.dtype)
    arrays = [_cast(x, dtype) for x in arrays]
    res = _nd(_ndop.concat, *arrays, dim=int(axis))
    return _finish(res, out)


def stack(arrays, axis=0, out=None):
    arrays = [_as_array(x) for x in arrays]
    res = _nd(_ndop.stack, *arrays, axis=int(axis))
    return _finish(res, out)


def split(ary, indices_or_sections, axis=0):
    ary = _as_array(ary)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (numbers.Integral, _onp.integer)):
        sections = int(indices_or_sections)
        if n % sections:
            raise ValueError('array split does not result in an equal division')
        bounds = [i * (n // sections) for i in range(sections + 1)]
    else:
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    pieces = []
    for begin, end in zip(bounds[:-1], bounds[1:]):
        begin = _builtins.min(_builtins.max(begin, 0), n)
        end = _builtins.min(_builtins.max(end, begin), n)
        pieces.append(_nd(_ndop.slice_axis, ary, axis=int(axis), begin=begin, end=end))
    return pieces




def where(condition, x=None, y=None):
    if x is None and y is None:
        cond = _as_array(condition).asnumpy()
        return tuple(array(i, dtype='int64') for i in _onp.nonzero(cond))
    cond = _as_array(condition)
    x_scalar = isinstance(x, _SCALARS) and not isinstance(x, NDArray)
    y_scalar = isinstance(y, _SCALARS) and not isinstance(y, NDArray)
    if x_scalar and y_scalar:
        dtype = _onp.float32
    elif x_scalar:
        dtype = _as_array(y).dtype
    elif y_scalar:
        dtype = _as_array(x).dtype
    else:
        dtype = _result_type(_as_array(x).dtype, _as_array(y).dtype)
    shapes = [cond.shape] + [(_as_array(v).shape) for v in (x, y)
                            if not (isinstance(v, _SCALARS) and not isinstance(v, NDArray))]
    out_shape = _onp.broadcast_shapes(*shapes)
    xs = full(out_shape, x, dtype=dtype, ctx=cond.context) if x_scalar else \
        broadcast_to(_cast(_as_array(x), dtype), out_shape)
    ys = full(out_shape, y, dtype=dtype, ctx=cond.context) if y_scalar else \
        broadcast_to(_cast(_as_array(y), dtype), out_shape)
    c = broadcast_to(_cast(cond, dtype), out_shape)
    return _nd(_ndop.where, c, xs, ys)


def sort(a, axis=-1, kind=None, order=None):  # pylint: disable=unused-argument
    a = _as_array(a)
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    return _nd(_ndop.sort, a, axis=int(axis))


def argsort(a, axis=-1, kind=None, order=None):  # pylint: disable=unused-argument
    a = _as_array(a)
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    return _nd(_ndop.argsort, a, axis=int(axis), dtype='int64')


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """NumPy's unique, computed on the host (not differentiable)."""
    ar = _as_array(ar)
    res = _onp.unique(ar.asnumpy(), return_index=return_index, return_inverse=return_inverse,
                      return_counts=return_counts, axis=axis)
    if isinstance(res, tuple):
        return tuple(array(r, dtype=r.dtype, ctx=ar.context) if i == 0 else
                     array(r, dtype='int64', ctx=ar.context) for i, r in enumerate(res))
    return array(res, dtype=res.dtype, ctx=ar.context)


def take_along_first_axis(a, indices):
    """a[indices] for an integer index array over a's first axis (the `take` operator)."""
    a = _as_array(a)
    return _nd(_ndop.take, a, _as_array(indices), axis=0)


def take(a, indices, axis=None, mode='raise', out=None):  # pylint: disable=unused-argument
    a = _as_array(a)
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    res = _nd(_ndop.take, a, _as_array(indices), axis=int(axis),
              mode='clip' if mode == 'clip' else 'wrap' if mode == 'wrap' else 'clip')
    return _finish(res, out)



# MXNet 1.9.1's multiarray module holds every mx.np function. The ones written in the modules
# below (which build on those above, hence imported last) are found here too.
from .function_base import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
from .routines import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
from .fallback import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
