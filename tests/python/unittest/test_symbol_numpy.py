"""mx.sym.np / mx.sym.npx functions (symbol/numpy/routines.py, linalg.py, random.py and
symbol/numpy_extension), evaluated and checked against NumPy."""
import numpy as onp
import pytest

import mxnet as mx

S = mx.sym.np
x, y = mx.sym.var('x'), mx.sym.var('y')
A = (onp.arange(12, dtype=onp.float32).reshape(3, 4) - 5) / 2
B = onp.random.RandomState(1).uniform(-2, 2, size=(3, 4)).astype(onp.float32)


def ev(sym, **arrays):
    with mx.util.np_shape(True):
        feed = {k: mx.nd.array(v, dtype=v.dtype) for k, v in arrays.items()}
        return sym.eval(**feed)[0].asnumpy()


UNARY = ['arccos', 'arcsin', 'arctan', 'arcsinh', 'cbrt', 'ceil', 'floor', 'cosh', 'sinh', 'tan',
         'fix', 'rint', 'trunc', 'sign', 'degrees', 'radians', 'fabs', 'deg2rad', 'rad2deg',
         'reciprocal', 'logical_not']


@pytest.mark.parametrize('name', UNARY)
def test_unary(name):
    data = onp.clip(A, -0.9, 0.9) + 0.05 if name in ('arccos', 'arcsin') else A + 0.25
    onp.testing.assert_allclose(ev(getattr(S, name)(x), x=data), getattr(onp, name)(data),
                                rtol=1e-5, atol=1e-6)


def test_positive_domain_unary():
    data = onp.abs(A) + 1.5
    for name in ['log10', 'log2', 'arccosh']:
        onp.testing.assert_allclose(ev(getattr(S, name)(x), x=data), getattr(onp, name)(data),
                                    rtol=1e-5)
    onp.testing.assert_allclose(ev(S.arctanh(x), x=data / 10), onp.arctanh(data / 10),
                                rtol=1e-5)


def test_binary_and_predicates():
    onp.testing.assert_allclose(ev(S.hypot(x, y), x=A, y=B), onp.hypot(A, B), rtol=1e-5)
    onp.testing.assert_allclose(ev(S.arctan2(x, y), x=A, y=B), onp.arctan2(A, B), rtol=1e-5)
    onp.testing.assert_allclose(ev(S.copysign(x, y), x=A, y=B), onp.copysign(A, B))
    onp.testing.assert_allclose(ev(S.ldexp(x, 3), x=A), onp.ldexp(A, 3))
    onp.testing.assert_allclose(ev(S.remainder(x, 1.5), x=A), onp.remainder(A, 1.5), atol=1e-6)
    onp.testing.assert_allclose(ev(S.around(x, 1), x=A / 3), onp.round(A / 3, 1), atol=1e-6)
    special = onp.array([1.0, onp.inf, -onp.inf, onp.nan], dtype=onp.float32)
    for name in ['isnan', 'isinf', 'isfinite', 'isposinf', 'isneginf']:
        onp.testing.assert_array_equal(ev(getattr(S, name)(x), x=special),
                                       getattr(onp, name)(special))


@pytest.mark.parametrize('axis', [None, 0, 1])
def test_reductions(axis):
    onp.testing.assert_allclose(ev(S.var(x, axis=axis, ddof=1), x=B), onp.var(B, axis, ddof=1),
                                rtol=1e-5)
    onp.testing.assert_allclose(ev(S.std(x, axis=axis), x=B), onp.std(B, axis), rtol=1e-5)
    onp.testing.assert_array_equal(ev(S.any(x, axis=axis), x=A), onp.any(A, axis))
    onp.testing.assert_array_equal(ev(S.all(x, axis=axis), x=A), onp.all(A, axis))
    onp.testing.assert_allclose(ev(S.amax(x, axis=axis), x=B), onp.amax(B, axis))
    onp.testing.assert_allclose(ev(S.average(x, axis=axis, weights=y), x=A, y=onp.abs(B)),
                                onp.average(A, axis, weights=onp.abs(B)), rtol=1e-5)
    onp.testing.assert_allclose(ev(S.cumsum(x, axis=axis), x=A), onp.cumsum(A, axis), rtol=1e-6)


def test_reordering():
    idx = onp.array([1, 7], dtype=onp.float32)
    cases = [(S.flip(x, 1), onp.flip(A, 1)), (S.fliplr(x), onp.fliplr(A)),
             (S.flipud(x), onp.flipud(A)), (S.roll(x, 1, axis=1), onp.roll(A, 1, 1)),
             (S.roll(x, -2, axis=0), onp.roll(A, -2, 0)), (S.ravel(x), A.ravel()),
             (S.repeat(x, 2, axis=1), onp.repeat(A, 2, 1)),
             (S.tile(x, (2, 1)), onp.tile(A, (2, 1))), (S.tril(x, -1), onp.tril(A, -1)),
             (S.diag(x, 1), onp.diag(A, 1)), (S.diagonal(x), onp.diagonal(A)),
             (S.trace(x), onp.trace(A)), (S.diff(x, 2), onp.diff(A, 2)),
             (S.ediff1d(x), onp.ediff1d(A)), (S.append(x, x, axis=0), onp.append(A, A, 0)),
             (S.copy(x), A)] + [(S.rot90(x, k), onp.rot90(A, k)) for k in range(4)]
    for sym, expect in cases:
        onp.testing.assert_allclose(ev(sym, x=A), expect, rtol=1e-6)
    onp.testing.assert_allclose(ev(S.take(x, y), x=A, y=idx), onp.take(A, [1, 7]))
    onp.testing.assert_allclose(ev(S.sort(x, axis=0), x=B), onp.sort(B, 0))
    onp.testing.assert_array_equal(ev(S.argsort(x), x=B), onp.argsort(B))
    cube = onp.arange(24, dtype=onp.float32).reshape(2, 3, 4)
    onp.testing.assert_allclose(ev(S.moveaxis(x, 0, 2), x=cube), onp.moveaxis(cube, 0, 2))
    onp.testing.assert_allclose(ev(S.squeeze(x), x=A[None]), A)
    pieces = S.array_split(x, [1, 3], axis=1)
    for got, expect in zip(pieces, onp.array_split(A, [1, 3], axis=1)):
        onp.testing.assert_allclose(ev(got, x=A), expect)
    onp.testing.assert_allclose(ev(S.vsplit(x, 3)[1], x=A), onp.vsplit(A, 3)[1])
    onp.testing.assert_allclose(ev(S.dsplit(x, [1])[1], x=cube), onp.dsplit(cube, [1])[1])


def test_products_and_einsum():
    onp.testing.assert_allclose(ev(S.outer(x, y), x=A, y=B), onp.outer(A, B), rtol=1e-6)
    onp.testing.assert_allclose(ev(S.vdot(x, y), x=A, y=B), onp.vdot(A, B), rtol=1e-5)
    onp.testing.assert_allclose(ev(S.inner(x, y), x=A, y=B), onp.inner(A, B), rtol=1e-5)
    onp.testing.assert_allclose(ev(S.tensordot(x, y, 1), x=A, y=B.T.copy()),
                                onp.tensordot(A, B.T, 1), rtol=1e-5)
    for subscripts in ['ij,kj->ik', 'ij,ij->i', 'ij->ji', 'ij,kl', 'ij,jk']:
        second = B if subscripts.count(',') and subscripts[3:5] != 'jk' else B.T.copy()
        operands = [x, y] if ',' in subscripts else [x]
        data = {'x': A, 'y': second} if ',' in subscripts else {'x': A}
        expect = onp.einsum(subscripts, *data.values())
        onp.testing.assert_allclose(ev(S.einsum(subscripts, *operands), **data), expect,
                                    rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError):
        S.einsum('ii', x)


def test_creation():
    onp.testing.assert_allclose(ev(S.zeros((2, 3))), onp.zeros((2, 3)))
    onp.testing.assert_allclose(ev(S.ones(4, dtype='int32')), onp.ones(4))
    onp.testing.assert_allclose(ev(S.full((2,), 7)), onp.full(2, 7))
    onp.testing.assert_allclose(ev(S.full_like(x, 2.5), x=A), onp.full_like(A, 2.5))
    assert ev(S.empty_like(x, dtype='int32'), x=A).shape == A.shape
    onp.testing.assert_allclose(ev(S.arange(2, 9, 3)), onp.arange(2, 9, 3))
    onp.testing.assert_allclose(ev(S.linspace(0, 1, 5, endpoint=False)),
                                onp.linspace(0, 1, 5, endpoint=False), rtol=1e-6)
    onp.testing.assert_allclose(ev(S.logspace(0, 3, 4)), onp.logspace(0, 3, 4), rtol=1e-5)
    onp.testing.assert_allclose(ev(S.eye(3, 4, k=1)), onp.eye(3, 4, k=1))
    onp.testing.assert_allclose(ev(S.identity(3)), onp.identity(3))
    onp.testing.assert_array_equal(ev(S.indices((2, 3))), onp.indices((2, 3)))
    for name in ['hanning', 'hamming', 'blackman']:
        onp.testing.assert_allclose(ev(getattr(S, name)(9)), getattr(onp, name)(9), atol=1e-6)


def test_histogram():
    data = onp.array([0.5, 1.5, 1.7, 3.9, 2.2], dtype=onp.float32)
    counts, edges = S.histogram(x, 4, range=(0, 4))
    onp.testing.assert_array_equal(ev(counts, x=data), onp.histogram(data, 4, (0, 4))[0])
    onp.testing.assert_allclose(ev(edges, x=data), onp.histogram(data, 4, (0, 4))[1])
    bins = onp.array([0, 1, 2, 4], dtype=onp.float32)
    counts, _ = S.histogram(x, y)
    onp.testing.assert_array_equal(ev(counts, x=data, y=bins), onp.histogram(data, bins)[0])
    with pytest.raises(ValueError):
        S.histogram(x, 4)


def test_linalg():
    L = S.linalg
    m = onp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=onp.float32)
    batch = onp.stack([m, 2 * m])
    onp.testing.assert_allclose(ev(L.det(x), x=m), onp.linalg.det(m), rtol=1e-5)
    assert ev(L.det(x), x=m).shape == ()
    onp.testing.assert_allclose(ev(L.det(x), x=batch), onp.linalg.det(batch), rtol=1e-5)
    onp.testing.assert_allclose(ev(L.slogdet(x)[1], x=m), onp.linalg.slogdet(m)[1], rtol=1e-5)
    onp.testing.assert_allclose(ev(L.inv(x), x=m), onp.linalg.inv(m), rtol=1e-5)
    onp.testing.assert_allclose(ev(L.cholesky(x), x=m), onp.linalg.cholesky(m), rtol=1e-5)
    onp.testing.assert_allclose(ev(L.eigvalsh(x), x=m), onp.linalg.eigvalsh(m), rtol=1e-5)
    vecs = ev(L.eigh(x)[1], x=m)
    vals = onp.linalg.eigvalsh(m)
    onp.testing.assert_allclose(m @ vecs, vecs * vals, atol=1e-5)
    rhs = B[:, :2].copy()
    onp.testing.assert_allclose(ev(L.solve(x, y), x=m, y=rhs), onp.linalg.solve(m, rhs),
                                rtol=1e-4, atol=1e-5)
    onp.testing.assert_allclose(ev(L.norm(x), x=A), onp.linalg.norm(A), rtol=1e-6)
    onp.testing.assert_allclose(ev(L.norm(x, 1, axis=1), x=A), onp.linalg.norm(A, 1, axis=1))
    onp.testing.assert_allclose(ev(L.norm(x, onp.inf, axis=0), x=A),
                                onp.linalg.norm(A, onp.inf, axis=0))


def test_random_moments():
    R = S.random
    mx.random.seed(11)
    n = 40000
    checks = [(R.uniform(2, 5, size=n), 3.5, 0.05), (R.normal(1, 2, size=n), 1.0, 0.05),
              (R.exponential(2.0, size=n), 2.0, 0.05), (R.gamma(3.0, 2.0, size=n), 6.0, 0.1),
              (R.chisquare(4, size=n), 4.0, 0.1), (R.beta(2.0, 6.0, size=n), 0.25, 0.01),
              (R.lognormal(0.0, 0.5, size=n), onp.exp(0.125), 0.02),
              (R.logistic(1.0, 2.0, size=n), 1.0, 0.07), (R.gumbel(0.0, 1.0, size=n), 0.5772, 0.03),
              (R.weibull(2.0, size=n), 0.8862, 0.01), (R.pareto(3.0, size=n), 0.5, 0.03),
              (R.rayleigh(1.0, size=n), onp.sqrt(onp.pi / 2), 0.02),
              (R.power(2.0, size=n), 2.0 / 3, 0.01), (R.rand(n), 0.5, 0.01),
              (R.randint(0, 10, size=n), 4.5, 0.06), (R.choice(4, size=n), 1.5, 0.03)]
    for sym, mean, tol in checks:
        sample = ev(sym)
        assert sample.shape == (n,)
        assert abs(sample.mean() - mean) < tol, (sym.name, sample.mean(), mean)
    assert ev(R.randint(0, 10, size=3)).dtype == onp.int64
    locs = onp.array([0.0, 10.0], dtype=onp.float32)
    onp.testing.assert_allclose(ev(R.normal(x, 1.0, size=(n, 2)), x=locs).mean(0), locs,
                                atol=0.05)
    probs = onp.array([0.2, 0.8], dtype=onp.float32)
    picks = ev(R.choice(x, size=n, p=y), x=onp.array([3.0, 7.0], dtype=onp.float32), y=probs)
    assert abs((picks == 7).mean() - 0.8) < 0.02
    assert sorted(ev(R.shuffle(x), x=onp.arange(6, dtype=onp.float32))) == list(range(6))
    cov = onp.array([[1.0, 0.5], [0.5, 2.0]], dtype=onp.float32)
    draws = ev(R.multivariate_normal(x, y, size=(n,)), x=locs, y=cov)
    onp.testing.assert_allclose(onp.cov(draws.T), cov, atol=0.05)


def test_npx_image_and_random():
    img = onp.random.RandomState(0).randint(0, 255, size=(4, 5, 3)).astype(onp.uint8)
    onp.testing.assert_array_equal(ev(mx.sym.npx.image.flip_left_right(x), x=img), img[:, ::-1])
    onp.testing.assert_allclose(ev(mx.sym.npx.image.to_tensor(x), x=img),
                                img.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    mx.random.seed(5)
    draws = ev(mx.sym.npx.random.bernoulli(x), x=onp.full((20000,), 0.8, dtype=onp.float32))
    assert set(onp.unique(draws)) <= {0.0, 1.0} and abs(draws.mean() - 0.8) < 0.02
    samples = ev(mx.sym.npx.random.normal_n(x, 1.0, batch_shape=(8000,)),
                 x=onp.array([0.0, 5.0], dtype=onp.float32))
    assert samples.shape == (8000, 2)
    onp.testing.assert_allclose(samples.mean(0), [0.0, 5.0], atol=0.06)
    uni = ev(mx.sym.npx.random.uniform_n(2.0, 3.0, batch_shape=(4, 3)))
    assert uni.shape == (4, 3) and (uni >= 2).all() and (uni < 3).all()
