"""Backward fast paths: the vectorised float ReLU backward and autograd's kNullOp request for
gradient outputs nothing reads (checked against NumPy)."""
import numpy as np
import mxnet as mx


def _relu_inputs():
    rs = np.random.RandomState(3)
    x = rs.randn(100003).astype(np.float32)  # large: the OpenMP-chunked path
    x[:6] = [0.0, -0.0, np.inf, -np.inf, 1e-40, -1e-40]  # zeros, infinities, denormals
    g = rs.randn(x.size).astype(np.float32)
    return x, g


def test_relu_backward_matches_numpy():
    x, g = _relu_inputs()
    want = np.where(x > 0, g, 0).astype(np.float32)
    for fn in (mx.nd.relu, lambda a: mx.nd.Activation(a, act_type='relu')):
        a = mx.nd.array(x)
        a.attach_grad()
        with mx.autograd.record():
            y = fn(a)
        y.backward(mx.nd.array(g))
        np.testing.assert_array_equal(a.grad.asnumpy(), want)


def test_relu_backward_add_and_float64():
    x, g = _relu_inputs()
    want = np.where(x > 0, g, 0)
    a = mx.nd.array(x, dtype='float64')
    a.attach_grad(grad_req='add')
    for _ in range(2):
        with mx.autograd.record():
            y = mx.nd.relu(a)
        y.backward(mx.nd.array(g, dtype='float64'))
    np.testing.assert_allclose(a.grad.asnumpy(), 2 * want, rtol=1e-12)


def test_mlp_grads_when_data_needs_no_gradient():
    rs = np.random.RandomState(0)
    x = rs.randn(8, 5).astype(np.float32)
    w1, b1 = rs.randn(6, 5).astype(np.float32), rs.randn(6).astype(np.float32)
    w2, b2 = rs.randn(3, 6).astype(np.float32), rs.randn(3).astype(np.float32)
    params = [mx.nd.array(p) for p in (w1, b1, w2, b2)]
    for p in params:
        p.attach_grad()
    with mx.autograd.record():
        h = mx.nd.relu(mx.nd.FullyConnected(mx.nd.array(x), params[0], params[1], num_hidden=6))
        out = mx.nd.FullyConnected(h, params[2], params[3], num_hidden=3)
    out.backward(mx.nd.ones(out.shape))
    # NumPy oracle
    z = x @ w1.T + b1
    hn = np.maximum(z, 0)
    go = np.ones((8, 3), np.float32)
    gz = (go @ w2) * (z > 0)
    want = [gz.T @ x, gz.sum(0), go.T @ hn, go.sum(0)]
    for p, w in zip(params, want):
        np.testing.assert_allclose(p.grad.asnumpy(), w, rtol=1e-5, atol=1e-5)
