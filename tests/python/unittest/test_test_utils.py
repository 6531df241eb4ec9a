"""mx.test_utils: tolerance defaults, comparisons, random shapes/arrays, np_reduce.
Oracles: the documented MXNet 1.x defaults and NumPy."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import test_utils as tu


def test_default_context_and_dtype():
    assert tu.default_context() == mx.cpu(0)
    try:
        tu.set_default_context(mx.cpu(1))
        assert tu.default_context() == mx.cpu(1)
    finally:
        tu.set_default_context(mx.cpu(0))
    assert tu.default_dtype() == np.float32
    with pytest.raises(TypeError):
        tu.set_default_context("cpu")


def test_tolerance_defaults_by_dtype():
    assert tu.get_rtol(None, np.float16) == 1e-2 and tu.get_atol(None, np.float16) == 1e-1
    assert tu.get_rtol(None, np.float32) == 1e-4 and tu.get_atol(None, np.float32) == 1e-3
    assert tu.get_rtol(None, np.float64) == 1e-5 and tu.get_atol(None, np.float64) == 1e-20
    assert tu.get_rtol(None, np.int32) == 0 and tu.get_atol(None, np.int64) == 0
    assert tu.get_rtol(0.5, np.float32) == 0.5
    # the looser dtype wins
    a = np.zeros(3, np.float64)
    b = np.zeros(3, np.float16)
    assert tu.get_tols(a, b, None, None) == (1e-2, 1e-1)


def test_assert_almost_equal_uses_defaults():
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    tu.assert_almost_equal(a, a + 5e-4)  # within float32 atol 1e-3
    with pytest.raises(AssertionError, match="Items are not equal"):
        tu.assert_almost_equal(a, a + 5e-3)
    d = a.astype(np.float64)
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(d, d + 1e-4)  # float64: rtol 1e-5, atol 1e-20
    tu.assert_almost_equal(d, d * (1 + 1e-6))
    tu.assert_almost_equal(np.array([1, 2]), np.array([1, 2]))
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(np.array([1, 2]), np.array([1, 3]))
    # rtol is relative to b
    tu.assert_almost_equal(np.array([110.0]), np.array([100.0]), rtol=0.1, atol=0)
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(np.array([100.0]), np.array([110.0]) * 1.001, rtol=0.09, atol=0)


def test_assert_almost_equal_nan_and_names():
    a = np.array([1.0, np.nan])
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(a, a)
    tu.assert_almost_equal(a, a, equal_nan=True)
    with pytest.raises(AssertionError, match="LEFT") as info:
        tu.assert_almost_equal(np.ones(3), np.zeros(3), names=("LEFT", "RIGHT"))
    assert "RIGHT" in str(info.value)


def test_assert_almost_equal_ndarrays_and_broadcast():
    x = mx.nd.array([1.0, 2.0, 3.0])
    tu.assert_almost_equal(x, x + 1e-4)
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(x, x + 1.0)
    tu.assert_almost_equal(x, x.asnumpy())
    tu.assert_almost_equal(np.ones((2, 3)), np.ones(3))
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(np.ones((2, 3)), np.ones(3), use_broadcast=False)
    assert tu.almost_equal(np.ones(3), np.ones(3) + 1e-6)
    assert not tu.almost_equal(np.ones(3), np.ones(3) + 1.0)
    assert tu.same(np.arange(3), mx.nd.array([0, 1, 2]).asnumpy())
    assert not tu.same(np.arange(3), np.arange(4))


def test_assert_exception():
    def raiser(x, kind=ValueError):
        raise kind(x)
    tu.assert_exception(raiser, ValueError, 1)
    tu.assert_exception(raiser, KeyError, 1, kind=KeyError)
    with pytest.raises(AssertionError):
        tu.assert_exception(lambda: None, ValueError)


def test_random_shapes_and_arrays():
    np.random.seed(0)
    for _ in range(20):
        s2 = tu.rand_shape_2d(3, 4)
        assert len(s2) == 2 and 1 <= s2[0] <= 3 and 1 <= s2[1] <= 4
        s3 = tu.rand_shape_3d()
        assert len(s3) == 3 and all(1 <= d <= 10 for d in s3)
        sn = tu.rand_shape_nd(5, 2)
        assert len(sn) == 5 and all(1 <= d <= 2 for d in sn)
        assert all(0 <= d <= 2 for d in tu.rand_shape_nd(4, 2, allow_zero_size=True))
    a = tu.random_arrays((2, 3))
    assert isinstance(a, np.ndarray) and a.shape == (2, 3) and a.dtype == np.float32
    a, b, c = tu.random_arrays((1,), (2, 2), ())
    assert b.shape == (2, 2) and c.shape == ()
    r = tu.rand_ndarray((3, 4))
    assert isinstance(r, mx.nd.NDArray) and r.shape == (3, 4) and r.dtype == np.float32
    assert tu.rand_ndarray((2,), dtype=np.float64).dtype == np.float64


@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, True), ((0, 2), False),
                                           ((1,), True), (-1, False)])
def test_np_reduce_matches_numpy(axis, keepdims):
    x = np.random.RandomState(1).randn(2, 3, 4)
    got = tu.np_reduce(x, axis, keepdims, np.sum)
    ax = tuple(axis) if isinstance(axis, tuple) else axis
    np.testing.assert_allclose(got, np.sum(x, axis=ax, keepdims=keepdims))


def test_environment_and_retry():
    import os
    with tu.environment("MXNET_TEST_UTILS_VAR", "7"):
        assert os.environ["MXNET_TEST_UTILS_VAR"] == "7"
    assert "MXNET_TEST_UTILS_VAR" not in os.environ
    calls = []

    @tu.retry(3)
    def flaky():
        calls.append(1)
        assert len(calls) >= 2

    flaky()
    assert len(calls) == 2


# ---- symbolic checks (bind through the graph executor) ----------------------------------------

def test_quadratic_function_style_checks():
    # test_quadratic_function of the operator tutorial, with symbol arithmetic in place of the
    # tutorial's custom op: forward, backward against the closed form, numeric gradient.
    def f(x, a, b, c):
        return a * x ** 2 + b * x + c

    a, b, c = np.random.random_sample(3)
    data = mx.symbol.Variable('data')
    quad_sym = a * data * data + b * data + c
    for dtype in [np.float16, np.float32, np.float64]:
        for ndim in range(1, 6):
            shape = tu.rand_shape_nd(ndim, 5)
            data_np = np.random.randn(*shape).astype(dtype)
            expected = f(data_np, a, b, c)
            backward_expected = 2 * a * data_np + b
            output = mx.nd.array(data_np, dtype=dtype)
            output = a * output * output + b * output + c
            tu.assert_almost_equal(output, expected,
                                   rtol=1e-2 if dtype is np.float16 else 1e-5,
                                   atol=1e-2 if dtype is np.float16 else 1e-5)
            tu.check_symbolic_forward(quad_sym, [data_np], [expected],
                                      rtol=1e-2 if dtype is np.float16 else 1e-5,
                                      atol=1e-2 if dtype is np.float16 else 1e-5)
            tu.check_symbolic_backward(quad_sym, [data_np], [np.ones(expected.shape)],
                                       [backward_expected],
                                       rtol=1e-2 if dtype is np.float16 else 1e-5,
                                       atol=1e-2 if dtype is np.float16 else 1e-5)
            tu.check_numeric_gradient(quad_sym, [data_np], atol=0.001)


def test_check_symbolic_backward_grad_req_add_and_null():
    x = mx.sym.Variable('x')
    y = mx.sym.Variable('y')
    s = x * y
    xv, yv = np.random.randn(2, 3), np.random.randn(2, 3)
    og = np.random.randn(2, 3)
    for req in ('write', 'add'):
        tu.check_symbolic_backward(s, {'x': xv, 'y': yv}, [og], {'x': og * yv, 'y': og * xv},
                                   grad_req=req, dtype=np.float64)
    tu.check_symbolic_backward(s, [xv, yv], [og], [og * yv, og * xv],
                               grad_req={'x': 'null', 'y': 'write'}, dtype=np.float64)
    with pytest.raises(AssertionError):
        tu.check_symbolic_backward(s, [xv, yv], [og], [og * yv * 2, og * xv], dtype=np.float64)


def test_check_symbolic_forward_detects_wrong_values_and_bad_location():
    x = mx.sym.Variable('x')
    s = mx.sym.sin(x)
    xv = np.random.randn(4)
    tu.check_symbolic_forward(s, [xv], [np.sin(xv)])
    tu.check_symbolic_forward(s, {'x': xv}, {s.list_outputs()[0]: np.sin(xv)})
    with pytest.raises(AssertionError):
        tu.check_symbolic_forward(s, [xv], [np.cos(xv)])
    with pytest.raises(ValueError, match="do not match"):
        tu.check_symbolic_forward(s, {'z': xv}, [np.sin(xv)])


def test_check_numeric_gradient_catches_a_wrong_gradient():
    x = mx.sym.Variable('x')
    w = mx.sym.Variable('w')
    fc = mx.sym.FullyConnected(x, weight=w, num_hidden=3, no_bias=True)
    loc = [np.random.randn(2, 4), np.random.randn(3, 4)]
    tu.check_numeric_gradient(fc, loc, dtype=np.float64, rtol=1e-4, atol=1e-6)
    tu.check_numeric_gradient(fc, loc, grad_nodes=['w'], dtype=np.float64, rtol=1e-4, atol=1e-6)
    tu.check_numeric_gradient(fc, loc, grad_nodes={'x': 'add', 'w': 'null'}, dtype=np.float64,
                              rtol=1e-4, atol=1e-6)
    # BlockGrad has zero gradient: the finite difference of sin(x) is not zero.
    blocked = mx.sym.BlockGrad(mx.sym.sin(x))
    with pytest.raises(AssertionError):
        tu.check_numeric_gradient(blocked, [np.random.randn(3)], dtype=np.float64)


def test_check_consistency_cpu_dtypes():
    x = mx.sym.Variable('x')
    s = mx.sym.tanh(x) * 2
    out = tu.check_consistency(s, [{'ctx': mx.cpu(0), 'x': (3, 4), 'type_dict': {'x': np.float32}},
                                   {'ctx': mx.cpu(0), 'x': (3, 4), 'type_dict': {'x': np.float64}}])
    assert isinstance(out, dict)


def test_simple_forward():
    x = mx.sym.Variable('x')
    out = tu.simple_forward(mx.sym.exp(x), x=np.array([0.0, 1.0]))
    np.testing.assert_allclose(out, np.exp([0.0, 1.0]), rtol=1e-6)
