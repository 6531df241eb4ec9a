"""linalg operators on the GPU against the CPU in float64, with their gradients: syrk, trmm and
trsm (every side/triangle/transpose, single matrices and batches: cuBLAS GEMMs and batched
triangular solves), sumlogdiag and the diagonal/triangle copies (extractdiag, makediag,
extracttrian, maketrian), the cuSOLVER factorizations (potrf, potri, gelqf, syevd, inverse,
det, slogdet) and their errors (not positive definite, singular); gradient accumulation
(grad_req='add'), and float16, which linalg refuses on every device. gemm and gemm2 are in
test_gpu_operator_nn.py."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import AS_CPU, DEV, TOL, check_fn, inputs, run_fn

L = mx.nd.linalg
DTYPES = [np.float32, np.float64]  # linalg's dtypes (float16 is refused, see the last test)
# Products and solves sum over a dimension: float32 gets a GEMM-like atol.
LA_TOL = dict(TOL)
LA_TOL[np.float32] = (1e-4, 1e-4)

LINALG_GPU_OPS = ["_linalg_syrk", "_linalg_trmm", "_linalg_trsm", "_linalg_sumlogdiag",
                  "_linalg_extractdiag", "_linalg_makediag", "_linalg_extracttrian",
                  "_linalg_maketrian", "_linalg_potrf", "_linalg_potri", "_linalg_gelqf",
                  "_linalg_syevd", "_linalg_inverse", "_linalg_det", "_linalg_slogdet"]


def _triangular(shape, dtype, seed=1):
    """Well-conditioned triangular-solve operands: entries in [-0.5, 0.5] plus 2 on the diagonal
    (the other triangle holds garbage that the ops must not read)."""
    rng = np.random.RandomState(seed)
    a = rng.uniform(-0.5, 0.5, shape) + 2.0 * np.eye(shape[-1])
    return a.astype(dtype)


@pytest.mark.skipif(AS_CPU, reason="the CPU stands in for the GPU")
def test_linalg_ops_have_gpu_kernels():
    have = set(mx.runtime.operators_with_kernel("gpu"))
    for op in LINALG_GPU_OPS:
        assert op in have, op
        assert "_backward" + op in have, "_backward" + op


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 5), (2, 4, 3), (2, 1, 3, 6)])
@pytest.mark.parametrize("transpose", [False, True])
def test_syrk_and_gradient(shape, transpose, dtype):
    check_fn(lambda a: L.syrk(a, transpose=transpose, alpha=0.7), inputs([shape], dtype),
             dtype, True, "linalg_syrk %s transpose=%s" % (shape, transpose), tol=LA_TOL[dtype])


def _triangular_case(batch, rightside, dtype):
    m, n = 4, 3
    k = n if rightside else m
    a = _triangular(batch + (k, k), dtype)
    b = inputs([batch + (m, n)], dtype)[0]
    return a, b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["trmm", "trsm"])
@pytest.mark.parametrize("batch", [(), (3,), (2, 2)])
@pytest.mark.parametrize("rightside", [False, True])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_trmm_trsm_and_gradients(op, batch, rightside, lower, transpose, dtype):
    a, b = _triangular_case(batch, rightside, dtype)
    kw = dict(rightside=rightside, lower=lower, transpose=transpose, alpha=-1.3)
    check_fn(lambda x, y: getattr(L, op)(x, y, **kw), [a, b], dtype, True,
             "linalg_%s %s %s" % (op, batch, kw), tol=LA_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rightside", [False, True])
def test_trsm_larger_batch_matches_numpy(rightside, dtype):
    # Batched cuBLAS solves on bigger matrices, against NumPy directly.
    k, other = 33, 5
    a = _triangular((6, k, k), dtype, seed=3)
    b = inputs([(6, other, k) if rightside else (6, k, other)], dtype)[0]
    out = L.trsm(mx.nd.array(a, ctx=DEV, dtype=dtype), mx.nd.array(b, ctx=DEV, dtype=dtype),
                 rightside=rightside, alpha=2.0).asnumpy()
    t = np.tril(a.astype(np.float64))
    ref = 2.0 * (np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)),
                             -1, -2) if rightside else np.linalg.solve(t, b))
    rtol, atol = LA_TOL[dtype]
    np.testing.assert_allclose(out, ref, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 5, 5)])
def test_sumlogdiag_and_gradient(shape, dtype):
    a = _triangular(shape, dtype)  # positive diagonal
    check_fn(lambda x: L.sumlogdiag(x), [a], dtype, True, "linalg_sumlogdiag %s" % (shape,))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("offset", [0, 2, -1])
def test_extractdiag_makediag_and_gradients(offset, dtype):
    check_fn(lambda x: L.extractdiag(x, offset=offset), inputs([(2, 3, 5, 5)], dtype), dtype,
             True, "linalg_extractdiag offset=%d" % offset)
    check_fn(lambda x: L.makediag(x, offset=offset), inputs([(2, 3, 4)], dtype), dtype, True,
             "linalg_makediag offset=%d" % offset)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("offset,lower", [(0, True), (0, False), (2, True), (-1, False),
                                          (-3, True)])
def test_extracttrian_maketrian_and_gradients(offset, lower, dtype):
    n = 6
    p = n - abs(offset)
    check_fn(lambda x: L.extracttrian(x, offset=offset, lower=lower),
             inputs([(3, n, n)], dtype), dtype, True,
             "linalg_extracttrian offset=%d lower=%s" % (offset, lower))
    check_fn(lambda x: L.maketrian(x, offset=offset, lower=lower),
             inputs([(2, 2, p * (p + 1) // 2)], dtype), dtype, True,
             "linalg_maketrian offset=%d lower=%s" % (offset, lower))


def test_copy_ops_on_a_large_triangle():
    # Triangle indices far from 0 (the square-root inversion of t = r (r + 1) / 2).
    n = 300
    x = np.arange(n * n, dtype=np.float64).reshape(n, n)
    v = L.extracttrian(mx.nd.array(x, ctx=DEV, dtype=np.float64)).asnumpy()
    r, c = np.tril_indices(n)
    np.testing.assert_array_equal(v, x[r, c])
    m = L.maketrian(mx.nd.array(v, ctx=DEV, dtype=np.float64), lower=False).asnumpy()
    np.testing.assert_array_equal(m, np.tril(x).T)


def _grads_with_add(op, arrays, ctx, **kw):
    """Input gradients of two backward passes accumulated with grad_req='add'."""
    nds = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in arrays]
    for x in nds:
        x.attach_grad(grad_req="add")
        x.grad[:] = 0.25
    for _ in range(2):
        with mx.autograd.record():
            out = getattr(L, op)(*nds, **kw)
        out.backward(mx.nd.ones_like(out) * 0.5)
    return [x.grad.asnumpy() for x in nds]


@pytest.mark.parametrize("op,kw", [("trsm", dict(rightside=True, alpha=0.5)),
                                   ("trmm", dict(transpose=True, lower=False)),
                                   ("syrk", dict(transpose=True)),
                                   ("sumlogdiag", {}),
                                   ("extracttrian", dict(offset=1)),
                                   ("makediag", dict(offset=-1))])
def test_gradient_accumulation_matches_cpu(op, kw):
    dtype = np.float64
    if op in ("trsm", "trmm"):
        arrays = list(_triangular_case((2,), kw.get("rightside", False), dtype))
    elif op == "sumlogdiag":
        arrays = [_triangular((2, 4, 4), dtype)]
    elif op == "makediag":
        arrays = inputs([(2, 3)], dtype)
    else:
        arrays = inputs([(2, 4, 4)], dtype)
    got = _grads_with_add(op, arrays, DEV, **kw)
    ref = _grads_with_add(op, arrays, mx.cpu(), **kw)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-12, err_msg=op)


@pytest.mark.parametrize("op,n_in", [("trsm", 2), ("syrk", 1), ("extractdiag", 1),
                                     ("potrf", 1), ("inverse", 1)])
def test_float16_is_refused_naming_the_operator(op, n_in):
    xs = [mx.nd.ones((2, 2), ctx=DEV, dtype=np.float16) for _ in range(n_in)]
    with pytest.raises(TypeError, match="linalg_%s.*float16" % op):
        getattr(L, op)(*xs).wait_to_read()


# ---- factorizations (cuSOLVER) -------------------------------------------------------------

FACTOR_BATCHES = [(), (3,), (2, 2)]


def _spd(batch, n, seed=0):
    """Symmetric positive-definite matrices, well conditioned (eigenvalues >= n)."""
    rng = np.random.RandomState(seed)
    m = rng.uniform(-1, 1, batch + (n, n))
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


def _general(batch, n, seed=0):
    """Well-conditioned general matrices; every other one with a negative determinant."""
    rng = np.random.RandomState(seed)
    a = rng.uniform(-1, 1, batch + (n, n)) + n * np.eye(n)
    flat = a.reshape((-1, n, n))
    flat[1::2, 0, :] *= -1
    return flat.reshape(a.shape)


def _with_garbage_above(low, seed=5):
    """A lower-triangular batch with random values above the diagonal (must not be read)."""
    rng = np.random.RandomState(seed)
    return np.tril(low) + np.triu(rng.uniform(-3, 3, low.shape), 1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", FACTOR_BATCHES)
def test_potrf_and_gradient(batch, dtype):
    # Only A's lower triangle is read: garbage above must change nothing.
    a = _with_garbage_above(_spd(batch, 5))
    check_fn(lambda x: L.potrf(x), [a], dtype, True, "linalg_potrf %s" % (batch,),
             tol=LA_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", FACTOR_BATCHES)
def test_potri_and_gradient(batch, dtype):
    low = _with_garbage_above(np.linalg.cholesky(_spd(batch, 4, seed=1)))
    check_fn(lambda x: L.potri(x), [low], dtype, True, "linalg_potri %s" % (batch,),
             tol=LA_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", FACTOR_BATCHES)
@pytest.mark.parametrize("m,n", [(3, 5), (4, 4), (1, 3)])
def test_gelqf_and_gradient(batch, m, n, dtype):
    # Q and L side by side in one output, so that both receive a head gradient.
    def fn(x):
        q, low = L.gelqf(x)
        return mx.nd.concat(q, low, dim=-1)
    a = inputs([batch + (m, n)], np.float64, seed=2)[0]
    check_fn(fn, [a], dtype, True, "linalg_gelqf %s (%d, %d)" % (batch, m, n), tol=LA_TOL[dtype])


def _distinct_spectrum(batch, n, seed=3):
    """Symmetric matrices with eigenvalues 1, 2.5, 4, ... (gaps keep the gradient stable)."""
    rng = np.random.RandomState(seed)
    q, _ = np.linalg.qr(rng.randn(*(batch + (n, n))))
    w = 1.0 + 1.5 * np.arange(n)
    return (q * w[..., None, :]) @ np.swapaxes(q, -1, -2)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", FACTOR_BATCHES)
def test_syevd_and_gradient(batch, dtype):
    # U and the eigenvalues (as a column) side by side in one output.
    def fn(x):
        u, w = L.syevd(x)
        return mx.nd.concat(u, mx.nd.expand_dims(w, axis=-1), dim=-1)
    a = _with_garbage_above(_distinct_spectrum(batch, 5))
    check_fn(fn, [a], dtype, True, "linalg_syevd %s" % (batch,), tol=LA_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", FACTOR_BATCHES)
def test_inverse_and_gradient(batch, dtype):
    check_fn(lambda x: L.inverse(x), [_general(batch, 5)], dtype, True,
             "linalg_inverse %s" % (batch,), tol=LA_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", FACTOR_BATCHES)
def test_det_and_gradient(batch, dtype):
    check_fn(lambda x: L.det(x), [_general(batch, 4, seed=4)], dtype, True,
             "linalg_det %s" % (batch,), tol=LA_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", FACTOR_BATCHES)
def test_slogdet_and_gradient(batch, dtype):
    # sign and log|det| stacked in one output (the sign gets no gradient).
    def fn(x):
        sign, logabs = L.slogdet(x)
        return mx.nd.stack(sign, logabs)
    check_fn(fn, [_general(batch, 4, seed=6)], dtype, True, "linalg_slogdet %s" % (batch,),
             tol=LA_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_factorizations_larger_batch_match_numpy(dtype):
    # Bigger matrices than above (cuSOLVER's blocked paths), against NumPy directly.
    n, rtol = 40, (2e-3 if dtype == np.float32 else 1e-9)
    spd = _spd((4,), n, seed=7)
    x = mx.nd.array(spd, ctx=DEV, dtype=dtype)
    np.testing.assert_allclose(L.potrf(x).asnumpy(), np.linalg.cholesky(spd), rtol=rtol,
                               atol=rtol)
    np.testing.assert_allclose(L.inverse(x).asnumpy(), np.linalg.inv(spd), rtol=rtol, atol=rtol)
    sign, logabs = L.slogdet(x)
    np.testing.assert_array_equal(sign.asnumpy(), np.ones(4))
    np.testing.assert_allclose(logabs.asnumpy(), np.linalg.slogdet(spd)[1], rtol=rtol)
    u, w = L.syevd(x)
    u, w = u.asnumpy().astype(np.float64), w.asnumpy().astype(np.float64)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(spd), rtol=rtol)
    np.testing.assert_allclose(u @ spd, w[..., None] * u, rtol=rtol, atol=rtol * n)
    a = inputs([(4, 30, n)], np.float64, seed=8)[0]
    q, low = L.gelqf(mx.nd.array(a, ctx=DEV, dtype=dtype))
    q, low = q.asnumpy().astype(np.float64), low.asnumpy().astype(np.float64)
    np.testing.assert_allclose(low @ q, a, rtol=rtol, atol=rtol * n)
    np.testing.assert_allclose(q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(30), (4, 30, 30)),
                               atol=rtol * n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_potrf_of_a_non_spd_matrix_raises(dtype):
    a = mx.nd.array([[1.0, 2.0], [3.0, 4.0]], ctx=DEV, dtype=dtype)
    with pytest.raises(mx.base.MXNetError,
                       match=r"linalg_potrf: input A of shape \[2,2\] is not \(symmetric\) "
                             r"positive definite"):
        L.potrf(a).asnumpy()
    # Batched: the first failing entry is named; the device stays usable afterwards.
    b = mx.nd.array(np.stack([np.eye(2), [[1.0, 2.0], [3.0, 1.0]], -np.eye(2)]), ctx=DEV,
                    dtype=dtype)
    with pytest.raises(ValueError, match=r"linalg_potrf: .*positive definite.*\(batch index 1\)"):
        L.potrf(b).asnumpy()
    np.testing.assert_allclose(L.potrf(mx.nd.array(4 * np.eye(2), ctx=DEV, dtype=dtype))
                               .asnumpy(), 2 * np.eye(2))


def test_singular_matrix_errors_and_zero_gradients():
    s = np.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]])
    with pytest.raises(ValueError, match=r"linalg_inverse: input A of shape \[2,2,2\] is singular"
                                         r".*\(batch index 0\)"):
        L.inverse(mx.nd.array(s, ctx=DEV, dtype=np.float64)).asnumpy()
    low = np.array([[1.0, 0.0], [2.0, 0.0]])
    with pytest.raises(ValueError, match=r"linalg_potri: .*not an invertible Cholesky factor"):
        L.potri(mx.nd.array(low, ctx=DEV, dtype=np.float64)).asnumpy()
    # det / slogdet of a singular matrix: 0 and (0, -inf), and no gradient (as on the CPU).
    for op in ("det", "slogdet"):
        fn = (lambda x: L.det(x)) if op == "det" else (lambda x: L.slogdet(x)[1])
        out, grads = run_fn(fn, [s], DEV, True)
        ref_out, ref_grads = run_fn(fn, [s], mx.cpu(), True)
        np.testing.assert_array_equal(out, ref_out, err_msg=op)
        np.testing.assert_allclose(grads[0], ref_grads[0], rtol=1e-12, err_msg=op)
        np.testing.assert_array_equal(grads[0][0], np.zeros((2, 2)), err_msg=op)
    sign, logabs = L.slogdet(mx.nd.array(s, ctx=DEV, dtype=np.float64))
    np.testing.assert_array_equal(sign.asnumpy(), [0.0, 1.0])
    assert logabs.asnumpy()[0] == -np.inf


@pytest.mark.parametrize("op", ["potrf", "potri", "inverse", "det"])
def test_factorization_gradient_accumulation_matches_cpu(op):
    a = _with_garbage_above(np.linalg.cholesky(_spd((2,), 4))) if op == "potri" else \
        _spd((2,), 4)
    got = _grads_with_add(op, [a], DEV)
    ref = _grads_with_add(op, [a], mx.cpu())
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-10, atol=1e-12, err_msg=op)


def test_factorizations_of_empty_batches():
    for shape in [(0, 3, 3), (2, 0, 0)]:
        x = mx.nd.ones(shape, ctx=DEV, dtype=np.float64)
        assert L.potrf(x).shape == shape
        assert L.inverse(x).shape == shape
        assert L.det(x).shape == shape[:1]
        u, w = L.syevd(x)
        assert u.shape == shape and w.shape == shape[:2]
