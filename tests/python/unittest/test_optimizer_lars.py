"""optimizer.LARS and optimizer.contrib.GroupAdaGrad against NumPy versions of their rules."""
import numpy as onp
import pytest

import mxnet as mx


def _arrays(seed=0):
    rng = onp.random.RandomState(seed)
    return rng.uniform(-1, 1, (4, 3)).astype(onp.float32), \
        rng.uniform(-1, 1, (4, 3)).astype(onp.float32)


@pytest.mark.parametrize('momentum', [0.0, 0.9])
def test_lars_matches_reference(momentum):
    w0, g = _arrays()
    lr, wd, eta, eps, rescale = 0.1, 0.01, 0.02, 1e-9, 0.5
    opt = mx.optimizer.create('lars', learning_rate=lr, wd=wd, eta=eta, eps=eps,
                              momentum=momentum, rescale_grad=rescale)
    weight = mx.nd.array(w0)
    state = opt.create_state(0, weight)
    w_ref, mom = w0.astype(onp.float64), onp.zeros_like(w0, dtype=onp.float64)
    for _ in range(3):
        opt.update(0, weight, mx.nd.array(g), state)
        w_norm = onp.linalg.norm(w_ref)
        g_norm = onp.linalg.norm(g * rescale)
        layer_lr = lr * eta * w_norm / (g_norm + wd * w_norm + eps)
        step = rescale * g + wd * w_ref
        if momentum:
            mom = momentum * mom - layer_lr * step
            w_ref = w_ref + mom
        else:
            w_ref = w_ref - layer_lr * step
    onp.testing.assert_allclose(weight.asnumpy(), w_ref, rtol=1e-4, atol=1e-6)


def test_lars_keeps_plain_lr_for_bias_and_corrects_momentum():
    w0, g = _arrays(1)
    opt = mx.optimizer.LARS(learning_rate=0.1, eta=0.5, param_idx2name={0: 'fc_bias'})
    weight = mx.nd.array(w0)
    opt.update(0, weight, mx.nd.array(g), opt.create_state(0, weight))
    onp.testing.assert_allclose(weight.asnumpy(), w0 - 0.1 * g, rtol=1e-5)
    # The momentum carries the previous learning rate: with correction it is rescaled when the
    # trust ratio changes, so two steps differ from the uncorrected rule.
    results = []
    for correction in (True, False):
        opt = mx.optimizer.LARS(learning_rate=0.1, momentum=0.9, eta=0.5,
                                momentum_correction=correction)
        weight = mx.nd.array(w0)
        state = opt.create_state(0, weight)
        for grad in (g, 3 * g):
            opt.update(0, weight, mx.nd.array(grad), state)
        results.append(weight.asnumpy())
    assert not onp.allclose(results[0], results[1])


def test_group_adagrad():
    w0, g = _arrays(2)
    opt = mx.optimizer.contrib.GroupAdaGrad(learning_rate=0.3, eps=1e-6)
    weight = mx.nd.array(w0)
    state = opt.create_state(0, weight)
    assert state.shape == (4, 1)
    history = onp.zeros((4, 1))
    w_ref = w0.astype(onp.float64)
    for _ in range(2):
        opt.update(0, weight, mx.nd.array(g), state)
        history += (g.astype(onp.float64) ** 2).mean(axis=1, keepdims=True)
        w_ref -= 0.3 * g / onp.sqrt(history + 1e-6)
    onp.testing.assert_allclose(weight.asnumpy(), w_ref, rtol=1e-5)
    onp.testing.assert_allclose(state.asnumpy(), history, rtol=1e-5)
    with pytest.raises(ValueError):
        mx.optimizer.contrib.GroupAdaGrad(wd=0.1).update(0, weight, mx.nd.array(g), state)
    assert isinstance(mx.optimizer.create('groupadagrad'), mx.optimizer.contrib.GroupAdaGrad)


@pytest.mark.parametrize('strategy', ['linear', 'power2', 'sqrt'])
def test_lbsgd_accumulates_and_warms_up(strategy):
    scale, nwup, lr = 3, 6, 0.1
    opt = mx.optimizer.create('lbsgd', learning_rate=lr, batch_scale=scale,
                              warmup_strategy=strategy, warmup_epochs=2, updates_per_epoch=3)
    weight = mx.nd.ones(2)
    state = opt.create_state(0, weight)
    grads = [0.5, 1.0, 3.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0]
    expected = 1.0
    for step, g in enumerate(grads, 1):
        opt.update(0, weight, mx.nd.full(2, g), state)
        if step % scale == 0:
            frac = min(step / nwup, 1.0)
            shape = {'linear': frac, 'power2': frac ** 2, 'sqrt': frac ** 0.5}[strategy]
            mult = scale if step >= nwup else 1 + (scale - 1) * shape
            expected -= lr * mult * onp.mean(grads[step - scale:step])
        onp.testing.assert_allclose(weight.asnumpy(), [expected] * 2, rtol=1e-5)


def test_lbsgd_lars_and_momentum():
    w0, g = _arrays(4)
    opt = mx.optimizer.LBSGD(learning_rate=0.1, warmup_strategy='lars', momentum=0.9, wd=0.01)
    weight = mx.nd.array(w0)
    state = opt.create_state(0, weight)
    opt.update(0, weight, mx.nd.array(g), state)
    w, gg = w0.astype(onp.float64), g.astype(onp.float64)
    lars = onp.sqrt((w * w).sum() / ((gg * gg).sum() + 0.01 * (w * w).sum()))
    lars = min(max(lars, 0.01), 100)
    onp.testing.assert_allclose(weight.asnumpy(), w - 0.1 * lars * (gg + 0.01 * w), rtol=1e-4)
    with pytest.raises(ValueError):
        mx.optimizer.LBSGD(warmup_strategy='cosine')
