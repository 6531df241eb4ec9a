"""NumPy's dispatch protocols on mx.np.ndarray (numpy_dispatch_protocol): official NumPy
functions and ufuncs run mx.np's implementations, others fall back to NumPy on host copies."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet.numpy_dispatch_protocol import (with_array_function_protocol,
                                           with_array_ufunc_protocol)

A = onp.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(onp.float32)


@with_array_function_protocol
def _check_functions():
    x = mx.np.array(A)
    for func, args in [(onp.sum, {'axis': 1}), (onp.mean, {}), (onp.tril, {'k': 1}),
                       (onp.transpose, {}), (onp.cumsum, {'axis': 0}), (onp.flip, {'axis': 1})]:
        res = func(x, **args)
        assert isinstance(res, mx.np.ndarray), func.__name__
        onp.testing.assert_allclose(res.asnumpy(), func(A, **args), rtol=1e-5, atol=1e-6)
    joined = onp.concatenate([x, x], axis=0)
    assert isinstance(joined, mx.np.ndarray) and joined.shape == (6, 4)
    assert onp.allclose(x, x)
    median = onp.median(x)            # no mx.np median: NumPy on a host copy
    assert abs(float(median) - onp.median(A)) < 1e-6
    part = onp.partition(x, 1, axis=1)
    assert isinstance(part, mx.np.ndarray)
    onp.testing.assert_allclose(part.asnumpy()[:, 1], onp.partition(A, 1, axis=1)[:, 1])


@with_array_ufunc_protocol
def _check_ufuncs():
    x = mx.np.array(A)
    for ufunc in (onp.exp, onp.negative, onp.sqrt):
        res = ufunc(onp.abs(x))
        assert isinstance(res, mx.np.ndarray)
        onp.testing.assert_allclose(res.asnumpy(), ufunc(onp.abs(A)), rtol=1e-5)
    total = onp.ones(4, dtype=onp.float32) + x
    assert isinstance(total, mx.np.ndarray)
    onp.testing.assert_allclose(total.asnumpy(), 1 + A, rtol=1e-6)
    assert isinstance(onp.maximum(x, 0.5), mx.np.ndarray)


def test_function_protocol():
    _check_functions()


def test_ufunc_protocol():
    _check_ufuncs()


def test_gradients_flow_through_dispatched_functions():
    x = mx.np.array(A)
    x.attach_grad()
    with mx.autograd.record():
        y = onp.sum(onp.exp(x) * 2)
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), 2 * onp.exp(A), rtol=1e-5)
    with mx.autograd.record():
        with pytest.raises(ValueError):
            onp.median(x)


def test_decorators_report_failures():
    @with_array_function_protocol
    def broken():
        raise KeyError('boom')
    with pytest.raises(RuntimeError, match='boom'):
        broken()
    calls = []
    with_array_ufunc_protocol(lambda: calls.append(1))()
    assert calls == [1]
