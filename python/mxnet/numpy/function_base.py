"""More mx.np functions, composed from those of multiarray (so autograd sees the operators
they run)."""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins
import numbers

import numpy as _onp

from ..ndarray import op as _ndop
from ._core import (_as_array, _finish, _nd, _cast, reshape, eye, array, linspace, broadcast_to,
                    full_like, _result_type)
from ._elementwise import (not_equal, equal, absolute, logical_not, multiply, arctan, radians,
                           degrees, less, less_equal, power, around)
from ._reduction import _as_bool_reduce, sum, prod, max as _max, min as _min, mean
from ._manipulation import concatenate, transpose, where, split
from ._products import tensordot, dot


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


# ---------------------------------------------------------------------------------------------
# Shape helpers, diagonals, rolling, splitting


def atleast_3d(*arys):
    res = []
    for a in arys:
        a = _as_array(a)
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = reshape(a, a.shape + (1,))
        res.append(a)
    return res[0] if len(res) == 1 else res


def dstack(arrays):
    return concatenate([atleast_3d(a) for a in arrays], axis=2)


def array_split(ary, indices_or_sections, axis=0):
    ary = _as_array(ary)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, numbers.Integral):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError('number sections must be larger than 0.')
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = [int(_onp.sum(sizes[:i])) for i in range(1, sections)]
    else:
        bounds = list(indices_or_sections)
    return split(ary, bounds, axis=axis)


def hsplit(ary, indices_or_sections):
    ary = _as_array(ary)
    return split(ary, indices_or_sections, axis=0 if ary.ndim == 1 else 1)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, axis=2)


def diag(v, k=0):
    v = _as_array(v)
    if v.ndim not in (1, 2):
        raise ValueError('Input must be 1- or 2-d.')
    return _nd(_ndop.diag, v, k=int(k))


def diagonal(a, offset=0, axis1=0, axis2=1):
    return _nd(_ndop.diag, _as_array(a), k=int(offset), axis1=int(axis1), axis2=int(axis2))


def diagflat(v, k=0):
    return diag(reshape(v, (-1,)), k)


def _tri_mask(n, m, k, lower, like):
    mask = _onp.tri(n, m, k, dtype=bool) if lower else ~_onp.tri(n, m, k - 1, dtype=bool)
    return array(mask.astype(_onp.dtype(like.dtype).name if like.dtype != _onp.bool_ else bool),
                 dtype=like.dtype, ctx=like.context)


def tril(m, k=0):
    m = _as_array(m)
    return multiply(m, _tri_mask(m.shape[-2], m.shape[-1], k, True, m))


def triu(m, k=0):
    m = _as_array(m)
    return multiply(m, _tri_mask(m.shape[-2], m.shape[-1], k, False, m))


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1)):
    m = _as_array(m)
    k %= 4
    a0, a1 = axes
    if k == 0:
        return m.copy()
    if k == 2:
        return flip(flip(m, a0), a1)
    order = list(range(m.ndim))
    order[a0], order[a1] = order[a1], order[a0]
    if k == 1:
        return transpose(flip(m, a1), order)
    return flip(transpose(m, order), a1)


def roll(a, shift, axis=None):
    a = _as_array(a)
    if axis is None:
        return reshape(roll(reshape(a, (-1,)), shift, 0), a.shape)
    if not isinstance(axis, numbers.Integral):
        res = a
        shifts = shift if not isinstance(shift, numbers.Integral) else [shift] * len(axis)
        for s, ax in zip(shifts, axis):
            res = roll(res, s, ax)
        return res
    n = a.shape[axis]
    if n == 0:
        return a.copy()
    s = int(shift) % n
    if s == 0:
        return a.copy()
    head, tail = split(a, [n - s], axis=axis)
    return concatenate([tail, head], axis=axis)


def meshgrid(*xi, **kwargs):
    indexing = kwargs.get('indexing', 'xy')
    arrays = [reshape(x, (-1,)) for x in xi]
    shape = [x.shape[0] for x in arrays]
    if indexing == 'xy' and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(arrays):
        axis = i
        if indexing == 'xy' and len(arrays) > 1 and i < 2:
            axis = 1 - i
        view = [1] * len(arrays)
        view[axis] = x.shape[0]
        out.append(broadcast_to(reshape(x, tuple(view)), tuple(shape)))
    return out


def indices(dimensions, dtype=None, ctx=None):
    grids = _onp.indices(tuple(dimensions))
    return array(grids, dtype='int64' if dtype is None else dtype, ctx=ctx)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):
    return power(base, linspace(start, stop, num, endpoint=endpoint, dtype=dtype, axis=axis,
                                ctx=ctx))


# ---------------------------------------------------------------------------------------------
# Element-wise extras, statistics


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a = _as_array(a)
    b = _as_array(b)
    close = less_equal(absolute(a - b), atol + rtol * absolute(b))
    if equal_nan:
        both_nan = _cast(isnan(a), _onp.float32) * _cast(isnan(b), _onp.float32)
        close = not_equal(_cast(close, _onp.float32) + both_nan, 0)
    return close


def isposinf(x):
    return equal(_as_array(x), _onp.inf)


def isneginf(x):
    return equal(_as_array(x), -_onp.inf)


def signbit(x):
    x = _as_array(x)
    return less(x, 0)


def copysign(x1, x2):
    x1 = _as_array(x1)
    sign2 = where(less(_as_array(x2) if not isinstance(x2, numbers.Number) else
                       array(x2), 0), -1.0, 1.0)
    return absolute(x1) * _cast(sign2, x1.dtype)


def heaviside(x1, x2):
    x1 = _as_array(x1)
    return where(less(x1, 0), 0.0, where(equal(x1, 0), x2, 1.0))


def float_power(x1, x2):
    x1 = _cast(_as_array(x1), _onp.float64)
    x2 = x2 if isinstance(x2, numbers.Number) else _cast(_as_array(x2), _onp.float64)
    return power(x1, x2)


def ldexp(x1, x2):
    return multiply(x1, power(2.0, x2) if not isinstance(x2, numbers.Number) else 2.0 ** x2)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):  # pylint: disable=redefined-outer-name,unused-argument
    x = _as_array(x)
    if not _onp.issubdtype(x.dtype, _onp.floating):
        return x.copy()
    big = float(_onp.finfo(x.dtype).max)
    res = where(isnan(x), nan, x)
    res = where(isposinf(res), big if posinf is None else posinf, res)
    return where(isneginf(res), -big if neginf is None else neginf, res)


def count_nonzero(a, axis=None):
    return sum(_cast(not_equal(_as_array(a), 0), _onp.int64), axis=axis)


def nonzero(a):
    value = _as_array(a).asnumpy()
    return tuple(array(i, dtype='int64') for i in _onp.nonzero(value))


def argwhere(a):
    return array(_onp.argwhere(_as_array(a).asnumpy()), dtype='int64')


def flatnonzero(a):
    return array(_onp.flatnonzero(_as_array(a).asnumpy()), dtype='int64')


def ptp(a, axis=None, keepdims=False):
    return _max(a, axis=axis, keepdims=keepdims) - _min(a, axis=axis, keepdims=keepdims)


def average(a, axis=None, weights=None, returned=False):
    a = _as_array(a)
    if weights is None:
        avg = mean(a, axis=axis)
        count = a.size // _builtins.max(avg.size, 1)
        return (avg, full_like(avg, count)) if returned else avg
    w = _as_array(weights)
    if w.shape != a.shape:
        if axis is None or w.ndim != 1:
            raise TypeError('Axis must be specified when shapes of a and weights differ.')
        view = [1] * a.ndim
        view[axis] = w.shape[0]
        w = reshape(w, tuple(view))
    wsum = sum(broadcast_to(w, a.shape), axis=axis)
    avg = sum(a * w, axis=axis) / wsum
    return (avg, wsum) if returned else avg


def diff(a, n=1, axis=-1):
    a = _as_array(a)
    for _ in range(n):
        length = a.shape[axis]
        hi = split(a, [1], axis=axis)[1] if length else a
        lo = split(a, [length - 1], axis=axis)[0] if length else a
        a = hi - lo
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    res = diff(reshape(ary, (-1,)))
    parts = []
    if to_begin is not None:
        parts.append(reshape(_as_array(to_begin), (-1,)))
    parts.append(res)
    if to_end is not None:
        parts.append(reshape(_as_array(to_end), (-1,)))
    return concatenate(parts) if len(parts) > 1 else res


def take_along_axis(arr, indices, axis):  # pylint: disable=redefined-outer-name
    arr = _as_array(arr)
    idx = _as_array(indices).asnumpy().astype(_onp.int64)
    if axis is None:
        arr = reshape(arr, (-1,))
        axis = 0
    flat = _onp.arange(arr.size).reshape(arr.shape)
    positions = _onp.take_along_axis(flat, idx, axis)
    gathered = _nd(_ndop.take, reshape(arr, (-1,)),
                   array(positions.reshape(-1), dtype='int64', ctx=arr.context), axis=0)
    return reshape(gathered, positions.shape)


def searchsorted(a, v, side='left', sorter=None):
    res = _onp.searchsorted(_as_array(a).asnumpy(), _onp.asarray(
        v.asnumpy() if hasattr(v, 'asnumpy') else v), side=side, sorter=sorter)
    return array(res, dtype='int64')


def interp(x, xp, fp, left=None, right=None, period=None):
    def host(v):
        return v.asnumpy() if hasattr(v, 'asnumpy') else _onp.asarray(v)
    res = _onp.interp(host(x), host(xp), host(fp), left=left, right=right, period=period)
    return array(res, dtype='float32' if _onp.ndim(res) else 'float32')


def histogram(a, bins=10, range=None, density=None, weights=None):  # pylint: disable=redefined-builtin
    hist, edges = _onp.histogram(_as_array(a).asnumpy(), bins=bins, range=range,
                                 density=density,
                                 weights=None if weights is None else _as_array(weights).asnumpy())
    return array(hist, dtype=hist.dtype), array(edges, dtype='float32')


def bincount(x, weights=None, minlength=0):
    """Occurrences of each value of the 1-d non-negative integer array `x` (operator
    _npi_bincount): counts in x's dtype, or the sums of `weights` in their dtype."""
    from ..ndarray.numpy import _internal
    if weights is None:
        return _nd(_internal._npi_bincount, _as_array(x), minlength=minlength, has_weights=False)
    return _nd(_internal._npi_bincount, _as_array(x), _as_array(weights), minlength=minlength,
               has_weights=True)


def result_type(*arrays_and_dtypes):
    dtypes = [a.dtype if hasattr(a, 'dtype') else _onp.dtype(a) for a in arrays_and_dtypes]
    res = dtypes[0]
    for d in dtypes[1:]:
        res = _result_type(res, d)
    return _onp.dtype(res)


promote_types = result_type
finfo = _onp.finfo
iinfo = _onp.iinfo
round_ = around
NAN = NaN = _onp.nan
PINF = _onp.inf
NINF = -_onp.inf
PZERO = 0.0
NZERO = -0.0

__all__ += ['atleast_3d', 'dstack', 'array_split', 'hsplit', 'vsplit', 'dsplit', 'diag',
            'diagonal', 'diagflat', 'tril', 'triu', 'fliplr', 'flipud', 'rot90', 'roll',
            'meshgrid', 'indices', 'logspace', 'isclose', 'isposinf', 'isneginf', 'signbit',
            'copysign', 'heaviside', 'float_power', 'ldexp', 'nan_to_num', 'count_nonzero',
            'nonzero', 'argwhere', 'flatnonzero', 'ptp', 'average', 'diff', 'ediff1d',
            'take_along_axis', 'searchsorted', 'interp', 'histogram', 'bincount',
            'result_type', 'promote_types', 'finfo', 'iinfo', 'round_', 'NAN', 'NaN', 'PINF',
            'NINF', 'PZERO', 'NZERO']
