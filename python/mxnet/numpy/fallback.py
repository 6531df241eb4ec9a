"""mx.np functions that MXNet 1.9.1 does not run as operators but hands to official NumPy.

Each function copies its mx.np array arguments to the host, runs the NumPy function of the same
name, and copies array results back as mx.np arrays (on the context of the first array
argument). They are not recorded by autograd. NumPy 2 dropped a few of 1.9.1's names
(the financial functions, `msort`, `trapz`, `in1d`); those are written here from their
documented definitions.
"""
# pylint: disable=invalid-name
import functools

import numpy as _onp

from ..context import current_context
from .._enums import _DTYPE_NP_TO_MX
from ..ndarray.ndarray import NDArray
from ._core import array

# Official NumPy functions mx.np 1.9.1 exposes through its fallback (the others of its fallback
# list are implemented as operators in function_base).
_NUMPY_NAMES = [
    'apply_along_axis', 'apply_over_axes', 'argpartition', 'array_equiv', 'choose', 'compress',
    'corrcoef', 'correlate', 'cov', 'digitize', 'divmod', 'extract', 'frexp', 'histogram2d',
    'histogram_bin_edges', 'histogramdd', 'i0', 'intersect1d', 'isin', 'ix_', 'lexsort',
    'min_scalar_type', 'modf', 'nanargmax', 'nanargmin', 'nancumprod', 'nancumsum', 'nanmax',
    'nanmedian', 'nanmin', 'nanpercentile', 'nanprod', 'nanquantile', 'packbits', 'partition',
    'piecewise', 'poly', 'polyadd', 'polydiv', 'polyfit', 'polyint', 'polymul', 'polysub', 'real',
    'rollaxis', 'roots', 'select', 'setdiff1d', 'setxor1d', 'spacing', 'tril_indices_from',
    'trim_zeros', 'triu_indices_from', 'union1d', 'unpackbits', 'unwrap', 'vander']

# numpy.linalg functions mx.np.linalg 1.9.1 exposes through its fallback.
_LINALG_NAMES = ['cond', 'matrix_rank']


def _to_host(x):
    if isinstance(x, NDArray):
        return x.asnumpy()
    if isinstance(x, list):
        return [_to_host(v) for v in x]
    if isinstance(x, tuple) and not hasattr(x, '_fields'):
        return tuple(_to_host(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_host(v) for k, v in x.items()}
    return x


def _first_context(args):
    for x in args:
        if isinstance(x, NDArray):
            return x.context
        if isinstance(x, (list, tuple)):
            ctx = _first_context(x)
            if ctx is not None:
                return ctx
    return None


def _to_device(x, ctx):
    """Array results become mx.np arrays; dtypes MXNet cannot hold (complex, object) stay
    NumPy arrays, scalars stay scalars."""
    if isinstance(x, _onp.ndarray):
        if x.dtype.type in _DTYPE_NP_TO_MX:
            return array(x, dtype=x.dtype, ctx=ctx)
        return x
    if isinstance(x, list):
        return [_to_device(v, ctx) for v in x]
    if isinstance(x, tuple) and not hasattr(x, '_fields'):
        return tuple(_to_device(v, ctx) for v in x)
    return x


def _run_on_host(func, name):
    """`func` (a NumPy function) taking and returning mx.np arrays."""
    @functools.wraps(func)
    def fallback(*args, **kwargs):
        ctx = _first_context(list(args) + list(kwargs.values())) or current_context()
        res = func(*_to_host(args), **_to_host(kwargs))
        return _to_device(res, ctx)
    fallback.__name__ = name
    fallback.__qualname__ = name
    fallback.__doc__ = ('mx.np.%s: runs numpy.%s on host copies of the arguments and returns '
                        'mx.np arrays (not recorded by autograd).\n\n%s'
                        % (name, name, func.__doc__ or ''))
    return fallback


def _npv(rate, values):
    """Net present value: sum(values[t] / (1 + rate)**t) over t = 0, 1, ..."""
    values = _onp.atleast_2d(values)
    timestep = _onp.arange(values.shape[1])
    res = (values / (1 + _onp.asarray(rate)[..., None]) ** timestep).sum(axis=1)
    return res[0] if _onp.ndim(rate) == 0 else res


_WHEN = {'end': 0, 'begin': 1, 0: 0, 1: 1}


def _when(when):
    if isinstance(when, (str, int)):
        return _WHEN[when]
    return _onp.asarray([_WHEN[w] for w in when])


def _fv(rate, nper, pmt, pv, when='end'):
    """Future value of `pv` now and payments `pmt` per period over `nper` periods."""
    when = _when(when)
    rate, nper, pmt, pv, when = _onp.broadcast_arrays(*map(_onp.asarray,
                                                          (rate, nper, pmt, pv, when)))
    rate = rate.astype(float)
    growth = (1 + rate) ** nper
    with _onp.errstate(divide='ignore', invalid='ignore'):
        annuity = _onp.where(rate == 0, nper, (1 + rate * when) / _onp.where(rate == 0, 1, rate)
                             * (growth - 1))
    return -(pv * growth + pmt * annuity)


def _pmt(rate, nper, pv, fv=0, when='end'):
    when = _when(when)
    rate, nper, pv, fv, when = _onp.broadcast_arrays(*map(_onp.asarray,
                                                         (rate, nper, pv, fv, when)))
    rate = rate.astype(float)
    growth = (1 + rate) ** nper
    safe = _onp.where(rate == 0, 1, rate)
    annuity = _onp.where(rate == 0, nper, (1 + rate * when) * (growth - 1) / safe)
    return -(fv + pv * growth) / annuity


def _pv(rate, nper, pmt, fv=0, when='end'):
    """Present value: the pv solving fv + pv*(1+rate)**nper + pmt*annuity = 0."""
    when = _when(when)
    rate, nper, pmt, fv, when = _onp.broadcast_arrays(*map(_onp.asarray,
                                                          (rate, nper, pmt, fv, when)))
    rate = rate.astype(float)
    growth = (1 + rate) ** nper
    safe = _onp.where(rate == 0, 1, rate)
    annuity = _onp.where(rate == 0, nper, (1 + rate * when) * (growth - 1) / safe)
    res = -(fv + pmt * annuity) / growth
    return res[()] if res.ndim == 0 else res


def _ppmt(rate, per, nper, pv, fv=0, when='end'):
    """Principal part of the payment in period `per` (the payment less its interest)."""
    total = _pmt(rate, nper, pv, fv, when)
    balance = _fv(rate, _onp.asarray(per) - 1, total, pv, when)
    interest = balance * rate
    # Paid at the start of a period, the first payment carries no interest and the others
    # are discounted by one period.
    begin = _onp.asarray(_when(when)) == 1
    per = _onp.asarray(per)
    interest = _onp.where(begin, _onp.where(per == 1, 0, interest / (1 + _onp.asarray(rate))),
                          interest)
    res = total - interest
    return res[()] if _onp.ndim(res) == 0 else res


def _rate(nper, pmt, pv, fv, when='end', guess=None, tol=None, maxiter=100):
    """Interest rate per period, by Newton's method on fv(rate) - fv = 0."""
    rate = 0.1 if guess is None else guess
    tol = 1e-6 if tol is None else tol
    for _ in range(maxiter):
        step = 1e-7
        value = _fv(rate, nper, pmt, pv, when) - fv
        slope = (_fv(rate + step, nper, pmt, pv, when) - fv - value) / step
        new = rate - value / slope
        if _onp.all(_onp.abs(new - rate) < tol):
            return new[()] if _onp.ndim(new) == 0 else new
        rate = new
    return _onp.nan


def _mirr(values, finance_rate, reinvest_rate):
    """Modified internal rate of return of the cash flows `values`."""
    values = _onp.asarray(values, dtype=float)
    n = values.size
    positive, negative = values > 0, values < 0
    if not (positive.any() and negative.any()):
        return _onp.nan
    numer = _onp.abs(_npv(reinvest_rate, values * positive))
    denom = _onp.abs(_npv(finance_rate, values * negative))
    return (numer / denom) ** (1.0 / (n - 1)) * (1 + reinvest_rate) - 1


def _msort(a):
    """A copy of `a` sorted along its first axis."""
    return _onp.sort(a, axis=0)


def _trapz(y, x=None, dx=1.0, axis=-1):
    """Integral of y(x) along `axis` by the trapezoidal rule."""
    return _onp.trapezoid(y, x=x, dx=dx, axis=axis)


def _in1d(ar1, ar2, assume_unique=False, invert=False):
    """Whether each element of the flattened ar1 is in ar2 (a 1-D bool array)."""
    return _onp.isin(_onp.ravel(ar1), ar2, assume_unique=assume_unique, invert=invert)


_WRITTEN_HERE = {'npv': _npv, 'pv': _pv, 'ppmt': _ppmt, 'rate': _rate, 'mirr': _mirr,
                 'msort': _msort, 'trapz': _trapz, 'in1d': _in1d}

__all__ = []
for _name in _NUMPY_NAMES:
    globals()[_name] = _run_on_host(getattr(_onp, _name), _name)
    __all__.append(_name)
for _name, _func in _WRITTEN_HERE.items():
    globals()[_name] = _run_on_host(getattr(_onp, _name, _func), _name)
    __all__.append(_name)

linalg_fallbacks = {name: _run_on_host(getattr(_onp.linalg, name), name)
                    for name in _LINALG_NAMES}
