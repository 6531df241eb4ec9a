/*!
 * \file elemwise_binary_broadcast_op_basic.cu
 * \brief GPU kernels of the broadcast arithmetic operators and their gradients (equal shapes
 *        take the same-shape kernels; broadcast gradients are summed by the GPU reduction).
 */
#include "./elemwise_binary_broadcast_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(broadcast_add)
.set_attr<FCompute>("FCompute<gpu>", BinaryBroadcastCompute<gpu, mshadow_op::plus>);
NNVM_REGISTER_OP(broadcast_sub)
.set_attr<FCompute>("FCompute<gpu>", BinaryBroadcastCompute<gpu, mshadow_op::minus>);
NNVM_REGISTER_OP(broadcast_mul)
.set_attr<FCompute>("FCompute<gpu>", BinaryBroadcastCompute<gpu, mshadow_op::mul>);
NNVM_REGISTER_OP(broadcast_div)
.set_attr<FCompute>("FCompute<gpu>", BinaryBroadcastCompute<gpu, mshadow_op::div>);
NNVM_REGISTER_OP(broadcast_mod)
.set_attr<FCompute>("FCompute<gpu>", BinaryBroadcastCompute<gpu, mshadow_op::mod>);

#define MXNET_BROADCAST_BWD_GPU(name, LOP, ROP, use_in) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>",  \
                                            BinaryBroadcastBackward<gpu, LOP, ROP, use_in>)

MXNET_BROADCAST_BWD_GPU(_backward_broadcast_add, mshadow_op::identity, mshadow_op::identity,
                        false);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_sub, mshadow_op::identity, mshadow_op::negation,
                        false);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_mul, binary_grad::mul_left, binary_grad::mul_right,
                        true);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_div, binary_grad::div_left, binary_grad::div_right,
                        true);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_mod, binary_grad::one, binary_grad::mod_right, true);

}  // namespace op
}  // namespace mxnet
