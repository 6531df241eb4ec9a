"""More mx.np routines: array editing (append, insert, delete, resize, pad), einsum, order
statistics, window functions, integer bit operations and memory-overlap queries.

Where the result follows from operators (append, delete, resize, einsum, polyval, tensor
shapes) the routine is composed from them so autograd sees it; the integer and order-statistic
routines, like MXNet 1.9.1's, have no gradient and run on host copies.
"""
# pylint: disable=redefined-builtin,invalid-name
import ctypes
import numbers
import string

import numpy as _onp

from ..base import _LIB, check_call
from ..ndarray.ndarray import NDArray
from ._core import _as_array, array, reshape, broadcast_to, _ctx
from ._elementwise import multiply, add
from ._reduction import sum as _sum
from ._manipulation import concatenate, take, transpose, expand_dims

__all__ = ['append', 'delete', 'insert', 'resize', 'pad', 'einsum', 'percentile', 'quantile',
           'polyval', 'lcm', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_not',
           'invert', 'blackman', 'hamming', 'hanning', 'shares_memory', 'unravel_index',
           'diag_indices_from', 'set_printoptions']


def _host(x):
    return x.asnumpy() if isinstance(x, NDArray) else _onp.asarray(x)


def _context_of(*xs):
    for x in xs:
        if isinstance(x, NDArray):
            return x.context
    return _ctx(None)


def _from_host(value, *like):
    value = _onp.asarray(value)
    return array(value, dtype=value.dtype, ctx=_context_of(*like))


# ---------------------------------------------------------------------------------------------
# Editing arrays


def append(arr, values, axis=None):
    """`values` appended to the end of `arr` (both flattened when axis is None)."""
    arr = _as_array(arr)
    values = _as_array(values, dtype=arr.dtype)
    if axis is None:
        return concatenate([reshape(arr, (-1,)), reshape(values, (-1,))], axis=0)
    return concatenate([arr, values], axis=axis)


def delete(arr, obj, axis=None):
    """A copy of `arr` without the sub-arrays at `obj` (an index, slice or index list) along
    `axis` (the flattened array when axis is None)."""
    arr = _as_array(arr)
    if axis is None:
        arr = reshape(arr, (-1,))
        axis = 0
    axis = axis % arr.ndim
    n = arr.shape[axis]
    if isinstance(obj, slice):
        drop = _onp.arange(n)[obj]
    else:
        drop = _host(obj).astype(_onp.int64).reshape(-1)
        if ((drop < -n) | (drop >= n)).any():
            raise IndexError('delete: index out of bounds for axis %d with size %d' % (axis, n))
        drop = drop % n if n else drop
    keep = _onp.setdiff1d(_onp.arange(n), drop)
    return take(arr, array(keep, dtype='int64', ctx=arr.context), axis=axis)


def insert(arr, obj, values, axis=None):
    """`values` inserted into `arr` before the index or indices `obj` along `axis`
    (NumPy's insert, computed on the host)."""
    arr = _as_array(arr)
    if isinstance(obj, NDArray):
        obj = _host(obj)
    res = _onp.insert(arr.asnumpy(), obj, _host(values).astype(arr.dtype), axis=axis)
    return _from_host(res, arr)


def resize(a, new_shape):
    """An array of shape `new_shape` filled with the elements of `a` repeated in order."""
    a = _as_array(a)
    new_shape = (int(new_shape),) if isinstance(new_shape, numbers.Integral) else \
        tuple(int(d) for d in new_shape)
    total = int(_onp.prod(new_shape))
    if a.size == 0 or total == 0:
        return array(_onp.zeros(new_shape, dtype=a.dtype), dtype=a.dtype, ctx=a.context)
    positions = _onp.arange(total) % a.size
    flat = take(reshape(a, (-1,)), array(positions, dtype='int64', ctx=a.context), axis=0)
    return reshape(flat, new_shape)


def pad(x, pad_width, mode='constant', **kwargs):
    """`x` padded by `pad_width` ((before, after) per axis) in one of NumPy's modes
    ('constant', 'edge', 'reflect', 'symmetric', 'maximum', 'minimum', ...)."""
    x = _as_array(x)
    res = _onp.pad(x.asnumpy(), _host(pad_width).astype(_onp.int64).tolist()
                   if isinstance(pad_width, NDArray) else pad_width, mode=mode, **kwargs)
    return _from_host(res.astype(x.dtype), x)


# ---------------------------------------------------------------------------------------------
# einsum


def _einsum_terms(subscripts, operands):
    """(input term per operand, output term) with '...' expanded to letters."""
    subscripts = subscripts.replace(' ', '')
    inputs, arrow, output = subscripts.partition('->')
    terms = inputs.split(',')
    if len(terms) != len(operands):
        raise ValueError('einsum: %d operands for %d subscript terms'
                         % (len(operands), len(terms)))
    spare = [c for c in string.ascii_letters if c not in subscripts]
    ell_len = max([op.ndim - len(t.replace('...', '')) for t, op in zip(terms, operands)
                   if '...' in t] or [0])
    ell = ''.join(spare[:ell_len])
    expanded = []
    for t, op in zip(terms, operands):
        if '...' in t:
            own = op.ndim - len(t.replace('...', ''))
            t = t.replace('...', ell[ell_len - own:])
        if len(t) != op.ndim:
            raise ValueError('einsum: term %r does not match an operand of %d dimensions'
                             % (t, op.ndim))
        expanded.append(t)
    if arrow:
        output = output.replace('...', ell)
    else:
        letters = ''.join(expanded)
        output = ell + ''.join(sorted(c for c in set(letters) - set(ell)
                                      if letters.count(c) == 1))
    return expanded, output


def einsum(*operands, **kwargs):
    """Einstein summation: einsum('ij,jk->ik', a, b). Each operand is laid out over all the
    indices, multiplied by broadcasting, and summed over the indices not in the output, so the
    result is differentiable. An index repeated within one term (a diagonal) is computed on the
    host instead."""
    subscripts, operands = operands[0], [_as_array(op) for op in operands[1:]]
    out = kwargs.get('out')
    terms, output = _einsum_terms(subscripts, operands)
    if any(len(set(t)) != len(t) for t in terms):
        res = _from_host(_onp.einsum(subscripts, *[op.asnumpy() for op in operands]),
                         *operands)
    else:
        letters = list(output) + sorted(set(''.join(terms)) - set(output))
        res = None
        for term, op in zip(terms, operands):
            order = sorted(range(len(term)), key=lambda i, t=term: letters.index(t[i]))
            op = transpose(op, order) if order != list(range(len(term))) else op
            present = sorted(term, key=letters.index)
            for pos, c in enumerate(letters):
                if c not in present:
                    op = expand_dims(op, pos)
            res = op if res is None else multiply(res, op)
        summed = tuple(range(len(output), len(letters)))
        if summed:
            res = _sum(res, axis=summed)
        sizes = {}
        for term, op in zip(terms, operands):
            sizes.update(zip(term, op.shape))
        shape = tuple(sizes[c] for c in output)
        if res.shape != shape:
            res = broadcast_to(res, shape)
    if out is not None:
        out[...] = res
        return out
    return res


# ---------------------------------------------------------------------------------------------
# Order statistics, polynomials


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear',
             keepdims=False):  # pylint: disable=unused-argument
    """The q-th quantiles (q in [0, 1]) of `a` over `axis`; interpolation is 'linear',
    'lower', 'higher', 'midpoint' or 'nearest'."""
    a = _as_array(a)
    res = _onp.quantile(a.asnumpy(), _host(q), axis=axis, method=interpolation,
                        keepdims=keepdims)
    res = _from_host(_onp.asarray(res).astype(a.dtype if _onp.issubdtype(a.dtype, _onp.floating)
                                              else _onp.float64), a)
    if out is not None:
        out[...] = res
        return out
    return res


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear',
               keepdims=False):
    """The q-th percentiles (q in [0, 100]) of `a` over `axis`."""
    return quantile(a, _host(q) / 100.0, axis=axis, out=out, overwrite_input=overwrite_input,
                    interpolation=interpolation, keepdims=keepdims)


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x, by Horner's rule."""
    p = _as_array(p)
    x = _as_array(x)
    res = None
    for i in range(p.shape[0]):
        coef = p[i]
        res = coef + 0 * x if res is None else add(multiply(res, x), coef)
    return res


# ---------------------------------------------------------------------------------------------
# Integer operations, windows


def _integer_binary(func, x1, x2, out):
    res = func(_host(x1), _host(x2))
    res = _from_host(res, x1, x2)
    if out is not None:
        out[...] = res
        return out
    return res


def lcm(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    """Lowest common multiple of |x1| and |x2| (integer arrays)."""
    return _integer_binary(_onp.lcm, x1, x2, out)


def bitwise_and(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _integer_binary(_onp.bitwise_and, x1, x2, out)


def bitwise_or(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _integer_binary(_onp.bitwise_or, x1, x2, out)


def bitwise_xor(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _integer_binary(_onp.bitwise_xor, x1, x2, out)


def invert(x, out=None, **kwargs):  # pylint: disable=unused-argument
    """Bit-wise NOT of an integer or boolean array."""
    res = _from_host(_onp.invert(_host(x)), x)
    if out is not None:
        out[...] = res
        return out
    return res


bitwise_not = invert


def _window(func, M, dtype, ctx):
    return array(func(int(M)), dtype=_onp.float32 if dtype is None else dtype, ctx=ctx)


def blackman(M, dtype=None, ctx=None):
    """The Blackman window of M points, 0.42 - 0.5 cos(2 pi n/(M-1)) + 0.08 cos(4 pi n/(M-1))."""
    return _window(_onp.blackman, M, dtype, ctx)


def hamming(M, dtype=None, ctx=None):
    """The Hamming window of M points, 0.54 - 0.46 cos(2 pi n/(M-1))."""
    return _window(_onp.hamming, M, dtype, ctx)


def hanning(M, dtype=None, ctx=None):
    """The Hann window of M points, 0.5 - 0.5 cos(2 pi n/(M-1))."""
    return _window(_onp.hanning, M, dtype, ctx)


# ---------------------------------------------------------------------------------------------
# Indices, memory, printing


def unravel_index(indices, shape, order='C'):
    """The coordinates of flat `indices` in an array of `shape`, stacked: row i holds the
    coordinates along axis i."""
    coords = _onp.unravel_index(_host(indices).astype(_onp.int64), tuple(shape), order=order)
    return _from_host(_onp.stack(coords).astype(_onp.int64), indices)


def diag_indices_from(arr):
    """The indices of the main diagonal of an n-dimensional array with equal dimensions."""
    arr = _as_array(arr)
    if arr.ndim < 2 or len(set(arr.shape)) != 1:
        raise ValueError('diag_indices_from: input must be at least 2-d with equal dimensions')
    idx = array(_onp.arange(arr.shape[0]), dtype='int64', ctx=arr.context)
    return (idx,) * arr.ndim


def _byte_range(a):
    ptr = ctypes.c_void_p()
    check_call(_LIB.MXNDArrayGetData(a.handle, ctypes.byref(ptr)))
    if ptr.value is None or a.size == 0:
        return None
    return ptr.value, ptr.value + a.size * _onp.dtype(a.dtype).itemsize


def shares_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """Whether arrays a and b use some of the same memory (a slice shares its base's)."""
    ra, rb = _byte_range(_as_array(a)), _byte_range(_as_array(b))
    if ra is None or rb is None:
        return False
    return ra[0] < rb[1] and rb[0] < ra[1]


def may_share_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """Whether the memory of a and b overlaps (arrays are contiguous, so this is exact)."""
    return shares_memory(a, b)


def set_printoptions(precision=None, threshold=None, **kwarg):
    """How mx.np arrays print: digits of precision and the size above which they are
    summarised (the only two options MXNet 1.9.1 accepts)."""
    if kwarg:
        raise NotImplementedError('set_printoptions: only precision and threshold are '
                                  'supported, got %s' % sorted(kwarg))
    _onp.set_printoptions(precision=precision, threshold=threshold)
