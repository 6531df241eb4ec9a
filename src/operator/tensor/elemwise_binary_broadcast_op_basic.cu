/*!
 * \file elemwise_binary_broadcast_op_basic.cu
 * \brief GPU forward kernels of the broadcast arithmetic operators (equal shapes take the
 *        same-shape kernel; the gradients' broadcast reductions are not on the GPU yet).
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

}  // namespace op
}  // namespace mxnet
