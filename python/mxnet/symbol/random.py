"""Random samplers for symbols: `mx.sym.random.uniform(low, high, shape)`, ...

Number parameters use the `_random_<dist>` operators; Symbol parameters draw `shape` samples
per element with `_sample_<dist>`. The `<dist>_like` operators are added here at import.
"""
from ..base import _Null, numeric_types
from . import _internal
from .symbol import Symbol

__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial",
           "negative_binomial", "generalized_negative_binomial", "shuffle", "randint"]


def _random_helper(random, sampler, names, params, shape, dtype, kwargs):
    if isinstance(params[0], Symbol):
        for p in params[1:]:
            if not isinstance(p, Symbol):
                raise TypeError("Distribution parameters must all have the same type, but got "
                                "both %s and %s." % (type(params[0]), type(p)))
        if sampler is None:
            raise TypeError("this distribution does not take Symbol parameters")
        return getattr(_internal, sampler)(*params, shape=shape, dtype=dtype, **kwargs)
    if isinstance(params[0], numeric_types):
        for p in params[1:]:
            if not isinstance(p, numeric_types):
                raise TypeError("Distribution parameters must all have the same type, but got "
                                "both %s and %s." % (type(params[0]), type(p)))
        kwargs.update(zip(names, params))
        return getattr(_internal, random)(shape=shape, dtype=dtype, **kwargs)
    raise ValueError("Distribution parameters must be either Symbol or numbers, but got %s."
                     % type(params[0]))


def uniform(low=0, high=1, shape=_Null, dtype=_Null, **kwargs):
    return _random_helper("_random_uniform", "_sample_uniform", ("low", "high"), [low, high],
                          shape, dtype, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, **kwargs):
    return _random_helper("_random_normal", "_sample_normal", ("loc", "scale"), [loc, scale],
                          shape, dtype, kwargs)


def randn(*shape, **kwargs):
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    return normal(loc, scale, shape or _Null, **kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, **kwargs):
    return _random_helper("_random_poisson", "_sample_poisson", ("lam",), [lam], shape, dtype,
                          kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, **kwargs):
    if isinstance(scale, Symbol):
        return _internal._sample_exponential(1.0 / scale, shape=shape, dtype=dtype, **kwargs)
    return _random_helper("_random_exponential", None, ("lam",), [1.0 / scale], shape, dtype,
                          kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, **kwargs):
    return _random_helper("_random_gamma", "_sample_gamma", ("alpha", "beta"), [alpha, beta],
                          shape, dtype, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, **kwargs):
    return _random_helper("_random_negative_binomial", "_sample_negative_binomial",
                          ("k", "p"), [k, p], shape, dtype, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, **kwargs):
    return _random_helper("_random_generalized_negative_binomial",
                          "_sample_generalized_negative_binomial", ("mu", "alpha"), [mu, alpha],
                          shape, dtype, kwargs)


def multinomial(data, shape=_Null, get_prob=False, dtype="int32", **kwargs):
    return _internal._sample_multinomial(data, shape, get_prob, dtype=dtype, **kwargs)


def shuffle(data, **kwargs):
    return _internal._shuffle(data, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, **kwargs):
    return _random_helper("_random_randint", None, ("low", "high"), [low, high], shape, dtype,
                          kwargs)
