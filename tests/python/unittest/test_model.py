"""mx.model checkpoints (prefix-symbol.json + prefix-%04d.params with arg:/aux: keys) and
mx.callback: round trips, the MXNet 1.9.1-written checkpoints in tests/python/data/mx191, and
our checkpoints loaded by the real MXNet 1.9.1 (subprocess, skipped without its venv)."""
import logging
import os
import shutil

import numpy as np
import pytest

import mxnet as mx

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")
from mx191_oracle import HAVE_MX191, SKIP_REASON, check_reference, run

HAS_SYM = hasattr(mx, "sym") and hasattr(getattr(mx, "sym", None), "load")


def _mlp_forward_numpy(args, x):
    h = np.maximum(x.dot(args["fc1_weight"].T) + args["fc1_bias"], 0)
    z = h.dot(args["fc2_weight"].T) + args["fc2_bias"]
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_load_params_of_mxnet_191_checkpoint():
    args, auxs = mx.model.load_params(os.path.join(DATA, "mlp"), 3)
    assert sorted(args) == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    assert auxs == {}
    assert args["fc1_weight"].shape == (16, 20) and args["fc2_weight"].shape == (10, 16)
    ref = np.load(os.path.join(DATA, "mlp_forward.npz"))
    out = _mlp_forward_numpy({k: v.asnumpy() for k, v in args.items()}, ref["data"])
    np.testing.assert_allclose(out, ref["output"], rtol=1e-5, atol=1e-6)
    cargs, caux = mx.model.load_params(os.path.join(DATA, "convnet"), 1)
    assert sorted(caux) == ["bn1_moving_mean", "bn1_moving_var"]
    assert "conv1_weight" in cargs and cargs["conv1_weight"].shape == (4, 1, 3, 3)


def test_save_checkpoint_params_round_trip(tmp_path):
    prefix = str(tmp_path / "net")
    args = {"fc_weight": mx.nd.array(np.arange(6).reshape(2, 3)), "fc_bias": mx.nd.ones((2,))}
    auxs = {"bn_moving_var": mx.nd.array([0.5, 2.0])}
    mx.model.save_checkpoint(prefix, 7, None, args, auxs)
    assert os.path.exists(prefix + "-0007.params")
    assert not os.path.exists(prefix + "-symbol.json")
    raw = mx.nd.load(prefix + "-0007.params")
    assert sorted(raw) == ["arg:fc_bias", "arg:fc_weight", "aux:bn_moving_var"]
    args2, auxs2 = mx.model.load_params(prefix, 7)
    for k in args:
        np.testing.assert_array_equal(args2[k].asnumpy(), args[k].asnumpy())
    np.testing.assert_array_equal(auxs2["bn_moving_var"].asnumpy(), [0.5, 2.0])


def test_load_params_errors(tmp_path):
    prefix = str(tmp_path / "bad")
    mx.nd.save(prefix + "-0001.params", {"weird:x": mx.nd.ones((1,))})
    with pytest.raises(ValueError, match="arg:/aux:"):
        mx.model.load_params(prefix, 1)
    mx.nd.save(prefix + "-0002.params", [mx.nd.ones((1,))])
    with pytest.raises(ValueError, match="unnamed"):
        mx.model.load_params(prefix, 2)
    with pytest.raises(mx.MXNetError):
        mx.model.load_params(prefix, 3)


_LOAD_IN_191 = r"""
import sys, numpy as np, mxnet as mx
prefix, epoch, x = sys.argv[1], int(sys.argv[2]), np.load(sys.argv[3])
sym, args, auxs = mx.model.load_checkpoint(prefix, epoch)
ex = sym.bind(mx.cpu(), dict(args, data=mx.nd.array(x), softmax_label=mx.nd.zeros((x.shape[0],))),
              aux_states=auxs)
np.save(sys.argv[4], ex.forward(is_train=False)[0].asnumpy())
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_our_params_load_in_mxnet_191(tmp_path):
    # Parameters written by our save_checkpoint next to the MXNet-written symbol JSON.
    prefix = str(tmp_path / "mlp")
    shutil.copy(os.path.join(DATA, "mlp-symbol.json"), prefix + "-symbol.json")
    rng = np.random.RandomState(0)
    shapes = {"fc1_weight": (16, 20), "fc1_bias": (16,), "fc2_weight": (10, 16),
              "fc2_bias": (10,)}
    args = {k: rng.uniform(-0.5, 0.5, s).astype(np.float32) for k, s in shapes.items()}
    mx.model.save_checkpoint(prefix, 12, None, {k: mx.nd.array(v) for k, v in args.items()}, {})
    x = rng.uniform(-1, 1, (5, 20)).astype(np.float32)
    np.save(str(tmp_path / "x.npy"), x)
    script = tmp_path / "load.py"
    script.write_text(_LOAD_IN_191)
    check_reference()
    run([script, prefix, "12", tmp_path / "x.npy", tmp_path / "out.npy"], ours=False)
    np.testing.assert_allclose(np.load(str(tmp_path / "out.npy")), _mlp_forward_numpy(args, x),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(not HAS_SYM, reason="needs mx.sym (branch graph)")
def test_load_checkpoint_of_mxnet_191():
    sym, args, auxs = mx.model.load_checkpoint(os.path.join(DATA, "mlp"), 3)
    assert sym.list_arguments() == ["data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias",
                                    "softmax_label"]
    assert sorted(args) == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]


@pytest.mark.skipif(not (HAS_SYM and HAVE_MX191),
                    reason="needs mx.sym (branch graph) and the MXNet 1.9.1 venv")
def test_our_full_checkpoint_loads_in_mxnet_191(tmp_path):
    data = mx.sym.Variable("data")
    h = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    h = mx.sym.Activation(h, act_type="relu", name="relu1")
    h = mx.sym.FullyConnected(h, num_hidden=10, name="fc2")
    net = mx.sym.SoftmaxOutput(h, name="softmax")
    rng = np.random.RandomState(1)
    shapes = {"fc1_weight": (16, 20), "fc1_bias": (16,), "fc2_weight": (10, 16),
              "fc2_bias": (10,)}
    args = {k: rng.uniform(-0.5, 0.5, s).astype(np.float32) for k, s in shapes.items()}
    prefix = str(tmp_path / "ours")
    mx.model.save_checkpoint(prefix, 1, net, {k: mx.nd.array(v) for k, v in args.items()}, {})
    x = rng.uniform(-1, 1, (3, 20)).astype(np.float32)
    np.save(str(tmp_path / "x.npy"), x)
    script = tmp_path / "load.py"
    script.write_text(_LOAD_IN_191)
    run([script, prefix, "1", tmp_path / "x.npy", tmp_path / "out.npy"], ours=False)
    np.testing.assert_allclose(np.load(str(tmp_path / "out.npy")), _mlp_forward_numpy(args, x),
                               rtol=1e-5, atol=1e-6)


# ---- callbacks ----------------------------------------------------------------------------------
class _Metric(object):
    def __init__(self):
        self.resets = 0

    def get_name_value(self):
        return [("accuracy", 0.5)]

    def reset_local(self):
        self.resets += 1


def test_speedometer_logs_every_frequent_batches(caplog):
    metric = _Metric()
    cb = mx.callback.Speedometer(batch_size=32, frequent=2)
    with caplog.at_level(logging.INFO):
        for nbatch in range(7):
            cb(mx.model.BatchEndParam(epoch=1, nbatch=nbatch, eval_metric=metric, locals=None))
    lines = [r.getMessage() for r in caplog.records if "Speed" in r.getMessage()]
    assert len(lines) == 3           # batches 2, 4, 6 (batch 0 starts the clock)
    assert lines[0].startswith("Epoch[1] Batch [0-2]\tSpeed: ")
    assert "accuracy=0.500000" in lines[0]
    assert metric.resets == 3


def test_do_checkpoint_and_module_checkpoint_periods(tmp_path):
    prefix = str(tmp_path / "cb")
    cb = mx.callback.do_checkpoint(prefix, period=2)
    for epoch in range(4):
        cb(epoch, None, {"w": mx.nd.ones((1,)) * epoch}, {})
    assert sorted(os.listdir(str(tmp_path))) == ["cb-0002.params", "cb-0004.params"]
    args, _ = mx.model.load_params(prefix, 4)
    assert args["w"].asscalar() == 3

    calls = []

    class _Mod(object):
        def save_checkpoint(self, p, epoch, save_optimizer_states):
            calls.append((p, epoch, save_optimizer_states))
    mcb = mx.callback.module_checkpoint(_Mod(), "m", period=3, save_optimizer_states=True)
    for epoch in range(6):
        mcb(epoch)
    assert calls == [("m", 3, True), ("m", 6, True)]


def test_log_train_metric_and_progress_bar(caplog):
    metric = _Metric()
    cb = mx.callback.log_train_metric(period=2, auto_reset=True)
    bar = mx.callback.ProgressBar(total=4, length=8)
    with caplog.at_level(logging.INFO):
        for nbatch in range(4):
            param = mx.model.BatchEndParam(epoch=0, nbatch=nbatch, eval_metric=metric,
                                           locals=None)
            cb(param)
            bar(param)
    msgs = [r.getMessage() for r in caplog.records]
    assert "Iter[0] Batch[2] Train-accuracy=0.500000" in msgs
    assert metric.resets == 2
    assert "[====----] 50%\r" in msgs
