"""NumPy's dispatch protocols for mx.np.ndarray (NEP 18 __array_function__, NEP 13
__array_ufunc__): official NumPy functions and ufuncs called on mx.np arrays run the mx.np
function of the same name; NumPy functions mx.np lacks run on host copies (a fallback, not
recorded by autograd) and return mx.np arrays."""
import functools

import numpy as _onp

from . import numpy as mx_np  # noqa: F401  (MXNet 1.9.1's module exposes it)

__all__ = ['with_array_function_protocol', 'with_array_ufunc_protocol']

# NumPy ufuncs and their mx.np counterparts, by name.
_NUMPY_ARRAY_UFUNC_LIST = [
    'abs', 'absolute', 'add', 'arccos', 'arccosh', 'arcsin', 'arcsinh', 'arctan', 'arctan2',
    'arctanh', 'bitwise_and', 'bitwise_not', 'bitwise_or', 'bitwise_xor', 'cbrt', 'ceil',
    'copysign', 'cos', 'cosh', 'deg2rad', 'degrees', 'divide', 'equal', 'exp', 'expm1', 'fabs',
    'fix', 'float_power', 'floor', 'greater', 'greater_equal', 'heaviside', 'hypot', 'invert',
    'isfinite', 'isinf', 'isnan', 'isneginf', 'isposinf', 'lcm', 'ldexp', 'less', 'less_equal',
    'log', 'log10', 'log1p', 'log2', 'logical_not', 'maximum', 'minimum', 'mod', 'multiply',
    'negative', 'not_equal', 'positive', 'power', 'rad2deg', 'radians', 'reciprocal', 'remainder',
    'rint', 'sign', 'signbit', 'sin', 'sinh', 'sqrt', 'square', 'subtract', 'tan', 'tanh',
    'true_divide', 'trunc']


def _function_dict():
    """{official NumPy function: mx.np function} for the functions mx.np implements itself."""
    from .numpy import multiarray, function_base, routines, linalg
    pairs = {}
    for module, onp_module in ((multiarray, _onp), (function_base, _onp), (routines, _onp),
                               (linalg, _onp.linalg)):
        for name in module.__all__:
            mx_func, onp_func = getattr(module, name, None), getattr(onp_module, name, None)
            if callable(mx_func) and callable(onp_func) and not isinstance(onp_func, type) \
                    and not isinstance(onp_func, _onp.ufunc):
                pairs[onp_func] = mx_func
    return pairs


def _ufunc_dict():
    from . import numpy as np_module
    return {name: getattr(np_module, name) for name in _NUMPY_ARRAY_UFUNC_LIST
            if hasattr(np_module, name)}


_FUNCTIONS = {}
_UFUNCS = {}


def array_function(arr, func, types, args, kwargs):
    """ndarray.__array_function__: the mx.np implementation of `func`, or NumPy's on host
    copies of the arguments."""
    from .numpy.multiarray import ndarray
    if not _FUNCTIONS:
        _FUNCTIONS.update(_function_dict())
    mx_func = _FUNCTIONS.get(func)
    if mx_func is not None:
        if not all(issubclass(t, ndarray) for t in types):
            return NotImplemented
        return mx_func(*args, **kwargs)
    from .autograd import is_recording
    if is_recording():
        raise ValueError('Falling back to NumPy operator %s with autograd active is not '
                         'supported. Please consider moving %s outside of the autograd '
                         'context.' % (func.__name__, func.__name__))
    from .numpy.fallback import _run_on_host
    return _run_on_host(func, func.__name__)(*args, **kwargs)


def array_ufunc(arr, ufunc, method, *inputs, **kwargs):
    """ndarray.__array_ufunc__: the mx.np function of the ufunc's name (plain calls only)."""
    if method != '__call__':
        return NotImplemented
    if not _UFUNCS:
        _UFUNCS.update(_ufunc_dict())
    mx_ufunc = _UFUNCS.get(ufunc.__name__)
    if mx_ufunc is None:
        raise ValueError('mxnet.numpy operator `%s` has not been registered in the '
                         '_NUMPY_ARRAY_UFUNC_LIST' % ufunc.__name__)
    return mx_ufunc(*inputs, **kwargs)


def _supports(feature):
    major, minor = (int(v) for v in _onp.__version__.split('.')[:2])
    return (major, minor) >= ((1, 17) if feature == 'function' else (1, 15))


def with_array_function_protocol(func):
    """Decorator for tests relying on __array_function__: runs `func` when NumPy implements
    the protocol (1.17 and later), turning its errors into RuntimeError."""
    @functools.wraps(func)
    def _run_with_array_func_proto(*args, **kwargs):
        if _supports('function'):
            try:
                func(*args, **kwargs)
            except Exception as e:
                raise RuntimeError('Running function {} with NumPy array function protocol '
                                   'failed with exception {}'.format(func.__name__, str(e)))
    return _run_with_array_func_proto


def with_array_ufunc_protocol(func):
    """Decorator for tests relying on __array_ufunc__ (NumPy 1.15 and later)."""
    @functools.wraps(func)
    def _run_with_array_ufunc_proto(*args, **kwargs):
        if _supports('ufunc'):
            try:
                func(*args, **kwargs)
            except Exception as e:
                raise RuntimeError('Running function {} with NumPy array ufunc protocol '
                                   'failed with exception {}'.format(func.__name__, str(e)))
    return _run_with_array_ufunc_proto
