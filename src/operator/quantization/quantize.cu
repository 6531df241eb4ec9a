/*!
 * \file quantize.cu
 * \brief quantize, quantize_v2, quantize_asym, dequantize and requantize on the GPU: the
 *        kernels of quantize-inl.h, plus the data's minimum and maximum as a block reduction
 *        whose block results are combined with atomics into the op's range scalars.
 */
#include "./quantize-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <algorithm>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace quant {
namespace {

constexpr int kThreads = common::cuda::kThreadsPerBlock;
constexpr int kMaxReduceBlocks = 1024;

/*! \brief *a = v if v < *a (compare-and-swap on the bits; NaN never replaces, nor is replaced). */
__device__ void AtomicMinFloat(float* a, float v) {
  int* p = reinterpret_cast<int*>(a);
  int old = *p;
  while (v < __int_as_float(old)) {
    const int seen = atomicCAS(p, old, __float_as_int(v));
    if (seen == old) break;
    old = seen;
  }
}

__device__ void AtomicMaxFloat(float* a, float v) {
  int* p = reinterpret_cast<int*>(a);
  int old = *p;
  while (__int_as_float(old) < v) {
    const int seen = atomicCAS(p, old, __float_as_int(v));
    if (seen == old) break;
    old = seen;
  }
}

/*!
 * \brief Every thread starts from x[0] (which is in the set, so the result is the same, and a
 *        NaN x[0] stays, as the host loop's std::min/max keep it) and folds its elements with
 *        `v < cur`, so later NaNs are skipped; the block's result joins *lo/*hi (set to x[0]).
 */
template <typename T>
__global__ void MinMaxKernel(const T* x, index_t n, float* lo, float* hi) {
  __shared__ float smin[kThreads], smax[kThreads];
  const float first = static_cast<float>(x[0]);
  float mn = first, mx = first;
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const float v = static_cast<float>(x[i]);
    mn = v < mn ? v : mn;
    mx = mx < v ? v : mx;
  }
  smin[threadIdx.x] = mn;
  smax[threadIdx.x] = mx;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      const float a = smin[threadIdx.x + s], b = smax[threadIdx.x + s];
      smin[threadIdx.x] = a < smin[threadIdx.x] ? a : smin[threadIdx.x];
      smax[threadIdx.x] = smax[threadIdx.x] < b ? b : smax[threadIdx.x];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    AtomicMinFloat(lo, smin[0]);
    AtomicMaxFloat(hi, smax[0]);
  }
}

/*! \brief (*lo, *hi) = x[0] as float, the start of the reduction; 0 for empty data. */
struct first_as_range {
  template <typename T>
  MSHADOW_XINLINE static void Map(index_t, const T* x, index_t n, float* lo, float* hi) {
    const float v = n > 0 ? static_cast<float>(x[0]) : 0.f;
    *lo = v;
    *hi = v;
  }
};

}  // namespace

template <typename T>
void DataMinMax(mshadow::Stream<gpu>* s, const T* x, index_t n, float* lo, float* hi) {
  mxnet_op::Kernel<first_as_range, gpu>::Launch(s, 1, x, n, lo, hi);
  if (n <= 1) return;
  const index_t want = (n + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>(want, kMaxReduceBlocks));
  MinMaxKernel<T><<<blocks, kThreads, 0, mshadow::Stream<gpu>::GetStream(s)>>>(x, n, lo, hi);
  CUDA_CALL(cudaPeekAtLastError());
}

template void DataMinMax<float>(mshadow::Stream<gpu>*, const float*, index_t, float*, float*);
template void DataMinMax<int32_t>(mshadow::Stream<gpu>*, const int32_t*, index_t, float*,
                                  float*);

}  // namespace quant

NNVM_REGISTER_OP(_contrib_quantize).set_attr<FCompute>("FCompute<gpu>", QuantizeCompute<gpu>);
NNVM_REGISTER_OP(_contrib_quantize_v2)
.set_attr<FCompute>("FCompute<gpu>", QuantizeV2Compute<gpu>);
NNVM_REGISTER_OP(_contrib_quantize_asym)
.set_attr<FCompute>("FCompute<gpu>", QuantizeAsymCompute<gpu>);
NNVM_REGISTER_OP(_contrib_dequantize)
.set_attr<FCompute>("FCompute<gpu>", DequantizeCompute<gpu>);
NNVM_REGISTER_OP(_contrib_requantize)
.set_attr<FCompute>("FCompute<gpu>", RequantizeCompute<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
