/*!
 * \file upsampling.cu
 * \brief UpSampling and its gradient on the GPU: upsampling-inl.h's kernels, and the bilinear
 *        weight gradient as one block per weight element summing in double.
 */
#include "./upsampling-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <algorithm>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

constexpr int kThreads = common::cuda::kThreadsPerBlock;

/*! \brief Block (c, ky, kx): dw = sum over n, iy, ix of og[n,c,iy*s-p+ky,ix*s-p+kx] * x. */
template <typename DType>
__global__ void BilinearWeightGradKernel(const DType* og, UpDims o, const DType* x, UpDims in,
                                         index_t s, index_t k, index_t p, DType* dw, int req) {
  __shared__ double buf[kThreads];
  const index_t count = in.c * k * k;
  const index_t per = in.n * in.h * in.w;
  for (index_t widx = blockIdx.x; widx < count; widx += gridDim.x) {
    const index_t kx = widx % k, ky = (widx / k) % k, c = widx / (k * k);
    double acc = 0;
    for (index_t j = threadIdx.x; j < per; j += blockDim.x) {
      const index_t ix = j % in.w, iy = (j / in.w) % in.h, n = j / (in.w * in.h);
      const index_t oy = iy * s - p + ky, ox = ix * s - p + kx;
      if (oy < 0 || oy >= o.h || ox < 0 || ox >= o.w) continue;
      acc += static_cast<double>(og[((n * in.c + c) * o.h + oy) * o.w + ox]) *
             static_cast<double>(x[((n * in.c + c) * in.h + iy) * in.w + ix]);
    }
    acc = common::cuda::BlockSum(buf, acc);
    if (threadIdx.x == 0) KERNEL_ASSIGN(dw[widx], req, DType(acc));
  }
}

}  // namespace

template <typename DType>
void UpSamplingBilinearWeightGrad(mshadow::Stream<gpu>* s, const UpSamplingParam& param,
                                  const TBlob& ograd, const TBlob& data, const TBlob& dweight,
                                  OpReqType req_weight) {
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>(dweight.Size(), 65535));
  BilinearWeightGradKernel<DType><<<blocks, kThreads, 0, mshadow::Stream<gpu>::GetStream(s)>>>(
      ograd.dptr<DType>(), UpDimsOf(ograd), data.dptr<DType>(), UpDimsOf(data),
      static_cast<index_t>(param.scale), static_cast<index_t>(BilinearKernel(param.scale)),
      static_cast<index_t>(BilinearPad(param.scale)), dweight.dptr<DType>(),
      static_cast<int>(req_weight));
  CUDA_CALL(cudaGetLastError());
}

NNVM_REGISTER_OP(UpSampling).set_attr<FCompute>("FCompute<gpu>", UpSamplingCompute<gpu>);
NNVM_REGISTER_OP(_backward_UpSampling)
.set_attr<FCompute>("FCompute<gpu>", UpSamplingGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
