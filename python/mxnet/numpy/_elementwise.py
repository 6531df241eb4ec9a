"""Element-wise mx.np functions: unary math, arithmetic with MXNet 1.9.1's result dtypes,
comparisons and clip."""
# pylint: disable=redefined-builtin,invalid-name

import numpy as _onp

from ..ndarray.ndarray import NDArray
from ..ndarray import op as _ndop, _internal as _ndi
from ._core import _SCALARS, _as_array, _cast, _finish, _invoke, _is_float, _nd, _result_type, array


def _unary(nd_fn, x, out=None):
    if isinstance(x, _SCALARS) and not isinstance(x, NDArray):
        x = array(x)
    x = _as_array(x)
    return _nd(nd_fn, x, out=out) if out is None else nd_fn(x, out=out)


def _make_unary(op_name, doc_name=None):
    def function(x, out=None, **kwargs):  # pylint: disable=unused-argument
        return _unary(getattr(_ndop, op_name), x, out)
    function.__name__ = doc_name or op_name
    function.__doc__ = 'Element-wise %s (numpy.%s).' % (doc_name or op_name,
                                                         doc_name or op_name)
    return function


exp = _make_unary('exp')


expm1 = _make_unary('expm1')


log = _make_unary('log')


log10 = _make_unary('log10')


log2 = _make_unary('log2')


log1p = _make_unary('log1p')


sqrt = _make_unary('sqrt')


cbrt = _make_unary('cbrt')


square = _make_unary('square')


reciprocal = _make_unary('reciprocal')


sign = _make_unary('sign')


sin = _make_unary('sin')


cos = _make_unary('cos')


tan = _make_unary('tan')


arcsin = _make_unary('arcsin')


arccos = _make_unary('arccos')


arctan = _make_unary('arctan')


sinh = _make_unary('sinh')


cosh = _make_unary('cosh')


tanh = _make_unary('tanh')


arcsinh = _make_unary('arcsinh')


arccosh = _make_unary('arccosh')


arctanh = _make_unary('arctanh')


degrees = _make_unary('degrees')


radians = _make_unary('radians')


floor = _make_unary('floor')


ceil = _make_unary('ceil')


trunc = _make_unary('trunc')


fix = _make_unary('fix')


rint = _make_unary('rint')


absolute = _make_unary('abs', 'absolute')


abs = absolute


negative = _make_unary('negative')


def logical_not(x, out=None):
    x = _as_array(x)
    return equal(x, 0, out=out)


def around(x, decimals=0, out=None):
    x = _as_array(x)
    if decimals == 0:
        return _unary(_ndop.round, x, out)
    scale = 10.0 ** decimals
    return true_divide(_nd(_ndop.round, x * scale), scale, out=out)


round = around


def _binary(x1, x2, out, nd_op, scalar_op, rscalar_op, true_div=False):
    """A broadcasting binary operator with MXNet 1.9.1's dtype rules."""
    x1_scalar = isinstance(x1, _SCALARS) and not isinstance(x1, NDArray)
    x2_scalar = isinstance(x2, _SCALARS) and not isinstance(x2, NDArray)
    if x1_scalar and x2_scalar:
        return array(_REF[nd_op](x1, x2))
    if not x1_scalar and not isinstance(x1, NDArray):
        x1 = array(x1)
    if not x2_scalar and not isinstance(x2, NDArray):
        x2 = array(x2)
    if x2_scalar or x1_scalar:
        arr, scalar = (x1, x2) if x2_scalar else (x2, x1)
        op_name = scalar_op if x2_scalar else rscalar_op
        arr = _as_array(arr)
        if true_div and not _is_float(arr.dtype):
            arr = _cast(arr, _onp.float32)
        res = _nd(getattr(_ndi, op_name), arr, scalar=float(scalar))
    else:
        x1 = _as_array(x1)
        x2 = _as_array(x2)
        dtype = _result_type(x1.dtype, x2.dtype)
        if true_div and not _is_float(dtype):
            dtype = _onp.dtype(_onp.float32)
        res = _nd(getattr(_ndop, nd_op), _cast(x1, dtype), _cast(x2, dtype))
    if out is not None:
        if out is x1 or out is x2 or res.shape == out.shape:
            NDArray.__setitem__(out, slice(None), res) if out.shape else out._sync_copyfrom(  # pylint: disable=protected-access,expression-not-assigned
                res.asnumpy())
            return out
        raise ValueError('non-broadcastable output operand with shape %s doesn\'t match the '
                         'broadcast shape %s' % (out.shape, res.shape))
    return res


_REF = {'broadcast_add': _onp.add, 'broadcast_sub': _onp.subtract,
        'broadcast_mul': _onp.multiply, 'broadcast_div': _onp.true_divide,
        'broadcast_mod': _onp.mod, 'broadcast_power': _onp.power,
        'broadcast_maximum': _onp.maximum, 'broadcast_minimum': _onp.minimum,
        'broadcast_hypot': _onp.hypot}


def add(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_add', '_plus_scalar', '_plus_scalar')


def subtract(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_sub', '_minus_scalar', '_rminus_scalar')


def multiply(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_mul', '_mul_scalar', '_mul_scalar')


def true_divide(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_div', '_div_scalar', '_rdiv_scalar', true_div=True)


divide = true_divide


def mod(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_mod', '_mod_scalar', '_rmod_scalar')


remainder = mod


def power(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_power', '_power_scalar', '_rpower_scalar')


def maximum(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_maximum', '_maximum_scalar', '_maximum_scalar')


def minimum(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_minimum', '_minimum_scalar', '_minimum_scalar')


def hypot(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
    return _binary(x1, x2, out, 'broadcast_hypot', '_hypot_scalar', '_hypot_scalar')


def _compare(x1, x2, out, op_name, reflected):
    """A broadcasting comparison (`_npi_<op_name>` / `_npi_<op_name>_scalar`): bool result.
    `reflected` is the comparison with the operands swapped (for scalar < array)."""
    x1_scalar = isinstance(x1, _SCALARS) and not isinstance(x1, NDArray)
    x2_scalar = isinstance(x2, _SCALARS) and not isinstance(x2, NDArray)
    if x1_scalar and x2_scalar:
        return array(getattr(_onp, op_name)(x1, x2))
    if x2_scalar or x1_scalar:
        arr, scalar, name = (x1, x2, op_name) if x2_scalar else (x2, x1, reflected)
        res = _invoke('_npi_%s_scalar' % name, [_as_array(arr)], scalar=float(scalar),
                      is_int=False)
    else:
        x1 = _as_array(x1)
        x2 = _as_array(x2)
        dtype = _result_type(x1.dtype, x2.dtype)
        res = _invoke('_npi_' + op_name, [_cast(x1, dtype), _cast(x2, dtype)])
    return _finish(res, out)


def equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'equal', 'equal')


def not_equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'not_equal', 'not_equal')


def greater(x1, x2, out=None):
    return _compare(x1, x2, out, 'greater', 'less')


def greater_equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'greater_equal', 'less_equal')


def less(x1, x2, out=None):
    return _compare(x1, x2, out, 'less', 'greater')


def less_equal(x1, x2, out=None):
    return _compare(x1, x2, out, 'less_equal', 'greater_equal')


def clip(a, a_min, a_max, out=None):
    a = _as_array(a)
    if a_min is None and a_max is None:
        raise ValueError('array_clip: must set either max or min')
    lo = -_onp.inf if a_min is None else float(a_min)
    hi = _onp.inf if a_max is None else float(a_max)
    res = _nd(_ndop.clip, a, a_min=lo, a_max=hi)
    return _finish(res, out)
