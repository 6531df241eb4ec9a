"""Shape manipulation, joining, selection and sorting of mx.np arrays."""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins
import numbers

import numpy as _onp

from ..ndarray.ndarray import NDArray
from ..ndarray import op as _ndop
from ._core import (_SCALARS, _as_array, _cast, _finish, _invoke, _nd, _result_type, array,
                    broadcast_to, full, reshape)


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
    """NumPy's unique (operator _npi_unique; not differentiable). The inverse indices are 1-d,
    one per compared element or slice, as in MXNet 1.9.1."""
    from ..ndarray.numpy import _internal
    res = _nd(_internal._npi_unique, _as_array(ar), return_index=return_index,
              return_inverse=return_inverse, return_counts=return_counts, axis=axis)
    return tuple(res) if isinstance(res, (list, tuple)) else res


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
