"""The fused RNN operator (mx.nd.RNN / mx.sym.RNN) and _rnn_param_concat against a NumPy
reference written here, finite differences, and the real MXNet 1.9.1."""
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle as oracle  # noqa: E402

import mxnet as mx  # noqa: E402
from mxnet import autograd  # noqa: E402
from optable.rnn import numpy_rnn, param_size  # noqa: E402


def make_case(mode, num_layers, bidirectional, T=4, N=3, I=5, H=4, seed=0, dtype="float64"):
    rng = np.random.RandomState(seed)
    d = 2 if bidirectional else 1
    x = rng.uniform(-1, 1, (T, N, I)).astype(dtype)
    flat = rng.uniform(-0.6, 0.6, param_size(mode, num_layers, bidirectional, I, H)).astype(dtype)
    h0 = rng.uniform(-0.5, 0.5, (num_layers * d, N, H)).astype(dtype)
    c0 = rng.uniform(-0.5, 0.5, (num_layers * d, N, H)).astype(dtype) if mode == "lstm" else None
    return x, flat, h0, c0


def call_rnn(x, flat, h0, c0, mode, num_layers, bidirectional, H, **kwargs):
    args = [mx.nd.array(x, dtype=x.dtype), mx.nd.array(flat, dtype=flat.dtype),
            mx.nd.array(h0, dtype=h0.dtype)]
    if c0 is not None:
        args.append(mx.nd.array(c0, dtype=c0.dtype))
    return args, mx.nd.RNN(*args, state_size=H, num_layers=num_layers,
                           bidirectional=bidirectional, mode=mode, **kwargs)


CONFIGS = [(mode, layers, bidi) for mode in ["rnn_relu", "rnn_tanh", "lstm", "gru"]
           for layers, bidi in [(1, False), (2, False), (1, True), (2, True)]]


def cfg_id(c):
    return "%s-%dL%s" % (c[0], c[1], "-bi" if c[2] else "")


# ----------------------------------------------------------------------- forward vs NumPy

@pytest.mark.parametrize("cfg", CONFIGS, ids=cfg_id)
def test_forward_matches_numpy(cfg):
    mode, layers, bidi = cfg
    H = 4
    x, flat, h0, c0 = make_case(mode, layers, bidi, H=H, seed=len(mode) + layers)
    _, outs = call_rnn(x, flat, h0, c0, mode, layers, bidi, H, state_outputs=True)
    ref = numpy_rnn(x, flat, h0, c0, mode, layers, bidi, H)
    assert len(outs) == (3 if mode == "lstm" else 2)
    for got, want in zip(outs, ref):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10, atol=1e-10)
    # Without state_outputs there is one (visible) output.
    _, out = call_rnn(x, flat, h0, c0, mode, layers, bidi, H)
    assert isinstance(out, mx.nd.NDArray)
    np.testing.assert_allclose(out.asnumpy(), ref[0], rtol=1e-10, atol=1e-10)


def test_forward_float32():
    x, flat, h0, c0 = make_case("lstm", 2, True, dtype="float32")
    _, outs = call_rnn(x, flat, h0, c0, "lstm", 2, True, 4, state_outputs=True)
    ref = numpy_rnn(x, flat, h0, c0, "lstm", 2, True, 4)
    assert outs[0].dtype == np.float32
    for got, want in zip(outs, ref):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_lstm_state_clip_forward():
    x, flat, h0, c0 = make_case("lstm", 2, False, seed=3)
    x *= 4  # large inputs so the cell state leaves the clip range
    _, outs = call_rnn(x, flat, h0, c0, "lstm", 2, False, 4, state_outputs=True,
                       lstm_state_clip_min=-0.2, lstm_state_clip_max=0.3)
    ref = numpy_rnn(x, flat, h0, c0, "lstm", 2, False, 4, clip=(-0.2, 0.3))
    unclipped = numpy_rnn(x, flat, h0, c0, "lstm", 2, False, 4)
    assert np.abs(unclipped[2] - ref[2]).max() > 0.05  # the clip matters in this case
    for got, want in zip(outs, ref):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10, atol=1e-10)
    assert outs[2].asnumpy().min() >= -0.2 and outs[2].asnumpy().max() <= 0.3


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh"])
def test_sequence_length(mode):
    x, flat, h0, c0 = make_case(mode, 2, True, T=5, N=3, seed=7)
    lengths = np.array([5, 2, 3])
    args = [mx.nd.array(a, dtype="float64") for a in (x, flat, h0)]
    if c0 is not None:
        args.append(mx.nd.array(c0, dtype="float64"))
    args.append(mx.nd.array(lengths, dtype="int32"))
    outs = mx.nd.RNN(*args, state_size=4, num_layers=2, bidirectional=True, mode=mode,
                     state_outputs=True, use_sequence_length=True)
    ref = numpy_rnn(x, flat, h0, c0, mode, 2, True, 4, lengths=lengths)
    for got, want in zip(outs, ref):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10, atol=1e-10)


# ----------------------------------------------------------------------- gradients

def numpy_loss_grads(x, flat, h0, c0, mode, layers, bidi, H, heads, clip=None, eps=1e-6):
    """Central-difference gradients of sum(out*w0) + sum(hy*w1) (+ sum(cy*w2)) computed with
    the NumPy reference (no use of our operator)."""
    def loss(x_, flat_, h0_, c0_):
        res = numpy_rnn(x_, flat_, h0_, c0_, mode, layers, bidi, H, clip=clip)
        return sum(float((r * w).sum()) for r, w in zip(res, heads))

    grads = []
    arrays = [x, flat, h0] + ([c0] if c0 is not None else [])
    for k, a in enumerate(arrays):
        g = np.zeros(a.shape)
        flat_view = a.reshape(-1)
        for i in range(flat_view.size):
            old = flat_view[i]
            flat_view[i] = old + eps
            up = loss(*(arrays + [None] * (4 - len(arrays))))
            flat_view[i] = old - eps
            down = loss(*(arrays + [None] * (4 - len(arrays))))
            flat_view[i] = old
            g.reshape(-1)[i] = (up - down) / (2 * eps)
        grads.append(g)
    return grads


@pytest.mark.parametrize("cfg", [("rnn_relu", 2, True), ("rnn_tanh", 1, False),
                                 ("lstm", 2, True), ("gru", 2, True), ("lstm", 1, False),
                                 ("gru", 1, False)], ids=cfg_id)
def test_gradients_match_numpy_finite_differences(cfg):
    mode, layers, bidi = cfg
    H = 3
    x, flat, h0, c0 = make_case(mode, layers, bidi, T=3, N=2, I=3, H=H, seed=11)
    rng = np.random.RandomState(5)
    args, _ = call_rnn(x, flat, h0, c0, mode, layers, bidi, H, state_outputs=True)
    for a in args:
        a.attach_grad()
    with autograd.record():
        outs = mx.nd.RNN(*args, state_size=H, num_layers=layers, bidirectional=bidi, mode=mode,
                         state_outputs=True)
    heads = [rng.uniform(-1, 1, o.shape) for o in outs]
    autograd.backward(list(outs), [mx.nd.array(w, dtype="float64") for w in heads])
    want = numpy_loss_grads(x, flat, h0, c0, mode, layers, bidi, H, heads)
    for a, w, name in zip(args, want, ["data", "parameters", "state", "state_cell"]):
        np.testing.assert_allclose(a.grad.asnumpy(), w, rtol=1e-5, atol=1e-7, err_msg=name)


def test_gradient_with_clip_and_out_only():
    """Clipped LSTM, loss on the output only (state_outputs=False)."""
    x, flat, h0, c0 = make_case("lstm", 1, True, T=3, N=2, I=3, H=3, seed=2)
    x *= 3
    clip = (-0.25, 0.25)
    args, _ = call_rnn(x, flat, h0, c0, "lstm", 1, True, 3)
    for a in args:
        a.attach_grad()
    head = np.random.RandomState(1).uniform(-1, 1, (3, 2, 6))
    with autograd.record():
        out = mx.nd.RNN(*args, state_size=3, num_layers=1, bidirectional=True, mode="lstm",
                        lstm_state_clip_min=clip[0], lstm_state_clip_max=clip[1])
    out.backward(mx.nd.array(head, dtype="float64"))
    zeros = np.zeros((2, 2, 3))
    want = numpy_loss_grads(x, flat, h0, c0, "lstm", 1, True, 3, [head, zeros, zeros], clip=clip)
    for a, w in zip(args, want):
        np.testing.assert_allclose(a.grad.asnumpy(), w, rtol=1e-5, atol=1e-7)


def test_gradient_with_sequence_length():
    x, flat, h0, c0 = make_case("gru", 1, True, T=4, N=3, I=3, H=3, seed=4)
    lengths = np.array([4, 1, 2])
    args = [mx.nd.array(a, dtype="float64") for a in (x, flat, h0)]
    for a in args:
        a.attach_grad()
    sl = mx.nd.array(lengths, dtype="int32")
    rng = np.random.RandomState(0)
    heads = [rng.uniform(-1, 1, (4, 3, 6)), rng.uniform(-1, 1, (2, 3, 3))]
    with autograd.record():
        outs = mx.nd.RNN(*args, sl, state_size=3, num_layers=1, bidirectional=True, mode="gru",
                         state_outputs=True, use_sequence_length=True)
    autograd.backward(list(outs), [mx.nd.array(h, dtype="float64") for h in heads])

    def loss(x_, flat_, h0_):
        res = numpy_rnn(x_, flat_, h0_, None, "gru", 1, True, 3, lengths=lengths)
        return sum(float((r * w).sum()) for r, w in zip(res, heads))
    arrays = [x, flat, h0]
    for a, arr in zip(args, arrays):
        g = np.zeros(arr.size)
        view = arr.reshape(-1)
        for i in range(arr.size):
            old = view[i]
            view[i] = old + 1e-6
            up = loss(*arrays)
            view[i] = old - 1e-6
            down = loss(*arrays)
            view[i] = old
            g[i] = (up - down) / 2e-6
        np.testing.assert_allclose(a.grad.asnumpy().reshape(-1), g, rtol=1e-5, atol=1e-7)


def test_symbol_executor_matches_imperative_and_infers_parameter_size():
    mode, layers, bidi, H = "lstm", 2, True, 4
    x, flat, h0, c0 = make_case(mode, layers, bidi, H=H)
    data, params = mx.sym.var("data"), mx.sym.var("parameters")
    state, cell = mx.sym.var("state"), mx.sym.var("state_cell")
    sym = mx.sym.RNN(data, params, state, cell, state_size=H, num_layers=layers,
                     bidirectional=True, mode=mode, state_outputs=True, name="rnn")
    assert sym.list_outputs() == ["rnn_output", "rnn_state_output", "rnn_statecell_output"]
    arg_shapes, out_shapes, _ = sym.infer_shape(data=x.shape)
    assert arg_shapes[1] == flat.shape and arg_shapes[2] == h0.shape
    assert out_shapes == [(4, 3, 8), h0.shape, h0.shape]
    arrays = [mx.nd.array(a, dtype="float64") for a in (x, flat, h0, c0)]
    grads = [mx.nd.zeros(a.shape, dtype="float64") for a in arrays]
    exe = sym.bind(mx.cpu(), args=dict(zip(sym.list_arguments(), arrays)),
                   args_grad=dict(zip(sym.list_arguments(), grads)))
    exe.forward(is_train=True)
    heads = [mx.nd.array(np.random.RandomState(i).uniform(-1, 1, o.shape), dtype="float64")
             for i, o in enumerate(exe.outputs)]
    exe.backward(heads)
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        outs = mx.nd.RNN(*arrays, state_size=H, num_layers=layers, bidirectional=True,
                         mode=mode, state_outputs=True)
    autograd.backward(list(outs), heads)
    for o_sym, o_nd in zip(exe.outputs, outs):
        np.testing.assert_allclose(o_sym.asnumpy(), o_nd.asnumpy(), rtol=1e-12, atol=1e-12)
    for g_sym, a in zip(grads, arrays):
        np.testing.assert_allclose(g_sym.asnumpy(), a.grad.asnumpy(), rtol=1e-12, atol=1e-12)


def test_dropout_between_layers():
    x, flat, h0, _ = make_case("rnn_tanh", 2, False, T=6, N=4, I=5, H=8, seed=1)
    args = [mx.nd.array(a, dtype="float64") for a in (x, flat, h0)]
    kwargs = dict(state_size=8, num_layers=2, mode="rnn_tanh", p=0.5)
    ref = numpy_rnn(x, flat, h0, None, "rnn_tanh", 2, False, 8)[0]
    # Inference: dropout off.
    np.testing.assert_allclose(mx.nd.RNN(*args, **kwargs).asnumpy(), ref, rtol=1e-10)
    # Training: the first layer's output is dropped; the result differs and the gradient
    # stays consistent with the forward (checked through a linear head on a fixed seed).
    mx.random.seed(3)
    for a in args:
        a.attach_grad()
    with autograd.record(train_mode=True):
        out = mx.nd.RNN(*args, **kwargs)
    out.backward(mx.nd.ones_like(out))
    assert np.abs(out.asnumpy() - ref).max() > 1e-3
    assert np.isfinite(args[1].grad.asnumpy()).all()


# ----------------------------------------------------------------------- _rnn_param_concat

def test_rnn_param_concat_forward_backward_and_inference():
    a = mx.nd.array(np.arange(6.0))
    b = mx.nd.array(np.arange(4.0) + 10)
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        out = mx.nd._internal._rnn_param_concat(a, b, dim=0, num_args=2)
    np.testing.assert_array_equal(out.asnumpy(), np.concatenate([np.arange(6.0),
                                                                 np.arange(4.0) + 10]))
    out.backward(mx.nd.array(np.arange(10.0)))
    np.testing.assert_array_equal(a.grad.asnumpy(), np.arange(6.0))
    np.testing.assert_array_equal(b.grad.asnumpy(), np.arange(6.0, 10.0))
    m = mx.nd._internal._rnn_param_concat(mx.nd.ones((2, 3)), mx.nd.zeros((2, 2)), dim=1,
                                          num_args=2)
    np.testing.assert_array_equal(m.asnumpy(), np.concatenate([np.ones((2, 3)),
                                                               np.zeros((2, 2))], axis=1))
    # One unknown input length is inferred from the output (through RNN's parameter size).
    w1, w2 = mx.sym.var("w1"), mx.sym.var("w2", shape=(40,))
    params = mx.sym._internal._rnn_param_concat(w1, w2, dim=0, num_args=2)
    sym = mx.sym.RNN(mx.sym.var("data"), params, mx.sym.var("state"), state_size=4,
                     num_layers=1, mode="rnn_tanh")
    arg_shapes, _, _ = sym.infer_shape(data=(3, 2, 5))
    assert dict(zip(sym.list_arguments(), arg_shapes))["w1"] == (param_size(
        "rnn_tanh", 1, False, 5, 4) - 40,)


# ----------------------------------------------------------------------- errors

def test_errors():
    x = mx.nd.zeros((3, 2, 4))
    h = mx.nd.zeros((1, 2, 5))
    with pytest.raises(mx.base.MXNetError) as e:
        mx.nd.RNN(x, mx.nd.zeros((7,)), h, state_size=5, num_layers=1, mode="gru")
    msg = str(e.value)
    assert "RNN" in msg and "7" in msg and str(param_size("gru", 1, False, 4, 5)) in msg
    with pytest.raises(mx.base.MXNetError) as e:
        mx.nd.RNN(x, mx.nd.zeros((165,)), h, state_size=5, num_layers=1, mode="peephole")
    assert "mode" in str(e.value)
    with pytest.raises(mx.base.MXNetError) as e:
        mx.nd.RNN(x, mx.nd.zeros((165,)), mx.nd.zeros((2, 2, 5)), state_size=5, num_layers=1,
                  mode="gru")
    assert "state" in str(e.value) and "(1,2,5)" in str(e.value).replace(" ", "").replace(
        "[", "(").replace("]", ")")
    with pytest.raises(mx.base.MXNetError) as e:
        mx.nd.RNN(mx.nd.zeros((3, 4)), mx.nd.zeros((165,)), h, state_size=5, num_layers=1,
                  mode="gru")
    assert "3 dimensions" in str(e.value)
    with pytest.raises(NotImplementedError,
                       match=r"RNN: projection_size=2 \(LSTMP\) runs on a GPU with cuDNN only"):
        mx.nd.RNN(x, mx.nd.zeros((4 * 5 * (4 + 2) + 2 * 5 + 2 * 4 * 5,)), mx.nd.zeros((1, 2, 2)),
                  mx.nd.zeros((1, 2, 5)), state_size=5, num_layers=1, mode="lstm",
                  projection_size=2).asnumpy()
    for bad in (5, -1):
        with pytest.raises(mx.base.MXNetError, match="projection_size=%d must be positive and "
                                                     "less than state_size=5" % bad):
            mx.nd.RNN(x, mx.nd.zeros((1,)), h, mx.nd.zeros((1, 2, 5)), state_size=5,
                      num_layers=1, mode="lstm", projection_size=bad)
    with pytest.raises(mx.base.MXNetError, match="only supported with mode='lstm'"):
        mx.nd.RNN(x, mx.nd.zeros((1,)), h, state_size=5, num_layers=1, mode="gru",
                  projection_size=2)
    with pytest.raises(mx.base.MXNetError) as e:
        # Checked when the operator runs: the error surfaces at the next synchronisation.
        mx.nd.RNN(x, mx.nd.zeros((165,)), h, mx.nd.array([4, 1]), state_size=5, num_layers=1,
                  mode="gru", use_sequence_length=True).asnumpy()
    assert "sequence_length" in str(e.value)
    x16, h16 = x.astype("float16"), h.astype("float16")
    with pytest.raises(TypeError, match=r"RNN: expected float32 or float64, got float16 "
                                        r"\(float16 runs on a GPU with cuDNN only"):
        mx.nd.RNN(x16, mx.nd.zeros((165,), dtype="float16"), h16, state_size=5, num_layers=1,
                  mode="gru").asnumpy()
    with pytest.raises(mx.base.MXNetError, match="int32"):
        mx.nd.RNN(x.astype("int32"), mx.nd.zeros((165,), dtype="int32"), h.astype("int32"),
                  state_size=5, num_layers=1, mode="gru")


@pytest.mark.parametrize("layers,bidi", [(1, False), (2, True)])
def test_projection_shapes_match_gluon_lstmp_parameters(layers, bidi):
    """LSTMP's flat parameter vector holds Gluon's LSTM(projection_size) parameters in 1.9.1's
    order (per layer and direction i2h, h2h, h2r weights, then the biases), and h and the
    output have projection_size features while the cell keeps state_size."""
    T, N, I, H, P = 5, 3, 4, 7, 3
    net = mx.gluon.rnn.LSTM(H, num_layers=layers, bidirectional=bidi, projection_size=P,
                            input_size=I)
    net.initialize()
    sizes = {k: v.data().size for k, v in net.collect_params().items()}
    d = 2 if bidi else 1
    sym = mx.sym.RNN(mx.sym.var("data"), mx.sym.var("params"), mx.sym.var("state"),
                     mx.sym.var("cell"), state_size=H, num_layers=layers, bidirectional=bidi,
                     mode="lstm", projection_size=P, state_outputs=True)
    args, outs, _ = sym.infer_shape(data=(T, N, I))
    assert args[1] == (sum(sizes.values()),)
    assert args[2] == (layers * d, N, P) and args[3] == (layers * d, N, H)
    assert outs == [(T, N, d * P), (layers * d, N, P), (layers * d, N, H)]
    h2r = [k for k in sizes if k.endswith("h2r_weight")]
    assert len(h2r) == layers * d and all(sizes[k] == P * H for k in h2r)


# ----------------------------------------------------------------------- MXNet 1.9.1

_ORACLE_SCRIPT = r"""
import sys, numpy as np, mxnet as mx
src = np.load(sys.argv[1])
out = {}
for key in sorted({k.split('/')[0] for k in src.files}):
    mode, layers, bidi = key.split('-')
    args = [mx.nd.array(src[key + '/x']), mx.nd.array(src[key + '/flat']),
            mx.nd.array(src[key + '/h0'])]
    if mode == 'lstm':
        args.append(mx.nd.array(src[key + '/c0']))
    res = mx.nd.RNN(*args, state_size=4, num_layers=int(layers), bidirectional=bidi == '1',
                    mode=mode, state_outputs=True)
    for i, r in enumerate(res):
        out['%s/%d' % (key, i)] = r.asnumpy()
np.savez(sys.argv[2], **out)
"""


@pytest.mark.skipif(not oracle.HAVE_MX191, reason=oracle.SKIP_REASON)
def test_matches_mxnet_191(tmp_path):
    oracle.check_reference()
    inputs = {}
    for mode, layers, bidi in CONFIGS:
        key = "%s-%d-%d" % (mode, layers, int(bidi))
        x, flat, h0, c0 = make_case(mode, layers, bidi, T=5, N=3, I=6, H=4, seed=layers,
                                    dtype="float32")
        inputs.update({key + "/x": x, key + "/flat": flat, key + "/h0": h0})
        if c0 is not None:
            inputs[key + "/c0"] = c0
    np.savez(str(tmp_path / "in.npz"), **inputs)
    script = tmp_path / "oracle.py"
    script.write_text(_ORACLE_SCRIPT)
    oracle.run([script, tmp_path / "in.npz", tmp_path / "out.npz"], ours=False)
    ref = np.load(str(tmp_path / "out.npz"))
    for mode, layers, bidi in CONFIGS:
        key = "%s-%d-%d" % (mode, layers, int(bidi))
        args = [inputs[key + "/x"], inputs[key + "/flat"], inputs[key + "/h0"],
                inputs.get(key + "/c0")]
        _, outs = call_rnn(*args, mode, layers, bidi, 4, state_outputs=True)
        for i, o in enumerate(outs):
            np.testing.assert_allclose(o.asnumpy(), ref["%s/%d" % (key, i)], rtol=1e-4,
                                       atol=1e-5, err_msg="%s output %d" % (key, i))


# ----------------------------------------------------------------------- Gluon layers

def test_gluon_layer_use_sequence_length():
    """Padded steps of a sequence do not change the result for its valid prefix."""
    from mxnet.gluon import rnn
    layer = rnn.LSTM(4, num_layers=2, bidirectional=True, layout="NTC", input_size=3,
                     use_sequence_length=True)
    layer.initialize(mx.init.Uniform(0.5))
    plain = rnn.LSTM(4, num_layers=2, bidirectional=True, layout="NTC", input_size=3,
                     params=layer.collect_params())
    x = mx.nd.random.uniform(-1, 1, (3, 5, 3))
    lengths = [5, 2, 3]
    for hybridize in (False, True):
        if hybridize:
            layer.hybridize()
        out, (hy, cy) = layer(x, layer.begin_state(3), sequence_length=mx.nd.array(lengths))
        for b, n in enumerate(lengths):
            ref, (ref_h, ref_c) = plain(x[b:b + 1, :n], plain.begin_state(1))
            np.testing.assert_allclose(out[b:b + 1, :n].asnumpy(), ref.asnumpy(), rtol=1e-5,
                                       atol=1e-6)
            assert (out[b, n:].asnumpy() == 0).all()
            np.testing.assert_allclose(hy[:, b].asnumpy(), ref_h[:, 0].asnumpy(), rtol=1e-5,
                                       atol=1e-6)
            np.testing.assert_allclose(cy[:, b].asnumpy(), ref_c[:, 0].asnumpy(), rtol=1e-5,
                                       atol=1e-6)


def test_gluon_layer_symbolic_without_shapes():
    """A layer applied to a shapeless symbol: parameter sizes and zero states come from the
    data shape given later (through RNN, _rnn_param_concat and reshape inference)."""
    from mxnet.gluon import rnn
    layer = rnn.GRU(5, num_layers=2, bidirectional=True, layout="NTC")
    out = layer(mx.sym.var("data"))
    arg_shapes, out_shapes, _ = out.infer_shape(data=(2, 7, 3))
    shapes = dict(zip(out.list_arguments(), arg_shapes))
    assert out_shapes == [(2, 7, 10)]
    assert shapes[layer.prefix + "l0_i2h_weight"] == (15, 3)
    assert shapes[layer.prefix + "r1_i2h_weight"] == (15, 10)
    # Same values as the imperative layer.
    layer.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(-1, 1, (2, 7, 3))
    want = layer(x)
    args = {name: p.data() for name, p in layer.collect_params().items()}
    got = out.eval(ctx=mx.cpu(), data=x, **args)[0]
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["lstm", "gru"])
def test_large_batch_parallel_steps_match_per_row_calls(mode):
    """Steps big enough to split the batch across threads give what batch-of-one calls (the
    serial path, checked by finite differences above) give: outputs, state gradients, and
    parameter gradients summed over the rows."""
    T, N, I, H = 3, 24, 8, 64  # N * gates * H * H >= kRNNStepParallelFlops (2^18)
    x, flat, h0, c0 = make_case(mode, 2, True, T=T, N=N, I=I, H=H, seed=9)
    rng = np.random.RandomState(2)
    head = rng.uniform(-1, 1, (T, N, 2 * H))
    head_h = rng.uniform(-1, 1, h0.shape)

    def run(rows):
        arrays = [mx.nd.array(a, dtype="float64") for a in (x[:, rows], flat, h0[:, rows])]
        if c0 is not None:
            arrays.append(mx.nd.array(c0[:, rows], dtype="float64"))
        for a in arrays:
            a.attach_grad()
        with autograd.record():
            outs = mx.nd.RNN(*arrays, state_size=H, num_layers=2, bidirectional=True,
                             mode=mode, state_outputs=True)
        heads = [mx.nd.array(head[:, rows], dtype="float64"),
                 mx.nd.array(head_h[:, rows], dtype="float64")]
        if c0 is not None:
            heads.append(mx.nd.zeros(outs[2].shape, dtype="float64"))
        autograd.backward(list(outs), heads)
        return [o.asnumpy() for o in outs[:2]], [a.grad.asnumpy() for a in arrays]

    outs, grads = run(slice(None))
    param_grad = np.zeros(flat.shape)
    for b in range(N):
        o_b, g_b = run(slice(b, b + 1))
        np.testing.assert_allclose(outs[0][:, b:b + 1], o_b[0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(outs[1][:, b:b + 1], o_b[1], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(grads[0][:, b:b + 1], g_b[0], rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(grads[2][:, b:b + 1], g_b[2], rtol=1e-9, atol=1e-12)
        param_grad += g_b[1]
    np.testing.assert_allclose(grads[1], param_grad, rtol=1e-8, atol=1e-10)
