"""mx.npx.random: seeding (npx.random.seed = mx.random.seed) and the samplers MXNet adds to
NumPy's: bernoulli, and normal_n / uniform_n (a batch of samples per parameter set)."""
import numpy as _onp

from ..numpy.random import seed, uniform, normal
from ..numpy.multiarray import _as_array, _to_shape, less, _cast, _nd
from ..ndarray import op as _ndop

__all__ = ['seed', 'bernoulli', 'normal_n', 'uniform_n']


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):
    """Samples of 1 (with probability `prob`, or sigmoid(`logit`)) and 0, of `dtype`
    (default float32); exactly one of prob and logit is given."""
    if (prob is None) == (logit is None):
        raise ValueError('bernoulli: expected exactly one of prob and logit, got %s'
                         % ('both' if prob is not None else 'neither'))
    if logit is not None:
        if hasattr(logit, 'shape'):
            prob = _nd(_ndop.sigmoid, _as_array(logit))
        else:
            prob = 1.0 / (1.0 + _onp.exp(-float(logit)))
    shape = getattr(prob, 'shape', ()) if size is None else _to_shape(size)
    draws = uniform(0.0, 1.0, size=shape, ctx=ctx)
    res = _cast(less(draws, prob), _onp.float32 if dtype is None else dtype)
    if out is not None:
        out[...] = res
        return out
    return res


def _param_shape(*params):
    return _onp.broadcast_shapes(*[getattr(p, 'shape', ()) for p in params])


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Samples of N(loc, scale**2) of shape batch_shape + broadcast(loc, scale).shape."""
    shape = _to_shape(batch_shape) + _param_shape(loc, scale)
    return normal(loc, scale, size=shape, dtype=dtype, ctx=ctx)


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Samples of U[low, high) of shape batch_shape + broadcast(low, high).shape."""
    shape = _to_shape(batch_shape) + _param_shape(low, high)
    return uniform(low, high, size=shape, dtype=dtype, ctx=ctx)
