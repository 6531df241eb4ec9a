"""mx.np.ndarray and the NumPy-compatible array functions (MXNet 1.9.1's mx.np).

An `ndarray` is an NDArray (same handle, same engine, same autograd) with NumPy semantics:
0-d and zero-size shapes, NumPy indexing results, broadcasting binary operators with MXNet
1.9.1's result dtypes (mixed float/int -> the float type, true division of integers ->
float32, scalars never change the array's dtype), comparisons returning bool arrays, and
reductions over every axis returning 0-d arrays. The functions run the `_np_*`/`_npi_*`
operators (or, where MXNet 1.9.1 gives them the same semantics, the classic operators they
alias), so autograd and recorded graphs work as for mx.nd.
"""
# pylint: disable=redefined-builtin,invalid-name
import builtins as _builtins  # noqa: F401
import ctypes  # noqa: F401
import numbers  # noqa: F401

import numpy as _onp

# The functions live in modules by topic; this module gathers them under MXNet 1.9.1's name.
from ._core import (  # noqa: F401
    _HANDLES, _SCALARS, _wrap, _shallow, _invoke, _nd, _ctx, _as_array, _to_shape, _is_float,
    _result_type, _cast, array, asarray, _dtype_or_default, empty, zeros, ones, full,
    zeros_like, ones_like, empty_like, full_like, arange, linspace, eye, identity, copy, shape,
    size, ndim, _finish, reshape, broadcast_to)
from ._elementwise import (  # noqa: F401
    _unary, _make_unary, exp, expm1, log, log10, log2, log1p, sqrt, cbrt, square, reciprocal,
    sign, sin, cos, tan, arcsin, arccos, arctan, sinh, cosh, tanh, arcsinh, arccosh, arctanh,
    degrees, radians, floor, ceil, trunc, fix, rint, absolute, abs, negative, logical_not,
    around, round, _binary, _REF, add, subtract, multiply, true_divide, divide, mod, remainder,
    power, maximum, minimum, hypot, _compare, equal, not_equal, greater, greater_equal, less,
    less_equal, clip)
from ._reduction import (  # noqa: F401
    _axis_param, _reduce, sum, mean, prod, max, min, amax, amin, var, std, _arg_reduce, argmax,
    argmin, _as_bool_reduce, cumsum)
from ._manipulation import (  # noqa: F401
    ravel, transpose, swapaxes, expand_dims, squeeze, concatenate, stack, split, where, sort,
    argsort, unique, take_along_first_axis, take)
from ._products import (  # noqa: F401
    dot, matmul, tensordot)
from ._ndarray import (  # noqa: F401
    ndarray, _shallow_detach, _numpy_result_shape, _host_key, _has_bool_mask, _is_advanced,
    _getitem, _setitem)
from .routines import may_share_memory  # noqa: F401
# What the module imported before its split, still importable from here.
from ..base import _LIB, check_call, op_handle, NDArrayHandle  # noqa: F401
from ..context import current_context  # noqa: F401
from ..ndarray.ndarray import NDArray  # noqa: F401
from ..ndarray import op as _ndop, _internal as _ndi  # noqa: F401
from ..ndarray._invoke import imperative_invoke  # noqa: F401
from .._enums import dtype_str  # noqa: F401
from ..ndarray.register import param_str  # noqa: F401
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array as native_array  # noqa: E402,F401
from builtins import slice as py_slice  # noqa: F401
from ..autograd import is_recording  # noqa: F401
from ..base import (c_array, c_array_buf, integer_types, numeric_types, mx_real_t,  # noqa: F401
                    mx_uint)
from ..context import Context  # noqa: F401
from ..ndarray.ndarray import (from_numpy, get_indexing_dispatch_code,  # noqa: F401
                               get_oshape_of_gather_nd_op, indexing_key_expand_implicit_axes)
from ..util import set_module, wrap_np_unary_func, wrap_np_binary_func  # noqa: F401

__all__ = [
    'ndarray', 'array', 'asarray', 'zeros', 'ones', 'empty', 'full', 'zeros_like', 'ones_like',
    'empty_like', 'full_like', 'arange', 'linspace', 'eye', 'identity',
    'add', 'subtract', 'multiply', 'divide', 'true_divide', 'mod', 'remainder', 'power',
    'maximum', 'minimum', 'hypot', 'equal', 'not_equal', 'greater', 'greater_equal', 'less',
    'less_equal', 'negative', 'abs', 'absolute', 'exp', 'expm1', 'log', 'log10', 'log2', 'log1p',
    'sqrt', 'cbrt', 'square', 'reciprocal', 'sign', 'sin', 'cos', 'tan', 'arcsin', 'arccos',
    'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'degrees', 'radians',
    'floor', 'ceil', 'trunc', 'fix', 'rint', 'sum', 'mean', 'max', 'min', 'amax', 'amin', 'prod',
    'std', 'var', 'argmax', 'argmin', 'dot', 'matmul', 'tensordot', 'reshape', 'transpose',
    'swapaxes', 'expand_dims', 'squeeze', 'concatenate', 'stack', 'split', 'where', 'clip',
    'cumsum', 'sort', 'argsort', 'unique', 'ravel', 'broadcast_to', 'copy', 'shape', 'size',
    'ndim', 'take', 'logical_not', 'around', 'round', 'float16', 'float32', 'float64', 'int8', 'uint8',
    'int32', 'int64', 'bool_', 'pi', 'e', 'inf', 'nan', 'newaxis', 'may_share_memory']

float16 = _onp.float16
float32 = _onp.float32
float64 = _onp.float64
int8 = _onp.int8
uint8 = _onp.uint8
int32 = _onp.int32
int64 = _onp.int64
bool_ = _onp.bool_
pi = _onp.pi
e = _onp.e
inf = _onp.inf
nan = _onp.nan
newaxis = None


# MXNet 1.9.1's multiarray module holds every mx.np function. The ones written in the modules
# below (which build on those above) are found here too.
from .function_base import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
from .routines import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
from .fallback import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
