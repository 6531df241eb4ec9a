"""CTCLoss (+ gluon.loss.CTCLoss), SequenceLast/SequenceReverse, random_pdf_*,
_multi_(mp_)adamw_update, _multi_(mp_)lamb_update and the small utility operators (hard_sigmoid, cumsum, shape_array, size_array, _histogram, amp_cast,
amp_multicast, gradientmultiplier, round_ste, sign_ste, index_array, _onehot_encode).

Oracles: a brute-force sum over all alignments (NumPy), central finite differences of that
NumPy loss, and the real MXNet 1.9.1 (the same script is run under both libraries)."""
import os
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle  # noqa: E402
from optable.ctc_misc import ctc_brute_force, ctc_ref  # noqa: E402


# ---- CTCLoss against NumPy -----------------------------------------------------------------

@pytest.mark.parametrize("blank_label", ["first", "last"])
def test_ctc_loss_matches_brute_force_over_alignments(blank_label):
    rng = np.random.RandomState(3)
    steps, batch, classes = 5, 4, 4
    data = rng.randn(steps, batch, classes)
    if blank_label == "first":
        label = np.array([[1, 2, 0], [3, 3, 0], [2, 0, 0], [1, 2, 3]], dtype=np.float32)
    else:
        label = np.array([[0, 1, -1], [2, 2, -1], [1, -1, -1], [0, 1, 2]], dtype=np.float32)
    got = mx.nd.CTCLoss(mx.nd.array(data, dtype="float64"), mx.nd.array(label),
                        blank_label=blank_label).asnumpy()
    np.testing.assert_allclose(got, ctc_ref(data, label, blank_label=blank_label), rtol=1e-10)
    assert got.dtype == np.float64


def test_ctc_loss_lengths_and_infeasible_sequences():
    rng = np.random.RandomState(4)
    data = rng.randn(4, 3, 3)
    label = np.array([[1, 2, 2], [2, 1, 1], [1, 1, 1]], dtype=np.float32)
    data_len = np.array([4, 2, 4], dtype=np.float32)
    label_len = np.array([2, 1, 3], dtype=np.float32)
    got = mx.nd.CTCLoss(mx.nd.array(data), mx.nd.array(label), mx.nd.array(data_len),
                        mx.nd.array(label_len), use_data_lengths=True,
                        use_label_lengths=True).asnumpy()
    # Third sequence: 1,1,1 needs 5 steps but has 4 -> loss 0 (as MXNet 1.9.1).
    assert got[2] == 0
    np.testing.assert_allclose(got[:2], [ctc_brute_force(data[:4, 0], [1, 2], 0),
                                         ctc_brute_force(data[:2, 1], [2], 0)], rtol=1e-5)


def _numeric_grad(fn, x, eps=1e-6):
    grad = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        plus, minus = x.copy(), x.copy()
        plus[idx] += eps
        minus[idx] -= eps
        grad[idx] = (fn(plus) - fn(minus)) / (2 * eps)
    return grad


def test_ctc_loss_gradient_matches_finite_differences_of_brute_force():
    rng = np.random.RandomState(5)
    data = rng.randn(4, 2, 3)
    label = np.array([[1, 2], [2, 0]], dtype=np.float64)
    data_len = np.array([4, 3], dtype=np.float64)
    head = np.array([0.7, -1.3])
    x = mx.nd.array(data, dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        loss = mx.nd.CTCLoss(x, mx.nd.array(label, dtype="float64"),
                             mx.nd.array(data_len, dtype="float64"), use_data_lengths=True)
    loss.backward(mx.nd.array(head, dtype="float64"))

    def objective(d):
        return float(np.dot(head, ctc_ref(d, label, data_len, use_data_lengths=True)))
    np.testing.assert_allclose(x.grad.asnumpy(), _numeric_grad(objective, data), atol=1e-6)
    # Steps beyond a sequence's data length get no gradient.
    assert np.all(x.grad.asnumpy()[3, 1] == 0)


def test_ctc_loss_errors_name_the_problem():
    x = mx.nd.zeros((4, 2, 5))
    with pytest.raises(mx.base.MXNetError, match="batch size"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 2, 0]])).asnumpy()
    with pytest.raises(mx.base.MXNetError, match="3-D"):
        mx.nd.CTCLoss(mx.nd.zeros((4, 5)), mx.nd.array([[1, 2]])).asnumpy()
    with pytest.raises(ValueError, match=r"label\[0, 2\] = 9"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 2, 9], [1, 0, 0]])).asnumpy()
    with pytest.raises(ValueError, match="blank"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 4], [1, 2]]), blank_label="last").asnumpy()
    with pytest.raises(ValueError, match="data_lengths"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [1, 0]]), mx.nd.array([5, 1]),
                      use_data_lengths=True).asnumpy()
    with pytest.raises(mx.base.MXNetError, match="blank_label"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [1, 0]]), blank_label="middle")


def test_ctc_loss_aliases_and_symbol():
    rng = np.random.RandomState(6)
    data = mx.nd.array(rng.randn(3, 2, 4))
    label = mx.nd.array([[1, 2], [3, 0]])
    want = mx.nd.CTCLoss(data, label).asnumpy()
    for fn in (mx.nd.ctc_loss, mx.nd.contrib.CTCLoss, mx.nd.contrib.ctc_loss):
        np.testing.assert_array_equal(fn(data, label).asnumpy(), want)
    sym = mx.sym.CTCLoss(mx.sym.var("data"), mx.sym.var("label"),
                         label_lengths=mx.sym.var("ll"), use_label_lengths=True)
    assert sym.list_arguments() == ["data", "label", "ll"]
    arg_shapes, out_shapes, _ = sym.infer_shape(data=(3, 2, 4), label=(2, 2))
    assert out_shapes == [(2,)] and arg_shapes[2] == (2,)


# ---- Sequence ops against NumPy --------------------------------------------------------------

def test_sequence_last_and_reverse_gradients_route_back():
    x = mx.nd.array(np.arange(24).reshape(4, 3, 2))
    lens = mx.nd.array([2, 4, 1])
    x.attach_grad()
    head = np.random.RandomState(0).randn(3, 2)
    with mx.autograd.record():
        y = mx.nd.SequenceLast(x, lens, use_sequence_length=True)
    y.backward(mx.nd.array(head))
    want = np.zeros((4, 3, 2))
    for b, n in enumerate([2, 4, 1]):
        want[n - 1, b] = head[b]
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-6)
    head = np.random.RandomState(1).randn(4, 3, 2)
    with mx.autograd.record():
        y = mx.nd.SequenceReverse(x, lens, use_sequence_length=True)
    y.backward(mx.nd.array(head))
    want = head.copy()
    for b, n in enumerate([2, 4, 1]):
        want[:n, b] = head[:n, b][::-1]
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-6)


def test_sequence_op_errors():
    x = mx.nd.zeros((4, 3, 2))
    with pytest.raises(ValueError, match="sequence_length"):
        mx.nd.SequenceLast(x, mx.nd.array([0, 1, 2]), use_sequence_length=True).asnumpy()
    with pytest.raises(ValueError, match="sequence_length"):
        mx.nd.SequenceReverse(x, mx.nd.array([5, 1, 2]), use_sequence_length=True).asnumpy()
    with pytest.raises(mx.base.MXNetError, match="axis"):
        mx.nd.SequenceReverse(x, axis=1).asnumpy()
    with pytest.raises(mx.base.MXNetError, match="batch_size"):
        mx.nd.SequenceLast(x, mx.nd.array([1, 2]), use_sequence_length=True).asnumpy()


# ---- straight-through / gradient-scaling ops ------------------------------------------------

def test_straight_through_and_gradient_multiplier_backwards():
    x = mx.nd.array([-1.6, -0.5, 0.2, 2.5])
    x.attach_grad()
    for fn, want_out in ((mx.nd.contrib.round_ste, [-2, -1, 0, 3]),
                         (mx.nd.contrib.sign_ste, [-1, -1, 1, 1])):
        with mx.autograd.record():
            y = fn(x)
        y.backward(mx.nd.array([1, 2, 3, 4]))
        np.testing.assert_array_equal(y.asnumpy(), want_out)
        np.testing.assert_array_equal(x.grad.asnumpy(), [1, 2, 3, 4])
    with mx.autograd.record():
        y = mx.nd.contrib.gradientmultiplier(x, scalar=-0.5)
    y.backward(mx.nd.array([1, 2, 3, 4]))
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    np.testing.assert_allclose(x.grad.asnumpy(), [-0.5, -1, -1.5, -2])


def test_amp_cast_gradient_has_the_input_dtype():
    x = mx.nd.array([1.5, 2.25], dtype="float32")
    h = mx.nd.array([1, 2], dtype="float16")
    x.attach_grad()
    h.attach_grad()
    with mx.autograd.record():
        y = mx.nd.amp_cast(x, dtype="float16")
        a, b = mx.nd.amp_multicast(x, h, num_outputs=2)
        z = (a * b).sum() + y.astype("float32").sum()
    assert y.dtype == np.float16 and a.dtype == np.float32 and b.dtype == np.float32
    z.backward()
    assert x.grad.dtype == np.float32 and h.grad.dtype == np.float16
    np.testing.assert_allclose(x.grad.asnumpy(), [2, 3])
    np.testing.assert_allclose(h.grad.asnumpy(), [1.5, 2.25])


def test_histogram_validates_its_arguments():
    x = mx.nd.array([1, 2, 3])
    with pytest.raises(ValueError, match="increase"):
        mx.nd.histogram(x, bins=mx.nd.array([0, 2, 1]))[0].asnumpy()
    with pytest.raises(ValueError, match="bins argument"):
        mx.nd.histogram(x, bins=2.5)


# ---- against the real MXNet 1.9.1 ----------------------------------------------------------

_SCRIPT = r'''
import sys, warnings
import numpy as np
import mxnet as mx
warnings.simplefilter("ignore")
rng = np.random.RandomState(0)
out = {}
x = mx.nd.array(rng.randn(6, 3, 5))
labels_first = mx.nd.array([[1, 2, 2, 0], [3, 0, 0, 0], [4, 4, 1, 2]])
labels_last = mx.nd.array([[1, 2, 2, -1], [3, -1, -1, -1], [0, 0, 1, 2]])
for name, kw, args in [
        ("first", dict(), [labels_first]),
        ("last", dict(blank_label="last"), [labels_last]),
        ("dlen", dict(use_data_lengths=True), [labels_first, mx.nd.array([6, 3, 5])]),
        ("llen", dict(use_label_lengths=True), [labels_first, mx.nd.array([2, 1, 4])]),
        ("both", dict(use_data_lengths=True, use_label_lengths=True, blank_label="last"),
         [labels_last, mx.nd.array([5, 6, 6]), mx.nd.array([3, 1, 2])])]:
    xx = x.copy()
    xx.attach_grad()
    with mx.autograd.record():
        loss = mx.nd.CTCLoss(xx, *args, **kw)
    loss.backward(mx.nd.array([1.0, -2.0, 0.5]))
    out["ctc_" + name] = loss.asnumpy()
    out["ctc_grad_" + name] = xx.grad.asnumpy()
pred = mx.nd.array(rng.randn(2, 5, 4))
lab = mx.nd.array([[1, 0, -1], [2, 1, 1]])
out["gluon_ntc"] = mx.gluon.loss.CTCLoss()(pred, lab).asnumpy()
out["gluon_len"] = mx.gluon.loss.CTCLoss()(pred, lab, mx.nd.array([4, 5]),
                                           mx.nd.array([1, 3])).asnumpy()
out["gluon_tnc"] = mx.gluon.loss.CTCLoss(layout="TNC", label_layout="TN", weight=2.0)(
    pred.swapaxes(0, 1), lab.T).asnumpy()
blk = mx.gluon.loss.CTCLoss()
blk.hybridize()
out["gluon_hybrid"] = blk(pred, lab, None, None, mx.nd.array([0.5, 2])).asnumpy()
d = mx.nd.array(rng.randn(4, 3, 2))
lens = mx.nd.array([2, 4, 1.7])
out["last"] = mx.nd.SequenceLast(d).asnumpy()
out["last_len"] = mx.nd.SequenceLast(d, lens, use_sequence_length=True).asnumpy()
out["last_axis1"] = mx.nd.SequenceLast(d.reshape((3, 4, 2)), lens, use_sequence_length=True,
                                       axis=1).asnumpy()
out["rev"] = mx.nd.SequenceReverse(d).asnumpy()
out["rev_len"] = mx.nd.SequenceReverse(d, lens, use_sequence_length=True).asnumpy()
v = mx.nd.array(rng.uniform(-4, 4, size=(3, 4)))
out["hard_sigmoid"] = mx.nd.hard_sigmoid(v).asnumpy()
out["hard_sigmoid_ab"] = mx.nd.hard_sigmoid(v, alpha=0.5, beta=0.1).asnumpy()
vv = v.copy()
vv.attach_grad()
with mx.autograd.record():
    y = mx.nd.hard_sigmoid(vv, alpha=0.3)
y.backward()
out["hard_sigmoid_grad"] = vv.grad.asnumpy()
out["cumsum"] = mx.nd.cumsum(v).asnumpy()
out["cumsum_ax"] = mx.nd.cumsum(v, axis=1, dtype="float64").asnumpy()
out["cumsum_int"] = mx.nd.cumsum(v.astype("int32"), axis=0).asnumpy()
vv = v.copy()
vv.attach_grad()
with mx.autograd.record():
    y = mx.nd.cumsum(vv, axis=0)
y.backward(mx.nd.array(rng.randn(3, 4)))
out["cumsum_grad"] = vv.grad.asnumpy()
out["shape_array"] = mx.nd.shape_array(mx.nd.ones((2, 3, 4))).asnumpy()
out["size_array"] = mx.nd.size_array(mx.nd.ones((2, 3, 4))).asnumpy()
out["index_array"] = mx.nd.contrib.index_array(mx.nd.ones((2, 3, 2)), axes=(2, 0)).asnumpy()
out["onehot"] = mx.nd._internal._onehot_encode(mx.nd.array([1, 0, 3]),
                                               mx.nd.zeros((3, 4))).asnumpy()
out["round_ste"] = mx.nd.contrib.round_ste(mx.nd.array([-2.5, -0.5, 0.5, 1.5, 2.4])).asnumpy()
h, e = mx.nd.histogram(v, bins=5, range=(-3, 3))
out["hist"], out["hist_edges"] = h.asnumpy(), e.asnumpy()
h, e = mx.nd.histogram(v, bins=mx.nd.array([-4, -1, 0, 0.5, 4]))
out["hist_bins"], out["hist_bins_edges"] = h.asnumpy(), e.asnumpy()
out["amp_cast"] = mx.nd.amp_cast(v, dtype="float16").asnumpy()
a, b, c = mx.nd.amp_multicast(v.astype("float16"), v, v.astype("float64"), num_outputs=3)
out["multicast_dtypes"] = np.array([str(np.dtype(t.dtype)) for t in (a, b, c)])
pdf_cases = {
    "uniform": (rng.uniform(0, 1, (2, 3)), [np.zeros(2), np.full(2, 2.0)]),
    "normal": (rng.randn(2, 3), [rng.randn(2), rng.uniform(0.5, 2, 2)]),
    "gamma": (rng.uniform(0.2, 3, (2, 3)), [rng.uniform(0.5, 3, 2), rng.uniform(0.5, 2, 2)]),
    "exponential": (rng.uniform(0.2, 3, (2, 3)), [rng.uniform(0.5, 2, 2)]),
    "poisson": (rng.randint(0, 6, (2, 3)), [rng.uniform(0.5, 4, 2)]),
    "negative_binomial": (rng.randint(0, 6, (2, 3)), [rng.uniform(0.5, 4, 2),
                                                      rng.uniform(0.2, 0.8, 2)]),
    "generalized_negative_binomial": (rng.randint(0, 6, (2, 3)), [rng.uniform(0.5, 4, 2),
                                                                  rng.uniform(0.2, 1.5, 2)]),
}
raw = rng.uniform(0.1, 1, (2, 3, 4))
pdf_cases["dirichlet"] = (raw / raw.sum(-1, keepdims=True), [rng.uniform(0.5, 3, (2, 4))])
for kind, (sample, params) in sorted(pdf_cases.items()):
    for is_log in (False, True):
        arrays = [mx.nd.array(a) for a in [sample] + params]
        for a in arrays:
            a.attach_grad()
        with mx.autograd.record():
            y = getattr(mx.nd, "random_pdf_" + kind)(*arrays, is_log=is_log)
        y.backward(mx.nd.array(rng.uniform(-1, 1, y.shape)))
        key = "pdf_%s_%d" % (kind, is_log)
        out[key] = y.asnumpy()
        for i, a in enumerate(arrays):
            out[key + "_grad%d" % i] = a.grad.asnumpy()
ws = [mx.nd.array(rng.randn(3)), mx.nd.array(rng.randn(2, 2))]
gs = [mx.nd.array(rng.randn(3)), mx.nd.array(rng.randn(2, 2))]
ms = [mx.nd.zeros(3), mx.nd.zeros((2, 2))]
vs = [mx.nd.ones(3) * 0.1, mx.nd.ones((2, 2)) * 0.2]
mx.nd.contrib.multi_adamw_update(ws, gs, ms, vs, 0.5, lrs=[0.1, 0.2], wds=[0.0, 0.1],
                                 etas=[1.0, 0.7], clip_gradient=0.8, out=ws)
w16 = [w.astype("float16") for w in ws]
w32 = [w.copy() for w in ws]
mx.nd.contrib.multi_mp_adamw_update(w16, [g.astype("float16") for g in gs], ms, vs, w32,
                                    mx.nd.array([2.0]), lrs=[0.1, 0.2], wds=[0.0, 0.1],
                                    etas=[1.0, 0.7], out=w16, beta2=0.9)
for i, a in enumerate(ws + ms + vs + w16 + w32):
    out["multi_adamw_%d" % i] = a.asnumpy()
for j, kw in enumerate([dict(), dict(bias_correction=False, rescale_grad=0.5, clip_gradient=0.4),
                        dict(lower_bound=2.0, upper_bound=2.5, epsilon=1e-3)]):
    ws = [mx.nd.array(rng.randn(3)), mx.nd.array(rng.randn(2, 2))]
    gs = [mx.nd.array(rng.randn(3)), mx.nd.array(rng.randn(2, 2))]
    ms = [mx.nd.array(rng.randn(3) * 0.1), mx.nd.zeros((2, 2))]
    vs = [mx.nd.ones(3) * 0.1, mx.nd.ones((2, 2)) * 0.2]
    mx.nd.contrib.multi_lamb_update(ws, gs, ms, vs, step_count=[1, 3], lrs=[0.1, 0.2],
                                    wds=[0.0, 0.1], out=ws, **kw)
    w16 = [w.astype("float16") for w in ws]
    w32 = [w.copy() for w in ws]
    mx.nd.contrib.multi_mp_lamb_update(w16, [g.astype("float16") for g in gs], ms, vs, w32,
                                       step_count=[2, 5], lrs=[0.1, 0.2], wds=[0.01, 0.1],
                                       out=w16, **kw)
    for i, a in enumerate(ws + ms + vs + w32):
        out["multi_lamb_%d_%d" % (j, i)] = a.asnumpy()
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_outputs_and_gradients_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        ref, ours = mx191_oracle.run_script_under_both(_SCRIPT, tmp)
        assert sorted(ref.files) == sorted(ours.files)
        for key in ref.files:
            r, o = ref[key], ours[key]
            assert r.shape == o.shape and r.dtype == o.dtype, (key, r.dtype, o.dtype)
            if r.dtype.kind in "fc":
                # LAMB's trust ratio is a quotient of norms: float32 vs double accumulation
                # moves the updated weights by ~1e-4 relative.
                tol = dict(rtol=1e-3, atol=1e-4) if key.startswith("multi_lamb") else \
                    dict(rtol=1e-4, atol=1e-5)
                np.testing.assert_allclose(o, r, err_msg=key, **tol)
            else:
                np.testing.assert_array_equal(o, r, err_msg=key)


def test_pdf_shape_errors_name_the_shapes():
    with pytest.raises(ValueError, match=r"sample shape \[3,4\]"):
        mx.nd.random_pdf_normal(mx.nd.ones((3, 4)), mx.nd.zeros((2,)), mx.nd.ones((2,)))
    with pytest.raises(ValueError, match="same shape"):
        mx.nd.random_pdf_gamma(mx.nd.ones((2, 4)), mx.nd.ones((2,)), mx.nd.ones((3,)))
    with pytest.raises(ValueError, match="categories"):
        mx.nd.random_pdf_dirichlet(mx.nd.ones((2, 5, 3)), mx.nd.ones((2, 4)))
    # One density per parameter set and sample: (2,) params, (2, 5) samples.
    got = mx.nd.random_pdf_exponential(mx.nd.ones((2, 5)), mx.nd.array([1.0, 2.0]))
    np.testing.assert_allclose(got.asnumpy(), np.repeat([[np.exp(-1)], [2 * np.exp(-2)]], 5, 1),
                               rtol=1e-6)


def test_gluon_ctc_loss_hybridized_gives_the_same_loss_and_gradient():
    rng = np.random.RandomState(0)
    pred = mx.nd.array(rng.randn(2, 6, 5))
    label = mx.nd.array([[1, 2, -1], [0, 0, 3]])
    results = []
    for hybridize in (False, True):
        loss_fn = mx.gluon.loss.CTCLoss()
        if hybridize:
            loss_fn.hybridize()
        p = pred.copy()
        p.attach_grad()
        with mx.autograd.record():
            loss = loss_fn(p, label, mx.nd.array([5, 6]))
        loss.backward()
        results.append((loss.asnumpy(), p.grad.asnumpy()))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-6)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-6, atol=1e-7)
    # The first sequence has 5 of 6 steps: its last step gets no gradient (layout NTC).
    assert np.all(results[0][1][0, 5] == 0)
    want = [ctc_brute_force(pred.asnumpy()[0, :5], [1, 2], 4),
            ctc_brute_force(pred.asnumpy()[1], [0, 0, 3], 4)]
    np.testing.assert_allclose(results[0][0], want, rtol=1e-5)
