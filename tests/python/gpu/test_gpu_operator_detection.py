"""Detection operators on the device under test against the CPU: box_iou, box_encode,
box_decode and MultiBoxPrior against the float64 CPU reference; the ones that sort, suppress
or match (box_nms and its gradient, bipartite_matching, MultiBoxTarget, MultiBoxDetection,
Proposal, MultiProposal) against the CPU in the same dtype, where the order and tie-breaking
must be the same, plus NumPy references for box_nms and bipartite_matching."""
import os
import sys

import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, TOL, check_fn

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "unittest"))
from optable import detection as ref  # noqa: E402

EXACT_DTYPES = [np.float32, np.float64]


def _boxes(rng, shape, dtype, lo=0.0, hi=1.0):
    """Corner boxes (..., 4) with x1 < x2, y1 < y2 inside [lo, hi]."""
    a = rng.uniform(lo, hi, shape[:-1] + (2,))
    b = rng.uniform(lo, hi, shape[:-1] + (2,))
    return np.concatenate([np.minimum(a, b), np.maximum(a, b) + 0.01], axis=-1).astype(dtype)


def _run(fn, arrays, ctx, grad=False):
    """fn(*NDArrays) on ctx: its outputs and, with grad, the first input's gradient for a
    linspace head on the first output."""
    nds = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in arrays]
    if grad:
        nds[0].attach_grad()
        with mx.autograd.record():
            outs = fn(*nds)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        head = mx.nd.array(np.linspace(-1, 1, outs[0].size).reshape(outs[0].shape), ctx=ctx,
                           dtype=outs[0].dtype)
        outs[0].backward(head)
        return [o.asnumpy() for o in outs] + [nds[0].grad.asnumpy()]
    outs = fn(*nds)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return [o.asnumpy() for o in outs]


def _same_as_cpu(fn, arrays, name, grad=False, rtol=1e-6, atol=1e-6):
    """fn on DEV against fn on the CPU, same dtype: the same rows in the same order."""
    want = _run(fn, arrays, mx.cpu(), grad)
    got = _run(fn, arrays, DEV, grad)
    assert len(got) == len(want), name
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape, "%s output %d" % (name, i)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg="%s output %d" % (name, i))
    return got


# ---- element-wise ops: float64 CPU reference --------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["corner", "center"])
def test_box_iou(dtype, fmt):
    rng = np.random.RandomState(0)
    lhs, rhs = _boxes(rng, (2, 5, 4), dtype), _boxes(rng, (7, 4), dtype)
    check_fn(lambda l, r: mx.nd.contrib.box_iou(l, r, format=fmt), [lhs, rhs], dtype, True,
             "box_iou %s" % fmt)


@pytest.mark.parametrize("dtype", DTYPES)
def test_box_encode(dtype):
    rng = np.random.RandomState(1)
    samples = rng.choice([-1.0, 0.0, 1.0], size=(2, 9)).astype(dtype)
    matches = rng.randint(-1, 4, size=(2, 9)).astype(dtype)
    anchors, refs = _boxes(rng, (2, 9, 4), dtype), _boxes(rng, (2, 4, 4), dtype)
    means = np.array([0.0, 0.1, -0.1, 0.05], dtype)
    stds = np.array([0.1, 0.1, 0.2, 0.2], dtype)
    tol = (5e-2, 5e-2) if dtype == np.float16 else TOL[dtype]
    check_fn(lambda *x: mx.nd.concat(*mx.nd.contrib.box_encode(*x), dim=2),
             [samples, matches, anchors, refs, means, stds], dtype, False, "box_encode", tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt,clip", [("center", -1.0), ("corner", 0.3)])
def test_box_decode(dtype, fmt, clip):
    rng = np.random.RandomState(2)
    data = (rng.normal(size=(3, 8, 4)) * 0.5).astype(dtype)
    anchors = _boxes(rng, (1, 8, 4), dtype)
    tol = (2e-2, 2e-2) if dtype == np.float16 else TOL[dtype]
    check_fn(lambda d, a: mx.nd.contrib.box_decode(d, a, std0=0.1, std1=0.1, std2=0.2, std3=0.2,
                                                   clip=clip, format=fmt),
             [data, anchors], dtype, True, "box_decode %s" % fmt, tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kwargs", [dict(sizes=(0.5, 0.25), ratios=(1, 2, 0.5)),
                                    dict(sizes=(0.9,), ratios=(1, 3), clip=True,
                                         steps=(0.2, 0.1), offsets=(0.3, 0.6))])
def test_multibox_prior(dtype, kwargs):
    data = np.zeros((2, 3, 5, 7), dtype)
    check_fn(lambda d: mx.nd.contrib.MultiBoxPrior(d, **kwargs), [data], dtype, True,
             "MultiBoxPrior %s" % kwargs)


# ---- box_nms ----------------------------------------------------------------------------

def _nms_data(rng, shape, dtype, classes=3, ties=False):
    ids = rng.randint(0, classes, size=shape[:-1] + (1,)).astype(np.float64)
    scores = rng.uniform(0, 1, size=shape[:-1] + (1,))
    if ties:  # many equal scores: the order among them is the stable (input) order
        scores = np.round(scores * 4) / 4
    boxes = _boxes(rng, shape[:-1] + (4,), np.float64)
    extra = rng.uniform(-1, 1, size=shape[:-1] + (shape[-1] - 6,))
    return np.concatenate([ids, scores, boxes, extra], axis=-1).astype(dtype)


NMS_CASES = [dict(),
             dict(overlap_thresh=0.3, valid_thresh=0.2, topk=7, id_index=0),
             dict(overlap_thresh=0.1, id_index=0, background_id=1, force_suppress=True),
             dict(overlap_thresh=0.4, id_index=0, in_format="center", out_format="corner"),
             dict(overlap_thresh=0.4, in_format="corner", out_format="center", topk=20)]


@pytest.mark.parametrize("dtype", EXACT_DTYPES)
@pytest.mark.parametrize("case", range(len(NMS_CASES)))
def test_box_nms_and_gradient(dtype, case):
    kwargs = NMS_CASES[case]
    rng = np.random.RandomState(case)
    data = _nms_data(rng, (2, 3, 40, 7), dtype, ties=case % 2 == 1)
    got = _same_as_cpu(lambda d: mx.nd.contrib.box_nms(d, **kwargs), [data],
                       "box_nms %s" % kwargs, grad=True)
    if "in_format" not in kwargs:
        want = ref.box_nms_ref(data.astype(np.float64), **kwargs)
        np.testing.assert_allclose(got[0], want, rtol=1e-6, atol=1e-6, err_msg="box_nms ref")


def test_box_nms_many_boxes_and_record():
    # Enough candidates for several merge passes of the in-kernel sort; the hidden record
    # output routes the gradient: compare it through the gradient of a ones head.
    rng = np.random.RandomState(7)
    data = _nms_data(rng, (3, 1000, 6), np.float32, ties=True)
    _same_as_cpu(lambda d: mx.nd.contrib.box_nms(d, overlap_thresh=0.5, id_index=0, topk=300),
                 [data], "box_nms large", grad=True)


def test_box_nms_empty_batch():
    data = np.zeros((0, 5, 6), np.float32)
    got = _run(lambda d: mx.nd.contrib.box_nms(d), [data], DEV)
    assert got[0].shape == (0, 5, 6)


# ---- bipartite_matching -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", EXACT_DTYPES)
@pytest.mark.parametrize("kwargs", [dict(threshold=0.2), dict(threshold=0.6, is_ascend=True),
                                    dict(threshold=0.1, topk=2)])
def test_bipartite_matching(dtype, kwargs):
    rng = np.random.RandomState(3)
    data = (np.round(rng.uniform(0, 1, size=(2, 3, 6, 9)) * 8) / 8).astype(dtype)  # ties
    got = _same_as_cpu(lambda d: mx.nd.contrib.bipartite_matching(d, **kwargs), [data],
                       "bipartite_matching %s" % kwargs)
    want = ref.bipartite_matching_ref(data.astype(np.float64), **kwargs)
    for g, w in zip(got, want if isinstance(want, (list, tuple)) else [want]):
        np.testing.assert_array_equal(g, w)


def test_bipartite_matching_large():
    rng = np.random.RandomState(4)
    data = rng.uniform(0, 1, size=(2, 60, 70)).astype(np.float32)
    _same_as_cpu(lambda d: mx.nd.contrib.bipartite_matching(d, threshold=0.05), [data],
                 "bipartite_matching large")


# ---- MultiBoxTarget / MultiBoxDetection -------------------------------------------------

def _labels(rng, batch, rows, valid, dtype):
    lab = -np.ones((batch, rows, 5))
    for b, n in enumerate(valid):
        lab[b, :n, 0] = rng.randint(0, 3, size=n)
        lab[b, :n, 1:] = _boxes(rng, (n, 4), np.float64, 0.0, 0.9)
    return lab.astype(dtype)


@pytest.mark.parametrize("dtype", EXACT_DTYPES)
@pytest.mark.parametrize("kwargs", [dict(), dict(overlap_threshold=0.3, negative_mining_ratio=3,
                                                 negative_mining_thresh=0.4),
                                    dict(overlap_threshold=0.0, ignore_label=-2,
                                         variances=(0.2, 0.2, 0.1, 0.1))])
def test_multibox_target(dtype, kwargs):
    rng = np.random.RandomState(5)
    anchors = mx.nd.contrib.MultiBoxPrior(mx.nd.zeros((1, 1, 6, 6)), sizes=(0.3, 0.15),
                                          ratios=(1, 2)).asnumpy().astype(dtype)
    A = anchors.shape[1]
    label = _labels(rng, 3, 4, [2, 0, 4], dtype)  # image 1 has no object
    cls_pred = rng.normal(size=(3, 4, A)).astype(dtype)
    out = _same_as_cpu(lambda a, l, c: mx.nd.contrib.MultiBoxTarget(a, l, c, **kwargs),
                       [anchors, label, cls_pred], "MultiBoxTarget %s" % kwargs)
    assert (out[2] > 0).any(), "no positive anchor: the case tests nothing"


@pytest.mark.parametrize("dtype", EXACT_DTYPES)
@pytest.mark.parametrize("kwargs", [dict(), dict(nms_topk=20, threshold=0.2),
                                    dict(force_suppress=True, clip=False, nms_threshold=0.3),
                                    dict(variances=(0.2, 0.2, 0.3, 0.3), nms_threshold=0.7)])
def test_multibox_detection(dtype, kwargs):
    rng = np.random.RandomState(6)
    anchors = mx.nd.contrib.MultiBoxPrior(mx.nd.zeros((1, 1, 8, 8)), sizes=(0.3, 0.2),
                                          ratios=(1, 2, 0.5)).asnumpy().astype(dtype)
    A = anchors.shape[1]
    logits = rng.normal(size=(2, 4, A)) * 2
    cls_prob = (np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).astype(dtype)
    loc_pred = (rng.normal(size=(2, A * 4)) * 0.5).astype(dtype)
    out = _same_as_cpu(lambda c, l, a: mx.nd.contrib.MultiBoxDetection(c, l, a, **kwargs),
                       [cls_prob, loc_pred, anchors], "MultiBoxDetection %s" % kwargs)
    assert (out[0][:, :, 0] >= 0).any(), "no detection: the case tests nothing"


# ---- Proposal / MultiProposal -----------------------------------------------------------

@pytest.mark.parametrize("dtype", EXACT_DTYPES)
@pytest.mark.parametrize("op,batch,kwargs", [
    ("Proposal", 1, dict(rpn_pre_nms_top_n=100, rpn_post_nms_top_n=20, rpn_min_size=4)),
    ("MultiProposal", 3, dict(rpn_pre_nms_top_n=-1, rpn_post_nms_top_n=50, threshold=0.5,
                              scales=(2, 4), ratios=(0.5, 1), rpn_min_size=8)),
    ("MultiProposal", 2, dict(rpn_post_nms_top_n=400, iou_loss=True, feature_stride=8,
                              rpn_min_size=2)),  # fewer survivors than rows: cyclic repeat
])
def test_proposal(dtype, op, batch, kwargs):
    rng = np.random.RandomState(8)
    stride = kwargs.get("feature_stride", 16)
    A = len(kwargs.get("scales", (4, 8, 16, 32))) * len(kwargs.get("ratios", (0.5, 1, 2)))
    H, W = 6, 7
    cls_prob = rng.uniform(0, 1, size=(batch, 2 * A, H, W)).astype(dtype)
    bbox_pred = (rng.normal(size=(batch, 4 * A, H, W)) * 0.2).astype(dtype)
    im_info = np.array([[H * stride - 10, W * stride - 20, 1.0]] * batch, dtype)
    fn = getattr(mx.nd.contrib, op)
    _same_as_cpu(lambda c, b, i: fn(c, b, i, output_score=True, **kwargs),
                 [cls_prob, bbox_pred, im_info], "%s %s" % (op, kwargs), rtol=1e-5, atol=1e-4)
