/*!
 * \file concat_split_op.cu
 * \brief GPU kernels of Concat, stack, SliceChannel (split), _split_v2 and their gradients.
 */
#include "./concat_split_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(Concat).set_attr<FCompute>("FCompute<gpu>", ConcatCompute<gpu>);
NNVM_REGISTER_OP(_backward_Concat).set_attr<FCompute>("FCompute<gpu>", ConcatBackward<gpu>);
NNVM_REGISTER_OP(stack).set_attr<FCompute>("FCompute<gpu>", StackCompute<gpu>);
NNVM_REGISTER_OP(_backward_stack).set_attr<FCompute>("FCompute<gpu>", StackBackward<gpu>);
NNVM_REGISTER_OP(SliceChannel).set_attr<FCompute>("FCompute<gpu>", SliceChannelCompute<gpu>);
NNVM_REGISTER_OP(_backward_SliceChannel)
.set_attr<FCompute>("FCompute<gpu>", SliceChannelBackward<gpu>);
NNVM_REGISTER_OP(_split_v2).set_attr<FCompute>("FCompute<gpu>", SplitV2Compute<gpu>);
NNVM_REGISTER_OP(_split_v2_backward).set_attr<FCompute>("FCompute<gpu>", SplitV2Backward<gpu>);

}  // namespace op
}  // namespace mxnet
