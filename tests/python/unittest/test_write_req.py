"""Element-wise kernels are compiled for writing only; mxnet_op::LaunchWrite applies the req
(kAddTo through a chunked stack buffer, kNullOp dropped). These tests check every req on sizes
around the chunk (1024) and the OpenMP threshold (32768) against NumPy."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd

SIZES = [1, 1023, 1025, 4097, 100003]


def _rand(n, seed, lo=0.5, hi=2.0, dtype=np.float32):
    return np.random.RandomState(seed).uniform(lo, hi, size=n).astype(dtype)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op,np_fwd,np_grad", [
    ("sin", np.sin, np.cos),
    ("sqrt", np.sqrt, lambda x: 0.5 / np.sqrt(x)),
    ("relu", lambda x: np.maximum(x, 0), lambda x: (x > 0).astype(x.dtype)),
])
def test_unary_add_req(n, op, np_fwd, np_grad):
    x_np = _rand(n, 1, -1.0, 2.0) if op == "relu" else _rand(n, 1)
    prev = _rand(n, 2)
    x = mx.nd.array(x_np)
    x.attach_grad(grad_req="add")
    x.grad[:] = prev
    with autograd.record():
        y = getattr(mx.nd, op)(x)
    y.backward(mx.nd.ones_like(y))
    np.testing.assert_allclose(y.asnumpy(), np_fwd(x_np), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), prev + np_grad(x_np), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("reqs", [("add", "null"), ("null", "write"), ("write", "add"),
                                  ("add", "add")])
def test_binary_backward_reqs(n, reqs):
    a_np, b_np = _rand(n, 3), _rand(n, 4)
    g_np = _rand(n, 5)
    prev_a, prev_b = _rand(n, 6), _rand(n, 7)
    a, b = mx.nd.array(a_np), mx.nd.array(b_np)
    a.attach_grad(grad_req=reqs[0])
    b.attach_grad(grad_req=reqs[1])
    if reqs[0] == "add":
        a.grad[:] = prev_a
    if reqs[1] == "add":
        b.grad[:] = prev_b
    with autograd.record():
        y = a / b
    y.backward(mx.nd.array(g_np))
    da, db = g_np / b_np, -g_np * a_np / (b_np * b_np)
    if reqs[0] != "null":
        want = da + (prev_a if reqs[0] == "add" else 0)
        np.testing.assert_allclose(a.grad.asnumpy(), want, rtol=1e-5, atol=1e-6)
    if reqs[1] != "null":
        want = db + (prev_b if reqs[1] == "add" else 0)
        np.testing.assert_allclose(b.grad.asnumpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", SIZES)
def test_scalar_and_clip_add_req(n):
    x_np = _rand(n, 8, -2.0, 2.0)
    prev = _rand(n, 9)
    x = mx.nd.array(x_np)
    x.attach_grad(grad_req="add")
    x.grad[:] = prev
    with autograd.record():
        y = mx.nd.clip(x * 3.0, -1.5, 1.5) + mx.nd.square(x)
    y.backward(mx.nd.ones_like(y))
    inside = (np.abs(3.0 * x_np) <= 1.5).astype(np.float32)
    np.testing.assert_allclose(y.asnumpy(), np.clip(3 * x_np, -1.5, 1.5) + x_np ** 2,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), prev + 3.0 * inside + 2 * x_np,
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape_a,shape_b", [((3, 1500), (1, 1500)), ((700, 3), (700, 1)),
                                             ((5, 1, 2049), (1, 4, 2049)), ((1,), (40000,))])
def test_broadcast_add_req(shape_a, shape_b):
    a_np, b_np = _rand(int(np.prod(shape_a)), 10).reshape(shape_a), \
        _rand(int(np.prod(shape_b)), 11).reshape(shape_b)
    out_shape = np.broadcast(a_np, b_np).shape
    prev = _rand(int(np.prod(out_shape)), 12).reshape(out_shape)
    out = mx.nd.array(prev)
    # The gradient of x sums two broadcast products into a grad_req='add' array.
    a, b = mx.nd.array(a_np), mx.nd.array(b_np)
    mx.nd.broadcast_mul(a, b, out=out)
    np.testing.assert_allclose(out.asnumpy(), a_np * b_np, rtol=1e-6)
    x, bv = mx.sym.Variable("x"), mx.sym.Variable("b")
    y = mx.sym.broadcast_mul(x, bv) + mx.sym.broadcast_mul(x, bv)
    ex = y.bind(mx.cpu(), {"x": a, "b": b}, args_grad={"x": mx.nd.array(
        np.ones(shape_a, np.float32))}, grad_req={"x": "add", "b": "null"})
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones(out_shape))
    red = tuple(i for i, (s, t) in enumerate(zip((1,) * (len(out_shape) - len(shape_a)) + shape_a,
                                                 out_shape)) if s != t)
    want = 1 + 2 * np.broadcast_to(b_np, out_shape).sum(axis=red).reshape(shape_a)
    np.testing.assert_allclose(ex.grad_dict["x"].asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), 2 * a_np * b_np, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.uint8])
@pytest.mark.parametrize("shape,axis", [((4097,), None), ((3, 50000), 1), ((50000, 3), 0),
                                        ((7, 9, 1100), (0, 2)), ((2, 3), 1), ((1, 40000), 0), ((200, 300), 0)])
def test_reductions_match_numpy(dtype, shape, axis):
    rs = np.random.RandomState(13)
    x_np = (rs.uniform(0, 3, size=shape) / (100 if dtype == np.float16 else 1)).astype(dtype)
    x = mx.nd.array(x_np, dtype=dtype)
    acc = np.float64 if np.issubdtype(dtype, np.floating) else np.int64
    for name, ref in [("sum", lambda v: v.astype(acc).sum(axis=axis)),
                      ("max", lambda v: v.max(axis=axis)), ("min", lambda v: v.min(axis=axis))]:
        got = getattr(mx.nd, name)(x, axis=axis).asnumpy()
        want = np.asarray(ref(x_np)).astype(dtype)
        tol = 1e-2 if dtype == np.float16 else 1e-5
        np.testing.assert_allclose(got.reshape(want.shape).astype(np.float64),
                                   want.astype(np.float64), rtol=tol, atol=tol)
