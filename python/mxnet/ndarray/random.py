"""Random samplers: `mx.nd.random.uniform(low, high, shape)`, ...

Number parameters draw from one distribution with the `_random_<dist>` operators; NDArray
parameters draw `shape` samples per element of the parameter arrays with `_sample_<dist>`.
The `<dist>_like` operators (shape taken from an input array) are added here at import.
"""
from ..base import _Null, numeric_types
from ..context import current_context
from . import _internal
from .ndarray import NDArray

__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial",
           "negative_binomial", "generalized_negative_binomial", "shuffle", "randint"]


def _random_helper(random, sampler, names, params, shape, dtype, ctx, out, kwargs):
    """Dispatch to operator `random` (all params numbers) or `sampler` (all NDArrays)."""
    if isinstance(params[0], NDArray):
        for p in params[1:]:
            if not isinstance(p, NDArray):
                raise TypeError("Distribution parameters must all have the same type, but got "
                                "both %s and %s." % (type(params[0]), type(p)))
        if sampler is None:
            raise TypeError("this distribution does not take NDArray parameters")
        return getattr(_internal, sampler)(*params, shape=shape, dtype=dtype, out=out, **kwargs)
    if isinstance(params[0], numeric_types):
        if ctx is None:
            ctx = current_context()
        if shape is _Null and out is None:
            shape = 1
        for p in params[1:]:
            if not isinstance(p, numeric_types):
                raise TypeError("Distribution parameters must all have the same type, but got "
                                "both %s and %s." % (type(params[0]), type(p)))
        kwargs.update(zip(names, params))
        return getattr(_internal, random)(shape=shape, dtype=dtype, ctx=ctx, out=out, **kwargs)
    raise ValueError("Distribution parameters must be either NDArray or numbers, but got %s."
                     % type(params[0]))


def uniform(low=0, high=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from a uniform distribution on [low, high).

    low, high: numbers, or NDArrays giving one distribution per element (then `shape` samples
    are drawn for each, and the result has shape low.shape + shape).
    shape: int or tuple, default 1 for number parameters. dtype: 'float16', 'float32'
    (default) or 'float64'. ctx: device for number parameters (default current context).

    >>> mx.nd.random.uniform(0, 1, shape=(2,))
    """
    return _random_helper("_random_uniform", "_sample_uniform",
                          ("low", "high"), [low, high], shape, dtype, ctx, out, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from a normal distribution with mean `loc` and standard deviation `scale`.

    Parameters as for :func:`uniform`.
    """
    return _random_helper("_random_normal", "_sample_normal",
                          ("loc", "scale"), [loc, scale], shape, dtype, ctx, out, kwargs)


def randn(*shape, **kwargs):
    """Samples of the given shape from a normal distribution (loc=0, scale=1 by default).

    >>> mx.nd.random.randn(2, 3)
    """
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    dtype = kwargs.pop("dtype", _Null)
    ctx = kwargs.pop("ctx", None)
    out = kwargs.pop("out", None)
    if not isinstance(loc, numeric_types) or not isinstance(scale, numeric_types):
        raise TypeError("randn takes number loc and scale")
    return _random_helper("_random_normal", "_sample_normal",
                          ("loc", "scale"), [loc, scale], shape or _Null, dtype, ctx, out,
                          kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from a Poisson distribution with rate `lam`."""
    return _random_helper("_random_poisson", "_sample_poisson",
                          ("lam",), [lam], shape, dtype, ctx, out, kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from an exponential distribution with scale `scale` (rate 1/scale)."""
    return _random_helper("_random_exponential", "_sample_exponential",
                          ("lam",), [1.0 / scale], shape, dtype, ctx, out, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from a gamma distribution with shape `alpha` and scale `beta`."""
    return _random_helper("_random_gamma", "_sample_gamma",
                          ("alpha", "beta"), [alpha, beta], shape, dtype, ctx, out, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from a negative binomial distribution (k failures, success probability p)."""
    return _random_helper("_random_negative_binomial",
                          "_sample_negative_binomial",
                          ("k", "p"), [k, p], shape, dtype, ctx, out, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, ctx=None, out=None,
                                  **kwargs):
    """Samples from a generalized negative binomial distribution (mean mu, dispersion alpha)."""
    return _random_helper("_random_generalized_negative_binomial",
                          "_sample_generalized_negative_binomial",
                          ("mu", "alpha"), [mu, alpha], shape, dtype, ctx, out, kwargs)


def multinomial(data, shape=_Null, get_prob=False, out=None, dtype="int32", **kwargs):
    """Samples category indices from the probability rows of `data` (last axis sums to 1)."""
    return _internal._sample_multinomial(data, shape=shape, get_prob=get_prob, out=out,
                                         dtype=dtype, **kwargs)


def shuffle(data, **kwargs):
    """A copy of `data` with its first axis randomly permuted."""
    return _internal._shuffle(data, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Random integers in [low, high)."""
    return _random_helper("_random_randint", None, ("low", "high"), [low, high],
                          shape, dtype, ctx, out, kwargs)
