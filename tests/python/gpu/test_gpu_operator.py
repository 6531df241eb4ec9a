"""Operators with GPU kernels against the CPU (MXNet's check_consistency rules): the CPU result
in float64 is the reference; each dtype is compared with 1.9.1's per-dtype tolerances,
forward and, where the backward operator has a GPU kernel too, gradients."""
import numpy as np
import pytest

import mxnet as mx

from gpu_util import DEV, DTYPES, TOL, check, inputs, run

SAME_SHAPE = ["elemwise_add", "elemwise_sub", "elemwise_mul", "elemwise_div"]
BROADCAST = ["broadcast_add", "broadcast_sub", "broadcast_mul", "broadcast_div"]
SCALAR = [("_plus_scalar", 1.5), ("_minus_scalar", 1.5), ("_rminus_scalar", 1.5),
          ("_mul_scalar", -2.0), ("_div_scalar", 4.0), ("_rdiv_scalar", 3.0)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", SAME_SHAPE)
def test_same_shape_arithmetic(op, dtype):
    check(op, [(3, 4, 5), (3, 4, 5)], dtype, grad=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", BROADCAST)
@pytest.mark.parametrize("shapes", [[(3, 4, 5), (1, 4, 1)], [(2, 1, 3), (4, 1)],
                                    [(6,), (6,)], [(0, 3), (1, 3)]])
def test_broadcast_arithmetic_and_gradients(op, dtype, shapes):
    check(op, shapes, dtype, grad=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,scalar", SCALAR)
def test_scalar_arithmetic(op, scalar, dtype):
    arrays = inputs([(7, 9)], dtype)
    ref = getattr(mx.nd._internal, op)(mx.nd.array(arrays[0], dtype=np.float64),
                                       scalar=scalar)
    out = getattr(mx.nd._internal, op)(mx.nd.array(arrays[0], ctx=DEV, dtype=dtype),
                                       scalar=scalar)
    rtol, atol = TOL[dtype]
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=rtol, atol=atol)


def test_dependent_ops_queue_back_to_back_and_stay_correct():
    # A chain of dependent GPU ops with no host wait in between: the result is read once.
    x = mx.nd.ones((1000,), ctx=DEV)
    for _ in range(200):
        x = x * 1.01 + 0.5
    ref = np.ones(1000)
    for _ in range(200):
        ref = ref * 1.01 + 0.5
    np.testing.assert_allclose(x.asnumpy(), ref, rtol=1e-4)


def test_cpu_reader_waits_for_gpu_writer():
    g = mx.nd.zeros((1 << 22,), ctx=DEV)
    g += 3  # queued on the GPU stream
    c = g.copyto(mx.cpu())  # the copy must see the finished add
    c += 1  # a CPU operator on the copy
    np.testing.assert_array_equal(c.asnumpy(), np.full(1 << 22, 4, np.float32))
    mx.nd.waitall()



UNARY = ["negative", "reciprocal", "abs", "sign", "round", "ceil", "floor", "trunc", "fix",
         "square", "sqrt", "rsqrt", "cbrt", "relu", "sigmoid", "softsign", "exp", "expm1",
         "log", "log10", "log2", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
         "sinh", "cosh", "tanh", "arcsinh", "arctanh", "erf", "degrees", "radians", "gamma",
         "gammaln", "erfinv"]
POSITIVE = {"sqrt", "rsqrt", "log", "log10", "log2", "log1p", "gamma", "gammaln"}
UNIT = {"arcsin", "arccos", "arctanh", "erfinv"}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", UNARY)
def test_unary_forward_and_gradient(op, dtype):
    rng = np.random.RandomState(3)
    x = rng.uniform(0.1, 0.9, (4, 5)) if op in POSITIVE | UNIT else rng.uniform(-2, 2, (4, 5))
    arrays = [x.astype(dtype)]
    grad = op not in {"sign", "round", "ceil", "floor", "trunc", "fix"}
    ref_out, ref_grads = run(op, [arrays[0].astype(np.float64)], mx.cpu(), grad)
    out, grads = run(op, arrays, DEV, grad)
    rtol, atol = TOL[dtype]
    np.testing.assert_allclose(out, ref_out, rtol=rtol, atol=atol)
    for g, r in zip(grads, ref_grads):
        np.testing.assert_allclose(g, r, rtol=rtol, atol=atol)


@pytest.mark.parametrize("act", ["relu", "sigmoid", "tanh", "softrelu", "softsign"])
def test_activation_forward_and_gradient(act):
    x = np.random.RandomState(4).uniform(-2, 2, (8, 16)).astype(np.float32)
    ref_out, ref_grads = run("Activation", [x.astype(np.float64)], mx.cpu(), True, act_type=act)
    out, grads = run("Activation", [x], DEV, True, act_type=act)
    np.testing.assert_allclose(out, ref_out, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads[0], ref_grads[0], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("op,n_states,mp", [("sgd_update", 0, False), ("sgd_mom_update", 1, False),
                                            ("mp_sgd_update", 0, True),
                                            ("mp_sgd_mom_update", 1, True)])
def test_sgd_updates_match_cpu(op, n_states, mp):
    rng = np.random.RandomState(5)
    dtype = np.float16 if mp else np.float32
    w, g = rng.randn(50, 30).astype(dtype), rng.randn(50, 30).astype(dtype)
    states = [rng.randn(50, 30).astype(np.float32 if mp else dtype) for _ in range(n_states)]
    if mp:
        states.append(w.astype(np.float32))
    params = dict(lr=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=1.0)
    if n_states:
        params["momentum"] = 0.9
    results = []
    for ctx in (mx.cpu(), DEV):
        arrs = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in [w, g] + states]
        getattr(mx.nd, op)(*arrs, out=arrs[0], **params)
        results.append([a.asnumpy() for a in arrs])
    for c, gp in zip(*results):
        np.testing.assert_allclose(gp, c, rtol=1e-3 if mp else 1e-5, atol=1e-3 if mp else 1e-6)
