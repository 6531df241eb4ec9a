/*!
 * \file concat_split_op.cu
 * \brief GPU kernels of Concat, stack, SliceChannel (split), _split_v2 and their gradients.
 */
#include "./concat_split_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_JOIN_SPLIT_GPU(name, Param, join) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", JoinSplitCompute<gpu, Param, join>)

MXNET_JOIN_SPLIT_GPU(Concat, ConcatParam, true);
MXNET_JOIN_SPLIT_GPU(_backward_Concat, ConcatParam, false);
MXNET_JOIN_SPLIT_GPU(stack, StackParam, true);
MXNET_JOIN_SPLIT_GPU(_backward_stack, StackParam, false);
MXNET_JOIN_SPLIT_GPU(SliceChannel, SliceChannelParam, false);
MXNET_JOIN_SPLIT_GPU(_backward_SliceChannel, SliceChannelParam, true);
MXNET_JOIN_SPLIT_GPU(_split_v2, SplitParam, false);
MXNET_JOIN_SPLIT_GPU(_split_v2_backward, SplitParam, true);

}  // namespace op
}  // namespace mxnet
