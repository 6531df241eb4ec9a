"""Reductions, GEMMs (cuBLAS), softmax, pick, casts, samplers and the SGD family on the GPU
against the CPU (float64 reference, 1.9.1's check_consistency tolerances), forward and
gradients; and one Gluon training step of an MLP on both devices."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, TOL, check, check_fn, inputs

# ------------------------------------------------------------------------------ reductions

REDUCE_CASES = [dict(), dict(axis=1), dict(axis=(0, 2)), dict(axis=-1, keepdims=True),
                dict(axis=1, exclude=True)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max", "min", "nansum", "nanprod"])
@pytest.mark.parametrize("params", REDUCE_CASES)
def test_reductions_and_gradients(op, params, dtype):
    shape = (3, 4, 5)
    arr = inputs([shape], dtype)[0]
    if op in ("prod", "nanprod"):
        arr = (np.abs(arr) * 0.1 + 0.9).astype(dtype)  # keeps the product of 60 near 1
    check_fn(lambda x: getattr(mx.nd, op)(x, **params), [arr], dtype, True, op)


@pytest.mark.parametrize("shape,axis", [((1 << 20,), None), ((7, 100000), 1), ((100000, 7), 0),
                                        ((64, 3000), 1), ((3000, 64), 0), ((5, 6, 7000), (0, 2))])
def test_sum_of_large_arrays_splits_the_reduction(shape, axis):
    x = np.random.RandomState(1).uniform(-1, 1, shape).astype(np.float32)
    out = mx.nd.sum(mx.nd.array(x, ctx=DEV), axis=axis).asnumpy()
    np.testing.assert_allclose(out, x.astype(np.float64).sum(axis=axis), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("ord_", [1, 2])
@pytest.mark.parametrize("axis", [None, 1, (0, 1)])
def test_norm_and_gradient(ord_, axis):
    arr = inputs([(4, 6, 3)], np.float32)[0]
    params = dict(ord=ord_) if axis is None else dict(ord=ord_, axis=axis)
    check_fn(lambda x: mx.nd.norm(x, **params), [arr], np.float32, True, "norm")


def test_norm_with_out_dtype():
    x = inputs([(5, 7)], np.float32)[0]
    out = mx.nd.norm(mx.nd.array(x, ctx=DEV), axis=1, out_dtype="float64")
    assert out.dtype == np.float64
    np.testing.assert_allclose(out.asnumpy(), np.linalg.norm(x.astype(np.float64), axis=1),
                               rtol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_to_axis_like_and_gradients(dtype):
    x = inputs([(3, 1, 5)], dtype)[0]
    check_fn(lambda a: mx.nd.broadcast_to(a, shape=(3, 4, 5)), [x], dtype, True, "broadcast_to")
    check_fn(lambda a: mx.nd.broadcast_axis(a, axis=1, size=6), [x], dtype, True,
             "broadcast_axis")
    y = inputs([(3, 4, 5)], dtype)[0]
    check_fn(lambda a, b: mx.nd.broadcast_like(a, b), [x, y], dtype, True, "broadcast_like")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["clip", "wrap"])
@pytest.mark.parametrize("axis,keepdims", [(1, False), (0, True), (-1, False)])
def test_pick_and_gradient(dtype, mode, axis, keepdims):
    data = inputs([(4, 5, 3)], dtype)[0]
    out_shape = list(data.shape)
    out_shape[axis] = 1
    if not keepdims:
        del out_shape[axis]
    idx = np.random.RandomState(2).randint(-2, 8, out_shape).astype(np.float32)
    ref_out, ref_grads = None, None
    results = []
    for ctx, dt in ((mx.cpu(), np.float64), (DEV, dtype)):
        x = mx.nd.array(data.astype(dt), ctx=ctx, dtype=dt)
        i = mx.nd.array(idx, ctx=ctx)
        x.attach_grad()
        with mx.autograd.record():
            y = mx.nd.pick(x, i, axis=axis, mode=mode, keepdims=keepdims)
        y.backward(mx.nd.ones_like(y) * 2)
        results.append((y.asnumpy(), x.grad.asnumpy()))
    rtol, atol = TOL[dtype]
    for got, ref in zip(results[1], results[0]):
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol)


# ----------------------------------------------------------------------------------- GEMMs

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_dot_and_gradients(dtype, ta, tb):
    a_shape = (6, 4) if ta else (4, 6)
    b_shape = (5, 6) if tb else (6, 5)
    arrays = [a * 0.5 for a in inputs([a_shape, b_shape], dtype)]
    tol = (3e-2, 3e-2) if dtype == np.float16 else None
    check_fn(lambda a, b: mx.nd.dot(a, b, transpose_a=ta, transpose_b=tb), arrays, dtype, True,
             "dot", tol)


@pytest.mark.parametrize("shapes", [[(7,), (7,)], [(2, 3, 4), (4, 5)], [(3, 4), (4,)]])
def test_dot_of_vectors_and_higher_ranks(shapes):
    check_fn(lambda a, b: mx.nd.dot(a, b), inputs(shapes, np.float32), np.float32, True, "dot")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, True)])
def test_batch_dot_and_gradients(dtype, ta, tb):
    a_shape = (3, 6, 4) if ta else (3, 4, 6)
    b_shape = (3, 5, 6) if tb else (3, 6, 5)
    arrays = [a * 0.5 for a in inputs([a_shape, b_shape], dtype)]
    tol = (3e-2, 3e-2) if dtype == np.float16 else None
    check_fn(lambda a, b: mx.nd.batch_dot(a, b, transpose_a=ta, transpose_b=tb), arrays, dtype,
             True, "batch_dot", tol)


def test_dot_accumulates_into_out_with_add_req():
    # backward with grad_req='add' exercises beta = 1 in the GEMM.
    a, b = inputs([(4, 3), (3, 2)], np.float32)
    ga = []
    for ctx in (mx.cpu(), DEV):
        x, y = mx.nd.array(a, ctx=ctx), mx.nd.array(b, ctx=ctx)
        x.attach_grad(grad_req="add")
        for _ in range(3):
            with mx.autograd.record():
                z = mx.nd.dot(x, y)
            z.backward()
        ga.append(x.grad.asnumpy())
    np.testing.assert_allclose(ga[1], ga[0], rtol=1e-5)
    np.testing.assert_allclose(ga[0], 3 * np.ones((4, 2)) @ b.T, rtol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("flatten,no_bias,shape", [(True, False, (5, 3, 4)),
                                                   (False, False, (2, 5, 12)),
                                                   (True, True, (6, 12))])
def test_fully_connected_and_gradients(dtype, flatten, no_bias, shape):
    k = 12 if not flatten else int(np.prod(shape[1:]))
    arrays = inputs([shape, (7, k)] + ([] if no_bias else [(7,)]), dtype)
    arrays = [a * 0.3 for a in arrays]
    tol = (3e-2, 3e-2) if dtype == np.float16 else None
    check_fn(lambda *x: mx.nd.FullyConnected(*x, num_hidden=7, flatten=flatten, no_bias=no_bias),
             arrays, dtype, True, "FullyConnected", tol)


def test_gemm_rejects_integer_dtypes_on_the_gpu_by_name():
    if DEV == mx.cpu():
        pytest.skip("the CPU computes integer GEMMs")
    a = mx.nd.ones((2, 2), ctx=DEV, dtype="int32")
    with pytest.raises(mx.MXNetError, match="int32"):
        mx.nd.dot(a, a).asnumpy()


# --------------------------------------------------------------------------------- softmax

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "softmin"])
@pytest.mark.parametrize("params", [dict(), dict(axis=0), dict(axis=1, temperature=2.0)])
def test_softmax_family_and_gradients(op, dtype, params):
    check(op, [(4, 10, 3)], dtype, True, **params)


def test_softmax_with_length():
    data = inputs([(3, 6)], np.float32)[0]
    length = np.array([2, 6, 4], np.int32)
    outs = []
    for ctx in (mx.cpu(), DEV):
        x = mx.nd.array(data, ctx=ctx)
        ln = mx.nd.array(length, ctx=ctx, dtype="int32")
        x.attach_grad()
        with mx.autograd.record():
            y = mx.nd.softmax(x, ln, axis=-1, use_length=True)
        y.backward(mx.nd.array(np.arange(18).reshape(3, 6) % 5, ctx=ctx))
        outs.append((y.asnumpy(), x.grad.asnumpy()))
    for got, ref in zip(outs[1], outs[0]):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    assert np.all(outs[1][0][0, 2:] == 0)


def test_softmax_activation_and_output():
    x = inputs([(4, 5, 3)], np.float32)[0]
    for mode in ("instance", "channel"):
        check_fn(lambda a: mx.nd.SoftmaxActivation(a, mode=mode), [x], np.float32, True,
                 "SoftmaxActivation")
    label = np.random.RandomState(3).randint(0, 5, (4,)).astype(np.float32)
    ref = mx.nd.SoftmaxOutput(mx.nd.array(x[:, :, 0]), mx.nd.array(label)).asnumpy()
    got = mx.nd.SoftmaxOutput(mx.nd.array(x[:, :, 0], ctx=DEV), mx.nd.array(label, ctx=DEV))
    np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-5)


# ------------------------------------------------------------------------- casts, copies

@pytest.mark.parametrize("src", ["float16", "float32", "float64", "uint8", "int8", "int32",
                                 "int64", "bool"])
@pytest.mark.parametrize("dst", ["float16", "float32", "float64", "uint8", "int32", "int64",
                                 "bool"])
def test_cast_every_pair_matches_the_cpu(src, dst):
    x = (np.random.RandomState(4).uniform(-3, 120, (5, 7))).astype(src)
    ref = mx.nd.Cast(mx.nd.array(x, dtype=src), dtype=dst).asnumpy()
    got = mx.nd.Cast(mx.nd.array(x, ctx=DEV, dtype=src), dtype=dst)
    assert got.dtype == np.dtype(dst)
    np.testing.assert_array_equal(got.asnumpy(), ref)


def test_astype_and_copyto_between_devices_convert_dtypes():
    x = np.random.RandomState(5).uniform(-4, 4, (6, 3)).astype(np.float32)
    g = mx.nd.array(x, ctx=DEV)
    np.testing.assert_array_equal(g.astype("float16").asnumpy(), x.astype(np.float16))
    host = mx.nd.zeros((6, 3), dtype="float64")
    g.copyto(host)
    np.testing.assert_array_equal(host.asnumpy(), x.astype(np.float64))
    back = mx.nd.zeros((6, 3), ctx=DEV, dtype="int32")
    mx.nd.array(x).copyto(back)
    np.testing.assert_array_equal(back.asnumpy(), x.astype(np.int32))


# ------------------------------------------------------------------------------- samplers

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_uniform_and_normal_moments_and_seeding(dtype):
    n = 1 << 20
    mx.random.seed(42, ctx=DEV)
    u = mx.nd.random.uniform(-2, 6, shape=(n,), ctx=DEV, dtype=dtype).asnumpy().astype(np.float64)
    z = mx.nd.random.normal(1.5, 3.0, shape=(n,), ctx=DEV, dtype=dtype).asnumpy()
    z = z.astype(np.float64)
    assert u.min() >= -2 and u.max() <= 6
    np.testing.assert_allclose([u.mean(), u.var()], [2.0, 64 / 12.0], rtol=2e-2)
    np.testing.assert_allclose([z.mean(), z.std()], [1.5, 3.0], rtol=2e-2, atol=2e-2)
    # The same seed gives the same numbers; the next call gives others.
    mx.random.seed(42, ctx=DEV)
    u2 = mx.nd.random.uniform(-2, 6, shape=(n,), ctx=DEV, dtype=dtype).asnumpy()
    np.testing.assert_array_equal(u2.astype(np.float64), u)
    u3 = mx.nd.random.uniform(-2, 6, shape=(n,), ctx=DEV, dtype=dtype).asnumpy()
    assert not np.array_equal(u3.astype(np.float64), u)


def test_sampler_like_forms():
    ref = mx.nd.zeros((300, 300), ctx=DEV)
    u = mx.nd.random.uniform_like(ref, low=1, high=2).asnumpy()
    z = mx.nd.random.normal_like(ref, loc=0, scale=1).asnumpy()
    assert u.shape == (300, 300) and 1 <= u.min() and u.max() <= 2
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02


# ---------------------------------------------------------------------- optimizers, training

@pytest.mark.parametrize("op,per,mp", [("multi_sgd_update", 2, False),
                                       ("multi_sgd_mom_update", 3, False),
                                       ("multi_mp_sgd_update", 3, True),
                                       ("multi_mp_sgd_mom_update", 4, True)])
def test_multi_sgd_updates_match_cpu(op, per, mp):
    rng = np.random.RandomState(6)
    shapes = [(5, 4), (7,), (3, 3, 2)]
    dtype = np.float16 if mp else np.float32
    groups = []
    for s in shapes:
        g = [rng.randn(*s).astype(dtype), rng.randn(*s).astype(dtype)]
        if per - 2 - (1 if mp else 0):
            g.append(rng.randn(*s).astype(np.float32 if mp else dtype))
        if mp:
            g.append(g[0].astype(np.float32))
        groups.append(g)
    params = dict(lrs=(0.1, 0.2, 0.3), wds=(0.0, 0.01, 0.02), rescale_grad=0.5,
                  num_weights=len(shapes))
    if "mom" in op:
        params["momentum"] = 0.9
    results = []
    for ctx in (mx.cpu(), DEV):
        arrs = [[mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in g] for g in groups]
        flat = [a for g in arrs for a in g]
        getattr(mx.nd, op)(*flat, out=[g[0] for g in arrs], **params)
        results.append([a.asnumpy() for a in flat])
    for c, d in zip(*results):
        np.testing.assert_allclose(d, c, rtol=1e-3 if mp else 1e-5, atol=1e-3 if mp else 1e-6)


def test_gluon_mlp_training_steps_match_the_cpu():
    from mxnet import autograd, gluon

    def train(ctx):
        mx.random.seed(7)
        net = gluon.nn.HybridSequential()
        net.add(gluon.nn.Dense(32, activation="relu"), gluon.nn.Dense(10))
        net.initialize(mx.init.Xavier(), ctx=mx.cpu())
        net.reset_ctx(ctx)
        net.hybridize(static_alloc=True, static_shape=True)
        trainer = gluon.Trainer(net.collect_params(), "sgd",
                                {"learning_rate": 0.1, "momentum": 0.9})
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        rng = np.random.RandomState(8)
        x = mx.nd.array(rng.rand(16, 20), ctx=ctx)
        y = mx.nd.array(rng.randint(0, 10, 16), ctx=ctx)
        losses = []
        for _ in range(5):
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(16)
            losses.append(loss.mean().asscalar())
        return losses, [p.data().asnumpy() for p in net.collect_params().values()]

    cpu_losses, cpu_params = train(mx.cpu())
    dev_losses, dev_params = train(DEV)
    np.testing.assert_allclose(dev_losses, cpu_losses, rtol=1e-4, atol=1e-5)
    assert dev_losses[-1] < dev_losses[0]
    for d, c in zip(dev_params, cpu_params):
        np.testing.assert_allclose(d, c, rtol=1e-4, atol=1e-5)


UPDATES = [("nag_mom_update", 1, dict(momentum=0.9)), ("adam_update", 2, dict(beta1=0.8)),
           ("rmsprop_update", 1, dict(gamma1=0.9, clip_weights=2.0)),
           ("rmspropalex_update", 3, dict(gamma1=0.9, gamma2=0.8)),
           ("ftrl_update", 2, dict(lamda1=0.01, beta=1.0)),
           ("ftml_update", 3, dict(beta1=0.6, beta2=0.99, t=3)),
           ("signsgd_update", 0, dict()), ("signum_update", 1, dict(momentum=0.9, wd_lh=0.01))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("op,n_states,extra", UPDATES)
def test_optimizer_updates_match_cpu(op, n_states, extra, dtype):
    rng = np.random.RandomState(9)
    w, g = rng.randn(40, 7).astype(dtype), rng.randn(40, 7).astype(dtype)
    states = [np.abs(rng.randn(40, 7)).astype(dtype) for _ in range(n_states)]
    params = dict(lr=0.05, wd=0.01, rescale_grad=0.5, **extra)
    if op != "ftml_update":
        params["clip_gradient"] = 1.0
    results = []
    for ctx in (mx.cpu(), DEV):
        arrs = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in [w, g] + states]
        getattr(mx.nd, op)(*arrs, out=arrs[0], **params)
        results.append([a.asnumpy() for a in arrs])
    rtol, atol = (1e-2, 1e-2) if dtype == np.float16 else (1e-5, 1e-6)
    for d, c in zip(results[1], results[0]):
        np.testing.assert_allclose(d, c, rtol=rtol, atol=atol, err_msg=op)


def test_mp_nag_mom_update_matches_cpu():
    rng = np.random.RandomState(10)
    w, g = rng.randn(30).astype(np.float16), rng.randn(30).astype(np.float16)
    mom, w32 = rng.randn(30).astype(np.float32), w.astype(np.float32)
    results = []
    for ctx in (mx.cpu(), DEV):
        arrs = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in (w, g, mom, w32)]
        mx.nd.mp_nag_mom_update(*arrs, out=arrs[0], lr=0.1, momentum=0.9, wd=0.001)
        results.append([a.asnumpy() for a in arrs])
    for d, c in zip(results[1], results[0]):
        np.testing.assert_allclose(d, c, rtol=1e-3, atol=1e-3)


# name, params, mean, variance (closed forms)
SAMPLERS = [("gamma", dict(alpha=2.5, beta=1.5), 2.5 * 1.5, 2.5 * 1.5 ** 2),
            ("gamma", dict(alpha=0.5, beta=2.0), 1.0, 2.0),
            ("exponential", dict(scale=0.25), 0.25, 0.0625),
            ("poisson", dict(lam=3.0), 3.0, 3.0),
            ("poisson", dict(lam=40.0), 40.0, 40.0),
            ("negative_binomial", dict(k=3, p=0.4), 3 * 0.6 / 0.4, 3 * 0.6 / 0.4 ** 2),
            ("generalized_negative_binomial", dict(mu=2.0, alpha=0.5), 2.0, 2.0 + 0.5 * 4.0),
            ("randint", dict(low=-3, high=5, dtype="int32"), 0.5, (8 ** 2 - 1) / 12.0)]


@pytest.mark.parametrize("name,params,mean,var", SAMPLERS)
def test_samplers_match_their_moments(name, params, mean, var):
    n = 1 << 19
    mx.random.seed(3, ctx=DEV)
    x = getattr(mx.nd.random, name)(shape=(n,), ctx=DEV, **params).asnumpy().astype(np.float64)
    np.testing.assert_allclose(x.mean(), mean, rtol=0.02, atol=0.01)
    np.testing.assert_allclose(x.var(), var, rtol=0.04, atol=0.01)
    mx.random.seed(3, ctx=DEV)
    again = getattr(mx.nd.random, name)(shape=(n,), ctx=DEV, **params).asnumpy()
    np.testing.assert_array_equal(again.astype(np.float64), x)


def test_per_distribution_samplers_use_their_own_parameters():
    mu = mx.nd.array([0.0, 10.0, -5.0], ctx=DEV)
    sigma = mx.nd.array([1.0, 0.5, 2.0], ctx=DEV)
    z = mx.nd.sample_normal(mu, sigma, shape=(200000,)).asnumpy()
    assert z.shape == (3, 200000)
    np.testing.assert_allclose(z.mean(axis=1), [0, 10, -5], atol=0.03)
    np.testing.assert_allclose(z.std(axis=1), [1, 0.5, 2], rtol=0.02)
    lam = mx.nd.array([1.0, 6.0], ctx=DEV)
    p = mx.nd.sample_poisson(lam, shape=(200000,)).asnumpy()
    np.testing.assert_allclose(p.mean(axis=1), [1, 6], rtol=0.02)
    with pytest.raises(mx.MXNetError, match="_sample_exponential"):
        mx.nd.sample_exponential(mx.nd.array([1.0, -2.0], ctx=DEV), shape=(3,)).asnumpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axis", [-2, 1, 0])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True)])
def test_linalg_gemm_and_gemm2_with_any_row_axis(dtype, axis, ta, tb):
    # Matrices with rows on `axis` and columns on the last axis; the batch is the rest.
    def shaped(rows, cols):
        s = [2, 3, cols]
        s[axis if axis >= 0 else 3 + axis] = rows
        return tuple(s)
    m, k, n = 3, 4, 5
    a_shape = shaped(k, m) if ta else shaped(m, k)
    b_shape = shaped(n, k) if tb else shaped(k, n)
    if axis == 0:  # rows on axis 0: the batch axis 1 must agree
        a_shape, b_shape = (a_shape[0], 3, a_shape[2]), (b_shape[0], 3, b_shape[2])
    a, b = inputs([a_shape, b_shape], dtype)
    kw = dict(transpose_a=ta, transpose_b=tb, axis=axis)
    check_fn(lambda x, y: mx.nd.linalg.gemm2(x, y, alpha=0.7, **kw), [a, b], dtype, True,
             "linalg_gemm2")
    out_shape = mx.nd.linalg.gemm2(mx.nd.array(a), mx.nd.array(b), **kw).shape
    c = inputs([out_shape], dtype)[0]
    check_fn(lambda x, y, z: mx.nd.linalg.gemm(x, y, z, alpha=0.7, beta=-0.5, **kw), [a, b, c],
             dtype, True, "linalg_gemm")


@pytest.mark.parametrize("mp", [False, True])
def test_lamb_phases_match_cpu(mp):
    rng = np.random.RandomState(11)
    dtype = np.float16 if mp else np.float32
    w, g = rng.randn(6, 5).astype(dtype), rng.randn(6, 5).astype(dtype)
    mean, var = rng.randn(6, 5).astype(np.float32), np.abs(rng.randn(6, 5)).astype(np.float32)
    results = []
    for ctx in (mx.cpu(), DEV):
        nd = lambda a: mx.nd.array(a, ctx=ctx, dtype=a.dtype)  # noqa: E731
        ws, gs, ms, vs = nd(w), nd(g), nd(mean.astype(dtype if not mp else np.float32)), nd(
            var.astype(dtype if not mp else np.float32))
        if mp:
            w32 = nd(w.astype(np.float32))
            d = mx.nd.mp_lamb_update_phase1(ws, gs, ms, vs, w32, t=3, wd=0.01, beta1=0.8)
            r1, r2 = mx.nd.norm(w32), mx.nd.norm(d)
            new = mx.nd.mp_lamb_update_phase2(ws, d, r1, r2, w32, lr=0.05, lower_bound=0.1)
            results.append([new.asnumpy(), w32.asnumpy(), ms.asnumpy(), vs.asnumpy()])
        else:
            d = mx.nd.lamb_update_phase1(ws, gs, ms, vs, t=3, wd=0.01, beta1=0.8)
            r1, r2 = mx.nd.norm(ws), mx.nd.norm(d)
            new = mx.nd.lamb_update_phase2(ws, d, r1, r2, lr=0.05, upper_bound=2.0)
            results.append([new.asnumpy(), ms.asnumpy(), vs.asnumpy()])
    for dv, c in zip(results[1], results[0]):
        np.testing.assert_allclose(dv, c, rtol=1e-3 if mp else 1e-5, atol=1e-3 if mp else 1e-6)
