/*!
 * \file indexing_op_gpu.cuh
 * \brief The GPU forms of take / Embedding and their gradients (atomic adds: repeated indices
 *        accumulate into the same row). Included by indexing_op-inl.h in CUDA compiles only.
 */
#ifndef MXNET_OPERATOR_TENSOR_INDEXING_OP_GPU_CUH_
#define MXNET_OPERATOR_TENSOR_INDEXING_OP_GPU_CUH_

#include <cuda_fp16.h>

#include <vector>

#include "../../common/cuda_utils.h"
#include "../mxnet_op.h"

namespace mxnet {
namespace op {
namespace indexing_gpu {

/*! \brief An index along an axis of length k: wrap, or clip (raise was checked on the host). */
template <typename IType>
__device__ __forceinline__ index_t DeviceIndex(IType v, index_t k, int mode) {
  index_t j = static_cast<index_t>(v);
  if (mode == take_::kWrap) {
    j %= k;
    return j < 0 ? j + k : j;
  }
  if (mode == take_::kRaise) return j < 0 ? j + k : j;
  return j < 0 ? 0 : (j >= k ? k - 1 : j);
}

/*! \brief out[t] (req) = a[o, idx(m), i] for t = (o, m, i) of the (outer, M, inner) output. */
struct take_rows {
  template <typename DType, typename IType>
  __device__ static void Map(index_t t, const DType* a, const IType* idx, DType* out, index_t k,
                             index_t inner, index_t M, int mode, int req) {
    const index_t i = t % inner, om = t / inner;
    const index_t m = om % M, o = om / M;
    const DType v = a[(o * k + DeviceIndex(idx[m], k, mode)) * inner + i];
    if (req == kAddTo) {
      out[t] += v;
    } else {
      out[t] = v;
    }
  }
};

__device__ __forceinline__ void AtomicAddTo(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void AtomicAddTo(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void AtomicAddTo(mshadow::half::half_t* p, mshadow::half::half_t v) {
  atomicAdd(reinterpret_cast<__half*>(p), __float2half(static_cast<float>(v)));
}

/*! \brief grad[o, idx(m), i] += ograd[t] for t = (o, m, i). */
struct take_rows_grad {
  template <typename DType, typename IType>
  __device__ static void Map(index_t t, const DType* ograd, const IType* idx, DType* grad,
                             index_t k, index_t inner, index_t M, int mode) {
    const index_t i = t % inner, om = t / inner;
    const index_t m = om % M, o = om / M;
    AtomicAddTo(grad + (o * k + DeviceIndex(idx[m], k, mode)) * inner + i, ograd[t]);
  }
};

}  // namespace indexing_gpu

template <typename DType, typename IType>
void TakeRowsGPU(mshadow::Stream<mshadow::gpu>* s, const DType* a, const IType* idx, DType* out,
                 index_t outer, index_t k, index_t inner, index_t M, int mode, OpReqType req,
                 const char* op) {
  if (req == kNullOp || outer * M * inner == 0) return;
  if (mode == take_::kRaise) {  // every index must be checked: read them on the host
    std::vector<IType> host(M);
    cudaStream_t stream = mshadow::Stream<mshadow::gpu>::GetStream(s);
    CUDA_CALL(cudaMemcpyAsync(host.data(), idx, M * sizeof(IType), cudaMemcpyDeviceToHost,
                              stream));
    CUDA_CALL(cudaStreamSynchronize(stream));
    for (index_t m = 0; m < M; ++m) TakeIndex(host[m], k, mode, op);  // throws, naming op
  }
  mxnet_op::Kernel<indexing_gpu::take_rows, mshadow::gpu>::Launch(
      s, outer * M * inner, a, idx, out, k, inner, M, mode, static_cast<int>(req));
}

template <typename DType, typename IType>
void TakeRowsGradGPU(mshadow::Stream<mshadow::gpu>* s, const DType* ograd, const IType* idx,
                     DType* grad, index_t outer, index_t k, index_t inner, index_t M, int mode,
                     OpReqType req) {
  if (req == kNullOp) return;
  if (req != kAddTo) {
    mxnet_op::Kernel<mxnet_op::set_zero, mshadow::gpu>::Launch(s, outer * k * inner, grad);
  }
  if (outer * M * inner == 0) return;
  mxnet_op::Kernel<indexing_gpu::take_rows_grad, mshadow::gpu>::Launch(
      s, outer * M * inner, ograd, idx, grad, k, inner, M, mode);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_INDEXING_OP_GPU_CUH_
