"""Op table: optimizer updates. Each reference is a NumPy re-implementation of one update step
returning the new weight (state updates are checked over several steps in
test_optimizer_ops.py, where the in-place mutation of the state arrays is observable)."""
import numpy as np

from . import FLOATS, FLOATS_AND_HALF, OpEntry, Sample


def clip(x, c):
    return x if c is None or c < 0 else np.clip(x, -c, c)


def f64(*xs):
    return [x.astype("float64") for x in xs]


def sgd_ref(w, g, lr, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0, **_):
    w, g = f64(w, g)
    return (1 - lr * wd) * w - lr * clip(rescale_grad * g, clip_gradient)


def sgd_mom_ref(w, g, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0, **_):
    w, g, mom = f64(w, g, mom)
    mom = momentum * mom - lr * wd * w - lr * clip(rescale_grad * g, clip_gradient)
    return w + mom


def mp_sgd_ref(w, g, w32, **kw):
    return sgd_ref(w32, g, **kw)


def mp_sgd_mom_ref(w, g, mom, w32, **kw):
    return sgd_mom_ref(w32, g, mom, **kw)


def nag_ref(w, g, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    # MXNet 1.9.1's rule (the momentum holds lr-scaled steps).
    w, g, mom = f64(w, g, mom)
    m0 = momentum * mom
    return w - m0 + (1 + momentum) * (m0 - lr * (clip(rescale_grad * g, clip_gradient) + wd * w))


def adam_ref(w, g, mean, var, lr, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0,
             rescale_grad=1.0, clip_gradient=-1.0, **_):
    w, g, mean, var = f64(w, g, mean, var)
    grad = clip(rescale_grad * g + wd * w, clip_gradient)  # wd before clipping
    mean = beta1 * mean + (1 - beta1) * grad
    var = beta2 * var + (1 - beta2) * grad * grad
    return w - lr * mean / (np.sqrt(var) + epsilon)


def rmsprop_ref(w, g, n, lr, gamma1=0.95, epsilon=1e-8, wd=0.0, rescale_grad=1.0,
                clip_gradient=-1.0, clip_weights=-1.0):
    w, g, n = f64(w, g, n)
    grad = clip(rescale_grad * g + wd * w, clip_gradient)
    n = (1 - gamma1) * grad * grad + gamma1 * n
    return clip(w - lr * grad / np.sqrt(n + epsilon), clip_weights)


def rmspropalex_ref(w, g, n, gs, delta, lr, gamma1=0.95, gamma2=0.9, epsilon=1e-8, wd=0.0,
                    rescale_grad=1.0, clip_gradient=-1.0, clip_weights=-1.0):
    w, g, n, gs, delta = f64(w, g, n, gs, delta)
    grad = clip(rescale_grad * g + wd * w, clip_gradient)
    n = (1 - gamma1) * grad * grad + gamma1 * n
    gs = (1 - gamma1) * grad + gamma1 * gs
    delta = gamma2 * delta - lr * grad / np.sqrt(n - gs * gs + epsilon)
    return clip(w + delta, clip_weights)


def ftrl_ref(w, g, z, n, lr, lamda1=0.01, beta=1.0, wd=0.0, rescale_grad=1.0,
             clip_gradient=-1.0):
    w, g, z, n = f64(w, g, z, n)
    grad = clip(rescale_grad * g, clip_gradient)
    z = z + grad - (np.sqrt(n + grad * grad) - np.sqrt(n)) * w / lr
    n = n + grad * grad
    return (np.sign(z) * lamda1 - z) / ((beta + np.sqrt(n)) / lr + wd) * (np.abs(z) > lamda1)


def ftml_ref(w, g, d, v, z, lr, t, beta1=0.6, beta2=0.999, epsilon=1e-8, wd=0.0,
             rescale_grad=1.0, clip_grad=-1.0):
    w, g, d, v, z = f64(w, g, d, v, z)
    grad = clip(rescale_grad * g + wd * w, clip_grad)
    v = beta2 * v + (1 - beta2) * grad * grad
    d_t = (1 - beta1 ** t) / lr * (np.sqrt(v / (1 - beta2 ** t)) + epsilon)
    z = beta1 * z + (1 - beta1) * grad - (d_t - beta1 * d) * w
    return -z / d_t


def signsgd_ref(w, g, lr, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    w, g = f64(w, g)
    return (1 - lr * wd) * w - lr * np.sign(clip(rescale_grad * g, clip_gradient))


def signum_ref(w, g, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0,
               wd_lh=0.0):
    w, g, mom = f64(w, g, mom)
    mom = momentum * mom - (1 - momentum) * (wd * w + clip(rescale_grad * g, clip_gradient))
    return (1 - lr * wd_lh) * w + lr * np.sign(mom)


def lamb1_ref(w, g, mean, var, t, wd, beta1=0.9, beta2=0.999, epsilon=1e-6,
              bias_correction=True, rescale_grad=1.0, clip_gradient=-1.0):
    w, g, mean, var = f64(w, g, mean, var)
    grad = clip(rescale_grad * g, clip_gradient)
    mean = beta1 * mean + (1 - beta1) * grad
    var = beta2 * var + (1 - beta2) * grad * grad
    if bias_correction:
        mean = mean / (1 - beta1 ** t)
        var = var / (1 - beta2 ** t)
    return mean / (np.sqrt(var) + epsilon) + wd * w


def lamb2_ref(w, g, r1, r2, lr, lower_bound=-1.0, upper_bound=-1.0):
    w, g = f64(w, g)
    r1, r2 = float(r1[0]), float(r2[0])
    if lower_bound >= 0:
        r1 = max(r1, lower_bound)
    if upper_bound >= 0:
        r1 = min(r1, upper_bound)
    ratio = 1.0 if r1 == 0 or r2 == 0 else r1 / r2
    return w - lr * ratio * g


def _positive(*shapes, n_pos=()):
    """Random inputs; those at indices n_pos are made non-negative (second moments)."""
    def make(rng, dtype):
        arrs = [rng.uniform(-1, 1, size=s).astype(dtype) for s in shapes]
        for i in n_pos:
            arrs[i] = np.abs(arrs[i])
        return arrs
    return make


def _mp_inputs(n_states):
    """float16 weight and grad, float32 states (momentum) and master weight32 = weight."""
    def make(rng, dtype):
        w = rng.uniform(-1, 1, size=(5, 4)).astype(dtype)
        g = rng.uniform(-1, 1, size=(5, 4)).astype(dtype)
        states = [rng.uniform(-0.1, 0.1, size=(5, 4)).astype("float32") for _ in range(n_states)]
        return [w, g] + states + [w.astype("float32")]
    return make


def _lamb2_inputs(rng, dtype):
    return [rng.uniform(-1, 1, size=(6,)).astype(dtype), rng.uniform(-1, 1, size=(6,)).astype(dtype),
            np.array([2.0], dtype=dtype), np.array([4.0], dtype=dtype)]


S = (5, 4)
ENTRIES = [
    OpEntry("sgd_update", ref=sgd_ref, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([S, S], {"lr": 0.1}),
                     Sample([S, S], {"lr": 0.1, "wd": 0.01, "rescale_grad": 0.5,
                                     "clip_gradient": 0.2})],
            covers=["_sparse_sgd_update"]),
    OpEntry("sgd_mom_update", ref=sgd_mom_ref, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([S, S, S], {"lr": 0.1, "momentum": 0.9}),
                     Sample([S, S, S], {"lr": 0.05, "momentum": 0.5, "wd": 0.1,
                                        "clip_gradient": 0.3, "rescale_grad": 2.0})],
            covers=["_sparse_sgd_mom_update"]),
    OpEntry("mp_sgd_update", ref=mp_sgd_ref, dtypes=("float16", "float32"), grad=False,
            samples=[Sample(kwargs={"lr": 0.1, "wd": 0.01}, arrays=_mp_inputs(0))]),
    OpEntry("mp_sgd_mom_update", ref=mp_sgd_mom_ref, dtypes=("float16", "float32"), grad=False,
            samples=[Sample(kwargs={"lr": 0.1, "momentum": 0.9, "clip_gradient": 0.5},
                            arrays=_mp_inputs(1))]),
    OpEntry("nag_mom_update", ref=nag_ref, dtypes=FLOATS, grad=False,
            samples=[Sample([S, S, S], {"lr": 0.1, "momentum": 0.9}),
                     Sample([S, S, S], {"lr": 0.1, "momentum": 0.9, "wd": 0.1,
                                        "clip_gradient": 0.3})]),
    OpEntry("mp_nag_mom_update", ref=lambda w, g, m, w32, **k: nag_ref(w32, g, m, **k),
            dtypes=("float16",), grad=False,
            samples=[Sample(kwargs={"lr": 0.1, "momentum": 0.9}, arrays=_mp_inputs(1))]),
    OpEntry("adam_update", ref=adam_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"lr": 0.01}, arrays=_positive(S, S, S, S, n_pos=(3,))),
                     Sample(kwargs={"lr": 0.01, "wd": 0.5, "clip_gradient": 0.1,
                                    "rescale_grad": 3.0, "beta1": 0.8},
                            arrays=_positive(S, S, S, S, n_pos=(3,)))],
            covers=["_sparse_adam_update"], rtol=1e-4, atol=1e-5),
    OpEntry("rmsprop_update", ref=rmsprop_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"lr": 0.01}, arrays=_positive(S, S, S, n_pos=(2,))),
                     Sample(kwargs={"lr": 0.5, "wd": 0.1, "clip_gradient": 0.2,
                                    "clip_weights": 0.6},
                            arrays=_positive(S, S, S, n_pos=(2,)))], rtol=1e-4, atol=1e-5),
    OpEntry("rmspropalex_update", ref=rmspropalex_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"lr": 0.01},
                            arrays=lambda rng, dt: [rng.uniform(-1, 1, S).astype(dt),
                                                    rng.uniform(-1, 1, S).astype(dt),
                                                    rng.uniform(1, 2, S).astype(dt),
                                                    rng.uniform(-0.5, 0.5, S).astype(dt),
                                                    rng.uniform(-1, 1, S).astype(dt)])],
            rtol=1e-4, atol=1e-5),
    OpEntry("ftrl_update", ref=ftrl_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"lr": 0.1}, arrays=_positive(S, S, S, S, n_pos=(3,))),
                     Sample(kwargs={"lr": 0.1, "lamda1": 0.3, "beta": 0.5, "wd": 0.1,
                                    "clip_gradient": 0.5},
                            arrays=_positive(S, S, S, S, n_pos=(3,)))],
            covers=["_sparse_ftrl_update"], rtol=1e-4, atol=1e-5),
    OpEntry("ftml_update", ref=ftml_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"lr": 0.1, "t": 3},
                            arrays=_positive(S, S, S, S, S, n_pos=(2, 3))),
                     Sample(kwargs={"lr": 0.1, "t": 1, "wd": 0.1, "clip_grad": 0.5},
                            arrays=_positive(S, S, S, S, S, n_pos=(2, 3)))],
            rtol=1e-4, atol=1e-5),
    OpEntry("signsgd_update", ref=signsgd_ref, dtypes=FLOATS, grad=False,
            samples=[Sample([S, S], {"lr": 0.1, "wd": 0.1})]),
    OpEntry("signum_update", ref=signum_ref, dtypes=FLOATS, grad=False,
            samples=[Sample([S, S, S], {"lr": 0.1, "momentum": 0.9, "wd": 0.1, "wd_lh": 0.01})]),
    OpEntry("lamb_update_phase1", ref=lamb1_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"t": 2, "wd": 0.1},
                            arrays=_positive(S, S, S, S, n_pos=(3,))),
                     Sample(kwargs={"t": 1, "wd": 0.0, "bias_correction": False,
                                    "clip_gradient": 0.3},
                            arrays=_positive(S, S, S, S, n_pos=(3,)))], rtol=1e-4, atol=1e-5),
    OpEntry("lamb_update_phase2", ref=lamb2_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"lr": 0.1}, arrays=_lamb2_inputs),
                     Sample(kwargs={"lr": 0.1, "lower_bound": 3.0}, arrays=_lamb2_inputs)]),
    OpEntry("multi_sgd_update", dtypes=FLOATS, grad=False,
            ref=lambda w0, g0, w1, g1, lrs, wds, **k: (sgd_ref(w0, g0, lrs[0], wds[0], **k),
                                                      sgd_ref(w1, g1, lrs[1], wds[1], **k)),
            samples=[Sample([(3, 2), (3, 2), (4,), (4,)],
                            {"lrs": (0.1, 0.2), "wds": (0.0, 0.1), "num_weights": 2,
                             "clip_gradient": 0.5})]),
    OpEntry("multi_sgd_mom_update", dtypes=FLOATS, grad=False,
            ref=lambda w0, g0, m0, lrs, wds, num_weights, **k: sgd_mom_ref(
                w0, g0, m0, lrs[0], wd=wds[0], **k),
            samples=[Sample([(3, 2), (3, 2), (3, 2)],
                            {"lrs": (0.1,), "wds": (0.01,), "num_weights": 1,
                             "momentum": 0.9})]),
    OpEntry("multi_mp_sgd_update", dtypes=("float16",), grad=False,
            ref=lambda w, g, w32, lrs, wds, num_weights, **k: sgd_ref(w32, g, lrs[0], wds[0], **k),
            samples=[Sample(kwargs={"lrs": (0.1,), "wds": (0.01,), "num_weights": 1},
                            arrays=_mp_inputs(0))]),
    OpEntry("multi_mp_sgd_mom_update", dtypes=("float16",), grad=False,
            ref=lambda w, g, m, w32, lrs, wds, num_weights, **k: sgd_mom_ref(
                w32, g, m, lrs[0], wd=wds[0], **k),
            samples=[Sample(kwargs={"lrs": (0.1,), "wds": (0.01,), "num_weights": 1,
                                    "momentum": 0.9}, arrays=_mp_inputs(1))]),
]


def adamw_ref(w, g, mean, var, rescale, lr, eta, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0,
              clip_gradient=-1.0):
    w, g, mean, var = f64(w, g, mean, var)
    r = float(rescale[0])
    if not np.isfinite(r) or r == 0:
        return w
    grad = clip(r * g, clip_gradient)
    mean = beta1 * mean + (1 - beta1) * grad
    var = beta2 * var + (1 - beta2) * grad * grad
    return w - eta * (lr * mean / (np.sqrt(var) + epsilon) + wd * w)


def _adamw_inputs(rescale, mp=False):
    def make(rng, dtype):
        w = rng.uniform(-1, 1, S).astype(dtype)
        st = "float32" if mp else dtype
        arrs = [w, rng.uniform(-1, 1, S).astype(dtype), rng.uniform(-0.1, 0.1, S).astype(st),
                rng.uniform(0, 0.1, S).astype(st)]
        if mp:
            arrs.append(w.astype("float32"))
        return arrs + [np.array([rescale], dtype="float32")]
    return make


def lars_ref(lrs, wss, gss, wds, eta, eps, rescale_grad=1.0):
    w = np.sqrt(wss.astype("float64"))
    g = np.sqrt(gss.astype("float64")) * rescale_grad
    lr = lrs.astype("float64")
    return np.where((w > 0) & (g > 0), lr * eta * w / (g + wds * w + eps), lr)


def _lars_inputs(rng, dtype):
    return [rng.uniform(0.1, 1, (4,)).astype(dtype),
            np.array([1.0, 0.0, 4.0, 9.0], dtype=dtype),
            np.array([4.0, 1.0, 0.0, 1.0], dtype=dtype),
            rng.uniform(0, 0.1, (4,)).astype(dtype)]


def _finite_inputs(bad):
    def make(rng, dtype):
        a = rng.uniform(-1, 1, (3, 4)).astype(dtype)
        b = rng.uniform(-1, 1, (5,)).astype(dtype)
        if bad is not None:
            b[2] = bad
        return [a, b]
    return make


def _preloaded_inputs(per, mp):
    def make(rng, dtype):
        arrs = []
        for shape in [(3, 2), (4,)]:
            w = rng.uniform(-1, 1, shape).astype(dtype)
            arrs += [w, rng.uniform(-1, 1, shape).astype(dtype)]
            if per - (1 if mp else 0) > 2:
                arrs.append(rng.uniform(-0.1, 0.1, shape).astype("float32" if mp else dtype))
            if mp:
                arrs.append(w.astype("float32"))
        return arrs + [np.array([0.1, 0.2], dtype="float32"), np.array([0.0, 0.01], dtype="float32")]
    return make


def _preloaded_ref(per, mp, mom):
    def ref_fn(*arrs, num_weights=2, momentum=0.0, rescale_grad=1.0, clip_gradient=-1.0):
        lrs, wds = arrs[-2], arrs[-1]
        outs = []
        for k in range(num_weights):
            grp = arrs[k * per:(k + 1) * per]
            w = grp[-1] if mp else grp[0]
            if mom:
                outs.append(sgd_mom_ref(w, grp[1], grp[2], float(lrs[k]), momentum, float(wds[k]),
                                        rescale_grad, clip_gradient))
            else:
                outs.append(sgd_ref(w, grp[1], float(lrs[k]), float(wds[k]), rescale_grad,
                                    clip_gradient))
        return tuple(outs)
    return ref_fn


ENTRIES += [
    OpEntry("_internal._adamw_update", ref=adamw_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"lr": 0.01, "eta": 0.5, "wd": 0.1},
                            arrays=_adamw_inputs(2.0)),
                     Sample(kwargs={"lr": 0.01, "eta": 1.0, "clip_gradient": 0.3},
                            arrays=_adamw_inputs(1.0)),
                     Sample(kwargs={"lr": 0.01, "eta": 1.0}, arrays=_adamw_inputs(np.inf))],
            rtol=1e-4, atol=1e-5),
    OpEntry("_internal._mp_adamw_update",
            ref=lambda w, g, m, v, w32, r, **k: adamw_ref(w32, g, m, v, r, **k),
            dtypes=("float16",), grad=False,
            samples=[Sample(kwargs={"lr": 0.01, "eta": 0.5, "wd": 0.1},
                            arrays=_adamw_inputs(0.5, mp=True))]),
    OpEntry("mp_lamb_update_phase1",
            ref=lambda w, g, m, v, w32, **k: lamb1_ref(w32, g, m, v, **k),
            dtypes=("float16",), grad=False,
            samples=[Sample(kwargs={"t": 2, "wd": 0.1},
                            arrays=lambda rng, dt: _adamw_inputs(1.0, mp=True)(rng, dt)[:5])],
            rtol=1e-3, atol=1e-3),
    OpEntry("mp_lamb_update_phase2",
            ref=lambda w, g, r1, r2, w32, **k: lamb2_ref(w32, g, r1, r2, **k),
            dtypes=("float16",), grad=False,
            samples=[Sample(kwargs={"lr": 0.1},
                            arrays=lambda rng, dt: [rng.uniform(-1, 1, (6,)).astype(dt),
                                                    rng.uniform(-1, 1, (6,)).astype("float32"),
                                                    np.array([2.0], "float32"),
                                                    np.array([4.0], "float32"),
                                                    rng.uniform(-1, 1, (6,)).astype("float32")])]),
    OpEntry("multi_lars", ref=lars_ref, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"eta": 0.01, "eps": 1e-8}, arrays=_lars_inputs),
                     Sample(kwargs={"eta": 0.5, "eps": 1e-3, "rescale_grad": 0.5},
                            arrays=_lars_inputs)]),
    OpEntry("multi_sum_sq", dtypes=FLOATS_AND_HALF, grad=False,
            ref=lambda *a, num_arrays: np.array([(x.astype("float64") ** 2).sum() for x in a]),
            samples=[Sample([(3, 4), (5,), (2, 2, 2)], {"num_arrays": 3}),
                     Sample([(7,)], {"num_arrays": 1})], rtol=1e-4),
    OpEntry("all_finite", dtypes=FLOATS_AND_HALF, grad=False,
            ref=lambda a, **k: np.array([float(np.all(np.isfinite(a)))]),
            samples=[Sample(arrays=lambda rng, dt: _finite_inputs(None)(rng, dt)[1:]),
                     Sample(arrays=lambda rng, dt: _finite_inputs(np.inf)(rng, dt)[1:]),
                     Sample(arrays=lambda rng, dt: _finite_inputs(np.nan)(rng, dt)[1:])]),
    OpEntry("multi_all_finite", dtypes=FLOATS_AND_HALF, grad=False,
            ref=lambda *a, **k: np.array([float(all(np.all(np.isfinite(x)) for x in a))]),
            samples=[Sample(kwargs={"num_arrays": 2}, arrays=_finite_inputs(None)),
                     Sample(kwargs={"num_arrays": 2}, arrays=_finite_inputs(-np.inf)),
                     Sample(kwargs={"num_arrays": 2}, arrays=_finite_inputs(np.nan))]),
    OpEntry("preloaded_multi_sgd_update", ref=_preloaded_ref(2, False, False), dtypes=FLOATS,
            grad=False, samples=[Sample(kwargs={"num_weights": 2, "clip_gradient": 0.5},
                                        arrays=_preloaded_inputs(2, False))]),
    OpEntry("preloaded_multi_sgd_mom_update", ref=_preloaded_ref(3, False, True), dtypes=FLOATS,
            grad=False, samples=[Sample(kwargs={"num_weights": 2, "momentum": 0.9},
                                        arrays=_preloaded_inputs(3, False))]),
    OpEntry("preloaded_multi_mp_sgd_update", ref=_preloaded_ref(3, True, False),
            dtypes=("float16",), grad=False,
            samples=[Sample(kwargs={"num_weights": 2}, arrays=_preloaded_inputs(3, True))]),
    OpEntry("preloaded_multi_mp_sgd_mom_update", ref=_preloaded_ref(4, True, True),
            dtypes=("float16",), grad=False,
            samples=[Sample(kwargs={"num_weights": 2, "momentum": 0.5, "rescale_grad": 2.0},
                            arrays=_preloaded_inputs(4, True))]),
]

EXEMPT = {
    "reset_arrays": "has no outputs (zeroes its inputs in place); tested in test_optimizer_ops.py",
}
