"""Op table: random samplers. Outputs are random, so each entry checks shape, dtype, range and
sample statistics (mean/variance within a few standard errors) instead of exact values."""
import numpy as np

from . import FLOATS, FLOATS_AND_HALF, OpEntry, Sample

N = (100, 100)  # 10,000 draws: standard error of a mean is sd / 100


def _stats(mean, var, lo=None, hi=None, integral=False, shape=N, dtype=None):
    """check(outputs, inputs, kwargs, dtype): shape, dtype, support and first two moments."""
    def check(outputs, inputs, kwargs, dt):
        out = outputs[0]
        assert out.shape == tuple(shape), "shape %s, expected %s" % (out.shape, shape)
        want = dtype or kwargs.get("dtype") or "float32"
        assert out.dtype == np.dtype(want), "dtype %s, expected %s" % (out.dtype, want)
        x = out.astype("float64").ravel()
        assert np.all(np.isfinite(x))
        if lo is not None:
            assert x.min() >= lo, "min %s below %s" % (x.min(), lo)
        if hi is not None:
            assert x.max() < hi, "max %s not below %s" % (x.max(), hi)
        if integral:
            assert np.all(x == np.round(x)), "non-integral samples"
        n = x.size
        tol_m = 5 * np.sqrt(var / n) + (2e-3 if out.dtype == np.float16 else 0)
        assert abs(x.mean() - mean) < tol_m + 1e-9, "mean %s, expected %s" % (x.mean(), mean)
        # var of the sample variance ~ 2 var^2 / n for light tails; allow a wide band
        assert abs(x.var() - var) < 0.12 * var + 1e-3, "var %s, expected %s" % (x.var(), var)
    return check


def _like_check(mean, var, **kw):
    def check(outputs, inputs, kwargs, dt):
        assert outputs[0].shape == inputs[0].shape
        _stats(mean, var, shape=inputs[0].shape, dtype=str(inputs[0].dtype), **kw)(
            outputs, inputs, kwargs, dt)
    return check


def _param_arrays(*values, shape=(2,)):
    """Parameter arrays for _sample_* ops: one array per parameter, filled row-wise."""
    def make(rng, dtype):
        return [np.array(v, dtype=dtype).reshape(shape) for v in values]
    return make


def _multi_check(means, vars_, draws, lo=None, integral=False):
    """_sample_*: output shape = param shape + draws; each distribution's moments."""
    def check(outputs, inputs, kwargs, dt):
        out = outputs[0]
        assert out.shape == inputs[0].shape + draws, (out.shape, inputs[0].shape, draws)
        assert out.dtype == np.dtype(kwargs.get("dtype", "float32"))
        flat = out.astype("float64").reshape(len(means), -1)
        for row, m, v in zip(flat, means, vars_):
            assert abs(row.mean() - m) < 5 * np.sqrt(v / row.size) + 1e-9, (row.mean(), m)
            assert abs(row.var() - v) < 0.15 * v + 1e-3, (row.var(), v)
            if lo is not None:
                assert row.min() >= lo
            if integral:
                assert np.all(row == np.round(row))
    return check


def _randint_check(outputs, inputs, kwargs, dtype):
    out = outputs[0]
    assert out.shape == (100, 100)
    assert out.dtype == np.dtype(kwargs.get("dtype", "int32"))
    lo, hi = kwargs["low"], kwargs["high"]
    assert out.min() >= lo and out.max() < hi
    assert set(np.unique(out)) == set(range(lo, hi)), "not every value drawn"
    span = hi - lo
    assert abs(out.mean() - (lo + hi - 1) / 2.0) < 5 * np.sqrt((span ** 2 - 1) / 12.0 / out.size)


def _multinomial_check(outputs, inputs, kwargs, dtype):
    probs = inputs[0].astype("float64")
    out = outputs[0]
    draws = tuple(kwargs.get("shape", ()))
    assert out.shape == probs.shape[:-1] + draws
    assert out.dtype == np.dtype(kwargs.get("dtype", "int32"))
    flat = out.reshape(probs.shape[0], -1).astype("int64")
    for p, row in zip(probs, flat):
        freq = np.bincount(row, minlength=p.size) / float(row.size)
        assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / row.size) + 1e-9), (freq, p)
    if kwargs.get("get_prob"):
        logp = outputs[1]
        want = np.log(np.take_along_axis(probs, flat, axis=1)).reshape(logp.shape)
        np.testing.assert_allclose(logp.astype("float64"), want, rtol=1e-3, atol=1e-3)


def _multinomial_inputs(rng, dtype):
    return [np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25]], dtype=dtype)]


def _shuffle_check(outputs, inputs, kwargs, dtype):
    out, x = outputs[0], inputs[0]
    assert out.shape == x.shape and out.dtype == x.dtype
    # Same rows, in some order.
    key = lambda a: sorted(map(tuple, a.reshape(a.shape[0], -1).tolist()))
    assert key(out) == key(x)


ENTRIES = [
    OpEntry("random.uniform", ref=None, dtypes=("float32",), grad=False,
            samples=[Sample(kwargs={"low": -1.0, "high": 3.0, "shape": N}),
                     Sample(kwargs={"low": 0.0, "high": 1.0, "shape": N, "dtype": "float64"}),
                     Sample(kwargs={"low": 0.0, "high": 1.0, "shape": N, "dtype": "float16"})],
            check=lambda o, i, k, d: _stats((k["low"] + k["high"]) / 2,
                                            (k["high"] - k["low"]) ** 2 / 12.0,
                                            lo=k["low"], hi=k["high"] + 1e-3)(o, i, k, d),
            covers=["uniform", "random_uniform"]),
    OpEntry("random.normal", ref=None, dtypes=("float32",), grad=False,
            samples=[Sample(kwargs={"loc": 1.5, "scale": 2.0, "shape": N}),
                     Sample(kwargs={"loc": 0.0, "scale": 1.0, "shape": N, "dtype": "float64"})],
            check=lambda o, i, k, d: _stats(k["loc"], k["scale"] ** 2)(o, i, k, d),
            covers=["normal", "random_normal"]),
    OpEntry("random.gamma", ref=None, dtypes=("float32",), grad=False,
            samples=[Sample(kwargs={"alpha": 2.0, "beta": 1.5, "shape": N}),
                     Sample(kwargs={"alpha": 0.5, "beta": 2.0, "shape": N, "dtype": "float64"})],
            check=lambda o, i, k, d: _stats(k["alpha"] * k["beta"],
                                            k["alpha"] * k["beta"] ** 2, lo=0)(o, i, k, d),
            covers=["random_gamma"]),
    OpEntry("random.exponential", ref=None, dtypes=("float32",), grad=False,
            samples=[Sample(kwargs={"scale": 0.5, "shape": N}),
                     Sample(kwargs={"scale": 2.0, "shape": N, "dtype": "float64"})],
            check=lambda o, i, k, d: _stats(k["scale"], k["scale"] ** 2, lo=0)(o, i, k, d),
            covers=["random_exponential"]),
    OpEntry("random.poisson", ref=None, dtypes=("float32",), grad=False,
            samples=[Sample(kwargs={"lam": 4.0, "shape": N}),
                     Sample(kwargs={"lam": 30.0, "shape": N}),
                     Sample(kwargs={"lam": 0.5, "shape": N, "dtype": "float64"})],
            check=lambda o, i, k, d: _stats(k["lam"], k["lam"], lo=0, integral=True)(o, i, k, d),
            covers=["random_poisson"]),
    OpEntry("random.negative_binomial", ref=None, dtypes=("float32",), grad=False,
            samples=[Sample(kwargs={"k": 3, "p": 0.4, "shape": N}),
                     Sample(kwargs={"k": 10, "p": 0.8, "shape": N})],
            check=lambda o, i, k, d: _stats(k["k"] * (1 - k["p"]) / k["p"],
                                            k["k"] * (1 - k["p"]) / k["p"] ** 2,
                                            lo=0, integral=True)(o, i, k, d),
            covers=["random_negative_binomial"]),
    OpEntry("random.generalized_negative_binomial", ref=None, dtypes=("float32",), grad=False,
            samples=[Sample(kwargs={"mu": 2.0, "alpha": 0.3, "shape": N}),
                     Sample(kwargs={"mu": 5.0, "alpha": 0.0, "shape": N})],
            check=lambda o, i, k, d: _stats(k["mu"], k["mu"] + k["alpha"] * k["mu"] ** 2,
                                            lo=0, integral=True)(o, i, k, d),
            covers=["random_generalized_negative_binomial"]),
    OpEntry("random.randint", ref=None, dtypes=("int32",), grad=False,
            samples=[Sample(kwargs={"low": -3, "high": 5, "shape": (100, 100)}),
                     Sample(kwargs={"low": 0, "high": 7, "shape": (100, 100),
                                    "dtype": "int64"})],
            check=_randint_check, covers=["random_randint"]),
    # *_like: shape and dtype from the input.
    OpEntry("random.uniform_like", ref=None, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([N], {"low": 2.0, "high": 4.0})],
            check=_like_check(3.0, 4.0 / 12, lo=2.0, hi=4.0 + 1e-3)),
    OpEntry("random.normal_like", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample([N], {"loc": -1.0, "scale": 0.5})], check=_like_check(-1.0, 0.25)),
    OpEntry("random.gamma_like", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample([N], {"alpha": 3.0, "beta": 0.5})],
            check=_like_check(1.5, 0.75, lo=0)),
    OpEntry("random.exponential_like", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample([N], {"lam": 2.0})], check=_like_check(0.5, 0.25, lo=0)),
    OpEntry("random.poisson_like", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample([N], {"lam": 3.0})], check=_like_check(3.0, 3.0, lo=0, integral=True)),
    OpEntry("random.negative_binomial_like", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample([N], {"k": 2, "p": 0.5})],
            check=_like_check(2.0, 4.0, lo=0, integral=True)),
    OpEntry("random.generalized_negative_binomial_like", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample([N], {"mu": 3.0, "alpha": 0.5})],
            check=_like_check(3.0, 7.5, lo=0, integral=True)),
    # _sample_*: parameters as arrays.
    OpEntry("sample_uniform", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (5000,)},
                            arrays=_param_arrays([0.0, -2.0], [1.0, 2.0]))],
            check=_multi_check([0.5, 0.0], [1 / 12.0, 16 / 12.0], (5000,))),
    OpEntry("sample_normal", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (5000,)},
                            arrays=_param_arrays([0.0, 3.0], [1.0, 0.5])),
                     Sample(kwargs={"shape": (5000,), "dtype": "float64"},
                            arrays=_param_arrays([1.0, -3.0], [2.0, 0.1]))],
            check=lambda o, i, k, d: _multi_check(list(i[0]), list(i[1].astype("float64") ** 2),
                                                  (5000,))(o, i, k, d)),
    OpEntry("sample_gamma", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (5000,)},
                            arrays=_param_arrays([2.0, 0.5], [1.0, 3.0]))],
            check=_multi_check([2.0, 1.5], [2.0, 4.5], (5000,), lo=0)),
    OpEntry("sample_exponential", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (5000,)}, arrays=_param_arrays([1.0, 4.0]))],
            check=_multi_check([1.0, 0.25], [1.0, 1 / 16.0], (5000,), lo=0)),
    OpEntry("sample_poisson", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (5000,)}, arrays=_param_arrays([1.0, 20.0]))],
            check=_multi_check([1.0, 20.0], [1.0, 20.0], (5000,), lo=0, integral=True)),
    OpEntry("sample_negative_binomial", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (5000,)},
                            arrays=_param_arrays([2.0, 5.0], [0.5, 0.7]))],
            check=_multi_check([2.0, 5 * 0.3 / 0.7], [4.0, 5 * 0.3 / 0.49], (5000,), lo=0,
                               integral=True)),
    OpEntry("sample_generalized_negative_binomial", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (5000,)},
                            arrays=_param_arrays([2.0, 4.0], [0.5, 0.0]))],
            check=_multi_check([2.0, 4.0], [4.0, 4.0], (5000,), lo=0, integral=True)),
    OpEntry("sample_multinomial", ref=None, dtypes=FLOATS, grad=False,
            samples=[Sample(kwargs={"shape": (4000,)}, arrays=_multinomial_inputs),
                     Sample(kwargs={"shape": (4000,), "get_prob": True},
                            arrays=_multinomial_inputs),
                     Sample(kwargs={"shape": (4000,), "dtype": "float32"},
                            arrays=_multinomial_inputs)],
            check=_multinomial_check),
    OpEntry("shuffle", ref=None, dtypes=FLOATS + ("int32", "uint8"), grad=False,
            samples=[Sample([(10,)]), Sample([(20, 3)]), Sample([(6, 2, 3)])],
            check=_shuffle_check, high=100.0, low=-100.0),
]

EXEMPT = {}
