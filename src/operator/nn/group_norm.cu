/*!
 * \file group_norm.cu
 * \brief GroupNorm and its gradient on the GPU with the CPU's semantics (group_norm.cc): rows
 *        (n, g) through norm_rows_gpu.cuh's channel-norm kernels, gamma and beta per group,
 *        the std as the second statistic.
 */
#include "./group_norm-inl.h"

#if MXNET_USE_CUDA
#include "./norm_rows_gpu.cuh"

namespace mxnet {
namespace op {
namespace {

norm_rows_gpu::RowDims DimsOf(const GroupNormParam& p, const TBlob& data) {
  return norm_rows_gpu::MakeRowDims(GroupNormRows(data.shape_, p.num_groups), p.num_groups,
                                    false, p.eps);
}

void GroupNormComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (inputs[0].Size() == 0) return;
  norm_rows_gpu::ChannelNormForward(
      ctx, DimsOf(nnvm::get<GroupNormParam>(attrs.parsed), inputs[0]), inputs, req, outputs);
}

void GroupNormGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[1];
  norm_rows_gpu::ChannelNormBackward(ctx, DimsOf(nnvm::get<GroupNormParam>(attrs.parsed), data),
                                     data.Size() > 0 ? data.shape_[0] : 0, inputs, req,
                                     outputs);
}

}  // namespace

NNVM_REGISTER_OP(GroupNorm).set_attr<FCompute>("FCompute<gpu>", GroupNormComputeGPU);
NNVM_REGISTER_OP(_backward_GroupNorm).set_attr<FCompute>("FCompute<gpu>", GroupNormGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
