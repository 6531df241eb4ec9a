"""mx.rtc without a GPU: the module's names and signature parsing, and a CPU-only build's
clear error (MXNet 1.9.1's CPU builds also refuse to compile). tests/python/gpu/test_gpu_rtc.py
launches kernels on a GPU."""
import pytest

import mxnet as mx


def test_module_exports_1_9_1_names():
    for name in ('CudaModule', 'CudaKernel', 'CudaModuleHandle', 'CudaKernelHandle', 'array',
                 'mx_uint', 'numeric_types', 'string_types'):
        assert hasattr(mx.rtc, name), name


@pytest.mark.skipif(mx.runtime.Features().is_enabled('CUDA'), reason='CUDA build compiles')
def test_cpu_only_build_refuses_with_a_clear_error():
    with pytest.raises(mx.base.MXNetError, match='needs a libmxnet built with CUDA'):
        mx.rtc.CudaModule('extern "C" __global__ void f(float *x) {}')


def test_removed_pre_1_0_api_fails_naming_its_replacement():
    import ctypes
    with pytest.raises(mx.base.MXNetError, match='MXRtcFree: .*MXRtcCudaModuleCreate'):
        mx.base.check_call(mx.base._LIB.MXRtcFree(ctypes.c_void_p()))


def test_signatures_parse_into_pointer_const_and_dtype():
    from mxnet.rtc import _parse_signature
    nd, const, dtypes = _parse_signature(
        'k', 'const float *x, double* y, int n, __half h, int64_t *const z, uint8_t c')
    assert nd == [True, True, False, False, True, False]
    assert const == [True, False, False, False, False, False]
    assert [d.name for d in dtypes] == ['float32', 'float64', 'int32', 'float16', 'int64',
                                        'uint8']
    with pytest.raises(ValueError, match="parameter 1 'float3 y'"):
        _parse_signature('k', 'float *x, float3 y')
