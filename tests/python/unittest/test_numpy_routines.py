"""mx.np routines (numpy/routines.py), the NumPy fallbacks (numpy/fallback.py), the added
linalg functions, and the mx.nd.np / mx.nd.npx namespaces, checked against NumPy."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd

np = mx.np


def _x(shape=(3, 4), seed=0):
    return onp.random.RandomState(seed).uniform(-2, 2, size=shape).astype(onp.float32)


def test_append_delete_insert_resize_pad():
    a = _x()
    x = np.array(a)
    onp.testing.assert_allclose(np.append(x, a).asnumpy(), onp.append(a, a))
    onp.testing.assert_allclose(np.append(x, a[:1], axis=0).asnumpy(), onp.append(a, a[:1], 0))
    for obj, axis in [(1, 1), ([0, 2], 0), (slice(1, 3), 1), (-1, None)]:
        onp.testing.assert_allclose(np.delete(x, obj, axis=axis).asnumpy(),
                                    onp.delete(a, obj, axis=axis))
    onp.testing.assert_allclose(np.insert(x, 2, 7.0, axis=1).asnumpy(),
                                onp.insert(a, 2, 7.0, axis=1))
    onp.testing.assert_allclose(np.resize(x, (5, 3)).asnumpy(), onp.resize(a, (5, 3)))
    for mode in ['constant', 'edge', 'reflect', 'symmetric', 'maximum']:
        onp.testing.assert_allclose(np.pad(x, ((1, 2), (0, 1)), mode=mode).asnumpy(),
                                    onp.pad(a, ((1, 2), (0, 1)), mode=mode))


def test_delete_resize_are_differentiable():
    a = _x()
    x = np.array(a)
    x.attach_grad()
    with autograd.record():
        y = (np.delete(x, 1, axis=0) * 2).sum() + np.resize(x, (13,)).sum()
    y.backward()
    expect = onp.full(a.shape, 2.0)
    expect[1] = 0
    expect += 1
    expect.reshape(-1)[0] += 1      # resize to 13 reuses the first element
    onp.testing.assert_allclose(x.grad.asnumpy(), expect)


@pytest.mark.parametrize('subscripts,shapes', [
    ('ij,jk->ik', [(3, 4), (4, 5)]), ('ij->j', [(3, 4)]), ('ij,ij->', [(3, 4), (3, 4)]),
    ('bij,bjk->bik', [(2, 3, 4), (2, 4, 2)]), ('i,j->ij', [(3,), (4,)]),
    ('...ij,...jk', [(2, 3, 4), (2, 4, 5)]), ('ii', [(3, 3)]), ('ij', [(3, 4)])])
def test_einsum(subscripts, shapes):
    arrays = [_x(s, seed=i) for i, s in enumerate(shapes)]
    res = np.einsum(subscripts, *[np.array(a) for a in arrays])
    onp.testing.assert_allclose(res.asnumpy(), onp.einsum(subscripts, *arrays), rtol=1e-5,
                                atol=1e-5)


def test_einsum_gradient():
    a, b = _x((3, 4)), _x((4, 2), seed=1)
    x, y = np.array(a), np.array(b)
    x.attach_grad()
    with autograd.record():
        z = np.einsum('ij,jk->ik', x, y)
    z.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), onp.ones((3, 2)) @ b.T, rtol=1e-5)


def test_quantile_percentile_polyval():
    a = _x((4, 5))
    x = np.array(a)
    onp.testing.assert_allclose(np.percentile(x, 30).asnumpy(), onp.percentile(a, 30),
                                rtol=1e-6)
    onp.testing.assert_allclose(np.quantile(x, [0.1, 0.9], axis=1).asnumpy(),
                                onp.quantile(a, [0.1, 0.9], axis=1), rtol=1e-6)
    for method in ['lower', 'higher', 'midpoint', 'nearest']:
        onp.testing.assert_allclose(
            np.quantile(x, 0.4, axis=0, interpolation=method).asnumpy(),
            onp.quantile(a, 0.4, axis=0, method=method), rtol=1e-6)
    p = onp.array([2.0, -1.0, 0.5], dtype=onp.float32)
    onp.testing.assert_allclose(np.polyval(np.array(p), x).asnumpy(), onp.polyval(p, a),
                                rtol=1e-5)


def test_integer_ops_and_windows():
    a = onp.array([3, 6, 12, 17], dtype=onp.int32)
    b = onp.array([4, 4, 9, 5], dtype=onp.int32)
    x, y = np.array(a, dtype='int32'), np.array(b, dtype='int32')
    for name in ['lcm', 'bitwise_and', 'bitwise_or', 'bitwise_xor']:
        res = getattr(np, name)(x, y)
        assert res.dtype == onp.int32
        onp.testing.assert_array_equal(res.asnumpy(), getattr(onp, name)(a, b))
    onp.testing.assert_array_equal(np.invert(x).asnumpy(), onp.invert(a))
    onp.testing.assert_array_equal(np.bitwise_not(x).asnumpy(), ~a)
    for name in ['blackman', 'hamming', 'hanning']:
        res = getattr(np, name)(7)
        assert res.dtype == onp.float32
        onp.testing.assert_allclose(res.asnumpy(), getattr(onp, name)(7), atol=1e-6)


def test_indices_memory_printoptions():
    onp.testing.assert_array_equal(np.unravel_index(np.array([5, 11]), (3, 4)).asnumpy(),
                                   onp.stack(onp.unravel_index([5, 11], (3, 4))))
    rows, cols = np.diag_indices_from(np.zeros((3, 3)))
    onp.testing.assert_array_equal(rows.asnumpy(), onp.arange(3))
    onp.testing.assert_array_equal(cols.asnumpy(), onp.arange(3))
    x = np.arange(10)
    assert np.shares_memory(x, x[2:5]) and np.may_share_memory(x, x)
    assert not np.shares_memory(x[:3], x[5:]) and not np.shares_memory(x, x.copy())
    try:
        np.set_printoptions(precision=2)
        assert '3.14' in str(np.array([3.14159])) and '3.141' not in str(np.array([3.14159]))
    finally:
        onp.set_printoptions(precision=8)
    with pytest.raises(NotImplementedError):
        np.set_printoptions(linewidth=10)


@pytest.mark.parametrize('name,args', [
    ('nanmax', [[1.0, onp.nan, 3.0]]), ('nanargmin', [[4.0, onp.nan, 3.0]]),
    ('nancumsum', [[1.0, onp.nan, 3.0]]), ('nanmedian', [[1.0, onp.nan, 3.0, 7.0]]),
    ('cov', [[[1.0, 2.0, 4.0], [2.0, 1.0, 0.0]]]), ('corrcoef', [[[1.0, 2.0, 4.0], [2.0, 1.0, 0.5]]]),
    ('polyfit', [[0.0, 1.0, 2.0, 3.0], [1.0, 3.0, 5.2, 7.0], 1]),
    ('intersect1d', [[1, 3, 4, 3], [3, 1, 2, 1]]), ('union1d', [[-1, 0, 1], [-2, 0, 2]]),
    ('argpartition', [[3.0, 4.0, 2.0, 1.0], 2]), ('digitize', [[0.2, 6.4, 3.0], [0.0, 1.0, 4.0]]),
    ('vander', [[1.0, 2.0, 3.0]]), ('trim_zeros', [[0.0, 0.0, 1.0, 2.0, 0.0]]),
    ('spacing', [[1.0, 100.0]])])
def test_fallback_matches_numpy(name, args):
    mx_args = [np.array(a) if isinstance(a, list) else a for a in args]
    host_args = [onp.array(a, dtype=onp.float32) if isinstance(a, list) else a for a in args]
    res, expect = getattr(np, name)(*mx_args), getattr(onp, name)(*host_args)
    # Array results come back as mx.np arrays, scalars as scalars (as in MXNet 1.9.1).
    assert isinstance(res, np.ndarray if isinstance(expect, onp.ndarray) else type(expect))
    onp.testing.assert_allclose(onp.asarray(res), expect, rtol=1e-5)
    assert getattr(np.multiarray, name) is getattr(np, name)


def test_fallback_tuples_and_context():
    mant, expo = np.frexp(np.array([8.0, 0.75]))
    onp.testing.assert_allclose(mant.asnumpy() * 2.0 ** expo.asnumpy(), [8.0, 0.75])
    frac, whole = np.modf(np.array([2.5, -1.25]))
    onp.testing.assert_allclose(frac.asnumpy(), [0.5, -0.25])
    onp.testing.assert_allclose(whole.asnumpy(), [2.0, -1.0])
    assert np.nancumsum(np.array([1.0, 5.0])).context == mx.current_context()


def test_functions_numpy2_dropped():
    values = [-100.0, 39.0, 59.0, 55.0, 20.0]
    rate = 0.1
    expect_npv = sum(v / (1 + rate) ** t for t, v in enumerate(values))
    assert abs(np.npv(rate, values) - expect_npv) < 1e-9
    # pv: what 10 payments of 100 at 5% are worth now.
    annuity = sum(100 / 1.05 ** t for t in range(1, 11))
    assert abs(np.pv(0.05, 10, -100) - annuity) < 1e-9
    # rate: the rate at which 3500 grows to 10000 in 10 periods.
    assert abs(np.rate(10, 0, -3500, 10000) - ((10000 / 3500) ** 0.1 - 1)) < 1e-6
    # ppmt: the principal part of each payment of a 1000 loan at 1% over 12 periods.
    payment = 1000 * 0.01 / (1 - 1.01 ** -12)
    balance = 1000.0
    for per in range(1, 13):
        principal = payment - balance * 0.01
        assert abs(np.ppmt(0.01, per, 12, 1000) + principal) < 1e-9
        balance -= principal
    assert abs(balance) < 1e-9
    flows = onp.array([-100.0, 20.0, 30.0, 40.0, 50.0])
    fv_pos = sum(f * 1.12 ** (4 - t) for t, f in enumerate(flows) if f > 0)
    assert abs(np.mirr(flows, 0.1, 0.12) - ((fv_pos / 100) ** 0.25 - 1)) < 1e-9
    a = _x((3, 2))
    onp.testing.assert_allclose(np.msort(np.array(a)).asnumpy(), onp.sort(a, axis=0))
    onp.testing.assert_allclose(np.trapz(np.array([1.0, 2.0, 4.0])), 4.5)
    onp.testing.assert_array_equal(np.in1d(np.array([[1, 5], [2, 7]]), [2, 5]).asnumpy(),
                                   [False, True, True, False])


def test_linalg_additions():
    a = _x((3, 5))
    ut, s, v = np.linalg.svd(np.array(a))
    onp.testing.assert_allclose((ut.asnumpy() * s.asnumpy()) @ v.asnumpy(), a, atol=1e-5)
    onp.testing.assert_allclose(s.asnumpy(), onp.linalg.svd(a, compute_uv=False), rtol=1e-5)
    sym = onp.array([[2.0, 1.0], [1.0, 3.0]], dtype=onp.float32)
    w, vec = np.linalg.eig(np.array(sym))
    onp.testing.assert_allclose(sym @ vec.asnumpy(), vec.asnumpy() * w.asnumpy(), atol=1e-5)
    onp.testing.assert_allclose(onp.sort(np.linalg.eigvals(np.array(sym)).asnumpy()),
                                onp.linalg.eigvalsh(sym), rtol=1e-5)
    with pytest.raises(ValueError):
        np.linalg.eig(np.array([[0.0, -1.0], [1.0, 0.0]]))
    t = onp.random.RandomState(1).uniform(size=(4, 6, 8, 3)).astype(onp.float32)
    onp.testing.assert_allclose(np.linalg.tensorinv(np.array(t), ind=2).asnumpy(),
                                onp.linalg.tensorinv(t, ind=2), rtol=1e-3, atol=1e-3)
    m = onp.random.RandomState(2).uniform(size=(6, 2, 3)).astype(onp.float32) + \
        onp.eye(6, dtype=onp.float32).reshape(6, 2, 3)
    b = onp.arange(6, dtype=onp.float32)
    onp.testing.assert_allclose(np.linalg.tensorsolve(np.array(m), np.array(b)).asnumpy(),
                                onp.linalg.tensorsolve(m, b), rtol=1e-3, atol=1e-3)
    assert abs(np.linalg.cond(np.array(sym)) - onp.linalg.cond(sym)) < 1e-4
    assert np.linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0]])) == 1


def test_utils_stride_tricks_io(tmp_path):
    assert np.utils.float32 is onp.float32 and onp.isnan(np.utils.NaN)
    assert np.utils.NINF == -onp.inf and str(np.utils.NZERO) == '-0.0'
    a, b = np.broadcast_arrays(np.ones((2, 1)), np.arange(3))
    assert a.shape == b.shape == (2, 3)
    onp.testing.assert_allclose(b.asnumpy(), onp.broadcast_to(onp.arange(3), (2, 3)))
    path = tmp_path / 'table.txt'
    path.write_text('1,2,3\n4,5,6\n')
    table = np.genfromtxt(str(path), delimiter=',')
    assert isinstance(table, np.ndarray)
    onp.testing.assert_allclose(table.asnumpy(), [[1, 2, 3], [4, 5, 6]])


def test_nd_np_namespace_is_the_imperative_np():
    assert mx.nd.np is mx.nd.numpy and mx.nd.npx is mx.nd.numpy_extension
    a = _x()
    for name in ['add', 'tril', 'einsum', 'pad', 'hstack']:
        assert getattr(mx.nd.np, name) is getattr(np, name)
    res = mx.nd.np.tril(np.array(a))
    assert isinstance(res, np.ndarray)
    onp.testing.assert_allclose(res.asnumpy(), onp.tril(a))
    onp.testing.assert_allclose(mx.nd.np.linalg.inv(np.eye(2) * 2).asnumpy(), onp.eye(2) / 2)
    assert mx.nd.np.random.uniform(size=(2, 3)).shape == (2, 3)
    onp.testing.assert_allclose(mx.nd.npx.relu(np.array(a)).asnumpy(), onp.maximum(a, 0))


def test_npx_image_random_constraint():
    img = onp.random.RandomState(0).randint(0, 255, size=(4, 5, 3)).astype(onp.uint8)
    x = np.array(img, dtype='uint8')
    onp.testing.assert_array_equal(mx.npx.image.flip_left_right(x).asnumpy(), img[:, ::-1])
    onp.testing.assert_array_equal(mx.nd.npx.image.flip_top_bottom(x).asnumpy(), img[::-1])
    tensor = mx.npx.image.to_tensor(x)
    assert isinstance(tensor, np.ndarray)
    onp.testing.assert_allclose(tensor.asnumpy(), img.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    mx.random.seed(3)
    draws = mx.npx.random.bernoulli(prob=0.3, size=(20000,))
    assert draws.dtype == onp.float32 and set(onp.unique(draws.asnumpy())) <= {0.0, 1.0}
    assert abs(draws.asnumpy().mean() - 0.3) < 0.02
    logit_draws = mx.npx.random.bernoulli(logit=np.array([-30.0, 30.0]))
    onp.testing.assert_array_equal(logit_draws.asnumpy(), [0.0, 1.0])
    with pytest.raises(ValueError):
        mx.npx.random.bernoulli(prob=0.5, logit=0.0)
    samples = mx.npx.random.normal_n(np.array([0.0, 100.0]), 1.0, batch_shape=(5000,))
    assert samples.shape == (5000, 2)
    onp.testing.assert_allclose(samples.asnumpy().mean(axis=0), [0, 100], atol=0.1)
    uni = mx.nd.npx.random.uniform_n(2.0, 3.0, batch_shape=(4, 3))
    assert uni.shape == (4, 3) and (uni.asnumpy() >= 2).all() and (uni.asnumpy() < 3).all()
    assert bool(mx.npx.constraint_check(np.array([True, True], dtype=bool)))
    with pytest.raises(ValueError, match='must be positive'):
        mx.npx.constraint_check(np.array([True, False], dtype=bool), 'must be positive')
