"""Executor: bind/simple_bind/forward/backward against NumPy and MXNet 1.9.1 outputs."""
import ctypes
import os

import numpy as np
import pytest

import mxnet as mx

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")


def _has_ops(*names):
    return all(hasattr(mx.sym, n) for n in names)


def _load_checkpoint(prefix, epoch):
    sym = mx.sym.load("%s-symbol.json" % prefix)
    saved = mx.nd.load("%s-%04d.params" % (prefix, epoch))
    args = {k[4:]: v for k, v in saved.items() if k.startswith("arg:")}
    aux = {k[4:]: v for k, v in saved.items() if k.startswith("aux:")}
    return sym, args, aux


def test_mx191_mlp_forward_matches():
    sym, args, aux = _load_checkpoint(os.path.join(DATA, "mlp"), 3)
    ref = np.load(os.path.join(DATA, "mlp_forward.npz"))
    feed = dict(args, data=mx.nd.array(ref["data"]), softmax_label=mx.nd.zeros((4,)))
    ex = sym.bind(mx.cpu(), feed, aux_states=aux)
    out = ex.forward()[0].asnumpy()
    np.testing.assert_allclose(out, ref["output"], rtol=1e-5, atol=1e-6)
    # simple_bind + copy_params_from gives the same.
    ex2 = sym.simple_bind(mx.cpu(), data=(4, 20), grad_req="null")
    ex2.copy_params_from(args, aux)
    out2 = ex2.forward(data=ref["data"])[0].asnumpy()
    np.testing.assert_allclose(out2, ref["output"], rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(not _has_ops("Convolution", "Pooling", "BatchNorm"),
                    reason="Convolution/Pooling/BatchNorm come from the convnn helper's branch")
def test_mx191_convnet_forward_matches():
    sym, args, aux = _load_checkpoint(os.path.join(DATA, "convnet"), 1)
    ref = np.load(os.path.join(DATA, "convnet_forward.npz"))
    feed = dict(args, data=mx.nd.array(ref["data"]), softmax_label=mx.nd.zeros((2,)))
    ex = sym.bind(mx.cpu(), feed, aux_states=aux)
    out = ex.forward(is_train=False)[0].asnumpy()
    np.testing.assert_allclose(out, ref["output"], rtol=1e-4, atol=1e-5)


def test_forward_matches_numpy_and_outputs_dicts():
    rng = np.random.RandomState(1)
    x = rng.uniform(-1, 1, (5, 3)).astype("float32")
    w = rng.uniform(-1, 1, (4, 3)).astype("float32")
    b = rng.uniform(-1, 1, (4,)).astype("float32")
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    net = mx.sym.Group([fc, mx.sym.relu(fc, name="r") * 2])
    ex = net.bind(mx.cpu(), {"data": mx.nd.array(x), "fc_weight": mx.nd.array(w),
                             "fc_bias": mx.nd.array(b)}, grad_req="null")
    outs = ex.forward()
    y = x @ w.T + b
    np.testing.assert_allclose(outs[0].asnumpy(), y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[1].asnumpy(), 2 * np.maximum(y, 0), rtol=1e-5, atol=1e-6)
    assert sorted(ex.output_dict) == sorted(net.list_outputs())
    assert set(ex.arg_dict) == {"data", "fc_weight", "fc_bias"}
    # forward kwargs copy into the bound arrays.
    ex.forward(data=mx.nd.zeros((5, 3)))
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), np.tile(b, (5, 1)), rtol=1e-6)
    with pytest.raises(TypeError, match="Unknown argument"):
        ex.forward(nosuch=mx.nd.zeros((5, 3)))
    with pytest.raises(ValueError, match="Shape not match"):
        ex.forward(data=mx.nd.zeros((2, 3)))
    assert "fc" in ex.debug_str()


def test_bind_errors():
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    good = {"data": mx.nd.zeros((2, 3)), "fc_weight": mx.nd.zeros((4, 3)),
            "fc_bias": mx.nd.zeros((4,))}
    with pytest.raises(ValueError, match="fc_bias"):
        net.bind(mx.cpu(), {k: v for k, v in good.items() if k != "fc_bias"})
    # An extra name is ignored with a warning, as MXNet 1.9.1 ignores it
    # (test_compat_behaviour_191.py compares).
    with pytest.warns(UserWarning, match="wrong_name"):
        net.bind(mx.cpu(), dict(good, wrong_name=mx.nd.zeros((1,))))
    with pytest.raises(ValueError):
        net.bind(mx.cpu(), [good["data"], good["fc_weight"]])
    with pytest.raises(mx.base.MXNetError) as err:
        net.bind(mx.cpu(), dict(good, fc_weight=mx.nd.zeros((4, 5))), grad_req="null")
    assert "fc" in str(err.value) and "4,5" in str(err.value).replace(" ", "")
    with pytest.raises(mx.base.MXNetError, match="cannot infer"):
        mx.sym.var("a").__add__(mx.sym.var("b")).simple_bind(mx.cpu())


def test_simple_bind_allocates_and_shares():
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    ex = net.simple_bind(mx.cpu(), data=(2, 3), grad_req="null")
    assert [a.shape for a in ex.arg_arrays] == [(2, 3), (4, 3), (4,)]
    assert all(g is None for g in ex.grad_arrays)
    assert ex.arg_dict["fc_weight"].asnumpy().sum() == 0
    buf = {}
    ex1 = net.simple_bind(mx.cpu(), data=(2, 3), grad_req="null", shared_buffer=buf)
    assert "data" in buf
    ex2 = net.simple_bind(mx.cpu(), data=(2, 3), grad_req="null", shared_exec=ex1,
                          shared_arg_names=["fc_weight", "fc_bias"], shared_buffer=buf)
    ex1.arg_dict["fc_weight"][:] = 1.0
    assert ex2.arg_dict["fc_weight"].asnumpy().sum() == 12.0
    with pytest.raises(mx.base.MXNetError, match="allow_up_sizing"):
        ex2.reshape(data=(5, 3))
    ex3 = ex2.reshape(data=(5, 3), allow_up_sizing=True)
    assert ex3.arg_dict["data"].shape == (5, 3)
    ex3.arg_dict["data"][:] = 1.0
    assert ex3.forward()[0].shape == (5, 4)
    np.testing.assert_allclose(ex3.outputs[0].asnumpy(), np.full((5, 4), 3.0))


def test_grad_req_per_argument_and_dtype():
    data = mx.sym.var("data", dtype="float64")
    net = mx.sym.relu(data, name="r")
    ex = net.simple_bind(mx.cpu(), data=(3,), grad_req={"data": "null"})
    assert ex.arg_dict["data"].dtype == np.float64
    assert ex.outputs[0].dtype == np.float64


def _gradient_pass_available():
    try:
        x = mx.sym.var("x")
        (x * 2).simple_bind(mx.cpu(), x=(1,))
        return True
    except mx.base.MXNetError:
        return False


needs_gradient = pytest.mark.skipif(not _gradient_pass_available(),
                                    reason="the gradient pass (branch autograd) is not merged")


@needs_gradient
def test_backward_matches_numpy_and_add_accumulates():
    rng = np.random.RandomState(2)
    x = rng.uniform(-1, 1, (5, 3)).astype("float32")
    w = rng.uniform(-1, 1, (4, 3)).astype("float32")
    og = rng.uniform(-1, 1, (5, 4)).astype("float32")
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, no_bias=True, name="fc")
    net = mx.sym.tanh(net)
    grads = {"data": mx.nd.zeros((5, 3)), "fc_weight": mx.nd.ones((4, 3))}
    ex = net.bind(mx.cpu(), {"data": mx.nd.array(x), "fc_weight": mx.nd.array(w)},
                  args_grad=grads, grad_req={"data": "write", "fc_weight": "add"})
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(og))
    y = np.tanh(x @ w.T)
    dy = og * (1 - y ** 2)
    np.testing.assert_allclose(grads["data"].asnumpy(), dy @ w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads["fc_weight"].asnumpy(), 1 + dy.T @ x, rtol=1e-4, atol=1e-5)
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(og))
    np.testing.assert_allclose(grads["data"].asnumpy(), dy @ w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads["fc_weight"].asnumpy(), 1 + 2 * dy.T @ x, rtol=1e-4,
                               atol=1e-5)
    with pytest.raises(mx.base.MXNetError, match="head_gradient is required"):
        ex.backward()


@needs_gradient
def test_loss_head_needs_no_head_gradient():
    sym, args, _ = _load_checkpoint(os.path.join(DATA, "mlp"), 3)
    ex = sym.simple_bind(mx.cpu(), data=(4, 20))
    ex.copy_params_from(args)
    rng = np.random.RandomState(3)
    x = rng.uniform(-1, 1, (4, 20)).astype("float32")
    label = np.array([1, 0, 3, 9], dtype="float32")
    ex.forward(is_train=True, data=x, softmax_label=label)
    ex.backward()
    prob = ex.outputs[0].asnumpy()
    onehot = np.eye(10, dtype="float32")[label.astype(int)]
    h = np.maximum(x @ args["fc1_weight"].asnumpy().T + args["fc1_bias"].asnumpy(), 0)
    np.testing.assert_allclose(ex.grad_dict["fc2_bias"].asnumpy(), (prob - onehot).sum(0),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ex.grad_dict["fc2_weight"].asnumpy(), (prob - onehot).T @ h,
                               rtol=1e-4, atol=1e-5)


def test_monitor_callback_sees_every_output():
    data = mx.sym.var("data")
    net = mx.sym.relu(mx.sym.FullyConnected(data, num_hidden=3, name="fc"), name="act")
    ex = net.simple_bind(mx.cpu(), data=(2, 4), grad_req="null")
    ex.arg_dict["data"][:] = 1.0
    ex.arg_dict["fc_weight"][:] = 0.5
    seen = {}

    def cb(name, handle):
        arr = mx.nd.NDArray(ctypes.cast(handle, mx.base.NDArrayHandle), writable=False)
        seen[mx.base.py_str(name)] = arr.asnumpy()
    ex.set_monitor_callback(cb)
    ex.forward()
    assert sorted(seen) == ["act_output", "fc_output"]
    np.testing.assert_allclose(seen["fc_output"], np.full((2, 3), 2.0))
    seen.clear()
    ex.set_monitor_callback(cb, monitor_all=True)
    ex.forward()
    assert {"fc_data", "fc_weight", "fc_bias", "fc_output", "act_data", "act_output"} <= set(seen)
