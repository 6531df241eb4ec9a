"""mx.contrib namespaces, the old contrib.autograd API and the imperative control-flow
functions mx.nd.contrib.foreach / while_loop / cond."""
import numpy as np
import pytest

import mxnet as mx


def test_namespace_aliases():
    assert mx.contrib.nd is mx.contrib.ndarray
    assert mx.contrib.sym is mx.contrib.symbol
    assert mx.contrib.nd.quadratic is mx.nd.contrib.quadratic
    assert mx.contrib.sym.quadratic is mx.sym.contrib.quadratic
    assert mx.contrib.nd.foreach is mx.nd.contrib.foreach
    assert "quadratic" in dir(mx.contrib.nd)
    x = mx.nd.array([1.0, 2.0])
    np.testing.assert_allclose(mx.contrib.nd.quadratic(x, a=1, b=2, c=3).asnumpy(),
                               [6.0, 11.0])
    with pytest.raises(AttributeError):
        mx.contrib.nd.no_such_function  # pylint: disable=pointless-statement


def test_foreach_values_and_gradients():
    rng = np.random.RandomState(0)
    xs = rng.randn(5, 3).astype(np.float32)
    w = rng.randn(3).astype(np.float32)
    data, weight = mx.nd.array(xs), mx.nd.array(w)
    data.attach_grad()
    weight.attach_grad()

    def body(x, states):
        h = states[0] * weight + x           # h_t = h_{t-1} * w + x_t
        return [h, x * 2], [h]

    with mx.autograd.record():
        (outs, doubled), states = mx.nd.contrib.foreach(body, data, [mx.nd.zeros((3,))])
        loss = (outs * outs).sum() + states[0].sum()
    loss.backward()
    # Plain NumPy loop and its hand-written reverse pass.
    hs = []
    h = np.zeros(3)
    for x in xs.astype(np.float64):
        h = h * w + x
        hs.append(h)
    hs = np.array(hs)
    np.testing.assert_allclose(outs.asnumpy(), hs, rtol=1e-5)
    np.testing.assert_allclose(doubled.asnumpy(), 2 * xs, rtol=1e-6)
    np.testing.assert_allclose(states[0].asnumpy(), hs[-1], rtol=1e-5)
    dh_next = np.zeros(3)
    gx = np.zeros_like(hs)
    gw = np.zeros(3)
    for t in reversed(range(len(xs))):
        dh = 2 * hs[t] + dh_next + (1.0 if t == len(xs) - 1 else 0.0)
        gx[t] = dh
        gw += dh * (hs[t - 1] if t > 0 else 0.0)
        dh_next = dh * w
    np.testing.assert_allclose(data.grad.asnumpy(), gx, rtol=1e-4)
    np.testing.assert_allclose(weight.grad.asnumpy(), gw, rtol=1e-4)

    # Several data arrays and a nested state list.
    outs, states = mx.nd.contrib.foreach(
        lambda d, s: (d[0] + d[1], [[s[0][0] + d[0]], s[1] * 2]),
        [mx.nd.array(xs), mx.nd.ones((5, 3))], [[mx.nd.zeros(3)], mx.nd.ones(3)])
    np.testing.assert_allclose(outs.asnumpy(), xs + 1, rtol=1e-6)
    np.testing.assert_allclose(states[0][0].asnumpy(), xs.sum(0), rtol=1e-5)
    np.testing.assert_allclose(states[1].asnumpy(), np.full(3, 32.0))
    with pytest.raises(TypeError):
        mx.nd.contrib.foreach(lambda d, s: (d, s), xs, [mx.nd.zeros(3)])


def test_while_loop_values_padding_and_gradients():
    x = mx.nd.array([1.5])
    x.attach_grad()

    def cond(i, acc):
        return i < 4

    def func(i, acc):
        return [acc * x, i], [i + 1, acc * x]      # acc_k = x^k

    with mx.autograd.record():
        (prods, iters), (i_final, acc) = mx.nd.contrib.while_loop(
            cond, func, [mx.nd.array([0.0]), mx.nd.array([1.0])], max_iterations=6)
        loss = acc.sum()
    loss.backward()
    assert prods.shape == (6, 1) and iters.shape == (6, 1)
    np.testing.assert_allclose(prods.asnumpy()[:4, 0], [1.5, 1.5 ** 2, 1.5 ** 3, 1.5 ** 4],
                               rtol=1e-6)
    np.testing.assert_allclose(iters.asnumpy()[:4, 0], [0, 1, 2, 3])
    assert i_final.asscalar() == 4
    np.testing.assert_allclose(acc.asnumpy(), [1.5 ** 4], rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), [4 * 1.5 ** 3], rtol=1e-5)   # d x^4 / dx

    # max_iterations stops the loop; a single NDArray loop var comes back unwrapped.
    out, var = mx.nd.contrib.while_loop(lambda v: v < 100, lambda v: (v, v + 1),
                                        mx.nd.array([0.0]), max_iterations=3)
    assert isinstance(var, mx.nd.NDArray) and var.asscalar() == 3
    assert isinstance(out, mx.nd.NDArray)     # one un-nested step output
    np.testing.assert_allclose(out.asnumpy()[:, 0], [0, 1, 2])
    with pytest.raises(ValueError, match="max_iterations"):
        mx.nd.contrib.while_loop(lambda v: v < 1, lambda v: (v, v), [mx.nd.zeros(1)])
    with pytest.raises(ValueError, match="loop_vars"):
        mx.nd.contrib.while_loop(lambda a, b: a < 1, lambda a, b: (a, [a]),
                                 [mx.nd.zeros(1), mx.nd.zeros(1)], max_iterations=2)


def test_cond_branches_and_gradients():
    a = mx.nd.array([2.0, 3.0])
    a.attach_grad()
    for pred, expect_grad in ((mx.nd.array([1]), [4.0, 6.0]), (mx.nd.array([0]), [3.0, 3.0])):
        with mx.autograd.record():
            out = mx.nd.contrib.cond(pred, lambda: a * a, lambda: a * 3)
            out.sum().backward()
        np.testing.assert_allclose(a.grad.asnumpy(), expect_grad)
    assert mx.nd.contrib.cond(True, lambda: 1, lambda: 2) == 1
    with pytest.raises(ValueError):
        mx.nd.contrib.cond(mx.nd.array([1, 2]), lambda: 1, lambda: 2)


def test_isinf_isfinite_isnan():
    vals = np.array([1.0, np.inf, -np.inf, np.nan, 0.0], dtype=np.float32)
    x = mx.nd.array(vals)
    np.testing.assert_array_equal(mx.nd.contrib.isinf(x).asnumpy(), np.isinf(vals))
    np.testing.assert_array_equal(mx.nd.contrib.isfinite(x).asnumpy(), np.isfinite(vals))
    np.testing.assert_array_equal(mx.nd.contrib.isnan(x).asnumpy(), np.isnan(vals))


def test_contrib_autograd_old_api():
    ag = mx.contrib.autograd
    x = mx.nd.array([1.0, -2.0, 3.0])
    y = mx.nd.array([0.5, 0.5, 2.0])

    def f(a, b):
        return (a * a * b).sum()

    grads, loss = ag.grad_and_loss(f)(x, y)
    np.testing.assert_allclose(grads[0].asnumpy(), 2 * x.asnumpy() * y.asnumpy())
    np.testing.assert_allclose(grads[1].asnumpy(), x.asnumpy() ** 2)
    np.testing.assert_allclose(loss.asscalar(), (x.asnumpy() ** 2 * y.asnumpy()).sum())
    only_b = ag.grad(f, argnum=1)(x, y)
    assert len(only_b) == 1
    np.testing.assert_allclose(only_b[0].asnumpy(), x.asnumpy() ** 2)
    with pytest.raises(TypeError):
        ag.grad(f)(np.ones(3), y)

    assert not mx.autograd.is_recording()
    with ag.train_section():
        assert mx.autograd.is_recording() and mx.autograd.is_training()
        with ag.test_section():
            assert not mx.autograd.is_recording() and not mx.autograd.is_training()
        assert mx.autograd.is_recording()
    assert not mx.autograd.is_recording() and not mx.autograd.is_training()
    assert ag.set_is_training(True) is False
    assert ag.set_is_training(False) is True

    # mark_variables + compute_gradient, the 0.x way.
    w = mx.nd.array([1.0, 2.0])
    gw = mx.nd.zeros(2)
    ag.mark_variables([w], [gw])
    with ag.train_section():
        z = (w * w * w).sum()
    ag.compute_gradient([z])
    np.testing.assert_allclose(gw.asnumpy(), 3 * w.asnumpy() ** 2)


def test_dataloader_iter_pads_last_batch():
    from mxnet.gluon.data import ArrayDataset, DataLoader
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10, dtype=np.float32)
    it = mx.contrib.io.DataLoaderIter(DataLoader(ArrayDataset(mx.nd.array(x), mx.nd.array(y)),
                                                 batch_size=4))
    assert it.provide_data[0].shape == (4, 2) and it.provide_label[0].shape == (4,)
    for _ in range(2):
        batches = list(it)
        assert [b.pad for b in batches] == [0, 0, 2]
        data = np.concatenate([b.data[0].asnumpy()[:4 - b.pad] for b in batches])
        label = np.concatenate([b.label[0].asnumpy()[:4 - b.pad] for b in batches])
        np.testing.assert_array_equal(data, x)
        np.testing.assert_array_equal(label, y)
        assert batches[-1].data[0].shape == (4, 2)
        it.reset()
