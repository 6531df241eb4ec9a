"""Helpers of the GPU operator tests: the device under test, 1.9.1's check_consistency
tolerances, and a runner that returns an operator's output and input gradients.

MXNET_TEST_GPU_AS_CPU=1 on a machine without a GPU runs the operator tests with cpu(0) as the
device under test (against the float64 CPU reference), so the tests' own logic is still checked.
"""
import os

import numpy as np

import mxnet as mx

AS_CPU = os.environ.get("MXNET_TEST_GPU_AS_CPU") == "1" and mx.context.num_gpus() == 0
DEV = mx.cpu() if AS_CPU else mx.gpu(0)

# 1.9.1's check_consistency defaults.
TOL = {np.float16: (1e-2, 1e-2), np.float32: (1e-4, 1e-5), np.float64: (1e-8, 1e-10)}
DTYPES = [np.float16, np.float32, np.float64]


def inputs(shapes, dtype, seed=0):
    rng = np.random.RandomState(seed)
    # Away from zero so that division is well conditioned in float16.
    return [(rng.uniform(0.5, 2.0, s) * rng.choice([-1, 1], s)).astype(dtype) for s in shapes]


def run_fn(fn, arrays, ctx, grad, head_seed=None):
    """fn(*NDArrays) on ctx under autograd; its output and (when grad) the inputs' gradients."""
    nds = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in arrays]
    for x in nds:
        x.attach_grad()
    with mx.autograd.record():
        out = fn(*nds)
    if grad:
        head = mx.nd.array(np.linspace(-1, 1, out.size).reshape(out.shape), ctx=ctx,
                           dtype=out.dtype)
        out.backward(head)
        return out.asnumpy(), [x.grad.asnumpy() for x in nds]
    return out.asnumpy(), []


def run(op, arrays, ctx, grad, **params):
    return run_fn(lambda *x: getattr(mx.nd, op)(*x, **params), arrays, ctx, grad)


def check_fn(fn, arrays, dtype, grad, name, tol=None):
    """fn on DEV in `dtype` against fn on the CPU in float64 (check_consistency's rule)."""
    ref_out, ref_grads = run_fn(fn, [a.astype(np.float64) for a in arrays], mx.cpu(), grad)
    out, grads = run_fn(fn, [a.astype(dtype) for a in arrays], DEV, grad)
    rtol, atol = tol or TOL[dtype]
    np.testing.assert_allclose(out, ref_out, rtol=rtol, atol=atol, err_msg=name)
    for i, (g, r) in enumerate(zip(grads, ref_grads)):
        np.testing.assert_allclose(g, r, rtol=rtol, atol=atol, err_msg="%s gradient %d" % (name, i))


def check(op, shapes, dtype, grad, **params):
    check_fn(lambda *x: getattr(mx.nd, op)(*x, **params), inputs(shapes, dtype), dtype, grad, op)


def train_dense_with_kvstore(kvstore, steps=4):
    """Weights of a Dense layer on DEV after `steps` SGD-with-momentum steps through a Trainer on
    `kvstore` (update_on_kvstore): the same for every store that sums and updates correctly."""
    from mxnet import autograd, gluon
    rs = np.random.RandomState(0)
    net = gluon.nn.Dense(3, in_units=5)
    net.initialize(mx.init.Constant(0.1), ctx=DEV)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.2, "momentum": 0.9},
                            kvstore=kvstore, update_on_kvstore=True)
    for _ in range(steps):
        x = mx.nd.array(rs.uniform(-1, 1, (4, 5)), ctx=DEV)
        with autograd.record():
            loss = (net(x) ** 2).sum()
        loss.backward()
        trainer.step(4)
    return [p.data(DEV).asnumpy() for p in net.collect_params().values()]
