"""The mx.sym.np functions that record one operator each (the others, in routines, linalg,
random and host_routines, are built from these)."""
# pylint: disable=redefined-builtin,invalid-name
import numbers

import numpy as _onp

from .. import op as _op
from .. import _internal as _si
from . import _internal

__all__ = ['add', 'subtract', 'multiply', 'true_divide', 'divide', 'power', 'mod', 'maximum',
           'minimum', 'exp', 'log', 'sqrt', 'abs', 'absolute', 'square', 'tanh', 'sin', 'cos',
           'negative', 'sum', 'mean', 'max', 'min', 'prod', 'dot', 'matmul', 'reshape',
           'transpose', 'swapaxes', 'expand_dims', 'concatenate', 'stack', 'where', 'clip',
           'zeros_like', 'ones_like', 'equal', 'not_equal', 'greater', 'less', 'greater_equal',
           'less_equal', 'log1p', 'expm1', 'sigmoid', 'argmax', 'argmin', 'split',
           'broadcast_to']


def _is_scalar(x):
    return isinstance(x, (numbers.Number, _onp.generic))


def _binary(x1, x2, array_op, scalar_op, rscalar_op):
    if _is_scalar(x2):
        return getattr(_si, scalar_op)(x1, scalar=float(x2))
    if _is_scalar(x1):
        return getattr(_si, rscalar_op)(x2, scalar=float(x1))
    return getattr(_op, array_op)(x1, x2)


def add(x1, x2):
    return _binary(x1, x2, 'broadcast_add', '_plus_scalar', '_plus_scalar')


def subtract(x1, x2):
    return _binary(x1, x2, 'broadcast_sub', '_minus_scalar', '_rminus_scalar')


def multiply(x1, x2):
    return _binary(x1, x2, 'broadcast_mul', '_mul_scalar', '_mul_scalar')


def true_divide(x1, x2):
    return _binary(x1, x2, 'broadcast_div', '_div_scalar', '_rdiv_scalar')


divide = true_divide


def power(x1, x2):
    return _binary(x1, x2, 'broadcast_power', '_power_scalar', '_rpower_scalar')


def mod(x1, x2):
    return _binary(x1, x2, 'broadcast_mod', '_mod_scalar', '_rmod_scalar')


def maximum(x1, x2):
    return _binary(x1, x2, 'broadcast_maximum', '_maximum_scalar', '_maximum_scalar')


def minimum(x1, x2):
    return _binary(x1, x2, 'broadcast_minimum', '_minimum_scalar', '_minimum_scalar')


def _compare(op_name, reflected):
    def function(x1, x2):
        if _is_scalar(x2):
            return getattr(_internal, '_npi_%s_scalar' % op_name)(x1, scalar=float(x2),
                                                                  is_int=False)
        if _is_scalar(x1):
            return getattr(_internal, '_npi_%s_scalar' % reflected)(x2, scalar=float(x1),
                                                                    is_int=False)
        return getattr(_internal, '_npi_' + op_name)(x1, x2)
    function.__name__ = op_name
    return function


equal = _compare('equal', 'equal')
not_equal = _compare('not_equal', 'not_equal')
greater = _compare('greater', 'less')
less = _compare('less', 'greater')
greater_equal = _compare('greater_equal', 'less_equal')
less_equal = _compare('less_equal', 'greater_equal')

exp = _op.exp
log = _op.log
sqrt = _op.sqrt
abs = _op.abs
absolute = _op.abs
square = _op.square
tanh = _op.tanh
sin = _op.sin
cos = _op.cos
negative = _op.negative
log1p = _op.log1p
expm1 = _op.expm1
sigmoid = _op.sigmoid
zeros_like = _op.zeros_like
ones_like = _op.ones_like


def _axis(axis):
    if axis is None:
        return None
    return (int(axis),) if isinstance(axis, numbers.Integral) else tuple(axis)


def _reduce(name):
    def function(a, axis=None, dtype=None, keepdims=False, **kwargs):  # pylint: disable=unused-argument
        params = {'keepdims': keepdims}
        if axis is not None:
            params['axis'] = _axis(axis)
        if dtype is not None:
            params['dtype'] = _onp.dtype(dtype).name
        return getattr(_internal, name)(a, **params)
    return function


sum = _reduce('_np_sum')
mean = _reduce('_npi_mean')
max = _reduce('_np_max')
min = _reduce('_np_min')
prod = _reduce('_np_prod')


def argmax(a, axis=None):
    if axis is None:
        return _op.Cast(_op.argmax(reshape(a, (-1,)), axis=0), dtype='int64')
    return _op.Cast(_op.argmax(a, axis=int(axis)), dtype='int64')


def argmin(a, axis=None):
    if axis is None:
        return _op.Cast(_op.argmin(reshape(a, (-1,)), axis=0), dtype='int64')
    return _op.Cast(_op.argmin(a, axis=int(axis)), dtype='int64')


def dot(a, b):
    return _op.dot(a, b)


def matmul(a, b):
    return _op.batch_dot(a, b)


def reshape(a, newshape, order='C'):
    if isinstance(newshape, numbers.Integral):
        newshape = (newshape,)
    return _internal._np_reshape(a, newshape=tuple(newshape), order=order)


def transpose(a, axes=None):
    return _op.transpose(a) if axes is None else _op.transpose(a, axes=tuple(axes))


def swapaxes(a, axis1, axis2):
    return _op.swapaxes(a, dim1=int(axis1), dim2=int(axis2))


def expand_dims(a, axis):
    return _op.expand_dims(a, axis=int(axis))


def concatenate(seq, axis=0):
    return _op.concat(*seq, dim=int(axis))


def stack(arrays, axis=0):
    return _op.stack(*arrays, axis=int(axis))


def split(ary, indices_or_sections, axis=0):
    if not isinstance(indices_or_sections, numbers.Integral):
        raise NotImplementedError('mx.sym.np.split: only a number of equal sections is '
                                  'supported for Symbols')
    out = _op.split(ary, num_outputs=int(indices_or_sections), axis=int(axis))
    return [out[i] for i in range(int(indices_or_sections))]


def where(condition, x, y):
    return _op.where(condition, x, y)


def clip(a, a_min, a_max):
    lo = -_onp.inf if a_min is None else float(a_min)
    hi = _onp.inf if a_max is None else float(a_max)
    return _op.clip(a, a_min=lo, a_max=hi)


def broadcast_to(array, shape):
    return _op.broadcast_to(array, shape=tuple(shape))
