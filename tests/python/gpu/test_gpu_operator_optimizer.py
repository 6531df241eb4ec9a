"""The optimizer helpers and updates whose GPU kernels keep their scalars on the device
(all_finite, multi_all_finite, multi_sum_sq, multi_lars, reset_arrays, the AdamW and
multi-LAMB updates, preloaded_multi_*sgd*) against NumPy: more arrays than one kernel launch
takes (batches of 48), arrays larger than one pass of the partial-sum blocks (128 x 256
elements), a skipped AdamW step whose rescale_grad lives on the device, and a loss-scaled
training loop. The operator table (test_gpu_operator_table.py) checks small cases of each
against the CPU."""
import os
import sys

import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "unittest"))
from optable.optimizer import adamw_ref, lamb1_ref, lamb2_ref  # noqa: E402

BIG = 128 * 256 * 3 + 17  # several grid-stride passes of every partial-sum block


def _nd(a):
    return mx.nd.array(a, ctx=DEV, dtype=a.dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_multi_sum_sq_of_many_and_large_arrays(dtype):
    rng = np.random.RandomState(0)
    shapes = [(rng.randint(1, 40),) for _ in range(57)] + [(0,), (BIG,), (3, 0), (300, 7)]
    arrays = [rng.uniform(-1, 1, s).astype(dtype) for s in shapes]
    out = mx.nd.multi_sum_sq(*[_nd(a) for a in arrays], num_arrays=len(arrays))
    want = [np.sum(a.astype(np.float64) ** 2) for a in arrays]
    assert out.shape == (len(arrays),) and out.dtype == np.float32
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)
    # Summed in a fixed order: the same bits every time.
    again = mx.nd.multi_sum_sq(*[_nd(a) for a in arrays], num_arrays=len(arrays))
    assert np.array_equal(again.asnumpy(), out.asnumpy())


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("where", [0, 49, 60])
def test_multi_all_finite_finds_one_bad_value_among_many_arrays(bad, where):
    rng = np.random.RandomState(1)
    arrays = [rng.uniform(-1, 1, (rng.randint(1, 30),)).astype("float32") for _ in range(60)]
    arrays.append(rng.uniform(-1, 1, (BIG,)).astype("float16"))
    arrays.append(np.arange(5, dtype="int32"))  # integers are finite
    nds = [_nd(a) for a in arrays]
    ok = mx.nd.multi_all_finite(*nds, num_arrays=len(nds))
    assert ok.asnumpy().tolist() == [1.0]
    arrays[where][-1] = bad
    nds[where] = _nd(arrays[where])
    assert mx.nd.multi_all_finite(*nds, num_arrays=len(nds)).asnumpy().tolist() == [0.0]
    assert mx.nd.all_finite(nds[where]).asnumpy().tolist() == [0.0]


def test_all_finite_without_init_keeps_an_earlier_overflow():
    flag = mx.nd.zeros((1,), ctx=DEV)
    good = _nd(np.ones(10, dtype="float32"))
    mx.nd.all_finite(good, init_output=False, out=flag)
    assert flag.asnumpy().tolist() == [0.0]
    flag[:] = 1
    mx.nd.multi_all_finite(good, good, num_arrays=2, init_output=False, out=flag)
    assert flag.asnumpy().tolist() == [1.0]


def test_reset_arrays_zeroes_in_place_on_the_device():
    arrays = [_nd(np.full(s, 3, dtype=t)) for s, t in [((4, 5), "float32"), ((BIG,), "float16"),
                                                        ((0,), "float32"), ((3,), "int64")]]
    mx.nd.reset_arrays(*arrays, num_arrays=len(arrays))
    for a in arrays:
        assert not a.asnumpy().any()


def test_multi_lars_matches_numpy():
    lrs = np.array([0.1, 0.2, 0.3, 0.4], dtype="float32")
    wss = np.array([4.0, 0.0, 9.0, 1.0], dtype="float32")
    gss = np.array([1.0, 1.0, 0.0, 16.0], dtype="float32")
    wds = np.array([0.01, 0.0, 0.1, 0.001], dtype="float32")
    out = mx.nd.multi_lars(*[_nd(a) for a in (lrs, wss, gss, wds)], eta=0.5, eps=1e-3,
                           rescale_grad=0.5)
    w, g = np.sqrt(wss.astype(np.float64)), np.sqrt(gss.astype(np.float64)) * 0.5
    want = np.where((w > 0) & (g > 0), lrs * 0.5 * w / (g + wds * w + 1e-3), lrs)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)


@pytest.mark.parametrize("rescale", [0.5, np.nan, np.inf, 0.0])
@pytest.mark.parametrize("mp", [False, True])
def test_adamw_reads_rescale_grad_on_the_device(rescale, mp):
    rng = np.random.RandomState(2)
    dtype = "float16" if mp else "float32"
    n = BIG
    w = rng.uniform(-1, 1, n).astype(dtype)
    g = rng.uniform(-1, 1, n).astype(dtype)
    m = rng.uniform(-0.1, 0.1, n).astype("float32")
    v = rng.uniform(0, 0.1, n).astype("float32")
    kw = dict(lr=0.01, eta=0.5, wd=0.1, clip_gradient=0.4)
    arrs = [w, g, m.astype(dtype if not mp else "float32"), v] + ([w.astype("float32")] if mp else [])
    nds = [_nd(a) for a in arrs]
    scale = _nd(np.array([rescale], dtype="float32"))
    op = mx.nd._internal._mp_adamw_update if mp else mx.nd._internal._adamw_update
    op(*nds, scale, out=nds[0], **kw)  # in place, as the optimizer calls it
    want = adamw_ref(w, g, arrs[2], v, np.array([rescale]), **kw)
    tol = 1e-3 if mp else 1e-5
    np.testing.assert_allclose(nds[0].asnumpy().astype(np.float64), want, rtol=tol, atol=tol)
    if not np.isfinite(rescale) or rescale == 0:  # skipped: the states are untouched too
        assert np.array_equal(nds[2].asnumpy(), arrs[2])
        assert np.array_equal(nds[3].asnumpy(), v)


def test_multi_adamw_many_weights():
    rng = np.random.RandomState(3)
    shapes = [(5, 3), (BIG,), (7,)]
    flat, groups = [], []
    for s in shapes:
        grp = [rng.uniform(-1, 1, s).astype("float32"), rng.uniform(-1, 1, s).astype("float32"),
               rng.uniform(-0.1, 0.1, s).astype("float32"), rng.uniform(0, 0.1, s).astype("float32")]
        groups.append(grp)
        flat += grp
    lrs, wds, etas = (0.01, 0.02, 0.03), (0.0, 0.1, 0.2), (1.0, 0.5, 0.25)
    nds = [_nd(a) for a in flat]
    mx.nd._internal._multi_adamw_update(*nds, _nd(np.array([2.0], dtype="float32")),
                                        out=[nds[4 * i] for i in range(3)], lrs=lrs, wds=wds,
                                        etas=etas, num_weights=3)
    for i, (w, g, m, v) in enumerate(groups):
        want = adamw_ref(w, g, m, v, np.array([2.0]), lr=lrs[i], eta=etas[i], wd=wds[i])
        np.testing.assert_allclose(nds[4 * i].asnumpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mp", [False, True])
def test_multi_lamb_large_tensor_matches_numpy(mp):
    rng = np.random.RandomState(4)
    dtype = "float16" if mp else "float32"
    shapes = [(BIG,), (6, 5)]
    flat, groups = [], []
    for s in shapes:
        w = rng.uniform(-1, 1, s).astype(dtype)
        grp = [w, rng.uniform(-1, 1, s).astype(dtype), rng.uniform(-0.1, 0.1, s).astype("float32"
               if mp else dtype), rng.uniform(0, 0.1, s).astype("float32" if mp else dtype)]
        if mp:
            grp.append(w.astype("float32"))
        groups.append(grp)
        flat += grp
    kw = dict(learning_rates=(0.01, 0.05), wds=(0.1, 0.0), step_count=(3, 1), num_tensors=2,
              upper_bound=20.0)
    nds = [_nd(a) for a in flat]
    per = len(groups[0])
    op = mx.nd._internal._multi_mp_lamb_update if mp else mx.nd._internal._multi_lamb_update
    outs = op(*nds, **kw)
    for i, grp in enumerate(groups):
        w, g, m, v = grp[:4]
        master = grp[4] if mp else w
        r = lamb1_ref(master, g, m, v, t=kw["step_count"][i], wd=kw["wds"][i])
        w64 = master.astype(np.float64)
        r1 = np.array([np.sqrt(np.sum(w64 ** 2))])
        r2 = np.array([np.sqrt(np.sum(r ** 2))])
        want = lamb2_ref(w64, r, r1, r2, lr=kw["learning_rates"][i], upper_bound=20.0)
        tol = 2e-3 if mp else 1e-5
        np.testing.assert_allclose(outs[i].asnumpy().astype(np.float64), want, rtol=tol, atol=tol)
        if mp:  # the master copy is updated in place
            np.testing.assert_allclose(nds[i * per + 4].asnumpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mom", [False, True])
def test_preloaded_multi_sgd_reads_rates_from_device_arrays(mom):
    rng = np.random.RandomState(5)
    shapes = [(BIG,), (4, 3)]
    weights = [rng.uniform(-1, 1, s).astype("float32") for s in shapes]
    grads = [rng.uniform(-1, 1, s).astype("float32") for s in shapes]
    moms = [np.zeros(s, dtype="float32") for s in shapes]
    nds = []
    for i in range(2):
        nds += [_nd(weights[i]), _nd(grads[i])] + ([_nd(moms[i])] if mom else [])
    per = 3 if mom else 2
    lrs, wds = _nd(np.array([0.1, 0.2], dtype="float32")), _nd(np.array([0.0, 0.05], dtype="float32"))
    op = mx.nd.preloaded_multi_sgd_mom_update if mom else mx.nd.preloaded_multi_sgd_update
    kw = dict(num_weights=2, rescale_grad=0.5, **(dict(momentum=0.9) if mom else {}))
    want_w = [w.astype(np.float64) for w in weights]
    want_m = [np.zeros(s) for s in shapes]
    for step, lr_scale in enumerate([1.0, 0.5]):  # new rates without new attributes
        lrs[:] = lrs * lr_scale
        op(*nds, lrs, wds, out=[nds[i * per] for i in range(2)], **kw)
        lr_now = np.array([0.1, 0.2]) * (0.5 if step else 1.0)
        for i in range(2):
            g = 0.5 * grads[i].astype(np.float64)
            wd = [0.0, 0.05][i]
            if mom:
                want_m[i] = 0.9 * want_m[i] - lr_now[i] * wd * want_w[i] - lr_now[i] * g
                want_w[i] = want_w[i] + want_m[i]
            else:
                want_w[i] = (1 - lr_now[i] * wd) * want_w[i] - lr_now[i] * g
    for i in range(2):
        np.testing.assert_allclose(nds[i * per].asnumpy(), want_w[i], rtol=1e-5, atol=1e-6)


def test_loss_scaled_training_skips_the_overflowing_step():
    """AMP's protocol on the device: check the gradients, skip the step on an overflow."""
    from mxnet import autograd, gluon
    mx.random.seed(3)
    net = gluon.nn.Dense(4, in_units=6)
    net.initialize(mx.init.Xavier(), ctx=DEV)
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.01})
    x = _nd(np.random.RandomState(6).uniform(-1, 1, (8, 6)).astype("float32"))
    before = [p.data().asnumpy() for p in net.collect_params().values()]
    for scale, expect_step in [(np.inf, False), (1.0, True)]:
        with autograd.record():
            loss = (net(x) * scale).sum()
        loss.backward()
        grads = [p.grad() for p in net.collect_params().values()]
        finite = mx.nd.multi_all_finite(*grads, num_arrays=len(grads))
        if finite.asscalar() == 1:
            trainer.step(8)
        changed = any(not np.array_equal(p.data().asnumpy(), b)
                      for p, b in zip(net.collect_params().values(), before))
        assert changed == expect_step, scale
