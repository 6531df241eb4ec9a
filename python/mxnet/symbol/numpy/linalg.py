"""mx.sym.np.linalg: the linear-algebra functions of mx.np.linalg that need no shape knowledge
while the graph is built (norms, inverses, determinants, Cholesky, symmetric eigensolver,
solve), recording the linalg operators mx.np.linalg runs."""
# pylint: disable=invalid-name,redefined-builtin
import numbers

import numpy as _onp

from .. import linalg as _sla
from . import sqrt, sum, max, abs, multiply, swapaxes, expand_dims

__all__ = ['norm', 'inv', 'det', 'slogdet', 'cholesky', 'eigh', 'eigvalsh', 'solve']


def norm(x, ord=None, axis=None, keepdims=False):
    """The Frobenius / vector 2-norm (ord None, 'fro' or 2), or for vectors along an integer
    `axis` the 1-norm (ord=1) and max-norm (ord=inf)."""
    if ord in (None, 'fro', 2):
        return sqrt(sum(multiply(x, x), axis=axis, keepdims=keepdims))
    if isinstance(axis, numbers.Integral) and ord == 1:
        return sum(abs(x), axis=axis, keepdims=keepdims)
    if isinstance(axis, numbers.Integral) and ord == _onp.inf:
        return max(abs(x), axis=axis, keepdims=keepdims)
    raise ValueError('mx.sym.np.linalg.norm: expected ord None, "fro" or 2, or ord 1 or inf '
                     'with an integer axis, got ord=%r, axis=%r' % (ord, axis))


def inv(a):
    return _sla.inverse(a)


def _batched(a):
    # The classic operators give a 2-D input's scalar result the shape (1,); with a leading
    # batch axis of 1 added, then summed away, the result has NumPy's shape a.shape[:-2].
    return expand_dims(a, 0)


def _unbatched(res):
    return sum(res, axis=0)


def det(a):
    """Determinants of the (..., n, n) matrices a, shape a.shape[:-2]."""
    return _unbatched(_sla.det(_batched(a)))


def slogdet(a):
    """(sign, log|det|) of the (..., n, n) matrices a."""
    res = _sla.slogdet(_batched(a))
    return _unbatched(res[0]), _unbatched(res[1])


def cholesky(a):
    """The lower-triangular L with a = L L^T."""
    return _sla.potrf(a)


def eigh(a, UPLO='L'):  # pylint: disable=unused-argument
    """Eigenvalues (ascending) and eigenvectors (columns) of symmetric matrices."""
    res = _sla.syevd(a)
    return res[1], swapaxes(res[0], -1, -2)


def eigvalsh(a, UPLO='L'):  # pylint: disable=unused-argument
    return _sla.syevd(a)[1]


def solve(a, b):
    """x with a @ x = b, for matrices b of shape (..., n, k)."""
    return _sla.gemm2(inv(a), b)



