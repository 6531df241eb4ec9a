/*!
 * \file elemwise_binary_broadcast_op_logic.cu
 * \brief GPU kernels of the broadcast comparison and logical operators.
 */
#include "./elemwise_binary_broadcast_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_BROADCAST_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", BinaryBroadcastCompute<gpu, OP>)

MXNET_BROADCAST_GPU(broadcast_equal, mshadow_op::eq);
MXNET_BROADCAST_GPU(broadcast_not_equal, mshadow_op::ne);
MXNET_BROADCAST_GPU(broadcast_greater, mshadow_op::gt);
MXNET_BROADCAST_GPU(broadcast_greater_equal, mshadow_op::ge);
MXNET_BROADCAST_GPU(broadcast_lesser, mshadow_op::lt);
MXNET_BROADCAST_GPU(broadcast_lesser_equal, mshadow_op::le);
MXNET_BROADCAST_GPU(broadcast_logical_and, mshadow_op::logical_and);
MXNET_BROADCAST_GPU(broadcast_logical_or, mshadow_op::logical_or);
MXNET_BROADCAST_GPU(broadcast_logical_xor, mshadow_op::logical_xor);

}  // namespace op
}  // namespace mxnet
