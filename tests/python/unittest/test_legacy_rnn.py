"""The legacy symbolic mx.rnn package: cells against NumPy, against MXNet 1.9.1, the
bucketing sentence iterator and RNN checkpoints."""
import json
import os
import tempfile

import numpy as np
import pytest

import mxnet as mx
import mx191_oracle

B, T, C, H = 2, 4, 3, 5


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _np_rnn_step(p, prefix, x, states):
    h = np.tanh(x @ p[prefix + "i2h_weight"].T + p[prefix + "i2h_bias"]
                + states[0] @ p[prefix + "h2h_weight"].T + p[prefix + "h2h_bias"])
    return h, [h]


def _np_lstm_step(p, prefix, x, states):
    g = (x @ p[prefix + "i2h_weight"].T + p[prefix + "i2h_bias"]
         + states[0] @ p[prefix + "h2h_weight"].T + p[prefix + "h2h_bias"])
    i, f, c, o = np.split(g, 4, axis=1)
    c_new = _sigmoid(f) * states[1] + _sigmoid(i) * np.tanh(c)
    h_new = _sigmoid(o) * np.tanh(c_new)
    return h_new, [h_new, c_new]


def _np_gru_step(p, prefix, x, states):
    h = states[0]
    i2h = x @ p[prefix + "i2h_weight"].T + p[prefix + "i2h_bias"]
    h2h = h @ p[prefix + "h2h_weight"].T + p[prefix + "h2h_bias"]
    ir, iz, ih = np.split(i2h, 3, axis=1)
    hr, hz, hh = np.split(h2h, 3, axis=1)
    r = _sigmoid(ir + hr)
    z = _sigmoid(iz + hz)
    cand = np.tanh(ih + r * hh)
    h_new = (1 - z) * cand + z * h
    return h_new, [h_new]


def _np_unroll(step, p, prefix, xs, states):
    outs = []
    for t in range(xs.shape[1]):
        out, states = step(p, prefix, xs[:, t], states)
        outs.append(out)
    return np.stack(outs, axis=1), states


def _random_params(sym, data_shape, rng, **shapes):
    arg_shapes, _, _ = sym.infer_shape(data=data_shape, **shapes)
    return {name: rng.uniform(-0.5, 0.5, shape).astype(np.float32)
            for name, shape in zip(sym.list_arguments(), arg_shapes)}


def _run(sym, args):
    exe = sym.bind(mx.cpu(), {k: mx.nd.array(v) for k, v in args.items()})
    return [o.asnumpy() for o in exe.forward()]


def _state_vars(cell):
    return [mx.sym.Variable("s%d" % i) for i in range(len(cell.state_info))]


@pytest.mark.parametrize("kind", ["rnn", "lstm", "gru"])
@pytest.mark.parametrize("layout", ["NTC", "TNC"])
def test_cell_unroll_matches_numpy(kind, layout):
    cell, step = {"rnn": (mx.rnn.RNNCell(H, prefix="rnn_"), _np_rnn_step),
                  "lstm": (mx.rnn.LSTMCell(H, prefix="lstm_l0_"), _np_lstm_step),
                  "gru": (mx.rnn.GRUCell(H, prefix="gru_"), _np_gru_step)}[kind]
    prefix = cell._prefix
    states = _state_vars(cell)
    outputs, out_states = cell.unroll(T, mx.sym.Variable("data"), begin_state=states,
                                      layout=layout, merge_outputs=True)
    sym = mx.sym.Group([outputs] + list(out_states))
    assert [a for a in sym.list_arguments() if a.startswith(prefix)] == [
        prefix + "i2h_weight", prefix + "i2h_bias", prefix + "h2h_weight", prefix + "h2h_bias"]
    rng = np.random.RandomState(0)
    shape = (B, T, C) if layout == "NTC" else (T, B, C)
    state_shapes = {"s%d" % i: (B, H) for i in range(len(states))}
    args = _random_params(sym, shape, rng, **state_shapes)
    res = _run(sym, args)
    xs = args["data"] if layout == "NTC" else args["data"].transpose(1, 0, 2)
    p = {k: v.astype(np.float64) for k, v in args.items()}
    expect, expect_states = _np_unroll(step, p, prefix, xs.astype(np.float64),
                                       [p["s%d" % i] for i in range(len(states))])
    if layout == "TNC":
        expect = expect.transpose(1, 0, 2)
    np.testing.assert_allclose(res[0], expect, rtol=1e-4, atol=1e-5)
    for got, want in zip(res[1:], expect_states):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    # merge_outputs=False: one symbol per step, named as MXNet names them.
    outputs, _ = cell.unroll(T, mx.sym.Variable("data"), begin_state=states, layout=layout,
                             merge_outputs=False)
    assert len(outputs) == T
    last = {"rnn": "rnn_t3_out_output", "lstm": "lstm_l0_t3_out_output",
            "gru": "gru_t3_out_output"}[kind]
    assert outputs[-1].list_outputs() == [last]


def test_stacked_bidirectional_residual_cells():
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(H, prefix="l0_"))
    stack.add(mx.rnn.DropoutCell(0.5))
    stack.add(mx.rnn.ResidualCell(mx.rnn.GRUCell(H, prefix="l1_")))
    assert len(stack.state_info) == 3
    states = _state_vars(stack)
    outputs, out_states = stack.unroll(T, mx.sym.Variable("data"), begin_state=states,
                                       merge_outputs=True)
    assert [s.name for s in out_states] == ["l0_t3_out", "l0_t3_state", "l1_t3_out"]
    rng = np.random.RandomState(1)
    shapes = {"s0": (B, H), "s1": (B, H), "s2": (B, H)}
    args = _random_params(outputs, (B, T, C), rng, **shapes)
    got = _run(outputs, args)[0]       # bind = inference: dropout is the identity
    p = {k: v.astype(np.float64) for k, v in args.items()}
    h0, _ = _np_unroll(_np_lstm_step, p, "l0_", p["data"], [p["s0"], p["s1"]])
    h1, _ = _np_unroll(_np_gru_step, p, "l1_", h0, [p["s2"]])
    np.testing.assert_allclose(got, h1 + h0, rtol=1e-4, atol=1e-5)

    bi = mx.rnn.BidirectionalCell(mx.rnn.RNNCell(H, prefix="fw_"),
                                  mx.rnn.GRUCell(H, prefix="bw_"), output_prefix="bi_")
    with pytest.raises(NotImplementedError):
        bi(mx.sym.Variable("x"), _state_vars(bi))
    states = _state_vars(bi)
    for merge in (True, False):
        outputs, out_states = bi.unroll(T, mx.sym.Variable("data"), begin_state=states,
                                        merge_outputs=merge)
        sym = outputs if merge else mx.sym.Group(outputs)
        args = _random_params(sym, (B, T, C), rng, s0=(B, H), s1=(B, H))
        got = _run(sym, args)
        got = got[0] if merge else np.stack(got, axis=1)
        p = {k: v.astype(np.float64) for k, v in args.items()}
        fw, _ = _np_unroll(_np_rnn_step, p, "fw_", p["data"], [p["s0"]])
        bw, _ = _np_unroll(_np_gru_step, p, "bw_", p["data"][:, ::-1], [p["s1"]])
        np.testing.assert_allclose(got, np.concatenate([fw, bw[:, ::-1]], axis=2),
                                   rtol=1e-4, atol=1e-5)
        assert len(out_states) == 2
    assert outputs[0].list_outputs() == ["bi_t0_output"]


def test_begin_state_params_and_modifier_rules():
    cell = mx.rnn.LSTMCell(H, prefix="lstm_")
    assert cell.state_info == [{"shape": (0, H), "__layout__": "NC"}] * 2
    assert cell.state_shape == [(0, H), (0, H)]
    begin = cell.begin_state()
    assert [s.name for s in begin] == ["lstm_begin_state_0", "lstm_begin_state_1"]
    params = cell.params
    assert sorted(params._params) == ["lstm_h2h_bias", "lstm_h2h_weight", "lstm_i2h_bias",
                                      "lstm_i2h_weight"]
    # Shared params: a second cell with the same RNNParams reuses the same variables.
    twin = mx.rnn.LSTMCell(H, prefix="lstm_", params=params)
    assert twin._iW is cell._iW
    zone = mx.rnn.ZoneoutCell(mx.rnn.RNNCell(H, prefix="z_"), zoneout_outputs=0.5,
                              zoneout_states=0.5)
    with pytest.raises(RuntimeError):
        zone.base_cell.begin_state()
    assert [s.name for s in zone.begin_state()] == ["z_begin_state_0"]
    with pytest.raises(TypeError):
        mx.rnn.ZoneoutCell(mx.rnn.BidirectionalCell(mx.rnn.RNNCell(H), mx.rnn.RNNCell(H)))
    # Zoneout at inference: Dropout of ones is ones, so the new values are kept.
    outputs, _ = zone.unroll(T, mx.sym.Variable("data"), begin_state=[mx.sym.Variable("s0")],
                             merge_outputs=True)
    args = _random_params(outputs, (B, T, C), np.random.RandomState(2), s0=(B, H))
    p = {k: v.astype(np.float64) for k, v in args.items()}
    expect, _ = _np_unroll(_np_rnn_step, p, "z_", p["data"], [p["s0"]])
    np.testing.assert_allclose(_run(outputs, args)[0], expect, rtol=1e-4, atol=1e-5)


def test_pack_unpack_weights():
    cell = mx.rnn.LSTMCell(H, prefix="lstm_")
    rng = np.random.RandomState(3)
    args = {"lstm_i2h_weight": mx.nd.array(rng.randn(4 * H, C)),
            "lstm_h2h_weight": mx.nd.array(rng.randn(4 * H, H)),
            "lstm_i2h_bias": mx.nd.array(rng.randn(4 * H)),
            "lstm_h2h_bias": mx.nd.array(rng.randn(4 * H)), "other": mx.nd.ones((2,))}
    unpacked = cell.unpack_weights(args)
    assert sorted(unpacked) == sorted(
        ["other"] + ["lstm_%s_%s_%s" % (g, gate, kind) for g in ("i2h", "h2h")
                     for gate in "ifco" for kind in ("weight", "bias")])
    for j, gate in enumerate("ifco"):
        np.testing.assert_array_equal(unpacked["lstm_i2h_%s_weight" % gate].asnumpy(),
                                      args["lstm_i2h_weight"].asnumpy()[j * H:(j + 1) * H])
    packed = cell.pack_weights(unpacked)
    assert sorted(packed) == sorted(args)
    for k in args:
        np.testing.assert_array_equal(packed[k].asnumpy(), args[k].asnumpy())
    # Stacks apply every cell's (un)packing.
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.GRUCell(H, prefix="g_"))
    stack.add(mx.rnn.RNNCell(H, prefix="r_"))
    gargs = {"g_i2h_weight": mx.nd.ones((3 * H, C)), "g_h2h_weight": mx.nd.ones((3 * H, H)),
             "g_i2h_bias": mx.nd.zeros((3 * H,)), "g_h2h_bias": mx.nd.zeros((3 * H,)),
             "r_i2h_weight": mx.nd.ones((H, C)), "r_h2h_weight": mx.nd.ones((H, H)),
             "r_i2h_bias": mx.nd.zeros((H,)), "r_h2h_bias": mx.nd.zeros((H,))}
    un = stack.unpack_weights(gargs)
    assert "g_i2h_r_weight" in un and "r_i2h_weight" in un and "g_i2h_weight" not in un
    assert sorted(stack.pack_weights(un)) == sorted(gargs)


def test_fused_cell_unfuse_and_missing_operator():
    fused = mx.rnn.FusedRNNCell(H, num_layers=2, mode="lstm", bidirectional=True, prefix="lstm_")
    stack = fused.unfuse()
    outputs, _ = stack.unroll(T, mx.sym.Variable("data"),
                              begin_state=[mx.sym.Variable("s%d" % i) for i in range(8)],
                              merge_outputs=True)
    names = outputs.list_arguments()
    assert "lstm_l0_i2h_weight" in names and "lstm_r1_h2h_bias" in names
    assert outputs.list_outputs() == ["lstm_bi_l1_out_output"]
    assert fused.state_info[0] == {"shape": (4, 0, H), "__layout__": "LNC"}
    # Packed-vector layout round trip (pure NDArray code).
    size = 2 * 4 * H * (C + H + 2) + 2 * 4 * H * (2 * H + H + 2)
    vec = mx.nd.array(np.arange(size, dtype=np.float32))
    un = fused.unpack_weights({"lstm_parameters": vec})
    assert un["lstm_l0_i2h_i_weight"].shape == (H, C)
    assert un["lstm_l1_i2h_f_weight"].shape == (H, 2 * H)
    np.testing.assert_array_equal(un["lstm_l0_i2h_i_weight"].asnumpy().ravel(),
                                  np.arange(H * C))
    back = fused.pack_weights(un)
    np.testing.assert_array_equal(back["lstm_parameters"].asnumpy(), vec.asnumpy())
    if not hasattr(mx.sym, "RNN"):
        with pytest.raises(NotImplementedError, match="RNN"):
            fused.unroll(T, mx.sym.Variable("data"))


def test_encode_sentences():
    sents = [["a", "b", "c"], ["b", "d"], ["a"]]
    coded, vocab = mx.rnn.encode_sentences(sents, invalid_label=0, start_label=0)
    assert vocab == {"\n": 0, "a": 1, "b": 2, "c": 3, "d": 4}
    assert coded == [[1, 2, 3], [2, 4], [1]]
    # As MXNet 1.9.1: every unknown word re-maps unknown_token to the next free id.
    coded, vocab2 = mx.rnn.encode_sentences([["a", "zz", "yy"]], vocab=dict(vocab),
                                            unknown_token="<unk>", start_label=5)
    assert coded == [[1, 5, 6]] and vocab2["<unk>"] == 6
    with pytest.raises(KeyError):
        mx.rnn.encode_sentences([["zz"]], vocab=dict(vocab))


@pytest.mark.parametrize("layout", ["NT", "TN"])
def test_bucket_sentence_iter(layout):
    rng = np.random.RandomState(4)
    sents = [list(rng.randint(1, 50, size=rng.randint(2, 9))) for _ in range(60)]
    it = mx.rnn.BucketSentenceIter(sents, batch_size=4, buckets=[4, 6, 8], invalid_label=0,
                                   layout=layout)
    assert it.default_bucket_key == 8
    desc = it.provide_data[0]
    assert desc.name == "data" and desc.shape == ((4, 8) if layout == "NT" else (8, 4))
    by_bucket = {b: [s for s in sents if (b == 4 and len(s) <= 4)
                     or (b == 6 and 4 < len(s) <= 6) or (b == 8 and 6 < len(s) <= 8)]
                 for b in (4, 6, 8)}
    expected_batches = sum(len(v) // 4 for v in by_bucket.values())
    for _ in range(2):
        seen = []
        nbatch = 0
        for batch in it:
            nbatch += 1
            data = batch.data[0].asnumpy()
            label = batch.label[0].asnumpy()
            if layout == "TN":
                data, label = data.T, label.T
            assert data.shape == (4, batch.bucket_key)
            assert batch.provide_data[0].shape == batch.data[0].shape
            np.testing.assert_array_equal(label[:, :-1], data[:, 1:])
            np.testing.assert_array_equal(label[:, -1], 0)
            for row in data:
                sent = [int(v) for v in row if v != 0]
                assert np.all(row[len(sent):] == 0)
                assert sent in by_bucket[batch.bucket_key]
                seen.append(tuple(sent))
        assert nbatch == expected_batches
        assert len(set(seen)) == len(seen)
        it.reset()
    with pytest.raises(ValueError):
        mx.rnn.BucketSentenceIter(sents, 4, buckets=[8], layout="TC")


def test_rnn_checkpoint_roundtrip():
    cell = mx.rnn.LSTMCell(H, prefix="lstm_")
    outputs, _ = cell.unroll(2, mx.sym.Variable("data"), begin_state=_state_vars(cell))
    rng = np.random.RandomState(5)
    args = {"lstm_i2h_weight": mx.nd.array(rng.randn(4 * H, C)),
            "lstm_h2h_weight": mx.nd.array(rng.randn(4 * H, H)),
            "lstm_i2h_bias": mx.nd.array(rng.randn(4 * H)),
            "lstm_h2h_bias": mx.nd.array(rng.randn(4 * H))}
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "model")
        callback = mx.rnn.do_rnn_checkpoint(cell, prefix, period=2)
        callback(0, outputs[-1], args, {})
        assert not os.path.exists(prefix + "-0001.params")
        callback(1, outputs[-1], args, {})
        saved = mx.nd.load(prefix + "-0002.params")
        assert "arg:lstm_i2h_f_weight" in saved and "arg:lstm_i2h_weight" not in saved
        sym, arg, aux = mx.rnn.load_rnn_checkpoint(cell, prefix, 2)
        assert sym.list_outputs() == outputs[-1].list_outputs()
        assert sorted(arg) == sorted(args) and aux == {}
        for k in args:
            np.testing.assert_array_equal(arg[k].asnumpy(), args[k].asnumpy())


_ORACLE_SCRIPT = r"""
import json, sys
import numpy as np
import mxnet as mx
spec = json.load(open(sys.argv[1]))
data = np.load(sys.argv[2])
H = spec["H"]
def build():
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(H, prefix="lstm_l0_"))
    stack.add(mx.rnn.BidirectionalCell(mx.rnn.GRUCell(H, prefix="gl_"),
                                       mx.rnn.RNNCell(H, prefix="rr_", activation="relu"),
                                       output_prefix="bi_"))
    stack.add(mx.rnn.ResidualCell(mx.rnn.GRUCell(2 * H, prefix="res_")))
    return stack
stack = build()
states = [mx.sym.Variable("s%d" % i) for i in range(len(stack.state_info))]
outputs, out_states = stack.unroll(spec["T"], mx.sym.Variable("data"), begin_state=states,
                                   layout=spec["layout"], merge_outputs=True)
args = {k: mx.nd.array(data[k]) for k in outputs.list_arguments()}
exe = outputs.bind(mx.cpu(), args)
res = {"out": exe.forward()[0].asnumpy(), "args": np.array(outputs.list_arguments()),
       "internals": np.array(outputs.get_internals().list_outputs())}
np.savez(sys.argv[3], **res)
"""


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
@pytest.mark.parametrize("layout", ["NTC", "TNC"])
def test_against_mxnet_191(layout):
    mx191_oracle.check_reference()
    spec = {"H": H, "T": T, "layout": layout}
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(H, prefix="lstm_l0_"))
    stack.add(mx.rnn.BidirectionalCell(mx.rnn.GRUCell(H, prefix="gl_"),
                                       mx.rnn.RNNCell(H, prefix="rr_", activation="relu"),
                                       output_prefix="bi_"))
    stack.add(mx.rnn.ResidualCell(mx.rnn.GRUCell(2 * H, prefix="res_")))
    states = [mx.sym.Variable("s%d" % i) for i in range(len(stack.state_info))]
    with mx.name.NameManager():       # automatic names counted from 0, as in a fresh process
        outputs, _ = stack.unroll(T, mx.sym.Variable("data"), begin_state=states,
                                  layout=layout, merge_outputs=True)
    shape = (B, T, C) if layout == "NTC" else (T, B, C)
    state_shapes = {"s%d" % i: (B, H) for i in range(len(states))}
    state_shapes["s%d" % (len(states) - 1)] = (B, 2 * H)
    args = _random_params(outputs, shape, np.random.RandomState(6), **state_shapes)
    ours = _run(outputs, args)[0]
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, n) for n in ("oracle.py", "spec.json", "in.npz", "out.npz")]
        with open(paths[0], "w") as f:
            f.write(_ORACLE_SCRIPT)
        with open(paths[1], "w") as f:
            json.dump(spec, f)
        np.savez(paths[2], **args)
        mx191_oracle.run(paths, ours=False)
        ref = np.load(paths[3])
        assert list(ref["args"]) == outputs.list_arguments()
        assert list(ref["internals"]) == outputs.get_internals().list_outputs()
        np.testing.assert_allclose(ours, ref["out"], rtol=1e-4, atol=1e-5)


def test_default_begin_state_infers_batch_size():
    cell = mx.rnn.LSTMCell(H, prefix="lstm_")
    outputs, _ = cell.unroll(T, mx.sym.Variable("data"), merge_outputs=True)
    _, out_shapes, _ = outputs.infer_shape(data=(B, T, C))
    assert out_shapes == [(B, T, H)]


def test_fused_rnn_initializer():
    fused = mx.rnn.FusedRNNCell(H, num_layers=1, mode="lstm", prefix="lstm_", forget_bias=2.5)
    attr = fused._parameter.attr("__init__")
    assert attr is not None and "fusedrnn" in attr
    size = 4 * H * (C + H + 2)
    arr = mx.nd.zeros((size,))
    mx.init.Constant(0.25)(mx.init.InitDesc("lstm_parameters", {"__init__": attr}), arr)
    un = fused.unpack_weights({"lstm_parameters": arr})
    np.testing.assert_array_equal(un["lstm_l0_i2h_f_bias"].asnumpy(), np.full(H, 2.5))
    np.testing.assert_array_equal(un["lstm_l0_h2h_f_bias"].asnumpy(), np.full(H, 2.5))
    # Other entries follow the global initializer's suffix rules: weights 0.25, biases 0.
    np.testing.assert_array_equal(un["lstm_l0_i2h_c_weight"].asnumpy(), np.full((H, C), 0.25))
    np.testing.assert_array_equal(un["lstm_l0_h2h_i_bias"].asnumpy(), np.zeros(H))
    own = mx.init.FusedRNN(mx.init.One(), H, 1, "gru")
    arr = mx.nd.zeros((3 * H * (C + H + 2),))
    mx.init.Uniform()(mx.init.InitDesc("gru_parameters", {"__init__": own.dumps()}), arr)
    un = mx.rnn.FusedRNNCell(H, mode="gru", prefix="gru_").unpack_weights(
        {"gru_parameters": arr})
    for name, value in un.items():      # One for weights; the suffix rule zeroes biases
        expect = 1.0 if name.endswith("weight") else 0.0
        np.testing.assert_array_equal(value.asnumpy(), np.full(value.shape, expect), name)
    assert mx.init.create(own.dumps())._mode == "gru"


@pytest.mark.skipif(not hasattr(mx.sym, "RNN"), reason="no fused RNN operator in this build")
@pytest.mark.parametrize("mode,bidirectional,layout", [("lstm", False, "TNC"),
                                                       ("gru", True, "NTC"),
                                                       ("rnn_tanh", False, "NTC")])
def test_fused_unroll_matches_unfused(mode, bidirectional, layout):
    fused = mx.rnn.FusedRNNCell(H, num_layers=2, mode=mode, bidirectional=bidirectional,
                                get_next_state=True, prefix="f_")
    n_states = len(fused.state_info)
    states = [mx.sym.Variable("s%d" % i) for i in range(n_states)]
    out, _ = fused.unroll(T, mx.sym.Variable("data"), begin_state=states, layout=layout,
                          merge_outputs=True)
    shape = (B, T, C) if layout == "NTC" else (T, B, C)
    dirs = 2 if bidirectional else 1
    state_shapes = {"s%d" % i: (2 * dirs, B, H) for i in range(n_states)}
    args = _random_params(out, shape, np.random.RandomState(8), **state_shapes)
    got = _run(out, args)[0]
    # The same network unfused, the packed vector split into per-gate arrays.
    stack = fused.unfuse()
    unpacked = {k: v.asnumpy() for k, v in fused.unpack_weights(
        {"f_parameters": mx.nd.array(args["f_parameters"])}).items()}
    plain = stack.pack_weights({k: mx.nd.array(v) for k, v in unpacked.items()})
    # Per-layer/direction begin states: slices of the fused (layers*dirs, N, H) states.
    per_cell = []
    for layer in range(2):
        for d in range(dirs):
            for i in range(n_states):
                per_cell.append(args["s%d" % i][layer * dirs + d])
    names = ["u%d" % i for i in range(len(per_cell))]
    ref_out, _ = stack.unroll(T, mx.sym.Variable("data"),
                              begin_state=[mx.sym.Variable(n) for n in names],
                              layout=layout, merge_outputs=True)
    ref_args = {k: v.asnumpy() for k, v in plain.items()}
    ref_args.update(dict(zip(names, per_cell)))
    ref_args["data"] = args["data"]
    np.testing.assert_allclose(got, _run(ref_out, ref_args)[0], rtol=1e-4, atol=1e-5)


def test_zero_dims_of_creation_ops_are_inferred_like_mxnet_1x():
    # Symbolic: a 0 in zeros/ones/full's shape is "unknown" and comes from the graph.
    x = mx.sym.Variable("x")
    for make in (lambda s: mx.sym.zeros(s), lambda s: mx.sym.ones(s),
                 lambda s: mx.sym.full(s, 2.0)):
        _, out_shapes, _ = (x + make((0, 3))).infer_shape(x=(5, 3))
        assert out_shapes == [(5, 3)]
        _, partial, _ = make((0, 3)).infer_shape_partial()
        assert partial == [(0, 3)]
    # Imperative: an empty array is still made (nothing to fill).
    for fn in (mx.nd.zeros, mx.nd.ones):
        a = fn((0, 3))
        assert a.shape == (0, 3) and a.asnumpy().shape == (0, 3)
    assert (mx.nd.full((2, 0), 7.0)).shape == (2, 0)
