/*!
 * \file l2_normalization.cu
 * \brief L2Normalization and its gradient on the GPU with the CPU's semantics
 *        (l2_normalization-inl.h): the groups of each mode as NormRows, one block per row
 *        reducing in double (norm_rows_gpu.cuh's geometry).
 */
#include "./l2_normalization-inl.h"

#if MXNET_USE_CUDA
#include "./norm_rows_gpu.cuh"

namespace mxnet {
namespace op {
namespace {

using norm_rows_gpu::Blocks;
using norm_rows_gpu::RowBase;
using norm_rows_gpu::RowDims;
constexpr int kThreads = norm_rows_gpu::kThreads;

template <typename DType>
__global__ void L2NormForwardKernel(RowDims d, const DType* x, DType* y, int req, DType* nrm) {
  __shared__ double buf[kThreads];
  for (index_t r = blockIdx.x; r < d.rows; r += gridDim.x) {
    const index_t b = RowBase(d, r);
    double sq = 0;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const double v = static_cast<double>(x[b + k * d.inner]);
      sq += v * v;
    }
    const double n = sqrt(norm_rows_gpu::BlockSum(buf, sq) + d.eps);
    if (threadIdx.x == 0) nrm[r] = DType(n);
    if (req == kNullOp) continue;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      KERNEL_ASSIGN(y[i], req, DType(static_cast<double>(x[i]) / n));
    }
  }
}

/*! \brief dx = (og - y * sum(og * y)) / norm over each row. */
template <typename DType>
__global__ void L2NormBackwardKernel(RowDims d, const DType* og, const DType* y,
                                     const DType* nrm, DType* dx, int req) {
  __shared__ double buf[kThreads];
  for (index_t r = blockIdx.x; r < d.rows; r += gridDim.x) {
    const index_t b = RowBase(d, r);
    double dot = 0;
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      dot += static_cast<double>(og[i]) * static_cast<double>(y[i]);
    }
    dot = norm_rows_gpu::BlockSum(buf, dot);
    const double inv = 1.0 / static_cast<double>(nrm[r]);
    // Each element is read and then written by the same thread: safe when dx is out_grad.
    for (index_t k = threadIdx.x; k < d.len; k += blockDim.x) {
      const index_t i = b + k * d.inner;
      const double v = (static_cast<double>(og[i]) - static_cast<double>(y[i]) * dot) * inv;
      KERNEL_ASSIGN(dx[i], req, DType(v));
    }
  }
}

void L2NormalizationComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  const L2NormalizationParam& param = nnvm::get<L2NormalizationParam>(attrs.parsed);
  const TBlob& data = inputs[0];
  const RowDims d = norm_rows_gpu::MakeRowDims(L2NormRows(data.shape_, param.mode), 0, false,
                                               param.eps);
  if (d.rows == 0) return;
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    L2NormForwardKernel<DType><<<Blocks(d.rows), kThreads, 0, stream>>>(
        d, data.dptr<DType>(), outputs[0].dptr<DType>(), static_cast<int>(req[0]),
        outputs[1].dptr<DType>());
  });
  CUDA_CALL(cudaGetLastError());
}

/*! \brief inputs: out_grad, output, norm; output: data_grad. */
void L2NormalizationGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& inputs,
                                   const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const L2NormalizationParam& param = nnvm::get<L2NormalizationParam>(attrs.parsed);
  const RowDims d = norm_rows_gpu::MakeRowDims(L2NormRows(inputs[1].shape_, param.mode), 0,
                                               false, param.eps);
  if (d.rows == 0) return;
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    L2NormBackwardKernel<DType><<<Blocks(d.rows), kThreads, 0, stream>>>(
        d, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
        outputs[0].dptr<DType>(), static_cast<int>(req[0]));
  });
  CUDA_CALL(cudaGetLastError());
}

}  // namespace

NNVM_REGISTER_OP(L2Normalization)
.set_attr<FCompute>("FCompute<gpu>", L2NormalizationComputeGPU);
NNVM_REGISTER_OP(_backward_L2Normalization)
.set_attr<FCompute>("FCompute<gpu>", L2NormalizationGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
