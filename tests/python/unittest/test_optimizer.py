"""mx.optimizer: every update rule against a NumPy re-implementation, several steps each,
with weight decay, gradient rescaling and clipping; multi-precision; the Updater; lr/wd
multipliers; state pickles; and the same updates run by the real MXNet 1.9.1 when present."""
import math
import os
import pickle
import tempfile

import numpy as np
import pytest

import mxnet as mx

from mx191_oracle import HAVE_MX191, SKIP_REASON, check_reference, run

SHAPE = (3, 5)
STEPS = 4


def _clip(g, c):
    return np.clip(g, -c, c) if c is not None and c > 0 else g


# ---- NumPy reference rules: (weight, grad, state, step t, hyper) -> new weight ----------------
# Each returns the new weight; `s` is a dict of float64 state arrays updated in place.

def ref_sgd(w, g, s, t, h):
    g = _clip(h["rescale_grad"] * g, h.get("clip_gradient")) + h["wd"] * w
    if h.get("momentum", 0) > 0:
        s.setdefault("mom", np.zeros_like(w))
        s["mom"] = h["momentum"] * s["mom"] - h["lr"] * g
        return w + s["mom"]
    return w - h["lr"] * g


def ref_nag(w, g, s, t, h):
    gr = _clip(h["rescale_grad"] * g, h.get("clip_gradient"))
    if h.get("momentum", 0) == 0:
        return w - h["lr"] * (gr + h["wd"] * w)
    m = h["momentum"] * s.setdefault("mom", np.zeros_like(w))
    new_w = w - m + (h["momentum"] + 1) * (m - h["lr"] * (gr + h["wd"] * w))
    # MXNet 1.9.1 updates the weight in place first, so the momentum's decay term sees it.
    s["mom"] = m - h["lr"] * (gr + h["wd"] * new_w)
    return new_w


def ref_adam(w, g, s, t, h):
    lr = h["lr"] * math.sqrt(1 - h["beta2"] ** t) / (1 - h["beta1"] ** t)
    g = _clip(h["rescale_grad"] * g + h["wd"] * w, h.get("clip_gradient"))
    m = s["m"] = h["beta1"] * s.get("m", 0) + (1 - h["beta1"]) * g
    v = s["v"] = h["beta2"] * s.get("v", 0) + (1 - h["beta2"]) * g * g
    return w - lr * m / (np.sqrt(v) + h["epsilon"])


def ref_adagrad(w, g, s, t, h):
    g = _clip(h["rescale_grad"] * g, h.get("clip_gradient"))
    hist = s["h"] = s.get("h", 0) + g * g
    return w - h["lr"] * (g / np.sqrt(hist + h["eps"]) + h["wd"] * w)


def ref_rmsprop(w, g, s, t, h):
    g = _clip(h["rescale_grad"] * g + h["wd"] * w, h.get("clip_gradient"))
    g1 = h["gamma1"]
    n = s["n"] = (1 - g1) * g * g + g1 * s.get("n", 0)
    if not h.get("centered"):
        new_w = w - h["lr"] * g / np.sqrt(n + h["epsilon"])
    else:
        gm = s["g"] = (1 - g1) * g + g1 * s.get("g", 0)
        d = s["d"] = h["gamma2"] * s.get("d", 0) - h["lr"] * g / np.sqrt(n - gm * gm + h["epsilon"])
        new_w = w + d
    return _clip(new_w, h.get("clip_weights"))


def ref_adadelta(w, g, s, t, h):
    g = _clip(h["rescale_grad"] * g, h.get("clip_gradient"))
    rho, eps = h["rho"], h["epsilon"]
    acc_g = s["g"] = rho * s.get("g", 0) + (1 - rho) * g * g
    delta = np.sqrt(s.get("d", 0) + eps) / np.sqrt(acc_g + eps) * g
    s["d"] = rho * s.get("d", 0) + (1 - rho) * delta * delta
    return w - delta - h["wd"] * w


def ref_signum(w, g, s, t, h):
    g = _clip(h["rescale_grad"] * g, h.get("clip_gradient"))
    if h.get("momentum", 0) > 0:
        m = s["m"] = h["momentum"] * s.get("m", 0) - (1 - h["momentum"]) * (h["wd"] * w + g)
        return (1 - h["lr"] * h.get("wd_lh", 0)) * w + h["lr"] * np.sign(m)
    return (1 - h["lr"] * h["wd"]) * w - h["lr"] * np.sign(g)


def ref_ftml(w, g, s, t, h):
    b1, b2 = h["beta1"], h["beta2"]
    g = _clip(h["rescale_grad"] * g + h["wd"] * w, h.get("clip_gradient"))
    v = s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    d = (1 - b1 ** t) / h["lr"] * (np.sqrt(v / (1 - b2 ** t)) + h["epsilon"])
    z = s["z"] = b1 * s.get("z", 0) + (1 - b1) * g - (d - b1 * s.get("d", 0)) * w
    s["d"] = d
    return -z / d


def ref_ftrl(w, g, s, t, h):
    g = _clip(h["rescale_grad"] * g, h.get("clip_gradient"))
    n0 = s.get("n", np.zeros_like(w))
    z = s["z"] = s.get("z", 0) + g - (np.sqrt(n0 + g * g) - np.sqrt(n0)) * w / h["lr"]
    n = s["n"] = n0 + g * g
    return np.where(np.abs(z) > h["lamda1"],
                    (np.sign(z) * h["lamda1"] - z) / ((h["beta"] + np.sqrt(n)) / h["lr"] + h["wd"]),
                    0.0)


def ref_adamax(w, g, s, t, h):
    lr = h["lr"] / (1 - h["beta1"] ** t)
    g = _clip(h["rescale_grad"] * g + h["wd"] * w, h.get("clip_gradient"))
    m = s["m"] = h["beta1"] * s.get("m", 0) + (1 - h["beta1"]) * g
    u = s["u"] = np.maximum(h["beta2"] * s.get("u", 0), np.abs(g))
    return w - lr * m / u


def ref_nadam(w, g, s, t, h):
    b1, b2, sd = h["beta1"], h["beta2"], h["schedule_decay"]
    g = _clip(h["rescale_grad"] * g + h["wd"] * w, h.get("clip_gradient"))
    mom_t = b1 * (1 - 0.5 * 0.96 ** (t * sd))
    mom_t1 = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * sd))
    sched = s["sched"] = s.get("sched", 1.0) * mom_t
    sched_next = sched * mom_t1
    m = s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    v = s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    m_bar = (1 - mom_t) * g / (1 - sched) + mom_t1 * m / (1 - sched_next)
    return w - h["lr"] * m_bar / (np.sqrt(v / (1 - b2 ** t)) + h["epsilon"])


def ref_lamb(w, g, s, t, h):
    b1, b2 = h["beta1"], h["beta2"]
    g = _clip(h["rescale_grad"] * g, h.get("clip_gradient"))
    m = s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    v = s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    direction = (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + h["epsilon"]) + h["wd"] * w
    r1 = np.linalg.norm(w)
    if h.get("lower_bound"):
        r1 = max(r1, h["lower_bound"])
    if h.get("upper_bound"):
        r1 = min(r1, h["upper_bound"])
    r2 = np.linalg.norm(direction)
    ratio = 1.0 if r1 == 0 or r2 == 0 else r1 / r2
    return w - h["lr"] * ratio * direction


COMMON = dict(wd=0.03, rescale_grad=0.5, clip_gradient=0.7)
# (optimizer name, constructor kwargs, reference, reference hyper-parameters)
CASES = [
    ("sgd", dict(learning_rate=0.1), ref_sgd, dict(lr=0.1)),
    ("sgd", dict(learning_rate=0.1, momentum=0.9), ref_sgd, dict(lr=0.1, momentum=0.9)),
    ("nag", dict(learning_rate=0.1), ref_nag, dict(lr=0.1)),
    ("nag", dict(learning_rate=0.1, momentum=0.9), ref_nag, dict(lr=0.1, momentum=0.9)),
    ("adam", dict(learning_rate=0.01), ref_adam,
     dict(lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-8)),
    ("adagrad", dict(learning_rate=0.1, eps=1e-7), ref_adagrad, dict(lr=0.1, eps=1e-7)),
    ("rmsprop", dict(learning_rate=0.01), ref_rmsprop,
     dict(lr=0.01, gamma1=0.9, epsilon=1e-8)),
    ("rmsprop", dict(learning_rate=0.01, centered=True, gamma1=0.95, gamma2=0.8,
                     clip_weights=0.9), ref_rmsprop,
     dict(lr=0.01, gamma1=0.95, gamma2=0.8, epsilon=1e-8, centered=True, clip_weights=0.9)),
    ("adadelta", dict(rho=0.9, epsilon=1e-5), ref_adadelta, dict(rho=0.9, epsilon=1e-5)),
    ("signum", dict(learning_rate=0.01, momentum=0.9, wd_lh=0.1), ref_signum,
     dict(lr=0.01, momentum=0.9, wd_lh=0.1)),
    ("signum", dict(learning_rate=0.01, momentum=0.0), ref_signum, dict(lr=0.01)),
    ("ftml", dict(learning_rate=0.01), ref_ftml,
     dict(lr=0.01, beta1=0.6, beta2=0.999, epsilon=1e-8)),
    ("ftrl", dict(learning_rate=0.1, lamda1=0.01, beta=1), ref_ftrl,
     dict(lr=0.1, lamda1=0.01, beta=1)),
    ("adamax", dict(learning_rate=0.002), ref_adamax, dict(lr=0.002, beta1=0.9, beta2=0.999)),
    ("nadam", dict(learning_rate=0.001), ref_nadam,
     dict(lr=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, schedule_decay=0.004)),
    ("lamb", dict(learning_rate=0.01, lower_bound=0.1, upper_bound=10.0), ref_lamb,
     dict(lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6, lower_bound=0.1, upper_bound=10.0)),
]


def _data(seed=7, shape=SHAPE, steps=STEPS):
    rng = np.random.RandomState(seed)
    w0 = rng.uniform(-1, 1, shape).astype(np.float32)
    grads = [rng.uniform(-3, 3, shape).astype(np.float32) for _ in range(steps)]
    return w0, grads


def _ids(case):
    return "%s-%s" % (case[0], "-".join("%s" % k for k in sorted(case[1])))


@pytest.mark.parametrize("with_common", [False, True], ids=["plain", "wd-rescale-clip"])
@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_update_rule_matches_numpy(case, with_common):
    name, kwargs, ref, hyper = case
    kwargs, hyper = dict(kwargs), dict(hyper)
    if with_common:
        kwargs.update(COMMON)
        hyper.update(COMMON)
    else:
        hyper.update(wd=0.0, rescale_grad=1.0)
    opt = mx.optimizer.create(name, **kwargs)
    updater = mx.optimizer.get_updater(opt)
    w0, grads = _data()
    weight = mx.nd.array(w0)
    expected = w0.astype(np.float64)
    state = {}
    for t, g in enumerate(grads, 1):
        updater(0, mx.nd.array(g), weight)
        expected = ref(expected, g.astype(np.float64), state, t, hyper)
        np.testing.assert_allclose(weight.asnumpy(), expected, rtol=1e-4, atol=1e-5,
                                   err_msg="%s step %d" % (name, t))
    assert opt.num_update == STEPS


def test_sgd_aggregated_updates_equal_single_updates():
    # Six parameters in one Updater call (two multi_sgd_mom_update batches of 4 and 2)
    # give the same result as six separate calls.
    rng = np.random.RandomState(3)
    shapes = [(4, 3), (4,), (2, 2), (7,), (3, 3), (1,)]
    ws = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
    gs = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
    kw = dict(learning_rate=0.1, momentum=0.9, wd=0.01, rescale_grad=0.25, clip_gradient=0.2,
              param_idx2name={i: "p%d_weight" % i for i in range(6)})
    batched = mx.optimizer.get_updater(mx.optimizer.SGD(**kw))
    single = mx.optimizer.get_updater(mx.optimizer.SGD(**kw))
    wb = [mx.nd.array(w) for w in ws]
    wsg = [mx.nd.array(w) for w in ws]
    for _ in range(3):
        batched(list(range(6)), [mx.nd.array(g) for g in gs], wb)
        for i in range(6):
            single(i, mx.nd.array(gs[i]), wsg[i])
    for a, b in zip(wb, wsg):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_sgd_multi_precision_float16(momentum):
    w0, grads = _data()
    opt = mx.optimizer.SGD(learning_rate=0.1, momentum=momentum, wd=0.01, multi_precision=True)
    updater = mx.optimizer.get_updater(opt)
    weight = mx.nd.array(w0, dtype="float16")
    master = w0.astype(np.float16).astype(np.float64)
    state = {}
    hyper = dict(lr=0.1, momentum=momentum, wd=0.01, rescale_grad=1.0)
    for t, g in enumerate(grads, 1):
        g16 = g.astype(np.float16)
        updater(0, mx.nd.array(g16, dtype="float16"), weight)
        master = ref_sgd(master, g16.astype(np.float64), state, t, hyper)
    # SGD keeps (momentum, float32 master weight); the float16 weight is the rounded master.
    mom, weight32 = updater.states[0]
    assert weight32.dtype == np.float32 and weight.dtype == np.float16
    assert (mom is None) == (momentum == 0.0)
    np.testing.assert_allclose(weight32.asnumpy(), master, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(weight.asnumpy(), weight32.asnumpy().astype(np.float16))


@pytest.mark.parametrize("name,kwargs,ref,hyper",
                         [c for c in CASES if c[0] in ("adam", "rmsprop", "nag", "lamb")],
                         ids=[_ids(c) for c in CASES if c[0] in ("adam", "rmsprop", "nag",
                                                                   "lamb")])
def test_multi_precision_float16_uses_float32_master(name, kwargs, ref, hyper):
    w0, grads = _data()
    opt = mx.optimizer.create(name, multi_precision=True, **kwargs)
    updater = mx.optimizer.get_updater(opt)
    weight = mx.nd.array(w0, dtype="float16")
    master = w0.astype(np.float16).astype(np.float64)
    state = {}
    hyper = dict(hyper, wd=0.0, rescale_grad=1.0)
    for t, g in enumerate(grads, 1):
        g16 = g.astype(np.float16)
        updater(0, mx.nd.array(g16, dtype="float16"), weight)
        master = ref(master, g16.astype(np.float64), state, t, hyper)
    st = updater.states[0]
    # (float32 master, original state) except SGD/NAG's (momentum, master).
    weight32 = st[1] if name == "nag" else st[0]
    assert weight32.dtype == np.float32
    np.testing.assert_allclose(weight32.asnumpy(), master, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(weight.asnumpy(), weight32.asnumpy().astype(np.float16))


def test_float16_without_multi_precision_warns():
    opt = mx.optimizer.Adam()
    with pytest.warns(UserWarning, match="multi_precision"):
        opt.create_state_multi_precision(0, mx.nd.zeros((2,), dtype="float16"))


def test_learning_rate_from_scheduler_and_update_count():
    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0)
    opt = mx.optimizer.SGD(lr_scheduler=sched)
    updater = mx.optimizer.get_updater(opt)
    w = mx.nd.zeros((1,))
    seen = []
    for _ in range(6):
        updater(0, mx.nd.ones((1,)), w)
        seen.append(opt.learning_rate)
    # num_update 1..6 -> lr 1, 1, .5, .5, .25, .25; each step subtracts that lr.
    assert seen == [1.0, 1.0, 0.5, 0.5, 0.25, 0.25]
    assert w.asscalar() == pytest.approx(-3.5)
    with pytest.raises(UserWarning):
        opt.set_learning_rate(0.1)


def test_begin_num_update_and_per_index_counts():
    opt = mx.optimizer.Adam(begin_num_update=10)
    updater = mx.optimizer.get_updater(opt)
    updater(0, mx.nd.ones((2,)), mx.nd.ones((2,)))
    updater(1, mx.nd.ones((2,)), mx.nd.ones((2,)))
    updater(0, mx.nd.ones((2,)), mx.nd.ones((2,)))
    assert opt._index_update_count == {0: 12, 1: 11}
    assert opt.num_update == 12


def test_default_learning_rates():
    assert mx.optimizer.SGD().learning_rate == 0.01
    assert mx.optimizer.Adam().learning_rate == 0.001
    assert mx.optimizer.Ftrl().learning_rate == 0.1
    sched = mx.lr_scheduler.FactorScheduler(step=10, base_lr=0.3)
    assert mx.optimizer.SGD(lr_scheduler=sched).learning_rate == 0.3
    with pytest.warns(UserWarning):
        mx.optimizer.SGD(lr_scheduler=sched, learning_rate=0.2)
    assert sched.base_lr == 0.2


def test_wd_mult_by_name_and_lr_mult():
    idx2name = {0: "fc_weight", 1: "fc_bias", 2: "bn_gamma", 3: "bn_beta"}
    opt = mx.optimizer.SGD(learning_rate=1.0, wd=0.5, param_idx2name=idx2name)
    assert opt.wd_mult == {"fc_bias": 0.0, "bn_beta": 0.0}
    assert opt._get_wds([0, 1, 2, 3]) == [0.5, 0.0, 0.5, 0.0]
    opt.set_lr_mult({"fc_weight": 0.1, 2: 3.0})
    assert opt._get_lrs([0, 1, 2]) == [pytest.approx(0.1), 1.0, 3.0]
    # A bias with wd 0 moves only by its gradient; the weight also decays.
    updater = mx.optimizer.get_updater(opt)
    opt.set_lr_mult({})
    w, b = mx.nd.ones((2,)), mx.nd.ones((2,))
    updater([0, 1], [mx.nd.zeros((2,)), mx.nd.zeros((2,))], [w, b])
    np.testing.assert_allclose(w.asnumpy(), [0.5, 0.5])
    np.testing.assert_allclose(b.asnumpy(), [1.0, 1.0])


class _FakeSymbol(object):
    """attr_dict/list_arguments are all the optimizer reads from a symbol."""

    def attr_dict(self):
        return {"a_weight": {"__lr_mult__": "2.0", "__wd_mult__": "0.25"},
                "b_bias": {"__wd_mult__": "3"}}

    def list_arguments(self):
        return ["data", "a_weight", "b_bias"]


def test_multipliers_from_symbol_attributes():
    opt = mx.optimizer.SGD(sym=_FakeSymbol(), param_idx2name={0: "a_weight", 1: "b_bias"},
                           learning_rate=0.1, wd=0.1)
    assert opt.lr_mult == {"a_weight": 2.0}
    assert opt.wd_mult == {"a_weight": 0.25, "b_bias": 3.0}
    assert opt._get_lrs([0, 1]) == [pytest.approx(0.2), pytest.approx(0.1)]
    assert opt._get_wds([0, 1]) == [pytest.approx(0.025), pytest.approx(0.3)]


def test_registry_and_create():
    assert isinstance(mx.optimizer.create("SGD"), mx.optimizer.SGD)
    assert isinstance(mx.optimizer.Optimizer.create_optimizer("rmsprop"), mx.optimizer.RMSProp)
    for name in ("adadelta", "adagrad", "adam", "adamax", "ccsgd", "dcasgd", "ftml", "ftrl",
                 "lamb", "nadam", "nag", "rmsprop", "sgd", "sgld", "signum", "test"):
        assert name in mx.optimizer.Optimizer.opt_registry, name
    with pytest.raises(ValueError, match="Cannot find optimizer"):
        mx.optimizer.create("no_such_optimizer")

    @mx.optimizer.register
    class MyTestOpt(mx.optimizer.Optimizer):
        def update(self, index, weight, grad, state):
            weight[:] -= grad
    assert isinstance(mx.optimizer.create("mytestopt"), MyTestOpt)
    del mx.optimizer.Optimizer.opt_registry["mytestopt"]


def test_sgld_noise_statistics():
    # weight += -lr/2 * grad + N(0, lr): with zero gradients the update is pure noise.
    mx.random.seed(5)
    opt = mx.optimizer.SGLD(learning_rate=0.04)
    w = mx.nd.zeros((20000,))
    opt.update(0, w, mx.nd.zeros((20000,)), None)
    x = w.asnumpy()
    assert abs(x.mean()) < 0.01 and x.std() == pytest.approx(0.2, rel=0.05)


def test_updater_states_round_trip_and_dump_optimizer():
    w0, grads = _data()
    opt = mx.optimizer.Adam(learning_rate=0.01)
    updater = mx.optimizer.get_updater(opt)
    w = mx.nd.array(w0)
    for g in grads[:2]:
        updater(0, mx.nd.array(g), w)
    blob = updater.get_states()
    assert isinstance(pickle.loads(blob)[0], tuple)
    # A fresh updater restored from the blob continues exactly like the original.
    other = mx.optimizer.get_updater(mx.optimizer.Adam(learning_rate=0.01))
    other.set_states(blob)
    other.optimizer._index_update_count[0] = 2
    w2 = w.copy()
    updater(0, mx.nd.array(grads[2]), w)
    other(0, mx.nd.array(grads[2]), w2)
    np.testing.assert_allclose(w.asnumpy(), w2.asnumpy(), rtol=1e-6)
    # dump_optimizer pickles the optimizer with its update counts too.
    third = mx.optimizer.get_updater(mx.optimizer.SGD())
    third.set_states(updater.get_states(dump_optimizer=True))
    assert isinstance(third.optimizer, mx.optimizer.Adam)
    assert third.optimizer._index_update_count == {0: 3}


# ---- cross-check with the real MXNet 1.9.1 ------------------------------------------------------
_CROSS_SCRIPT = r"""
import pickle, sys, numpy as np, mxnet as mx
rng = np.random.RandomState(11)
w0 = rng.uniform(-1, 1, (3, 4)).astype('float32')
gs = [rng.uniform(-2, 2, (3, 4)).astype('float32') for _ in range(3)]
common = dict(wd=0.01, rescale_grad=0.5, clip_gradient=0.6)
cfgs = [('sgd', dict(learning_rate=0.1, momentum=0.9)), ('sgd', dict(learning_rate=0.1)),
        ('nag', dict(learning_rate=0.1, momentum=0.9)), ('adam', dict(learning_rate=0.01)),
        ('adagrad', dict()), ('rmsprop', dict()), ('rmsprop', dict(centered=True)),
        ('adadelta', dict()), ('signum', dict(wd_lh=0.1)), ('ftml', dict()), ('ftrl', dict()),
        ('adamax', dict()), ('nadam', dict()), ('lamb', dict(lower_bound=0.1, upper_bound=5.0))]
res = {}
for i, (name, kw) in enumerate(cfgs):
    u = mx.optimizer.get_updater(mx.optimizer.create(name, **dict(common, **kw)))
    w = mx.nd.array(w0)
    for g in gs:
        u(0, mx.nd.array(g), w)
    res['%d_%s' % (i, name)] = w.asnumpy()
np.savez(sys.argv[1], **res)
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_updates_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "cross.py")
        with open(script, "w") as f:
            f.write(_CROSS_SCRIPT)
        check_reference()
        run([script, os.path.join(tmp, "ref.npz")], ours=False)
        run([script, os.path.join(tmp, "ours.npz")], ours=True)
        ref, ours = np.load(os.path.join(tmp, "ref.npz")), np.load(os.path.join(tmp, "ours.npz"))
        for key in ref.files:
            np.testing.assert_allclose(ours[key], ref[key], rtol=1e-5, atol=1e-6, err_msg=key)


_STATES_SCRIPT = r"""
import sys, numpy as np, mxnet as mx
mode, path = sys.argv[1], sys.argv[2]
if mode == 'write':
    opt = mx.optimizer.create(sys.argv[3], learning_rate=0.1, momentum=0.9) \
        if sys.argv[3] == 'sgd' else mx.optimizer.create(sys.argv[3], learning_rate=0.1)
    u = mx.optimizer.get_updater(opt)
    for i, shape in enumerate([(2, 3), (4,)]):
        w = mx.nd.array(np.arange(np.prod(shape), dtype='float32').reshape(shape))
        u(i, mx.nd.ones(shape) * (i + 1), w)
    open(path, 'wb').write(u.get_states(dump_optimizer=True))
else:
    u = mx.optimizer.get_updater(mx.optimizer.SGD())
    u.set_states(open(path, 'rb').read())
    out = {'type': type(u.optimizer).__name__, 'count': sorted(u.optimizer._index_update_count.items())}
    for k, st in sorted(u.states.items()):
        st = st if isinstance(st, (tuple, list)) else [st]
        out['state%d' % k] = [s.asnumpy().tolist() for s in st]
    print(repr(out))
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
@pytest.mark.parametrize("name", ["sgd", "adam", "rmsprop"])
def test_optimizer_state_pickles_interchange_with_mxnet_191(name):
    check_reference()
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "states.py")
        with open(script, "w") as f:
            f.write(_STATES_SCRIPT)
        theirs, ours = os.path.join(tmp, "theirs.states"), os.path.join(tmp, "ours.states")
        run([script, "write", theirs, name], ours=False)
        run([script, "write", ours, name], ours=True)
        read = {}
        for who in ("mx191", "ours"):
            for fname in (theirs, ours):
                read[who, fname] = run([script, "read", fname], ours=(who == "ours"),
                                       output=True)
        assert read["mx191", ours] == read["mx191", theirs]
        assert read["ours", theirs] == read["mx191", theirs]


# ---- state files written by MXNet 1.9.1 (tests/python/data/mx191/gen_testdata.py) ---------
DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")


def _replay(ref, hyper, io, k):
    w, state = io["w%d" % k].astype(np.float64), {}
    for t in (1, 2):
        w = ref(w, io["g%d_%d" % (k, t - 1)].astype(np.float64), state, t, hyper)
    return w, state


def test_load_mxnet_191_sgd_momentum_states():
    io = np.load(os.path.join(DATA, "optimizer_states_io.npz"))
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9,
                                                        wd=0.01))
    with open(os.path.join(DATA, "sgd_mom.states"), "rb") as f:
        updater.set_states(f.read())
    assert sorted(updater.states) == [0, 1]
    hyper = dict(lr=0.1, momentum=0.9, wd=0.01, rescale_grad=1.0)
    for k in range(2):
        w, state = _replay(ref_sgd, hyper, io, k)
        np.testing.assert_allclose(io["sgd_mom_w%d" % k], w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(updater.states[k].asnumpy(), state["mom"], rtol=1e-5,
                                   atol=1e-6)
        # One more step from the loaded momentum continues MXNet's trajectory.
        weight = mx.nd.array(io["sgd_mom_w%d" % k])
        grad = np.full(w.shape, 0.5)
        updater(k, mx.nd.array(grad), weight)
        np.testing.assert_allclose(weight.asnumpy(), ref_sgd(w, grad, state, 3, hyper),
                                   rtol=1e-5, atol=1e-6)


def test_load_mxnet_191_adam_states_with_optimizer():
    io = np.load(os.path.join(DATA, "optimizer_states_io.npz"))
    updater = mx.optimizer.get_updater(mx.optimizer.SGD())
    with open(os.path.join(DATA, "adam_dump.states"), "rb") as f:
        updater.set_states(f.read())
    opt = updater.optimizer
    assert isinstance(opt, mx.optimizer.Adam) and opt.learning_rate == 0.01
    assert opt._index_update_count == {0: 2, 1: 2} and opt.num_update == 2
    hyper = dict(lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0, rescale_grad=1.0)
    for k in range(2):
        w, state = _replay(ref_adam, hyper, io, k)
        mean, var = updater.states[k]
        np.testing.assert_allclose(mean.asnumpy(), state["m"], rtol=1e-4, atol=1e-7)
        np.testing.assert_allclose(var.asnumpy(), state["v"], rtol=1e-4, atol=1e-9)
        weight = mx.nd.array(io["adam_dump_w%d" % k])
        grad = np.full(w.shape, -0.3)
        updater(k, mx.nd.array(grad), weight)
        np.testing.assert_allclose(weight.asnumpy(), ref_adam(w, grad, state, 3, hyper),
                                   rtol=1e-5, atol=1e-6)
