"""mx.autograd: recording scopes, flags, backward/grad, grad_req, retain/create graph, detach,
custom Functions, per-thread recording and errors. Oracles: NumPy closed-form derivatives and
central finite differences."""
import threading

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd as ag


def _arr(values, dtype=np.float32):
    return mx.nd.array(np.asarray(values, dtype=dtype), dtype=dtype)


def test_record_pause_scopes_and_flags():
    assert not ag.is_recording() and not ag.is_training()
    with ag.record():
        assert ag.is_recording() and ag.is_training()
        with ag.pause():
            assert not ag.is_recording() and not ag.is_training()
            with ag.train_mode():
                assert ag.is_training() and not ag.is_recording()
        assert ag.is_recording() and ag.is_training()
        with ag.predict_mode():
            assert ag.is_recording() and not ag.is_training()
    with ag.record(train_mode=False):
        assert ag.is_recording() and not ag.is_training()
    assert not ag.is_recording() and not ag.is_training()
    assert ag.set_recording(True) is False
    assert ag.set_recording(False) is True
    assert ag.set_training(True) is False
    assert ag.set_training(False) is True


def test_scope_restores_flags_on_exception():
    with pytest.raises(RuntimeError):
        with ag.record():
            raise RuntimeError("boom")
    assert not ag.is_recording() and not ag.is_training()


def test_simple_backward_and_attach_grad():
    xv = np.array([[1., 2.], [3., -4.]], dtype=np.float32)
    x = _arr(xv)
    x.attach_grad()
    assert x.grad is not None and np.all(x.grad.asnumpy() == 0)
    with ag.record():
        y = x * x + 3 * x
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * xv + 3, rtol=1e-6)
    # head gradient
    with ag.record():
        y = mx.nd.sin(x)
    y.backward(_arr([[1, 2], [3, 4]]))
    np.testing.assert_allclose(x.grad.asnumpy(), np.cos(xv) * np.array([[1, 2], [3, 4]]),
                               rtol=1e-5)


def test_unmarked_array_has_no_grad_and_constants_get_none():
    a = _arr([1, 2])
    assert a.grad is None
    x = _arr([1, 2])
    x.attach_grad()
    with ag.record():
        y = x * a  # a is a constant
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [1, 2])
    assert a.grad is None


def test_pause_inside_record_is_not_differentiated():
    x = _arr([1., 2., 3.])
    x.attach_grad()
    with ag.record():
        y = x * 2
        with ag.pause():
            c = x * 10  # constant w.r.t. autograd
        z = y * c
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * 10 * np.array([1., 2., 3.]))


def test_grad_req_add_accumulates_and_null_skips():
    x = _arr([1., 2.])
    x.attach_grad(grad_req='add')
    for _ in range(3):
        with ag.record():
            y = x * x
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * 2 * np.array([1., 2.]))
    w = _arr([5., 6.])
    w.attach_grad(grad_req='null')
    with ag.record():
        y = x * w
    y.backward()
    assert np.all(w.grad.asnumpy() == 0)


def test_grad_req_write_overwrites():
    x = _arr([1., 2.])
    x.attach_grad()
    for k in (1., 2., 3.):
        with ag.record():
            y = x * k
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [3., 3.])


def test_mark_variables_with_list_of_reqs():
    x, w = _arr([1., 2.]), _arr([3., 4.])
    gx, gw = mx.nd.zeros((2,)), mx.nd.ones((2,))
    ag.mark_variables([x, w], [gx, gw], grad_reqs=['write', 'add'])
    with ag.record():
        y = x * w
    ag.backward([y])
    np.testing.assert_allclose(gx.asnumpy(), [3., 4.])
    np.testing.assert_allclose(gw.asnumpy(), [2., 3.])  # 1 + x
    assert x.grad is not None


def test_retain_graph():
    x = _arr([1., 2.])
    x.attach_grad()
    with ag.record():
        y = mx.nd.exp(x)
    y.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.asnumpy(), np.exp([1., 2.]), rtol=1e-6)
    y.backward()  # still allowed, frees the graph now
    np.testing.assert_allclose(x.grad.asnumpy(), np.exp([1., 2.]), rtol=1e-6)
    with pytest.raises(mx.MXNetError, match="retain_graph"):
        y.backward()


def test_backward_without_recording_errors():
    x = _arr([1., 2.])
    x.attach_grad()
    y = x * 2  # not recorded
    with pytest.raises(mx.MXNetError, match="not in a computational graph"):
        y.backward()
    z = _arr([1.])
    with ag.record():
        w = z * 2  # z not marked: nothing recorded
    with pytest.raises(mx.MXNetError, match="not in a computational graph"):
        w.backward()


def test_backward_with_no_variable_requiring_grad():
    x = _arr([1., 2.])
    x.attach_grad(grad_req='null')
    with ag.record():
        y = x * 2
    with pytest.raises(mx.MXNetError, match="require gradient"):
        y.backward()


def test_grad_of_unmarked_variable_errors():
    x = _arr([1., 2.])
    x.attach_grad()
    u = _arr([3., 4.])
    with ag.record():
        y = x * u
    with pytest.raises(mx.MXNetError, match="does not require gradient"):
        ag.grad(y, [u])


def test_inplace_on_recorded_array_errors():
    x = _arr([1., 2.])
    x.attach_grad()
    with ag.record():
        y = x * 2
        with pytest.raises(mx.MXNetError, match="already in a computational graph"):
            y += 1


def test_autograd_grad_returns_new_arrays_without_touching_buffers():
    xv = np.array([0.5, -1.5, 2.], dtype=np.float32)
    x = _arr(xv)
    x.attach_grad()
    with ag.record():
        y = mx.nd.tanh(x)
    g = ag.grad(y, x)
    np.testing.assert_allclose(g.asnumpy(), 1 - np.tanh(xv) ** 2, rtol=1e-5)
    assert np.all(x.grad.asnumpy() == 0)
    with ag.record():
        y = x * x
    g2 = ag.grad([y], [x, x])
    assert isinstance(g2, list) and len(g2) == 2
    np.testing.assert_allclose(g2[1].asnumpy(), 2 * xv, rtol=1e-6)


def test_second_derivative_create_graph():
    # d/dx x^3 = 3x^2, d2/dx2 = 6x
    xv = np.array([1., 2., -3.], dtype=np.float32)
    x = _arr(xv)
    x.attach_grad()
    with ag.record():
        y = x * x * x
        dy = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
    np.testing.assert_allclose(dy.asnumpy(), 3 * xv ** 2, rtol=1e-5)
    dy.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * xv, rtol=1e-5)
    # x ** 3 through _power_scalar
    with ag.record():
        y = x ** 3
        dy = ag.grad(y, [x], create_graph=True)[0]
    dy.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * xv, rtol=1e-5)
    # third derivative of x^3 through products: 6
    with ag.record():
        y = x * x * x
        d1 = ag.grad(y, [x], create_graph=True)[0]
        d2 = ag.grad(d1, [x], create_graph=True)[0]
    d2.backward()
    np.testing.assert_allclose(d2.asnumpy(), 6 * xv, rtol=1e-5)
    np.testing.assert_allclose(x.grad.asnumpy(), [6., 6., 6.], rtol=1e-5)


def test_second_derivative_of_sin():
    xv = np.array([0.3, 1.1], dtype=np.float32)
    x = _arr(xv)
    x.attach_grad()
    with ag.record():
        y = mx.nd.sin(x)
        dy = ag.grad(y, [x], create_graph=True)[0]
    dy.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), -np.sin(xv), rtol=1e-5)


def test_detach_cuts_graph():
    x = _arr([1., 2.])
    x.attach_grad()
    with ag.record():
        y = x * x
        z = y.detach() * x  # d/dx = y (held constant)
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [1., 4.])


def test_multiple_heads_and_shared_subexpressions():
    xv = np.array([1., 2.], dtype=np.float32)
    x = _arr(xv)
    x.attach_grad()
    with ag.record():
        a = x * 2
        b = a * a     # 4x^2
        c = a + x     # 3x
    ag.backward([b, c], head_grads=[_arr([1., 1.]), _arr([10., 10.])])
    np.testing.assert_allclose(x.grad.asnumpy(), 8 * xv + 30)


def test_views_are_recorded():
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = _arr(xv)
    x.attach_grad()
    with ag.record():
        row = x[1]
        part = x[0:1]
        flat = x.reshape((6,))
        y = mx.nd.sum(row * row) + mx.nd.sum(part) + mx.nd.sum(flat * 3)
    y.backward()
    expect = np.full((2, 3), 3.0, dtype=np.float32)
    expect[1] += 2 * xv[1]
    expect[0] += 1
    np.testing.assert_allclose(x.grad.asnumpy(), expect)


class _ModeProbe(ag.Function):
    """Records the training flag seen by forward and by backward."""
    seen = []

    def forward(self, x):
        _ModeProbe.seen.append(("forward", ag.is_training()))
        return x * 1

    def backward(self, dy):
        _ModeProbe.seen.append(("backward", ag.is_training()))
        return dy


def test_train_mode_flag_reaches_forward_and_backward():
    x = _arr([1., 2.])
    x.attach_grad()
    _ModeProbe.seen = []
    with ag.record(train_mode=False):
        y = _ModeProbe()(x)
    y.backward(train_mode=False)
    with ag.record():
        y = _ModeProbe()(x)
    y.backward()
    assert _ModeProbe.seen == [("forward", False), ("backward", False),
                               ("forward", True), ("backward", True)]


@pytest.mark.skipif(not hasattr(mx.nd, "Dropout"), reason="Dropout not registered in this build")
def test_train_mode_flag_reaches_dropout():
    x = mx.nd.ones((200, 50))
    x.attach_grad()
    with ag.record(train_mode=False):
        y = mx.nd.Dropout(x, p=0.5)
    assert np.all(y.asnumpy() == 1)
    with ag.record():
        y = mx.nd.Dropout(x, p=0.5)
    vals = y.asnumpy()
    assert np.any(vals == 0) and np.any(vals == 2)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), vals)  # mask * 1/(1-p)


def test_fresh_grad_state():
    x = _arr([1.])
    x.attach_grad()
    assert not x._fresh_grad
    with ag.record():
        y = x * 2
    y.backward()
    assert x._fresh_grad
    x._fresh_grad = False
    assert not x._fresh_grad


class _Sigmoid(ag.Function):
    def forward(self, x):
        y = 1 / (1 + mx.nd.exp(-x))
        self.save_for_backward(y)
        return y

    def backward(self, dy):
        y, = self.saved_tensors
        return dy * y * (1 - y)


def test_custom_function():
    xv = np.array([-1., 0., 2.], dtype=np.float32)
    x = _arr(xv)
    x.attach_grad()
    with ag.record():
        y = _Sigmoid()(x)
        z = y * 3
    z.backward()
    s = 1 / (1 + np.exp(-xv))
    np.testing.assert_allclose(y.asnumpy(), s, rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * s * (1 - s), rtol=1e-5)


class _MulAdd(ag.Function):
    def forward(self, a, b):
        self.save_for_backward(a, b)
        return a * b, a + b

    def backward(self, dprod, dsum):
        a, b = self.saved_tensors
        return dprod * b + dsum, dprod * a + dsum


def test_custom_function_two_inputs_two_outputs():
    a, b = _arr([1., 2.]), _arr([3., 5.])
    a.attach_grad()
    b.attach_grad()
    with ag.record():
        p, s = _MulAdd()(a, b)
        out = p * 2 + s
    out.backward()
    np.testing.assert_allclose(a.grad.asnumpy(), 2 * np.array([3., 5.]) + 1)
    np.testing.assert_allclose(b.grad.asnumpy(), 2 * np.array([1., 2.]) + 1)


def test_custom_function_called_twice_errors():
    f = _Sigmoid()
    f(_arr([1.]))
    with pytest.raises(AssertionError):
        f(_arr([1.]))


def test_custom_function_backward_error_is_raised():
    class Bad(ag.Function):
        def forward(self, x):
            return x * 1

        def backward(self, dy):
            raise RuntimeError("bad backward")

    x = _arr([1.])
    x.attach_grad()
    with ag.record():
        y = Bad()(x)
    with pytest.raises(mx.MXNetError, match="Function"):
        y.backward()


def test_recording_is_per_thread():
    x = _arr([1., 2.])
    x.attach_grad()
    seen = {}

    def worker():
        seen['recording'] = ag.is_recording()
        seen['y'] = x * 5  # not recorded on this thread

    with ag.record():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        y = x * 2
    assert seen['recording'] is False
    with pytest.raises(mx.MXNetError, match="not in a computational graph"):
        seen['y'].backward()
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [2., 2.])


def test_gradients_match_finite_differences_for_a_small_net():
    rng = np.random.RandomState(0)
    xv = rng.randn(4, 3)
    wv = rng.randn(5, 3)
    bv = rng.randn(5)

    def f(xn, wn, bn):
        h = np.tanh(xn @ wn.T + bn)
        return np.sum(h * h)

    x, w, b = (mx.nd.array(v, dtype=np.float64) for v in (xv, wv, bv))
    for v in (x, w, b):
        v.attach_grad()
    with ag.record():
        h = mx.nd.tanh(mx.nd.FullyConnected(x, w, b, num_hidden=5))
        loss = mx.nd.sum(h * h)
    loss.backward()
    eps = 1e-6
    for arr, val, idx in ((w, wv, 0), (b, bv, 1), (x, xv, 2)):
        num = np.zeros_like(val)
        it = np.nditer(val, flags=['multi_index'])
        for _ in it:
            i = it.multi_index
            plus, minus = [a.copy() for a in (xv, wv, bv)], [a.copy() for a in (xv, wv, bv)]
            order = {0: 1, 1: 2, 2: 0}[idx]
            plus[order][i] += eps
            minus[order][i] -= eps
            num[i] = (f(*plus) - f(*minus)) / (2 * eps)
        np.testing.assert_allclose(arr.grad.asnumpy(), num, rtol=1e-5, atol=1e-7)


def test_get_symbol_of_recorded_history():
    x = _arr([1., 2.])
    x.attach_grad()
    with ag.record():
        y = mx.nd.sin(x * 2) + x
    sym = ag.get_symbol(y)
    assert isinstance(sym, mx.sym.Symbol)
    assert len(sym.list_arguments()) == 1
    ops = [n["op"] for n in __import__("json").loads(sym.tojson())["nodes"]]
    assert "sin" in ops and "_mul_scalar" in ops and "null" in ops
    # the recorded graph evaluates to the same values through the executor
    arg = sym.list_arguments()[0]
    exe = sym.bind(mx.cpu(), args={arg: _arr([0.5, -1.0])})
    out = exe.forward()[0].asnumpy()
    np.testing.assert_allclose(out, np.sin(np.array([0.5, -1.0]) * 2) + [0.5, -1.0], rtol=1e-6)
    with pytest.raises(mx.MXNetError, match="not part of a computational graph"):
        ag.get_symbol(_arr([1.]))
