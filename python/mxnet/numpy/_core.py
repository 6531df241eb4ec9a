"""The base of mx.np: how its functions run operators and wrap results as mx.np.ndarray, the
array-creation functions, and reshape and broadcast_to, which creation needs."""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins
import ctypes
import numbers

import numpy as _onp

from ..base import _LIB, check_call, op_handle, NDArrayHandle
from ..context import current_context
from ..ndarray.ndarray import NDArray, _new_alloc_handle
from ..ndarray import op as _ndop
from ..ndarray._invoke import imperative_invoke
from .._enums import dtype_str
from ..ndarray.register import param_str


_HANDLES = {}
_SCALARS = (numbers.Number, _onp.generic)

# mx.np.ndarray, set by ._ndarray when it defines the class: the class's methods use the
# functions built on this module, and this module makes instances of the class.
_array_class = None


def _set_array_class(cls):
    global _array_class  # pylint: disable=global-statement
    _array_class = cls


def _wrap(nd):
    """An mx.np.ndarray taking over the handle of a freshly created NDArray result."""
    if isinstance(nd, _array_class) or not isinstance(nd, NDArray) or type(nd) is not NDArray:
        return nd
    arr = object.__new__(_array_class)
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
        vals.append((dtype_str(v, op_name) if k == 'dtype' else param_str(v)).encode())
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
    if isinstance(x, _array_class):
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


def array(object, dtype=None, ctx=None):
    """An mx.np.ndarray holding a copy of `object` (default dtype float32 for Python data)."""
    ctx = _ctx(ctx)
    if isinstance(object, NDArray):
        if dtype is None:
            dtype = object.dtype
        res = object.as_in_context(ctx)
        res = res.copy() if res is object else res
        res = _wrap(res) if type(res) is NDArray else res
        if not isinstance(res, _array_class):
            res = _shallow(res, _array_class)
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
    if isinstance(a, _array_class) and (dtype is None or _onp.dtype(dtype) == a.dtype):
        return a
    return array(a, dtype=dtype, ctx=ctx)


def _dtype_or_default(dtype):
    return _onp.float32 if dtype is None else _onp.dtype(dtype)


def empty(shape, dtype=None, order='C', ctx=None):  # pylint: disable=unused-argument
    hdl = _new_alloc_handle(_to_shape(shape), _ctx(ctx), False, _dtype_or_default(dtype))
    arr = object.__new__(_array_class)
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


def _finish(res, out):
    if out is None:
        return res
    out[...] = res
    return out


def reshape(a, newshape, order='C'):
    a = _as_array(a)
    newshape = _to_shape(newshape)
    if order != 'C':
        raise NotImplementedError('reshape: only order=C is supported')
    return _invoke('_np_reshape', [a], newshape=newshape)


def broadcast_to(array_, shape):  # pylint: disable=redefined-outer-name
    a = _as_array(array_)
    shape = _to_shape(shape)
    _onp.broadcast_shapes(a.shape, shape)  # raises ValueError when incompatible
    if a.shape == shape:
        return a
    if a.ndim < len(shape):
        a = reshape(a, (1,) * (len(shape) - a.ndim) + a.shape)
    return _nd(_ndop.broadcast_to, a, shape=shape)
