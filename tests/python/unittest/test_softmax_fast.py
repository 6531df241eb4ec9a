"""The CPU's vectorized float32 softmax rows (softmax_fast.h) against a float64 NumPy reference:
softmax, log_softmax, softmin, temperature, SoftmaxOutput and SoftmaxActivation, rows short and
long (vector remainders, the parallel loop), in place, and the edge values (-inf, NaN, huge)."""
import numpy as np
import pytest

import mxnet as mx


def ref(x, kind="softmax", t=1.0):
    z = (-x if kind == "softmin" else x).astype(np.float64) / t
    z = z - z.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return z - log_sum if kind == "log_softmax" else np.exp(z - log_sum)


OPS = {"softmax": mx.nd.softmax, "log_softmax": mx.nd.log_softmax, "softmin": mx.nd.softmin}


@pytest.mark.parametrize("kind", sorted(OPS))
@pytest.mark.parametrize("shape", [(3, 1), (4, 7), (5, 33), (2, 3, 1000), (40, 1000)],
                         ids=str)
@pytest.mark.parametrize("t", [1.0, 0.3])
def test_rows_match_numpy(kind, shape, t):
    x = np.random.RandomState(sum(shape)).uniform(-20, 20, shape).astype(np.float32)
    got = OPS[kind](mx.nd.array(x), temperature=t).asnumpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ref(x, kind, t), rtol=2e-5, atol=1e-6 if kind != "log_softmax"
                               else 1e-5)


def test_edge_values():
    x = np.array([[-np.inf, 0.0, 1.0, -np.inf],
                  [np.nan, 1.0, 2.0, 3.0],
                  [-np.inf, -np.inf, -np.inf, -np.inf],
                  [1e30, 1.0, -1e30, 1e30],
                  [-200.0, 0.0, -90.0, -86.0]], dtype=np.float32)
    y = mx.nd.softmax(mx.nd.array(x)).asnumpy()
    e = np.exp(np.array([0.0, 1.0]) - 1.0)
    np.testing.assert_allclose(y[0], [0, e[0] / e.sum(), e[1] / e.sum(), 0], rtol=1e-6)
    assert y[0, 0] == 0 and y[0, 3] == 0  # exactly, as exp(-inf)
    assert np.isnan(y[1]).all() and np.isnan(y[2]).all()
    np.testing.assert_allclose(y[3], [0.5, 0, 0, 0.5], rtol=1e-6)
    np.testing.assert_allclose(y[4], ref(x[4:5])[0], rtol=1e-5, atol=1e-37)
    assert y[4, 0] == 0
    ly = mx.nd.log_softmax(mx.nd.array(x)).asnumpy()
    assert ly[0, 0] == -np.inf and np.isnan(ly[1]).all()
    np.testing.assert_allclose(ly[4], ref(x[4:5], "log_softmax")[0], rtol=1e-5)


def test_in_place_and_added_outputs():
    x = np.random.RandomState(1).uniform(-3, 3, (6, 37)).astype(np.float32)
    a = mx.nd.array(x)
    mx.nd.softmax(a, out=a)
    np.testing.assert_allclose(a.asnumpy(), ref(x), rtol=2e-5, atol=1e-7)
    b = mx.nd.array(x)
    b.attach_grad(grad_req="add")
    b.grad[:] = 1
    with mx.autograd.record():
        y = mx.nd.softmax(b)
    y.backward(mx.nd.ones_like(y))
    # softmax's gradient against a ones head is 0: the added output keeps the 1s.
    np.testing.assert_allclose(b.grad.asnumpy(), np.ones_like(x), atol=1e-6)


def test_softmax_output_and_activation_rows():
    x = np.random.RandomState(2).uniform(-5, 5, (8, 129)).astype(np.float32)
    label = mx.nd.array(np.arange(8) % 129)
    np.testing.assert_allclose(mx.nd.SoftmaxOutput(mx.nd.array(x), label).asnumpy(), ref(x),
                               rtol=2e-5, atol=1e-7)
    np.testing.assert_allclose(mx.nd.SoftmaxActivation(mx.nd.array(x)).asnumpy(), ref(x),
                               rtol=2e-5, atol=1e-7)
    x4 = np.random.RandomState(3).uniform(-5, 5, (2, 5, 3, 4)).astype(np.float32)
    got = mx.nd.SoftmaxActivation(mx.nd.array(x4), mode="channel").asnumpy()
    want = np.moveaxis(ref(np.moveaxis(x4, 1, -1)), -1, 1)  # the strided rows' kernel
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-7)
