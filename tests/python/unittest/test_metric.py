"""mx.metric: every metric against NumPy / hand-computed values, local vs global
accumulators, composite metrics, create() from names, lists and callables, and (when the
MXNet 1.9.1 venv exists) the same metric values from the real MXNet."""
import math
import os
import tempfile

import numpy as np
import pytest

import mxnet as mx

from mx191_oracle import HAVE_MX191, SKIP_REASON, check_reference, run

nd = mx.nd


def _probs(rng, n, k):
    p = rng.uniform(0.01, 1, (n, k))
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


def test_accuracy_argmax_and_label_shaped_preds():
    m = mx.metric.Accuracy()
    pred = nd.array([[0.3, 0.7], [0.9, 0.1], [0.2, 0.8], [0.6, 0.4]])
    label = nd.array([1, 1, 1, 0])
    m.update([label], [pred])
    assert m.get() == ("accuracy", 0.75)
    # Predictions with the label's shape are compared directly (after the int cast).
    m.update([nd.array([1, 2, 3])], [nd.array([1, 2, 0])])
    assert m.get()[1] == pytest.approx(5 / 7.0)
    m.reset_local()
    assert math.isnan(m.get()[1])
    assert m.get_global()[1] == pytest.approx(5 / 7.0)
    m.reset()
    assert math.isnan(m.get_global()[1])


def test_accuracy_axis_and_numpy_inputs():
    rng = np.random.RandomState(0)
    pred = rng.uniform(size=(4, 5, 3)).astype(np.float32)   # classes on axis 2
    label = rng.randint(0, 3, size=(4, 5))
    m = mx.metric.create("acc", axis=2)
    m.update([label], [pred])
    assert m.get()[1] == pytest.approx((pred.argmax(axis=2) == label).mean())
    with pytest.raises(ValueError):
        m.update([nd.array([1, 2])], [nd.array([[1, 0]]), nd.array([[0, 1]])])


def test_top_k_accuracy():
    rng = np.random.RandomState(1)
    pred = rng.uniform(size=(50, 10)).astype(np.float32)
    label = rng.randint(0, 10, size=(50,))
    m = mx.metric.TopKAccuracy(top_k=3)
    m.update([nd.array(label)], [nd.array(pred)])
    top3 = np.argsort(-pred, axis=1)[:, :3]
    expected = np.mean([label[i] in top3[i] for i in range(50)])
    assert m.get() == ("top_k_accuracy_3", pytest.approx(expected))
    with pytest.raises(ValueError):
        mx.metric.TopKAccuracy(top_k=1)
    assert isinstance(mx.metric.create("top_k_acc", top_k=2), mx.metric.TopKAccuracy)


def _confusion(pred, label):
    p = pred.argmax(axis=1)
    tp = int(((p == 1) & (label == 1)).sum())
    fp = int(((p == 1) & (label == 0)).sum())
    fn = int(((p == 0) & (label == 1)).sum())
    tn = int(((p == 0) & (label == 0)).sum())
    return tp, fp, fn, tn


def _f1(tp, fp, fn, tn):
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return 2 * prec * rec / (prec + rec) if prec + rec else 0.0


def _mcc(tp, fp, fn, tn):
    den = 1.0
    for t in (tp + fp, tp + fn, tn + fp, tn + fn):
        if t:
            den *= t
    return (tp * tn - fp * fn) / math.sqrt(den)


@pytest.mark.parametrize("cls,ref,name", [(mx.metric.F1, _f1, "f1"),
                                          (mx.metric.MCC, _mcc, "mcc")])
def test_f1_mcc_macro_and_micro(cls, ref, name):
    rng = np.random.RandomState(2)
    batches = [(_probs(rng, 20, 2), rng.randint(0, 2, 20)) for _ in range(3)]
    macro, micro = cls(average="macro"), cls(average="micro")
    for p, l in batches:
        macro.update([nd.array(l)], [nd.array(p)])
        micro.update([nd.array(l)], [nd.array(p)])
    per_batch = [ref(*_confusion(p, l)) for p, l in batches]
    assert macro.get() == (name, pytest.approx(np.mean(per_batch)))
    all_p = np.concatenate([p for p, _ in batches])
    all_l = np.concatenate([l for _, l in batches])
    assert micro.get() == (name, pytest.approx(ref(*_confusion(all_p, all_l))))
    with pytest.raises(ValueError, match="binary"):
        cls().update([nd.array([0, 1, 2])], [nd.array(_probs(rng, 3, 3))])


def test_f1_hand_computed():
    # preds: 1, 1, 0, 0, 1 ; labels: 1, 0, 1, 0, 1 -> tp 2, fp 1, fn 1 -> P = R = F1 = 2/3
    pred = nd.array([[0, 1], [0, 1], [1, 0], [1, 0], [0, 1]])
    m = mx.metric.F1()
    m.update([nd.array([1, 0, 1, 0, 1])], [pred])
    assert m.get()[1] == pytest.approx(2 / 3.0)


def test_perplexity_with_ignore_label():
    rng = np.random.RandomState(3)
    pred = _probs(rng, 12, 5)
    label = rng.randint(0, 5, 12)
    label[[2, 7]] = 0
    m = mx.metric.Perplexity(ignore_label=0)
    m.update([nd.array(label)], [nd.array(pred)])
    keep = label != 0
    expected = math.exp(-np.log(pred[np.arange(12), label][keep]).mean())
    assert m.get() == ("perplexity", pytest.approx(expected, rel=1e-5))
    m2 = mx.metric.Perplexity(ignore_label=None)
    m2.update([nd.array(label)], [nd.array(pred)])
    assert m2.get()[1] == pytest.approx(math.exp(-np.log(pred[np.arange(12), label]).mean()),
                                        rel=1e-5)
    # Sequence shape: (batch, time, vocab) with labels (batch, time).
    pred3 = _probs(rng, 6, 4).reshape(2, 3, 4)
    lab3 = rng.randint(0, 4, (2, 3))
    m3 = mx.metric.Perplexity(ignore_label=None)
    m3.update([nd.array(lab3)], [nd.array(pred3)])
    picked = np.take_along_axis(pred3, lab3[..., None], axis=-1)
    assert m3.get()[1] == pytest.approx(math.exp(-np.log(picked).mean()), rel=1e-5)


def test_regression_metrics_average_per_batch():
    rng = np.random.RandomState(4)
    batches = [(rng.uniform(size=(6,)), rng.uniform(size=(6, 1))) for _ in range(2)]
    mae, mse, rmse = mx.metric.MAE(), mx.metric.MSE(), mx.metric.RMSE()
    for label, pred in batches:
        for m in (mae, mse, rmse):
            m.update([nd.array(label)], [nd.array(pred)])
    d = [label.reshape(-1, 1) - pred for label, pred in batches]
    assert mae.get()[1] == pytest.approx(np.mean([np.abs(x).mean() for x in d]), rel=1e-5)
    assert mse.get()[1] == pytest.approx(np.mean([(x ** 2).mean() for x in d]), rel=1e-5)
    assert rmse.get()[1] == pytest.approx(np.mean([np.sqrt((x ** 2).mean()) for x in d]),
                                          rel=1e-5)


@pytest.mark.parametrize("name,cls,display", [("ce", mx.metric.CrossEntropy, "cross-entropy"),
                                              ("nll_loss", mx.metric.NegativeLogLikelihood,
                                               "nll-loss")])
def test_cross_entropy_and_nll(name, cls, display):
    rng = np.random.RandomState(5)
    pred = _probs(rng, 10, 4)
    label = rng.randint(0, 4, 10)
    m = mx.metric.create(name)
    assert isinstance(m, cls)
    m.update([nd.array(label)], [nd.array(pred)])
    expected = -np.log(pred[np.arange(10), label] + 1e-12).mean()
    assert m.get() == (display, pytest.approx(expected, rel=1e-5))


def test_pearson_macro_micro():
    rng = np.random.RandomState(6)
    batches = [(rng.uniform(size=(30,)), rng.uniform(size=(30,))) for _ in range(3)]
    macro = mx.metric.create("pearsonr")
    micro = mx.metric.PearsonCorrelation(average="micro")
    for l, p in batches:
        macro.update([nd.array(l)], [nd.array(p)])
        micro.update([nd.array(l)], [nd.array(p)])
    per = [np.corrcoef(p, l)[0, 1] for l, p in batches]
    assert macro.get()[1] == pytest.approx(np.mean(per), rel=1e-5)
    all_l = np.concatenate([l for l, _ in batches])
    all_p = np.concatenate([p for _, p in batches])
    assert micro.get()[1] == pytest.approx(np.corrcoef(all_p, all_l)[0, 1], rel=1e-4)


def test_pcc_matches_mcc_for_binary_and_multiclass_formula():
    rng = np.random.RandomState(7)
    pred = _probs(rng, 40, 2)
    label = rng.randint(0, 2, 40)
    pcc, mcc = mx.metric.PCC(), mx.metric.MCC()
    pcc.update([nd.array(label)], [nd.array(pred)])
    mcc.update([nd.array(label)], [nd.array(pred)])
    assert pcc.get()[1] == pytest.approx(mcc.get()[1], rel=1e-6)
    # Multi-class: Gorodkin's R_K from the confusion matrix, grown to 4 classes.
    pred4 = _probs(rng, 60, 4)
    lab4 = rng.randint(0, 4, 60)
    m = mx.metric.PCC()
    m.update([nd.array(lab4)], [nd.array(pred4)])
    c = np.zeros((4, 4))
    for i, j in zip(pred4.argmax(axis=1), lab4):
        c[i, j] += 1
    n, x, y = c.sum(), c.sum(axis=1), c.sum(axis=0)
    expected = (np.trace(c) * n - (x * y).sum()) / math.sqrt((n * n - (x * x).sum()) *
                                                            (n * n - (y * y).sum()))
    assert m.get()[1] == pytest.approx(expected, rel=1e-6)


def test_loss_custom_np():
    m = mx.metric.Loss()
    m.update(None, [nd.array([1.0, 2.0, 3.0])])
    m.update(None, nd.array([4.0]))
    assert m.get() == ("loss", 2.5)

    def mean_abs(label, pred):
        return np.abs(label - pred).mean()
    c = mx.metric.np(mean_abs)
    c.update([nd.array([1, 2])], [nd.array([2, 2])])
    assert c.get() == ("mean_abs", 0.5)

    def with_count(label, pred):
        return (float((label == pred).sum()), label.size)
    c2 = mx.metric.create(with_count)
    c2.update([nd.array([1, 2, 3, 4])], [nd.array([1, 0, 3, 0])])
    assert c2.get() == ("with_count", 0.5)
    lam = mx.metric.CustomMetric(lambda l, p: 1.0)
    assert lam.name == "custom(<lambda>)"
    with pytest.raises(NotImplementedError):
        lam.get_config()


def test_composite_and_create_from_list():
    m = mx.metric.create(["acc", "ce"])
    assert isinstance(m, mx.metric.CompositeEvalMetric)
    pred = nd.array([[0.2, 0.8], [0.6, 0.4]])
    m.update([nd.array([1, 1])], [pred])
    names, values = m.get()
    assert names == ["accuracy", "cross-entropy"]
    assert values[0] == 0.5
    assert values[1] == pytest.approx(-(math.log(0.8) + math.log(0.4)) / 2, rel=1e-5)
    assert m.get_name_value() == list(zip(names, values))
    m.add(mx.metric.MAE())
    assert isinstance(m.get_metric(2), mx.metric.MAE)
    with pytest.raises(ValueError, match="out of range"):
        m.get_metric(7)


def test_update_dict_selects_names():
    m = mx.metric.Accuracy(output_names=["out2"], label_names=["lab"])
    preds = {"out1": nd.array([[1, 0], [1, 0]]), "out2": nd.array([[0, 1], [0, 1]])}
    m.update_dict({"lab": nd.array([1, 1]), "other": nd.array([0, 0])}, preds)
    assert m.get()[1] == 1.0


def test_get_config_and_create_round_trip():
    m = mx.metric.TopKAccuracy(top_k=4)
    cfg = m.get_config()
    assert cfg["metric"] == "TopKAccuracy" and cfg["top_k"] == 4
    again = mx.metric.create(cfg["metric"], top_k=cfg["top_k"])
    assert again.name == m.name
    for name in ("acc", "accuracy", "f1", "mcc", "mae", "mse", "rmse",
                 "ce", "crossentropy", "nll_loss", "negativeloglikelihood", "pearsonr",
                 "pearsoncorrelation", "pcc", "loss", "torch", "caffe", "composite"):
        mx.metric.create(name)
    assert isinstance(mx.metric.create("perplexity", ignore_label=None), mx.metric.Perplexity)
    with pytest.raises(ValueError, match="Cannot find metric"):
        mx.metric.create("nope")


_SCRIPT = r"""
import sys, numpy as np, mxnet as mx
rng = np.random.RandomState(9)
out = {}
def probs(n, k):
    p = rng.uniform(0.01, 1, (n, k)); return (p / p.sum(1, keepdims=True)).astype('float32')
batches = [(rng.randint(0, 2, 16).astype('float32'), probs(16, 2)) for _ in range(3)]
for name, kw in [('acc', {}), ('f1', {}), ('f1', {'average': 'micro'}), ('mcc', {}),
                 ('mcc', {'average': 'micro'}), ('ce', {}), ('nll_loss', {}), ('mae', {}),
                 ('mse', {}), ('rmse', {}), ('pcc', {}), ('perplexity', {'ignore_label': 1}),
                 ('top_k_accuracy', {'top_k': 2})]:
    m = mx.metric.create(name, **kw)
    for l, p in batches:
        if name in ('mae', 'mse', 'rmse'):
            m.update([mx.nd.array(l)], [mx.nd.array(p[:, 1])])
        else:
            m.update([mx.nd.array(l)], [mx.nd.array(p)])
    out[name + str(sorted(kw.items()))] = [m.get()[1], m.get_global()[1]]
print(repr(out))
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_values_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "m.py")
        with open(script, "w") as f:
            f.write(_SCRIPT)
        check_reference()
        ref = eval(run([script], ours=False, output=True).decode())  # pylint: disable=eval-used
        ours = eval(run([script], ours=True, output=True).decode())  # pylint: disable=eval-used
    assert sorted(ref) == sorted(ours)
    for key in ref:
        np.testing.assert_allclose(ours[key], ref[key], rtol=1e-5, err_msg=key)
