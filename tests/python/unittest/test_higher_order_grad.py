"""Higher-order gradients: autograd.grad(..., create_graph=True) and then backward again.

Oracles: the analytic derivatives in NumPy, central finite differences of the first-order
gradient function, and the real MXNet 1.9.1 (reference venv, skipped when missing).
"""
import json

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd as ag

from mx191_oracle import HAVE_MX191, SKIP_REASON, run as run_python

nd = mx.nd

# name -> (domain low, high, f', f'')  with f' and f'' in NumPy.
UNARY = {
    "relu": (-2, 2, lambda x: (x > 0) * 1.0, lambda x: 0 * x),
    "sigmoid": (-3, 3, lambda x: _sig(x) * (1 - _sig(x)),
                lambda x: _sig(x) * (1 - _sig(x)) * (1 - 2 * _sig(x))),
    "tanh": (-2, 2, lambda x: 1 - np.tanh(x) ** 2,
             lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    "log": (0.3, 3, lambda x: 1 / x, lambda x: -1 / x ** 2),
    "log2": (0.3, 3, lambda x: 1 / (x * np.log(2)), lambda x: -1 / (x ** 2 * np.log(2))),
    "log10": (0.3, 3, lambda x: 1 / (x * np.log(10)), lambda x: -1 / (x ** 2 * np.log(10))),
    "log1p": (-0.5, 3, lambda x: 1 / (1 + x), lambda x: -1 / (1 + x) ** 2),
    "exp": (-2, 2, np.exp, np.exp),
    "expm1": (-2, 2, np.exp, np.exp),
    "sqrt": (0.3, 3, lambda x: 0.5 / np.sqrt(x), lambda x: -0.25 * x ** -1.5),
    "rsqrt": (0.3, 3, lambda x: -0.5 * x ** -1.5, lambda x: 0.75 * x ** -2.5),
    "cbrt": (0.3, 3, lambda x: x ** (-2 / 3) / 3, lambda x: -2 / 9 * x ** (-5 / 3)),
    "rcbrt": (0.3, 3, lambda x: -x ** (-4 / 3) / 3, lambda x: 4 / 9 * x ** (-7 / 3)),
    "square": (-2, 2, lambda x: 2 * x, lambda x: 2 + 0 * x),
    "reciprocal": (0.3, 3, lambda x: -1 / x ** 2, lambda x: 2 / x ** 3),
    "abs": (-2, 2, np.sign, lambda x: 0 * x),
    "sin": (-2, 2, np.cos, lambda x: -np.sin(x)),
    "cos": (-2, 2, lambda x: -np.sin(x), lambda x: -np.cos(x)),
    "tan": (-1, 1, lambda x: 1 / np.cos(x) ** 2, lambda x: 2 * np.tan(x) / np.cos(x) ** 2),
    "sinh": (-2, 2, np.cosh, np.sinh),
    "cosh": (-2, 2, np.sinh, np.cosh),
    "arcsin": (-0.8, 0.8, lambda x: (1 - x ** 2) ** -0.5, lambda x: x * (1 - x ** 2) ** -1.5),
    "arccos": (-0.8, 0.8, lambda x: -(1 - x ** 2) ** -0.5, lambda x: -x * (1 - x ** 2) ** -1.5),
    "arctan": (-2, 2, lambda x: 1 / (1 + x ** 2), lambda x: -2 * x / (1 + x ** 2) ** 2),
    "arcsinh": (-2, 2, lambda x: (x ** 2 + 1) ** -0.5, lambda x: -x * (x ** 2 + 1) ** -1.5),
    "arccosh": (1.5, 3, lambda x: (x ** 2 - 1) ** -0.5, lambda x: -x * (x ** 2 - 1) ** -1.5),
    "arctanh": (-0.8, 0.8, lambda x: 1 / (1 - x ** 2), lambda x: 2 * x / (1 - x ** 2) ** 2),
    "radians": (-2, 2, lambda x: np.pi / 180 + 0 * x, lambda x: 0 * x),
    "degrees": (-2, 2, lambda x: 180 / np.pi + 0 * x, lambda x: 0 * x),
    "softsign": (-2, 2, lambda x: (1 + np.abs(x)) ** -2,
                 lambda x: -2 * np.sign(x) * (1 + np.abs(x)) ** -3),
    "erf": (-2, 2, lambda x: 2 / np.sqrt(np.pi) * np.exp(-x ** 2),
            lambda x: -4 * x / np.sqrt(np.pi) * np.exp(-x ** 2)),
}

# Unary ops whose second order MXNet 1.9.1 supports (checked against it below). Not arcsinh
# and arccosh: 1.9.1 returns their second derivative with the wrong sign (+x (x^2 +- 1)^-3/2);
# ours follows the math, checked by finite differences.
MX191_UNARY = ["relu", "sigmoid", "tanh", "log", "log2", "log10", "exp", "expm1", "log1p", "sqrt",
               "rsqrt", "cbrt", "rcbrt", "square", "reciprocal", "abs", "sin", "cos", "tan",
               "sinh", "cosh", "arcsin", "arccos", "arctan", "arctanh", "radians"]


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _sample(low, high, shape=(3, 4), seed=0):
    x = np.random.RandomState(seed).uniform(low, high, size=shape)
    # keep away from the kinks of relu / abs / softsign
    x[np.abs(x) < 0.05] = 0.3
    return x


def _second_order(fn, xv, head, head2):
    """(first gradient, gradient of sum(head2 * first gradient)) through create_graph."""
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        y = fn(x)
        dx = ag.grad(y, [x], head_grads=[nd.array(head, dtype="float64")], create_graph=True,
                     retain_graph=True)[0]
    dx.backward(nd.array(head2, dtype="float64"))
    return dx.asnumpy(), x.grad.asnumpy()


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_second_order_matches_analytic(name):
    low, high, d1, d2 = UNARY[name]
    xv = _sample(low, high)
    rng = np.random.RandomState(1)
    head, head2 = rng.uniform(0.5, 1.5, xv.shape), rng.uniform(0.5, 1.5, xv.shape)
    first, second = _second_order(getattr(nd, name), xv, head, head2)
    np.testing.assert_allclose(first, head * d1(xv), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(second, head2 * head * d2(xv), rtol=1e-6, atol=1e-9)


def test_clip_second_order_is_zero_and_first_order_masks():
    xv = np.array([-2., -0.5, 0.1, 0.4, 1.5, 3.], dtype=np.float64)
    first, second = _second_order(lambda x: nd.clip(x, -1, 1), xv, np.ones(6), np.ones(6))
    np.testing.assert_allclose(first, (np.abs(xv) < 1) * 1.0)
    np.testing.assert_allclose(second, np.zeros(6))


def _first_grad(fn, xv):
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        y = fn(x)
    y.backward()
    return x.grad.asnumpy()


@pytest.mark.parametrize("name", ["log", "tanh", "sigmoid", "rcbrt", "arctan", "sqrt", "arcsinh",
                                  "arccosh", "softsign", "erf"])
def test_second_order_matches_finite_difference_of_first_gradient(name):
    low, high, _, _ = UNARY[name]
    xv = _sample(low, high, shape=(5,), seed=3)
    fn = getattr(nd, name)
    eps = 1e-5
    fd = (_first_grad(fn, xv + eps) - _first_grad(fn, xv - eps)) / (2 * eps)
    _, second = _second_order(fn, xv, np.ones(5), np.ones(5))
    np.testing.assert_allclose(second, fd, rtol=1e-5, atol=1e-7)


def _third_order(fn, xv):
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        y = fn(x)
        d1 = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
        d2 = ag.grad(d1, [x], create_graph=True, retain_graph=True)[0]
    d2.backward()
    return d2.asnumpy(), x.grad.asnumpy()


@pytest.mark.parametrize("name,low,high,d2,d3", [
    ("log", 0.3, 3, lambda x: -1 / x ** 2, lambda x: 2 / x ** 3),
    ("tanh", -2, 2, lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2),
     lambda x: (1 - np.tanh(x) ** 2) * (6 * np.tanh(x) ** 2 - 2)),
    ("sigmoid", -3, 3, lambda x: _sig(x) * (1 - _sig(x)) * (1 - 2 * _sig(x)),
     lambda x: _sig(x) * (1 - _sig(x)) * (1 - 6 * _sig(x) + 6 * _sig(x) ** 2)),
    ("exp", -2, 2, np.exp, np.exp),
    ("sinh", -2, 2, np.sinh, np.cosh),
    ("reciprocal", 0.3, 3, lambda x: 2 / x ** 3, lambda x: -6 / x ** 4),
    ("rcbrt", 0.3, 3, lambda x: 4 / 9 * x ** (-7 / 3), lambda x: -28 / 27 * x ** (-10 / 3)),
    ("arctan", -2, 2, lambda x: -2 * x / (1 + x ** 2) ** 2,
     lambda x: (6 * x ** 2 - 2) / (1 + x ** 2) ** 3),
])
def test_third_order(name, low, high, d2, d3):
    xv = _sample(low, high, shape=(6,), seed=5)
    second, third = _third_order(getattr(nd, name), xv)
    np.testing.assert_allclose(second, d2(xv), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(third, d3(xv), rtol=1e-6, atol=1e-9)


# ------------------------------------------------------------------ binary / reduction / dot

def _hessian_vector(fn, xv, vv):
    """H v of the scalar sum(fn(x)) by autograd: grad of <grad f, v>."""
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        y = fn(x)
        g = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
    g.backward(nd.array(vv, dtype="float64"))
    return g.asnumpy(), x.grad.asnumpy()


def _fd_hessian_vector(fn, xv, vv, eps=1e-5):
    return (_first_grad(fn, xv + eps * vv) - _first_grad(fn, xv - eps * vv)) / (2 * eps)


BINARY_CASES = {
    "elemwise_div": lambda x: nd.elemwise_div(nd.sin(x), x * x + 1),
    "elemwise_add_sub": lambda x: nd.elemwise_sub(nd.elemwise_add(x * x, nd.exp(x)), nd.log(x)) * x,
    "broadcast_div": lambda x: nd.broadcast_div(x * x, nd.sum(x, axis=1, keepdims=True)),
    "broadcast_div_lhs_small": lambda x: nd.broadcast_div(nd.sum(x, axis=0, keepdims=True),
                                                          x * x + 1),
    "broadcast_add": lambda x: nd.broadcast_add(x, nd.sum(x * x, axis=0, keepdims=True)) * x,
    "broadcast_sub": lambda x: nd.broadcast_sub(x, nd.mean(x, axis=1, keepdims=True)) ** 2,
    "broadcast_mul": lambda x: nd.broadcast_mul(x, nd.sum(nd.sin(x), axis=1, keepdims=True)),
    "scalars": lambda x: 2.0 / (x * 3.0 + 1.5) - x / 4.0,
    "rdiv": lambda x: 3.0 / x,
    "sum_mean": lambda x: nd.sum(x * x, axis=0) * nd.mean(nd.log(x), axis=0),
    "dot": lambda x: nd.dot(nd.tanh(x), nd.transpose(x)),
    "dot_transposed": lambda x: nd.dot(x, nd.sigmoid(x), transpose_a=True),
    "dot_transpose_b": lambda x: nd.dot(x * x, x, transpose_b=True),
    "fully_connected": lambda x: nd.FullyConnected(nd.sin(x), x * x, x[0], num_hidden=3),
    "fully_connected_no_bias": lambda x: nd.FullyConnected(
        nd.reshape(x, (3, 3, 1)), nd.tanh(x), num_hidden=3, no_bias=True),
    "fully_connected_no_flatten": lambda x: nd.FullyConnected(
        nd.reshape(x * x, (1, 3, 3)), x, x[1], num_hidden=3, flatten=False),
    "reshape_slice_axis": lambda x: nd.sin(nd.slice_axis(nd.reshape(x * x, (9,)), axis=0,
                                                         begin=2, end=7)),
    "slice_flatten": lambda x: nd.Flatten(nd.slice(nd.exp(x), begin=(0, 1), end=(2, 3))) ** 3,
    "activation_relu": lambda x: nd.Activation(x - 1.2, act_type="relu") * x,
    "activation_sigmoid": lambda x: nd.Activation(x, act_type="sigmoid"),
    "activation_tanh": lambda x: nd.Activation(x, act_type="tanh"),
    "activation_softrelu": lambda x: nd.Activation(x - 1, act_type="softrelu"),
    "activation_softsign": lambda x: nd.Activation(x - 1.2, act_type="softsign"),
}


@pytest.mark.parametrize("case", sorted(BINARY_CASES))
def test_binary_and_reduction_hessian_vector_matches_finite_difference(case):
    fn = BINARY_CASES[case]
    rng = np.random.RandomState(7)
    xv = rng.uniform(0.5, 2.0, size=(3, 3))
    vv = rng.uniform(-1, 1, size=(3, 3))
    first, hv = _hessian_vector(fn, xv, vv)
    np.testing.assert_allclose(first, _first_grad(fn, xv), rtol=1e-10)
    np.testing.assert_allclose(hv, _fd_hessian_vector(fn, xv, vv), rtol=1e-5, atol=1e-7)


def test_elemwise_div_second_order_analytic():
    # f = a / b with a = x, b = x^2 + 1: f'' by hand
    xv = np.array([0.3, 1.0, 2.5])
    _, second = _second_order(lambda x: x / (x * x + 1), xv, np.ones(3), np.ones(3))
    b = xv ** 2 + 1
    expected = (2 * xv ** 3 - 6 * xv) / b ** 3
    np.testing.assert_allclose(second, expected, rtol=1e-10)


def test_third_order_through_activation_and_fully_connected():
    # f = tanh(FC(x, w)) = tanh(w x) with one input feature: f'' = w^2 tanh''(w x) and
    # f''' = w^3 tanh'''(w x).
    xv = np.array([[0.3], [-0.7], [1.1]])
    w = nd.array([[0.5]], dtype="float64")
    second, third = _third_order(
        lambda x: nd.Activation(nd.FullyConnected(x, w, no_bias=True, num_hidden=1),
                                act_type="tanh"), xv)
    t = np.tanh(0.5 * xv)
    np.testing.assert_allclose(second, 0.25 * (-2 * t * (1 - t ** 2)), rtol=1e-10)
    np.testing.assert_allclose(third, 0.125 * (1 - t ** 2) * (6 * t ** 2 - 2), rtol=1e-10)


def test_third_order_through_division():
    xv = np.array([0.5, 1.5, 2.0])
    second, third = _third_order(lambda x: 1.0 / x, xv)
    np.testing.assert_allclose(second, 2 / xv ** 3, rtol=1e-10)
    np.testing.assert_allclose(third, -6 / xv ** 4, rtol=1e-10)


# ------------------------------------------------------------------ unsupported ops

def test_unsupported_second_order_names_the_operator():
    x = nd.array([0.5, 1.5], dtype="float64")
    x.attach_grad()
    with ag.record():
        y = nd.gamma(x)
        dx = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
    with pytest.raises(mx.MXNetError) as err:
        dx.backward()
    msg = str(err.value)
    assert "_backward_gamma" in msg and "higher-order" in msg, msg


# ------------------------------------------------------------------ real MXNet 1.9.1

_MX191_SCRIPT = r"""
import json, sys
import numpy as np
import mxnet as mx
from mxnet import autograd as ag
spec = json.loads(sys.argv[1])
out = {}
for name, xs in spec.items():
    x = mx.nd.array(np.array(xs, dtype=np.float64), dtype="float64")
    x.attach_grad()
    with ag.record():
        y = getattr(mx.nd, name)(x)
        dx = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
    dx.backward()
    out[name] = [dx.asnumpy().tolist(), x.grad.asnumpy().tolist()]
print(json.dumps(out))
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_second_order_matches_mxnet_191():
    spec = {}
    for name in MX191_UNARY:
        low, high, _, _ = UNARY[name]
        spec[name] = _sample(low, high, shape=(4,), seed=11).tolist()
    ref = json.loads(run_python(["-c", _MX191_SCRIPT, json.dumps(spec)], ours=False,
                                output=True).decode().strip().splitlines()[-1])
    for name in MX191_UNARY:
        first, second = _second_order(getattr(nd, name), np.array(spec[name]), np.ones(4),
                                      np.ones(4))
        np.testing.assert_allclose(first, ref[name][0], rtol=1e-6, atol=1e-9, err_msg=name)
        np.testing.assert_allclose(second, ref[name][1], rtol=1e-6, atol=1e-9, err_msg=name)
