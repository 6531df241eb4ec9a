"""mx.sym: composition, naming, listing, attributes, inference, JSON (vs MXNet 1.9.1 files)."""
import copy
import json
import os
import pickle
import warnings

import numpy as np
import pytest

import mxnet as mx

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")


def _mlp():
    data = mx.sym.Variable("data")
    h = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    h = mx.sym.Activation(h, act_type="relu", name="relu1")
    h = mx.sym.FullyConnected(h, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(h, name="softmax")


def test_seed003_partial_inference():
    # The example of seed 003: unknown dims are 0; the graph fills them in.
    a = mx.sym.Variable("a", shape=(2, 0))
    b = mx.sym.Variable("b")
    c = mx.sym.Variable("c", shape=(0, 3))
    d = a * b + b * c
    assert d.infer_shape() == ([(2, 3), (2, 3), (2, 3)], [(2, 3)], [])


def test_partial_inference_from_mx191_json():
    d = mx.sym.load(os.path.join(DATA, "partial_infer-symbol.json"))
    assert d.list_arguments() == ["a", "b", "c"]
    assert d.infer_shape() == ([(2, 3), (2, 3), (2, 3)], [(2, 3)], [])


def test_infer_shape_incomplete_returns_none_and_partial_works():
    x = mx.sym.Variable("x")
    y = mx.sym.Variable("y")
    z = x + y
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert z.infer_shape() == (None, None, None)
        assert any("Cannot decide shape" in str(m.message) for m in w)
    args, outs, aux = z.infer_shape_partial()
    assert args == [(), ()] and outs == [()] and aux == []
    args, outs, _ = z.infer_shape_partial(x=(2, 0))
    assert args == [(2, 0), (2, 0)] and outs == [(2, 0)]


def test_mlp_names_and_shapes():
    net = _mlp()
    assert net.list_arguments() == ["data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias",
                                    "softmax_label"]
    assert net.list_outputs() == ["softmax_output"]
    assert net.list_auxiliary_states() == []
    args, outs, aux = net.infer_shape(data=(4, 20))
    assert args == [(4, 20), (16, 20), (16,), (10, 16), (10,), (4,)]
    assert outs == [(4, 10)]
    # Positional shapes follow list_arguments order.
    args2, _, _ = net.infer_shape((4, 20))
    assert args2 == args


def test_auto_naming_and_auto_variables_copy_attrs():
    with mx.name.NameManager():
        data = mx.sym.var("data")
        fc = mx.sym.FullyConnected(data, num_hidden=4)
        act = mx.sym.Activation(fc, act_type="relu")
        fc2 = mx.sym.FullyConnected(act, num_hidden=3)
    assert fc.name == "fullyconnected0"
    assert act.name == "activation0"
    assert fc2.name == "fullyconnected1"
    assert fc2.list_arguments() == ["data", "fullyconnected0_weight", "fullyconnected0_bias",
                                    "fullyconnected1_weight", "fullyconnected1_bias"]
    # API.md §9 item 8: the auto-created variables carry the op node's attributes.
    attrs = fc2.attr_dict()
    assert attrs["fullyconnected0_weight"] == {"num_hidden": "4"}
    assert attrs["fullyconnected1_bias"] == {"num_hidden": "3"}


def test_json_matches_mxnet_191_byte_for_byte():
    with open(os.path.join(DATA, "mlp-symbol.json")) as f:
        expected = f.read()
    assert _mlp().tojson() == expected
    loaded = mx.sym.load(os.path.join(DATA, "mlp-symbol.json"))
    assert loaded.tojson() == expected
    with open(os.path.join(DATA, "partial_infer-symbol.json")) as f:
        expected = f.read()
    assert mx.sym.load(os.path.join(DATA, "partial_infer-symbol.json")).tojson() == expected
    a = mx.sym.Variable("a", shape=(2, 0))
    b = mx.sym.Variable("b")
    c = mx.sym.Variable("c", shape=(0, 3))
    with mx.name.NameManager():
        assert (a * b + b * c).tojson() == expected
    if hasattr(mx.sym, "Convolution") and hasattr(mx.sym, "Pooling"):
        # node_row_ptr is derived data (1.9.1's oneDNN Pooling has a hidden second output):
        # compare everything else.
        conv = json.loads(mx.sym.load(os.path.join(DATA, "convnet-symbol.json")).tojson())
        with open(os.path.join(DATA, "convnet-symbol.json")) as f:
            ref = json.load(f)
        for key in ("nodes", "arg_nodes", "heads", "attrs"):
            assert conv[key] == ref[key], key


def test_json_roundtrip_and_legacy_keys():
    net = _mlp()
    back = mx.sym.load_json(net.tojson())
    assert back.list_arguments() == net.list_arguments()
    assert back.tojson() == net.tojson()
    legacy = {
        "nodes": [
            {"op": "null", "name": "x", "param": {}, "attr": {"lr_mult": "0.5"}, "inputs": []},
            {"op": "Activation", "name": "act", "param": {"act_type": "tanh"},
             "attr": {"ctx_group": "g1"}, "inputs": [[0, 0]], "backward_source_id": -1},
        ],
        "arg_nodes": [0],
        "heads": [[1, 0]],
    }
    s = mx.sym.load_json(json.dumps(legacy))
    assert s.list_arguments() == ["x"]
    assert s.attr("ctx_group") == "g1"
    assert s.attr_dict()["x"]["__lr_mult__"] == "0.5"
    assert s.attr_dict()["act"]["act_type"] == "tanh"
    with pytest.raises(mx.base.MXNetError, match="not registered"):
        mx.sym.load_json(json.dumps({"nodes": [{"op": "NoSuchOp", "name": "n", "inputs": []}],
                                     "heads": [[0, 0]]}))


def test_save_load_file(tmp_path):
    net = _mlp()
    fname = str(tmp_path / "net-symbol.json")
    net.save(fname)
    assert mx.sym.load(fname).tojson() == net.tojson()


def test_variable_attributes():
    v = mx.sym.var("w", shape=(3, 4), lr_mult=2.0, wd_mult=0.5, dtype="float16",
                   init=mx_init_str(), __custom__="x")
    assert v.attr("__shape__") == "(3, 4)"
    assert v.attr("lr_mult") == "2.0"
    assert v.attr("__wd_mult__") == "0.5"
    assert v.attr("__dtype__") == "2"
    assert v.attr("__custom__") == "x"
    assert v.list_attr()["lr_mult"] == "2.0"
    assert v.infer_type()[0] == [np.float16]
    with pytest.raises(ValueError):
        mx.sym.var("bad", foo="bar")
    with mx.AttrScope(ctx_group="dev1"):
        w = mx.sym.var("w2")
        fc = mx.sym.FullyConnected(w, num_hidden=2, name="fcs")
    assert w.attr("ctx_group") == "dev1"
    assert fc.attr("ctx_group") == "dev1"
    assert fc.attr_dict()["fcs"]["__ctx_group__"] == "dev1"
    fc._set_attr(__mood__="happy")
    assert fc.attr("__mood__") == "happy"
    with pytest.raises(ValueError):
        fc._set_attr(__mood__=1)
    with pytest.raises(mx.base.MXNetError, match="mood"):
        fc._set_attr(mood="happy")          # not a FullyConnected parameter
    assert fc.attr("mood") is None


def mx_init_str():
    return '["zero", {}]'


def test_getitem_group_internals_children():
    net = _mlp()
    internals = net.get_internals()
    assert "fc1_output" in internals.list_outputs()
    fc1 = internals["fc1_output"]
    assert fc1.list_arguments() == ["data", "fc1_weight", "fc1_bias"]
    assert internals.list_outputs()[0] == "data"
    g = mx.sym.Group([fc1, net])
    assert g.list_outputs() == ["fc1_output", "softmax_output"]
    assert len(g) == 2 and g.name is None
    assert g[1].list_outputs() == ["softmax_output"]
    assert g[-1].name == "softmax"
    with pytest.raises(IndexError):
        g[2]
    with pytest.raises(ValueError):
        g["nope"]
    children = net.get_children()
    assert children.list_outputs() == ["fc2_output", "softmax_label"]
    assert mx.sym.var("x").get_children() is None
    sm = mx.sym.split(mx.sym.var("x"), num_outputs=3, name="sp")
    assert sm.list_outputs() == ["sp_output0", "sp_output1", "sp_output2"]
    assert len(list(sm)) == 3


def test_compose_call_and_errors():
    x = mx.sym.var("x")
    y = mx.sym.var("y")
    net = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    z = mx.sym.Activation(mx.sym.var("inp"), act_type="relu", name="act")
    composed = z(inp=net)
    assert composed.list_arguments() == ["x", "fc_weight", "fc_bias"]
    assert z.list_arguments() == ["inp"]            # __call__ copies
    composed2 = z(net)
    assert composed2.list_arguments() == ["x", "fc_weight", "fc_bias"]
    with pytest.raises(mx.base.MXNetError, match="nope"):
        z(nope=y)
    with pytest.raises(TypeError):
        z(net, inp=y)
    with pytest.raises(TypeError):
        mx.sym.Concat(x, data=y)
    c = mx.sym.Concat(x, y, dim=1, name="cat")
    assert c.attr("num_args") == "2"
    assert c.list_arguments() == ["x", "y"]


def test_arithmetic_dunders():
    a = mx.sym.var("a")
    b = mx.sym.var("b")
    ops = json.loads((a + b).tojson())["nodes"]
    assert ops[-1]["op"] == "elemwise_add"                  # _Plus, not broadcast_add
    exprs = {
        "a+b": (a + b, lambda x, y: x + y),
        "a-b": (a - b, lambda x, y: x - y),
        "a*b": (a * b, lambda x, y: x * y),
        "a/b": (a / b, lambda x, y: x / y),
        "a**2": (a ** 2, lambda x, y: x ** 2),
        "2**a": (2 ** a, lambda x, y: 2 ** x),
        "3-a": (3 - a, lambda x, y: 3 - x),
        "1/a": (1 / a, lambda x, y: 1 / x),
        "-a": (-a, lambda x, y: -x),
        "a+1": (a + 1, lambda x, y: x + 1),
        "a>b": (a > b, lambda x, y: (x > y).astype("float32")),
        "a==1": (a == 1, lambda x, y: (x == 1).astype("float32")),
        "abs": (abs(a), lambda x, y: np.abs(x)),
    }
    x = np.array([[1.0, -2.0], [3.0, 1.0]], dtype="float32")
    y = np.array([[2.0, 2.0], [0.5, 1.0]], dtype="float32")
    for key, (sym, ref) in exprs.items():
        feed = {k: mx.nd.array(v) for k, v in (("a", x), ("b", y)) if k in sym.list_arguments()}
        got = sym.eval(mx.cpu(), **feed)[0].asnumpy()
        np.testing.assert_allclose(got, ref(x, y), rtol=1e-6, err_msg=key)


def test_infer_type():
    a = mx.sym.var("a")
    b = mx.sym.var("b")
    c = a + b
    assert c.infer_type(a="float64") == ([np.float64, np.float64], [np.float64], [])
    assert c.infer_type_partial() == ([None, None], [None], [])
    with pytest.raises(mx.base.MXNetError):
        c.infer_type(a="float64", b="float32")


def test_infer_shape_error_names_node_and_shapes():
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    with pytest.raises(mx.base.MXNetError) as err:
        net.infer_shape(data=(2, 5), fc1_weight=(4, 6))
    msg = str(err.value)
    assert "fc1" in msg and "4,6" in msg.replace(" ", "") and "4,5" in msg.replace(" ", "")
    with pytest.raises(mx.base.MXNetError, match="not an argument"):
        net.infer_shape(nosuch=(2, 5))


def test_copy_pickle_repr_debug_str():
    net = _mlp()
    for other in (copy.copy(net), copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        assert other.tojson() == net.tojson()
        assert other.handle.value != net.handle.value
    assert repr(net) == "<Symbol softmax>"
    s = net.debug_str()
    assert "Op:FullyConnected, Name=fc1" in s and "Variable:data" in s


def test_list_inputs_and_aux_states():
    if not hasattr(mx.sym, "BatchNorm"):
        pytest.skip("BatchNorm is not registered in this build")
    net = mx.sym.BatchNorm(mx.sym.var("data"), name="bn")
    assert net.list_arguments() == ["data", "bn_gamma", "bn_beta"]
    assert net.list_auxiliary_states() == ["bn_moving_mean", "bn_moving_var"]
    assert net.list_inputs() == ["data", "bn_gamma", "bn_beta", "bn_moving_mean",
                                 "bn_moving_var"]
    assert net.list_outputs() == ["bn_output"]
    attrs = net.attr_dict()
    assert attrs["bn_moving_mean"]["__init__"] == '["zero", {}]'
    _, _, aux = net.infer_shape(data=(2, 3, 4, 4))
    assert aux == [(3,), (3,)]


def test_generated_function_signature_and_doc():
    import inspect
    sig = inspect.signature(mx.sym.FullyConnected)
    assert list(sig.parameters)[:3] == ["data", "weight", "bias"]
    assert "name" in sig.parameters and "attr" in sig.parameters
    doc = mx.sym.FullyConnected.__doc__
    assert "Symbol" in doc and "The result symbol." in doc and "NDArray-or-Symbol" not in doc
    assert hasattr(mx.sym.contrib, "allclose") or hasattr(mx.sym, "_internal")


def test_op_without_inputs_gets_named_input_variables():
    # Seed 003: mx.sym.<op>() is valid; the missing input becomes '<op>0_data'.
    with mx.name.NameManager():
        q = mx.sym.sin()
    assert q.name == "sin0" and q.list_arguments() == ["sin0_data"]
    ex = q.simple_bind(ctx=mx.cpu(), sin0_data=(1,))
    ex.arg_arrays[0][:] = 2.0
    np.testing.assert_allclose(ex.forward()[0].asnumpy(), np.sin([2.0]), rtol=1e-6)
