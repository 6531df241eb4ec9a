"""mx.sym.np.random: the samplers of mx.np.random for Symbols. `size` is the output shape;
parameters may be numbers or Symbols (broadcast against the samples). Without `size`, samples
take the broadcast shape of the Symbol parameters (or are one 0-d sample). Distributions other
than uniform, normal, gamma and randint are transforms of uniform draws, as in mx.np.random."""
# pylint: disable=redefined-builtin,invalid-name
import numbers

import numpy as _onp

from .. import op as _op
from .. import _internal as _si
from .. import random as _sym_random
from .. import linalg as _sym_linalg
from ..symbol import Symbol
from ._symbol import add, subtract, multiply, true_divide, power as _power, exp, log, sqrt, negative

__all__ = ['uniform', 'normal', 'randint', 'rand', 'choice', 'shuffle', 'exponential', 'gamma',
           'chisquare', 'beta', 'lognormal', 'logistic', 'gumbel', 'weibull', 'pareto',
           'rayleigh', 'power', 'multivariate_normal']


def _shape(size):
    if size is None:
        return ()
    return (int(size),) if isinstance(size, numbers.Integral) else tuple(int(d) for d in size)


def _dtype(dtype):
    return 'float32' if dtype is None else _onp.dtype(dtype).name


def _like(params):
    """A Symbol of the broadcast shape of the Symbol parameters, or None."""
    symbols = [p for p in params if isinstance(p, Symbol)]
    if not symbols:
        return None
    base = _op.zeros_like(symbols[0])
    for p in symbols[1:]:
        base = _op.broadcast_add(base, _op.zeros_like(p))
    return base


def _unit(kind, size, params, dtype=None):
    """Standard uniform ('uniform') or normal ('normal') samples of the output shape."""
    base = _like(params) if size is None else None
    if base is not None:
        return getattr(_sym_random, '%s_like' % kind)(base)
    if kind == 'uniform':
        return _si._random_uniform(low=0.0, high=1.0, shape=_shape(size), dtype=_dtype(dtype))
    return _si._random_normal(loc=0.0, scale=1.0, shape=_shape(size), dtype=_dtype(dtype))


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Samples of U[low, high)."""
    if not isinstance(low, Symbol) and not isinstance(high, Symbol):
        return _si._random_uniform(low=float(low), high=float(high), shape=_shape(size),
                                   dtype=_dtype(dtype))
    return add(low, multiply(subtract(high, low), _unit('uniform', size, (low, high), dtype)))


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Samples of N(loc, scale**2)."""
    if not isinstance(loc, Symbol) and not isinstance(scale, Symbol):
        return _si._random_normal(loc=float(loc), scale=float(scale), shape=_shape(size),
                                  dtype=_dtype(dtype))
    return add(loc, multiply(scale, _unit('normal', size, (loc, scale), dtype)))


def rand(*size, **kwargs):
    return uniform(0.0, 1.0, size=size, **kwargs)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Integers drawn uniformly from [low, high) (int64 by default)."""
    if high is None:
        low, high = 0, low
    dtype = 'int64' if dtype is None else _onp.dtype(dtype).name
    res = _si._random_randint(low=int(low), high=int(high), shape=_shape(size),
                              dtype='int32' if dtype == 'int32' else 'int64')
    return res if dtype in ('int32', 'int64') else _op.Cast(res, dtype=dtype)


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Samples from arange(a) (an int) or the 1-D Symbol a, uniformly or with probabilities p
    (with replacement)."""
    if not replace:
        raise ValueError('mx.sym.np.random.choice: sampling without replacement needs the '
                         'population size, unknown for Symbols; expected replace=True')
    if p is None:
        if isinstance(a, Symbol):
            unit = _unit('uniform', size, ()) if size is not None else \
                _si._random_uniform(low=0.0, high=1.0, shape=())
            count = _op.sum(_op.ones_like(a))
            idx = _op.floor(_op.broadcast_mul(unit, count))
            return _op.take(a, idx)
        return randint(0, int(a), size=size)
    if not isinstance(p, Symbol):
        raise ValueError('mx.sym.np.random.choice: expected p as a Symbol, got %s' % type(p))
    idx = _op.Cast(_si._sample_multinomial(p, shape=_shape(size), dtype='int32'), dtype='int64')
    return _op.take(a, idx) if isinstance(a, Symbol) else idx


def shuffle(x):
    """A copy of x shuffled along its first axis."""
    return _si._shuffle(x)


def _div(x1, x2):
    if isinstance(x1, Symbol) or isinstance(x2, Symbol):
        return true_divide(x1, x2)
    return float(x1) / float(x2)


def _open_unit(size, params):
    """Uniform samples in (0, 1), so that logs stay finite."""
    return _unit('uniform', size, params) * (1.0 - 2e-7) + 1e-7


def exponential(scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    return multiply(negative(log(_open_unit(size, (scale,)))), scale)


def gamma(shape, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument,redefined-outer-name
    """Samples of Gamma(shape, scale) (numbers for shape and scale)."""
    return _si._random_gamma(alpha=float(shape), beta=float(scale), shape=_shape(size),
                             dtype=_dtype(dtype))


def chisquare(df, size=None, dtype=None, ctx=None):  # pylint: disable=unused-argument
    return gamma(float(df) / 2.0, 2.0, size=size, dtype=dtype)


def beta(a, b, size=None, dtype=None, ctx=None):  # pylint: disable=unused-argument
    x = gamma(a, 1.0, size=size, dtype=dtype)
    y = gamma(b, 1.0, size=size, dtype=dtype)
    return x / (x + y)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    return exp(normal(mean, sigma, size=size, dtype=dtype))


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    u = _open_unit(size, (loc, scale))
    return add(loc, multiply(scale, log(u / (1.0 - u))))


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    u = _open_unit(size, (loc, scale))
    return subtract(loc, multiply(scale, log(negative(log(u)))))


def weibull(a, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    u = _open_unit(size, (a,))
    return _power(negative(log(u)), _div(1.0, a))


def pareto(a, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    u = _open_unit(size, (a,))
    return _power(u, _div(-1.0, a)) - 1.0


def rayleigh(scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    u = _open_unit(size, (scale,))
    return multiply(scale, sqrt(-2.0 * log(u)))


def power(a, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    u = _open_unit(size, (a,))
    return _power(u, _div(1.0, a))


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):  # pylint: disable=unused-argument
    """Samples of N(mean, cov) for Symbols mean (k,) and cov (k, k): mean + z L^T with
    cov = L L^T, z standard normal of shape size + (k,)."""
    z = _sym_random.normal_like(mean)
    for d in reversed(_shape(size)):
        z = _op.broadcast_axis(_op.expand_dims(z, axis=0), axis=0, size=d)
        z = _sym_random.normal_like(z)
    lower_t = _op.transpose(_sym_linalg.potrf(cov))
    return _op.broadcast_add(_op.dot(z, lower_t), mean)

