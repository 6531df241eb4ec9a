"""Higher-order gradients, part 2: power / maximum / minimum / hypot (same-shape, broadcast and
scalar forms), max / min reductions, batch_dot, softmax / log_softmax, LeakyReLU, clip, where,
take / Embedding and the linear shape ops (transpose, expand_dims, squeeze, Concat, stack,
SliceChannel).

Oracles: central finite differences of the first-order gradient (Hessian-vector products),
analytic NumPy formulas, and the real MXNet 1.9.1 (reference venv, skipped when missing).
"""
import json

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd as ag

from mx191_oracle import HAVE_MX191, SKIP_REASON, run as run_python

nd = mx.nd
_internal = mx.nd._internal


def _first_grad(fn, xv):
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        y = fn(x)
    y.backward()
    return x.grad.asnumpy()


def _hessian_vector(fn, xv, vv):
    """(grad f, H v) of the scalar sum(fn(x)) by autograd: the gradient of <grad f, v>."""
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        y = fn(x)
        g = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
    g.backward(nd.array(vv, dtype="float64"))
    return g.asnumpy(), x.grad.asnumpy()


def _fd_hessian_vector(fn, xv, vv, eps=1e-5):
    return (_first_grad(fn, xv + eps * vv) - _first_grad(fn, xv - eps * vv)) / (2 * eps)


def _split_product(x, **kw):
    a, b, c = nd.split(x * x, num_outputs=3, axis=0, **kw)
    return a * nd.sin(b) * c


CASES = {
    # power
    "power": lambda x: _internal._power(x, nd.sin(x) + 1.5),
    "broadcast_power": lambda x: nd.broadcast_power(x, nd.sum(x, axis=0, keepdims=True) * 0.3),
    "broadcast_power_lhs_small": lambda x: nd.broadcast_power(
        nd.sum(x, axis=1, keepdims=True) * 0.5, x),
    "power_scalar": lambda x: x ** 2.5,
    "rpower_scalar": lambda x: 1.7 ** (x * x),
    # maximum / minimum (values are random, so no ties)
    "maximum": lambda x: _internal._maximum(x * x, 3 - x) * x,
    "minimum": lambda x: _internal._minimum(x * x, nd.exp(x - 1)) * x,
    "broadcast_maximum": lambda x: nd.broadcast_maximum(
        x * x, nd.sum(x, axis=0, keepdims=True) * 0.4) * x,
    "broadcast_minimum": lambda x: nd.broadcast_minimum(
        nd.sum(x * x, axis=1, keepdims=True) * 0.3, nd.exp(x)) * x,
    "maximum_scalar": lambda x: nd.maximum(x * x, 1.5) * x,
    "minimum_scalar": lambda x: nd.minimum(x * x, 1.5) * x,
    # hypot
    "hypot": lambda x: _internal._hypot(x, x * x),
    "broadcast_hypot": lambda x: nd.broadcast_hypot(x, nd.sum(x, axis=1, keepdims=True)),
    "hypot_scalar": lambda x: _internal._hypot_scalar(x * x, scalar=1.3),
    # reductions
    "max_axis": lambda x: nd.max(nd.sin(x) * x, axis=1) ** 2,
    "min_keepdims": lambda x: nd.min(nd.exp(x) * x, axis=0, keepdims=True) ** 2,
    "max_global": lambda x: nd.max(x * x) * x,
    "prod_axis": lambda x: nd.prod(nd.sin(x) + 1, axis=1) ** 2,
    "prod_keepdims": lambda x: nd.prod(x * x, axis=0, keepdims=True) * x,
    "prod_global": lambda x: nd.prod(x) * nd.sin(x),
    "norm": lambda x: nd.norm(nd.sin(x)) * x,
    "norm_axis": lambda x: nd.norm(x * x, axis=1) ** 3,
    "norm_ord1_keepdims": lambda x: nd.norm(x - 1.2, ord=1, axis=0, keepdims=True) * x,
    # batch_dot
    "batch_dot": lambda x: nd.batch_dot(nd.reshape(x, (1, 3, 3)),
                                        nd.reshape(nd.tanh(x), (1, 3, 3))),
    "batch_dot_transposed": lambda x: nd.batch_dot(
        nd.reshape(x * x, (1, 3, 3)), nd.reshape(nd.sin(x), (1, 3, 3)), transpose_a=True,
        transpose_b=True),
    # softmax family
    "softmax": lambda x: nd.softmax(x * x, axis=1) * x,
    "softmax_axis0_temperature": lambda x: nd.softmax(x, axis=0, temperature=2.0) ** 2,
    "log_softmax": lambda x: nd.log_softmax(x * x) * x,
    "log_softmax_temperature": lambda x: nd.log_softmax(x, axis=0, temperature=0.5) ** 2,
    # LeakyReLU
    "leaky": lambda x: nd.LeakyReLU(x - 1.2, act_type="leaky", slope=0.3) * x,
    "elu": lambda x: nd.LeakyReLU(x - 1.2, act_type="elu", slope=0.7),
    "selu": lambda x: nd.LeakyReLU(x - 1.2, act_type="selu"),
    "gelu": lambda x: nd.LeakyReLU(x - 1.2, act_type="gelu"),
    # clip, where
    "clip": lambda x: nd.clip(x * x, 1, 3) * x,
    "where": lambda x: nd.where(x > 1.2, x * x, nd.sin(x)) * x,
    # take / Embedding (linear in the weight)
    "take": lambda x: nd.take(x * x, nd.array([0, 2, 2])) ** 2,
    "Embedding": lambda x: nd.Embedding(nd.array([0, 2, 1, 2]), nd.sin(x), input_dim=3,
                                        output_dim=3) ** 2,
    # linear shape ops
    "transpose": lambda x: nd.transpose(x * x) * x,
    "expand_dims": lambda x: nd.expand_dims(nd.sin(x), axis=0) ** 3,
    "squeeze": lambda x: nd.squeeze(nd.expand_dims(nd.sin(x), 0)) * x,
    "concat": lambda x: nd.concat(x * x, nd.sin(x), dim=1) ** 2,
    "stack": lambda x: nd.stack(x * x, nd.exp(x), axis=1) ** 2,
    "tile": lambda x: nd.tile(nd.sin(x), (2, 1)) ** 2,
    "repeat": lambda x: nd.repeat(x * x, repeats=2, axis=1) ** 2,
    "split": _split_product,
    "split_squeeze": lambda x: _split_product(x, squeeze_axis=True),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hessian_vector_matches_finite_difference(case):
    fn = CASES[case]
    rng = np.random.RandomState(7)
    xv = rng.uniform(0.5, 2.0, size=(3, 3))
    vv = rng.uniform(-1, 1, size=(3, 3))
    first, hv = _hessian_vector(fn, xv, vv)
    np.testing.assert_allclose(first, _first_grad(fn, xv), rtol=1e-10)
    fd = _fd_hessian_vector(fn, xv, vv)
    np.testing.assert_allclose(hv, fd, rtol=1e-5, atol=1e-7)


def _second_order(fn, xv):
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        dx = ag.grad(fn(x), [x], create_graph=True, retain_graph=True)[0]
    dx.backward()
    return dx.asnumpy(), x.grad.asnumpy()


def _third_order(fn, xv):
    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        d1 = ag.grad(fn(x), [x], create_graph=True, retain_graph=True)[0]
        d2 = ag.grad(d1, [x], create_graph=True, retain_graph=True)[0]
    d2.backward()
    return d2.asnumpy(), x.grad.asnumpy()


def test_power_analytic_second_order():
    # f = x^x: f' = x^x (1 + ln x), f'' = x^x ((1 + ln x)^2 + 1/x)
    xv = np.array([0.4, 1.0, 1.7, 2.5])
    first, second = _second_order(lambda x: _internal._power(x, x), xv)
    np.testing.assert_allclose(first, xv ** xv * (1 + np.log(xv)), rtol=1e-10)
    np.testing.assert_allclose(second, xv ** xv * ((1 + np.log(xv)) ** 2 + 1 / xv), rtol=1e-10)


def test_rpower_and_hypot_scalar_third_order():
    xv = np.array([-0.8, 0.3, 1.4])
    second, third = _third_order(lambda x: 1.7 ** x, xv)
    ln = np.log(1.7)
    np.testing.assert_allclose(second, 1.7 ** xv * ln ** 2, rtol=1e-10)
    np.testing.assert_allclose(third, 1.7 ** xv * ln ** 3, rtol=1e-10)
    # h = sqrt(x^2 + s^2): h'' = s^2 h^-3, h''' = -3 s^2 x h^-5
    s = 1.3
    second, third = _third_order(lambda x: _internal._hypot_scalar(x, scalar=s), xv)
    h = np.hypot(xv, s)
    np.testing.assert_allclose(second, s ** 2 / h ** 3, rtol=1e-10)
    np.testing.assert_allclose(third, -3 * s ** 2 * xv / h ** 5, rtol=1e-10)


def test_maximum_minimum_second_order_is_zero_and_first_masks():
    xv = np.array([-1.0, 0.2, 0.7, 2.0])
    other = nd.array([0.0, 0.5, 0.5, 1.0], dtype="float64")
    first, second = _second_order(lambda x: nd.maximum(x, other), xv)
    np.testing.assert_allclose(first, [0, 0, 1, 1])
    np.testing.assert_allclose(second, np.zeros(4))
    first, second = _second_order(lambda x: nd.minimum(x, 0.5), xv)
    np.testing.assert_allclose(first, [1, 1, 0, 0])
    np.testing.assert_allclose(second, np.zeros(4))


def test_softmax_third_order_matches_finite_difference():
    # third order: the gradient of <H(x) v, w> against finite differences of the autograd
    # Hessian-vector product along w
    rng = np.random.RandomState(3)
    xv, vv, wv = rng.uniform(-1, 1, (3, 2, 4))
    fn = lambda x: nd.softmax(x) * nd.log_softmax(x * 0.5)

    def hv_dot_w(xv_):
        return _hessian_vector(fn, xv_, vv)[1]

    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with ag.record():
        g = ag.grad(fn(x), [x], create_graph=True, retain_graph=True)[0]
        hv = ag.grad(g, [x], head_grads=[nd.array(vv, dtype="float64")], create_graph=True,
                     retain_graph=True)[0]
    hv.backward(nd.array(wv, dtype="float64"))
    eps = 1e-5
    fd = (hv_dot_w(xv + eps * wv) - hv_dot_w(xv - eps * wv)) / (2 * eps)
    # both are T(v, w, .) with T the (symmetric) third-derivative tensor
    np.testing.assert_allclose(x.grad.asnumpy(), fd, rtol=1e-5, atol=1e-8)


def test_prelu_second_order_is_not_implemented():
    x = nd.array([[0.5, -1.5]], dtype="float64")
    gamma = nd.array([0.25], dtype="float64")
    x.attach_grad()
    with ag.record():
        dx = ag.grad(nd.LeakyReLU(x, gamma, act_type="prelu"), [x], create_graph=True,
                     retain_graph=True)[0]
    with pytest.raises(mx.MXNetError) as err:
        dx.backward()
    assert "_backward_LeakyReLU" in str(err.value) and "prelu" in str(err.value)


# ------------------------------------------------------------------ real MXNet 1.9.1

# Expressions evaluated with x bound, under both MXNet 1.9.1 and ours. Of this file's ops, 1.9.1
# differentiates only these twice (its `*` is broadcast_mul, whose backward it cannot
# differentiate, hence elemwise_mul); it raises for power, maximum, softmax, LeakyReLU, Concat...
MX191_CASES = {
    "transpose": "mx.nd.sin(mx.nd.transpose(mx.nd.square(x)))",
    "clip": "mx.nd.clip(mx.nd.sin(mx.nd.square(x)), -0.5, 0.8)",
    "transpose_clip": "mx.nd.transpose(mx.nd.clip(mx.nd.exp(x), 2, 5))",
}

_MX191_SCRIPT = r"""
import json, sys
import numpy as np
import mxnet as mx
from mxnet import autograd as ag
spec = json.loads(sys.argv[1])
out = {}
for name, expr in spec["cases"].items():
    x = mx.nd.array(np.array(spec["x"]), dtype="float64")
    x.attach_grad()
    try:
        with ag.record():
            y = eval(expr)
            dx = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
        dx.backward(mx.nd.array(np.array(spec["v"]), dtype="float64"))
        out[name] = [dx.asnumpy().tolist(), x.grad.asnumpy().tolist()]
    except Exception as e:  # 1.9.1 has no second order for this op
        out[name] = str(e).splitlines()[0]
print(json.dumps(out))
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_second_order_matches_mxnet_191():
    rng = np.random.RandomState(11)
    xv = rng.uniform(0.5, 2.0, size=(3, 3))
    vv = rng.uniform(-1, 1, size=(3, 3))
    spec = {"x": xv.tolist(), "v": vv.tolist(), "cases": MX191_CASES}
    ref = json.loads(run_python(["-c", _MX191_SCRIPT, json.dumps(spec)], ours=False,
                                output=True).decode().strip().splitlines()[-1])
    compared = []
    for name, expr in MX191_CASES.items():
        if not isinstance(ref[name], list):
            continue
        first, hv = _hessian_vector(lambda x: eval(expr), xv, vv)
        np.testing.assert_allclose(first, ref[name][0], rtol=1e-6, atol=1e-9, err_msg=name)
        ref_hv = np.array(ref[name][1])
        # 1.9.1 returns NaN where clip cuts the input off (there the true second derivative
        # is 0: the first gradient is 0 in a neighbourhood); compare the rest
        finite = np.isfinite(ref_hv)
        np.testing.assert_allclose(hv[finite], ref_hv[finite], rtol=1e-6, atol=1e-9, err_msg=name)
        np.testing.assert_array_equal(hv[~finite], 0, err_msg=name)
        compared.append(name)
    assert len(compared) == len(MX191_CASES), ("too few ops with second order in MXNet 1.9.1", ref)
