"""Gluon Trainer against MXNet 1.9.1 reference runs, plus states, learning rate, stale
gradients and multi-context reduction."""
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

import mx191_oracle

REF = os.path.join(mx191_oracle.DATA, "gluon")
gen = mx191_oracle.load_generator("gen_gluon")


def _mlp():
    mlp = nn.HybridSequential(prefix="mlp_")
    with mlp.name_scope():
        mlp.add(nn.Dense(6, activation="tanh", in_units=4), nn.Dense(2, in_units=6))
    mlp.initialize()
    gen.fill_params(mlp, 21)
    return mlp


def _batches():
    rng = np.random.RandomState(22)
    for _ in range(3):
        yield (mx.nd.array(rng.uniform(-1, 1, size=(5, 4)).astype("float32")),
               mx.nd.array(rng.randint(0, 2, size=(5,)).astype("float32")))


def _train(mlp, trainer, batches):
    for xb, yb in batches:
        with autograd.record():
            loss = gluon.loss.SoftmaxCELoss()(mlp(xb), yb)
        loss.backward()
        trainer.step(5)


@pytest.mark.parametrize("opt,kw", [("sgd", {"learning_rate": 0.1, "momentum": 0.9,
                                             "wd": 0.01}),
                                    ("adam", {"learning_rate": 0.01})])
def test_trainer_matches_mxnet191(opt, kw):
    mlp = _mlp()
    mlp[1].weight.lr_mult = 0.5
    trainer = gluon.Trainer(mlp.collect_params(), opt, kw)
    _train(mlp, trainer, _batches())
    ref = np.load(os.path.join(REF, "trainer_%s.npz" % opt))
    for k, v in mlp.collect_params().items():
        np.testing.assert_allclose(v.data().asnumpy(), ref[k], rtol=1e-5, atol=1e-6,
                                   err_msg=k)


def test_trainer_save_load_states_resumes_identically(tmp_path):
    batches = list(_batches())
    a = _mlp()
    ta = gluon.Trainer(a.collect_params(), "adam", {"learning_rate": 0.01})
    _train(a, ta, batches)
    b = _mlp()
    tb = gluon.Trainer(b.collect_params(), "adam", {"learning_rate": 0.01})
    _train(b, tb, batches[:2])
    fname = str(tmp_path / "t.states")
    tb.save_states(fname)
    pfile = str(tmp_path / "b.params")
    b.save_parameters(pfile)
    c = _mlp()
    c.load_parameters(pfile)
    tc = gluon.Trainer(c.collect_params(), "adam", {"learning_rate": 0.5})
    tc.load_states(fname)
    assert tc.learning_rate == 0.01
    _train(c, tc, batches[2:])
    for (k, va), vc in zip(a.collect_params().items(), c.collect_params().values()):
        np.testing.assert_allclose(vc.data().asnumpy(), va.data().asnumpy(), rtol=1e-6,
                                   err_msg=k)


def test_learning_rate_and_manual_update():
    mlp = _mlp()
    trainer = gluon.Trainer(mlp.collect_params(), "sgd", {"learning_rate": 0.1})
    assert trainer.learning_rate == 0.1
    trainer.set_learning_rate(0.2)
    assert trainer.learning_rate == 0.2
    w0 = mlp[0].weight.data().asnumpy().copy()
    x, y = next(_batches())
    with autograd.record():
        loss = gluon.loss.SoftmaxCELoss()(mlp(x), y)
    loss.backward()
    g = mlp[0].weight.grad().asnumpy().copy()
    trainer.allreduce_grads()
    trainer.update(5)
    np.testing.assert_allclose(mlp[0].weight.data().asnumpy(), w0 - 0.2 * g / 5, rtol=1e-5,
                               atol=1e-7)


def test_stale_gradient_error_and_ignore():
    a = nn.Dense(2, in_units=3)
    b = nn.Dense(2, in_units=3)
    params = a.collect_params()
    params.update(b.collect_params())
    params.initialize()
    trainer = gluon.Trainer(params, "sgd", {"learning_rate": 1.0})
    with autograd.record():
        out = a(mx.nd.ones((1, 3))).sum()
    out.backward()
    with pytest.raises(UserWarning, match="has not been updated by backward"):
        trainer.step(1)
    b_before = b.weight.data().asnumpy().copy()
    a_before = a.weight.data().asnumpy().copy()
    with autograd.record():
        out = a(mx.nd.ones((1, 3))).sum()
    out.backward()
    trainer.step(1, ignore_stale_grad=True)
    np.testing.assert_array_equal(b.weight.data().asnumpy(), b_before)
    np.testing.assert_allclose(a.weight.data().asnumpy(), a_before - 1.0)


def test_trainer_rejects_non_parameters():
    with pytest.raises(ValueError, match="First argument must be a list or dict of Parameters"):
        gluon.Trainer("weights", "sgd")


def test_multi_context_gradients_are_summed():
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = nn.Dense(1, in_units=2, use_bias=False)
    net.initialize(mx.init.Zero(), ctx=ctxs)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1.0})
    xs = gluon.utils.split_and_load(mx.nd.array([[1, 2], [3, 4]]), ctxs)
    with autograd.record():
        losses = [net(x).sum() for x in xs]
    for l in losses:
        l.backward()
    trainer.step(2)
    for ctx in ctxs:
        np.testing.assert_allclose(net.weight.data(ctx).asnumpy(), [[-2.0, -3.0]])
