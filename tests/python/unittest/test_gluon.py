"""Gluon core: Parameter, ParameterDict, Block/HybridBlock/SymbolBlock naming, save/load and
export interchange with MXNet 1.9.1, hybridize == imperative, error messages."""
import json
import os
import textwrap

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

import mx191_oracle as oracle

REF = os.path.join(oracle.DATA, "gluon")
gen = oracle.load_generator("gen_gluon")

needs_mx191 = pytest.mark.skipif(not oracle.HAVE_MX191, reason=oracle.SKIP_REASON)


def _fresh_net():
    """The reference network with the reference parameter values and names (net0_...)."""
    with mx.name.NameManager():
        net = gen.Net()
    net.initialize()
    x = mx.nd.array(np.load(os.path.join(REF, "net_forward.npz"))["x"])
    net(x)
    gen.fill_params(net, 12)
    return net, x


# ---- Parameter
def test_parameter_basics():
    p = gluon.Parameter("weight", shape=(3, 4), lr_mult=0.5)
    assert repr(p) == "Parameter weight (shape=(3, 4), dtype=<class 'numpy.float32'>)"
    with pytest.raises(RuntimeError, match="Parameter 'weight' has not been initialized"):
        p.data()
    p.initialize(init=mx.init.One())
    np.testing.assert_array_equal(p.data().asnumpy(), np.ones((3, 4)))
    assert p.grad().shape == (3, 4) and p.lr_mult == 0.5
    p.set_data(mx.nd.full((3, 4), 2.0))
    np.testing.assert_array_equal(p.data().asnumpy(), np.full((3, 4), 2.0))
    assert len(p.list_data()) == 1 and p.list_ctx() == [mx.cpu()]
    with autograd.record():
        y = (p.data() * p.data()).sum()
    y.backward()
    np.testing.assert_array_equal(p.grad().asnumpy(), np.full((3, 4), 4.0))
    p.zero_grad()
    assert p.grad().asnumpy().sum() == 0
    p.cast("float64")
    assert p.data().dtype == np.float64 and p.grad().dtype == np.float64
    p.grad_req = "null"
    with pytest.raises(RuntimeError, match="grad_req='null'"):
        p.grad()
    with pytest.raises(ValueError, match="grad_req must be one of"):
        p.grad_req = "sometimes"
    p.reset_ctx(mx.cpu(0))
    assert p.list_ctx() == [mx.cpu(0)]


def test_parameter_deferred_init():
    p = gluon.Parameter("w", shape=(4, 0), allow_deferred_init=True)
    p.initialize()
    with pytest.raises(gluon.DeferredInitializationError, match="deferred"):
        p.data()
    p.shape = (4, 5)
    p._finish_deferred_init()
    assert p.data().shape == (4, 5)
    q = gluon.Parameter("v", shape=(0,))
    with pytest.raises(ValueError, match="invalid shape"):
        q.initialize()
    with pytest.raises(ValueError, match="incompatible"):
        p.shape = (3, 5)


def test_constant():
    c = gluon.Constant("const", [[1, 2], [3, 4]])
    c.initialize()
    np.testing.assert_array_equal(c.data().asnumpy(), [[1, 2], [3, 4]])
    assert c.grad_req == "null"

    class AddConst(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(AddConst, self).__init__(**kwargs)
            self.c = self.params.get_constant("c", mx.nd.array([1.0, 2.0]))

        def hybrid_forward(self, F, x, c):
            return F.broadcast_add(x, c)
    blk = AddConst()
    blk.initialize()
    np.testing.assert_array_equal(blk(mx.nd.zeros((2, 2))).asnumpy(), [[1, 2], [1, 2]])
    blk.hybridize()
    np.testing.assert_array_equal(blk(mx.nd.ones((1, 2))).asnumpy(), [[2, 3]])


def test_parameter_dict(tmp_path):
    pd = gluon.ParameterDict("net_")
    w = pd.get("weight", shape=(2, 0), allow_deferred_init=True)
    assert pd.get("weight", shape=(2, 3)) is w and w.shape == (2, 3)
    with pytest.raises(AssertionError, match="desired attribute does not match"):
        pd.get("weight", shape=(5, 3))
    pd.get("bias", shape=(2,), init="zeros")
    shared = gluon.ParameterDict("net_", shared=pd)
    assert shared.get("weight") is w
    other = gluon.ParameterDict("net_")
    other.get("weight", shape=(2, 3))
    with pytest.raises(ValueError, match="same name 'net_weight'"):
        pd.update(other)
    pd.initialize(mx.init.One())
    np.testing.assert_array_equal(pd["net_bias"].data().asnumpy(), [0, 0])
    pd.setattr("grad_req", "null")
    assert all(p.grad_req == "null" for p in pd.values())
    fname = str(tmp_path / "pd.params")
    pd.save(fname, strip_prefix="net_")
    assert sorted(mx.nd.load(fname).keys()) == ["bias", "weight"]
    pd2 = gluon.ParameterDict("net_")
    pd2.get("weight", shape=(2, 3))
    pd2.load(fname, restore_prefix="net_", ignore_extra=True)
    np.testing.assert_array_equal(pd2["net_weight"].data().asnumpy(), np.ones((2, 3)))
    pd3 = gluon.ParameterDict("net_")
    pd3.get("weight", shape=(2, 3))
    pd3.get("gamma", shape=(2,))
    with pytest.raises(AssertionError, match="Parameter 'gamma' is missing"):
        pd3.load(fname, restore_prefix="net_", ignore_extra=True)
    with pytest.raises(AssertionError, match="Parameter 'bias' loaded from file"):
        pd3.load(fname, restore_prefix="net_", allow_missing=True)
    pd3.load(fname, restore_prefix="net_", allow_missing=True, ignore_extra=True)
    assert "net_" in repr(pd) and "Parameter net_weight (shape=(2, 3)" in repr(pd)


# ---- naming
def test_names_match_mxnet191():
    ref = json.load(open(os.path.join(REF, "names.json")))
    net, _ = _fresh_net()
    assert list(net.collect_params().keys()) == ref["collect_params"]
    assert sorted(net._collect_params_with_prefix().keys()) == ref["with_prefix"]
    assert net.prefix == ref["prefix"]
    assert repr(net) == ref["repr"]


def test_name_scopes_and_select():
    with mx.name.NameManager():
        seq = nn.HybridSequential()
        with seq.name_scope():
            seq.add(nn.Dense(3), nn.Dense(4), nn.BatchNorm())
        other = nn.Dense(2)
    assert seq.prefix == "hybridsequential0_"
    assert other.prefix == "dense0_"
    assert [b.prefix for b in seq] == ["hybridsequential0_dense0_",
                                       "hybridsequential0_dense1_",
                                       "hybridsequential0_batchnorm0_"]
    assert list(seq.collect_params(".*weight").keys()) == [
        "hybridsequential0_dense0_weight", "hybridsequential0_dense1_weight"]
    assert list(seq.collect_params("hybridsequential0_batchnorm0_running_.*").keys()) == [
        "hybridsequential0_batchnorm0_running_mean",
        "hybridsequential0_batchnorm0_running_var"]
    assert len(seq) == 3 and isinstance(seq[1:], nn.HybridSequential)
    shared = nn.Dense(3, params=seq[0].params)
    assert shared.weight is seq[0].weight


def test_block_apply_cast_hooks_and_summary(capsys):
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3, activation="relu"), nn.Dense(2, in_units=4))
    net.initialize()
    seen = []
    net.apply(lambda b: seen.append(type(b).__name__))
    assert seen == ["Activation", "Dense", "Dense", "HybridSequential"]
    calls = []
    handle = net[0].register_forward_hook(lambda blk, i, o: calls.append(o.shape))
    net(mx.nd.ones((5, 3)))
    handle.detach()
    net(mx.nd.ones((5, 3)))
    assert calls == [(5, 4)]
    net.summary(mx.nd.ones((5, 3)))
    out = capsys.readouterr().out
    # Same table as MXNet 1.9.1 prints for this network.
    assert "        Activation-1                                      (5, 4)               0\n" in out
    assert "             Dense-3                                      (5, 2)              10\n" in out
    assert "Total params: 26" in out
    net.cast("float64")
    assert net[0].weight.data().dtype == np.float64
    assert net(mx.nd.ones((1, 3), dtype="float64")).dtype == np.float64


def test_children_of_hybridblock_must_be_hybrid():
    with pytest.raises(ValueError, match="Children of HybridBlock must also be HybridBlock"):
        nn.HybridSequential().add(nn.Sequential())


# ---- errors
def test_dense_shape_mismatch_names_layer_and_shapes():
    layer = nn.Dense(3, in_units=4)
    layer.initialize()
    with pytest.raises(mx.MXNetError) as err:
        layer(mx.nd.ones((2, 5)))
    msg = str(err.value)
    assert layer.name in msg and "(2, 5)" in msg and "(3, 4)" in msg


def test_uninitialized_parameter_error():
    layer = nn.Dense(3)
    with pytest.raises(RuntimeError, match="has not been initialized"):
        layer(mx.nd.ones((2, 5)))


def test_load_parameters_missing_and_extra(tmp_path):
    a = nn.HybridSequential()
    a.add(nn.Dense(3, in_units=2), nn.Dense(1, in_units=3))
    a.initialize()
    fname = str(tmp_path / "a.params")
    a.save_parameters(fname)
    assert sorted(mx.nd.load(fname)) == ["0.bias", "0.weight", "1.bias", "1.weight"]
    bigger = nn.HybridSequential()
    bigger.add(nn.Dense(3, in_units=2), nn.Dense(1, in_units=3), nn.Dense(2, in_units=1))
    with pytest.raises(AssertionError, match="Parameter '2.weight' is missing in file"):
        bigger.load_parameters(fname)
    bigger.load_parameters(fname, allow_missing=True)
    smaller = nn.HybridSequential()
    smaller.add(nn.Dense(3, in_units=2))
    with pytest.raises(ValueError, match=r"Parameter '1\.\w+' loaded from file .* is not "
                                         r"present.*'0\.weight'"):
        smaller.load_parameters(fname)
    smaller.load_parameters(fname, ignore_extra=True)
    np.testing.assert_array_equal(smaller[0].weight.data().asnumpy(),
                                  a[0].weight.data().asnumpy())
    wrong = nn.HybridSequential()
    wrong.add(nn.Dense(4, in_units=2), nn.Dense(1, in_units=4))
    with pytest.raises(ValueError, match="shape incompatible"):
        wrong.load_parameters(fname)


# ---- hybridize
def test_hybridized_equals_imperative_outputs_and_gradients():
    net, x = _fresh_net()
    net.body[1]._rate = 0.0      # no dropout randomness

    def run():
        with autograd.record():
            y = net(x)
            loss = (y * y).sum()
        loss.backward()
        return y.asnumpy(), {k: v.grad().asnumpy().copy()
                             for k, v in net.collect_params().items() if v.grad_req != "null"}
    y0, g0 = run()
    net.hybridize(static_alloc=True, static_shape=True)
    y1, g1 = run()
    np.testing.assert_allclose(y1, y0, rtol=1e-5, atol=1e-6)
    for k in g0:
        np.testing.assert_allclose(g1[k], g0[k], rtol=1e-4, atol=1e-6, err_msg=k)
    net.hybridize(False)
    y2, _ = run()
    np.testing.assert_allclose(y2, y0, rtol=1e-5, atol=1e-6)


def test_hybridized_deferred_init_and_multiple_inputs():
    class Two(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(Two, self).__init__(**kwargs)
            with self.name_scope():
                self.a = nn.Dense(3)
                self.b = nn.Dense(3)

        def hybrid_forward(self, F, x, y):
            return self.a(x) + self.b(y), F.relu(x)
    blk = Two()
    blk.initialize()
    blk.hybridize()
    out, r = blk(mx.nd.ones((2, 4)), mx.nd.ones((2, 5)))
    assert out.shape == (2, 3) and r.shape == (2, 4)
    assert blk.a.weight.shape == (3, 4) and blk.b.weight.shape == (3, 5)


def test_forward_matches_mxnet191_reference():
    net, x = _fresh_net()
    want = np.load(os.path.join(REF, "net_forward.npz"))["y"]
    np.testing.assert_allclose(net(x).asnumpy(), want, rtol=1e-5, atol=1e-6)
    net.hybridize()
    np.testing.assert_allclose(net(x).asnumpy(), want, rtol=1e-5, atol=1e-6)


# ---- files: MXNet 1.9.1 -> ours
def test_load_parameters_written_by_mxnet191():
    with mx.name.NameManager():
        net = gen.Net()
    net.load_parameters(os.path.join(REF, "net.params"))
    ref = np.load(os.path.join(REF, "net_forward.npz"))
    np.testing.assert_allclose(net(mx.nd.array(ref["x"])).asnumpy(), ref["y"], rtol=1e-5,
                               atol=1e-6)


def test_symbolblock_imports_export_of_mxnet191():
    blk = gluon.SymbolBlock.imports(os.path.join(REF, "net-symbol.json"), ["data"],
                                    os.path.join(REF, "net-0002.params"))
    ref = np.load(os.path.join(REF, "net_forward.npz"))
    np.testing.assert_allclose(blk(mx.nd.array(ref["x"])).asnumpy(), ref["y"], rtol=1e-5,
                               atol=1e-6)
    assert "net0_conv0_weight" in blk.collect_params()


def test_export_and_symbolblock_roundtrip(tmp_path):
    net, x = _fresh_net()
    with pytest.raises(RuntimeError, match="hybridize"):
        net.export(str(tmp_path / "early"))
    net.hybridize()
    y = net(x).asnumpy()
    net.export(str(tmp_path / "model"), epoch=7)
    saved = mx.nd.load(str(tmp_path / "model-0007.params"))
    assert "arg:net0_conv0_weight" in saved and "aux:net0_batchnorm0_running_mean" in saved
    blk = gluon.SymbolBlock.imports(str(tmp_path / "model-symbol.json"), ["data"],
                                    str(tmp_path / "model-0007.params"))
    np.testing.assert_allclose(blk(x).asnumpy(), y, rtol=1e-5, atol=1e-6)
    # SymbolBlock from symbols, trained imperatively: gradients flow to its parameters.
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    sb = gluon.SymbolBlock(fc, data)
    sb.initialize()
    xin = mx.nd.ones((3, 4))
    with autograd.record():
        out = sb(xin).sum()
    out.backward()
    np.testing.assert_allclose(sb.collect_params()["fc_bias"].grad().asnumpy(), [3, 3])


# ---- files: ours -> MXNet 1.9.1
@needs_mx191
def test_files_written_by_us_load_in_mxnet191(tmp_path):
    net, x = _fresh_net()
    net.save_parameters(str(tmp_path / "ours.params"))
    net.hybridize()
    y = net(x).asnumpy()
    net.export(str(tmp_path / "ours"), epoch=1)
    np.save(str(tmp_path / "x.npy"), x.asnumpy())
    script = tmp_path / "check.py"
    script.write_text(textwrap.dedent("""
        import sys
        sys.path.insert(0, %r)
        import numpy as np, mxnet as mx
        from mxnet import gluon
        import gen_gluon as gen
        d = sys.argv[1]
        x = mx.nd.array(np.load(d + "/x.npy"))
        net = gen.Net()
        net.load_parameters(d + "/ours.params")
        np.save(d + "/y_params.npy", net(x).asnumpy())
        blk = gluon.SymbolBlock.imports(d + "/ours-symbol.json", ["data"],
                                        d + "/ours-0001.params")
        np.save(d + "/y_export.npy", blk(x).asnumpy())
    """ % oracle.DATA))
    oracle.run([script, tmp_path], ours=False)
    np.testing.assert_allclose(np.load(str(tmp_path / "y_params.npy")), y, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(np.load(str(tmp_path / "y_export.npy")), y, rtol=1e-5,
                               atol=1e-6)


# ---- utils
def test_split_and_load_and_split_data():
    x = mx.nd.arange(10).reshape((5, 2))
    parts = gluon.utils.split_data(x, 2, even_split=False)
    assert [p.shape for p in parts] == [(3, 2), (2, 2)]
    with pytest.raises(ValueError, match="cannot be evenly split"):
        gluon.utils.split_data(x, 2)
    parts = gluon.utils.split_data(x, 2, batch_axis=1)
    np.testing.assert_array_equal(parts[1].asnumpy(), x.asnumpy()[:, 1:])
    loaded = gluon.utils.split_and_load(np.ones((4, 3)), [mx.cpu(0), mx.cpu(1)])
    assert [a.context for a in loaded] == [mx.cpu(0), mx.cpu(1)]


def test_clip_global_norm_against_numpy():
    rng = np.random.RandomState(0)
    arrays = [rng.normal(size=(3, 4)), rng.normal(size=(5,))]
    norm = np.sqrt(sum((a ** 2).sum() for a in arrays))
    nds = [mx.nd.array(a) for a in arrays]
    got = gluon.utils.clip_global_norm(nds, 1.0)
    assert abs(got - norm) < 1e-4
    for a, n in zip(arrays, nds):
        np.testing.assert_allclose(n.asnumpy(), a / norm, rtol=1e-4)
    small = [mx.nd.array([0.1, 0.2])]
    gluon.utils.clip_global_norm(small, 10.0)
    np.testing.assert_allclose(small[0].asnumpy(), [0.1, 0.2], rtol=1e-5)


def test_check_sha1_and_download_errors(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"hello")
    assert gluon.utils.check_sha1(str(f), "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")
    assert not gluon.utils.check_sha1(str(f), "0" * 40)
    assert gluon.utils.download("http://example.invalid/a.txt", path=str(f),
                                sha1_hash="aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d") == str(f)
    with pytest.raises(RuntimeError, match="Failed downloading"):
        gluon.utils.download("file:///nonexistent/dir/x.bin", path=str(tmp_path / "x.bin"),
                             retries=0)


def test_exported_graph_matches_mxnet191(tmp_path):
    net, x = _fresh_net()
    net.hybridize()
    net(x)
    net.export(str(tmp_path / "ours"), epoch=2)
    ours = json.load(open(str(tmp_path / "ours-symbol.json")))
    ref = json.load(open(os.path.join(REF, "net-symbol.json")))
    assert [(n["op"], n["name"], n.get("attrs")) for n in ours["nodes"]] == \
        [(n["op"], n["name"], n.get("attrs")) for n in ref["nodes"]]
    assert sorted(mx.nd.load(str(tmp_path / "ours-0002.params"))) == \
        sorted(mx.nd.load(os.path.join(REF, "net-0002.params")))


def test_hybridize_uses_cached_op_with_flags():
    net = nn.Dense(3, in_units=4)
    net.initialize()
    net.hybridize(static_alloc=True, static_shape=True)
    y = net(mx.nd.ones((2, 4)))
    assert type(net._cached_op).__name__ == "CachedOp"
    assert dict(net._flags) == {"static_alloc": True, "static_shape": True}
    np.testing.assert_allclose(y.asnumpy(), (mx.nd.ones((2, 4)).asnumpy() @
                                             net.weight.data().asnumpy().T), rtol=1e-6)
    with pytest.raises(ValueError, match="argument structure"):
        net([mx.nd.ones((2, 4)), mx.nd.ones((2, 4))])
