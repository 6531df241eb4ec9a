/*!
 * \file lamb.cu
 * \brief _multi_lamb_update and _multi_mp_lamb_update on the GPU, two kernels per tensor and
 *        no copy to the host: the first updates the moments, writes the direction r into
 *        temporary space and sums |w|^2 and |r|^2 in double into kChunks partial sums; the
 *        second finishes both sums (in the same order in every block, so r1 and r2 are the
 *        same everywhere and from run to run) and takes the step. The math is lamb.cc's.
 */
#include "./optimizer_op-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <algorithm>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

using common::cuda::BlockSum;
constexpr int kThreads = common::cuda::kThreadsPerBlock;
constexpr int kChunks = 128;  // blocks of the first kernel, <= kThreads

struct LambTensor {
  double beta1, beta2, c1, c2, epsilon, wd, rescale, clip;
};

template <typename DType, typename MType>
__global__ void LambDirectionKernel(index_t n, LambTensor t, const DType* w, const DType* g,
                                    MType* mean, MType* var, const MType* w32, double* r,
                                    double* partial_w, double* partial_r) {
  __shared__ double buf[kThreads];
  double sw = 0, sr = 0;
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t k = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += step) {
    const double weight = w32 != nullptr ? static_cast<double>(w32[k]) : static_cast<double>(w[k]);
    double grad = t.rescale * static_cast<double>(g[k]);
    if (t.clip >= 0) grad = fmax(-t.clip, fmin(grad, t.clip));
    const MType m = static_cast<MType>(t.beta1 * static_cast<double>(mean[k]) +
                                       (1 - t.beta1) * grad);
    const MType v = static_cast<MType>(t.beta2 * static_cast<double>(var[k]) +
                                       (1 - t.beta2) * grad * grad);
    mean[k] = m;
    var[k] = v;
    const double rk = (static_cast<double>(m) / t.c1) /
                          (sqrt(static_cast<double>(v) / t.c2) + t.epsilon) + t.wd * weight;
    r[k] = rk;
    sw += weight * weight;
    sr += rk * rk;
  }
  sw = BlockSum(buf, sw);
  sr = BlockSum(buf, sr);
  if (threadIdx.x == 0) {
    partial_w[blockIdx.x] = sw;
    partial_r[blockIdx.x] = sr;
  }
}

template <typename DType, typename MType>
__global__ void LambStepKernel(index_t n, const DType* w, MType* w32, const double* r,
                               const double* partial_w, const double* partial_r, double lr,
                               double lower, double upper, DType* out, int req) {
  __shared__ double buf[kThreads];
  const bool mine = threadIdx.x < kChunks;
  double r1 = sqrt(BlockSum(buf, mine ? partial_w[threadIdx.x] : 0.0));
  const double r2 = sqrt(BlockSum(buf, mine ? partial_r[threadIdx.x] : 0.0));
  if (lower > 0) r1 = fmax(r1, lower);
  if (upper > 0) r1 = fmin(r1, upper);
  const double ratio = (r1 == 0 || r2 == 0) ? 1.0 : r1 / r2;
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t k = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += step) {
    const double weight = w32 != nullptr ? static_cast<double>(w32[k]) : static_cast<double>(w[k]);
    const double nw = weight - lr * ratio * r[k];
    if (w32 != nullptr) w32[k] = static_cast<MType>(nw);
    KERNEL_ASSIGN(out[k], req, static_cast<DType>(nw));
  }
}

template <bool mp>
void MultiLAMBComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& out) {
  const MultiLAMBParam& p = CheckedMultiLAMBParam(attrs);
  const int group = mp ? 5 : 4;
  index_t largest = 0;
  for (int i = 0; i < p.num_tensors; ++i) {
    largest = std::max<index_t>(largest, in[i * group].Size());
  }
  // The tensors run one after another on the stream, so they share the temporary space.
  double* r = static_cast<double*>(ctx.requested[0].get_space_internal(
      (static_cast<size_t>(largest) + 2 * kChunks) * sizeof(double)));
  double* partial_w = r + largest;
  double* partial_r = partial_w + kChunks;
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  for (int i = 0; i < p.num_tensors; ++i) {
    const int base = i * group;
    const index_t n = in[base].Size();
    const double t = static_cast<double>(p.step_count[i]);
    LambTensor lt{p.beta1, p.beta2,
                  p.bias_correction ? 1 - std::pow(static_cast<double>(p.beta1), t) : 1.0,
                  p.bias_correction ? 1 - std::pow(static_cast<double>(p.beta2), t) : 1.0,
                  p.epsilon, p.wds[i], p.rescale_grad, p.clip_gradient};
    const unsigned step_blocks = static_cast<unsigned>(std::min<index_t>(
        std::max<index_t>((n + kThreads - 1) / kThreads, 1), common::cuda::kMaxBlocks));
    MSHADOW_REAL_TYPE_SWITCH(out[i].type_flag_, DType, {
      typedef typename std::conditional<mp, float, DType>::type MType;
      MType* w32 = mp ? in[base + 4].dptr<MType>() : nullptr;
      LambDirectionKernel<DType, MType><<<kChunks, kThreads, 0, stream>>>(
          n, lt, in[base].dptr<DType>(), in[base + 1].dptr<DType>(),
          in[base + 2].dptr<MType>(), in[base + 3].dptr<MType>(), w32, r, partial_w,
          partial_r);
      if (req[i] != kNullOp || mp) {
        LambStepKernel<DType, MType><<<step_blocks, kThreads, 0, stream>>>(
            n, in[base].dptr<DType>(), w32, r, partial_w, partial_r, p.learning_rates[i],
            p.lower_bound, p.upper_bound, out[i].dptr<DType>(), static_cast<int>(req[i]));
      }
    });
    CUDA_CALL(cudaGetLastError());
  }
}

}  // namespace

NNVM_REGISTER_OP(_multi_lamb_update)
.set_attr<FCompute>("FCompute<gpu>", MultiLAMBComputeGPU<false>);
NNVM_REGISTER_OP(_multi_mp_lamb_update)
.set_attr<FCompute>("FCompute<gpu>", MultiLAMBComputeGPU<true>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
