"""mx.np.random: samplers returning mx.np.ndarray (seeded with mx.random.seed / npx.random.seed)."""
# pylint: disable=redefined-builtin
import numbers

import numpy as _onp

from ..context import current_context
from ..ndarray import _internal as _ndi
from ..ndarray.ndarray import NDArray
from .. import random as _mx_random
from . import multiarray as _mnp
from .multiarray import _nd, _as_array, _to_shape, array, take_along_first_axis
from .linalg import cholesky

__all__ = ['uniform', 'normal', 'randn', 'rand', 'randint', 'choice', 'shuffle', 'seed']


def seed(seed, ctx='all'):  # pylint: disable=redefined-outer-name
    """Seed the random number generators (mx.random.seed)."""
    _mx_random.seed(seed, ctx=ctx)


def _ctx(ctx):
    return current_context() if ctx is None else ctx


def _params_are_arrays(*values):
    return any(isinstance(v, NDArray) for v in values)


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from U[low, high); size=None gives one sample as a 0-d array."""
    dtype = 'float32' if dtype is None else _onp.dtype(dtype).name
    if _params_are_arrays(low, high):
        low = _as_array(low)
        high = _as_array(high)
        shape = _onp.broadcast_shapes(low.shape, high.shape) if size is None else _to_shape(size)
        unit = _nd(_ndi._random_uniform, low=0.0, high=1.0, shape=shape, dtype=dtype,
                   ctx=_ctx(ctx))
        res = low + (high - low) * unit
    else:
        res = _nd(_ndi._random_uniform, low=float(low), high=float(high),
                  shape=_to_shape(size), dtype=dtype, ctx=_ctx(ctx))
    if out is not None:
        out[...] = res
        return out
    return res


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from N(loc, scale**2); size=None gives one sample as a 0-d array."""
    dtype = 'float32' if dtype is None else _onp.dtype(dtype).name
    if _params_are_arrays(loc, scale):
        loc = _as_array(loc)
        scale = _as_array(scale)
        shape = _onp.broadcast_shapes(loc.shape, scale.shape) if size is None else _to_shape(size)
        unit = _nd(_ndi._random_normal, loc=0.0, scale=1.0, shape=shape, dtype=dtype,
                   ctx=_ctx(ctx))
        res = loc + scale * unit
    else:
        res = _nd(_ndi._random_normal, loc=float(loc), scale=float(scale),
                  shape=_to_shape(size), dtype=dtype, ctx=_ctx(ctx))
    if out is not None:
        out[...] = res
        return out
    return res


def randn(*size, **kwargs):
    return normal(0.0, 1.0, size=size, **kwargs)


def rand(*size, **kwargs):
    return uniform(0.0, 1.0, size=size, **kwargs)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Integers drawn uniformly from [low, high) (int64 by default, as MXNet 1.9.1)."""
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError('randint: low >= high (low=%s, high=%s)' % (low, high))
    dtype = 'int64' if dtype is None else _onp.dtype(dtype).name
    res = _nd(_ndi._random_randint, low=int(low), high=int(high), shape=_to_shape(size),
              dtype='int64' if dtype not in ('int32',) else 'int32', ctx=_ctx(ctx))
    if _onp.dtype(res.dtype).name != dtype:
        res = res.astype(dtype)
    if out is not None:
        out[...] = res
        return out
    return res


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """Samples from a 1-D array (or arange(a)), uniformly or with probabilities p."""
    if isinstance(a, numbers.Integral):
        n = int(a)
        population = None
    else:
        population = _as_array(a)
        if population.ndim != 1:
            raise ValueError('a must be 1-dimensional')
        n = population.shape[0]
    shape = _to_shape(size)
    count = int(_onp.prod(shape)) if shape else 1
    if p is None and replace:
        idx = randint(0, n, size=shape, ctx=ctx)
    else:
        # Draw the host generator's seed from mx's generator so mx.random.seed governs it.
        state = int(randint(0, 2 ** 31 - 1, size=()).item())
        probs = None if p is None else _onp.asarray(
            p.asnumpy() if isinstance(p, NDArray) else p, dtype=_onp.float64)
        picks = _onp.random.RandomState(state).choice(n, size=count, replace=replace, p=probs)
        idx = array(picks.reshape(shape), dtype='int64', ctx=ctx)
    res = idx if population is None else take_along_first_axis(population, idx)
    if out is not None:
        out[...] = res
        return out
    return res


def shuffle(x):
    """Shuffle x in place along its first axis."""
    res = _nd(_ndi._shuffle, x)
    x[...] = res


# ---- more distributions: classic samplers, or transforms of uniform/normal draws (so the
# results are differentiable w.r.t. array parameters and governed by mx.random.seed)


def _finish_sample(res, out):
    if out is not None:
        out[...] = res
        return out
    return res


def _shape_of(size, *params):
    if size is not None:
        return _to_shape(size)
    shapes = [p.shape for p in params if isinstance(p, NDArray)]
    return _onp.broadcast_shapes(*shapes) if shapes else ()


def _open_uniform(shape, ctx):
    """Uniform samples in (0, 1) (never exactly 0, so logs stay finite)."""
    u = uniform(0.0, 1.0, size=shape, ctx=ctx)
    return u * (1.0 - 2e-7) + 1e-7


def exponential(scale=1.0, size=None, ctx=None, out=None):
    shape = _shape_of(size, scale)
    return _finish_sample(-_mnp.log(_open_uniform(shape, ctx)) * scale, out)


def gamma(shape, scale=1.0, size=None, ctx=None, out=None, dtype=None):  # pylint: disable=redefined-outer-name
    if isinstance(shape, NDArray) or isinstance(scale, NDArray):
        raise NotImplementedError('np.random.gamma: array-valued shape/scale are not supported')
    res = _nd(_ndi._random_gamma, alpha=float(shape), beta=float(scale),
              shape=_to_shape(size), dtype='float32' if dtype is None else
              _onp.dtype(dtype).name, ctx=_ctx(ctx))
    return _finish_sample(res, out)


def chisquare(df, size=None, ctx=None, out=None):
    return gamma(float(df) / 2.0, 2.0, size=size, ctx=ctx, out=out)


def beta(a, b, size=None, ctx=None, out=None):
    x = gamma(a, 1.0, size=size, ctx=ctx)
    y = gamma(b, 1.0, size=size, ctx=ctx)
    return _finish_sample(x / (x + y), out)


def lognormal(mean=0.0, sigma=1.0, size=None, ctx=None, out=None):
    return _finish_sample(_mnp.exp(normal(mean, sigma, size=size, ctx=ctx)), out)


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    u = _open_uniform(_shape_of(size, loc, scale), ctx)
    return _finish_sample(loc + scale * _mnp.log(u / (1.0 - u)), out)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    u = _open_uniform(_shape_of(size, loc, scale), ctx)
    return _finish_sample(loc - scale * _mnp.log(-_mnp.log(u)), out)


def weibull(a, size=None, ctx=None, out=None):
    u = _open_uniform(_shape_of(size, a), ctx)
    return _finish_sample((-_mnp.log(u)) ** (1.0 / a), out)


def pareto(a, size=None, ctx=None, out=None):
    u = _open_uniform(_shape_of(size, a), ctx)
    return _finish_sample(u ** (-1.0 / a) - 1.0, out)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    u = _open_uniform(_shape_of(size, scale), ctx)
    return _finish_sample(scale * _mnp.sqrt(-2.0 * _mnp.log(u)), out)


def power(a, size=None, ctx=None, out=None):
    u = _open_uniform(_shape_of(size, a), ctx)
    return _finish_sample(u ** (1.0 / a), out)


def multinomial(n, pvals, size=None):
    """Counts of n draws over len(pvals) categories (host sampler seeded from mx's)."""
    state = int(randint(0, 2 ** 31 - 1, size=()).item())
    pv = pvals.asnumpy() if isinstance(pvals, NDArray) else _onp.asarray(pvals)
    res = _onp.random.RandomState(state).multinomial(int(n), pv, size=size)
    return array(res, dtype='int64')


__all__ += ['exponential', 'gamma', 'chisquare', 'beta', 'lognormal', 'logistic', 'gumbel',
            'weibull', 'pareto', 'rayleigh', 'power', 'multinomial']


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):  # pylint: disable=unused-argument
    """Samples of N(mean, cov): mean + L z with cov = L L^T (Cholesky), z standard normal."""
    mean = _as_array(mean)
    cov = _as_array(cov)
    shape = _to_shape(size) + mean.shape
    z = normal(0.0, 1.0, size=shape, dtype=mean.dtype)
    lower = cholesky(cov)
    return mean + _mnp.matmul(z, _mnp.transpose(lower))


__all__ += ['multivariate_normal']
