"""contrib.BatchNormWithReLU and contrib.SyncBatchNorm (+ gluon.nn.BatchNormReLU and
gluon.contrib.nn.SyncBatchNorm). Oracles: plain BatchNorm (+ relu) on the same values, and
the real MXNet 1.9.1 (the same script runs under both libraries)."""
import os
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle  # noqa: E402


def _train_step(block, x, head):
    block.initialize(mx.init.Uniform(0.5))
    x = mx.nd.array(x)
    x.attach_grad()
    with mx.autograd.record():
        y = block(x)
    y.backward(mx.nd.array(head))
    params = block.collect_params()
    named = {k.split("_", 1)[1]: v for k, v in params.items()}
    return (y.asnumpy(), x.grad.asnumpy(), named["gamma"].grad().asnumpy(),
            named["beta"].grad().asnumpy(), named["running_mean"].data().asnumpy(),
            named["running_var"].data().asnumpy())


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_variants_match_batch_norm(hybridize):
    rng = np.random.RandomState(0)
    x, head = rng.randn(4, 3, 5, 5), rng.randn(4, 3, 5, 5)
    results = {}
    for name, block in [("bn", mx.gluon.nn.BatchNorm(in_channels=3)),
                        ("sync", mx.gluon.contrib.nn.SyncBatchNorm(in_channels=3)),
                        ("bnrelu", mx.gluon.nn.BatchNormReLU(in_channels=3))]:
        mx.random.seed(1)
        if hybridize:
            block.hybridize()
        results[name] = _train_step(block, x, head)
    for got, want in zip(results["sync"], results["bn"]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # BatchNormReLU: relu on the output; the gradient flows only where the output is positive.
    bn_out = results["bn"][0]
    np.testing.assert_allclose(results["bnrelu"][0], np.maximum(bn_out, 0), rtol=1e-5, atol=1e-6)
    bn = mx.gluon.nn.BatchNorm(in_channels=3)
    mx.random.seed(1)
    masked = _train_step(bn, x, head * (bn_out > 0))
    for got, want in zip(results["bnrelu"][1:], masked[1:]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_symbols_have_batch_norm_arguments_outputs_and_auxiliary_states():
    for op, kw in [(mx.sym.contrib.SyncBatchNorm, {"key": "k"}),
                   (mx.sym.contrib.BatchNormWithReLU, {})]:
        s = op(mx.sym.var("x"), output_mean_var=True, name="n", **kw)
        assert s.list_arguments() == ["x", "n_gamma", "n_beta"]
        assert s.list_outputs() == ["n_output", "n_mean", "n_var"]
        assert s.list_auxiliary_states() == ["n_moving_mean", "n_moving_var"]
        _, out_shapes, aux_shapes = s.infer_shape(x=(2, 5, 3))
        assert out_shapes == [(2, 5, 3), (5,), (5,)] and aux_shapes == [(5,), (5,)]


def test_sync_batch_norm_rejects_more_than_one_device_and_requires_a_key():
    args = [mx.nd.ones((2, 3)), mx.nd.ones(3), mx.nd.zeros(3), mx.nd.zeros(3), mx.nd.ones(3)]
    with pytest.raises(mx.MXNetError, match=r"ndev=2 is not supported"):
        mx.nd.contrib.SyncBatchNorm(*args, key="layer0", ndev=2).wait_to_read()
    with pytest.raises(mx.MXNetError, match=r"key"):
        mx.nd.contrib.SyncBatchNorm(*args).wait_to_read()


def test_batch_norm_relu_names_itself_in_shape_errors():
    with pytest.raises(mx.MXNetError, match=r"gamma must have shape \[3\]"):
        mx.nd.contrib.BatchNormWithReLU(mx.nd.ones((2, 3)), mx.nd.ones(4), mx.nd.zeros(3),
                                        mx.nd.zeros(3), mx.nd.ones(3)).wait_to_read()


_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
rs = np.random.RandomState(0)
x0, g0, b0 = rs.randn(4, 3, 2, 2), rs.rand(3) + 0.5, rs.randn(3)
hg = rs.randn(4, 3, 2, 2)
out = {}
for op in ["SyncBatchNorm", "BatchNormWithReLU"]:
    for fix_gamma in (False, True):
        x, g, b = mx.nd.array(x0), mx.nd.array(g0), mx.nd.array(b0)
        mm, mv = mx.nd.zeros(3), mx.nd.ones(3)
        kw = dict(key="k") if op == "SyncBatchNorm" else {}
        for a in (x, g, b):
            a.attach_grad()
        with mx.autograd.record():
            o = getattr(mx.nd.contrib, op)(x, g, b, mm, mv, output_mean_var=True,
                                           fix_gamma=fix_gamma, **kw)
        o[0].backward(mx.nd.array(hg))
        k = "%s_%d" % (op, fix_gamma)
        for i in range(3):
            out[k + "_out%d" % i] = o[i].asnumpy()
        for name, a in [("x", x), ("gamma", g), ("beta", b)]:
            out[k + "_grad_" + name] = a.grad.asnumpy()
        out[k + "_moving_mean"], out[k + "_moving_var"] = mm.asnumpy(), mv.asnumpy()
        # Inference: only the normalized output (1.9.1 leaves SyncBatchNorm's mean/var
        # outputs unset there).
        out[k + "_inference"] = getattr(mx.nd.contrib, op)(
            x, g, b, mm, mv, fix_gamma=fix_gamma, **kw).asnumpy()
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_outputs_gradients_and_moving_statistics_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        ref, ours = mx191_oracle.run_script_under_both(_SCRIPT, tmp)
        assert sorted(ref.files) == sorted(ours.files) and len(ref.files) == 36
        for key in ref.files:
            np.testing.assert_allclose(ours[key], ref[key], rtol=1e-5, atol=1e-5, err_msg=key)
