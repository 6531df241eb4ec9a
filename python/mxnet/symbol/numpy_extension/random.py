"""mx.sym.npx.random: bernoulli, normal_n and uniform_n for Symbols."""
import numpy as _onp

from ..symbol import Symbol
from .. import op as _op
from .. import random as _sym_random
from ..numpy import less, add, multiply, subtract, random as _np_random
from ..numpy import _internal

__all__ = ['bernoulli', 'normal_n', 'uniform_n']


def _batched(base, batch_shape):
    """A Symbol of shape batch_shape + base.shape (values unspecified)."""
    for d in reversed(tuple(batch_shape or ())):
        base = _op.broadcast_axis(_op.expand_dims(base, axis=0), axis=0, size=int(d))
    return base


def _param_base(params):
    symbols = [p for p in params if isinstance(p, Symbol)]
    if not symbols:
        return None
    base = _op.zeros_like(symbols[0])
    for p in symbols[1:]:
        base = _op.broadcast_add(base, _op.zeros_like(p))
    return base


def _unit(kind, params, batch_shape):
    return getattr(_sym_random, kind + '_like')(_batched(_param_base(params), batch_shape))


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Samples of 1 (with probability prob, or sigmoid(logit)) and 0, of `dtype` (default
    float32); exactly one of prob and logit is given."""
    if (prob is None) == (logit is None):
        raise ValueError('bernoulli: expected exactly one of prob and logit')
    if logit is not None:
        prob = _op.sigmoid(logit) if isinstance(logit, Symbol) else \
            1.0 / (1.0 + _onp.exp(-float(logit)))
    if size is None and isinstance(prob, Symbol):
        draws = _sym_random.uniform_like(prob)
    else:
        draws = _np_random.uniform(0.0, 1.0, size=size)
    hits = less(draws, prob)
    return _internal._npi_cast(hits, dtype='float32' if dtype is None else
                               _onp.dtype(dtype).name)


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """Samples of N(loc, scale**2) of shape batch_shape + broadcast(loc, scale).shape."""
    if _param_base((loc, scale)) is None:
        return _np_random.normal(loc, scale, size=tuple(batch_shape or ()), dtype=dtype)
    return add(loc, multiply(scale, _unit('normal', (loc, scale), batch_shape)))


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """Samples of U[low, high) of shape batch_shape + broadcast(low, high).shape."""
    if _param_base((low, high)) is None:
        return _np_random.uniform(low, high, size=tuple(batch_shape or ()), dtype=dtype)
    return add(low, multiply(subtract(high, low), _unit('uniform', (low, high), batch_shape)))
