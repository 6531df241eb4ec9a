"""More mx.np functions (numpy/function_base.py, linalg, random extras, npx extras) against
NumPy."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import np, npx, autograd


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _check(got, ref, rtol=1e-5, atol=1e-6):
    assert isinstance(got, np.ndarray), type(got)
    ref = onp.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    onp.testing.assert_allclose(got.asnumpy().astype(onp.float64), ref.astype(onp.float64),
                                rtol=rtol, atol=atol)


A = onp.arange(24, dtype='float32').reshape(2, 3, 4) - 7


def test_shapes_splits_stacks():
    x = np.array(A)
    _check(np.atleast_3d(np.ones(3)), onp.atleast_3d(onp.ones(3)))
    _check(np.dstack([x[0], x[1]]), onp.dstack([A[0], A[1]]))
    for got, ref in zip(np.array_split(x, 3, axis=2), onp.array_split(A, 3, axis=2)):
        _check(got, ref)
    for got, ref in zip(np.hsplit(x, 3), onp.hsplit(A, 3)):
        _check(got, ref)
    for got, ref in zip(np.vsplit(x, 2), onp.vsplit(A, 2)):
        _check(got, ref)
    for got, ref in zip(np.dsplit(x, [1, 3]), onp.dsplit(A, [1, 3])):
        _check(got, ref)


def test_diagonals_triangles_rotations():
    m = onp.arange(12, dtype='float32').reshape(3, 4)
    x = np.array(m)
    _check(np.diag(x), onp.diag(m))
    _check(np.diag(x, 1), onp.diag(m, 1))
    _check(np.diag(np.array([1.0, 2.0]), -1), onp.diag([1.0, 2.0], -1))
    _check(np.diagonal(np.array(A), 1, 1, 2), onp.diagonal(A, 1, 1, 2))
    _check(np.diagflat(np.array([[1.0, 2.0]])), onp.diagflat([[1.0, 2.0]]))
    _check(np.tril(x), onp.tril(m))
    _check(np.tril(x, -1), onp.tril(m, -1))
    _check(np.triu(x, 1), onp.triu(m, 1))
    _check(np.fliplr(x), onp.fliplr(m))
    _check(np.flipud(x), onp.flipud(m))
    for k in range(-1, 5):
        _check(np.rot90(x, k), onp.rot90(m, k))
    _check(np.roll(x, 1), onp.roll(m, 1))
    _check(np.roll(x, -2, axis=1), onp.roll(m, -2, axis=1))
    _check(np.roll(x, (1, 2), axis=(0, 1)), onp.roll(m, (1, 2), axis=(0, 1)))


def test_grids_and_spaces():
    xs, ys = np.meshgrid(np.arange(3), np.arange(2))
    rx, ry = onp.meshgrid(onp.arange(3), onp.arange(2))
    _check(xs, rx)
    _check(ys, ry)
    xs, ys = np.meshgrid(np.arange(3), np.arange(2), indexing='ij')
    rx, ry = onp.meshgrid(onp.arange(3), onp.arange(2), indexing='ij')
    _check(xs, rx)
    _check(ys, ry)
    _check(np.indices((2, 3)), onp.indices((2, 3)))
    _check(np.logspace(0, 2, 5), onp.logspace(0, 2, 5), rtol=1e-5)


def test_elementwise_extras():
    v = onp.array([-2.0, -0.0, 0.0, 1.5, onp.inf, -onp.inf, onp.nan], dtype='float32')
    x = np.array(v)
    _check(np.isposinf(x), onp.isposinf(v))
    _check(np.isneginf(x), onp.isneginf(v))
    _check(np.signbit(np.array([-1.0, 2.0])), [True, False])
    _check(np.nan_to_num(x), onp.nan_to_num(v))
    _check(np.isclose(np.array([1.0, 1.1, onp.nan]), np.array([1.0 + 1e-9, 1.0, onp.nan]),
                      equal_nan=True),
           onp.isclose([1.0, 1.1, onp.nan], [1.0 + 1e-9, 1.0, onp.nan], equal_nan=True))
    _check(np.copysign(np.array([1.0, -2.0, 3.0]), np.array([-1.0, 1.0, -0.5])),
           onp.copysign([1.0, -2.0, 3.0], [-1.0, 1.0, -0.5]))
    _check(np.heaviside(np.array([-1.0, 0.0, 2.0]), 0.5), onp.heaviside([-1.0, 0.0, 2.0], 0.5))
    _check(np.float_power(np.array([2.0, 3.0]), 2), onp.float_power([2.0, 3.0], 2))
    _check(np.ldexp(np.array([1.0, 2.0]), np.array([2.0, 3.0])), onp.ldexp([1.0, 2.0], [2, 3]))


def test_statistics_and_searching():
    x = np.array(A)
    _check(np.count_nonzero(x), onp.count_nonzero(A))
    _check(np.count_nonzero(x, axis=1), onp.count_nonzero(A, axis=1))
    for got, ref in zip(np.nonzero(x > 10), onp.nonzero(A > 10)):
        _check(got, ref)
    _check(np.argwhere(x > 12), onp.argwhere(A > 12))
    _check(np.flatnonzero(x > 12), onp.flatnonzero(A > 12))
    _check(np.ptp(x, axis=2), onp.ptp(A, axis=2))
    _check(np.average(x, axis=1), onp.average(A, axis=1))
    w = onp.array([1.0, 2.0, 3.0, 4.0], dtype='float32')
    _check(np.average(x, axis=2, weights=np.array(w)), onp.average(A, axis=2, weights=w))
    _check(np.diff(x), onp.diff(A))
    _check(np.diff(x, n=2, axis=1), onp.diff(A, n=2, axis=1))
    _check(np.ediff1d(np.array([1.0, 4.0, 9.0]), to_begin=0.0), onp.ediff1d([1, 4, 9],
                                                                             to_begin=0))
    idx = onp.argsort(A, axis=2)
    _check(np.take_along_axis(x, np.array(idx, dtype='int64'), 2),
           onp.take_along_axis(A, idx, 2))
    _check(np.searchsorted(np.array([1.0, 3.0, 5.0]), np.array([0.0, 3.0, 6.0])),
           onp.searchsorted([1, 3, 5], [0, 3, 6]))
    _check(np.interp(np.array([0.5, 1.5]), np.array([0.0, 1.0, 2.0]), np.array([0.0, 2.0, 0.0])),
           onp.interp([0.5, 1.5], [0, 1, 2], [0, 2, 0]))
    hist, edges = np.histogram(x, bins=4)
    rh, re = onp.histogram(A, bins=4)
    _check(hist, rh)
    _check(edges, re)
    _check(np.bincount(np.array([0, 1, 1, 3], dtype='int64')), onp.bincount([0, 1, 1, 3]))
    assert np.result_type(np.ones(2, dtype='int32'), np.ones(2)) == onp.float32


def test_gradients_flow_through_composed_functions():
    m = onp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype='float32')
    x = np.array(m)
    x.attach_grad()
    with autograd.record():
        y = (np.roll(x, 1, axis=1) * np.array([1.0, 2.0, 3.0])).sum() + np.tril(x).sum() \
            + np.diff(x, axis=1).sum()
    y.backward()
    ref = onp.tile(onp.roll([1.0, 2.0, 3.0], -1), (2, 1)) + onp.tril(onp.ones((2, 3)))
    ref[:, 0] -= 1
    ref[:, 2] += 1
    onp.testing.assert_allclose(x.grad.asnumpy(), ref, rtol=1e-6)


def test_linalg_extras():
    rng = onp.random.RandomState(6)
    a = rng.uniform(-1, 1, (5, 3))
    x = np.array(a, dtype='float64')
    q, r = np.linalg.qr(x)
    onp.testing.assert_allclose((q @ r).asnumpy(), a, rtol=1e-8, atol=1e-10)
    onp.testing.assert_allclose((q.T @ q).asnumpy(), onp.eye(3), atol=1e-10)
    assert onp.allclose(onp.tril(r.asnumpy(), -1), 0)
    _check(np.linalg.pinv(x), onp.linalg.pinv(a), rtol=1e-7, atol=1e-9)
    b = rng.uniform(-1, 1, (5,))
    sol = np.linalg.lstsq(x, np.array(b, dtype='float64'))[0]
    _check(sol, onp.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-7, atol=1e-9)
    spd = a.T @ a + onp.eye(3)
    _check(np.linalg.eigvalsh(np.array(spd, dtype='float64')), onp.linalg.eigvalsh(spd),
           rtol=1e-8)


def test_multivariate_normal_and_npx_extras():
    mx.random.seed(9)
    cov = onp.array([[2.0, 0.6], [0.6, 1.0]])
    s = np.random.multivariate_normal(np.array([1.0, -1.0]), np.array(cov, dtype='float32'),
                                      size=(20000,)).asnumpy()
    assert s.shape == (20000, 2)
    onp.testing.assert_allclose(s.mean(0), [1.0, -1.0], atol=0.05)
    onp.testing.assert_allclose(onp.cov(s.T), cov, atol=0.08)
    assert npx.cast(np.ones(2), dtype='int32').dtype == onp.int32
    assert npx.nonzero(np.array([[0, 1], [1, 0]])).tolist() == [[0, 1], [1, 0]]
