"""mx.np.ndarray and mx.np functions against NumPy (values, shapes, dtypes, broadcasting,
0-d and zero-size arrays), with MXNet 1.9.1's dtype rules where they differ from NumPy."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import np, npx, autograd


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _check(mx_arr, ref, rtol=1e-5, atol=1e-6, dtype=None):
    assert isinstance(mx_arr, np.ndarray), type(mx_arr)
    ref = onp.asarray(ref)
    assert mx_arr.shape == ref.shape, (mx_arr.shape, ref.shape)
    if dtype is not None:
        assert mx_arr.dtype == onp.dtype(dtype), (mx_arr.dtype, dtype)
    onp.testing.assert_allclose(mx_arr.asnumpy().astype(onp.float64),
                                ref.astype(onp.float64), rtol=rtol, atol=atol)


def test_switches():
    assert mx.util.is_np_array() and mx.util.is_np_shape() and npx.is_np_array()
    npx.reset_np()
    assert not mx.util.is_np_array() and not mx.util.is_np_shape()
    npx.set_np()

    @mx.util.use_np
    def inside():
        return mx.util.is_np_array(), mx.util.is_np_shape()
    npx.reset_np()
    assert inside() == (True, True)
    assert not mx.util.is_np_array()
    npx.set_np()


def test_creation_dtypes_and_shapes():
    _check(np.array([1, 2, 3]), [1, 2, 3], dtype='float32')
    _check(np.array(onp.array([1, 2], dtype='int64')), [1, 2], dtype='int64')
    _check(np.array(3.5), onp.array(3.5), dtype='float32')
    assert np.array(3.5).shape == () and np.array(3.5).item() == 3.5
    _check(np.zeros((2, 0, 3)), onp.zeros((2, 0, 3)))
    _check(np.zeros(()), onp.zeros(()))
    _check(np.ones((2, 3), dtype='int32'), onp.ones((2, 3)), dtype='int32')
    _check(np.full((2, 2), 7), onp.full((2, 2), 7.0), dtype='float32')
    _check(np.arange(5), onp.arange(5), dtype='float32')
    _check(np.arange(1, 3, 0.5), onp.arange(1, 3, 0.5))
    _check(np.linspace(0, 1, 5), onp.linspace(0, 1, 5))
    _check(np.linspace(0, 1, 4, endpoint=False), onp.linspace(0, 1, 4, endpoint=False))
    _check(np.eye(3, 4, 1), onp.eye(3, 4, 1))
    _check(np.identity(2), onp.identity(2))
    x = np.ones((2, 3), dtype='int32')
    _check(np.zeros_like(x), onp.zeros((2, 3)), dtype='int32')
    _check(np.ones_like(x), onp.ones((2, 3)), dtype='int32')
    _check(np.full_like(x, 4), onp.full((2, 3), 4), dtype='int32')
    assert np.empty((3, 0)).shape == (3, 0)


def test_properties_and_conversions():
    a = onp.arange(6, dtype='float32').reshape(2, 3)
    x = np.array(a)
    assert x.shape == (2, 3) and x.size == 6 and x.ndim == 2 and x.dtype == onp.float32
    _check(x.T, a.T)
    assert x.tolist() == a.tolist()
    assert x[1, 2].item() == 5.0
    nd = x.as_nd_ndarray()
    assert type(nd) is mx.nd.NDArray and nd.shape == (2, 3)
    back = nd.as_np_ndarray()
    assert isinstance(back, np.ndarray)
    back[0, 0] = 10          # shares memory
    assert x[0, 0].item() == 10
    assert repr(np.array([1.0, 2.0])) == 'array([1., 2.])'
    assert 'int32' in repr(np.array([1, 2], dtype='int32'))
    assert len(x) == 2 and float(np.array(2.5)) == 2.5 and int(np.array(3)) == 3
    with pytest.raises(TypeError):
        len(np.array(1.0))


def test_indexing_numpy_shapes():
    a = onp.arange(24, dtype='float32').reshape(2, 3, 4)
    x = np.array(a)
    for key in [0, (1, 2), (1, 2, 3), slice(0, 1), (slice(None), 1), (Ellipsis, 2),
                (None, 0), (0, slice(None, None, 2)), (1, -1, slice(1, 3))]:
        _check(x[key], a[key])
    assert x[1, 2, 3].shape == ()
    mask = a > 10
    _check(x[np.array(mask)], a[mask])
    _check(x[0][np.array(a[0] > 2)], a[0][a[0] > 2])
    _check(x[np.array([1, 0], dtype='int64')], a[[1, 0]])
    y = np.zeros((3, 4))
    y[1] = 5
    y[:, 2] = np.array([1.0, 2.0, 3.0])
    ref = onp.zeros((3, 4))
    ref[1] = 5
    ref[:, 2] = [1, 2, 3]
    _check(y, ref)
    y[y > 4] = -1
    ref[ref > 4] = -1
    _check(y, ref)
    z = np.array(2.0)
    z[()] = 7
    assert z.item() == 7.0


def test_binary_broadcasting_and_dtypes():
    rng = onp.random.RandomState(0)
    a = rng.uniform(1, 2, (2, 1, 3)).astype('float32')
    b = rng.uniform(1, 2, (4, 1)).astype('float32')
    x, y = np.array(a), np.array(b)
    _check(x + y, a + b)
    _check(x - y, a - b)
    _check(x * y, a * b)
    _check(x / y, a / b)
    _check(x ** y, a ** b, rtol=1e-4)
    _check(x % y, onp.mod(a, b), rtol=1e-4, atol=1e-5)
    _check(np.maximum(x, y), onp.maximum(a, b))
    _check(np.minimum(x, y), onp.minimum(a, b))
    _check(2 - x, 2 - a)
    _check(2 / x, 2 / a)
    _check(x ** 2, a ** 2)
    _check(2 ** x, 2 ** a, rtol=1e-4)
    _check(-x, -a)
    _check(abs(-x), a)
    # MXNet 1.9.1 result dtypes (checked against the real 1.9.1 with the mx191 venv)
    i32 = np.ones(2, dtype='int32')
    assert (i32 + np.ones(2)).dtype == onp.float32
    assert (i32 + np.ones(2, dtype='int64')).dtype == onp.int64
    assert (np.ones(2, dtype='float16') + np.ones(2)).dtype == onp.float32
    assert (i32 / i32).dtype == onp.float32
    assert (i32 / 2).dtype == onp.float32
    assert (i32 * 2).dtype == onp.int32
    assert (i32 + 1.5).dtype == onp.int32
    # zero-size and 0-d operands
    _check(np.ones((0, 3)) + np.ones(3), onp.ones((0, 3)))
    _check(np.array(2.0) * np.ones((2, 2)), onp.full((2, 2), 2.0))
    assert (np.array(2.0) + np.array(3.0)).shape == ()


def test_comparisons_return_bool():
    a = onp.array([1.0, 2.0, 3.0], dtype='float32')
    x = np.array(a)
    for res, ref in [(x == 2, a == 2), (x != 2, a != 2), (x > 2, a > 2), (x >= 2, a >= 2),
                     (x < 2, a < 2), (x <= 2, a <= 2), (x == np.array([1.0, 0, 3]),
                                                       a == onp.array([1.0, 0, 3]))]:
        assert res.dtype == onp.bool_
        assert res.asnumpy().tolist() == ref.tolist()
    assert (2 < x).asnumpy().tolist() == (2 < a).tolist()


def test_unary_math():
    rng = onp.random.RandomState(1)
    a = rng.uniform(0.1, 0.9, (3, 4)).astype('float32')
    x = np.array(a)
    for name in ['exp', 'log', 'sqrt', 'abs', 'sin', 'cos', 'tan', 'tanh', 'sinh', 'cosh',
                 'arcsin', 'arccos', 'arctan', 'log10', 'log2', 'log1p', 'expm1', 'square',
                 'floor', 'ceil', 'sign', 'negative', 'reciprocal', 'cbrt', 'degrees',
                 'radians', 'trunc', 'rint']:
        _check(getattr(np, name)(x), getattr(onp, name)(a), rtol=1e-5, atol=1e-6)
    assert np.exp(np.ones(2, dtype='int32')).dtype == onp.int32   # MXNet 1.9.1 keeps the dtype
    _check(np.clip(x, 0.3, 0.6), onp.clip(a, 0.3, 0.6))


@pytest.mark.parametrize('axis', [None, 0, 1, (0, 2), -1])
@pytest.mark.parametrize('keepdims', [False, True])
def test_reductions(axis, keepdims):
    rng = onp.random.RandomState(2)
    a = rng.uniform(0.5, 1.5, (2, 3, 4)).astype('float32')
    x = np.array(a)
    for name in ['sum', 'mean', 'max', 'min', 'prod']:
        _check(getattr(np, name)(x, axis=axis, keepdims=keepdims),
               getattr(onp, name)(a, axis=axis, keepdims=keepdims), rtol=1e-5)
    for name in ['std', 'var']:
        _check(getattr(np, name)(x, axis=axis, keepdims=keepdims),
               getattr(onp, name)(a, axis=axis, keepdims=keepdims), rtol=1e-4, atol=1e-6)


def test_reduction_details():
    a = onp.arange(6, dtype='float32').reshape(2, 3)
    x = np.array(a)
    assert x.sum().shape == () and x.sum().item() == 15
    _check(np.sum(np.ones((0, 3)), axis=0), onp.zeros(3))
    assert np.sum(np.ones(2, dtype='int32')).dtype == onp.int32
    assert np.sum(np.ones(2, dtype='bool')).dtype == onp.int64
    assert np.mean(np.ones(2, dtype='int32')).dtype == onp.float32
    _check(np.sum(x, dtype='float64'), onp.sum(a), dtype='float64')
    _check(np.argmax(x, axis=1), onp.argmax(a, axis=1), dtype='int64')
    _check(np.argmin(x, axis=0), onp.argmin(a, axis=0), dtype='int64')
    _check(np.argmax(x), onp.argmax(a), dtype='int64')
    _check(np.std(x, ddof=1), onp.std(a, ddof=1), rtol=1e-5)
    _check(np.cumsum(x, axis=1), onp.cumsum(a, axis=1))
    _check(np.cumsum(x), onp.cumsum(a))
    assert bool((x > 4).any()) and not bool((x > 5).all())


def test_linear_algebra():
    rng = onp.random.RandomState(3)
    a = rng.uniform(-1, 1, (2, 3)).astype('float32')
    b = rng.uniform(-1, 1, (3, 4)).astype('float32')
    v = rng.uniform(-1, 1, (3,)).astype('float32')
    t = rng.uniform(-1, 1, (5, 3, 4)).astype('float32')
    _check(np.dot(np.array(a), np.array(b)), a.dot(b), rtol=1e-5)
    _check(np.dot(np.array(v), np.array(v)), v.dot(v), rtol=1e-5)
    assert np.dot(np.array(v), np.array(v)).shape == ()
    _check(np.dot(np.array(a), np.array(v)), a.dot(v), rtol=1e-5)
    _check(np.dot(np.array(a), np.array(t)), onp.dot(a, t), rtol=1e-5, atol=1e-6)
    _check(np.matmul(np.array(a), np.array(b)), a @ b, rtol=1e-5)
    _check(np.array(t).transpose(0, 2, 1) @ np.array(v), t.transpose(0, 2, 1) @ v, rtol=1e-5,
           atol=1e-6)
    bt = rng.uniform(-1, 1, (2, 1, 2, 3)).astype('float32')
    _check(np.matmul(np.array(bt), np.array(t)), onp.matmul(bt, t), rtol=1e-5, atol=1e-6)
    _check(np.tensordot(np.array(t), np.array(b.T), axes=1), onp.tensordot(t, b.T, axes=1),
           rtol=1e-5, atol=1e-6)
    _check(np.tensordot(np.array(t), np.array(t), axes=([1, 2], [1, 2])),
           onp.tensordot(t, t, axes=([1, 2], [1, 2])), rtol=1e-5, atol=1e-5)
    _check(np.linalg.norm(np.array(a)), onp.linalg.norm(a), rtol=1e-5)


def test_manipulation():
    a = onp.arange(24, dtype='float32').reshape(2, 3, 4)
    x = np.array(a)
    _check(np.reshape(x, (4, -1)), a.reshape(4, -1))
    _check(x.reshape(6, 4), a.reshape(6, 4))
    _check(np.reshape(np.array([5.0]), ()), onp.array(5.0))
    _check(np.transpose(x), a.transpose())
    _check(np.transpose(x, (1, 0, 2)), a.transpose(1, 0, 2))
    _check(np.swapaxes(x, 0, 2), a.swapaxes(0, 2))
    _check(np.expand_dims(x, 1), onp.expand_dims(a, 1))
    _check(np.squeeze(np.ones((1, 3, 1))), onp.ones(3))
    _check(np.squeeze(np.ones((1, 1))), onp.ones(()))
    _check(np.concatenate([x, x], axis=1), onp.concatenate([a, a], axis=1))
    _check(np.concatenate([x, x], axis=None), onp.concatenate([a, a], axis=None))
    _check(np.stack([x, x], axis=2), onp.stack([a, a], axis=2))
    for got, ref in zip(np.split(x, 2, axis=2), onp.split(a, 2, axis=2)):
        _check(got, ref)
    for got, ref in zip(np.split(x, [1, 3], axis=2), onp.split(a, [1, 3], axis=2)):
        _check(got, ref)
    c = a > 10
    _check(np.where(np.array(c), x, -x), onp.where(c, a, -a))
    _check(np.where(np.array(c), x, 0), onp.where(c, a, 0))
    _check(np.broadcast_to(np.array([1.0, 2.0]), (3, 2)), onp.broadcast_to([1.0, 2.0], (3, 2)))
    r = onp.array([3.0, 1.0, 2.0, 1.0], dtype='float32')
    _check(np.sort(np.array(r)), onp.sort(r))
    _check(np.argsort(np.array(r)), onp.argsort(r, kind='stable'), dtype='int64')
    _check(np.unique(np.array(r)), onp.unique(r))


def test_random():
    mx.random.seed(42)
    u = np.random.uniform(-1, 2, size=(1000,))
    assert u.shape == (1000,) and u.dtype == onp.float32
    assert u.asnumpy().min() >= -1 and u.asnumpy().max() < 2
    n = np.random.normal(1.0, 2.0, size=(4000,))
    assert abs(n.asnumpy().mean() - 1.0) < 0.2 and abs(n.asnumpy().std() - 2.0) < 0.2
    r = np.random.randint(0, 5, size=(100,))
    assert r.dtype == onp.int64 and set(r.asnumpy().tolist()) <= set(range(5))
    c = np.random.choice(np.array([1.0, 2.0, 3.0]), size=(5,))
    assert set(c.asnumpy().tolist()) <= {1.0, 2.0, 3.0}
    c2 = np.random.choice(5, size=(5,), replace=False)
    assert sorted(c2.asnumpy().tolist()) == list(range(5))
    s = np.arange(10)
    np.random.shuffle(s)
    assert sorted(s.asnumpy().tolist()) == list(range(10))
    mx.random.seed(7)
    first = np.random.normal(size=(3,)).asnumpy()
    npx.random.seed(7)
    assert onp.array_equal(first, np.random.normal(size=(3,)).asnumpy())


def test_autograd_gradients():
    a = onp.array([[0.5, 1.5, 2.0], [1.0, 0.2, 0.7]], dtype='float32')
    x = np.array(a)
    x.attach_grad()
    with autograd.record():
        y = (np.exp(x) * x).sum() + np.dot(x[0], x[1]) + (x ** 2).mean()
    y.backward()
    assert isinstance(x.grad, np.ndarray)
    ref = onp.exp(a) * (1 + a) + 2 * a / a.size
    ref[0] += a[1]
    ref[1] += a[0]
    onp.testing.assert_allclose(x.grad.asnumpy(), ref, rtol=1e-5)
    # max / prod / reshape gradients
    x = np.array(a)
    x.attach_grad()
    with autograd.record():
        y = np.max(x, axis=1).sum() + np.prod(x.reshape(-1)[:3])
    y.backward()
    ref = (a == a.max(axis=1, keepdims=True)).astype('float32')
    ref[0] += onp.prod(a[0]) / a[0]
    onp.testing.assert_allclose(x.grad.asnumpy(), ref, rtol=1e-5)


def test_autograd_vs_finite_differences():
    rng = onp.random.RandomState(4)
    a = rng.uniform(0.5, 1.0, (3, 4)).astype('float64')
    w = rng.uniform(-1, 1, (4, 2)).astype('float64')

    def f(arr):
        x = np.array(arr, dtype='float64')
        return np.sum(np.tanh(np.matmul(x, np.array(w, dtype='float64'))) ** 2,
                      axis=0).prod()
    x = np.array(a, dtype='float64')
    x.attach_grad()
    with autograd.record():
        y = f(x)
    y.backward()
    eps = 1e-6
    num = onp.zeros_like(a)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            p = a.copy()
            p[i, j] += eps
            m = a.copy()
            m[i, j] -= eps
            num[i, j] = (f(p).item() - f(m).item()) / (2 * eps)
    onp.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-5, atol=1e-8)


def test_errors_are_clear():
    with pytest.raises(ValueError):
        np.reshape(np.ones((2, 3)), (4, 2))
    with pytest.raises(mx.MXNetError):
        np.ones((2, 3)) + np.ones((4,))
    with pytest.raises(IndexError):
        np.ones((2, 3))[5]
    with pytest.raises(IndexError):
        np.array(1.0)[0]


def test_composed_functions():
    a = onp.arange(12, dtype='float32').reshape(3, 4) - 5
    x = np.array(a)
    _check(np.any(x > 5, axis=1), onp.any(a > 5, axis=1))
    assert bool(np.all(x > -6)) and not bool(np.all(x > 0))
    _check(np.isnan(np.array([1.0, onp.nan])), [False, True])
    _check(np.isinf(np.array([1.0, onp.inf, -onp.inf])), [False, True, True])
    _check(np.isfinite(np.array([1.0, onp.inf, onp.nan])), [True, False, False])
    _check(np.flip(x, 1), onp.flip(a, 1))
    _check(np.flip(x), onp.flip(a))
    _check(np.hstack([x, x]), onp.hstack([a, a]))
    _check(np.vstack([x[0], x[1]]), onp.vstack([a[0], a[1]]))
    _check(np.column_stack([x[0], x[1]]), onp.column_stack([a[0], a[1]]))
    _check(np.tile(x, (2, 1)), onp.tile(a, (2, 1)))
    _check(np.repeat(x, 2, axis=1), onp.repeat(a, 2, axis=1))
    _check(np.moveaxis(np.ones((2, 3, 4)), 0, -1), onp.moveaxis(onp.ones((2, 3, 4)), 0, -1))
    _check(np.outer(x[0], x[1]), onp.outer(a[0], a[1]))
    _check(np.inner(x, x), onp.inner(a, a))
    _check(np.vdot(x, x), onp.vdot(a, a))
    _check(np.trace(x), onp.trace(a))
    _check(np.trace(x, offset=1), onp.trace(a, offset=1))
    y = np.array([[1.0, -1.0], [0.0, 2.0]])
    xx = np.array([[1.0, 1.0], [-1.0, 0.5]])
    _check(np.arctan2(y, xx), onp.arctan2(y.asnumpy(), xx.asnumpy()), rtol=1e-5)
    assert np.allclose(x, a) and np.array_equal(x, a)


def test_more_random_distributions():
    mx.random.seed(11)
    n = 20000
    checks = [
        (np.random.exponential(2.0, size=n), 2.0, 2.0),
        (np.random.gamma(3.0, 2.0, size=n), 6.0, onp.sqrt(12.0)),
        (np.random.chisquare(4, size=n), 4.0, onp.sqrt(8.0)),
        (np.random.beta(2.0, 3.0, size=n), 0.4, onp.sqrt(0.04)),
        (np.random.lognormal(0.0, 0.5, size=n), onp.exp(0.125),
         onp.sqrt((onp.exp(0.25) - 1) * onp.exp(0.25))),
        (np.random.logistic(1.0, 2.0, size=n), 1.0, 2.0 * onp.pi / onp.sqrt(3)),
        (np.random.gumbel(0.0, 1.0, size=n), 0.5772, onp.pi / onp.sqrt(6)),
        (np.random.rayleigh(1.0, size=n), onp.sqrt(onp.pi / 2), onp.sqrt((4 - onp.pi) / 2)),
        (np.random.power(3.0, size=n), 0.75, onp.sqrt(3.0 / 80)),
    ]
    for sample, mean, std in checks:
        v = sample.asnumpy()
        assert abs(v.mean() - mean) < 0.05 * max(1.0, abs(mean)), (mean, v.mean())
        assert abs(v.std() - std) < 0.06 * max(1.0, std), (std, v.std())
    counts = np.random.multinomial(100, [0.2, 0.8], size=3)
    assert counts.shape == (3, 2) and (counts.sum(axis=1).asnumpy() == 100).all()


def test_linalg():
    rng = onp.random.RandomState(5)
    m = rng.uniform(-1, 1, (3, 3)).astype('float64')
    spd = m @ m.T + 3 * onp.eye(3)
    a = np.array(spd, dtype='float64')
    _check(np.linalg.inv(a), onp.linalg.inv(spd), rtol=1e-6)
    _check(np.linalg.det(a), onp.linalg.det(spd), rtol=1e-6)
    sign, logdet = np.linalg.slogdet(a)
    assert sign.item() == 1.0 and abs(logdet.item() - onp.linalg.slogdet(spd)[1]) < 1e-6
    _check(np.linalg.cholesky(a), onp.linalg.cholesky(spd), rtol=1e-6, atol=1e-9)
    vals, vecs = np.linalg.eigh(a)
    rvals, _ = onp.linalg.eigh(spd)
    _check(vals, rvals, rtol=1e-6)
    onp.testing.assert_allclose(spd @ vecs.asnumpy(), vecs.asnumpy() * vals.asnumpy(),
                                rtol=1e-6, atol=1e-9)
    b = rng.uniform(-1, 1, (3,))
    _check(np.linalg.solve(a, np.array(b, dtype='float64')), onp.linalg.solve(spd, b),
           rtol=1e-6)
    _check(np.linalg.matrix_power(a, 3), onp.linalg.matrix_power(spd, 3), rtol=1e-6)
    _check(np.linalg.multi_dot([a, a, a]), spd @ spd @ spd, rtol=1e-6)


def test_pickle_and_save_load_keep_0d_and_zero_size(tmp_path):
    import pickle
    z = np.array(5.0)
    back = pickle.loads(pickle.dumps(z))
    assert isinstance(back, np.ndarray) and back.shape == () and back.item() == 5.0
    path = str(tmp_path / 'arrays')
    npx.save(path, [z, np.zeros((0, 3)), np.arange(3)])
    loaded = npx.load(path)
    assert [a.shape for a in loaded] == [(), (0, 3), (3,)]
    assert loaded[2].tolist() == [0.0, 1.0, 2.0]
    npx.reset_np()
    try:
        # A 0-d classic array survives pickling too (written in the V3 format).
        assert pickle.loads(pickle.dumps(mx.nd.zeros(()))).shape == ()
    finally:
        npx.set_np()
