"""Reductions of mx.np: sum, mean, prod, max/min, var/std, argmax/argmin, cumsum."""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins
import numbers

import numpy as _onp

from ..ndarray import op as _ndop
from ._core import _as_array, _cast, _finish, _invoke, _is_float, _nd, reshape
from ._elementwise import not_equal, sqrt


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
