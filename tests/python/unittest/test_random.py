"""mx.random / mx.nd.random: seeding and the sampler wrappers."""
import numpy as np
import pytest

import mxnet as mx


def test_seed_makes_samples_reproducible():
    mx.random.seed(42)
    a = mx.nd.random.uniform(shape=(20,)).asnumpy()
    mx.random.seed(42)
    b = mx.nd.random.uniform(shape=(20,)).asnumpy()
    mx.random.seed(43)
    c = mx.nd.random.uniform(shape=(20,)).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    mx.random.seed(7, ctx=mx.cpu(0))
    d = mx.random.uniform(shape=(5,)).asnumpy()
    mx.random.seed(7, ctx=mx.cpu(0))
    np.testing.assert_array_equal(d, mx.random.uniform(shape=(5,)).asnumpy())
    with pytest.raises(ValueError):
        mx.random.seed(1.5)


def test_uniform_normal_shapes_and_ranges():
    u = mx.nd.random.uniform(-2, 3, shape=(1000,))
    assert u.shape == (1000,) and u.dtype == np.float32
    un = u.asnumpy()
    assert un.min() >= -2 and un.max() < 3
    assert mx.nd.random.uniform().shape == (1,)
    n = mx.nd.random.normal(5, 0.1, shape=(2, 500)).asnumpy()
    assert n.shape == (2, 500)
    assert abs(n.mean() - 5) < 0.05
    assert mx.nd.random.normal(shape=(3,), dtype="float64").dtype == np.float64
    out = mx.nd.zeros((4,))
    res = mx.nd.random.uniform(0, 1, out=out)
    assert res is out
    assert mx.nd.random.randn(2, 3).shape == (2, 3)


def test_ndarray_parameters_use_sample_ops():
    low = mx.nd.array([0.0, 10.0])
    high = mx.nd.array([1.0, 11.0])
    s = mx.nd.random.uniform(low, high, shape=(50,))
    assert s.shape == (2, 50)
    sn = s.asnumpy()
    assert (sn[0] < 1).all() and (sn[1] >= 10).all()
    with pytest.raises(TypeError):
        mx.nd.random.uniform(low, 1.0)


def test_randint_and_like_ops():
    names = set(mx.base.list_op_names())
    if "_random_randint" in names:
        r = mx.nd.random.randint(0, 5, shape=(100,)).asnumpy()
        assert r.min() >= 0 and r.max() < 5
    if "_random_uniform_like" in names:
        x = mx.nd.zeros((3, 4))
        assert mx.nd.random.uniform_like(x).shape == (3, 4)


def test_mx_random_reexports():
    for name in ("uniform", "normal", "randn", "poisson", "exponential", "gamma",
                 "multinomial", "negative_binomial", "generalized_negative_binomial",
                 "shuffle", "randint", "seed"):
        assert callable(getattr(mx.random, name))
    assert mx.rnd is mx.random
