/*!
 * \file make_loss.cu
 * \brief MakeLoss, make_loss and MakeLoss's gradient on the GPU. The 'valid' normaliser is
 *        counted on the device (one block, the count stays there for the fill kernel).
 */
#include "./make_loss-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

constexpr int kCountThreads = common::cuda::kThreadsPerBlock;

template <typename DType>
__global__ void CountAboveKernel(const DType* p, index_t n, double thresh, index_t* count) {
  __shared__ index_t buf[kCountThreads];
  index_t c = 0;
  for (index_t i = threadIdx.x; i < n; i += blockDim.x) {
    if (static_cast<double>(p[i]) > thresh) ++c;
  }
  buf[threadIdx.x] = c;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *count = buf[0];
}

}  // namespace

template <typename DType>
void CountAbove(mshadow::Stream<gpu>* s, const TBlob& out, double thresh, index_t* count) {
  CountAboveKernel<DType><<<1, kCountThreads, 0, mshadow::Stream<gpu>::GetStream(s)>>>(
      out.dptr<DType>(), static_cast<index_t>(out.Size()), thresh, count);
  CUDA_CALL(cudaGetLastError());
}

NNVM_REGISTER_OP(MakeLoss).set_attr<FCompute>("FCompute<gpu>", LossIdentityCompute<gpu>);
NNVM_REGISTER_OP(make_loss).set_attr<FCompute>("FCompute<gpu>", LossIdentityCompute<gpu>);
NNVM_REGISTER_OP(_backward_MakeLoss)
.set_attr<FCompute>("FCompute<gpu>", MakeLossGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
