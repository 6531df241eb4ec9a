"""mx.mod.Module: binding, parameters, forward/backward/update against NumPy, reshape,
predict/score/fit, checkpoints (ours and MXNet 1.9.1's), optimizer states and data
parallelism. Needs mx.sym (branch graph) and mx.io (branch io)."""
import os

import numpy as np
import pytest

import mxnet as mx

from mx191_oracle import HAVE_MX191, SKIP_REASON, check_reference, run

HAS_SYM = hasattr(mx, "sym") and hasattr(getattr(mx, "sym", None), "FullyConnected")
HAS_IO = hasattr(mx, "io") and hasattr(getattr(mx, "io", None), "NDArrayIter")
pytestmark = pytest.mark.skipif(not (HAS_SYM and HAS_IO),
                                reason="Module needs mx.sym + executor (branch graph) and "
                                       "mx.io (branch io)")
DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")


def _softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _fc_softmax(num_hidden=3):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=num_hidden, name="fc")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


def _mlp(hidden=16, classes=4):
    data = mx.sym.Variable("data")
    h = mx.sym.FullyConnected(data, num_hidden=hidden, name="fc1")
    h = mx.sym.Activation(h, act_type="relu", name="relu1")
    h = mx.sym.FullyConnected(h, num_hidden=classes, name="fc2")
    return mx.sym.SoftmaxOutput(h, name="softmax")


def _blobs(n=200, dim=6, classes=4, seed=0):
    """Linearly separable clusters."""
    rng = np.random.RandomState(seed)
    centers = rng.uniform(-3, 3, (classes, dim))
    y = rng.randint(0, classes, n)
    x = centers[y] + rng.normal(0, 0.3, (n, dim))
    return x.astype(np.float32), y.astype(np.float32)


def _bound(sym, batch=4, dim=5, for_training=True, **kw):
    mod = mx.mod.Module(sym, context=mx.cpu())
    mod.bind(data_shapes=[("data", (batch, dim))], label_shapes=[("softmax_label", (batch,))],
             for_training=for_training, **kw)
    return mod


def test_bind_shapes_and_names():
    mod = _bound(_mlp(), batch=8, dim=6)
    assert mod.data_names == ["data"] and mod.label_names == ["softmax_label"]
    assert mod.output_names == ["softmax_output"]
    assert [(d.name, d.shape) for d in mod.data_shapes] == [("data", (8, 6))]
    assert [(d.name, d.shape) for d in mod.label_shapes] == [("softmax_label", (8,))]
    assert mod.output_shapes == [("softmax_output", (8, 4))]
    assert mod.binded and not mod.params_initialized
    with pytest.raises(ValueError, match="not found in symbol.list_arguments"):
        mx.mod.Module(_mlp(), data_names=("x",))
    with pytest.raises(ValueError, match="don't match names"):
        mx.mod.Module(_mlp()).bind(data_shapes=[("other", (2, 6))])


def test_init_params_get_set_params():
    mod = _bound(_mlp(), batch=8, dim=6)
    mod.init_params(initializer=mx.init.Constant(0.5))
    args, auxs = mod.get_params()
    assert sorted(args) == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    assert (args["fc1_weight"].asnumpy() == 0.5).all()
    assert (args["fc1_bias"].asnumpy() == 0).all()           # biases are zero
    assert auxs == {}
    with pytest.warns(UserWarning, match="already initialized"):
        mod.init_params()
    new = {k: mx.nd.ones(v.shape) * 2 for k, v in args.items()}
    mod.set_params(new, {})
    assert (mod.get_params()[0]["fc2_weight"].asnumpy() == 2).all()
    with pytest.raises(RuntimeError, match="fc2_bias is not presented"):
        mod.set_params({k: v for k, v in new.items() if k != "fc2_bias"}, {})
    # allow_missing fills the rest with the initializer.
    mod.init_params(mx.init.One(), arg_params={"fc1_weight": mx.nd.zeros((16, 6))},
                    allow_missing=True, force_init=True)
    args, _ = mod.get_params()
    assert (args["fc1_weight"].asnumpy() == 0).all() and (args["fc2_weight"].asnumpy() == 1).all()


def test_host_parameter_copies_are_made_on_demand():
    """init_params writes straight into the executor (no second set of weights on the host);
    get_params, force_rebind and save/load still see the trained values."""
    x, y = _blobs(n=8, dim=5)
    mod = _bound(_mlp(), batch=8, dim=5)
    mod.init_params(initializer=mx.init.Constant(0.25))
    assert mod._arg_params is None
    exe_weight = mod._exec_group.param_arrays[mod._param_names.index("fc2_weight")][0]
    assert (exe_weight.asnumpy() == 0.25).all()
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5})
    assert mod._arg_params is None
    batch = mx.io.DataBatch(data=[mx.nd.array(x)], label=[mx.nd.array(y)])
    mod.forward_backward(batch)
    mod.update()
    trained = exe_weight.asnumpy()
    assert not (trained == 0.25).all()
    np.testing.assert_array_equal(mod.get_params()[0]["fc2_weight"].asnumpy(), trained)
    mod.forward_backward(batch)
    mod.update()
    trained2 = mod._exec_group.param_arrays[mod._param_names.index("fc2_weight")][0].asnumpy()
    np.testing.assert_array_equal(mod.get_params()[0]["fc2_weight"].asnumpy(), trained2)
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))],
             force_rebind=True)
    np.testing.assert_array_equal(mod.get_params()[0]["fc2_weight"].asnumpy(), trained2)
    with pytest.raises(ValueError, match="not in the arguments"):
        _bound(_mlp(), batch=8, dim=5).init_params(
            arg_params={"nope": mx.nd.zeros((1,))}, allow_missing=True)


def test_forward_backward_update_match_numpy():
    rng = np.random.RandomState(1)
    x = rng.uniform(-1, 1, (4, 5)).astype(np.float32)
    y = np.array([0, 2, 1, 2], dtype=np.float32)
    w = rng.uniform(-0.5, 0.5, (3, 5)).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, (3,)).astype(np.float32)
    mod = _bound(_fc_softmax(), inputs_need_grad=True)
    mod.init_params(arg_params={"fc_weight": mx.nd.array(w), "fc_bias": mx.nd.array(b)})
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1})
    batch = mx.io.DataBatch(data=[mx.nd.array(x)], label=[mx.nd.array(y)])
    mod.forward(batch, is_train=True)
    p = _softmax(x.dot(w.T) + b)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), p, rtol=1e-5, atol=1e-6)
    mod.backward()
    dz = p - np.eye(3)[y.astype(int)]
    np.testing.assert_allclose(mod.get_input_grads()[0].asnumpy(), dz.dot(w), rtol=1e-4,
                               atol=1e-6)
    mod.update()
    # rescale_grad defaults to 1 / batch_size.
    args, _ = mod.get_params()
    np.testing.assert_allclose(args["fc_weight"].asnumpy(), w - 0.1 * dz.T.dot(x) / 4,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(args["fc_bias"].asnumpy(), b - 0.1 * dz.sum(0) / 4, rtol=1e-5,
                               atol=1e-6)
    metric = mx.metric.create("ce")
    mod.update_metric(metric, batch.label)
    assert metric.get()[1] == pytest.approx(-np.log(p[np.arange(4), y.astype(int)]).mean(),
                                            rel=1e-5)


def test_fixed_params_are_not_updated():
    mod = mx.mod.Module(_mlp(), fixed_param_names=["fc1_weight"])
    mod.bind(data_shapes=[("data", (8, 6))], label_shapes=[("softmax_label", (8,))])
    mod.init_params(mx.init.Uniform(0.5))
    before = {k: v.asnumpy().copy() for k, v in mod.get_params()[0].items()}
    mod.init_optimizer(optimizer_params={"learning_rate": 1.0})
    x, y = _blobs(8, 6)
    mod.forward_backward(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)]))
    mod.update()
    after = mod.get_params()[0]
    np.testing.assert_array_equal(after["fc1_weight"].asnumpy(), before["fc1_weight"])
    assert not np.allclose(after["fc2_weight"].asnumpy(), before["fc2_weight"])


def test_fit_learns_and_calls_callbacks():
    x, y = _blobs(256, 6)
    train = mx.io.NDArrayIter(x, y, batch_size=32, shuffle=True)
    val = mx.io.NDArrayIter(x[:100], y[:100], batch_size=25)
    mod = mx.mod.Module(_mlp())
    epochs, batches = [], []
    mod.fit(train, eval_data=val, eval_metric="acc", num_epoch=6, begin_epoch=1,
            optimizer="sgd", optimizer_params={"learning_rate": 0.2, "momentum": 0.9},
            initializer=mx.init.Xavier(),
            epoch_end_callback=lambda e, s, a, x: epochs.append((e, sorted(a))),
            batch_end_callback=[lambda p: batches.append((p.epoch, p.nbatch))])
    assert [e for e, _ in epochs] == [1, 2, 3, 4, 5]
    assert epochs[0][1] == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    assert batches[:9] == [(1, i) for i in range(8)] + [(2, 0)]
    score = dict(mod.score(val, "acc"))
    assert score["accuracy"] > 0.95
    assert dict(mod.score(val, ["acc", "ce"]))["cross-entropy"] < 0.3


def test_predict_removes_padding_and_iter_predict():
    x, y = _blobs(10, 6)
    mod = _bound(_mlp(), batch=4, dim=6, for_training=False)
    mod.init_params(mx.init.Xavier())
    it = mx.io.NDArrayIter(x, y, batch_size=4, last_batch_handle="pad")
    out = mod.predict(it)
    assert out.shape == (10, 4)
    args = {k: v.asnumpy() for k, v in mod.get_params()[0].items()}
    h = np.maximum(x.dot(args["fc1_weight"].T) + args["fc1_bias"], 0)
    ref = _softmax(h.dot(args["fc2_weight"].T) + args["fc2_bias"])
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    per_batch = mod.predict(it, merge_batches=False)
    assert [o[0].shape[0] for o in per_batch] == [4, 4, 2]
    assert isinstance(mod.predict(it, always_output_list=True), list)
    seen = [(outs[0].shape[0], nbatch) for outs, nbatch, _ in mod.iter_predict(it)]
    assert seen == [(4, 0), (4, 1), (2, 2)]
    assert mod.predict(it, num_batch=1).shape == (4, 4)
    direct = mod.predict(mx.nd.array(x[:4]))
    np.testing.assert_allclose(direct.asnumpy(), ref[:4], rtol=1e-5, atol=1e-6)


def test_reshape_and_forward_with_other_batch_size():
    mod = _bound(_mlp(), batch=8, dim=6)
    mod.init_params(mx.init.Xavier())
    x, y = _blobs(8, 6)
    mod.forward(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)]), is_train=False)
    full = mod.get_outputs()[0].asnumpy()
    mod.forward(mx.io.DataBatch([mx.nd.array(x[:3])], [mx.nd.array(y[:3])]), is_train=False)
    assert mod.get_outputs()[0].shape == (3, 4)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), full[:3], rtol=1e-5, atol=1e-6)
    assert mod.data_shapes[0].shape == (3, 6)
    mod.reshape(data_shapes=[("data", (5, 6))], label_shapes=[("softmax_label", (5,))])
    assert mod.output_shapes == [("softmax_output", (5, 4))]


def test_checkpoint_round_trip_with_optimizer_states(tmp_path):
    x, y = _blobs(64, 6)
    train = mx.io.NDArrayIter(x, y, batch_size=16)
    mod = mx.mod.Module(_mlp())
    mod.fit(train, num_epoch=2, optimizer="adam", optimizer_params={"learning_rate": 0.01},
            initializer=mx.init.Xavier())
    prefix = str(tmp_path / "mlp")
    mod.save_checkpoint(prefix, 2, save_optimizer_states=True)
    for suffix in ("-symbol.json", "-0002.params", "-0002.states"):
        assert os.path.exists(prefix + suffix)
    loaded = mx.mod.Module.load(prefix, 2, load_optimizer_states=True)
    loaded.bind(data_shapes=train.provide_data, label_shapes=train.provide_label)
    loaded.init_optimizer(optimizer="adam", optimizer_params={"learning_rate": 0.01})
    a1, _ = mod.get_params()
    a2, _ = loaded.get_params()
    for k in a1:
        np.testing.assert_array_equal(a1[k].asnumpy(), a2[k].asnumpy())
    # Both continue identically (same Adam moments restored from the .states file).
    batch = mx.io.DataBatch([mx.nd.array(x[:16])], [mx.nd.array(y[:16])])
    for m in (mod, loaded):
        m._optimizer._index_update_count.update({i: 8 for i in range(4)})
        m.forward_backward(batch)
        m.update()
    a1, a2 = mod.get_params()[0], loaded.get_params()[0]
    for k in a1:
        np.testing.assert_allclose(a1[k].asnumpy(), a2[k].asnumpy(), rtol=1e-6, atol=1e-7)
    fname = str(tmp_path / "p.params")
    mod.save_params(fname)
    assert sorted(mx.nd.load(fname)) == ["arg:" + k for k in sorted(a1)]
    other = _bound(_mlp(), batch=16, dim=6)
    other.init_params()
    other.load_params(fname)
    np.testing.assert_array_equal(other.get_params()[0]["fc1_weight"].asnumpy(),
                                  a1["fc1_weight"].asnumpy())


def test_load_mxnet_191_checkpoint_and_predict():
    ref = np.load(os.path.join(DATA, "mlp_forward.npz"))
    mod = mx.mod.Module.load(os.path.join(DATA, "mlp"), 3)
    mod.bind(data_shapes=[("data", ref["data"].shape)], for_training=False)
    out = mod.predict(mx.nd.array(ref["data"]))
    np.testing.assert_allclose(out.asnumpy(), ref["output"], rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(not all(hasattr(mx.nd, op) for op in ("Convolution", "BatchNorm",
                                                          "Pooling")),
                    reason="needs Convolution/BatchNorm/Pooling (branch convnn)")
def test_load_mxnet_191_convnet_checkpoint_with_aux_states():
    ref = np.load(os.path.join(DATA, "convnet_forward.npz"))
    mod = mx.mod.Module.load(os.path.join(DATA, "convnet"), 1)
    mod.bind(data_shapes=[("data", ref["data"].shape)], for_training=False)
    assert sorted(mod.get_params()[1]) == ["bn1_moving_mean", "bn1_moving_var"]
    out = mod.predict(mx.nd.array(ref["data"]))
    np.testing.assert_allclose(out.asnumpy(), ref["output"], rtol=1e-4, atol=1e-5)


_PREDICT_191 = r"""
import sys, numpy as np, mxnet as mx
x = np.load(sys.argv[3])
mod = mx.mod.Module.load(sys.argv[1], int(sys.argv[2]))
mod.bind(data_shapes=[('data', x.shape)], for_training=False)
np.save(sys.argv[4], mod.predict(mx.nd.array(x)).asnumpy())
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_module_checkpoint_loads_in_mxnet_191(tmp_path):
    x, y = _blobs(32, 6)
    mod = mx.mod.Module(_mlp())
    mod.fit(mx.io.NDArrayIter(x, y, batch_size=8), num_epoch=1, initializer=mx.init.Xavier())
    prefix = str(tmp_path / "ours")
    mod.save_checkpoint(prefix, 1)
    np.save(str(tmp_path / "x.npy"), x)
    script = tmp_path / "p.py"
    script.write_text(_PREDICT_191)
    check_reference()
    run([script, prefix, "1", tmp_path / "x.npy", tmp_path / "out.npy"], ours=False)
    np.testing.assert_allclose(np.load(str(tmp_path / "out.npy")), mod.predict(mx.nd.array(x))
                               .asnumpy(), rtol=1e-5, atol=1e-6)


def test_optimizer_object_and_kvstore_choices():
    mod = _bound(_mlp(), batch=8, dim=6)
    mod.init_params(mx.init.Xavier())
    opt = mx.optimizer.SGD(learning_rate=0.1, rescale_grad=1.0)
    with pytest.warns(UserWarning, match="rescale_grad"):
        mod.init_optimizer(kvstore=None, optimizer=opt)
    assert mod._optimizer is opt and mod._kvstore is None and not mod._update_on_kvstore
    assert opt.idx2name == {0: "fc1_weight", 1: "fc1_bias", 2: "fc2_weight", 3: "fc2_bias"}
    mod2 = _bound(_mlp(), batch=8, dim=6)
    mod2.init_params(mx.init.Xavier())
    mod2.init_optimizer(kvstore="local", optimizer="nag",
                        optimizer_params=(("learning_rate", 0.05), ("momentum", 0.5)))
    # One device: the local updater, no KVStore; bias gets no weight decay.
    assert mod2._kvstore is None and mod2._updater is not None
    assert isinstance(mod2._optimizer, mx.optimizer.NAG)
    assert mod2._optimizer.rescale_grad == pytest.approx(1 / 8.0)
    assert mod2._optimizer.wd_mult == {"fc1_bias": 0.0, "fc2_bias": 0.0}


@pytest.mark.skipif(not hasattr(mx, "kv"), reason="needs mx.kv (branch io)")
def test_two_devices_match_one_device():
    x, y = _blobs(16, 6)
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)])
    results = []
    for ctx in ([mx.cpu(0)], [mx.cpu(0), mx.cpu(1)]):
        mod = mx.mod.Module(_mlp(), context=ctx)
        mod.bind(data_shapes=[("data", (16, 6))], label_shapes=[("softmax_label", (16,))])
        mod.init_params(mx.init.Constant(0.1))
        mod.init_optimizer(kvstore="local", optimizer_params={"learning_rate": 0.5})
        for _ in range(3):
            mod.forward_backward(batch)
            mod.update()
        mod.forward(batch, is_train=False)
        results.append((mod.get_outputs()[0].asnumpy(),
                        {k: v.asnumpy() for k, v in mod.get_params()[0].items()}))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-5, atol=1e-6)
    for k in results[0][1]:
        np.testing.assert_allclose(results[1][1][k], results[0][1][k], rtol=1e-5, atol=1e-6)


def test_errors_before_bind_or_init():
    mod = mx.mod.Module(_mlp())
    with pytest.raises(RuntimeError, match="bind"):
        mod.init_params()
    with pytest.raises(RuntimeError, match="bind"):
        mod.get_outputs()
    mod.bind(data_shapes=[("data", (4, 6))], label_shapes=[("softmax_label", (4,))])
    with pytest.raises(RuntimeError, match="init_params"):
        mod.forward(mx.io.DataBatch([mx.nd.zeros((4, 6))], [mx.nd.zeros((4,))]))
    with pytest.raises(ValueError, match="number of epochs"):
        mod.fit(mx.io.NDArrayIter(np.zeros((4, 6)), np.zeros(4), batch_size=4))


_FIT_SCRIPT = r"""
import logging, sys, numpy as np, mxnet as mx
records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append(record.getMessage())
logging.getLogger().addHandler(Keep())
logging.getLogger().setLevel(logging.INFO)
rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, (50, 6)).astype('float32')
y = (x[:, 0] + x[:, 1] > 0).astype('float32') + (x[:, 2] > 0.5)
d = mx.sym.Variable('data')
h = mx.sym.Activation(mx.sym.FullyConnected(d, num_hidden=5, name='fc1'), act_type='tanh')
net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(h, num_hidden=3, name='fc2'), name='softmax')
mod = mx.mod.Module(net)
it = mx.io.NDArrayIter(x, y, batch_size=20)   # 3 batches, the last one padded
init = mx.init.Mixed(['fc1_weight', 'fc2_weight', '.*'],
                     [mx.init.Constant(np.linspace(-1, 1, 30).reshape(5, 6).tolist()),
                      mx.init.Constant(np.linspace(1, -1, 15).reshape(3, 5).tolist()),
                      mx.init.Zero()])
mod.fit(it, eval_data=it, num_epoch=3, initializer=init, eval_metric=['acc', 'ce'],
        optimizer='sgd', optimizer_params={'learning_rate': 0.5, 'momentum': 0.9, 'wd': 0.01})
lines = [r.split('=')[0] + '=%.4f' % float(r.split('=')[1]) for r in records
         if 'Train-' in r or 'Validation-' in r]
args = mod.get_params()[0]
print(repr({'lines': lines, 'score': mod.score(it, 'acc'),
            'params': {k: v.asnumpy().round(5).tolist() for k, v in sorted(args.items())},
            'predict': mod.predict(it).asnumpy().round(5).tolist()}))
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_fit_score_predict_match_mxnet_191(tmp_path):
    script = tmp_path / "fit.py"
    script.write_text(_FIT_SCRIPT)
    check_reference()
    ref = eval(run([script], ours=False, output=True).decode())  # pylint: disable=eval-used
    ours = eval(run([script], ours=True, output=True).decode())  # pylint: disable=eval-used
    assert ours["lines"] == ref["lines"]
    assert ours["score"] == pytest.approx(ref["score"])
    for k in ref["params"]:
        np.testing.assert_allclose(ours["params"][k], ref["params"][k], atol=2e-5, err_msg=k)
    np.testing.assert_allclose(ours["predict"], ref["predict"], atol=2e-5)
