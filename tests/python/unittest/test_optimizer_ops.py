"""Optimizer update operators over several steps against NumPy re-implementations, with the
weight updated in place (out=weight) and the state arrays mutated in place."""
import numpy as np
import pytest

import mxnet as mx

from optable import optimizer as ref

nd = mx.nd
STEPS = 5
SHAPE = (6, 5)

def ones(shape, dtype="float32"):
    return nd.array(np.ones(shape), dtype=dtype)


def zeros(shape, dtype="float32"):
    return nd.array(np.zeros(shape), dtype=dtype)


def _arr(x, dtype="float32"):
    return nd.array(x, dtype=dtype)


def _run(op, states_np, kwargs, rng, step_kwargs=None, dtype="float32", rtol=1e-4, atol=1e-5,
         np_step=None):
    """Run STEPS updates of `op` in place and of `np_step` (returns new weight and states)."""
    w_np = rng.uniform(-1, 1, SHAPE)
    w = _arr(w_np, dtype)
    states = [_arr(s, dtype) for s in states_np]
    states_np = [s.astype("float64") for s in states_np]
    w_np = w.asnumpy().astype("float64")
    for t in range(1, STEPS + 1):
        g_np = rng.uniform(-2, 2, SHAPE)
        kw = dict(kwargs)
        if step_kwargs:
            kw.update(step_kwargs(t))
        getattr(nd, op)(w, _arr(g_np, dtype), *states, out=w, **kw)
        w_np, states_np = np_step(w_np, g_np.astype(dtype).astype("float64"), states_np, kw)
        np.testing.assert_allclose(w.asnumpy(), w_np, rtol=rtol, atol=atol,
                                   err_msg="%s weight, step %d" % (op, t))
        for i, (s, s_np) in enumerate(zip(states, states_np)):
            np.testing.assert_allclose(s.asnumpy(), s_np, rtol=rtol, atol=atol,
                                       err_msg="%s state %d, step %d" % (op, i, t))


def _sgd_mom_step(w, g, st, kw):
    (mom,) = st
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g, kw.get("clip_gradient", -1.0))
    mom = kw.get("momentum", 0.0) * mom - kw["lr"] * kw.get("wd", 0.0) * w - kw["lr"] * grad
    return w + mom, [mom]


def _adam_step(w, g, st, kw):
    mean, var = st
    b1, b2 = kw.get("beta1", 0.9), kw.get("beta2", 0.999)
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g + kw.get("wd", 0.0) * w,
                    kw.get("clip_gradient", -1.0))
    mean = b1 * mean + (1 - b1) * grad
    var = b2 * var + (1 - b2) * grad * grad
    return w - kw["lr"] * mean / (np.sqrt(var) + kw.get("epsilon", 1e-8)), [mean, var]


def _nag_step(w, g, st, kw):
    # MXNet 1.9.1: the weight is written first; updated in place (out=weight), the
    # momentum's weight-decay term then sees the new weight.
    (mom,) = st
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g, kw.get("clip_gradient", -1.0))
    lr, wd, m = kw["lr"], kw.get("wd", 0.0), kw.get("momentum", 0.0)
    m0 = m * mom
    new_w = w - m0 + (1 + m) * (m0 - lr * (grad + wd * w))
    return new_w, [m0 - lr * (grad + wd * new_w)]


def _rmsprop_step(w, g, st, kw):
    (n,) = st
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g + kw.get("wd", 0.0) * w,
                    kw.get("clip_gradient", -1.0))
    n = (1 - kw.get("gamma1", 0.95)) * grad * grad + kw.get("gamma1", 0.95) * n
    return ref.clip(w - kw["lr"] * grad / np.sqrt(n + kw.get("epsilon", 1e-8)),
                    kw.get("clip_weights", -1.0)), [n]


def _rmspropalex_step(w, g, st, kw):
    n, gs, delta = st
    g1, g2 = kw.get("gamma1", 0.95), kw.get("gamma2", 0.9)
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g + kw.get("wd", 0.0) * w,
                    kw.get("clip_gradient", -1.0))
    n = (1 - g1) * grad * grad + g1 * n
    gs = (1 - g1) * grad + g1 * gs
    delta = g2 * delta - kw["lr"] * grad / np.sqrt(n - gs * gs + kw.get("epsilon", 1e-8))
    return w + delta, [n, gs, delta]


def _ftrl_step(w, g, st, kw):
    z, n = st
    lr, l1, beta, wd = kw["lr"], kw.get("lamda1", 0.01), kw.get("beta", 1.0), kw.get("wd", 0.0)
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g, kw.get("clip_gradient", -1.0))
    z = z + grad - (np.sqrt(n + grad * grad) - np.sqrt(n)) * w / lr
    n = n + grad * grad
    w = (np.sign(z) * l1 - z) / ((beta + np.sqrt(n)) / lr + wd) * (np.abs(z) > l1)
    return w, [z, n]


def _ftml_step(w, g, st, kw):
    d, v, z = st
    b1, b2, t = kw.get("beta1", 0.6), kw.get("beta2", 0.999), kw["t"]
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g + kw.get("wd", 0.0) * w,
                    kw.get("clip_grad", -1.0))
    v = b2 * v + (1 - b2) * grad * grad
    d_t = (1 - b1 ** t) / kw["lr"] * (np.sqrt(v / (1 - b2 ** t)) + kw.get("epsilon", 1e-8))
    z = b1 * z + (1 - b1) * grad - (d_t - b1 * d) * w
    return -z / d_t, [d_t, v, z]


def _signum_step(w, g, st, kw):
    (mom,) = st
    m = kw.get("momentum", 0.0)
    grad = ref.clip(kw.get("rescale_grad", 1.0) * g, kw.get("clip_gradient", -1.0))
    mom = m * mom - (1 - m) * (kw.get("wd", 0.0) * w + grad)
    return (1 - kw["lr"] * kw.get("wd_lh", 0.0)) * w + kw["lr"] * np.sign(mom), [mom]


def _sgd_step(w, g, st, kw):
    return ref.sgd_ref(w, g, **kw), []


CASES = [
    ("sgd_update", 0, {"lr": 0.1, "wd": 0.05, "clip_gradient": 0.5, "rescale_grad": 0.7},
     _sgd_step, None),
    ("sgd_mom_update", 1, {"lr": 0.1, "momentum": 0.9, "wd": 0.01, "clip_gradient": 1.0},
     _sgd_mom_step, None),
    ("nag_mom_update", 1, {"lr": 0.05, "momentum": 0.9, "wd": 0.01}, _nag_step, None),
    ("adam_update", 2, {"lr": 0.01, "wd": 0.3, "clip_gradient": 0.5}, _adam_step, None),
    ("rmsprop_update", 1, {"lr": 0.01, "wd": 0.1, "clip_weights": 0.8}, _rmsprop_step, None),
    ("rmspropalex_update", 3, {"lr": 0.01}, _rmspropalex_step, None),
    ("ftrl_update", 2, {"lr": 0.1, "lamda1": 0.05, "wd": 0.01}, _ftrl_step, None),
    ("ftml_update", 3, {"lr": 0.05, "wd": 0.01}, _ftml_step, lambda t: {"t": t}),
    ("signum_update", 1, {"lr": 0.01, "momentum": 0.9, "wd": 0.1, "wd_lh": 0.01},
     _signum_step, None),
]


@pytest.mark.parametrize("op,nstates,kwargs,np_step,step_kwargs", CASES,
                         ids=[c[0] for c in CASES])
def test_multi_step_matches_numpy(op, nstates, kwargs, np_step, step_kwargs):
    rng = np.random.RandomState(0)
    states = [np.zeros(SHAPE) for _ in range(nstates)]
    _run(op, states, kwargs, rng, step_kwargs=step_kwargs, np_step=np_step)


def test_adam_adds_wd_before_clipping_but_sgd_clips_first():
    w = np.full((3,), 2.0)
    g = np.full((3,), 0.1)
    # adam: grad = clip(0.1 + 1.0 * 2.0, 0.5) = 0.5 -> mean = 0.05, var = 0.00025
    out = nd.adam_update(_arr(w), _arr(g), zeros((3,)), zeros((3,)), lr=0.1, wd=1.0,
                         clip_gradient=0.5, beta1=0.9, beta2=0.999)
    mean, var = 0.1 * 0.5, 0.001 * 0.25
    np.testing.assert_allclose(out.asnumpy(), 2.0 - 0.1 * mean / (np.sqrt(var) + 1e-8),
                               rtol=1e-5)
    # sgd: clip(0.1, 0.5) = 0.1, then wd separately: w = (1 - 0.1) * 2 - 0.01
    out = nd.sgd_update(_arr(w), _arr(g), lr=0.1, wd=1.0, clip_gradient=0.5)
    np.testing.assert_allclose(out.asnumpy(), 0.9 * 2.0 - 0.01, rtol=1e-6)


def _check_multi(op, per, mp, mom):
    rng = np.random.RandomState(3)
    shapes = [(4, 3), (5,), (2, 2, 2)]
    lrs, wds = (0.1, 0.05, 0.2), (0.0, 0.01, 0.1)
    dtype = "float16" if mp else "float32"
    ws_np = [rng.uniform(-1, 1, s) for s in shapes]
    ws = [_arr(w, dtype) for w in ws_np]
    ws_np = [w.asnumpy().astype("float64") for w in ws]
    moms = [zeros(s) for s in shapes]
    moms_np = [np.zeros(s) for s in shapes]
    w32s = [nd.array(w.asnumpy(), dtype="float32") for w in ws]
    for step in range(3):
        gs_np = [rng.uniform(-1, 1, s) for s in shapes]
        gs = [_arr(g, dtype) for g in gs_np]
        args = []
        for k in range(3):
            args += [ws[k], gs[k]] + ([moms[k]] if mom else []) + ([w32s[k]] if mp else [])
        kw = {"lrs": lrs, "wds": wds, "num_weights": 3, "rescale_grad": 0.5,
              "clip_gradient": 0.4}
        if mom:
            kw["momentum"] = 0.9
        getattr(nd, op)(*args, out=ws, **kw)
        for k in range(3):
            g = gs[k].asnumpy().astype("float64")
            if mom:
                ws_np[k], (moms_np[k],) = _sgd_mom_step(
                    ws_np[k], g, [moms_np[k]], dict(kw, lr=lrs[k], wd=wds[k]))
            else:
                ws_np[k] = ref.sgd_ref(ws_np[k], g, lrs[k], wds[k], 0.5, 0.4)
            tol = 2e-3 if mp else 1e-5
            np.testing.assert_allclose(ws[k].asnumpy().astype("float64"), ws_np[k], rtol=tol,
                                       atol=tol, err_msg="%s weight %d step %d" % (op, k, step))
            if mp:
                np.testing.assert_allclose(w32s[k].asnumpy(), ws_np[k], rtol=1e-5, atol=1e-6)
            if mom:
                np.testing.assert_allclose(moms[k].asnumpy(), moms_np[k], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op,per,mp,mom", [
    ("multi_sgd_update", 2, False, False),
    ("multi_sgd_mom_update", 3, False, True),
    ("multi_mp_sgd_update", 3, True, False),
    ("multi_mp_sgd_mom_update", 4, True, True),
])
def test_multi_sgd_variants(op, per, mp, mom):
    _check_multi(op, per, mp, mom)


def test_mp_sgd_keeps_float32_master_copy():
    w = _arr(np.full((4,), 1.0), "float16")
    w32 = nd.array(np.full((4,), 1.0), dtype="float32")
    mom = zeros((4,))
    for _ in range(10):
        nd.mp_sgd_mom_update(w, _arr(np.full((4,), 1e-3), "float16"), mom, w32, lr=0.01,
                             momentum=0.5, out=w)
    # 10 tiny steps accumulate in the float32 copy, and the float16 weight follows it.
    assert w32.asnumpy()[0] < 1.0
    np.testing.assert_allclose(w.asnumpy().astype("float32"), w32.asnumpy(), rtol=1e-3)
    assert w.dtype == np.float16 and w32.dtype == np.float32


def test_update_errors():
    with pytest.raises(ValueError):
        nd.sgd_update(ones((3,)), ones((4,)), lr=0.1)
    with pytest.raises(mx.base.MXNetError):
        nd.sgd_update(ones((3,)), ones((3,)))  # lr is required
    with pytest.raises(ValueError):
        nd.multi_sgd_update(ones((3,)), ones((3,)), lrs=(0.1, 0.2), wds=(0.0,),
                            num_weights=1)


def test_reset_arrays_zeroes_every_input_in_place():
    a = nd.array(np.arange(6.0).reshape(2, 3))
    b = nd.array(np.ones((4,)), dtype="float16")
    c = nd.array(np.arange(5), dtype="int32")
    nd.reset_arrays(a, b, c, num_arrays=3)
    for x in (a, b, c):
        assert np.all(x.asnumpy() == 0)


def test_adamw_skips_update_on_non_finite_rescale_in_place():
    w = nd.array(np.ones((3,)))
    mean, var = zeros((3,)), zeros((3,))
    for bad in (np.inf, np.nan, 0.0):
        nd._internal._adamw_update(w, nd.array(np.ones((3,))), mean, var, nd.array([bad]),
                                   lr=0.1, eta=1.0, out=w)
        np.testing.assert_array_equal(w.asnumpy(), np.ones(3))
        np.testing.assert_array_equal(mean.asnumpy(), np.zeros(3))
    nd._internal._adamw_update(w, nd.array(np.ones((3,))), mean, var, nd.array([1.0]),
                               lr=0.1, eta=1.0, wd=0.5, out=w)
    m, v = 0.1, 0.001
    np.testing.assert_allclose(w.asnumpy(), 1 - (0.1 * m / (np.sqrt(v) + 1e-8) + 0.5), rtol=1e-4)
    np.testing.assert_allclose(mean.asnumpy(), np.full(3, m), rtol=1e-6)
