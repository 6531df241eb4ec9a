"""The CPU's vectorized float32 sigmoid and tanh (unary_fast.h) for the operators and
Activation, against float64 NumPy: ranges where each formula branch applies, the edge values,
in place, sizes around the vector and parallel chunk boundaries, and the generic paths left for
float64 and float16."""
import numpy as np
import pytest

import mxnet as mx


def ref(kind, x):
    x = x.astype(np.float64)
    with np.errstate(over="ignore"):
        return np.tanh(x) if kind == "tanh" else 1.0 / (1.0 + np.exp(-x))


def run(kind, form, x, **kw):
    a = mx.nd.array(x, dtype=x.dtype)
    if form == "op":
        return getattr(mx.nd, kind)(a, **kw)
    return mx.nd.Activation(a, act_type=kind, **kw)


KINDS = ["tanh", "sigmoid"]
FORMS = ["op", "Activation"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("n", [1, 7, 8, 33, (1 << 14) + 5, 3 * (1 << 14)])
def test_float32_matches_numpy(kind, form, n):
    rng = np.random.RandomState(n)
    # Small (tanh's series), moderate and saturating arguments.
    x = np.concatenate([rng.uniform(-0.3, 0.3, n), rng.uniform(-6, 6, n),
                        rng.uniform(-120, 120, n)]).astype(np.float32)
    got = run(kind, form, x).asnumpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ref(kind, x), rtol=2e-6, atol=1e-30)


@pytest.mark.parametrize("form", FORMS)
def test_edge_values(form):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 0.25, -0.25,
                  88.0, -88.0, 1e30, -1e30], dtype=np.float32)
    t = run("tanh", form, x).asnumpy()
    np.testing.assert_array_equal(t[:4], [0.0, -0.0, 1.0, -1.0])
    assert np.signbit(t[1]) and not np.signbit(t[0])
    assert np.isnan(t[4])
    np.testing.assert_allclose(t[5:], np.tanh(x[5:].astype(np.float64)), rtol=2e-6)
    s = run("sigmoid", form, x).asnumpy()
    np.testing.assert_allclose(s[[0, 1, 2, 3]], [0.5, 0.5, 1.0, 0.0], atol=1e-30)
    assert np.isnan(s[4])
    np.testing.assert_allclose(s[5:], ref("sigmoid", x[5:]), rtol=2e-6, atol=1e-30)


@pytest.mark.parametrize("kind", KINDS)
def test_in_place(kind):
    x = np.linspace(-5, 5, 1001).astype(np.float32)
    a = mx.nd.array(x)
    getattr(mx.nd, kind)(a, out=a)
    np.testing.assert_allclose(a.asnumpy(), ref(kind, x), rtol=2e-6)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype,tol", [("float64", 1e-15), ("float16", 1e-3)])
def test_other_dtypes_keep_the_generic_kernel(kind, dtype, tol):
    x = np.linspace(-5, 5, 101).astype(dtype)
    for form in FORMS:
        got = run(kind, form, x).asnumpy()
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got.astype(np.float64), ref(kind, x), rtol=tol, atol=tol)


@pytest.mark.parametrize("kind", KINDS)
def test_gradients_through_the_fast_forward(kind):
    x = np.linspace(-4, 4, 50).astype(np.float32)
    a = mx.nd.array(x)
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Activation(a, act_type=kind)
    y.backward()
    r = ref(kind, x)
    want = 1 - r * r if kind == "tanh" else r * (1 - r)
    np.testing.assert_allclose(a.grad.asnumpy(), want, rtol=1e-5, atol=1e-7)
