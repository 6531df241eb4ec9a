"""mx.np.linalg: norm, and the factorisations/solvers the classic linalg operators provide
(inv, det, slogdet, cholesky, eigh, solve, matrix_power, multi_dot, tensorinv, tensorsolve);
svd, eig and eigvals run on the host, cond and matrix_rank are NumPy's (on host copies)."""
# pylint: disable=invalid-name
import numpy as _onp

from ..ndarray import linalg as _ndla
from .fallback import linalg_fallbacks as _FALLBACKS
from .multiarray import (_as_array, _nd, sqrt, sum as _sum, absolute, max as _max, matmul,
                         eye, reshape, transpose, broadcast_to, array)

__all__ = ['norm', 'inv', 'det', 'slogdet', 'cholesky', 'eigh', 'solve', 'matrix_power',
           'multi_dot']


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


def inv(a):
    return _nd(_ndla.inverse, _as_array(a))


def det(a):
    a = _as_array(a)
    return reshape(_nd(_ndla.det, a), a.shape[:-2])


def slogdet(a):
    a = _as_array(a)
    sign, logabsdet = _nd(_ndla.slogdet, a)
    return reshape(sign, a.shape[:-2]), reshape(logabsdet, a.shape[:-2])


def cholesky(a):
    """The lower-triangular L with a = L L^T."""
    return _nd(_ndla.potrf, _as_array(a))


def eigh(a, UPLO='L'):  # pylint: disable=unused-argument
    """Eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix."""
    vecs_rows, vals = _nd(_ndla.syevd, _as_array(a))
    axes = list(range(vecs_rows.ndim))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return vals, transpose(vecs_rows, axes)


def solve(a, b):
    a = _as_array(a)
    b = _as_array(b)
    vector = b.ndim == a.ndim - 1
    if vector:
        b = reshape(b, b.shape + (1,))
    x = matmul(inv(a), b)
    return reshape(x, x.shape[:-1]) if vector else x


def matrix_power(a, n):
    a = _as_array(a)
    if n < 0:
        a = inv(a)
        n = -n
    result = eye(a.shape[-1], dtype=a.dtype, ctx=a.context)
    if a.ndim > 2:
        result = broadcast_to(result, a.shape)
    base = a
    while n:
        if n & 1:
            result = matmul(result, base)
        base = matmul(base, base)
        n >>= 1
    return result


def multi_dot(arrays):
    arrays = [_as_array(x) for x in arrays]
    res = arrays[0]
    for x in arrays[1:]:
        res = matmul(res, x)
    return res


def eigvalsh(a, UPLO='L'):
    return eigh(a, UPLO)[0]


def qr(a, mode='reduced'):
    """Q (m x n, orthonormal columns) and upper-triangular R (n x n) of an m x n matrix with
    m >= n, from the LQ factorisation (gelqf) of its transpose."""
    if mode != 'reduced':
        raise NotImplementedError("qr: only mode='reduced' is supported")
    a = _as_array(a)
    if a.ndim != 2 or a.shape[0] < a.shape[1]:
        raise NotImplementedError('qr: only 2-D matrices with rows >= columns are supported, '
                                  'got shape %s' % (a.shape,))
    q_rows, lower = _nd(_ndla.gelqf, transpose(a))
    return transpose(q_rows), transpose(lower)


def pinv(a, rcond=1e-15, hermitian=False):  # pylint: disable=unused-argument
    """Pseudo-inverse of a full-column-rank (or, transposed, full-row-rank) matrix."""
    a = _as_array(a)
    if a.shape[-2] >= a.shape[-1]:
        at = transpose(a, list(range(a.ndim - 2)) + [a.ndim - 1, a.ndim - 2])
        return matmul(inv(matmul(at, a)), at)
    at = transpose(a, list(range(a.ndim - 2)) + [a.ndim - 1, a.ndim - 2])
    return matmul(at, inv(matmul(a, at)))


def lstsq(a, b, rcond='warn'):  # pylint: disable=unused-argument
    """Least-squares solution of a x = b for a full-column-rank a (x only; the residuals,
    rank and singular values NumPy also returns are not computed)."""
    return matmul(pinv(a), _as_array(b)), None, None, None


__all__ += ['eigvalsh', 'qr', 'pinv', 'lstsq']


def _host_result(values, like):
    return array(values, dtype=values.dtype, ctx=like.context)


def svd(a):
    """a = ut @ diag(s) @ v for a (..., M, N) array with M <= N: returns (ut, s, v) with ut
    (..., M, M), s (..., M) descending and v (..., M, N) with orthonormal rows. Computed on the
    host (not recorded by autograd)."""
    a = _as_array(a)
    if a.ndim < 2 or a.shape[-2] > a.shape[-1]:
        raise ValueError('svd: expected an array of shape (..., M, N) with M <= N, got %s'
                         % (a.shape,))
    ut, s, v = _onp.linalg.svd(a.asnumpy(), full_matrices=False)
    return _host_result(ut, a), _host_result(s, a), _host_result(v, a)


def _real_eig(a, vectors):
    a = _as_array(a)
    host = a.asnumpy()
    res = _onp.linalg.eig(host) if vectors else (_onp.linalg.eigvals(host),)
    if any(_onp.iscomplexobj(r) and _onp.any(r.imag != 0) for r in res):
        raise ValueError('eig: the eigenvalues of this real matrix are complex; only real '
                         'eigen-decompositions are supported')
    res = [_host_result(_onp.real(r).astype(host.dtype), a) for r in res]
    return tuple(res) if vectors else res[0]


def eig(a):
    """Eigenvalues w and right eigenvectors v (columns, a @ v = v * w) of square matrices
    whose eigenvalues are real; computed on the host."""
    return _real_eig(a, True)


def eigvals(a):
    """Eigenvalues of square matrices whose eigenvalues are real; computed on the host."""
    return _real_eig(a, False)


def tensorinv(a, ind=2):
    """The inverse of `a` for tensordot over `ind` axes: tensordot(tensorinv(a), a, ind) is
    the identity of shape a.shape[ind:] * 2."""
    a = _as_array(a)
    if ind <= 0:
        raise ValueError('tensorinv: ind must be a positive integer, got %r' % (ind,))
    rows, cols = a.shape[:ind], a.shape[ind:]
    n_rows, n_cols = int(_onp.prod(rows)), int(_onp.prod(cols))
    if n_rows != n_cols:
        raise ValueError('tensorinv: prod(a.shape[:ind]) must equal prod(a.shape[ind:]), got '
                         '%d and %d' % (n_rows, n_cols))
    return reshape(inv(reshape(a, (n_rows, n_cols))), cols + rows)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, axes=x.ndim) == b; `axes` names axes of `a` to move to the end
    first."""
    a = _as_array(a)
    b = _as_array(b)
    if axes is not None:
        order = [k for k in range(a.ndim) if k not in [ax % a.ndim for ax in axes]]
        order += [ax % a.ndim for ax in axes]
        a = transpose(a, order)
    x_shape = a.shape[b.ndim:]
    n = int(_onp.prod(x_shape))
    if int(_onp.prod(a.shape[:b.ndim])) != n:
        raise ValueError('tensorsolve: a must be square over the solution axes, got a of shape '
                         '%s for b of shape %s' % (a.shape, b.shape))
    x = solve(reshape(a, (n, n)), reshape(b, (n,)))
    return reshape(x, x_shape)


# Condition number and rank: numpy.linalg on host copies, as in MXNet 1.9.1.
cond = _FALLBACKS['cond']
matrix_rank = _FALLBACKS['matrix_rank']

__all__ += ['svd', 'eig', 'eigvals', 'tensorinv', 'tensorsolve', 'cond', 'matrix_rank']
