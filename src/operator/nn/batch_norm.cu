/*!
 * \file batch_norm.cu
 * \brief BatchNorm and its gradient on the GPU, with the CPU kernels' semantics (batch_norm-inl.h:
 *        batch or moving statistics, the `var` output as the inverse std, moving statistics
 *        updated by the backward pass, fix_gamma writing ones, float16 data with float
 *        parameters, kAddTo). One block per channel reduces over (outer, inner) in double, as the
 *        CPU does, then writes that channel's outputs. BatchNormWithReLU and single-device
 *        SyncBatchNorm run the same kernels (a ReLU after, a mask on dy; the variance output).
 */
#include "../mxnet_op.h"
#include "./batch_norm-inl.h"

#if MXNET_USE_CUDA
#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

constexpr int kBNThreads = common::cuda::kThreadsPerBlock;

using common::cuda::BlockSum;

/*! \brief Offset of element t (0 <= t < outer*inner) of channel c in data (outer, C, inner). */
__device__ __forceinline__ index_t BNOffset(const BNDims& d, index_t c, index_t t) {
  return ((t / d.inner) * d.C + c) * d.inner + t % d.inner;
}

/*! \brief dy[i] as a double, zero where a ReLU after the normalization was off. */
template <typename DType>
__device__ __forceinline__ double DyAt(const DType* dy, const DType* relu_out, index_t i) {
  if (relu_out != nullptr && !(static_cast<float>(relu_out[i]) > 0.f)) return 0.0;
  return static_cast<double>(dy[i]);
}

/*! \brief y = max(y, 0) after the normalization (NaN becomes 0, as on the CPU). */
struct relu_in_place {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y) {
    if (!(static_cast<float>(y[i]) > 0.f)) y[i] = DType(0);
  }
};

/*! \brief The inverse std output becomes the variance (SyncBatchNorm's `var` output). */
struct invstd_to_var {
  template <typename AType>
  MSHADOW_XINLINE static void Map(index_t c, AType* v, double eps) {
    const double invstd = static_cast<double>(v[c]);
    v[c] = static_cast<AType>(1.0 / (invstd * invstd) - eps);
  }
};

template <typename DType, typename AType>
__global__ void BatchNormForwardKernel(BNDims d, double eps, bool fix_gamma, bool training,
                                       const DType* x, AType* gamma, const AType* beta,
                                       const AType* moving_mean, const AType* moving_var,
                                       DType* y, int req, AType* mean_out, AType* invstd_out) {
  __shared__ double buf[kBNThreads];
  const index_t M = d.outer * d.inner;
  for (index_t c = blockIdx.x; c < d.C; c += gridDim.x) {
    double mean, var;
    if (training) {
      double acc = 0;
      for (index_t t = threadIdx.x; t < M; t += blockDim.x) {
        acc += static_cast<double>(static_cast<AType>(x[BNOffset(d, c, t)]));
      }
      mean = M > 0 ? BlockSum(buf, acc) / M : 0.0;
      acc = 0;
      for (index_t t = threadIdx.x; t < M; t += blockDim.x) {
        const double v = static_cast<double>(static_cast<AType>(x[BNOffset(d, c, t)])) - mean;
        acc += v * v;
      }
      var = M > 0 ? BlockSum(buf, acc) / M : 0.0;
    } else {
      mean = static_cast<double>(moving_mean[c]);
      var = static_cast<double>(moving_var[c]);
    }
    const double invstd = 1.0 / sqrt(var + eps);
    if (req != kNullOp) {
      const double g = fix_gamma ? 1.0 : static_cast<double>(gamma[c]);
      const AType scale = static_cast<AType>(g * invstd);
      const AType shift = static_cast<AType>(static_cast<double>(beta[c]) - mean * g * invstd);
      for (index_t t = threadIdx.x; t < M; t += blockDim.x) {
        const index_t i = BNOffset(d, c, t);
        const AType v = static_cast<AType>(x[i]) * scale + shift;
        y[i] = req == kAddTo ? DType(static_cast<AType>(y[i]) + v) : DType(v);
      }
    }
    if (threadIdx.x == 0) {
      mean_out[c] = static_cast<AType>(mean);
      invstd_out[c] = static_cast<AType>(invstd);
      // As 1.9.1 (and the CPU kernel): a fixed gamma reads back as ones; never read here.
      if (fix_gamma && gamma[c] != AType(1)) gamma[c] = AType(1);
    }
  }
}

/*!
 * \brief One block per channel. `relu_out` (BatchNormWithReLU) masks dy where the forward
 *        output was not positive; `stats_are_var` (SyncBatchNorm) reads the variance instead of
 *        the inverse std (rounded to AType as the CPU does).
 */
template <typename DType, typename AType>
__global__ void BatchNormBackwardKernel(BNDims d, double eps, double momentum, bool fix_gamma,
                                        bool training, const DType* relu_out, bool stats_are_var,
                                        const DType* dy, const AType* mean_in,
                                        const AType* invstd_in, const DType* x,
                                        const AType* gamma, AType* moving_mean,
                                        AType* moving_var, DType* dx, int req_dx, AType* dgamma,
                                        int req_dgamma, AType* dbeta, int req_dbeta) {
  __shared__ double buf[kBNThreads];
  const index_t M = d.outer * d.inner;
  for (index_t c = blockIdx.x; c < d.C; c += gridDim.x) {
    double mean, invstd;
    if (training) {
      mean = static_cast<double>(mean_in[c]);
      invstd = stats_are_var ? static_cast<double>(static_cast<AType>(
                                   1.0 / sqrt(static_cast<double>(invstd_in[c]) + eps)))
                             : static_cast<double>(invstd_in[c]);
    } else {
      mean = static_cast<double>(moving_mean[c]);
      invstd = 1.0 / sqrt(static_cast<double>(moving_var[c]) + eps);
    }
    double s1 = 0, s2 = 0;
    for (index_t t = threadIdx.x; t < M; t += blockDim.x) {
      const index_t i = BNOffset(d, c, t);
      const double g = DyAt(dy, relu_out, i);
      s1 += g;
      s2 += g * (static_cast<double>(static_cast<AType>(x[i])) - mean);
    }
    const double sum_dy = BlockSum(buf, s1);
    const double sum_dy_xhat = BlockSum(buf, s2) * invstd;
    const double g = fix_gamma ? 1.0 : static_cast<double>(gamma[c]);
    if (req_dx != kNullOp) {
      const double k = g * invstd;
      // training: dx = g*invstd*(dy - mean(dy) - xhat*mean(dy*xhat)); else dx = g*invstd*dy
      const double a = training && M > 0 ? sum_dy / M : 0.0;
      const double b = training && M > 0 ? sum_dy_xhat / M : 0.0;
      for (index_t t = threadIdx.x; t < M; t += blockDim.x) {
        const index_t i = BNOffset(d, c, t);
        const double xhat = (static_cast<double>(static_cast<AType>(x[i])) - mean) * invstd;
        const double v = k * (DyAt(dy, relu_out, i) - a - xhat * b);
        dx[i] = req_dx == kAddTo ? DType(static_cast<double>(static_cast<AType>(dx[i])) + v)
                                 : DType(v);
      }
    }
    if (threadIdx.x == 0) {
      const double gg = fix_gamma ? 0.0 : sum_dy_xhat;
      if (req_dgamma != kNullOp) {
        dgamma[c] = static_cast<AType>(req_dgamma == kAddTo ? dgamma[c] + gg : gg);
      }
      if (req_dbeta != kNullOp) {
        dbeta[c] = static_cast<AType>(req_dbeta == kAddTo ? dbeta[c] + sum_dy : sum_dy);
      }
      if (training) {
        const double var = 1.0 / (invstd * invstd) - eps;
        moving_mean[c] = static_cast<AType>(moving_mean[c] * momentum + mean * (1 - momentum));
        moving_var[c] = static_cast<AType>(moving_var[c] * momentum + var * (1 - momentum));
      }
    }
  }
}

unsigned ChannelBlocks(index_t C) {
  return static_cast<unsigned>(std::min<index_t>(std::max<index_t>(C, 1), 65535));
}

void BatchNormComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  const BNDims d = MakeBNDims(param, inputs[batchnorm::kData].shape_);
  if (d.C == 0) return;
  const bool training = ctx.is_train && !param.use_global_stats;
  cudaStream_t stream = mshadow::Stream<mshadow::gpu>::GetStream(ctx.get_stream<mshadow::gpu>());
  BNTypeSwitch(inputs[0].type_flag_, "BatchNorm", [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    BatchNormForwardKernel<DType, AType><<<ChannelBlocks(d.C), kBNThreads, 0, stream>>>(
        d, param.eps, param.fix_gamma, training, inputs[0].dptr<DType>(),
        inputs[1].dptr<AType>(), inputs[2].dptr<AType>(), inputs[3].dptr<AType>(),
        inputs[4].dptr<AType>(), outputs[0].dptr<DType>(), req[0], outputs[1].dptr<AType>(),
        outputs[2].dptr<AType>());
    CUDA_CALL(cudaPeekAtLastError());
  });
}

/*!
 * \brief inputs: out_grad, mean, var, data, gamma, beta, moving_mean, moving_var (var is the
 *        inverse std, or the variance with stats_are_var); relu_out masks out_grad.
 */
void BatchNormGradGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx, const char* op,
                      const std::vector<TBlob>& inputs, const TBlob* relu_out,
                      bool stats_are_var, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  const BNDims d = MakeBNDims(param, inputs[3].shape_);
  if (d.C == 0) return;
  const bool training = ctx.is_train && !param.use_global_stats;
  cudaStream_t stream = mshadow::Stream<mshadow::gpu>::GetStream(ctx.get_stream<mshadow::gpu>());
  BNTypeSwitch(inputs[3].type_flag_, op, [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    BatchNormBackwardKernel<DType, AType><<<ChannelBlocks(d.C), kBNThreads, 0, stream>>>(
        d, param.eps, param.momentum, param.fix_gamma, training,
        relu_out != nullptr ? relu_out->dptr<DType>() : nullptr, stats_are_var,
        inputs[0].dptr<DType>(), inputs[1].dptr<AType>(), inputs[2].dptr<AType>(),
        inputs[3].dptr<DType>(), inputs[4].dptr<AType>(), inputs[6].dptr<AType>(),
        inputs[7].dptr<AType>(), outputs[0].dptr<DType>(), req[0], outputs[1].dptr<AType>(),
        req[1], outputs[2].dptr<AType>(), req[2]);
    CUDA_CALL(cudaPeekAtLastError());
  });
}

void BatchNormGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  BatchNormGradGPU(attrs, ctx, "_backward_BatchNorm", inputs, nullptr, false, req, outputs);
}

void BatchNormReLUComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  if (req[0] == kAddTo) {
    MX_THROW(ValueError) << "_contrib_BatchNormWithReLU: the output cannot be accumulated into "
                         << "(grad_req/req 'add')";
  }
  BatchNormComputeGPU(attrs, ctx, inputs, req, outputs);
  if (req[0] == kNullOp) return;
  BNTypeSwitch(outputs[0].type_flag_, "_contrib_BatchNormWithReLU", [&](auto dtag, auto) {
    using DType = decltype(dtag);
    mxnet_op::Kernel<relu_in_place, gpu>::Launch(ctx.get_stream<gpu>(), outputs[0].Size(),
                                                 outputs[0].dptr<DType>());
  });
}

/*! \brief inputs: out_grad, output, mean, invstd, data, gamma, beta, moving_mean, moving_var. */
void BatchNormReLUGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                 const std::vector<TBlob>& inputs,
                                 const std::vector<OpReqType>& req,
                                 const std::vector<TBlob>& outputs) {
  std::vector<TBlob> bn_in(inputs);
  bn_in.erase(bn_in.begin() + 1);
  BatchNormGradGPU(attrs, ctx, "_backward_contrib_BatchNormWithReLU", bn_in, &inputs[1], false,
                   req, outputs);
}

/*! \brief SyncBatchNorm on one device: BatchNorm, then the `var` output is the variance. */
void SyncBatchNormComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  BatchNormComputeGPU(attrs, ctx, inputs, req, outputs);
  const double eps = nnvm::get<BatchNormParam>(attrs.parsed).eps;
  BNTypeSwitch(inputs[0].type_flag_, "_contrib_SyncBatchNorm", [&](auto, auto atag) {
    using AType = decltype(atag);
    mxnet_op::Kernel<invstd_to_var, gpu>::Launch(ctx.get_stream<gpu>(),
                                                 outputs[batchnorm::kVar].Size(),
                                                 outputs[batchnorm::kVar].dptr<AType>(), eps);
  });
}

void SyncBatchNormGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                 const std::vector<TBlob>& inputs,
                                 const std::vector<OpReqType>& req,
                                 const std::vector<TBlob>& outputs) {
  BatchNormGradGPU(attrs, ctx, "_backward__contrib_SyncBatchNorm", inputs, nullptr, true, req,
                   outputs);
}

}  // namespace

NNVM_REGISTER_OP(BatchNorm).set_attr<FCompute>("FCompute<gpu>", BatchNormComputeGPU);
NNVM_REGISTER_OP(_backward_BatchNorm)
.set_attr<FCompute>("FCompute<gpu>", BatchNormGradComputeGPU);
NNVM_REGISTER_OP(_contrib_BatchNormWithReLU)
.set_attr<FCompute>("FCompute<gpu>", BatchNormReLUComputeGPU);
NNVM_REGISTER_OP(_backward_contrib_BatchNormWithReLU)
.set_attr<FCompute>("FCompute<gpu>", BatchNormReLUGradComputeGPU);
NNVM_REGISTER_OP(_contrib_SyncBatchNorm)
.set_attr<FCompute>("FCompute<gpu>", SyncBatchNormComputeGPU);
NNVM_REGISTER_OP(_backward__contrib_SyncBatchNorm)
.set_attr<FCompute>("FCompute<gpu>", SyncBatchNormGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
