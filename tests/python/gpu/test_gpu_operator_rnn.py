"""The fused RNN operator on the GPU against the CPU in float64: outputs, final states and every
gradient, for each mode, stacked and bidirectional layers, sequence lengths and LSTM state
clipping. Two GPU paths run each case: cuDNN's fused RNN (cudnn/cudnn_rnn.h, the default where
it applies) and, with MXNET_RNN_CUDNN=0, rnn.cu's generic kernels (the CPU's algorithm as element
kernels and cuBLAS GEMMs; the same implementation runs on the CPU in test_rnn_generic.py)."""
import os
import sys

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from gpu_util import AS_CPU, DEV

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "unittest"))
from test_rnn_fast import make_inputs  # noqa: E402


@pytest.fixture(params=["cudnn", "generic"])
def gpu_path(request, monkeypatch):
    """Which GPU implementation runs: MXNET_RNN_CUDNN is read at every call."""
    if request.param == "generic":
        monkeypatch.setenv("MXNET_RNN_CUDNN", "0")
    else:
        monkeypatch.delenv("MXNET_RNN_CUDNN", raising=False)
    return request.param


def run(ctx, dtype, arrays, heads, mode, layers, bidi, H, seq_len=None, train_mode=True,
        grad_req="write", backwards=1, **kwargs):
    names = ["x", "flat", "h0"] + (["c0"] if mode == "lstm" else [])
    nd = [mx.nd.array(arrays[k], ctx=ctx, dtype=dtype) for k in names]
    for a in nd:
        a.attach_grad(grad_req)
    extra = []
    if seq_len is not None:
        extra = [mx.nd.array(seq_len, ctx=ctx, dtype="int32")]
        kwargs["use_sequence_length"] = True
    with autograd.record(train_mode=train_mode):
        outs = mx.nd.RNN(*nd, *extra, state_size=H, num_layers=layers, bidirectional=bidi,
                         mode=mode, state_outputs=True, **kwargs)
    for i in range(backwards):
        autograd.backward(list(outs), [mx.nd.array(h, ctx=ctx, dtype=dtype) for h in heads],
                          retain_graph=i + 1 < backwards)
    return [o.asnumpy() for o in outs] + [a.grad.asnumpy() for a in nd]


def assert_all_close(got, want, tol, what):
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=tol[0], atol=tol[1], err_msg="%s item %d" % (what, i))


CASES = [("lstm", 2, True, 6, 5, 10, 9), ("gru", 2, True, 6, 5, 10, 9),
         ("rnn_tanh", 1, False, 5, 4, 6, 7), ("rnn_relu", 2, True, 5, 4, 6, 7),
         ("lstm", 1, False, 20, 64, 32, 128)]  # wider than a block of threads


CASE_IDS = lambda c: "%s-%dL-bi%d-H%d" % (c[0], c[1], c[2], c[6])  # noqa: E731
TOL = {"float16": (3e-2, 3e-2), "float32": (1e-3, 1e-4), "float64": (1e-9, 1e-11)}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_rnn_matches_the_cpu(case, dtype, gpu_path):
    mode, layers, bidi, T, N, I, H = case
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=T + N + H)
    want = run(mx.cpu(), "float64", arrays, heads, mode, layers, bidi, H)
    got = run(DEV, dtype, arrays, heads, mode, layers, bidi, H)
    assert_all_close(got, want, TOL[dtype], mode)


@pytest.mark.skipif(AS_CPU, reason="float16 RNN runs on cuDNN only")
@pytest.mark.parametrize("case", CASES[:4], ids=CASE_IDS)
def test_rnn_float16_runs_on_cudnn_and_matches_the_cpu(case):
    """The generic kernels have no float16: a result at all means cuDNN ran."""
    mode, layers, bidi, T, N, I, H = case
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=T + N + H)
    arrays = {k: np.asarray(v, np.float16).astype(np.float64) for k, v in arrays.items()}
    heads = [np.asarray(h, np.float16).astype(np.float64) for h in heads]
    want = run(mx.cpu(), "float64", arrays, heads, mode, layers, bidi, H)
    got = run(DEV, "float16", arrays, heads, mode, layers, bidi, H)
    assert all(g.dtype == np.float16 for g in got)
    assert_all_close(got, want, TOL["float16"], mode)


@pytest.mark.parametrize("mode", ["lstm", "gru"])
@pytest.mark.parametrize("lengths", [[6, 1, 0, 4], [6, 1, 3, 4]], ids=["with-0", "positive"])
def test_rnn_sequence_lengths_and_clipping_match_the_cpu(mode, lengths, gpu_path):
    layers, bidi, T, N, I, H = 2, True, 6, 4, 5, 8
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=3)
    kw = dict(seq_len=lengths)
    if mode == "lstm":
        arrays["flat"] = arrays["flat"] * 5
        kw.update(lstm_state_clip_min=-0.4, lstm_state_clip_max=0.5)
    want = run(mx.cpu(), "float64", arrays, heads, mode, layers, bidi, H, **kw)
    got = run(DEV, "float64", arrays, heads, mode, layers, bidi, H, **kw)
    assert_all_close(got, want, TOL["float64"], mode)


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh"])
def test_rnn_gradient_paths_match_the_cpu(mode, gpu_path):
    """Accumulated gradients (grad_req='add' over a retained graph's two backwards, which also
    checks that a backward leaves the forward's reserve intact), a graph recorded in predict
    mode (need_grad without is_train) and a one-sided LSTM clip."""
    layers, bidi, T, N, I, H = 2, True, 5, 3, 4, 6
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=11)
    kw = dict(lstm_state_clip_max=0.3) if mode == "lstm" else {}
    for extra in (dict(grad_req="add", backwards=2), dict(train_mode=False)):
        want = run(mx.cpu(), "float64", arrays, heads, mode, layers, bidi, H, **extra, **kw)
        got = run(DEV, "float64", arrays, heads, mode, layers, bidi, H, **extra, **kw)
        assert_all_close(got, want, TOL["float64"], "%s %s" % (mode, extra))


def test_rnn_inference_matches_the_cpu(gpu_path):
    arrays, _ = make_inputs("lstm", 2, True, 7, 3, 4, 5, seed=9)
    outs = []
    for ctx in (mx.cpu(), DEV):
        nd = [mx.nd.array(arrays[k], ctx=ctx, dtype="float64") for k in ("x", "flat", "h0", "c0")]
        outs.append([o.asnumpy() for o in mx.nd.RNN(*nd, state_size=5, num_layers=2,
                                                     bidirectional=True, mode="lstm",
                                                     state_outputs=True)])
    assert_all_close(outs[1], outs[0], TOL["float64"], "inference")


def lstmp_flat_names(layers, bidi):
    """1.9.1's order of Gluon's LSTMP parameters in the fused operator's flat vector."""
    return ["%s%d_%s_%s" % (d, l, g, t) for t in ("weight", "bias") for l in range(layers)
            for d in "lr"[:2 if bidi else 1] for g in ("i2h", "h2h", "h2r")
            if not (g == "h2r" and t == "bias")]


@pytest.mark.skipif(AS_CPU, reason="LSTMP runs on cuDNN only (the CPU refuses it, as 1.9.1)")
@pytest.mark.parametrize("layers,bidi", [(1, False), (2, True)])
def test_lstm_projection_matches_gluon_unrolled_on_the_cpu(layers, bidi):
    """The fused operator's LSTMP on cuDNN against Gluon's LSTM(projection_size), which unrolls
    the cell with FullyConnected on the CPU: outputs, final states and every gradient."""
    T, N, I, H, P = 5, 3, 4, 7, 3
    d = 2 if bidi else 1
    net = mx.gluon.rnn.LSTM(H, num_layers=layers, bidirectional=bidi, projection_size=P,
                            input_size=I, dtype="float64")
    net.initialize(mx.init.Uniform(0.3))
    params = net.collect_params()
    keys = [next(k for k in params if k.endswith(n)) for n in lstmp_flat_names(layers, bidi)]
    assert len(set(keys)) == len(params)
    rng = np.random.RandomState(1)
    x = rng.uniform(-1, 1, (T, N, I))
    h0 = rng.uniform(-0.5, 0.5, (layers * d, N, P))
    c0 = rng.uniform(-0.5, 0.5, (layers * d, N, H))
    heads = [rng.uniform(-1, 1, s) for s in ((T, N, d * P), h0.shape, c0.shape)]

    cpu = [mx.nd.array(a, dtype="float64") for a in (x, h0, c0)]
    for a in cpu:
        a.attach_grad()
    with autograd.record():
        out, states = net(cpu[0], cpu[1:])
    autograd.backward([out] + states, [mx.nd.array(h, dtype="float64") for h in heads])
    flat_grad = np.concatenate([params[k].grad().asnumpy().ravel() for k in keys])
    want = [out.asnumpy()] + [s_.asnumpy() for s_ in states] + \
        [cpu[0].grad.asnumpy(), flat_grad, cpu[1].grad.asnumpy(), cpu[2].grad.asnumpy()]

    flat = np.concatenate([params[k].data().asnumpy().ravel() for k in keys])
    nd = [mx.nd.array(a, ctx=DEV, dtype="float64") for a in (x, flat, h0, c0)]
    for a in nd:
        a.attach_grad()
    with autograd.record():
        outs = mx.nd.RNN(*nd, state_size=H, num_layers=layers, bidirectional=bidi, mode="lstm",
                         projection_size=P, state_outputs=True)
    autograd.backward(list(outs), [mx.nd.array(h, ctx=DEV, dtype="float64") for h in heads])
    got = [o.asnumpy() for o in outs] + [a.grad.asnumpy() for a in nd]
    assert_all_close(got, want, (1e-8, 1e-10), "LSTMP")


def test_rnn_bad_sequence_length_is_an_error_on_the_device():
    arrays, heads = make_inputs("gru", 1, False, 4, 2, 3, 5, seed=1)
    nd = [mx.nd.array(arrays[k], ctx=DEV) for k in ("x", "flat", "h0")]
    with pytest.raises(ValueError, match=r"sequence_length\[1\] = 9"):
        mx.nd.RNN(*nd, mx.nd.array([2, 9], ctx=DEV, dtype="int32"), state_size=5, num_layers=1,
                  mode="gru", use_sequence_length=True).asnumpy()


def test_rnn_dropout_masks_on_the_device():
    arrays, heads = make_inputs("lstm", 3, False, 5, 6, 4, 8, seed=2)
    nd = [mx.nd.array(arrays[k], ctx=DEV) for k in ("x", "flat", "h0", "c0")]
    mx.random.seed(5)
    with autograd.record():
        a = mx.nd.RNN(*nd, state_size=8, num_layers=3, mode="lstm", p=0.5)
    mx.random.seed(5)
    with autograd.record():
        b = mx.nd.RNN(*nd, state_size=8, num_layers=3, mode="lstm", p=0.5)
    c = mx.nd.RNN(*nd, state_size=8, num_layers=3, mode="lstm", p=0.5)  # inference: no dropout
    d = mx.nd.RNN(*nd, state_size=8, num_layers=3, mode="lstm", p=0.0)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())  # the seed decides the masks
    np.testing.assert_allclose(c.asnumpy(), d.asnumpy(), rtol=1e-6)
    assert not np.allclose(a.asnumpy(), c.asnumpy())


@pytest.mark.parametrize("layer", ["LSTM", "GRU", "RNN"])
def test_gluon_recurrent_layers_match_the_cpu(layer, gpu_path):
    from mxnet import gluon
    results = []
    for ctx in (mx.cpu(), DEV):
        mx.random.seed(4)
        net = getattr(gluon.rnn, layer)(12, num_layers=2, bidirectional=True)
        net.initialize(mx.init.Xavier(), ctx=mx.cpu())
        net.reset_ctx(ctx)
        x = mx.nd.array(np.random.RandomState(6).uniform(-1, 1, (7, 3, 5)), ctx=ctx)
        x.attach_grad()
        with autograd.record():
            y = net(x)
        y.backward(mx.nd.ones_like(y))
        results.append([y.asnumpy(), x.grad.asnumpy()] +
                       [p.grad().asnumpy() for p in net.collect_params().values()])
    for g, w in zip(results[1], results[0]):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-5)
