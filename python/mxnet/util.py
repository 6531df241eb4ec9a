"""NumPy-semantics switches, environment access and small helpers (MXNet 1.9.1 names).

`set_np()` (npx.set_np) switches on NumPy shape semantics (the library's flag, per thread)
and NumPy array semantics (Gluon blocks and parameters give mx.np.ndarray), as MXNet 1.9.1.
"""
import ctypes
import functools
import inspect
import os
import threading

from .base import _LIB, check_call, c_str, py_str

__all__ = ['is_np_shape', 'set_np_shape', 'np_shape', 'use_np_shape', 'is_np_array',
           'set_np_array', 'np_array', 'use_np_array', 'use_np', 'set_np', 'reset_np',
           'getenv', 'setenv', 'makedirs', 'get_gpu_count', 'get_gpu_memory', 'set_module',
           'get_cuda_compute_capability', 'np_ufunc_legal_option', 'wrap_np_unary_func',
           'wrap_np_binary_func']


def makedirs(d):
    """Create directory `d` and its parents if missing."""
    os.makedirs(os.path.expanduser(d), exist_ok=True)


def get_gpu_count():
    size = ctypes.c_int()
    check_call(_LIB.MXGetGPUCount(ctypes.byref(size)))
    return size.value


def get_gpu_memory(gpu_dev_id):
    free_mem = ctypes.c_uint64(0)
    total_mem = ctypes.c_uint64(0)
    check_call(_LIB.MXGetGPUMemoryInformation64(gpu_dev_id, ctypes.byref(free_mem),
                                                ctypes.byref(total_mem)))
    return free_mem.value, total_mem.value


def set_np_shape(active):
    """Turn NumPy shape semantics on/off; returns the previous state (a bool)."""
    prev = ctypes.c_int()
    check_call(_LIB.MXSetIsNumpyShape(ctypes.c_int(1 if active else 0), ctypes.byref(prev)))
    return bool(prev.value)


def is_np_shape():
    """Whether NumPy shape semantics (zero-size and scalar shapes) are on."""
    curr = ctypes.c_int()
    check_call(_LIB.MXIsNumpyShape(ctypes.byref(curr)))
    return bool(curr.value)


class _NumpyShapeScope(object):
    """`with` scope setting NumPy shape semantics, restoring the previous state on exit."""

    def __init__(self, is_np_shape):  # pylint: disable=redefined-outer-name
        self._enter_is_np_shape = is_np_shape
        self._prev_is_np_shape = None

    def __enter__(self):
        if self._enter_is_np_shape is not None:
            self._prev_is_np_shape = set_np_shape(self._enter_is_np_shape)

    def __exit__(self, ptype, value, trace):
        if self._enter_is_np_shape is not None and \
                self._prev_is_np_shape != self._enter_is_np_shape:
            set_np_shape(self._prev_is_np_shape)


def np_shape(active=True):
    """Scope with NumPy shape semantics on (active=True) or off."""
    return _NumpyShapeScope(active)


def _scope_decorator(scope_factory, func, what):
    """Run func (or every method of a class) inside scope_factory()."""
    if inspect.isclass(func):
        for name, method in inspect.getmembers(
                func, predicate=lambda f: inspect.isfunction(f) or inspect.ismethod(f)
                or isinstance(f, property)):
            if isinstance(method, property):
                setattr(func, name, property(_scope_decorator(scope_factory, method.__get__,
                                                              what),
                                             method.__set__, method.__delattr__))
            else:
                setattr(func, name, _scope_decorator(scope_factory, method, what))
        return func
    if callable(func):
        @functools.wraps(func)
        def _with_scope(*args, **kwargs):
            with scope_factory():
                return func(*args, **kwargs)
        return _with_scope
    raise TypeError('{} can only decorate classes and callable objects, while received a {}'
                    .format(what, str(type(func))))


def use_np_shape(func):
    """Decorator: run func (or every method of a class) with NumPy shape semantics on."""
    return _scope_decorator(lambda: np_shape(True), func, 'use_np_shape')


_NP_ARRAY_STATE = threading.local()
# The last state set by any thread: threads that never set it themselves (DataLoader workers,
# ...) follow it.
_NP_ARRAY_GLOBAL = [False]


def is_np_array():
    """Whether NumPy array semantics (mx.np arrays from Gluon and mx.sym.np) are on."""
    return getattr(_NP_ARRAY_STATE, 'active', _NP_ARRAY_GLOBAL[0])


def set_np_array(active):
    """Turn NumPy array semantics on/off (Gluon then returns mx.np arrays); returns the
    previous state."""
    prev = is_np_array()
    _NP_ARRAY_STATE.active = bool(active)
    _NP_ARRAY_GLOBAL[0] = bool(active)
    return prev


_set_np_array = set_np_array


class _NumpyArrayScope(object):
    """`with` scope setting NumPy array semantics, restoring the previous state on exit."""

    def __init__(self, is_np_array):  # pylint: disable=redefined-outer-name
        self._enter = is_np_array
        self._prev = None

    def __enter__(self):
        self._prev = set_np_array(self._enter)

    def __exit__(self, ptype, value, trace):
        if self._prev != self._enter:
            set_np_array(self._prev)


def np_array(active=True):
    """Scope with NumPy array semantics on (active=True) or off."""
    return _NumpyArrayScope(active)


def use_np_array(func):
    """Decorator: run func (or every method of a class) with NumPy array semantics on."""
    return _scope_decorator(lambda: np_array(True), func, 'use_np_array')


def use_np(func):
    """Decorator: use_np_shape and use_np_array together."""
    return use_np_shape(use_np_array(func))


def set_np(shape=True, array=True):
    """Set NumPy shape and array semantics together (array without shape is an error)."""
    if not shape and array:
        raise ValueError('NumPy Shape semantics is required in using NumPy array semantics.')
    set_np_array(array)
    set_np_shape(shape)


def reset_np():
    """Back to classic MXNet semantics."""
    set_np(shape=False, array=False)


def set_module(module):
    """Decorator overriding __module__ (for documentation)."""
    def decorator(func):
        if module is not None:
            func.__module__ = module
        return func
    return decorator


def getenv(name):
    """The value of environment variable `name` as the library sees it, or None."""
    ret = ctypes.c_char_p()
    check_call(_LIB.MXGetEnv(c_str(name), ctypes.byref(ret)))
    return None if ret.value is None else py_str(ret.value)


def setenv(name, value):
    """Set (or, with value None, unset) environment variable `name` inside the library."""
    passed = None if value is None else c_str(value)
    check_call(_LIB.MXSetEnv(c_str(name), passed))


def get_cuda_compute_capability(ctx):
    """The compute capability of the GPU of context `ctx` as major * 10 + minor (e.g. 80 for
    8.0), read with the CUDA driver library."""
    if ctx.device_type != 'gpu':
        raise ValueError('Expecting a gpu context to get cuda compute capability, got %s' % ctx)
    for libname in ('libcuda.so', 'libcuda.so.1', 'libcuda.dylib', 'nvcuda.dll'):
        try:
            cuda = ctypes.CDLL(libname)
            break
        except OSError:
            continue
    else:
        raise OSError('get_cuda_compute_capability: could not load the CUDA driver library')

    def call(name, *args):
        status = getattr(cuda, name)(*args)
        if status != 0:
            message = ctypes.c_char_p()
            cuda.cuGetErrorString(status, ctypes.byref(message))
            raise RuntimeError('%s failed with error %d: %s'
                               % (name, status, py_str(message.value or b'unknown')))

    device = ctypes.c_int()
    major, minor = ctypes.c_int(), ctypes.c_int()
    call('cuInit', 0)
    call('cuDeviceGet', ctypes.byref(device), ctx.device_id)
    call('cuDeviceComputeCapability', ctypes.byref(major), ctypes.byref(minor), device)
    return major.value * 10 + minor.value


# The keyword arguments of NumPy ufuncs and the only values mx.np accepts for them.
_NP_UFUNC_DEFAULTS = {'where': True, 'casting': 'same_kind', 'order': 'K', 'dtype': None,
                      'subok': True}
_NP_UFUNC_DTYPES = ('int8', 'uint8', 'int32', 'int64', 'float16', 'float32', 'float64')


def np_ufunc_legal_option(key, value):
    """Whether `value` is a legal value of NumPy ufunc keyword `key` for mx.np."""
    if key == 'where':
        return True
    if key == 'casting':
        return value in ('no', 'equiv', 'safe', 'same_kind', 'unsafe')
    if key == 'order':
        return isinstance(value, str)
    if key == 'dtype':
        import numpy as onp
        try:
            return value is None or onp.dtype(value).name in _NP_UFUNC_DTYPES
        except TypeError:
            return False
    if key == 'subok':
        return isinstance(value, bool)
    return False


def _check_ufunc_kwargs(name, kwargs):
    for key, value in kwargs.items():
        if key not in _NP_UFUNC_DEFAULTS:
            raise TypeError("%s() got an unexpected keyword argument '%s'" % (name, key))
        if not np_ufunc_legal_option(key, value):
            raise ValueError('%s(): %s=%r is not a legal value' % (name, key, value))
        if value != _NP_UFUNC_DEFAULTS[key]:
            raise NotImplementedError('%s(): %s=%r is not supported yet (only the default %r)'
                                      % (name, key, value, _NP_UFUNC_DEFAULTS[key]))


def wrap_np_unary_func(func):
    """Decorator for a unary mx.np function func(x, out=None): accepts NumPy's ufunc keywords
    (where, casting, order, dtype, subok) with their default values and refuses others."""
    @functools.wraps(func)
    def _wrap_np_unary_func(x, out=None, **kwargs):
        _check_ufunc_kwargs(func.__name__, kwargs)
        return func(x, out=out)
    return _wrap_np_unary_func


def wrap_np_binary_func(func):
    """Decorator for a binary mx.np function func(x1, x2, out=None), like wrap_np_unary_func."""
    @functools.wraps(func)
    def _wrap_np_binary_func(x1, x2, out=None, **kwargs):
        _check_ufunc_kwargs(func.__name__, kwargs)
        return func(x1, x2, out=out)
    return _wrap_np_binary_func
