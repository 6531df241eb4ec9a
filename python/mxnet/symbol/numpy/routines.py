"""More mx.sym.np functions. While a graph is built the shapes are unknown, so each function
here is one that needs no shape knowledge: element-wise maths, reductions over given axes,
reordering along given axes, array creation from static shapes, and einsum without '...'.
They record the operators the matching mx.np functions run imperatively."""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins
import numbers

import numpy as _onp

from .. import op as _op
from .. import contrib as _contrib
from . import _internal
from ._symbol import (_is_scalar, _axis, subtract, multiply, true_divide, power, mod, sqrt, concatenate,
               reshape, swapaxes, expand_dims, where, sum, mean, max, min, prod, equal, less,
               greater_equal)

__all__ = []


def _export(func):
    __all__.append(func.__name__)
    return func


# ---------------------------------------------------------------------------------------------
# Element-wise


def _unary(name, op_name):
    def function(x, out=None, **kwargs):  # pylint: disable=unused-argument
        return getattr(_op, op_name)(x)
    function.__name__ = name
    function.__doc__ = 'mx.sym.np.%s: records operator %s.' % (name, op_name)
    return function


for _name, _op_name in [('arccos', 'arccos'), ('arccosh', 'arccosh'), ('arcsin', 'arcsin'),
                        ('arcsinh', 'arcsinh'), ('arctan', 'arctan'), ('arctanh', 'arctanh'),
                        ('cbrt', 'cbrt'), ('ceil', 'ceil'), ('floor', 'floor'),
                        ('cosh', 'cosh'), ('sinh', 'sinh'), ('tan', 'tan'), ('fix', 'fix'),
                        ('rint', 'rint'), ('trunc', 'trunc'), ('log10', 'log10'),
                        ('log2', 'log2'), ('reciprocal', 'reciprocal'), ('sign', 'sign'),
                        ('degrees', 'degrees'), ('radians', 'radians'), ('fabs', 'abs'),
                        ('deg2rad', 'radians'), ('rad2deg', 'degrees')]:
    globals()[_name] = _export(_unary(_name, _op_name))

remainder = mod
__all__.append('remainder')


@_export
def hypot(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    """sqrt(x1**2 + x2**2), element-wise with broadcasting."""
    if _is_scalar(x2):
        return _internal._npi_hypot_scalar(x1, scalar=float(x2))
    if _is_scalar(x1):
        return _internal._npi_hypot_scalar(x2, scalar=float(x1))
    return _internal._npi_hypot(x1, x2)


@_export
def arctan2(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    """arctan(x1 / x2) in the quadrant of (x2, x1)."""
    base = _op.arctan(true_divide(x1, x2))
    upper = _cast(greater_equal(x1, 0), 'float32')
    quarter = _onp.pi * (2 * upper - 1)           # +pi above the x axis, -pi below
    res = where(less(x2, 0), base + quarter, base)
    return where(equal(x2, 0), _onp.pi / 2 * (2 * upper - 1), res)


@_export
def copysign(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    """|x1| with the sign of x2."""
    negative = _cast(less(x2, 0), 'float32')
    return multiply(_op.abs(x1), 1 - 2 * negative)


@_export
def ldexp(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    """x1 * 2**x2."""
    return multiply(x1, 2.0 ** x2 if _is_scalar(x2) else power(2.0, x2))


def _cast(x, dtype):
    return _internal._npi_cast(x, dtype=dtype)


@_export
def around(x, decimals=0, out=None, **kwargs):  # pylint: disable=unused-argument
    """x rounded to `decimals` decimals."""
    if decimals == 0:
        return _op.round(x)
    scale = 10.0 ** decimals
    return _op.round(x * scale) / scale


round = round_ = around
__all__ += ['round', 'round_']


@_export
def logical_not(x, out=None, **kwargs):  # pylint: disable=unused-argument
    """Boolean NOT: true where x is zero."""
    return _internal._npi_equal_scalar(x, scalar=0.0, is_int=False)


@_export
def isnan(x, out=None, **kwargs):  # pylint: disable=unused-argument
    return _internal._npi_not_equal(x, x)


@_export
def isinf(x, out=None, **kwargs):  # pylint: disable=unused-argument
    return _internal._npi_equal_scalar(_op.abs(x), scalar=_onp.inf, is_int=False)


@_export
def isposinf(x, out=None, **kwargs):  # pylint: disable=unused-argument
    return _internal._npi_equal_scalar(x, scalar=_onp.inf, is_int=False)


@_export
def isneginf(x, out=None, **kwargs):  # pylint: disable=unused-argument
    return _internal._npi_equal_scalar(x, scalar=-_onp.inf, is_int=False)


@_export
def isfinite(x, out=None, **kwargs):  # pylint: disable=unused-argument
    """True where x is neither infinite nor NaN (x - x is 0 exactly there)."""
    return _internal._npi_equal_scalar(x - x, scalar=0.0, is_int=False)


# ---------------------------------------------------------------------------------------------
# Reductions


def _bool_reduce(name, any_):
    def function(a, axis=None, out=None, keepdims=False):  # pylint: disable=unused-argument
        nonzero = _cast(_internal._npi_not_equal_scalar(a, scalar=0.0, is_int=False), 'float32')
        reduce = max if any_ else min
        return _cast(reduce(nonzero, axis=axis, keepdims=keepdims), 'bool')
    function.__name__ = name
    return function


any = _export(_bool_reduce('any', True))
all = _export(_bool_reduce('all', False))
sometrue = any
amax = max
amin = min
product = prod
__all__ += ['sometrue', 'amax', 'amin', 'product']


def _count(a, axis):
    return sum(_op.ones_like(a), axis=axis, keepdims=True)


@_export
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):  # pylint: disable=unused-argument
    """Variance over `axis`: the mean squared deviation, divided by (n - ddof) instead of n."""
    centred = subtract(a, mean(a, axis=axis, keepdims=True))
    squares = sum(centred * centred, axis=axis, keepdims=True)
    res = true_divide(squares, _count(a, axis) - ddof)
    if not keepdims:
        res = reshape(res, ()) if axis is None else _squeeze(res, axis)
    return res if dtype is None else _cast(res, _onp.dtype(dtype).name)


@_export
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):  # pylint: disable=unused-argument
    return sqrt(var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims))


def _squeeze(a, axis):
    return _internal._np_squeeze(a, axis=_axis(axis))


@_export
def squeeze(a, axis=None):
    """a without its size-1 dimensions (those in `axis`, or all)."""
    return _internal._np_squeeze(a) if axis is None else _squeeze(a, axis)


@_export
def average(a, axis=None, weights=None, returned=False):
    """The mean of a over `axis`, weighted by `weights` (of a's shape) when given."""
    if weights is None:
        avg = mean(a, axis=axis)
        wsum = sum(_op.ones_like(a), axis=axis)
    else:
        wsum = sum(weights * _op.ones_like(a), axis=axis)
        avg = sum(a * weights, axis=axis) / wsum
    return (avg, wsum) if returned else avg


@_export
def cumsum(a, axis=None, dtype=None, out=None):  # pylint: disable=unused-argument
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    params = {'axis': int(axis)}
    if dtype is not None:
        params['dtype'] = _onp.dtype(dtype).name
    return _internal._np_cumsum(a, **params)


@_export
def trace(a, offset=0, axis1=0, axis2=1, out=None):  # pylint: disable=unused-argument
    """The sum along a diagonal of the 2-D sub-arrays on axes axis1, axis2."""
    return sum(diagonal(a, offset, axis1, axis2), axis=-1)


# ---------------------------------------------------------------------------------------------
# Reordering, editing along known axes


@_export
def copy(a):
    return _internal._np_copy(a)


@_export
def ravel(x, order='C'):
    return reshape(x, (-1,), order=order)


@_export
def sort(a, axis=-1, kind=None, order=None):  # pylint: disable=unused-argument
    if axis is None:
        a, axis = ravel(a), 0
    return _internal._npi_sort(a, axis=int(axis))


@_export
def argsort(a, axis=-1, kind=None, order=None):  # pylint: disable=unused-argument
    if axis is None:
        a, axis = ravel(a), 0
    return _internal._npi_argsort(a, axis=int(axis), dtype='int64')


@_export
def flip(m, axis=None, out=None):  # pylint: disable=unused-argument
    """m with the order of its elements along `axis` (an int or tuple) reversed."""
    if axis is None:
        raise ValueError('mx.sym.np.flip: expected the axes to flip (the number of dimensions '
                         'of a Symbol is unknown), got axis=None')
    return _internal._npi_flip(m, axis=_axis(axis))


@_export
def fliplr(m):
    return flip(m, 1)


@_export
def flipud(m):
    return flip(m, 0)


@_export
def rot90(m, k=1, axes=(0, 1)):
    """m rotated by 90 degrees k times in the plane of `axes`, from axes[0] towards axes[1]."""
    a0, a1 = axes
    k %= 4
    if k == 0:
        return copy(m)
    if k == 2:
        return flip(m, (a0, a1))
    if k == 1:
        return swapaxes(flip(m, a1), a0, a1)
    return flip(swapaxes(m, a0, a1), a1)


@_export
def roll(a, shift, axis=None):
    """Elements shifted by `shift` along `axis` (of the flattened array when axis is None),
    those falling off the end coming back at the start."""
    if axis is None:
        raise ValueError('mx.sym.np.roll: expected an axis (the shape of a Symbol is unknown, '
                         'so the flattened array cannot be restored)')
    if not isinstance(axis, numbers.Integral):
        shifts = shift if not isinstance(shift, numbers.Integral) else [shift] * len(axis)
        for s, ax in zip(shifts, axis):
            a = roll(a, s, ax)
        return a
    if shift == 0:
        return copy(a)
    # a[-shift:] then a[:-shift] along the axis, for either sign of shift; the length along
    # the axis is unknown, so |shift| must be below it.
    head = _op.slice_axis(a, axis=int(axis), begin=-int(shift), end=None)
    tail = _op.slice_axis(a, axis=int(axis), begin=0, end=-int(shift))
    return concatenate([head, tail], axis=int(axis))


@_export
def moveaxis(a, source, destination):
    """a with axis `source` moved to position `destination` (non-negative axes)."""
    if source < 0 or destination < 0:
        raise ValueError('mx.sym.np.moveaxis: expected non-negative axes (the number of '
                         'dimensions of a Symbol is unknown), got %d, %d' % (source, destination))
    step = 1 if destination > source else -1
    for ax in range(source, destination, step):
        a = swapaxes(a, ax, ax + step)
    return a


@_export
def repeat(a, repeats, axis=None):
    params = {'repeats': int(repeats)}
    if axis is not None:
        params['axis'] = int(axis)
    return _internal._np_repeat(a, **params)


@_export
def tile(A, reps):
    reps = (int(reps),) if isinstance(reps, numbers.Integral) else tuple(int(r) for r in reps)
    return _internal._npi_tile(A, reps=reps)


@_export
def take(a, indices, axis=None, mode='raise', out=None):  # pylint: disable=unused-argument
    """Elements of `a` at integer `indices` along `axis` (of the flattened a by default)."""
    if axis is None:
        a, axis = ravel(a), 0
    return _op.take(a, indices, axis=int(axis), mode='wrap' if mode == 'wrap' else 'clip')


@_export
def append(arr, values, axis=None):
    """`values` appended to `arr` along `axis` (both flattened when axis is None)."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], axis=0)
    return concatenate([arr, values], axis=axis)


def _split_at(ary, indices_or_sections, axis):
    if isinstance(indices_or_sections, numbers.Integral):
        out = _op.split(ary, num_outputs=int(indices_or_sections), axis=axis)
        return [out[i] for i in range(int(indices_or_sections))]
    bounds = [0] + [int(i) for i in indices_or_sections] + [None]
    return [_op.slice_axis(ary, axis=axis, begin=lo, end=hi)
            for lo, hi in zip(bounds[:-1], bounds[1:])]


@_export
def array_split(ary, indices_or_sections, axis=0):
    """Sub-arrays of `ary` along `axis`: equal sections (an int, which must divide the
    length: it is unknown while the graph is built) or pieces between the given indices."""
    return _split_at(ary, indices_or_sections, axis)


@_export
def vsplit(ary, indices_or_sections):
    return _split_at(ary, indices_or_sections, 0)


@_export
def dsplit(ary, indices_or_sections):
    return _split_at(ary, indices_or_sections, 2)


@_export
def diag(v, k=0):
    """The k-th diagonal of a 2-D v, or the 2-D array with 1-D v on its k-th diagonal."""
    return _op.diag(v, k=int(k))


@_export
def diagonal(a, offset=0, axis1=0, axis2=1):
    return _op.diag(a, k=int(offset), axis1=int(axis1), axis2=int(axis2))


@_export
def diagflat(v, k=0):
    return diag(ravel(v), k)


def _tri_mask(m, k, lower):
    rows = _contrib.arange_like(m, axis=-2)
    cols = _contrib.arange_like(m, axis=-1)
    offset = _op.broadcast_sub(expand_dims(cols, 0), expand_dims(rows, 1))
    return (offset <= k) if lower else (offset >= k)


@_export
def tril(m, k=0):
    """m with the elements above the k-th diagonal zeroed."""
    mask = _op.broadcast_like(_tri_mask(m, k, True), m)
    return _op.where(mask, m, _op.zeros_like(m))


@_export
def diff(a, n=1, axis=-1):
    """The n-th differences a[i+1] - a[i] along `axis`."""
    for _ in range(n):
        a = (_op.slice_axis(a, axis=axis, begin=1, end=None)
             - _op.slice_axis(a, axis=axis, begin=0, end=-1))
    return a


@_export
def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of the flattened array, with `to_begin` / `to_end` around them."""
    parts = [diff(ravel(ary))]
    if to_begin is not None:
        parts.insert(0, ravel(to_begin))
    if to_end is not None:
        parts.append(ravel(to_end))
    return concatenate(parts, axis=0) if len(parts) > 1 else parts[0]


# ---------------------------------------------------------------------------------------------
# Products


@_export
def outer(a, b):
    """The outer product of the flattened a and b."""
    return _op.broadcast_mul(reshape(a, (-1, 1)), reshape(b, (1, -1)))


@_export
def vdot(a, b):
    """The dot product of the flattened a and b."""
    return sum(multiply(ravel(a), ravel(b)))


@_export
def inner(a, b):
    """Sum over the last axes of a and b (einsum '...i,...j' for 1-D and 2-D operands; here
    a and b are 1-D or 2-D)."""
    return _op.dot(a, b, transpose_b=True)


@_export
def tensordot(a, b, axes=2):
    """Sum of products over the last `axes` axes of a and the first `axes` axes of b
    (axes=1, the dot operator's contraction, or axes=0, the outer product)."""
    if axes == 1:
        return _op.dot(a, b)
    if axes == 0:
        return outer(a, b)
    raise ValueError('mx.sym.np.tensordot: expected axes=0 or axes=1 for Symbols (other '
                     'contractions need the unknown number of dimensions), got %r' % (axes,))


@_export
def einsum(*operands, **kwargs):  # pylint: disable=unused-argument
    """Einstein summation with explicit subscripts ('ij,jk->ik'): each operand is laid out
    over all the indices, multiplied by broadcasting, and summed over the indices not in the
    output. Ellipses and indices repeated within one term need shapes and are refused."""
    subscripts, operands = operands[0].replace(' ', ''), operands[1:]
    inputs, arrow, output = subscripts.partition('->')
    terms = inputs.split(',')
    if '.' in subscripts or _builtins.any(len(set(t)) != len(t) for t in terms):
        raise ValueError('mx.sym.np.einsum: ellipses and repeated indices within a term are '
                         'not supported for Symbols, got %r' % subscripts)
    if not arrow:
        letters = ''.join(terms)
        output = ''.join(sorted(c for c in set(letters) if letters.count(c) == 1))
    letters = list(output) + sorted(set(''.join(terms)) - set(output))
    res = None
    for term, op in zip(terms, operands):
        order = sorted(range(len(term)), key=lambda i, t=term: letters.index(t[i]))
        if order != list(range(len(term))):
            op = _op.transpose(op, axes=tuple(order))
        present = sorted(term, key=letters.index)
        for pos, c in enumerate(letters):
            if c not in present:
                op = expand_dims(op, pos)
        res = op if res is None else _op.broadcast_mul(res, op)
    summed = tuple(range(len(output), len(letters)))
    return sum(res, axis=summed) if summed else res


# ---------------------------------------------------------------------------------------------
# Creation from static shapes


def _dtype(dtype):
    return 'float32' if dtype is None else _onp.dtype(dtype).name


def _shape(shape):
    return (int(shape),) if isinstance(shape, numbers.Integral) else tuple(int(d) for d in shape)


@_export
def zeros(shape, dtype=None, order='C', ctx=None):  # pylint: disable=unused-argument
    return _internal._npi_zeros(shape=_shape(shape), dtype=_dtype(dtype))


@_export
def ones(shape, dtype=None, order='C', ctx=None):  # pylint: disable=unused-argument
    return _internal._npi_ones(shape=_shape(shape), dtype=_dtype(dtype))


@_export
def full(shape, fill_value, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    return _internal._npi_full(shape=_shape(shape), value=float(fill_value),
                               dtype=_dtype(dtype))


@_export
def full_like(a, fill_value, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    res = _op.ones_like(a) * float(fill_value)
    return res if dtype is None else _cast(res, _onp.dtype(dtype).name)


@_export
def empty_like(prototype, dtype=None, order='C', subok=False, shape=None):  # pylint: disable=unused-argument
    """An array like `prototype` (its elements are zero here)."""
    res = _op.zeros_like(prototype)
    return res if dtype is None else _cast(res, _onp.dtype(dtype).name)


@_export
def arange(start, stop=None, step=1, dtype=None, ctx=None):  # pylint: disable=unused-argument
    if stop is None:
        start, stop = 0, start
    return _internal._npi_arange(start=float(start), stop=float(stop), step=float(step),
                                 dtype=_dtype(dtype))


@_export
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):  # pylint: disable=unused-argument
    res = _internal._npi_linspace(start=float(start), stop=float(stop), num=int(num),
                                  endpoint=bool(endpoint), dtype=_dtype(dtype))
    if retstep:
        div = (num - 1) if endpoint else num
        return res, (float(stop) - float(start)) / div if div > 0 else float('nan')
    return res


@_export
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):  # pylint: disable=unused-argument
    return power(float(base), linspace(start, stop, num, endpoint=endpoint, dtype=dtype))


@_export
def eye(N, M=None, k=0, dtype=None, ctx=None, **kwargs):  # pylint: disable=unused-argument
    return _internal._npi_eye(N=int(N), M=0 if M is None else int(M), k=int(k),
                              dtype=_dtype(dtype))


@_export
def identity(n, dtype=None, ctx=None):  # pylint: disable=unused-argument
    return eye(n, dtype=dtype)


@_export
def indices(dimensions, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """The grid of indices of an array of shape `dimensions`, stacked along a first axis."""
    dimensions = _shape(dimensions)
    grids = []
    for i, d in enumerate(dimensions):
        view = [1] * len(dimensions)
        view[i] = d
        line = reshape(arange(d, dtype='int64' if dtype is None else dtype), tuple(view))
        grids.append(_op.broadcast_to(line, shape=dimensions))
    return _op.stack(*grids, axis=0)


def _window(M, dtype, terms):
    n = arange(int(M), dtype='float64')
    step = 2 * _onp.pi / (int(M) - 1) if int(M) > 1 else 0.0
    res = None
    for scale, coef in terms:
        part = _op.cos(n * (step * scale)) * coef if scale else _op.ones_like(n) * coef
        res = part if res is None else res + part
    return _cast(res, 'float32' if dtype is None else _onp.dtype(dtype).name)


@_export
def hanning(M, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """The Hann window: 0.5 - 0.5 cos(2 pi n / (M - 1))."""
    return _window(M, dtype, [(0, 0.5), (1, -0.5)])


@_export
def hamming(M, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """The Hamming window: 0.54 - 0.46 cos(2 pi n / (M - 1))."""
    return _window(M, dtype, [(0, 0.54), (1, -0.46)])


@_export
def blackman(M, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """The Blackman window: 0.42 - 0.5 cos(2 pi n/(M-1)) + 0.08 cos(4 pi n/(M-1))."""
    return _window(M, dtype, [(0, 0.42), (1, -0.5), (2, 0.08)])


@_export
def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # pylint: disable=unused-argument
    """(counts, bin edges) of the values of `a` in `bins` equal bins over `range` (required:
    the values are unknown while the graph is built), or in the bins between the edges of the
    Symbol `bins`."""
    if isinstance(bins, numbers.Integral):
        if range is None:
            raise ValueError('mx.sym.np.histogram: expected the range of the bins, got None')
        res = _internal._npi_histogram(a, bin_cnt=int(bins), range=tuple(float(r) for r in range))
    else:
        res = _internal._npi_histogram(a, bins)
    return res[0], res[1]


# ---- output shapes that depend on the values (run imperatively or in hybridized blocks) -------

@_export
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """The sorted unique elements of `ar` (operator _npi_unique); with the return_* flags a list
    of Symbols: unique values, first-occurrence indices, inverse indices, counts. The output
    shape depends on the values: use it in hybridized blocks, not in a bound executor."""
    res = _internal._npi_unique(ar, return_index=return_index, return_inverse=return_inverse,
                                return_counts=return_counts, axis=axis)
    count = 1 + int(bool(return_index)) + int(bool(return_inverse)) + int(bool(return_counts))
    return res if count == 1 else [res[i] for i in _builtins.range(count)]


@_export
def bincount(x, weights=None, minlength=0):
    """Occurrences of each non-negative integer of the 1-d `x` (operator _npi_bincount), or the
    sums of `weights` per value."""
    if weights is None:
        return _internal._npi_bincount(x, minlength=minlength, has_weights=False)
    return _internal._npi_bincount(x, weights, minlength=minlength, has_weights=True)


@_export
def shares_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """A 0-d boolean Symbol: whether the arrays bound to `a` and `b` overlap in memory
    (operator _npi_share_memory; the check is exact, so max_work changes nothing)."""
    return _internal._npi_share_memory(a, b)


@_export
def may_share_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """As shares_memory: the overlap test is exact."""
    return _internal._npi_share_memory(a, b)
