"""linalg operators on the GPU against the CPU in float64, with their gradients: syrk, trmm and
trsm (every side/triangle/transpose, single matrices and batches: cuBLAS GEMMs and batched
triangular solves), sumlogdiag and the diagonal/triangle copies (extractdiag, makediag,
extracttrian, maketrian); gradient accumulation (grad_req='add'), and float16, which linalg
refuses on every device. gemm and gemm2 are in test_gpu_operator_nn.py."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import AS_CPU, DEV, TOL, check_fn, inputs

L = mx.nd.linalg
DTYPES = [np.float32, np.float64]  # linalg's dtypes (float16 is refused, see the last test)
# Products and solves sum over a dimension: float32 gets a GEMM-like atol.
LA_TOL = dict(TOL)
LA_TOL[np.float32] = (1e-4, 1e-4)

LINALG_GPU_OPS = ["_linalg_syrk", "_linalg_trmm", "_linalg_trsm", "_linalg_sumlogdiag",
                  "_linalg_extractdiag", "_linalg_makediag", "_linalg_extracttrian",
                  "_linalg_maketrian"]


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


@pytest.mark.parametrize("op,n_in", [("trsm", 2), ("syrk", 1), ("extractdiag", 1)])
def test_float16_is_refused_naming_the_operator(op, n_in):
    xs = [mx.nd.ones((2, 2), ctx=DEV, dtype=np.float16) for _ in range(n_in)]
    with pytest.raises(TypeError, match="linalg_%s.*float16" % op):
        getattr(L, op)(*xs).wait_to_read()
