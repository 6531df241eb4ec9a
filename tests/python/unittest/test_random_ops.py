"""Random sampling operators (src/operator/random/): seed reproducibility for every sampler,
statistics, parameter validation, shapes and dtypes of the creation, _like and _sample_ ops."""
import numpy as np
import pytest

import mxnet as mx

nd = mx.nd
_int = nd._internal

def ones(shape, dtype="float32"):
    return nd.array(np.ones(shape), dtype=dtype)


def zeros(shape, dtype="float32"):
    return nd.array(np.zeros(shape), dtype=dtype)

SAMPLERS = [
    ("_random_uniform", {"low": -1.0, "high": 2.0}),
    ("_random_normal", {"loc": 0.5, "scale": 2.0}),
    ("_random_gamma", {"alpha": 0.7, "beta": 2.0}),
    ("_random_exponential", {"lam": 3.0}),
    ("_random_poisson", {"lam": 25.0}),
    ("_random_negative_binomial", {"k": 4, "p": 0.3}),
    ("_random_generalized_negative_binomial", {"mu": 3.0, "alpha": 0.4}),
    ("_random_randint", {"low": 0, "high": 1000}),
]


def _draw(op, kw, shape=(50000,)):
    return getattr(_int, op)(shape=shape, **kw).asnumpy()


@pytest.mark.parametrize("op,kw", SAMPLERS, ids=[s[0] for s in SAMPLERS])
def test_seed_reproducible_and_distinct(op, kw):
    mx.random.seed(1234)
    a = _draw(op, kw)
    b = _draw(op, kw)  # the stream advances
    mx.random.seed(1234)
    a2 = _draw(op, kw)
    b2 = _draw(op, kw)
    np.testing.assert_array_equal(a, a2)
    np.testing.assert_array_equal(b, b2)
    assert not np.array_equal(a, b)
    mx.random.seed(4321)
    c = _draw(op, kw)
    assert not np.array_equal(a, c)


def test_seed_reproducible_for_sample_ops_multinomial_and_shuffle():
    mu = nd.array([0.0, 5.0])
    sigma = nd.array([1.0, 0.1])
    probs = nd.array([[0.2, 0.8], [0.5, 0.5]])
    data = nd.array(np.arange(100.0))
    outs = []
    for _ in range(2):
        mx.random.seed(99)
        outs.append([nd.sample_normal(mu, sigma, shape=(7,)).asnumpy(),
                     nd.sample_multinomial(probs, shape=(9,)).asnumpy(),
                     nd.shuffle(data).asnumpy()])
    for x, y in zip(*outs):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(outs[0][2], np.arange(100.0))


def test_uniform_and_normal_statistics():
    mx.random.seed(0)
    u = _draw("_random_uniform", {"low": -1.0, "high": 3.0}, (200000,))
    assert u.min() >= -1.0 and u.max() < 3.0
    assert abs(u.mean() - 1.0) < 0.02 and abs(u.var() - 16 / 12.0) < 0.03
    n = _draw("_random_normal", {"loc": -2.0, "scale": 0.5}, (200000,))
    assert abs(n.mean() + 2.0) < 0.01 and abs(n.std() - 0.5) < 0.01
    # standard normal tails: about 4.55% beyond 2 sigma
    assert abs((np.abs(n + 2.0) > 1.0).mean() - 0.0455) < 0.004


def test_gamma_small_and_large_shape():
    mx.random.seed(1)
    for alpha, beta in [(0.3, 1.0), (1.0, 2.0), (9.0, 0.5)]:
        x = _draw("_random_gamma", {"alpha": alpha, "beta": beta}, (100000,))
        assert x.min() >= 0
        assert abs(x.mean() - alpha * beta) < 0.03 * alpha * beta + 0.01, (alpha, x.mean())
        assert abs(x.var() - alpha * beta ** 2) < 0.08 * alpha * beta ** 2, (alpha, x.var())


def test_randint_range_dtype_and_uniformity():
    mx.random.seed(2)
    x = _int._random_randint(low=-5, high=5, shape=(100000,))
    assert x.dtype == np.int32
    x = x.asnumpy()
    assert x.min() == -5 and x.max() == 4
    counts = np.bincount(x + 5)
    assert np.all(np.abs(counts / 1e5 - 0.1) < 0.006)
    y = _int._random_randint(low=0, high=3, shape=(10,), dtype="int64")
    assert y.dtype == np.int64


def test_dtypes_and_out_parameter():
    assert _int._random_uniform(shape=(2, 3)).dtype == np.float32
    assert _int._random_normal(shape=(2, 3), dtype="float64").dtype == np.float64
    assert _int._random_uniform(shape=(4,), dtype="float16").dtype == np.float16
    out = zeros((3, 4), dtype="float64")
    _int._random_uniform(low=5.0, high=6.0, out=out)
    v = out.asnumpy()
    assert v.dtype == np.float64 and v.min() >= 5.0 and v.max() < 6.0
    like = zeros((2, 5), dtype="float64")
    r = nd.random.normal_like(like, loc=3.0, scale=0.0)
    assert r.shape == (2, 5) and r.dtype == np.float64
    np.testing.assert_array_equal(r.asnumpy(), np.full((2, 5), 3.0))


def test_sample_ops_shapes_and_per_distribution_parameters():
    mx.random.seed(3)
    low = nd.array([[0.0, 10.0], [-5.0, 100.0]])
    high = nd.array([[1.0, 11.0], [-4.0, 101.0]])
    x = nd.sample_uniform(low, high, shape=(3, 500)).asnumpy()
    assert x.shape == (2, 2, 3, 500)
    lo, hi = low.asnumpy(), high.asnumpy()
    for i in range(2):
        for j in range(2):
            assert x[i, j].min() >= lo[i, j] and x[i, j].max() < hi[i, j]
    one = nd.sample_poisson(nd.array([1.0, 2.0, 3.0]))
    assert one.shape == (3,)
    assert nd.sample_exponential(nd.array([1.0]), shape=4, dtype="float64").dtype == np.float64
    with pytest.raises(ValueError):
        nd.sample_normal(ones((2,)), ones((3,)))


def test_multinomial_get_prob_and_gradient():
    mx.random.seed(4)
    p = np.array([[0.1, 0.6, 0.3], [0.25, 0.25, 0.5]], dtype="float32")
    s, logp = nd.sample_multinomial(nd.array(p), shape=(5,), get_prob=True)
    s = s.asnumpy()
    assert s.shape == (2, 5) and s.dtype == np.int32
    np.testing.assert_allclose(logp.asnumpy(), np.log(np.take_along_axis(p, s, axis=1)),
                               rtol=1e-6)
    og = np.ones((2, 5), dtype="float32")
    grad = _int._backward_sample_multinomial(nd.array(og), nd.array(p), nd.array(s, dtype="int32"),
                                            shape=(5,), get_prob=True).asnumpy()
    want = np.zeros_like(p)
    for r in range(2):
        for j in s[r]:
            want[r, j] += 1.0 / p[r, j]
    np.testing.assert_allclose(grad, want, rtol=1e-5)


def test_shuffle_permutes_rows_in_place_and_copy():
    mx.random.seed(5)
    x = np.arange(30.0).reshape(10, 3)
    y = nd.shuffle(nd.array(x)).asnumpy()
    assert sorted(map(tuple, y)) == sorted(map(tuple, x))
    assert not np.array_equal(x, y)
    a = nd.array(x)
    nd.shuffle(a, out=a)
    assert sorted(map(tuple, a.asnumpy())) == sorted(map(tuple, x))


@pytest.mark.parametrize("op,kw", [
    ("_random_uniform", {"low": 2.0, "high": 1.0}),
    ("_random_normal", {"scale": -1.0}),
    ("_random_gamma", {"alpha": 0.0}),
    ("_random_exponential", {"lam": -1.0}),
    ("_random_poisson", {"lam": -2.0}),
    ("_random_negative_binomial", {"k": 2, "p": 1.5}),
    ("_random_generalized_negative_binomial", {"alpha": -1.0}),
    ("_random_randint", {"low": 3, "high": 3}),
])
def test_bad_parameters_raise_value_error(op, kw):
    with pytest.raises(ValueError):
        getattr(_int, op)(shape=(2,), **kw)


def test_bad_kwargs():
    with pytest.raises(mx.base.MXNetError):
        _int._random_uniform(shape=(2,), bogus=1)
    with pytest.raises(mx.base.MXNetError):
        _int._random_uniform(shape=(2,), dtype="int8")
    with pytest.raises(mx.base.MXNetError):
        _int._random_randint(shape=(2,), low=0)  # high is required
