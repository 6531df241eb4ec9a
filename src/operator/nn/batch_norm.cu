/*!
 * \file batch_norm.cu
 * \brief BatchNorm and its gradient on the GPU, with the CPU kernels' semantics (batch_norm-inl.h:
 *        batch or moving statistics, the `var` output as the inverse std, moving statistics
 *        updated by the backward pass, fix_gamma writing ones, float16 data with float
 *        parameters, kAddTo). The statistics are reduced in double by a grid of blocks per
 *        channel (partial sums combined in a fixed order: deterministic), one thread per channel
 *        finishes them, and an element-wise pass writes y or dx. BatchNormWithReLU and single-device
 *        SyncBatchNorm run the same kernels (a ReLU after, a mask on dy; the variance output).
 */
#include <mxnet/resource.h>

#include "../mxnet_op.h"
#include "./batch_norm-inl.h"

#if MXNET_USE_CUDA
#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

constexpr int kBNThreads = common::cuda::kThreadsPerBlock;

using common::cuda::BlockSum;

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

/*!
 * \brief How the statistics kernels split the work: a grid of (chunks, channels) blocks, each
 *        reducing a contiguous range of one channel's outer*inner elements, so that a few
 *        channels with many elements each (the first layers of a CNN) still fill the GPU.
 *        Partial sums are combined per channel in a fixed order: results are deterministic.
 */
struct BNPlan {
  index_t chunks = 1;    // blocks per channel
  index_t per_chunk = 0; // elements of a channel per block
  unsigned channel_blocks = 1;

  explicit BNPlan(const BNDims& d) {
    const index_t M = d.outer * d.inner;  // (PerChannel() is host code)
    const index_t by_size = std::max<index_t>((M + 8191) / 8192, 1);
    const index_t by_channels = std::max<index_t>(2048 / std::max<index_t>(d.C, 1), 1);
    chunks = std::min(by_size, by_channels);
    per_chunk = (M + chunks - 1) / chunks;
    channel_blocks = static_cast<unsigned>(std::min<index_t>(std::max<index_t>(d.C, 1), 65535));
  }
};

/*!
 * \brief Walks this thread's elements t = begin + threadIdx.x + k * blockDim.x (< end) of
 *        channel c, calling fn(offset of element t) with no division per element.
 */
template <typename Fn>
__device__ __forceinline__ void ForChannelRange(const BNDims& d, index_t c, index_t begin,
                                                index_t end, Fn fn) {
  index_t t = begin + threadIdx.x;
  if (t >= end) return;
  index_t o = t / d.inner, i = t % d.inner;
  const index_t step_o = blockDim.x / d.inner, step_i = blockDim.x % d.inner;
  for (; t < end; t += blockDim.x) {
    fn((o * d.C + c) * d.inner + i);
    i += step_i;
    o += step_o;
    if (i >= d.inner) {
      i -= d.inner;
      ++o;
    }
  }
}

/*!
 * \brief Forward statistics, per (chunk, channel): the sums of x - k and (x - k)^2 in double,
 *        with k the channel's first element (shifting keeps the variance accurate).
 */
template <typename DType, typename AType>
__global__ void BNStatsPartial(BNDims d, index_t chunks, index_t per_chunk, const DType* x,
                               double* partial) {
  __shared__ double buf[kBNThreads];
  const index_t M = d.outer * d.inner;  // (PerChannel() is host code)
  for (index_t c = blockIdx.y; c < d.C; c += gridDim.y) {
    const double k = static_cast<double>(static_cast<AType>(x[c * d.inner]));
    const index_t begin = blockIdx.x * per_chunk;
    const index_t end = min(M, begin + per_chunk);
    double s = 0, q = 0;
    ForChannelRange(d, c, begin, end, [&](index_t off) {
      const double v = static_cast<double>(static_cast<AType>(x[off])) - k;
      s += v;
      q += v * v;
    });
    s = BlockSum(buf, s);
    q = BlockSum(buf, q);
    if (threadIdx.x == 0) {
      partial[(c * chunks + blockIdx.x) * 2] = s;
      partial[(c * chunks + blockIdx.x) * 2 + 1] = q;
    }
  }
}

/*!
 * \brief Per channel: the batch (or moving) statistics, the mean and inverse std outputs, and
 *        y's scale and shift (in AType, as the CPU computes them).
 */
template <typename DType, typename AType>
__global__ void BNStatsFinish(BNDims d, index_t chunks, double eps, bool fix_gamma,
                              bool training, const DType* x, const double* partial,
                              AType* gamma, const AType* beta, const AType* moving_mean,
                              const AType* moving_var, AType* mean_out, AType* invstd_out,
                              AType* scale, AType* shift) {
  const index_t c = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (c >= d.C) return;
  const index_t M = d.outer * d.inner;  // (PerChannel() is host code)
  double mean = 0, var = 0;
  if (training) {
    if (M > 0) {
      double s = 0, q = 0;
      for (index_t j = 0; j < chunks; ++j) {
        s += partial[(c * chunks + j) * 2];
        q += partial[(c * chunks + j) * 2 + 1];
      }
      const double k = static_cast<double>(static_cast<AType>(x[c * d.inner]));
      const double ms = s / M;
      mean = k + ms;
      var = max(q / M - ms * ms, 0.0);
    }
  } else {
    mean = static_cast<double>(moving_mean[c]);
    var = static_cast<double>(moving_var[c]);
  }
  const double invstd = 1.0 / sqrt(var + eps);
  mean_out[c] = static_cast<AType>(mean);
  invstd_out[c] = static_cast<AType>(invstd);
  const double g = fix_gamma ? 1.0 : static_cast<double>(gamma[c]);
  scale[c] = static_cast<AType>(g * invstd);
  shift[c] = static_cast<AType>(static_cast<double>(beta[c]) - mean * g * invstd);
  // As 1.9.1 (and the CPU kernel): a fixed gamma reads back as ones; never read here.
  if (fix_gamma && gamma[c] != AType(1)) gamma[c] = AType(1);
}

/*! \brief y = x * scale[c] + shift[c] (req write or add), one block per (outer, channel) row. */
template <typename DType, typename AType>
__global__ void BNApply(BNDims d, const DType* x, const AType* scale, const AType* shift,
                        DType* y, int req) {
  const index_t rows = d.outer * d.C;
  for (index_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const index_t c = r % d.C;
    const AType a = scale[c], b = shift[c];
    const DType* px = x + r * d.inner;
    DType* py = y + r * d.inner;
    for (index_t i = threadIdx.x; i < d.inner; i += blockDim.x) {
      const AType v = static_cast<AType>(px[i]) * a + b;
      py[i] = req == kAddTo ? DType(static_cast<AType>(py[i]) + v) : DType(v);
    }
  }
}

/*! \brief Backward sums per (chunk, channel): sum(dy) and sum(dy * (x - mean)) in double. */
template <typename DType, typename AType>
__global__ void BNGradPartial(BNDims d, index_t chunks, index_t per_chunk, bool training,
                              const DType* dy, const DType* relu_out, const DType* x,
                              const AType* mean_in, const AType* moving_mean, double* partial) {
  __shared__ double buf[kBNThreads];
  const index_t M = d.outer * d.inner;  // (PerChannel() is host code)
  for (index_t c = blockIdx.y; c < d.C; c += gridDim.y) {
    const double mean = static_cast<double>(training ? mean_in[c] : moving_mean[c]);
    const index_t begin = blockIdx.x * per_chunk;
    const index_t end = min(M, begin + per_chunk);
    double s1 = 0, s2 = 0;
    ForChannelRange(d, c, begin, end, [&](index_t off) {
      const double g = DyAt(dy, relu_out, off);
      s1 += g;
      s2 += g * (static_cast<double>(static_cast<AType>(x[off])) - mean);
    });
    s1 = BlockSum(buf, s1);
    s2 = BlockSum(buf, s2);
    if (threadIdx.x == 0) {
      partial[(c * chunks + blockIdx.x) * 2] = s1;
      partial[(c * chunks + blockIdx.x) * 2 + 1] = s2;
    }
  }
}

/*!
 * \brief Per channel: dgamma, dbeta, the moving statistics (training), and dx's coefficients
 *        coef[c] = {g * invstd, mean(dy), mean, invstd * mean(dy * xhat)} (zeros for the means
 *        outside training): dx = coef0 * (dy - coef1 - (x - coef2) * coef3).
 *        `stats_are_var` (SyncBatchNorm) reads the variance instead of the inverse std.
 */
template <typename AType>
__global__ void BNGradFinish(BNDims d, index_t chunks, double eps, double momentum,
                             bool fix_gamma, bool training, bool stats_are_var,
                             const double* partial, const AType* mean_in,
                             const AType* invstd_in, const AType* gamma, AType* moving_mean,
                             AType* moving_var, AType* dgamma, int req_dgamma, AType* dbeta,
                             int req_dbeta, double* coef) {
  const index_t c = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (c >= d.C) return;
  const index_t M = d.outer * d.inner;  // (PerChannel() is host code)
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
  double sum_dy = 0, sum_dy_xc = 0;
  for (index_t j = 0; j < chunks; ++j) {
    sum_dy += partial[(c * chunks + j) * 2];
    sum_dy_xc += partial[(c * chunks + j) * 2 + 1];
  }
  const double sum_dy_xhat = sum_dy_xc * invstd;
  const double g = fix_gamma ? 1.0 : static_cast<double>(gamma[c]);
  coef[c * 4] = g * invstd;
  coef[c * 4 + 1] = training && M > 0 ? sum_dy / M : 0.0;
  coef[c * 4 + 2] = mean;
  coef[c * 4 + 3] = training && M > 0 ? invstd * (sum_dy_xhat / M) : 0.0;
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

/*! \brief dx from BNGradFinish's coefficients, one block per (outer, channel) row. */
template <typename DType, typename AType>
__global__ void BNGradApply(BNDims d, const DType* dy, const DType* relu_out, const DType* x,
                            const double* coef, DType* dx, int req_dx) {
  const index_t rows = d.outer * d.C;
  for (index_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const index_t c = r % d.C;
    const double k = coef[c * 4], a = coef[c * 4 + 1], mean = coef[c * 4 + 2],
                 b = coef[c * 4 + 3];
    for (index_t i = r * d.inner + threadIdx.x; i < (r + 1) * d.inner; i += blockDim.x) {
      const double xc = static_cast<double>(static_cast<AType>(x[i])) - mean;
      const double v = k * (DyAt(dy, relu_out, i) - a - xc * b);
      dx[i] = req_dx == kAddTo ? DType(static_cast<double>(static_cast<AType>(dx[i])) + v)
                               : DType(v);
    }
  }
}

/*! \brief Threads for a row of `inner` elements: a multiple of 32, at most a full block. */
unsigned RowThreads(index_t inner) {
  return static_cast<unsigned>(std::min<index_t>(((inner + 31) / 32) * 32, kBNThreads));
}

unsigned RowBlocks(const BNDims& d) {
  return static_cast<unsigned>(std::min<index_t>(std::max<index_t>(d.outer * d.C, 1),
                                                 index_t(1) << 30));
}

unsigned ChannelThreadBlocks(index_t C) {
  return static_cast<unsigned>((C + kBNThreads - 1) / kBNThreads);
}

/*! \brief `bytes` of the call's temp space (the BatchNorm family requests it). */
double* BNScratch(const OpContext& ctx, size_t bytes) {
  return static_cast<double*>(ctx.requested.at(0).get_space_internal(bytes));
}

void BatchNormComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  const BNDims d = MakeBNDims(param, inputs[batchnorm::kData].shape_);
  if (d.C == 0) return;
  const bool training = ctx.is_train && !param.use_global_stats;
  cudaStream_t stream = mshadow::Stream<mshadow::gpu>::GetStream(ctx.get_stream<mshadow::gpu>());
  const BNPlan plan(d);
  // Partial sums (training), then the scale and shift (as doubles' room, AType used).
  const size_t partial_n = training ? static_cast<size_t>(d.C * plan.chunks * 2) : 0;
  double* scratch = BNScratch(ctx, (partial_n + 2 * static_cast<size_t>(d.C)) * sizeof(double));
  BNTypeSwitch(inputs[0].type_flag_, "BatchNorm", [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    const DType* x = inputs[0].dptr<DType>();
    AType* scale = reinterpret_cast<AType*>(scratch + partial_n);
    AType* shift = reinterpret_cast<AType*>(scratch + partial_n + d.C);
    if (training && d.PerChannel() > 0) {
      BNStatsPartial<DType, AType>
          <<<dim3(static_cast<unsigned>(plan.chunks), plan.channel_blocks), kBNThreads, 0,
             stream>>>(d, plan.chunks, plan.per_chunk, x, scratch);
      CUDA_CALL(cudaPeekAtLastError());
    }
    BNStatsFinish<DType, AType><<<ChannelThreadBlocks(d.C), kBNThreads, 0, stream>>>(
        d, training && d.PerChannel() > 0 ? plan.chunks : 0, param.eps, param.fix_gamma,
        training, x, scratch, inputs[1].dptr<AType>(), inputs[2].dptr<AType>(),
        inputs[3].dptr<AType>(), inputs[4].dptr<AType>(), outputs[1].dptr<AType>(),
        outputs[2].dptr<AType>(), scale, shift);
    CUDA_CALL(cudaPeekAtLastError());
    if (req[0] != kNullOp && d.PerChannel() > 0) {
      BNApply<DType, AType><<<RowBlocks(d), RowThreads(d.inner), 0, stream>>>(
          d, x, scale, shift, outputs[0].dptr<DType>(), req[0]);
      CUDA_CALL(cudaPeekAtLastError());
    }
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
  const BNPlan plan(d);
  const size_t partial_n = static_cast<size_t>(d.C * plan.chunks * 2);
  double* scratch = BNScratch(ctx, (partial_n + 4 * static_cast<size_t>(d.C)) * sizeof(double));
  double* coef = scratch + partial_n;
  BNTypeSwitch(inputs[3].type_flag_, op, [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    const DType* relu = relu_out != nullptr ? relu_out->dptr<DType>() : nullptr;
    const DType* dy = inputs[0].dptr<DType>();
    const DType* x = inputs[3].dptr<DType>();
    const index_t chunks = d.PerChannel() > 0 ? plan.chunks : 0;
    if (chunks > 0) {
      BNGradPartial<DType, AType>
          <<<dim3(static_cast<unsigned>(plan.chunks), plan.channel_blocks), kBNThreads, 0,
             stream>>>(d, plan.chunks, plan.per_chunk, training, dy, relu, x,
                       inputs[1].dptr<AType>(), inputs[6].dptr<AType>(), scratch);
      CUDA_CALL(cudaPeekAtLastError());
    }
    BNGradFinish<AType><<<ChannelThreadBlocks(d.C), kBNThreads, 0, stream>>>(
        d, chunks, param.eps, param.momentum, param.fix_gamma, training, stats_are_var,
        scratch, inputs[1].dptr<AType>(), inputs[2].dptr<AType>(), inputs[4].dptr<AType>(),
        inputs[6].dptr<AType>(), inputs[7].dptr<AType>(), outputs[1].dptr<AType>(), req[1],
        outputs[2].dptr<AType>(), req[2], coef);
    CUDA_CALL(cudaPeekAtLastError());
    if (req[0] != kNullOp && d.PerChannel() > 0) {
      BNGradApply<DType, AType><<<RowBlocks(d), RowThreads(d.inner), 0, stream>>>(
          d, dy, relu, x, coef, outputs[0].dptr<DType>(), req[0]);
      CUDA_CALL(cudaPeekAtLastError());
    }
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
