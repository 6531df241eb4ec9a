"""Front-end operators on the device under test: a Python CustomOp receives its arrays on that
device (forward, backward, host reads inside the callback), an mx.autograd.Function records and
differentiates there, and a hybridized Gluon block (a CachedOp) gives the CPU's forward and
gradients. Checked against NumPy and against the same code on the CPU."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV

SEEN = []


class _ScaledSquare(mx.operator.CustomOp):
    """out = scale * x * x, with a host read of the input inside forward."""

    def __init__(self, scale):
        super(_ScaledSquare, self).__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        SEEN.append((in_data[0].context, out_data[0].context))
        host = in_data[0].asnumpy()  # must see the producer's values on any device
        out = mx.nd.array(host * host * self.scale, ctx=in_data[0].context,
                          dtype=in_data[0].dtype)
        self.assign(out_data[0], req[0], out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        SEEN.append((in_grad[0].context, out_grad[0].context))
        self.assign(in_grad[0], req[0], 2 * self.scale * in_data[0] * out_grad[0])


@mx.operator.register("gpu_test_scaled_square")
class _ScaledSquareProp(mx.operator.CustomOpProp):
    def __init__(self, scale="1"):
        super(_ScaledSquareProp, self).__init__(need_top_grad=True)
        self.scale = float(scale)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        return [out_grad[0], in_data[0]]

    def create_operator(self, ctx, shapes, dtypes):
        return _ScaledSquare(self.scale)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_custom_op_runs_on_the_device_with_gradient(dtype):
    rng = np.random.RandomState(0)
    x_np = rng.uniform(-2, 2, (4, 5)).astype(dtype)
    head = rng.uniform(-1, 1, (4, 5)).astype(dtype)
    # A producer on the device right before the custom op: its result must be visible there.
    x = mx.nd.array(x_np, ctx=DEV, dtype=dtype) + 1
    x.attach_grad()
    del SEEN[:]
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="gpu_test_scaled_square", scale=3)
    y.backward(mx.nd.array(head, ctx=DEV, dtype=dtype))
    xs = x_np + 1
    np.testing.assert_allclose(y.asnumpy(), 3 * xs * xs, rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * xs * head, rtol=1e-6)
    assert y.context == DEV and x.grad.context == DEV
    assert SEEN and all(a == DEV and b == DEV for a, b in SEEN), SEEN


class _Cube(mx.autograd.Function):
    def forward(self, x):
        self.save_for_backward(x)
        return x * x * x

    def backward(self, dy):
        (x,) = self.saved_tensors
        return 3 * x * x * dy


def test_autograd_function_on_the_device():
    x_np = np.linspace(-1.5, 2.0, 12).reshape(3, 4)
    x = mx.nd.array(x_np, ctx=DEV, dtype=np.float64)
    x.attach_grad()
    with mx.autograd.record():
        y = _Cube()(x)
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), x_np ** 3, rtol=1e-12)
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * x_np ** 2, rtol=1e-12)
    assert x.grad.context == DEV


def _mlp_grads(ctx, hybridize, static):
    mx.random.seed(7)
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.Dense(8, activation="tanh"), mx.gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier(), ctx=mx.cpu())
    x_np = np.random.RandomState(1).uniform(-1, 1, (5, 6))
    params = net.collect_params()
    net(mx.nd.array(x_np, dtype=np.float32))  # shapes known before the move
    params.reset_ctx(ctx)
    if hybridize:
        net.hybridize(static_alloc=static, static_shape=static)
    x = mx.nd.array(x_np, ctx=ctx, dtype=np.float32)
    outs, grads = [], []
    for _ in range(2):  # the second call replays the cached graph
        with mx.autograd.record():
            y = net(x)
            loss = (y * y).sum()
        loss.backward()
        outs.append(y.asnumpy())
        grads.append([p.grad(ctx).asnumpy() for p in params.values()])
    return outs, grads


@pytest.mark.parametrize("static", [False, True])
def test_hybridized_block_on_the_device_matches_cpu(static):
    ref_outs, ref_grads = _mlp_grads(mx.cpu(), False, False)
    outs, grads = _mlp_grads(DEV, True, static)
    for o, r in zip(outs, ref_outs):
        np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-6)
    for gs, rs in zip(grads, ref_grads):
        for g, r in zip(gs, rs):
            np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-5)
