"""The fused RNN operator's fast float32 path (src/operator/nn/rnn_fast.cc: vectorized gate
kernels and the packed per-step GEMM) against its plain fallback (MXNET_RNN_FAST=0, the loops
test_rnn_op.py checks against NumPy and finite differences) and against the real MXNet 1.9.1:
outputs, final states and every gradient (data, parameters, initial states)."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle as oracle  # noqa: E402
from optable.rnn import param_size  # noqa: E402

import mxnet as mx  # noqa: E402
from mxnet import autograd  # noqa: E402
from mxnet.test_utils import environment  # noqa: E402


def make_inputs(mode, layers, bidi, T, N, I, H, seed):
    rng = np.random.RandomState(seed)
    d = 2 if bidi else 1
    arrays = {
        "x": rng.uniform(-1, 1, (T, N, I)),
        "flat": rng.uniform(-0.3, 0.3, param_size(mode, layers, bidi, I, H)),
        "h0": rng.uniform(-0.5, 0.5, (layers * d, N, H)),
    }
    if mode == "lstm":
        arrays["c0"] = rng.uniform(-0.5, 0.5, (layers * d, N, H))
    heads = [rng.uniform(-1, 1, (T, N, d * H)), rng.uniform(-1, 1, (layers * d, N, H))]
    if mode == "lstm":
        heads.append(rng.uniform(-1, 1, (layers * d, N, H)))
    return ({k: v.astype("float32") for k, v in arrays.items()},
            [h.astype("float32") for h in heads])


def run_rnn(arrays, heads, mode, layers, bidi, H, fast, grad_req="write", repeat=1,
            seq_len=None, p=0.0, seed=None, data_grad=True):
    """Forward (training) and backward `repeat` times; returns outputs and input gradients."""
    with environment("MXNET_RNN_FAST", "1" if fast else "0"):
        names = ["x", "flat", "h0"] + (["c0"] if mode == "lstm" else [])
        nd = [mx.nd.array(arrays[k]) for k in names]
        for k, a in zip(names, nd):
            if k != "x" or data_grad:
                a.attach_grad(grad_req=grad_req)
        kwargs = {}
        if seq_len is not None:
            kwargs = dict(use_sequence_length=True)
        for _ in range(repeat):
            if seed is not None:
                mx.random.seed(seed)
            with autograd.record():
                extra = [mx.nd.array(seq_len, dtype="int32")] if seq_len is not None else []
                outs = mx.nd.RNN(*nd, *extra, state_size=H, num_layers=layers,
                                 bidirectional=bidi, mode=mode, state_outputs=True, p=p,
                                 **kwargs)
            autograd.backward(list(outs), [mx.nd.array(h) for h in heads])
        result = {"out%d" % i: o.asnumpy() for i, o in enumerate(outs)}
        result.update({"d" + k: a.grad.asnumpy() for k, a in zip(names, nd)
                       if k != "x" or data_grad})
        return result


def assert_same(got, want, rtol=2e-4, atol=2e-5):
    assert sorted(got) == sorted(want)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=rtol, atol=atol, err_msg=k)


# (mode, layers, bidirectional, T, N, I, H): H not a multiple of 16 exercises the packed GEMM's
# partial panels, N not a multiple of 6 its remainder rows, N * gates * H * H >= 2^18 the steps
# split across threads, and bidirectional T * N * gates * H * H >= 2^18 on 2-3 threads the two
# directions running concurrently.
CASES = [
    ("lstm", 1, False, 5, 3, 7, 16),
    ("lstm", 2, True, 6, 13, 10, 20),
    ("lstm", 3, False, 4, 40, 8, 64),
    ("lstm", 2, True, 7, 32, 33, 37),
    ("gru", 1, False, 5, 3, 7, 16),
    ("gru", 2, True, 6, 13, 10, 20),
    ("gru", 3, False, 4, 40, 8, 64),
    ("gru", 2, True, 7, 32, 33, 37),
    ("rnn_tanh", 2, True, 5, 7, 6, 19),
    ("rnn_relu", 2, True, 5, 7, 6, 19),
]


def case_id(c):
    return "%s-%dL%s-T%dN%dI%dH%d" % (c[0], c[1], "-bi" if c[2] else "", *c[3:])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fast_path_matches_fallback(case):
    mode, layers, bidi, T, N, I, H = case
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=T * N + H)
    fast = run_rnn(arrays, heads, mode, layers, bidi, H, fast=True)
    plain = run_rnn(arrays, heads, mode, layers, bidi, H, fast=False)
    assert_same(fast, plain)
    # The gradients are not trivially zero (the comparison above could not pass vacuously).
    assert np.abs(fast["dflat"]).max() > 1e-3 and np.abs(fast["dh0"]).max() > 1e-3


@pytest.mark.parametrize("mode", ["lstm", "gru"])
def test_fast_path_grad_req_add(mode):
    """grad_req='add' over two backward passes gives twice the fallback's single pass."""
    layers, bidi, T, N, I, H = 2, True, 5, 25, 6, 32  # big enough for concurrent directions
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=3)
    twice = run_rnn(arrays, heads, mode, layers, bidi, H, fast=True, grad_req="add", repeat=2)
    once = run_rnn(arrays, heads, mode, layers, bidi, H, fast=False)
    for k in once:
        want = once[k] * (2 if k.startswith("d") else 1)
        np.testing.assert_allclose(twice[k], want, rtol=2e-4, atol=4e-5, err_msg=k)


@pytest.mark.parametrize("mode", ["lstm", "gru"])
def test_fast_path_sequence_length_and_dropout(mode):
    """Per-element sequence lengths and dropout between layers (same seed, same masks)."""
    layers, bidi, T, N, I, H = 3, True, 6, 8, 5, 48  # big enough for concurrent directions
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=4)
    lengths = np.array([6, 1, 3, 0, 6, 2, 5, 4])
    fast = run_rnn(arrays, heads, mode, layers, bidi, H, fast=True, seq_len=lengths, p=0.3,
                   seed=11)
    plain = run_rnn(arrays, heads, mode, layers, bidi, H, fast=False, seq_len=lengths, p=0.3,
                    seed=11)
    assert_same(fast, plain)


def test_fast_path_inference_matches_fallback():
    """Forward outside autograd (is_train=False) through a hybridized Gluon layer."""
    from mxnet import gluon
    for cls in (gluon.rnn.LSTM, gluon.rnn.GRU):
        layer = cls(48, num_layers=2, bidirectional=True, input_size=12)
        layer.initialize(mx.init.Uniform(0.2))
        layer.hybridize()
        x = mx.nd.random.uniform(-1, 1, (9, 11, 12))
        with environment("MXNET_RNN_FAST", "0"):
            want = layer(x).asnumpy()
        with environment("MXNET_RNN_FAST", "1"):
            got = layer(x).asnumpy()
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5)


def test_fast_gates_saturate_without_nan():
    """Large pre-activations (exp clamped inside the fast kernels) stay finite and match."""
    mode, layers, bidi, T, N, I, H = "lstm", 1, False, 4, 5, 6, 16
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=5)
    arrays["x"] = arrays["x"] * 400.0
    fast = run_rnn(arrays, heads, mode, layers, bidi, H, fast=True)
    plain = run_rnn(arrays, heads, mode, layers, bidi, H, fast=False)
    for k in fast:
        assert np.isfinite(fast[k]).all(), k
    assert_same(fast, plain, rtol=1e-3, atol=1e-4)


# ----------------------------------------------------------------------- MXNet 1.9.1

_ORACLE_SCRIPT = r"""
import sys, numpy as np, mxnet as mx
from mxnet import autograd
src = np.load(sys.argv[1])
mode, layers, bidi, H = sys.argv[3], int(sys.argv[4]), sys.argv[5] == '1', int(sys.argv[6])
names = ['x', 'flat', 'h0'] + (['c0'] if mode == 'lstm' else [])
nd = [mx.nd.array(src[k]) for k in names]
for a in nd:
    a.attach_grad()
with autograd.record():
    outs = mx.nd.RNN(*nd, state_size=H, num_layers=layers, bidirectional=bidi, mode=mode,
                     state_outputs=True)
heads = [mx.nd.array(src['head%d' % i]) for i in range(len(outs))]
autograd.backward(list(outs), heads)
res = {'out%d' % i: o.asnumpy() for i, o in enumerate(outs)}
res.update({'d' + k: a.grad.asnumpy() for k, a in zip(names, nd)})
np.savez(sys.argv[2], **res)
"""


@pytest.mark.skipif(not oracle.HAVE_MX191, reason=oracle.SKIP_REASON)
@pytest.mark.parametrize("case", [("lstm", 2, True, 7, 12, 10, 32),
                                  ("gru", 2, True, 7, 12, 10, 32)], ids=case_id)
def test_fast_path_matches_mxnet_191(case, tmp_path):
    """MXNet 1.9.1 (oneDNN's RNN primitives) on the same inputs: outputs, states, gradients."""
    mode, layers, bidi, T, N, I, H = case
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=7)
    inputs = dict(arrays)
    inputs.update({"head%d" % i: h for i, h in enumerate(heads)})
    np.savez(str(tmp_path / "in.npz"), **inputs)
    script = tmp_path / "oracle.py"
    script.write_text(_ORACLE_SCRIPT)
    oracle.run([script, tmp_path / "in.npz", tmp_path / "out.npz", mode, layers, int(bidi), H],
               ours=False)
    ref = np.load(str(tmp_path / "out.npz"))
    got = run_rnn(arrays, heads, mode, layers, bidi, H, fast=True)
    assert_same(got, {k: ref[k] for k in ref.files}, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("fast", [True, False])
def test_no_data_gradient_keeps_other_gradients(fast):
    """Without a data gradient the backward skips layer 0's input GEMM; the parameter and state
    gradients are those of a run that also computes it."""
    mode, layers, bidi, T, N, I, H = "lstm", 2, True, 5, 6, 7, 12
    arrays, heads = make_inputs(mode, layers, bidi, T, N, I, H, seed=8)
    full = run_rnn(arrays, heads, mode, layers, bidi, H, fast=fast)
    partial = run_rnn(arrays, heads, mode, layers, bidi, H, fast=fast, data_grad=False)
    assert "dx" not in partial
    full.pop("dx")
    assert_same(partial, full, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("threads", ["1", "2"])
def test_concurrent_directions_match_serial_in_subprocess(threads, tmp_path):
    """A bidirectional layer with OMP_NUM_THREADS=2 (directions on one thread each) and =1
    (serial) give the fallback's results: run in fresh processes, as OpenMP reads it once."""
    import subprocess
    script = tmp_path / "run.py"
    script.write_text(
        "import sys, numpy as np\n"
        "sys.path.insert(0, %r)\n"
        "import test_rnn_fast as t\n"
        "for mode in ('lstm', 'gru'):\n"
        "    a, h = t.make_inputs(mode, 2, True, 6, 20, 9, 40, seed=12)\n"
        "    fast = t.run_rnn(a, h, mode, 2, True, 40, fast=True)\n"
        "    plain = t.run_rnn(a, h, mode, 2, True, 40, fast=False)\n"
        "    t.assert_same(fast, plain)\n"
        "print('ok')\n" % os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, OMP_NUM_THREADS=threads)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]
