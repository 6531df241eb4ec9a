"""mx.np.ndarray: an NDArray with NumPy semantics, and its indexing."""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins
import ctypes

import numpy as _onp

from ..base import _LIB, check_call, NDArrayHandle
from ..ndarray.ndarray import NDArray
from ..ndarray import op as _ndop
from ._core import _set_array_class, _cast, _nd, _shallow, _wrap, array, broadcast_to, reshape
from ._elementwise import (absolute, add, around, clip, equal, exp, greater, greater_equal, less,
                           less_equal, log, logical_not, mod, multiply, negative, not_equal, power,
                           sqrt, square, subtract, tanh, true_divide)
from ._reduction import _as_bool_reduce, argmax, argmin, cumsum, max, mean, min, prod, std, sum, var
from ._manipulation import argsort, expand_dims, sort, squeeze, swapaxes, transpose
from ._products import dot, matmul


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


_set_array_class(ndarray)


def _shallow_detach(arr):
    hdl = NDArrayHandle()
    check_call(_LIB.MXNDArrayDetach(arr.handle, ctypes.byref(hdl)))
    out = object.__new__(ndarray)
    out.handle = hdl
    out.writable = True
    return out


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
