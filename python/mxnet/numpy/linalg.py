"""mx.np.linalg (the subset this build provides: norm)."""
import numpy as _onp

from .multiarray import _as_array, sqrt, sum as _sum, absolute, max as _max

__all__ = ['norm']


def norm(x, ord=None, axis=None, keepdims=False):  # pylint: disable=redefined-builtin
    """Frobenius / 2-norm (ord=None or 2 for vectors, 'fro'), 1-norm (ord=1) or inf-norm of
    vectors (over `axis`, default every axis)."""
    x = _as_array(x)
    if ord in (None, 'fro', 2) and not (ord == 2 and x.ndim == 2 and axis is None):
        return sqrt(_sum(x * x, axis=axis, keepdims=keepdims))
    if ord == 1 and (x.ndim == 1 or axis is not None and _onp.ndim(axis) == 0):
        return _sum(absolute(x), axis=axis, keepdims=keepdims)
    if ord == _onp.inf and (x.ndim == 1 or axis is not None and _onp.ndim(axis) == 0):
        return _max(absolute(x), axis=axis, keepdims=keepdims)
    raise NotImplementedError('norm: ord=%r with axis=%r for an array of shape %s is not '
                              'supported' % (ord, axis, x.shape))
