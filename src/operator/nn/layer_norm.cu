/*!
 * \file layer_norm.cu
 * \brief LayerNorm and its gradient on the GPU with the CPU kernels' semantics
 *        (layer_norm-inl.h): the data viewed as (outer, C, inner) around `axis`, every row of C
 *        elements normalised with its biased variance, mean and std as outputs. One block per
 *        row reduces in double, as the CPU does; the gamma and beta gradients take one block
 *        per channel.
 */
#include "./layer_norm-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <algorithm>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

using common::cuda::BlockSum;
constexpr int kLNThreads = common::cuda::kThreadsPerBlock;

/*! \brief NormRows for a kernel: element k of row r at RowBase(r) + k * inner. */
struct RowDims {
  index_t rows, len, inner;
};

__device__ __forceinline__ index_t RowBase(const RowDims& d, index_t r) {
  return (r / d.inner) * d.len * d.inner + r % d.inner;
}

template <typename DType>
__global__ void LayerNormForwardKernel(RowDims d, double eps, const DType* x, const DType* gamma,
                                       const DType* beta, DType* out, int req, DType* mean_out,
                                       DType* std_out) {
  __shared__ double buf[kLNThreads];
  const double n = static_cast<double>(d.len);
  for (index_t r = blockIdx.x; r < d.rows; r += gridDim.x) {
    const index_t b = RowBase(d, r);
    double s = 0;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      s += static_cast<double>(x[b + k * d.inner]);
    }
    const double mean = BlockSum(buf, s) / n;
    double sq = 0;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const double v = static_cast<double>(x[b + k * d.inner]) - mean;
      sq += v * v;
    }
    const double var = BlockSum(buf, sq) / n;
    const double inv_std = 1.0 / sqrt(var + eps);
    if (threadIdx.x == 0) {
      mean_out[r] = DType(mean);
      std_out[r] = DType(sqrt(var + eps));
    }
    if (req == kNullOp) continue;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      const double v = (static_cast<double>(x[i]) - mean) * inv_std *
                           static_cast<double>(gamma[k]) + static_cast<double>(beta[k]);
      KERNEL_ASSIGN(out[i], req, DType(v));
    }
  }
}

/*! \brief dx = (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) / std, dxhat = og * gamma. */
template <typename DType>
__global__ void LayerNormBackwardDataKernel(RowDims d, const DType* og, const DType* x,
                                            const DType* gamma, const DType* mean,
                                            const DType* stdv, DType* dx, int req) {
  __shared__ double buf[kLNThreads];
  const double n = static_cast<double>(d.len);
  for (index_t r = blockIdx.x; r < d.rows; r += gridDim.x) {
    const index_t b = RowBase(d, r);
    const double mu = static_cast<double>(mean[r]);
    const double inv_std = 1.0 / static_cast<double>(stdv[r]);
    double sum_d = 0, sum_dx = 0;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      const double g = static_cast<double>(og[i]) * static_cast<double>(gamma[k]);
      sum_d += g;
      sum_dx += g * (static_cast<double>(x[i]) - mu) * inv_std;
    }
    const double mean_d = BlockSum(buf, sum_d) / n;
    const double mean_dx = BlockSum(buf, sum_dx) / n;
    // Each element is read and then written by the same thread: safe when dx is out_grad.
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      const double xhat = (static_cast<double>(x[i]) - mu) * inv_std;
      const double g = static_cast<double>(og[i]) * static_cast<double>(gamma[k]);
      KERNEL_ASSIGN(dx[i], req, DType((g - mean_d - xhat * mean_dx) * inv_std));
    }
  }
}

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

unsigned Blocks(index_t n) {
  return static_cast<unsigned>(std::min<index_t>(std::max<index_t>(n, 1), 65535));
}

RowDims DimsOf(const LayerNormParam& param, const TBlob& data) {
  const int axis = NormalizeNormAxis("LayerNorm", param.axis, data.ndim());
  const NormRows g = LayerNormRows(data.shape_, axis);
  return RowDims{g.rows, g.len, g.inner};
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
    LayerNormForwardKernel<DType><<<Blocks(d.rows), kLNThreads, 0, stream>>>(
        d, static_cast<double>(param.eps), data.dptr<DType>(),
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
    // Empty data: the parameter gradients are zero sums.
    for (int i = 1; i < 3; ++i) {
      if ((req[i] == kWriteTo || req[i] == kWriteInplace) && outputs[i].Size() > 0) {
        CUDA_CALL(cudaMemsetAsync(
            outputs[i].dptr_, 0,
            outputs[i].Size() * mshadow::mshadow_sizeof(outputs[i].type_flag_), stream));
      }
    }
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
      LayerNormBackwardDataKernel<DType><<<Blocks(d.rows), kLNThreads, 0, stream>>>(
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
