/*!
 * \file norm_rows_gpu.cuh
 * \brief The GPU's row kernels of the normalisations on NormRows (layer_norm-inl.h): one block
 *        per row reduces in double, as the CPU loops do. gamma and beta are indexed by the
 *        element of the row (LayerNorm) or by the row's channel r % channels (InstanceNorm);
 *        the second statistic is the std (LayerNorm) or the variance (InstanceNorm).
 */
#ifndef MXNET_OPERATOR_NN_NORM_ROWS_GPU_CUH_
#define MXNET_OPERATOR_NN_NORM_ROWS_GPU_CUH_

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "../../common/cuda_utils.h"
#include "./layer_norm-inl.h"

namespace mxnet {
namespace op {
namespace norm_rows_gpu {

using common::cuda::BlockSum;
constexpr int kThreads = common::cuda::kThreadsPerBlock;

/*! \brief NormRows for a kernel, with where gamma comes from and what the second output is. */
struct RowDims {
  index_t rows, len, inner;
  index_t channels;  // > 0: gamma[r % channels] (per row); 0: gamma[k] (per element)
  bool var_out;      // the second statistic is the variance, not sqrt(var + eps)
  double eps;
};

inline RowDims MakeRowDims(const NormRows& g, index_t channels, bool var_out, double eps) {
  return RowDims{g.rows, g.len, g.inner, channels, var_out, eps};
}

__device__ __forceinline__ index_t RowBase(const RowDims& d, index_t r) {
  return (r / d.inner) * d.len * d.inner + r % d.inner;
}

__device__ __forceinline__ index_t GammaIndex(const RowDims& d, index_t r, index_t k) {
  return d.channels > 0 ? r % d.channels : k;
}

inline unsigned Blocks(index_t n) {
  return static_cast<unsigned>(std::min<index_t>(std::max<index_t>(n, 1), 65535));
}

template <typename DType>
__global__ void ForwardKernel(RowDims d, const DType* x, const DType* gamma, const DType* beta,
                              DType* out, int req, DType* mean_out, DType* stat_out) {
  __shared__ double buf[kThreads];
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
    const double inv_std = 1.0 / sqrt(var + d.eps);
    if (threadIdx.x == 0) {
      mean_out[r] = DType(mean);
      stat_out[r] = DType(d.var_out ? var : sqrt(var + d.eps));
    }
    if (req == kNullOp) continue;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      const index_t c = GammaIndex(d, r, k);
      const double v = (static_cast<double>(x[i]) - mean) * inv_std *
                           static_cast<double>(gamma[c]) + static_cast<double>(beta[c]);
      KERNEL_ASSIGN(out[i], req, DType(v));
    }
  }
}

/*! \brief 1/std of row r from the forward's second statistic. */
template <typename DType>
__device__ __forceinline__ double InvStd(const RowDims& d, const DType* stat, index_t r) {
  const double s = static_cast<double>(stat[r]);
  return d.var_out ? 1.0 / sqrt(s + d.eps) : 1.0 / s;
}

/*! \brief dx = (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) / std, dxhat = og * gamma. */
template <typename DType>
__global__ void BackwardDataKernel(RowDims d, const DType* og, const DType* x, const DType* gamma,
                                   const DType* mean, const DType* stat, DType* dx, int req) {
  __shared__ double buf[kThreads];
  const double n = static_cast<double>(d.len);
  for (index_t r = blockIdx.x; r < d.rows; r += gridDim.x) {
    const index_t b = RowBase(d, r);
    const double mu = static_cast<double>(mean[r]);
    const double inv_std = InvStd(d, stat, r);
    double sum_d = 0, sum_dx = 0;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      const double g = static_cast<double>(og[i]) * static_cast<double>(gamma[GammaIndex(d, r, k)]);
      sum_d += g;
      sum_dx += g * (static_cast<double>(x[i]) - mu) * inv_std;
    }
    const double mean_d = BlockSum(buf, sum_d) / n;
    const double mean_dx = BlockSum(buf, sum_dx) / n;
    // Each element is read and then written by the same thread: safe when dx is out_grad.
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      const double xhat = (static_cast<double>(x[i]) - mu) * inv_std;
      const double g = static_cast<double>(og[i]) * static_cast<double>(gamma[GammaIndex(d, r, k)]);
      KERNEL_ASSIGN(dx[i], req, DType((g - mean_d - xhat * mean_dx) * inv_std));
    }
  }
}

/*! \brief Block c: dgamma[c] = sum of og * xhat and dbeta[c] = sum of og over the rows
 *         n * channels + c (contiguous rows: inner == 1). */
template <typename DType>
__global__ void ChannelAffineGradKernel(RowDims d, index_t batch, const DType* og,
                                        const DType* x, const DType* mean, const DType* stat,
                                        DType* dgamma, int req_gamma, DType* dbeta,
                                        int req_beta) {
  __shared__ double buf[kThreads];
  const index_t per_channel = batch * d.len;
  for (index_t c = blockIdx.x; c < d.channels; c += gridDim.x) {
    double sg = 0, sb = 0;
    for (index_t j = threadIdx.x; j < per_channel; j += blockDim.x) {
      const index_t r = (j / d.len) * d.channels + c;
      const index_t i = r * d.len + j % d.len;
      const double o = static_cast<double>(og[i]);
      sg += o * (static_cast<double>(x[i]) - static_cast<double>(mean[r])) *
            InvStd(d, stat, r);
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

/*!
 * \brief Forward of a normalisation with gamma/beta per row channel (InstanceNorm, GroupNorm):
 *        inputs (data, gamma, beta), outputs (out, mean, var or std as d.var_out says).
 */
inline void ChannelNormForward(const OpContext& ctx, const RowDims& d,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    ForwardKernel<DType><<<Blocks(d.rows), kThreads, 0, stream>>>(
        d, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
        outputs[0].dptr<DType>(), static_cast<int>(req[0]), outputs[1].dptr<DType>(),
        outputs[2].dptr<DType>());
  });
  CUDA_CALL(cudaGetLastError());
}

inline void ZeroParamGrads(cudaStream_t stream, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs);

/*!
 * \brief Its gradient: inputs (out_grad, data, gamma, mean, var or std), outputs (data, gamma,
 *        beta gradients); `batch` is data.shape[0].
 */
inline void ChannelNormBackward(const OpContext& ctx, const RowDims& d, index_t batch,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  if (inputs[1].Size() == 0) {
    ZeroParamGrads(stream, req, outputs);
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* x = inputs[1].dptr<DType>();
    const DType* mean = inputs[3].dptr<DType>();
    const DType* stat = inputs[4].dptr<DType>();
    // Parameter gradients first: an in-place data gradient would overwrite out_grad.
    if (req[1] != kNullOp || req[2] != kNullOp) {
      ChannelAffineGradKernel<DType><<<Blocks(d.channels), kThreads, 0, stream>>>(
          d, batch, og, x, mean, stat, outputs[1].dptr<DType>(), static_cast<int>(req[1]),
          outputs[2].dptr<DType>(), static_cast<int>(req[2]));
    }
    if (req[0] != kNullOp) {
      BackwardDataKernel<DType><<<Blocks(d.rows), kThreads, 0, stream>>>(
          d, og, x, inputs[2].dptr<DType>(), mean, stat, outputs[0].dptr<DType>(),
          static_cast<int>(req[0]));
    }
  });
  CUDA_CALL(cudaGetLastError());
}

/*! \brief Zeroes the parameter gradients (written, not added) of an empty batch. */
inline void ZeroParamGrads(cudaStream_t stream, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  for (int i = 1; i < 3; ++i) {
    if ((req[i] == kWriteTo || req[i] == kWriteInplace) && outputs[i].Size() > 0) {
      CUDA_CALL(cudaMemsetAsync(
          outputs[i].dptr_, 0,
          outputs[i].Size() * mshadow::mshadow_sizeof(outputs[i].type_flag_), stream));
    }
  }
}

}  // namespace norm_rows_gpu
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_NORM_ROWS_GPU_CUH_
