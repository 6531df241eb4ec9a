/*!
 * \file instance_norm.cu
 * \brief InstanceNorm and its gradient on the GPU with the CPU's semantics (instance_norm-inl.h):
 *        rows (n, c) of the spatial elements through norm_rows_gpu.cuh's row kernels (gamma and
 *        beta by channel, the variance as the second output); the gamma and beta gradients
 *        take one block per channel (ChannelNormForward/Backward, shared with GroupNorm).
 */
#include "./instance_norm-inl.h"

#if MXNET_USE_CUDA
#include "./norm_rows_gpu.cuh"

namespace mxnet {
namespace op {
namespace {

using norm_rows_gpu::RowDims;

RowDims DimsOf(const InstanceNormParam& param, const TBlob& data) {
  return norm_rows_gpu::MakeRowDims(InstanceNormRows(data.shape_), data.shape_[1], true,
                                    param.eps);
}

void InstanceNormComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[instance_norm::kData];
  if (data.Size() == 0) return;
  norm_rows_gpu::ChannelNormForward(
      ctx, DimsOf(nnvm::get<InstanceNormParam>(attrs.parsed), data), inputs, req, outputs);
}

void InstanceNormGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[1];
  norm_rows_gpu::ChannelNormBackward(ctx, DimsOf(nnvm::get<InstanceNormParam>(attrs.parsed), data),
                                     data.Size() > 0 ? data.shape_[0] : 0, inputs, req, outputs);
}

}  // namespace

NNVM_REGISTER_OP(InstanceNorm).set_attr<FCompute>("FCompute<gpu>", InstanceNormComputeGPU);
NNVM_REGISTER_OP(_backward_InstanceNorm)
.set_attr<FCompute>("FCompute<gpu>", InstanceNormGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
