"""contrib.svrg_optimization.SVRGModule: its updates against the SVRG rule computed with
NumPy for linear regression, and that fitting reduces the loss."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet.contrib.svrg_optimization import SVRGModule


def _linear_problem(n=8):
    rng = onp.random.RandomState(0)
    X = rng.uniform(-1, 1, (n, 3)).astype(onp.float32)
    y = (X @ onp.array([1.0, -2.0, 0.5]) + 0.3).astype(onp.float32).reshape(n, 1)
    data = mx.sym.var('data')
    out = mx.sym.FullyConnected(data, num_hidden=1, name='fc')
    net = mx.sym.LinearRegressionOutput(out, mx.sym.var('lin_label'), name='lin')
    return X, y, net


def _grads(X, y, w, b):
    """Gradients of sum over the rows of 0.5 * (X w^T + b - y)^2."""
    err = X @ w.T + b - y
    return err.T @ X, err.sum(0)


def test_svrg_update_rule():
    X, y, net = _linear_problem()
    it = mx.io.NDArrayIter(X, y, batch_size=4, label_name='lin_label')
    mod = SVRGModule(net, data_names=['data'], label_names=['lin_label'], update_freq=2)
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params(initializer=mx.init.Uniform(0.5))
    lr = 0.1
    mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': lr})
    arg, _ = mod.get_params()
    w, b = arg['fc_weight'].asnumpy().astype(onp.float64), arg['fc_bias'].asnumpy()
    mod.update_full_grads(it)
    snap_w, snap_b = w.copy(), b.copy()
    batches = [(X[:4], y[:4]), (X[4:], y[4:])]
    mu = [sum(_grads(bx, by, snap_w, snap_b)[k] for bx, by in batches) / 2 for k in range(2)]
    for (bx, by), batch in zip(batches, it):
        mod.forward_backward(batch)
        mod.update()
        cur, snap = _grads(bx, by, w, b), _grads(bx, by, snap_w, snap_b)
        w = w - lr / 4 * (cur[0] - snap[0] + mu[0])
        b = b - lr / 4 * (cur[1] - snap[1] + mu[1])
        arg, _ = mod.get_params()
        onp.testing.assert_allclose(arg['fc_weight'].asnumpy(), w, rtol=1e-4, atol=1e-5)
        onp.testing.assert_allclose(arg['fc_bias'].asnumpy(), b, rtol=1e-4, atol=1e-5)


def test_svrg_fit_reduces_loss():
    X, y, net = _linear_problem(64)
    it = mx.io.NDArrayIter(X, y, batch_size=16, label_name='lin_label', shuffle=False)
    mod = SVRGModule(net, data_names=['data'], label_names=['lin_label'], update_freq=2)
    losses = []
    mod.fit(it, eval_metric='mse', num_epoch=6, optimizer='sgd',
            optimizer_params={'learning_rate': 0.2},
            epoch_end_callback=lambda *args: losses.append(mod.score(it, 'mse')[0][1]))
    assert len(losses) == 6 and losses[-1] < losses[0] * 0.5
    with pytest.raises(TypeError):
        SVRGModule(net, update_freq='2')
    with pytest.raises(ValueError):
        SVRGModule(net, update_freq=0)
