/*!
 * \file layer_norm.cu
 * \brief LayerNorm and its gradient on the GPU with the CPU kernels' semantics
 *        (layer_norm-inl.h): the data viewed as (outer, C, inner) around `axis`, every row of C
 *        elements normalised with its biased variance, mean and std as outputs, by the row
 *        kernels of norm_rows_gpu.cuh; the gamma and beta gradients take one block per channel.
 */
#include "./layer_norm-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <algorithm>

#include "../../common/cuda_utils.h"
#include "./norm_rows_gpu.cuh"

namespace mxnet {
namespace op {
namespace {

using common::cuda::BlockSum;
using norm_rows_gpu::RowDims;
using norm_rows_gpu::RowBase;
using norm_rows_gpu::Blocks;
constexpr int kLNThreads = norm_rows_gpu::kThreads;

/*! \brief dgamma[c] = sum over rows of og * xhat, dbeta[c] = sum of og (element c of each row). */
template <typename DType>
__global__ void LayerNormAffineGradKernel(RowDims d, const DType* og, const DType* x,
                                          const DType* mean, const DType* stdv, DType* dgamma,
                                          int req_gamma, DType* dbeta, int req_beta) {
  __shared__ double buf[kLNThreads];
  for (index_t c = blockIdx.x; c < d.len; c += gridDim.x) {
    double sg = 0, sb = 0;
    for (index_t r = threadIdx.x; r < d.rows; r += blockDim.x) {
      const index_t i = RowBase(d, r) + c * d.inner;
      const double o = static_cast<double>(og[i]);
      sg += o * (static_cast<double>(x[i]) - static_cast<double>(mean[r])) *
            (1.0 / static_cast<double>(stdv[r]));
      sb += o;
    }
    sg = BlockSum(buf, sg);
    sb = BlockSum(buf, sb);
    if (threadIdx.x == 0) {
      if (req_gamma != kNullOp) KERNEL_ASSIGN(dgamma[c], req_gamma, DType(sg));
      if (req_beta != kNullOp) KERNEL_ASSIGN(dbeta[c], req_beta, DType(sb));
    }
  }
}

RowDims DimsOf(const LayerNormParam& param, const TBlob& data) {
  const int axis = NormalizeNormAxis("LayerNorm", param.axis, data.ndim());
  return norm_rows_gpu::MakeRowDims(LayerNormRows(data.shape_, axis), 0, false, param.eps);
}

void LayerNormComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const LayerNormParam& param = nnvm::get<LayerNormParam>(attrs.parsed);
  const TBlob& data = inputs[layernorm::kData];
  if (data.Size() == 0) return;
  const RowDims d = DimsOf(param, data);
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    norm_rows_gpu::ForwardKernel<DType><<<Blocks(d.rows), kLNThreads, 0, stream>>>(
        d, data.dptr<DType>(),
        inputs[layernorm::kGamma].dptr<DType>(), inputs[layernorm::kBeta].dptr<DType>(),
        outputs[layernorm::kOut].dptr<DType>(), static_cast<int>(req[layernorm::kOut]),
        outputs[layernorm::kMean].dptr<DType>(), outputs[layernorm::kStd].dptr<DType>());
  });
  CUDA_CALL(cudaGetLastError());
}

/*! \brief inputs: out_grad, data, gamma, mean, std; outputs: data, gamma, beta gradients. */
void LayerNormGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const LayerNormParam& param = nnvm::get<LayerNormParam>(attrs.parsed);
  const TBlob& data = inputs[1];
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  if (data.Size() == 0) {
    norm_rows_gpu::ZeroParamGrads(stream, req, outputs);  // empty data: zero sums
    return;
  }
  const RowDims d = DimsOf(param, data);
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* x = data.dptr<DType>();
    const DType* mean = inputs[3].dptr<DType>();
    const DType* stdv = inputs[4].dptr<DType>();
    // Parameter gradients first: an in-place data gradient overwrites out_grad.
    if (req[1] != kNullOp || req[2] != kNullOp) {
      LayerNormAffineGradKernel<DType><<<Blocks(d.len), kLNThreads, 0, stream>>>(
          d, og, x, mean, stdv, outputs[1].dptr<DType>(), static_cast<int>(req[1]),
          outputs[2].dptr<DType>(), static_cast<int>(req[2]));
    }
    if (req[0] != kNullOp) {
      norm_rows_gpu::BackwardDataKernel<DType><<<Blocks(d.rows), kLNThreads, 0, stream>>>(
          d, og, x, inputs[2].dptr<DType>(), mean, stdv, outputs[0].dptr<DType>(),
          static_cast<int>(req[0]));
    }
  });
  CUDA_CALL(cudaGetLastError());
}

}  // namespace

NNVM_REGISTER_OP(LayerNorm).set_attr<FCompute>("FCompute<gpu>", LayerNormComputeGPU);
NNVM_REGISTER_OP(_backward_LayerNorm)
.set_attr<FCompute>("FCompute<gpu>", LayerNormGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
