"""The device-generic fused RNN (src/operator/nn/rnn_generic-inl.h: element kernels and device
GEMMs, the GPU's implementation) run on the CPU with MXNET_RNN_GENERIC=1, against the CPU's own
RNN path (checked by test_rnn_op.py against NumPy and finite differences): outputs, final states
and every gradient, for every mode, stacked and bidirectional layers, sequence lengths, LSTM
state clipping, dropout between layers and gradient accumulation."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_rnn_fast import assert_same, make_inputs  # noqa: E402

import mxnet as mx  # noqa: E402
from mxnet import autograd  # noqa: E402
from mxnet.test_utils import environment  # noqa: E402


def run(arrays, heads, mode, layers, bidi, H, generic, dtype="float32", seq_len=None, p=0.0,
        seed=None, grad_req="write", repeat=1, **kwargs):
    with environment("MXNET_RNN_GENERIC", "1" if generic else "0"):
        names = ["x", "flat", "h0"] + (["c0"] if mode == "lstm" else [])
        nd = [mx.nd.array(arrays[k], dtype=dtype) for k in names]
        for a in nd:
            a.attach_grad(grad_req=grad_req)
        extra = []
        if seq_len is not None:
            extra = [mx.nd.array(seq_len, dtype="int32")]
            kwargs["use_sequence_length"] = True
        for _ in range(repeat):
            if seed is not None:
                mx.random.seed(seed)
            with autograd.record():
                outs = mx.nd.RNN(*nd, *extra, state_size=H, num_layers=layers,
                                 bidirectional=bidi, mode=mode, state_outputs=True, p=p,
                                 **kwargs)
            autograd.backward(list(outs), [mx.nd.array(h, dtype=dtype) for h in heads])
        result = {"out%d" % i: o.asnumpy() for i, o in enumerate(outs)}
        result.update({"d" + k: a.grad.asnumpy() for k, a in zip(names, nd)})
        return result


CASES = [
    ("lstm", 1, False, 5, 3, 7, 16),
    ("lstm", 2, True, 6, 5, 10, 9),
    ("gru", 1, False, 5, 3, 7, 16),
    ("gru", 2, True, 6, 5, 10, 9),
    ("rnn_tanh", 2, True, 5, 4, 6, 7),
    ("rnn_relu", 2, False, 5, 4, 6, 7),
]


def case_id(c):
    return "%s-%dL%s-T%dN%dI%dH%d" % (c[0], c[1], "-bi" if c[2] else "", *c[3:])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_generic_matches_the_cpu_path(case, dtype):
    mode, layers, bidi, T, N, I, H = case
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=T * N + H)
    got = run(arrays, heads, mode, layers, bidi, H, True, dtype)
    want = run(arrays, heads, mode, layers, bidi, H, False, dtype)
    tol = (2e-4, 2e-5) if dtype == "float32" else (1e-10, 1e-12)
    assert_same(got, want, *tol)
    assert np.abs(got["dflat"]).max() > 1e-3 and np.abs(got["dh0"]).max() > 1e-3


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh"])
@pytest.mark.parametrize("bidi", [False, True])
def test_generic_sequence_lengths(mode, bidi):
    layers, T, N, I, H = 2, 6, 4, 5, 8
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=11)
    lens = [6, 1, 0, 4]  # full, one step, empty, partial
    got = run(arrays, heads, mode, layers, bidi, H, True, "float64", seq_len=lens)
    want = run(arrays, heads, mode, layers, bidi, H, False, "float64", seq_len=lens)
    assert_same(got, want, 1e-10, 1e-12)


def test_generic_lstm_state_clipping():
    mode, layers, bidi, T, N, I, H = "lstm", 2, True, 5, 3, 4, 6
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=5)
    arrays["flat"] = arrays["flat"] * 6  # big weights: cell states leave the clip range
    clip = dict(lstm_state_clip_min=-0.4, lstm_state_clip_max=0.5)
    got = run(arrays, heads, mode, layers, bidi, H, True, "float64", **clip)
    want = run(arrays, heads, mode, layers, bidi, H, False, "float64", **clip)
    assert_same(got, want, 1e-10, 1e-12)


@pytest.mark.parametrize("mode", ["lstm", "gru"])
def test_generic_dropout_between_layers(mode):
    """Same seed, same masks (the CPU's sampler on both paths): same results."""
    layers, bidi, T, N, I, H = 3, True, 4, 5, 6, 7
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=7)
    got = run(arrays, heads, mode, layers, bidi, H, True, "float64", p=0.4, seed=42)
    want = run(arrays, heads, mode, layers, bidi, H, False, "float64", p=0.4, seed=42)
    assert_same(got, want, 1e-10, 1e-12)


def test_generic_grad_req_add():
    mode, layers, bidi, T, N, I, H = "gru", 2, True, 4, 3, 5, 6
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=9)
    twice = run(arrays, heads, mode, layers, bidi, H, True, "float64", grad_req="add",
                repeat=2)
    once = run(arrays, heads, mode, layers, bidi, H, False, "float64")
    for k in once:
        want = once[k] * 2 if k.startswith("d") else once[k]
        np.testing.assert_allclose(twice[k], want, rtol=1e-10, atol=1e-12, err_msg=k)


@pytest.mark.parametrize("generic", [False, True])
def test_param_concat_and_its_gradient(generic):
    with environment("MXNET_RNN_GENERIC", "1" if generic else "0"):
        a = mx.nd.array(np.arange(6.0).reshape(2, 3))
        b = mx.nd.array(np.arange(4.0).reshape(2, 2) + 10)
        for x in (a, b):
            x.attach_grad()
        with autograd.record():
            out = mx.nd._internal._rnn_param_concat(a, b, num_args=2, dim=1)
        out.backward(mx.nd.array(np.arange(10.0).reshape(2, 5)))
        np.testing.assert_array_equal(out.asnumpy(), np.concatenate([a.asnumpy(), b.asnumpy()], 1))
        np.testing.assert_array_equal(a.grad.asnumpy(), [[0, 1, 2], [5, 6, 7]])
        np.testing.assert_array_equal(b.grad.asnumpy(), [[3, 4], [8, 9]])
