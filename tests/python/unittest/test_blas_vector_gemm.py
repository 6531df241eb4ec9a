"""GEMMs whose result is one row or one column run as gemv, and those with an inner dimension
of 1 as ger (blas_gemm.h): every transpose combination of dot, batch_dot, linalg_gemm2,
linalg_gemm (beta) and FullyConnected (forward, both gradients, accumulated gradients) at those
shapes against NumPy."""
import itertools

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd

TOL = {"float32": dict(rtol=1e-5, atol=1e-5), "float64": dict(rtol=1e-12, atol=1e-12)}

# (M, K, N): one row, one column, both (a dot product), an outer product, and an ordinary GEMM.
SHAPES = [(1, 37, 9), (7, 37, 1), (1, 37, 1), (5, 1, 9), (5, 37, 9)]


def operands(M, K, N, ta, tb, dtype, seed=0):
    rng = np.random.RandomState(seed)
    a = rng.uniform(-1, 1, (K, M) if ta else (M, K)).astype(dtype)
    b = rng.uniform(-1, 1, (N, K) if tb else (K, N)).astype(dtype)
    return a, b


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "M%d-K%d-N%d" % s)
@pytest.mark.parametrize("ta,tb", list(itertools.product([False, True], repeat=2)))
def test_dot_and_gemm2_match_numpy(shape, ta, tb, dtype):
    M, K, N = shape
    a, b = operands(M, K, N, ta, tb, dtype)
    want = (a.T if ta else a) @ (b.T if tb else b)
    got = mx.nd.dot(mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype),
                    transpose_a=ta, transpose_b=tb).asnumpy()
    np.testing.assert_allclose(got, want, **TOL[dtype])
    got = mx.nd.linalg.gemm2(mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype),
                             transpose_a=ta, transpose_b=tb, alpha=2.5).asnumpy()
    np.testing.assert_allclose(got, 2.5 * want, **TOL[dtype])
    c = np.random.RandomState(7).uniform(-1, 1, want.shape).astype(dtype)
    got = mx.nd.linalg.gemm(mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype),
                            mx.nd.array(c, dtype=dtype), transpose_a=ta, transpose_b=tb,
                            alpha=2.5, beta=0.5).asnumpy()
    np.testing.assert_allclose(got, 2.5 * want + 0.5 * c, **TOL[dtype])
    # Batched: three independent products.
    ab = np.stack([operands(M, K, N, ta, tb, dtype, seed=s)[0] for s in range(3)])
    bb = np.stack([operands(M, K, N, ta, tb, dtype, seed=s)[1] for s in range(3)])
    want = np.matmul(ab.transpose(0, 2, 1) if ta else ab, bb.transpose(0, 2, 1) if tb else bb)
    got = mx.nd.batch_dot(mx.nd.array(ab, dtype=dtype), mx.nd.array(bb, dtype=dtype),
                          transpose_a=ta, transpose_b=tb).asnumpy()
    np.testing.assert_allclose(got, want, **TOL[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("batch,hidden", [(1, 13), (6, 1), (1, 1), (4, 13)])
def test_fully_connected_one_row_or_column_with_gradients(batch, hidden, dtype):
    rng = np.random.RandomState(3)
    x = rng.uniform(-1, 1, (batch, 11)).astype(dtype)
    w = rng.uniform(-1, 1, (hidden, 11)).astype(dtype)
    bias = rng.uniform(-1, 1, (hidden,)).astype(dtype)
    head = rng.uniform(-1, 1, (batch, hidden)).astype(dtype)
    nds = [mx.nd.array(v, dtype=dtype) for v in (x, w, bias)]
    for a in nds:
        a.attach_grad(grad_req="add")
    for _ in range(2):  # the second backward adds into the first (beta = 1)
        with autograd.record():
            y = mx.nd.FullyConnected(*nds, num_hidden=hidden)
        y.backward(mx.nd.array(head, dtype=dtype))
    np.testing.assert_allclose(y.asnumpy(), x @ w.T + bias, **TOL[dtype])
    np.testing.assert_allclose(nds[0].grad.asnumpy(), 2 * head @ w, **TOL[dtype])
    np.testing.assert_allclose(nds[1].grad.asnumpy(), 2 * head.T @ x, **TOL[dtype])
    np.testing.assert_allclose(nds[2].grad.asnumpy(), 2 * head.sum(0), **TOL[dtype])
