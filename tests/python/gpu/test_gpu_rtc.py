"""mx.rtc on a GPU: kernels compiled by NVRTC and launched through the engine, against NumPy.
Skipped without a GPU (conftest.py); test_rtc.py covers the CPU-only build's behaviour."""
import numpy as np
import pytest

import mxnet as mx

_SOURCE = r'''
extern "C" __global__ void axpy(const float *x, float *y, float alpha, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) y[i] += alpha * x[i];
}
template <typename T>
__global__ void scale(T *y, T s, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) y[i] *= s;
}
'''


def test_extern_c_and_exported_template_kernels_match_numpy():
    module = mx.rtc.CudaModule(_SOURCE, exports=['scale<float>', 'scale<double>'])
    n = 1000
    rng = np.random.RandomState(0)
    x, y = rng.rand(n).astype('float32'), rng.rand(n).astype('float32')
    gx, gy = mx.nd.array(x, ctx=mx.gpu(0)), mx.nd.array(y, ctx=mx.gpu(0))
    axpy = module.get_kernel('axpy', 'const float *x, float *y, float alpha, int n')
    axpy.launch([gx, gy, 3.0, n], mx.gpu(0), ((n + 255) // 256, 1, 1), (256, 1, 1))
    np.testing.assert_allclose(gy.asnumpy(), y + 3.0 * x, rtol=1e-6)
    scale = module.get_kernel('scale<double>', 'double *y, double s, int n')
    gd = mx.nd.array(y, ctx=mx.gpu(0), dtype='float64')
    scale.launch([gd, 0.5, n], mx.gpu(0), ((n + 255) // 256, 1, 1), (256, 1, 1))
    np.testing.assert_allclose(gd.asnumpy(), y.astype('float64') * 0.5)


def test_errors_name_the_kernel_and_argument():
    module = mx.rtc.CudaModule(_SOURCE)
    axpy = module.get_kernel('axpy', 'const float *x, float *y, float alpha, int n')
    x = mx.nd.ones(4, ctx=mx.gpu(0), dtype='float64')
    with pytest.raises(mx.base.MXNetError, match='axpy: argument 0 is float64'):
        axpy.launch([x, x, 1.0, 4], mx.gpu(0), (1, 1, 1), (4, 1, 1))
    with pytest.raises(ValueError, match='expected 4 arguments'):
        axpy.launch([x], mx.gpu(0), (1, 1, 1), (4, 1, 1))
    with pytest.raises(mx.base.MXNetError, match='no kernel'):
        module.get_kernel('scale<float>', 'float *y, float s, int n')
    with pytest.raises(mx.base.MXNetError, match='compiling the source failed'):
        mx.rtc.CudaModule('__global__ void broken( {')
