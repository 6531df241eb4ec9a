"""mx.runtime (features over MXLibInfoFeatures), mx.util (np-shape switches, getenv/setenv),
mx.error and mx.log against MXNet 1.9.1's names and behaviour."""
import logging
import os

import pytest

import mxnet as mx

# MXNet 1.9.1 wheel order (API.md §1.3)
MX191_FEATURES = ['CUDA', 'CUDNN', 'NCCL', 'CUDA_RTC', 'TENSORRT', 'CPU_SSE', 'CPU_SSE2',
                  'CPU_SSE3', 'CPU_SSE4_1', 'CPU_SSE4_2', 'CPU_SSE4A', 'CPU_AVX', 'CPU_AVX2',
                  'OPENMP', 'SSE', 'F16C', 'JEMALLOC', 'BLAS_OPEN', 'BLAS_ATLAS', 'BLAS_MKL',
                  'BLAS_APPLE', 'LAPACK', 'MKLDNN', 'OPENCV', 'CAFFE', 'PROFILER',
                  'DIST_KVSTORE', 'CXX14', 'INT64_TENSOR_SIZE', 'SIGNAL_HANDLER', 'DEBUG',
                  'TVM_OP']


def test_feature_list_names_and_order():
    feats = mx.runtime.feature_list()
    assert [f.name for f in feats] == MX191_FEATURES
    assert all(isinstance(f.enabled, bool) for f in feats)
    assert repr(feats[0]) in ('✖ CUDA', '✔ CUDA')


def test_features_mapping():
    features = mx.runtime.Features()
    assert features is mx.runtime.Features()
    assert list(features.keys()) == MX191_FEATURES
    assert features.is_enabled('PROFILER')
    assert not features.is_enabled('CUDA')
    assert not features.is_enabled('tvm_op')
    with pytest.raises(RuntimeError, match="Feature 'FOO' is unknown"):
        features.is_enabled('FOO')
    assert repr(features).startswith('[✖ CUDA, ')


def test_getenv_setenv_see_the_process_environment():
    name = 'MXNET_TEST_RUNTIME_ENV_VAR'
    os.environ.pop(name, None)
    assert mx.util.getenv(name) is None
    mx.util.setenv(name, 'hello')
    assert mx.util.getenv(name) == 'hello'
    assert os.getenv(name) is None or os.getenv(name) == 'hello'
    os.environ[name] = 'from python'   # putenv: the library sees it
    assert mx.util.getenv(name) == 'from python'
    mx.util.setenv(name, None)
    assert mx.util.getenv(name) is None


def test_np_shape_switches():
    assert mx.util.is_np_shape() is False
    assert mx.is_np_shape() is False
    assert mx.util.set_np_shape(False) is False
    with mx.util.np_shape(False):
        assert not mx.util.is_np_shape()
    # NumPy semantics switch on and off (scoped, and restored on exit).
    with mx.util.np_shape(True):
        assert mx.util.is_np_shape()
    assert not mx.util.is_np_shape()
    with mx.util.np_array(True):
        assert mx.util.is_np_array()
    assert mx.util.is_np_array() is False
    assert mx.util.set_np_shape(True) is False
    assert mx.util.set_np_shape(False) is True
    mx.util.reset_np()
    with pytest.raises(ValueError):
        mx.util.set_np(shape=False, array=True)

    @mx.util.use_np_shape
    def shaped():
        return mx.util.is_np_shape()
    assert shaped() is True
    assert mx.util.is_np_shape() is False


def test_error_module():
    assert mx.error.MXNetError is mx.MXNetError
    assert issubclass(mx.error.InternalError, mx.MXNetError)

    @mx.error.register
    class ProfilerTestError(mx.MXNetError):
        pass
    from mxnet.base import c2pyerror
    cls, _ = c2pyerror('ProfilerTestError: boom')
    assert cls is ProfilerTestError
    with pytest.raises(ValueError):   # typed errors are also the builtin
        mx.nd.ones((2, 2)).reshape((3, 3))


def test_get_logger(tmp_path):
    path = str(tmp_path / 'log.txt')
    logger = mx.log.get_logger('mx_runtime_test', filename=path, level=mx.log.INFO)
    assert logger is mx.log.get_logger('mx_runtime_test')
    assert logger.level == logging.INFO
    logger.info('hello %d', 42)
    for h in logger.handlers:
        h.flush()
    text = open(path).read()
    assert text.startswith('I') and text.rstrip().endswith(']hello 42')


def test_error_type_crosses_the_c_boundary():
    """The library reports each error's type (MXGetLastErrorType); the class comes from it, not
    from the message text: a message that merely starts like another type keeps its own."""
    import ctypes
    from mxnet.base import _LIB
    shape = (ctypes.c_int64 * 1)(-5)
    handle = ctypes.c_void_p()
    assert _LIB.MXNDArrayCreateEx64(shape, 1, 1, 0, 0, 0, ctypes.byref(handle)) != 0
    assert _LIB.MXGetLastErrorType() == b'ValueError'
    with pytest.raises(mx.base.IndexError):
        mx.nd.ones((2, 3)).take(mx.nd.array([7]), mode='raise').asnumpy()
    assert _LIB.MXGetLastErrorType() == b'IndexError'
    # A frontend-set error ("<Type>: ...", as callbacks set it) keeps the type it names.
    _LIB.MXAPISetLastError(b'TypeError: from a callback')
    assert _LIB.MXGetLastErrorType() == b'TypeError'
    _LIB.MXAPISetLastError(b'no type here')
    assert _LIB.MXGetLastErrorType() == b'MXNetError'
    err = mx.base.get_last_ffi_error()
    assert type(err) is mx.base.MXNetError and 'no type here' in str(err)
