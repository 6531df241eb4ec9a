"""More mx.np functions, composed from those of multiarray (so autograd sees the operators
they run)."""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins
import numbers

import numpy as _onp

from ..ndarray import op as _ndop
from .multiarray import (_as_array, _as_bool_reduce, _finish, _nd, _cast, not_equal, equal,
                         absolute, logical_not, reshape, concatenate, transpose, multiply,
                         tensordot, dot, eye, sum, prod, arctan, where, radians, degrees)


def any(a, axis=None, out=None, keepdims=False):
    return _finish(_as_bool_reduce(_as_array(a), axis, keepdims, any_=True), out)


def all(a, axis=None, out=None, keepdims=False):
    return _finish(_as_bool_reduce(_as_array(a), axis, keepdims, any_=False), out)


def isnan(x, out=None):
    x = _as_array(x)
    return not_equal(x, x, out=out)


def isinf(x, out=None):
    x = _as_array(x)
    return equal(absolute(x), _onp.inf, out=out)


def isfinite(x, out=None):
    x = _as_array(x)
    return _finish(logical_not(logical_or_(isnan(x), isinf(x))), out)


def logical_or_(a, b):
    return not_equal(_cast(a, _onp.float32) + _cast(b, _onp.float32), 0)


def flip(m, axis=None, out=None):
    m = _as_array(m)
    axes = range(m.ndim) if axis is None else (
        [axis] if isinstance(axis, numbers.Integral) else axis)
    res = m
    for ax in axes:
        res = _nd(_ndop.reverse, res, axis=int(ax) % m.ndim)
    return _finish(res if res is not m else m.copy(), out)


def atleast_1d(*arys):
    res = [_as_array(a) if _as_array(a).ndim >= 1 else reshape(a, (1,)) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys):
    res = []
    for a in arys:
        a = _as_array(a)
        res.append(a if a.ndim >= 2 else reshape(a, (1,) * (2 - a.ndim) + a.shape))
    return res[0] if len(res) == 1 else res


def hstack(arrays):
    arrays = [atleast_1d(a) for a in arrays]
    return concatenate(arrays, axis=0 if arrays[0].ndim == 1 else 1)


def vstack(arrays):
    return concatenate([atleast_2d(a) for a in arrays], axis=0)


row_stack = vstack


def column_stack(tup):
    arrays = [_as_array(a) for a in tup]
    arrays = [reshape(a, (-1, 1)) if a.ndim < 2 else a for a in arrays]
    return concatenate(arrays, axis=1)


def tile(A, reps):
    A = _as_array(A)
    reps = (int(reps),) if isinstance(reps, numbers.Integral) else tuple(reps)
    return _nd(_ndop.tile, A, reps=reps)


def repeat(a, repeats, axis=None):
    a = _as_array(a)
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    return _nd(_ndop.repeat, a, repeats=int(repeats), axis=int(axis))


def moveaxis(a, source, destination):
    a = _as_array(a)
    order = [i for i in range(a.ndim) if i != source % a.ndim]
    order.insert(destination % a.ndim, source % a.ndim)
    return transpose(a, order)


def outer(a, b):
    return multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def inner(a, b):
    return tensordot(a, b, axes=([-1], [-1]))


def vdot(a, b):
    return dot(reshape(a, (-1,)), reshape(b, (-1,)))


def trace(a, offset=0, axis1=0, axis2=1):
    a = _as_array(a)
    eye_mask = eye(a.shape[axis1], a.shape[axis2], k=offset, dtype=a.dtype, ctx=a.context)
    moved = transpose(a, [axis1, axis2] + [i for i in range(a.ndim) if i not in (axis1, axis2)])
    shape = eye_mask.shape + (1,) * (a.ndim - 2)
    return sum(moved * reshape(eye_mask, shape), axis=(0, 1))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _builtins.bool(_onp.allclose(_as_array(a).asnumpy(), _as_array(b).asnumpy(), rtol=rtol,
                              atol=atol, equal_nan=equal_nan))


def array_equal(a1, a2):
    return _builtins.bool(_onp.array_equal(_as_array(a1).asnumpy(), _as_array(a2).asnumpy()))


def arctan2(x1, x2, out=None):
    """arctan(x1 / x2) in the right quadrant, from arctan and where (differentiable)."""
    x1 = _as_array(x1)
    x2 = _as_array(x2)
    base = arctan(x1 / x2)
    quarter = where(x1 >= 0, _onp.pi, -_onp.pi)
    res = where(x2 < 0, base + quarter, base)
    res = where(x2 == 0, where(x1 >= 0, _onp.pi / 2, -_onp.pi / 2), res)
    return _finish(res, out)


fabs = absolute
product = prod
sometrue = any
alltrue = all
deg2rad = radians
rad2deg = degrees
bool = _onp.bool_


def positive(x, out=None):
    return _finish(_as_array(x).copy(), out)


__all__ = ['any', 'all', 'isnan', 'isinf', 'isfinite', 'flip', 'atleast_1d', 'atleast_2d',
            'hstack', 'vstack', 'row_stack', 'column_stack', 'tile', 'repeat', 'moveaxis',
            'outer', 'inner', 'vdot', 'trace', 'allclose', 'array_equal', 'arctan2', 'fabs',
            'product', 'sometrue', 'alltrue', 'deg2rad', 'rad2deg', 'bool', 'positive']
