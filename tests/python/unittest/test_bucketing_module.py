"""BucketingModule, SequentialModule and PythonLossModule trained on tiny problems."""
import numpy as np
import pytest

import mxnet as mx

BATCH = 8
NUM_HIDDEN = 6
FEATURES = 3


def _zero_states(batch):
    def make(name, shape, __layout__=None, **kwargs):  # pylint: disable=unused-argument
        return mx.sym.zeros(shape=(batch,) + tuple(shape[1:]), name=name)
    return make


def _sym_gen(seq_len):
    data = mx.sym.Variable("data")
    label = mx.sym.Variable("softmax_label")
    cell = mx.rnn.RNNCell(NUM_HIDDEN, prefix="rnn_")
    outputs, _ = cell.unroll(seq_len, data, begin_state=cell.begin_state(
        func=_zero_states(BATCH)), merge_outputs=False)
    fc = mx.sym.FullyConnected(outputs[-1], num_hidden=2, name="fc")
    return mx.sym.SoftmaxOutput(fc, label, name="softmax"), ("data",), ("softmax_label",)


class _BucketIter(mx.io.DataIter):
    """Batches of sequences of two lengths; the label says whether the sum is positive."""

    def __init__(self, lengths, batches_per_bucket, seed):
        super(_BucketIter, self).__init__(BATCH)
        rng = np.random.RandomState(seed)
        self.batches = []
        for length in lengths:
            for _ in range(batches_per_bucket):
                x = rng.randn(BATCH, length, FEATURES).astype("float32")
                y = (x.sum(axis=(1, 2)) > 0).astype("float32")
                self.batches.append((length, x, y))
        self.default_bucket_key = max(lengths)
        self.provide_data = [mx.io.DataDesc("data", (BATCH, self.default_bucket_key,
                                                     FEATURES))]
        self.provide_label = [mx.io.DataDesc("softmax_label", (BATCH,))]
        self.cur = 0

    def reset(self):
        self.cur = 0

    def next(self):
        if self.cur == len(self.batches):
            raise StopIteration
        length, x, y = self.batches[self.cur]
        self.cur += 1
        return mx.io.DataBatch(
            [mx.nd.array(x)], [mx.nd.array(y)], pad=0, bucket_key=length,
            provide_data=[mx.io.DataDesc("data", x.shape)],
            provide_label=[mx.io.DataDesc("softmax_label", y.shape)])


def _np_forward(params, x):
    h = np.zeros((x.shape[0], NUM_HIDDEN), dtype=np.float64)
    for t in range(x.shape[1]):
        h = np.tanh(x[:, t] @ params["rnn_i2h_weight"].T + params["rnn_i2h_bias"]
                    + h @ params["rnn_h2h_weight"].T + params["rnn_h2h_bias"])
    z = h @ params["fc_weight"].T + params["fc_bias"]
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _np_loss(mod, data):
    params = {k: v.asnumpy().astype(np.float64) for k, v in mod.get_params()[0].items()}
    total = 0.0
    for _, x, y in data.batches:
        prob = _np_forward(params, x)
        total -= np.log(prob[np.arange(len(y)), y.astype(int)]).sum()
    return total


def test_bucketing_module_trains_and_shares_parameters():
    np.random.seed(0)
    mx.random.seed(0)
    train = _BucketIter([3, 5], 4, seed=1)
    mod = mx.mod.BucketingModule(_sym_gen, default_bucket_key=train.default_bucket_key,
                                 context=mx.cpu())
    mod.bind(train.provide_data, train.provide_label)
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5})
    loss_before = _np_loss(mod, train)

    # One update through the short bucket changes the default bucket's parameters.
    short = next(b for b in train.batches if b[0] == 3)
    before = {k: v.asnumpy() for k, v in mod.get_params()[0].items()}
    batch = mx.io.DataBatch([mx.nd.array(short[1])], [mx.nd.array(short[2])], bucket_key=3,
                            provide_data=[mx.io.DataDesc("data", short[1].shape)],
                            provide_label=[mx.io.DataDesc("softmax_label", short[2].shape)])
    mod.forward_backward(batch)
    mod.update()
    assert sorted(mod._buckets) == [3, 5]
    mod3, mod5 = mod._buckets[3], mod._buckets[5]
    group3, group5 = mod3._exec_group, mod5._exec_group
    for name in group5.param_names:
        i3, i5 = group3.param_names.index(name), group5.param_names.index(name)
        assert group3.param_arrays[i3][0] is group5.param_arrays[i5][0], name
    mod.switch_bucket(5, train.provide_data, train.provide_label)
    after = {k: v.asnumpy() for k, v in mod.get_params()[0].items()}
    assert sorted(after) == ["fc_bias", "fc_weight", "rnn_h2h_bias", "rnn_h2h_weight",
                             "rnn_i2h_bias", "rnn_i2h_weight"]
    assert any(not np.allclose(before[k], after[k]) for k in before)

    # The module's own forward agrees with a NumPy forward on the shared parameters.
    mod.forward(batch, is_train=False)
    assert mod._curr_bucket_key == 3
    expect = _np_forward({k: v.astype(np.float64) for k, v in after.items()}, short[1])
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), expect, rtol=1e-4, atol=1e-5)

    mod.fit(train, num_epoch=15, optimizer_params={"learning_rate": 0.5},
            eval_metric="ce")
    loss_after = _np_loss(mod, train)
    assert loss_after < 0.7 * loss_before, (loss_before, loss_after)
    score = dict(mod.score(train, "acc"))
    assert score["accuracy"] > 0.8
    out = mod.predict(train, merge_batches=False)
    assert [o[0].shape for o in out] == [(BATCH, 2)] * len(train.batches)


def test_bucketing_module_errors():
    with pytest.raises(ValueError):
        mx.mod.BucketingModule(_sym_gen)
    mod = mx.mod.BucketingModule(_sym_gen, default_bucket_key=4)
    assert mod.data_names == ("data",)
    assert mod.output_names == ["softmax_output"]
    with pytest.raises(RuntimeError):
        mod.switch_bucket(3, [("data", (BATCH, 3, FEATURES))])
    with pytest.raises(ValueError):
        mod.bind([("data", (BATCH, 4, FEATURES))], [("softmax_label", (BATCH,))],
                 shared_module=mod)


def _toy_classification(n=64, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 4).astype("float32")
    y = (x[:, 0] - x[:, 1] > 0).astype("float32")
    return x, y


def test_sequential_module_fit_and_forward():
    x, y = _toy_classification()
    net1 = mx.sym.Activation(mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=8,
                                                   name="fc1"), act_type="relu")
    net2 = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.Variable("feat"), num_hidden=2,
                                                      name="fc2"), name="softmax")
    seq = mx.mod.SequentialModule()
    ret = seq.add(mx.mod.Module(net1, label_names=None))
    assert ret is seq
    seq.add(mx.mod.Module(net2, data_names=("feat",)), take_labels=True, auto_wiring=True)
    with pytest.raises(ValueError):
        seq.add(mx.mod.Module(net2, data_names=("feat",)), take_label=True)
    assert len(seq._modules) == 2      # the rejected add() appended nothing
    it = mx.io.NDArrayIter(x, y, batch_size=16, shuffle=False)
    mx.random.seed(1)
    seq.fit(it, num_epoch=30, optimizer_params={"learning_rate": 0.2},
            initializer=mx.init.Xavier())
    assert dict(seq.score(it, "acc"))["accuracy"] > 0.9
    arg, _ = seq.get_params()
    assert sorted(arg) == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    p = {k: v.asnumpy() for k, v in arg.items()}
    hidden = np.maximum(x @ p["fc1_weight"].T + p["fc1_bias"], 0)
    z = hidden @ p["fc2_weight"].T + p["fc2_bias"]
    prob = np.exp(z - z.max(1, keepdims=True))
    prob /= prob.sum(1, keepdims=True)
    np.testing.assert_allclose(seq.predict(it).asnumpy(), prob, rtol=1e-4, atol=1e-5)
    assert seq.output_shapes == [("softmax_output", (16, 2))]
    assert seq.label_shapes[0][0] == "softmax_label"


def test_python_loss_module_gradient_and_training():
    x, y = _toy_classification(seed=3)

    def softmax_grad(scores, labels):
        s = scores.asnumpy()
        prob = np.exp(s - s.max(1, keepdims=True))
        prob /= prob.sum(1, keepdims=True)
        prob[np.arange(len(s)), labels.asnumpy().astype(int)] -= 1
        return prob

    scorer = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc")
    seq = mx.mod.SequentialModule()
    seq.add(mx.mod.Module(scorer, label_names=None))
    loss = mx.mod.PythonLossModule(grad_func=softmax_grad)
    seq.add(loss, take_labels=True, auto_wiring=True)
    it = mx.io.NDArrayIter(x, y, batch_size=16, shuffle=False)
    seq.bind(it.provide_data, it.provide_label)
    seq.init_params(mx.init.Xavier())
    seq.init_optimizer(optimizer_params={"learning_rate": 0.5})
    batch = next(iter(it))
    seq.forward(batch)
    seq.backward()
    scores = seq.get_outputs()[0].asnumpy()
    p = {k: v.asnumpy() for k, v in seq.get_params()[0].items()}
    np.testing.assert_allclose(scores, x[:16] @ p["fc_weight"].T + p["fc_bias"], rtol=1e-5,
                               atol=1e-6)
    expect = softmax_grad(mx.nd.array(scores), batch.label[0])
    np.testing.assert_allclose(loss.get_input_grads()[0].asnumpy(), expect, rtol=1e-5)
    # The scorer's weight gradient is the loss gradient pushed through the FC layer.
    grad_w = seq._modules[0]._exec_group.grad_arrays[0][0].asnumpy()
    np.testing.assert_allclose(grad_w, expect.T @ x[:16], rtol=1e-4, atol=1e-5)
    assert loss.output_shapes == [("pyloss_output", (16, 2))]
    assert loss.get_params() == ({}, {})
    with pytest.raises(ValueError):
        loss.backward(out_grads=[mx.nd.zeros((16, 2))])

    def nll():
        w = seq.get_params()[0]
        z = x @ w["fc_weight"].asnumpy().T + w["fc_bias"].asnumpy()
        z = z - z.max(1, keepdims=True)
        return -(z[np.arange(len(y)), y.astype(int)] - np.log(np.exp(z).sum(1))).sum()

    before = nll()
    for _ in range(20):
        it.reset()
        for batch in it:
            seq.forward_backward(batch)
            seq.update()
    assert nll() < 0.5 * before


_ORACLE_SCRIPT = r"""
import sys
import numpy as np
import mxnet as mx
BATCH, NUM_HIDDEN = %d, %d
inp = np.load(sys.argv[1])

def zeros(name, shape, __layout__=None, **kwargs):
    return mx.sym.zeros(shape=(BATCH,) + tuple(shape[1:]), name=name)

def sym_gen(seq_len):
    cell = mx.rnn.LSTMCell(NUM_HIDDEN, prefix="lstm_")
    outputs, _ = cell.unroll(seq_len, mx.sym.Variable("data"),
                             begin_state=cell.begin_state(func=zeros), merge_outputs=False)
    fc = mx.sym.FullyConnected(outputs[-1], num_hidden=2, name="fc")
    return (mx.sym.SoftmaxOutput(fc, mx.sym.Variable("softmax_label"), name="softmax"),
            ("data",), ("softmax_label",))

mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=int(inp["default_key"]))
shape = tuple(int(v) for v in inp["default_shape"])
mod.bind([mx.io.DataDesc("data", shape)], [mx.io.DataDesc("softmax_label", (BATCH,))])
names = [str(n) for n in inp["param_names"]]
mod.init_params(arg_params={n: mx.nd.array(inp["p_" + n]) for n in names})
mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.3, "momentum": 0.9})
outs = []
for k in range(int(inp["num_batches"])):
    x, y = inp["x%%d" %% k], inp["y%%d" %% k]
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)], bucket_key=x.shape[1],
                            provide_data=[mx.io.DataDesc("data", x.shape)],
                            provide_label=[mx.io.DataDesc("softmax_label", y.shape)])
    mod.forward_backward(batch)
    outs.append(mod.get_outputs()[0].asnumpy())
    mod.update()
arg, _ = mod.get_params()
np.savez(sys.argv[2], outs=np.stack(outs), **{"p_" + n: arg[n].asnumpy() for n in names})
""" % (BATCH, NUM_HIDDEN)


def test_bucketing_module_matches_mxnet_191(tmp_path):
    """Same parameters and batches (alternating buckets), SGD with momentum: per-batch
    outputs and final parameters agree with the real MXNet 1.9.1 BucketingModule."""
    import mx191_oracle
    if not mx191_oracle.HAVE_MX191:
        pytest.skip(mx191_oracle.SKIP_REASON)
    mx191_oracle.check_reference()
    scope = {}
    exec(compile(_ORACLE_SCRIPT.split("mod = mx.mod")[0].replace(  # pylint: disable=exec-used
        "inp = np.load(sys.argv[1])", ""), "oracle", "exec"), scope)
    sym_gen = scope["sym_gen"]
    rng = np.random.RandomState(7)
    batches = []
    for k in range(6):
        length = 5 if k % 2 == 0 else 3
        x = rng.randn(BATCH, length, FEATURES).astype(np.float32)
        batches.append((x, (x.sum(axis=(1, 2)) > 0).astype(np.float32)))
    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=5)
    mod.bind([mx.io.DataDesc("data", (BATCH, 5, FEATURES))],
             [mx.io.DataDesc("softmax_label", (BATCH,))])
    mod.init_params(mx.init.Uniform(0.3))
    init = {k: v.copy() for k, v in mod.get_params()[0].items()}
    names = sorted(init)
    inp = {"default_key": 5, "default_shape": np.array([BATCH, 5, FEATURES]),
           "param_names": np.array(names), "num_batches": len(batches)}
    inp.update({"p_" + n: init[n].asnumpy() for n in names})
    for k, (x, y) in enumerate(batches):
        inp["x%d" % k], inp["y%d" % k] = x, y
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.3,
                                                          "momentum": 0.9})
    outs = []
    for x, y in batches:
        batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)], bucket_key=x.shape[1],
                                provide_data=[mx.io.DataDesc("data", x.shape)],
                                provide_label=[mx.io.DataDesc("softmax_label", y.shape)])
        mod.forward_backward(batch)
        outs.append(mod.get_outputs()[0].asnumpy())
        mod.update()
    final, _ = mod.get_params()
    script, inp_path, out_path = (tmp_path / "oracle.py", tmp_path / "in.npz",
                                  tmp_path / "out.npz")
    script.write_text(_ORACLE_SCRIPT)
    np.savez(inp_path, **inp)
    mx191_oracle.run([script, inp_path, out_path], ours=False)
    ref = np.load(out_path)
    np.testing.assert_allclose(np.stack(outs), ref["outs"], rtol=1e-4, atol=1e-5)
    for n in names:
        np.testing.assert_allclose(final[n].asnumpy(), ref["p_" + n], rtol=1e-4, atol=1e-5,
                                   err_msg=n)
    assert any(not np.allclose(final[n].asnumpy(), init[n].asnumpy()) for n in names)


def test_bucketing_module_checkpoint_roundtrip(tmp_path):
    train = _BucketIter([3, 5], 1, seed=2)
    mod = mx.mod.BucketingModule(_sym_gen, default_bucket_key=5)
    mod.bind(train.provide_data, train.provide_label, for_training=False)
    mod.init_params(mx.init.Uniform(0.5))
    expected = {}
    for length, x, y in train.batches:
        mod.forward(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)], bucket_key=length,
                                    provide_data=[mx.io.DataDesc("data", x.shape)],
                                    provide_label=[mx.io.DataDesc("softmax_label", y.shape)]))
        expected[length] = mod.get_outputs()[0].asnumpy()
    prefix = str(tmp_path / "bucket")
    mod.save_checkpoint(prefix, 3)
    assert (tmp_path / "bucket-3-symbol.json").exists()
    assert sorted(int(k) for k in mx.nd.load(prefix + ".buckets")[0].asnumpy()) == [3, 5]
    loaded = mx.mod.BucketingModule.load(prefix, 3, sym_gen=_sym_gen, default_bucket_key=5)
    assert loaded.params_initialized and not loaded.binded
    loaded.bind(train.provide_data, train.provide_label, for_training=False)
    for length, x, y in train.batches:
        loaded.forward(mx.io.DataBatch(
            [mx.nd.array(x)], [mx.nd.array(y)], bucket_key=length,
            provide_data=[mx.io.DataDesc("data", x.shape)],
            provide_label=[mx.io.DataDesc("softmax_label", y.shape)]))
        np.testing.assert_allclose(loaded.get_outputs()[0].asnumpy(), expected[length],
                                   rtol=1e-6)
    with pytest.raises(ValueError):
        mx.mod.BucketingModule.load(prefix, 3, sym_gen=_sym_gen)
