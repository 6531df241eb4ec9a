"""The quadratic operator of the backend-operator tutorial (seed 003): its test
`test_quadratic_function` exactly as the tutorial writes it, plus imperative checks of the
forward and of the backward op against NumPy."""
import numpy as np
import pytest

import mxnet as mx

try:
    from mxnet.test_utils import (assert_almost_equal, check_numeric_gradient,  # noqa: F401
                                  check_symbolic_backward, check_symbolic_forward,
                                  rand_shape_nd)
    # check_numeric_gradient builds its loss with mx.sym.make_loss (MakeLoss, issue 7).
    _HAVE_SYMBOLIC = hasattr(mx, "sym") and hasattr(mx.sym, "make_loss")
except ImportError:
    _HAVE_SYMBOLIC = False


@pytest.mark.skipif(not _HAVE_SYMBOLIC,
                    reason="mx.sym, mxnet.test_utils (issue 4) or mx.sym.make_loss, which "
                           "check_numeric_gradient uses (issue 7), is not merged yet")
def test_quadratic_function():
    def f(x, a, b, c):
        return a * x**2 + b * x + c

    a = np.random.random_sample()
    b = np.random.random_sample()
    c = np.random.random_sample()
    data = mx.symbol.Variable('data')
    quad_sym = mx.sym.contrib.quadratic(data=data, a=a, b=b, c=c)
    for dtype in [np.float16, np.float32, np.float64]:
        for ndim in range(1, 6):
            shape = rand_shape_nd(ndim, 5)
            data_np = np.random.randn(*shape).astype(dtype)
            expected = f(data_np, a, b, c)
            backward_expected = 2 * a * data_np + b

            # check imperative forward
            output = mx.nd.contrib.quadratic(mx.nd.array(data_np), a=a, b=b, c=c)
            assert_almost_equal(output.asnumpy(), expected,
                                rtol=1e-2 if dtype is np.float16 else 1e-5,
                                atol=1e-2 if dtype is np.float16 else 1e-5)
            # check forward
            check_symbolic_forward(quad_sym, [data_np], [expected],
                                   rtol=1e-2 if dtype is np.float16 else 1e-5,
                                   atol=1e-2 if dtype is np.float16 else 1e-5)
            # check backward
            check_symbolic_backward(quad_sym, [data_np], [np.ones(expected.shape)],
                                    [backward_expected],
                                    rtol=1e-2 if dtype is np.float16 else 1e-5,
                                    atol=1e-2 if dtype is np.float16 else 1e-5)
            # check backward using finite difference
            check_numeric_gradient(quad_sym, [data_np], atol=0.001)


def _backward_quadratic():
    return lambda *inputs, **kwargs: _invoke("_contrib_backward_quadratic", *inputs, **kwargs)


def _invoke(op_name, *inputs, **kwargs):
    """Call a registered operator directly (backward ops have no generated signature)."""
    from mxnet.ndarray._invoke import imperative_invoke
    from mxnet.base import op_handle
    keys = [k.encode() for k in kwargs]
    vals = [str(v).encode() for v in kwargs.values()]
    return imperative_invoke(op_handle(op_name), list(inputs), keys, vals, None)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_quadratic_imperative_forward_and_backward_op(dtype):
    rng = np.random.RandomState(0)
    a, b, c = rng.random_sample(3)
    tol = 1e-2 if dtype == "float16" else 1e-5
    for ndim in range(1, 6):
        shape = tuple(rng.randint(1, 5, size=ndim))
        x = rng.randn(*shape).astype(dtype)
        y = mx.nd.contrib.quadratic(mx.nd.array(x, dtype=dtype), a=a, b=b, c=c)
        assert y.dtype == np.dtype(dtype)
        np.testing.assert_allclose(y.asnumpy(), a * x.astype("float64") ** 2 + b * x + c,
                                   rtol=tol, atol=tol)
        og = rng.uniform(-1, 1, size=shape).astype(dtype)
        # _backward_quadratic takes (out_grad, data), as ElemwiseGradUseIn wires it.
        g = _backward_quadratic()(mx.nd.array(og, dtype=dtype), mx.nd.array(x, dtype=dtype),
                                  a=a, b=b, c=c)
        np.testing.assert_allclose(g.asnumpy(), og.astype("float64") * (2 * a * x + b),
                                   rtol=tol, atol=tol)


@pytest.mark.skipif(not hasattr(mx, "sym"), reason="mx.sym is not merged yet (issue 4)")
def test_quadratic_symbolic_forward_backward_without_numeric_gradient():
    from mxnet.test_utils import check_symbolic_backward, check_symbolic_forward
    data = mx.symbol.Variable("data")
    quad = mx.sym.contrib.quadratic(data=data, a=0.5, b=-0.3, c=0.1)
    for dtype, tol in (("float32", 1e-5), ("float64", 1e-7)):
        x = np.random.RandomState(1).randn(3, 4).astype(dtype)
        check_symbolic_forward(quad, [x], [0.5 * x ** 2 - 0.3 * x + 0.1], rtol=tol, atol=tol)
        check_symbolic_backward(quad, [x], [np.ones(x.shape)], [x - 0.3], rtol=tol, atol=tol)


def test_quadratic_tutorial_example_and_defaults():
    x = mx.nd.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(mx.nd.contrib.quadratic(data=x, a=1, b=2, c=3).asnumpy(),
                                  [[6, 11], [18, 27]])
    np.testing.assert_array_equal(mx.nd.contrib.quadratic(x).asnumpy(), np.zeros((2, 2)))
    with pytest.raises(mx.base.MXNetError, match="quadratic"):
        mx.nd.contrib.quadratic(x, d=1)
