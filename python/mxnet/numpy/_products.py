"""Products of mx.np arrays: dot, matmul, tensordot."""
# pylint: disable=redefined-builtin,invalid-name
import numbers

import numpy as _onp

from ..ndarray import op as _ndop
from ._core import _as_array, _finish, _nd, broadcast_to, reshape
from ._elementwise import multiply
from ._manipulation import transpose


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
