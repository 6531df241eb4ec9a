"""mx.gluon.rnn: cells, unroll, layers against the real MXNet 1.9.1 and NumPy."""
import json
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle as oracle  # noqa: E402
import gluon_rnn_cases as cases  # noqa: E402

import mxnet as mx  # noqa: E402
from mxnet import autograd  # noqa: E402
from mxnet.gluon import rnn  # noqa: E402

CASE_NAMES = sorted(cases.CASES)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Inputs for every case and the outputs/gradients MXNet 1.9.1 computes from them."""
    if not oracle.HAVE_MX191:
        pytest.skip(oracle.SKIP_REASON)
    oracle.check_reference()
    tmp = tmp_path_factory.mktemp("gluon_rnn")
    inputs = {}
    for seed, key in enumerate(CASE_NAMES):
        for name, value in cases.make_arrays(mx, cases.CASES[key], seed).items():
            inputs[key + "/" + name] = value
    np.savez(str(tmp / "in.npz"), **inputs)
    with open(str(tmp / "cases.json"), "w") as f:
        json.dump(cases.CASES, f)
    oracle.run([cases.__file__, tmp / "cases.json", tmp / "in.npz", tmp / "out.npz"],
               ours=False)
    out = np.load(str(tmp / "out.npz"))
    ref = {}
    for k in out.files:
        key, name = k.split("/", 1)
        ref.setdefault(key, {})[name] = out[k]
    arrays = {}
    for k, v in inputs.items():
        key, name = k.split("/", 1)
        arrays.setdefault(key, {})[name] = v
    return arrays, ref


@pytest.mark.parametrize("hybridize", [False, True], ids=["imperative", "hybridized"])
@pytest.mark.parametrize("key", CASE_NAMES)
def test_matches_mxnet_191(reference, key, hybridize):
    arrays, ref = reference
    ours = cases.run_case(mx, cases.CASES[key], arrays[key], hybridize=hybridize)
    expected = ref[key]
    assert list(ours["names"]) == list(expected["names"]), "parameter names differ"
    assert sorted(ours) == sorted(expected)
    for name in sorted(expected):
        if name == "names":
            continue
        np.testing.assert_allclose(ours[name], expected[name], rtol=1e-5, atol=1e-5,
                                   err_msg="%s: %s" % (key, name))


def test_parameter_names_and_shapes():
    with mx.name.NameManager():
        lstm = rnn.LSTMCell(4, input_size=3)
        gru = rnn.GRUCell(5)
        layer = rnn.LSTM(7, num_layers=2, bidirectional=True, input_size=3)
        rnn_layer = rnn.RNN(2)
    assert sorted(lstm.collect_params().keys()) == [
        "lstm0_h2h_bias", "lstm0_h2h_weight", "lstm0_i2h_bias", "lstm0_i2h_weight"]
    assert lstm.i2h_weight.shape == (16, 3) and lstm.h2h_weight.shape == (16, 4)
    assert gru.i2h_weight.shape == (15, 0) and gru.h2h_bias.shape == (15,)
    names = list(layer.collect_params().keys())
    assert names[:4] == ["lstm1_l0_i2h_weight", "lstm1_l0_h2h_weight", "lstm1_l0_i2h_bias",
                         "lstm1_l0_h2h_bias"]
    assert names[4] == "lstm1_r0_i2h_weight" and len(names) == 16
    assert layer.params["lstm1_l1_i2h_weight"].shape == (28, 14)
    assert rnn_layer.prefix == "rnn0_" and rnn_layer.l0_i2h_weight.shape == (2, 0)


def test_lstm_cell_numpy():
    """One LSTM step by hand: gates i, f, c, o in that order."""
    cell = rnn.LSTMCell(3, input_size=2)
    cell.initialize()
    rng = np.random.RandomState(0)
    params = {k: rng.uniform(-1, 1, v.shape).astype(np.float32)
              for k, v in cell.collect_params().items()}
    for k, v in cell.collect_params().items():
        v.set_data(mx.nd.array(params[k]))
    x = rng.uniform(-1, 1, (4, 2)).astype(np.float32)
    h = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    c = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    out, (h1, c1) = cell(mx.nd.array(x), [mx.nd.array(h), mx.nd.array(c)])
    p = cell.prefix
    gates = x @ params[p + "i2h_weight"].T + params[p + "i2h_bias"] + \
        h @ params[p + "h2h_weight"].T + params[p + "h2h_bias"]
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    i, f, g, o = np.split(gates, 4, axis=1)
    c_ref = sig(f) * c + sig(i) * np.tanh(g)
    h_ref = sig(o) * np.tanh(c_ref)
    np.testing.assert_allclose(c1.asnumpy(), c_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h1.asnumpy(), h_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), h_ref, rtol=1e-5, atol=1e-6)


def test_layer_equals_unrolled_cells():
    """An LSTM layer equals LSTMCells sharing its parameters (forward and backward)."""
    layer = rnn.LSTM(4, num_layers=2, input_size=3)
    layer.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(-1, 1, (5, 2, 3))
    out = layer(x)
    cells = rnn.SequentialRNNCell()
    for i in range(2):
        cell = rnn.LSTMCell(4, input_size=3 if i == 0 else 4)
        cell.initialize()
        for part in ["i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias"]:
            getattr(cell, part).set_data(layer.params[layer.prefix + "l%d_%s" % (i, part)].data())
        cells.add(cell)
    ref, _ = cells.unroll(5, x, layout="TNC", merge_outputs=True)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)


def test_gradient_finite_differences():
    """GRU layer parameter gradient against central differences in float64 NumPy terms."""
    layer = rnn.GRU(3, input_size=2, bidirectional=True)
    layer.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(-1, 1, (4, 2, 2))
    weight = layer.l0_h2h_weight
    with autograd.record():
        loss = (layer(x) ** 2).sum()
    loss.backward()
    grad = weight.grad().asnumpy()
    base = weight.data().asnumpy().copy()
    eps = 1e-2
    rng = np.random.RandomState(1)
    for _ in range(5):
        idx = tuple(rng.randint(0, d) for d in base.shape)
        values = []
        for sign in (1, -1):
            w = base.copy()
            w[idx] += sign * eps
            weight.set_data(mx.nd.array(w))
            values.append(float((layer(x) ** 2).sum().asscalar()))
        weight.set_data(mx.nd.array(base))
        numeric = (values[0] - values[1]) / (2 * eps)
        assert abs(numeric - grad[idx]) < 2e-3 * max(1.0, abs(numeric)), (idx, numeric, grad[idx])


def test_layer_states_and_errors():
    layer = rnn.GRU(4, num_layers=2)
    layer.initialize()
    x = mx.nd.ones((3, 2, 5))
    states = layer.begin_state(2)
    assert [s.shape for s in states] == [(2, 2, 4)]
    out, new_states = layer(x, states)
    assert out.shape == (3, 2, 4) and new_states[0].shape == (2, 2, 4)
    # The last output step is the top layer's final state.
    np.testing.assert_allclose(out[-1].asnumpy(), new_states[0][1].asnumpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="Invalid recurrent state shape"):
        layer(x, [mx.nd.zeros((1, 2, 4))])
    with pytest.raises(ValueError, match="layout"):
        rnn.LSTM(3, layout="CTN")
    with pytest.raises(NotImplementedError):
        rnn.BidirectionalCell(rnn.GRUCell(2), rnn.GRUCell(2))(x[0], [])


def test_cast_layer_makes_states_of_the_new_type():
    # As in 1.9.1: after cast('float64') begin_state and state_info follow the parameters, so
    # a layer run with its own initial states works in float64 (GluonNLP's models rely on it).
    layer = rnn.LSTM(4, input_size=3)
    layer.initialize()
    layer.cast("float64")
    assert [info["dtype"] for info in layer.state_info(2)] == ["float64", "float64"]
    states = layer.begin_state(2)
    assert [s.dtype for s in states] == [np.float64, np.float64]
    out, new_states = layer(mx.nd.ones((5, 2, 3), dtype="float64"), states)
    assert out.dtype == np.float64 and new_states[1].dtype == np.float64


def test_hybridized_layer_changes_length_and_nests():
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(rnn.LSTM(5, layout="NTC", bidirectional=True))
        net.add(mx.gluon.nn.Dense(2, flatten=False))
    net.initialize()
    ref = [net(mx.nd.ones((2, t, 3)) * 0.1 * t).asnumpy() for t in (6, 3)]
    net.hybridize()
    for t, expected in zip((6, 3, 6), ref + ref[:1]):
        out = net(mx.nd.ones((2, t, 3)) * 0.1 * t)
        assert out.shape == (2, t, 2)
        np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_dropout_training_and_zoneout():
    layer = rnn.LSTM(50, num_layers=2, dropout=0.5, input_size=8)
    layer.initialize()
    x = mx.nd.ones((3, 4, 8))
    with autograd.predict_mode():
        a = layer(x).asnumpy()
    with autograd.train_mode():
        b = layer(x).asnumpy()
    assert not np.allclose(a, b)
    cell = rnn.DropoutCell(0.5)
    with autograd.train_mode():
        out, _ = cell.unroll(4, mx.nd.ones((100, 4, 10)), merge_outputs=True)
    values = out.asnumpy()
    assert set(np.unique(values)) <= {0.0, 2.0}
    assert 0.4 < (values == 0).mean() < 0.6
    zone = rnn.ZoneoutCell(rnn.RNNCell(20, input_size=3), zoneout_outputs=0.5)
    zone.initialize()
    with autograd.train_mode():
        outs, _ = zone.unroll(3, mx.nd.ones((10, 3, 3)), merge_outputs=False)
    # A zoned-out unit keeps the previous output (zeros before the first step).
    assert (outs[0].asnumpy() == 0).mean() > 0.2
    with pytest.raises(AssertionError):
        zone.base_cell.begin_state()


SYMBOLIC_SCRIPT = r"""
import json
import mxnet as mx
from mxnet.gluon import rnn
with mx.name.NameManager():
    cell = rnn.SequentialRNNCell()
    cell.add(rnn.LSTMCell(4))
    cell.add(rnn.GRUCell(3))
    out, states = cell.unroll(3, mx.sym.var('data'), layout='NTC', merge_outputs=True)
    bi = rnn.BidirectionalCell(rnn.LSTMCell(4, prefix='l_'), rnn.RNNCell(4, prefix='r_'))
    bi_out, _ = bi.unroll(3, mx.sym.var('data'), layout='TNC', merge_outputs=False)
print(json.dumps([sorted(out.list_arguments()),
                  [s.list_outputs() for s in states],
                  out.infer_shape(data=(2, 3, 5))[1],
                  [o.list_outputs() for o in bi_out],
                  sorted(mx.sym.Group(bi_out).list_arguments())]))
"""


@pytest.mark.skipif(not oracle.HAVE_MX191, reason=oracle.SKIP_REASON)
def test_symbolic_unroll_matches_mxnet_191_names_and_values():
    ours = json.loads(oracle.run(["-c", SYMBOLIC_SCRIPT], ours=True, output=True).decode())
    ref = json.loads(oracle.run(["-c", SYMBOLIC_SCRIPT], ours=False, output=True).decode())
    assert ours == ref
    # Values of the symbolic unroll equal the imperative unroll with the same parameters.
    cell = rnn.SequentialRNNCell()
    cell.add(rnn.LSTMCell(4, input_size=5))
    cell.add(rnn.GRUCell(3, input_size=4))
    cell.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(-1, 1, (2, 3, 5))
    expected, expected_states = cell.unroll(3, x, layout="NTC", merge_outputs=True)
    out, states = cell.unroll(3, mx.sym.var("data"), layout="NTC", merge_outputs=True)
    args = {name: p.data() for name, p in cell.collect_params().items()}
    got = mx.sym.Group([out] + states).eval(ctx=mx.cpu(), data=x, **args)
    np.testing.assert_allclose(got[0].asnumpy(), expected.asnumpy(), rtol=1e-5, atol=1e-6)
    for g, e in zip(got[1:], expected_states):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-6)


def test_hybridized_layer_with_and_without_states():
    layer = rnn.LSTM(3, input_size=2)
    layer.initialize()
    layer.hybridize()
    x = mx.nd.ones((4, 1, 2))
    out = layer(x)
    assert isinstance(out, mx.nd.NDArray) and out.shape == (4, 1, 3)
    out2, states = layer(x, layer.begin_state(1))
    np.testing.assert_allclose(out2.asnumpy(), out.asnumpy(), rtol=1e-6)
    assert [s.shape for s in states] == [(1, 1, 3), (1, 1, 3)]
    assert isinstance(layer(x), mx.nd.NDArray)


SAVE_SCRIPT = r"""
import sys
import numpy as np
import mxnet as mx
from mxnet.gluon import rnn
models = {
    "gru_layer": lambda: rnn.GRU(4, num_layers=2, bidirectional=True, input_size=3),
    "lstm_layer": lambda: rnn.LSTM(4, num_layers=2, input_size=3),
    "bi_cells": lambda: rnn.BidirectionalCell(rnn.ResidualCell(rnn.LSTMCell(3, input_size=3)),
                                              rnn.GRUCell(4, input_size=3)),
    "seq_cells": lambda: seq_cells(),
}
def seq_cells():
    cell = rnn.HybridSequentialRNNCell()
    cell.add(rnn.ZoneoutCell(rnn.RNNCell(4, input_size=3)))
    cell.add(rnn.DropoutCell(0.0))
    cell.add(rnn.LSTMCell(2, input_size=4))
    return cell
for name, build in models.items():
    model = build()
    model.initialize(mx.init.Uniform(0.5))
    params = "%s/%s.params" % (sys.argv[2], name)
    if sys.argv[1] == "save":
        model.save_parameters(params)
    else:
        model.load_parameters(params)
    x = mx.nd.array(np.linspace(-1, 1, 30).reshape(5, 2, 3))
    if "layer" in name:
        out = model(x)
    else:
        out = model.unroll(5, x, layout="TNC", merge_outputs=True)[0]
    np.save("%s/%s-%s.npy" % (sys.argv[2], name, sys.argv[1]), out.asnumpy())
"""


@pytest.mark.skipif(not oracle.HAVE_MX191, reason=oracle.SKIP_REASON)
def test_parameters_interchange_with_mxnet_191(tmp_path):
    """save_parameters files of either implementation load in the other (same outputs)."""
    script = tmp_path / "save.py"
    script.write_text(SAVE_SCRIPT)
    for saver, loader in ((False, True), (True, False)):
        folder = tmp_path / ("saved_by_%s" % ("ours" if saver else "mx191"))
        folder.mkdir()
        oracle.run([script, "save", folder], ours=saver)
        oracle.run([script, "load", folder], ours=loader)
        for model in ("gru_layer", "lstm_layer", "bi_cells", "seq_cells"):
            np.testing.assert_allclose(np.load(str(folder / ("%s-load.npy" % model))),
                                       np.load(str(folder / ("%s-save.npy" % model))),
                                       rtol=1e-5, atol=1e-6, err_msg=model)


def test_lstm_projection_gradient_finite_differences():
    """LSTMP gradients (1.9.1's CPU kernel has none to compare with) against differences."""
    layer = rnn.LSTM(4, projection_size=2, num_layers=2, input_size=3)
    layer.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(-1, 1, (3, 2, 3))
    for param in (layer.l0_h2r_weight, layer.l1_h2h_weight, layer.l0_i2h_weight):
        with autograd.record():
            loss = (layer(x) ** 2).sum()
        loss.backward()
        grad = param.grad().asnumpy()
        base = param.data().asnumpy().copy()
        eps = 1e-2
        for idx in [(0, 0), (1, 1)]:
            values = []
            for sign in (1, -1):
                w = base.copy()
                w[idx] += sign * eps
                param.set_data(mx.nd.array(w))
                values.append(float((layer(x) ** 2).sum().asscalar()))
            param.set_data(mx.nd.array(base))
            numeric = (values[0] - values[1]) / (2 * eps)
            assert abs(numeric - grad[idx]) < 2e-3 * max(1.0, abs(numeric)), \
                (param.name, idx, numeric, grad[idx])


def test_lstm_state_clip():
    """state_clip_min/max bound the cell state (documented 1.9.1 behaviour; its CPU kernel
    ignores the option)."""
    clipped = rnn.LSTM(3, state_clip_min=-0.1, state_clip_max=0.2, input_size=2)
    free = rnn.LSTM(3, input_size=2, params=clipped.collect_params())
    clipped.initialize(mx.init.Uniform(1))
    x = mx.nd.ones((4, 1, 2)) * 3
    _, (_, c_clipped) = clipped(x, clipped.begin_state(1))
    _, (_, c_free) = free(x, free.begin_state(1))
    assert np.abs(c_free.asnumpy()).max() > 0.2
    assert c_clipped.asnumpy().min() >= -0.1 - 1e-7 and c_clipped.asnumpy().max() <= 0.2 + 1e-7


class _BidirectionalNet(mx.gluon.HybridBlock):
    def __init__(self, **kwargs):
        super(_BidirectionalNet, self).__init__(**kwargs)
        with self.name_scope():
            self.cell = rnn.BidirectionalCell(rnn.LSTMCell(4, input_size=3, prefix="l_"),
                                              rnn.GRUCell(4, input_size=3, prefix="r_"))

    def hybrid_forward(self, F, x, valid_length):
        out, states = self.cell.unroll(5, x, layout="NTC", merge_outputs=True,
                                       valid_length=valid_length)
        return out, states[0]


def test_unroll_with_valid_length_inside_hybridized_block():
    """The symbolic unroll (reversal and last-state selection by valid_length) computes what
    the imperative one does."""
    net = _BidirectionalNet()
    net.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(-1, 1, (2, 5, 3))
    valid_length = mx.nd.array([3, 5])
    expected = net(x, valid_length)
    net.hybridize()
    got = net(x, valid_length)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-6)
    assert (expected[0].asnumpy()[0, 3:] == 0).all()


def test_variational_dropout_shares_mask_over_time():
    from mxnet.gluon.contrib.rnn import VariationalDropoutCell
    # DropoutCell(0) passes its inputs through, so the outputs show the input mask.
    cell = VariationalDropoutCell(rnn.DropoutCell(0.0), drop_inputs=0.5)
    with autograd.train_mode():
        out, _ = cell.unroll(5, mx.nd.ones((50, 5, 8)), merge_outputs=True)
    values = out.asnumpy()
    assert set(np.unique(values)) <= {0.0, 2.0}
    assert 0.35 < (values == 0).mean() < 0.65
    # Every step drops the same units.
    assert (values == values[:, :1, :]).all()
    # With state dropout the cell is stepped; the state mask is drawn once per unroll.
    cell = VariationalDropoutCell(rnn.RNNCell(20, input_size=3), drop_states=0.5)
    cell.initialize()
    with autograd.train_mode():
        cell.unroll(3, mx.nd.ones((4, 3, 3)))
        mask = cell.drop_states_mask.asnumpy()
        assert set(np.unique(mask)) <= {0.0, 2.0} and (mask == 0).any()
        cell.unroll(3, mx.nd.ones((4, 3, 3)))
        assert not np.array_equal(cell.drop_states_mask.asnumpy(), mask)
