"""Op table: the linear-algebra family (mx.nd.linalg.*: gemm, gemm2, syrk, trmm, trsm, potrf,
potri, sumlogdiag, gelqf, syevd, inverse, det, slogdet, extractdiag, makediag, extracttrian,
maketrian). References are NumPy (np.linalg in float64). potrf and syevd read only the lower
triangle of a symmetric input and return the gradient with respect to a symmetric matrix, which
single-coordinate finite differences cannot check: test_linalg.py checks them with symmetric
perturbations instead."""
import numpy as np

from . import FLOATS, OpEntry, Sample

# ---- references ------------------------------------------------------------------------------


def _f64(*xs):
    return [np.asarray(x, dtype=np.float64) for x in xs]


def _rows_to_minus2(x, axis):
    return np.moveaxis(x, axis, -2) if axis != -2 else x


def _op(x, t):
    return np.swapaxes(x, -1, -2) if t else x


def _gemm(a, b, c=None, transpose_a=False, transpose_b=False, alpha=1.0, beta=1.0, axis=-2):
    a, b = _f64(a, b)
    a, b = _rows_to_minus2(a, axis), _rows_to_minus2(b, axis)
    out = alpha * np.matmul(_op(a, transpose_a), _op(b, transpose_b))
    if c is not None:
        out = out + beta * _rows_to_minus2(np.asarray(c, dtype=np.float64), axis)
    return np.moveaxis(out, -2, axis) if axis != -2 else out


def _gemm2(a, b, transpose_a=False, transpose_b=False, alpha=1.0, axis=-2):
    return _gemm(a, b, None, transpose_a, transpose_b, alpha, 0.0, axis)


def _syrk(a, transpose=False, alpha=1.0):
    a = _op(_f64(a)[0], transpose)
    return alpha * np.matmul(a, np.swapaxes(a, -1, -2))


def _triangle(a, lower):
    return np.tril(a) if lower else np.triu(a)


def _trmm(a, b, transpose=False, rightside=False, lower=True, alpha=1.0):
    a, b = _f64(a, b)
    t = _op(_triangle(a, lower), transpose)
    return alpha * (np.matmul(b, t) if rightside else np.matmul(t, b))


def _trsm(a, b, transpose=False, rightside=False, lower=True, alpha=1.0):
    a, b = _f64(a, b)
    t = _op(_triangle(a, lower), transpose)
    if rightside:   # X t = alpha B  <=>  t^T X^T = alpha B^T
        return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), alpha * np.swapaxes(b, -1, -2)),
                       -1, -2)
    return np.linalg.solve(t, alpha * b)


def _sym_from_lower(a):
    low = np.tril(a)
    return low + np.swapaxes(np.tril(a, -1), -1, -2)


def _batch_scalar(x):
    x = np.asarray(x, dtype=np.float64)
    return x.reshape(1) if x.ndim == 0 else x


def _potrf(a):
    return np.linalg.cholesky(_sym_from_lower(_f64(a)[0]))


def _potri(a):
    low = np.tril(_f64(a)[0])
    return np.linalg.inv(np.matmul(low, np.swapaxes(low, -1, -2)))


def _sumlogdiag(a):
    return _batch_scalar(np.sum(np.log(np.diagonal(_f64(a)[0], axis1=-2, axis2=-1)), axis=-1))


def _gelqf(a):
    # LQ of A is the transpose of QR of A^T (the same Householder reflectors as LAPACK's gelqf).
    q, r = np.linalg.qr(np.swapaxes(_f64(a)[0], -1, -2))
    return np.swapaxes(q, -1, -2), np.swapaxes(r, -1, -2)


def _syevd(a):
    w, v = np.linalg.eigh(_f64(a)[0], UPLO="L")
    u = np.swapaxes(v, -1, -2)
    # Each eigenvector (row of U) signed so that its largest-magnitude entry is positive.
    idx = np.argmax(np.abs(u), axis=-1)[..., None]
    sign = np.sign(np.take_along_axis(u, idx, axis=-1))
    return u * sign, w


def _inverse(a):
    return np.linalg.inv(_f64(a)[0])


def _det(a):
    return _batch_scalar(np.linalg.det(_f64(a)[0]))


def _slogdet(a):
    s, l = np.linalg.slogdet(_f64(a)[0])
    return _batch_scalar(s), _batch_scalar(l)


def _extractdiag(a, offset=0):
    return np.diagonal(a, offset=offset, axis1=-2, axis2=-1).copy()


def _makediag(a, offset=0):
    m = a.shape[-1]
    n = m + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), dtype=a.dtype)
    for i in range(m):
        r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
        out[..., r, c] = a[..., i]
    return out


def _trian_index(n, offset, lower):
    """(rows, cols) of the triangle in MXNet's order: a lower triangle row by row, an upper one
    column by column (i.e. the lower triangle of the transpose, row by row)."""
    upper = offset > 0 or (offset == 0 and not lower)
    r, c = np.tril_indices(n, -abs(offset))
    return (c, r) if upper else (r, c)


def _extracttrian(a, offset=0, lower=True):
    r, c = _trian_index(a.shape[-1], offset, lower)
    return a[..., r, c]


def _maketrian(a, offset=0, lower=True):
    length = a.shape[-1]
    p = int(round((np.sqrt(8 * length + 1) - 1) / 2))
    n = p + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), dtype=a.dtype)
    r, c = _trian_index(n, offset, lower)
    out[..., r, c] = a
    return out


# ---- input builders ----------------------------------------------------------------------------


def _shifted(shapes, shift):
    """Random matrices plus shift * I on the first input (well-conditioned / positive diagonal)."""
    def build(rng, dtype):
        xs = [rng.uniform(-1, 1, size=s) for s in shapes]
        xs[0] = xs[0] + shift * np.eye(shapes[0][-1])
        return [x.astype(dtype) for x in xs]
    return build


def _spd(shape):
    def build(rng, dtype):
        a = rng.uniform(-1, 1, size=shape)
        spd = np.matmul(a, np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])
        return [spd.astype(dtype)]
    return build


def _cholesky_factor(shape):
    def build(rng, dtype):
        low = np.tril(rng.uniform(-1, 1, size=shape)) + 2 * np.eye(shape[-1])
        # The upper triangle holds garbage: potri must ignore it.
        return [(low + np.triu(rng.uniform(-1, 1, size=shape), 1)).astype(dtype)]
    return build


def _symmetric(shape):
    def build(rng, dtype):
        a = rng.uniform(-1, 1, size=shape)
        return [(a + np.swapaxes(a, -1, -2)).astype(dtype)]
    return build


_DECOMP_TOL = dict(rtol=1e-4, atol=1e-5)

ENTRIES = [
    OpEntry("linalg.gemm", ref=_gemm, samples=[
        Sample([(2, 3), (3, 4), (2, 4)], dict(alpha=2.0, beta=0.5)),
        Sample([(3, 2), (4, 3), (2, 4)], dict(transpose_a=True, transpose_b=True)),
        Sample([(2, 2, 3), (2, 3, 4), (2, 2, 4)], dict(beta=-1.0)),
        Sample([(3, 4, 2, 3), (3, 3, 2, 5), (3, 4, 2, 5)], dict(axis=-3)),
        Sample([(4, 3, 2), (4, 3, 5), (2, 3, 5)], dict(axis=0, transpose_a=True, alpha=0.5)),
    ], covers=("linalg_gemm",)),
    OpEntry("linalg.gemm2", ref=_gemm2, samples=[
        Sample([(2, 3), (3, 4)]),
        Sample([(2, 3, 4), (2, 4, 5)], dict(alpha=-1.5)),
        Sample([(2, 4, 3), (2, 5, 4)], dict(transpose_a=True, transpose_b=True)),
        Sample([(4, 3, 2), (4, 3, 5)], dict(axis=-3, transpose_a=True)),
        Sample([(2, 3, 2, 4), (2, 5, 2, 4)], dict(axis=1, transpose_b=True)),
    ], covers=("linalg_gemm2",)),
    OpEntry("linalg.syrk", ref=_syrk, samples=[
        Sample([(3, 4)]), Sample([(2, 3, 4)], dict(transpose=True, alpha=1.5)),
    ], covers=("linalg_syrk",)),
    OpEntry("linalg.trmm", ref=_trmm, samples=[
        Sample([(3, 3), (3, 2)]),
        Sample([(2, 3, 3), (2, 3, 4)], dict(transpose=True, alpha=2.0)),
        Sample([(2, 3, 3), (2, 4, 3)], dict(rightside=True, lower=False)),
        Sample([(3, 3), (2, 3)], dict(rightside=True, transpose=True)),
    ], covers=("linalg_trmm",)),
    OpEntry("linalg.trsm", ref=_trsm, samples=[
        Sample(arrays=_shifted([(3, 3), (3, 2)], 3.0)),
        Sample(arrays=_shifted([(2, 3, 3), (2, 3, 4)], 3.0), kwargs=dict(transpose=True,
                                                                        alpha=2.0)),
        Sample(arrays=_shifted([(2, 3, 3), (2, 4, 3)], 3.0), kwargs=dict(rightside=True,
                                                                        lower=False)),
        Sample(arrays=_shifted([(3, 3), (2, 3)], 3.0), kwargs=dict(rightside=True,
                                                                  transpose=True)),
    ], covers=("linalg_trsm",), **_DECOMP_TOL),
    OpEntry("linalg.potrf", ref=_potrf, samples=[
        Sample(arrays=_spd((3, 3))), Sample(arrays=_spd((2, 4, 4))),
    ], grad=False, covers=("linalg_potrf",), **_DECOMP_TOL),
    OpEntry("linalg.potri", ref=_potri, samples=[
        Sample(arrays=_cholesky_factor((3, 3))), Sample(arrays=_cholesky_factor((2, 3, 3))),
    ], covers=("linalg_potri",), **_DECOMP_TOL),
    OpEntry("linalg.sumlogdiag", ref=_sumlogdiag, samples=[
        Sample(arrays=_shifted([(3, 3)], 2.0)), Sample(arrays=_shifted([(2, 3, 4, 4)], 2.0)),
    ], covers=("linalg_sumlogdiag",), **_DECOMP_TOL),
    OpEntry("linalg.gelqf", ref=_gelqf, samples=[
        Sample([(2, 3)]), Sample([(2, 3, 5)]), Sample(arrays=_shifted([(3, 3)], 2.0)),
    ], covers=("linalg_gelqf",), **_DECOMP_TOL),
    OpEntry("linalg.syevd", ref=_syevd, samples=[
        Sample(arrays=_symmetric((3, 3))), Sample(arrays=_symmetric((2, 4, 4))),
    ], grad=False, covers=("linalg_syevd",), **_DECOMP_TOL),
    OpEntry("linalg.inverse", ref=_inverse, samples=[
        Sample(arrays=_shifted([(3, 3)], 2.0)), Sample(arrays=_shifted([(2, 4, 4)], 2.0)),
    ], covers=("linalg_inverse",), **_DECOMP_TOL),
    OpEntry("linalg.det", ref=_det, samples=[
        Sample([(3, 3)]), Sample(arrays=_shifted([(2, 3, 3)], 1.0)), Sample([(1, 1)]),
    ], covers=("linalg_det",), **_DECOMP_TOL),
    OpEntry("linalg.slogdet", ref=_slogdet, samples=[
        Sample([(3, 3)]), Sample(arrays=_shifted([(2, 3, 3)], 1.0)),
    ], covers=("linalg_slogdet",), **_DECOMP_TOL),
    OpEntry("linalg.extractdiag", ref=_extractdiag, samples=[
        Sample([(3, 3)]), Sample([(2, 4, 4)], dict(offset=1)), Sample([(2, 4, 4)], dict(offset=-2)),
    ], covers=("linalg_extractdiag",)),
    OpEntry("linalg.makediag", ref=_makediag, samples=[
        Sample([(3,)]), Sample([(2, 3)], dict(offset=1)), Sample([(2, 2, 2)], dict(offset=-2)),
    ], covers=("linalg_makediag",)),
    OpEntry("linalg.extracttrian", ref=_extracttrian, samples=[
        Sample([(3, 3)]), Sample([(2, 4, 4)], dict(lower=False)),
        Sample([(2, 4, 4)], dict(offset=1)), Sample([(4, 4)], dict(offset=-1, lower=False)),
        Sample([(2, 4, 4)], dict(offset=2)),
    ], covers=("linalg_extracttrian",)),
    OpEntry("linalg.maketrian", ref=_maketrian, samples=[
        Sample([(6,)]), Sample([(2, 6)], dict(lower=False)), Sample([(2, 6)], dict(offset=1)),
        Sample([(3,)], dict(offset=-2)), Sample([(2, 2, 10)], dict(offset=-1, lower=False)),
    ], covers=("linalg_maketrian",)),
]

EXEMPT = {}
