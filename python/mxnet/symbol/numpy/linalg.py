"""mx.sym.np.linalg: the linear-algebra functions of mx.np.linalg that need no shape knowledge
while the graph is built (norms, inverses, determinants, Cholesky, symmetric eigensolver,
solve), recording the linalg operators mx.np.linalg runs."""
# pylint: disable=invalid-name,redefined-builtin
import numbers

import numpy as _onp

from .. import linalg as _sla
from ._symbol import sqrt, sum, max, abs, multiply, swapaxes, expand_dims

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





# ---- host operators (see _host): linear algebra without a registered operator --------------
from ._host import host_op, as_list, NOT_DIFFERENTIABLE  # noqa: E402  pylint: disable=wrong-import-position


def _svd_shapes(shapes):
    shape = shapes[0]
    if len(shape) < 2 or shape[-2] > shape[-1]:
        raise ValueError('svd: expected shape (..., M, N) with M <= N, got %s' % (shape,))
    batch, m, n = shape[:-2], shape[-2], shape[-1]
    return [batch + (m, m), batch + (m,), batch + (m, n)]


_svd = host_op('svd', forward=lambda xs: list(_onp.linalg.svd(xs[0], full_matrices=False)),
               infer_shape=_svd_shapes, num_outputs=3, backward=NOT_DIFFERENTIABLE)


def svd(a):
    """(ut, s, v) with a = ut @ diag(s) @ v for a (..., M, N) with M <= N (computed on the
    host; no gradient)."""
    return tuple(as_list(_svd(a), 3))


def _real_eig(x, vectors):
    res = _onp.linalg.eig(x) if vectors else (_onp.linalg.eigvals(x),)
    if any(_onp.iscomplexobj(r) and _onp.any(r.imag != 0) for r in res):
        raise ValueError('eig: the eigenvalues of this real matrix are complex; only real '
                         'eigen-decompositions are supported')
    return [_onp.real(r) for r in res]


_eig = host_op('eig', forward=lambda xs: _real_eig(xs[0], True),
               infer_shape=lambda shapes: [shapes[0][:-1], shapes[0]], num_outputs=2)
_eigvals = host_op('eigvals', forward=lambda xs: _real_eig(xs[0], False),
                   infer_shape=lambda shapes: [shapes[0][:-1]])


def eig(a):
    """Eigenvalues w and right eigenvectors v (columns) of square matrices with real
    eigenvalues (computed on the host; zero gradient, as in MXNet 1.9.1)."""
    return tuple(as_list(_eig(a), 2))


def eigvals(a):
    """Eigenvalues of square matrices with real eigenvalues."""
    return _eigvals(a)


_pinv = host_op('pinv',
                forward=lambda xs, rcond, hermitian: [_onp.linalg.pinv(xs[0], rcond=rcond,
                                                                       hermitian=hermitian)],
                infer_shape=lambda shapes, **_: [shapes[0][:-2] + (shapes[0][-1],
                                                                   shapes[0][-2])],
                backward=NOT_DIFFERENTIABLE)


def pinv(a, rcond=1e-15, hermitian=False):
    """The Moore-Penrose pseudo-inverse of (..., M, N) matrices (host; no gradient)."""
    return _pinv(a, rcond=float(rcond), hermitian=bool(hermitian))


def _tensorinv_parts(shape, ind):
    rows, cols = tuple(shape[:ind]), tuple(shape[ind:])
    return rows, cols, int(_onp.prod(rows)), int(_onp.prod(cols))


def _tensorinv_backward(gs, xs, ind):
    rows, cols, n, _ = _tensorinv_parts(xs[0].shape, ind)
    inverse = _onp.linalg.inv(xs[0].reshape(n, n))
    grad = gs[0].reshape(n, n)
    return [(-inverse.T @ grad @ inverse.T).reshape(rows + cols)]


_tensorinv = host_op('tensorinv', forward=lambda xs, ind: [_onp.linalg.tensorinv(xs[0], ind)],
                     infer_shape=lambda shapes, ind: [tuple(shapes[0][ind:]) +
                                                      tuple(shapes[0][:ind])],
                     backward=_tensorinv_backward)


def tensorinv(a, ind=2):
    """The inverse of a for tensordot over `ind` axes; differentiable."""
    return _tensorinv(a, ind=int(ind))


def _tensorsolve_matrices(a, b, axes):
    if axes is not None:
        order = [k for k in range(a.ndim) if k not in [ax % a.ndim for ax in axes]]
        a = a.transpose(order + [ax % a.ndim for ax in axes])
    x_shape = a.shape[b.ndim:]
    n = int(_onp.prod(x_shape))
    return a, a.reshape(n, n), b.reshape(n), x_shape


def _tensorsolve_backward(gs, xs, axes):
    a, mat, vec, x_shape = _tensorsolve_matrices(xs[0], xs[1], axes)
    x = _onp.linalg.solve(mat, vec)
    grad_b = _onp.linalg.solve(mat.T, gs[0].reshape(-1))
    grad_a = -_onp.outer(grad_b, x).reshape(a.shape)
    if axes is not None:   # undo the move of `axes` to the end
        order = [k for k in range(xs[0].ndim) if k not in [ax % xs[0].ndim for ax in axes]]
        order += [ax % xs[0].ndim for ax in axes]
        grad_a = grad_a.transpose(_onp.argsort(order))
    return [grad_a, grad_b.reshape(xs[1].shape)]


def _tensorsolve_shape(shapes, axes):
    a_shape, b_shape = list(shapes[0]), shapes[1]
    if axes is not None:
        moved = [a_shape[ax % len(a_shape)] for ax in axes]
        kept = [d for k, d in enumerate(a_shape) if k not in [ax % len(a_shape) for ax in axes]]
        a_shape = kept + moved
    return [tuple(a_shape[len(b_shape):])]


_tensorsolve = host_op('tensorsolve',
                       forward=lambda xs, axes: [_onp.linalg.tensorsolve(
                           xs[0], xs[1], axes=None if axes is None else tuple(axes))],
                       infer_shape=_tensorsolve_shape, backward=_tensorsolve_backward)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, axes=x.ndim) == b (`axes` of a moved to the end first);
    differentiable in a and b."""
    return _tensorsolve(a, b, axes=None if axes is None else [int(ax) for ax in axes])


__all__ += ['svd', 'eig', 'eigvals', 'pinv', 'tensorinv', 'tensorsolve']
