/*!
 * \file softmax_output.cu
 * \brief SoftmaxOutput and its gradient on the GPU: the forward is softmax's row kernel (as on
 *        the CPU); the gradient (output - target) * grad_scale / normaliser [* out_grad] is one
 *        kernel over the elements, with the CPU's rules for soft labels, ignore_label,
 *        smooth_alpha and the normalisations ('valid' counts its labels on the device first).
 *        softmax_cross_entropy: one block per row (max, log-sum-exp in double), the loss summed
 *        over the rows in order by one block.
 */
#include "./softmax_output-inl.h"

#if MXNET_USE_CUDA
#include <mxnet/resource.h>

#include <algorithm>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

constexpr int kCountThreads = common::cuda::kThreadsPerBlock;

/*! \brief *scale = grad_scale / max(1, labels != ignore), compared as ints (one block). */
template <typename LType>
__global__ void SoftmaxOutputValidScale(const LType* label, index_t rows, int ignore,
                                        double grad_scale, double* scale) {
  __shared__ index_t buf[kCountThreads];
  index_t count = 0;
  for (index_t r = threadIdx.x; r < rows; r += blockDim.x) {
    if (static_cast<int>(static_cast<double>(label[r])) != ignore) ++count;
  }
  buf[threadIdx.x] = count;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *scale = grad_scale / (buf[0] == 0 ? 1.0 : static_cast<double>(buf[0]));
}

/*! \brief What the gradient kernel needs besides the buffers. */
struct SoftmaxOutputGradArgs {
  index_t n, inner;
  bool soft, use_ignore, out_grad;
  int ignore;
  double alpha, off, scale;  // scale unless scale_dev is given
  const double* scale_dev;
};

struct softmax_output_grad {
  template <typename DType, typename LType>
  MSHADOW_XINLINE static void Map(index_t e, DType* dx, int req, const DType* y,
                                  const DType* og, const LType* label,
                                  SoftmaxOutputGradArgs a) {
    const index_t i = e % a.inner, k = (e / a.inner) % a.n, o = e / (a.inner * a.n);
    const index_t r = o * a.inner + i;
    const double scale = a.scale_dev != nullptr ? *a.scale_dev : a.scale;
    double v = 0.0;
    const double lr = a.soft ? 0.0 : static_cast<double>(label[r]);
    const bool ignored = !a.soft && a.use_ignore && static_cast<int>(lr) == a.ignore;
    if (!ignored) {
      const index_t l = static_cast<index_t>(lr);
      double target;
      if (a.soft) {
        target = static_cast<double>(label[e]);
      } else if (a.alpha > 0) {
        target = k == l ? 1.0 - a.alpha : a.off;
      } else {
        target = k == l ? 1.0 : 0.0;
      }
      v = (static_cast<double>(y[e]) - target) * scale;
      if (a.out_grad) v *= static_cast<double>(og[e]);
    }
    dx[e] = req == kAddTo ? DType(static_cast<double>(dx[e]) + v) : DType(v);
  }
};

/*! \brief inputs: out_grad, label, output; outputs: data_grad, label_grad (zeros). */
void SoftmaxOutputGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                 const std::vector<TBlob>& inputs,
                                 const std::vector<OpReqType>& req,
                                 const std::vector<TBlob>& outputs) {
  const SoftmaxOutputParam& param = nnvm::get<SoftmaxOutputParam>(attrs.parsed);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  if ((req[1] == kWriteTo || req[1] == kWriteInplace) && outputs[1].Size() > 0) {
    CUDA_CALL(cudaMemsetAsync(outputs[1].dptr_, 0,
                              outputs[1].Size() * mshadow::mshadow_sizeof(outputs[1].type_flag_),
                              stream));
  }
  if (req[0] == kNullOp || inputs[2].Size() == 0) return;
  const TBlob& label = inputs[1];
  const TBlob& out = inputs[2];
  const SoftmaxGeom g = SoftmaxOutputGeom(out.shape_, param);
  const index_t rows = g.outer * g.inner;
  SoftmaxOutputGradArgs a;
  a.n = g.n;
  a.inner = g.inner;
  a.soft = label.Size() == out.Size() && label.Size() != static_cast<size_t>(rows);
  a.use_ignore = param.use_ignore;
  a.out_grad = param.out_grad;
  a.ignore = static_cast<int>(param.ignore_label);
  a.alpha = param.smooth_alpha;
  a.off = g.n > 1 ? param.smooth_alpha / static_cast<double>(g.n - 1) : 0.0;
  a.scale = param.grad_scale;
  a.scale_dev = nullptr;
  // Normalisers as on the CPU (SoftmaxOutputGradCompute).
  const bool valid = !a.soft && param.normalization == softmaxout_enum::kValid;
  if (!a.soft && param.normalization == softmaxout_enum::kBatch) {
    a.scale /= static_cast<double>(param.multi_output ? g.outer : rows);
  }
  double* scale_dev = nullptr;
  if (valid) scale_dev = ctx.requested[0].get_space_typed_ptr<double>(1);
  MSHADOW_TYPE_SWITCH(label.type_flag_, LType, {
    if (valid) {
      SoftmaxOutputValidScale<LType><<<1, kCountThreads, 0, stream>>>(
          label.dptr<LType>(), rows, a.ignore, param.grad_scale, scale_dev);
      CUDA_CALL(cudaPeekAtLastError());
      a.scale_dev = scale_dev;
    }
    MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
      mxnet_op::Kernel<softmax_output_grad, gpu>::Launch(
          s, out.Size(), outputs[0].dptr<DType>(), static_cast<int>(req[0]), out.dptr<DType>(),
          inputs[0].dptr<DType>(), label.dptr<LType>(), a);
    });
  });
}

// ---- softmax_cross_entropy: (N, C) data, (N,) labels ---------------------------------------

/*! \brief The row's max and log of its sum of exp(x - max), one block per row. */
template <typename DType>
__device__ void RowLogSumExp(const DType* x, index_t C, double* buf, double* mx, double* lse) {
  double m = -INFINITY;
  for (index_t k = threadIdx.x; k < C; k += blockDim.x) m = fmax(m, static_cast<double>(x[k]));
  buf[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] = fmax(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  m = buf[0];
  __syncthreads();
  double sum = 0;
  for (index_t k = threadIdx.x; k < C; k += blockDim.x) sum += exp(static_cast<double>(x[k]) - m);
  sum = common::cuda::BlockSum(buf, sum);
  *mx = m;
  *lse = log(sum);
}

/*! \brief Block i: row_loss[i] = -log(max(softmax(x_i)[clamp(label_i)], 1e-300)). */
template <typename DType, typename LType>
__global__ void CrossEntropyRowsKernel(const DType* x, const LType* label, index_t N, index_t C,
                                       double* row_loss) {
  __shared__ double buf[kCountThreads];
  for (index_t i = blockIdx.x; i < N; i += gridDim.x) {
    double m, lse;
    RowLogSumExp(x + i * C, C, buf, &m, &lse);
    if (threadIdx.x == 0) {
      index_t l = static_cast<index_t>(label[i]);
      l = l < 0 ? 0 : (l > C - 1 ? C - 1 : l);
      const double p = exp(static_cast<double>(x[i * C + l]) - m - lse);
      row_loss[i] = -log(fmax(p, 1e-300));
    }
    __syncthreads();
  }
}

/*! \brief One block: out[0] (req) the sum of the row losses, in row order. */
template <typename DType>
__global__ void SumRowsKernel(const double* row_loss, index_t N, DType* out, int req) {
  __shared__ double buf[kCountThreads];
  double s = 0;
  for (index_t i = threadIdx.x; i < N; i += blockDim.x) s += row_loss[i];
  s = common::cuda::BlockSum(buf, s);
  if (threadIdx.x == 0) KERNEL_ASSIGN(out[0], req, DType(s));
}

/*! \brief Block i: dx_i = (softmax(x_i) - onehot(label_i)) * out_grad (labels out of range:
 *         no one-hot, as on the CPU). */
template <typename DType, typename LType>
__global__ void CrossEntropyGradKernel(const DType* og, const DType* x, const LType* label,
                                       index_t N, index_t C, DType* dx, int req) {
  __shared__ double buf[kCountThreads];
  const double g = static_cast<double>(og[0]);
  for (index_t i = blockIdx.x; i < N; i += gridDim.x) {
    double m, lse;
    RowLogSumExp(x + i * C, C, buf, &m, &lse);
    const index_t l = static_cast<index_t>(label[i]);
    for (index_t k = threadIdx.x; k < C; k += blockDim.x) {
      double p = exp(static_cast<double>(x[i * C + k]) - m - lse);
      if (k == l) p -= 1.0;
      KERNEL_ASSIGN(dx[i * C + k], req, DType(p * g));
    }
    __syncthreads();
  }
}

void SoftmaxCrossEntropyComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& inputs,
                                   const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const index_t N = inputs[0].shape_[0], C = inputs[0].shape_[1];
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  double* row_loss = ctx.requested[0].get_space_typed_ptr<double>(std::max<index_t>(N, 1));
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>(std::max<index_t>(N, 1), 65535));
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, LType, {
      if (N > 0 && C > 0) {
        CrossEntropyRowsKernel<DType, LType><<<blocks, kCountThreads, 0, stream>>>(
            inputs[0].dptr<DType>(), inputs[1].dptr<LType>(), N, C, row_loss);
      }
      SumRowsKernel<DType><<<1, kCountThreads, 0, stream>>>(
          row_loss, C > 0 ? N : 0, outputs[0].dptr<DType>(), static_cast<int>(req[0]));
    });
  });
  CUDA_CALL(cudaGetLastError());
}

/*! \brief inputs: out_grad (1,), data, label; outputs: data_grad, label_grad (zeros). */
void SoftmaxCrossEntropyGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                       const std::vector<TBlob>& inputs,
                                       const std::vector<OpReqType>& req,
                                       const std::vector<TBlob>& outputs) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  if ((req[1] == kWriteTo || req[1] == kWriteInplace) && outputs[1].Size() > 0) {
    CUDA_CALL(cudaMemsetAsync(outputs[1].dptr_, 0,
                              outputs[1].Size() * mshadow::mshadow_sizeof(outputs[1].type_flag_),
                              stream));
  }
  const index_t N = inputs[1].shape_[0], C = inputs[1].shape_[1];
  if (req[0] == kNullOp || N == 0 || C == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>(N, 65535));
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[2].type_flag_, LType, {
      CrossEntropyGradKernel<DType, LType><<<blocks, kCountThreads, 0, stream>>>(
          inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<LType>(), N, C,
          outputs[0].dptr<DType>(), static_cast<int>(req[0]));
    });
  });
  CUDA_CALL(cudaGetLastError());
}

}  // namespace

NNVM_REGISTER_OP(softmax_cross_entropy)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxCrossEntropyComputeGPU);
NNVM_REGISTER_OP(_backward_softmax_cross_entropy)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxCrossEntropyGradComputeGPU);
NNVM_REGISTER_OP(SoftmaxOutput).set_attr<FCompute>("FCompute<gpu>", SoftmaxOutputCompute<gpu>);
NNVM_REGISTER_OP(_backward_SoftmaxOutput)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxOutputGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
