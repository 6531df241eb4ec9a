/*!
 * \file elemwise_binary_broadcast_op_extended.cu
 * \brief GPU kernels of broadcast_power/maximum/minimum/hypot and their gradients.
 */
#include "./elemwise_binary_broadcast_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_BROADCAST_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", BinaryBroadcastCompute<gpu, OP>)
#define MXNET_BROADCAST_BWD_GPU(name, LOP, ROP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>(    \
      "FCompute<gpu>", BinaryBroadcastBackward<gpu, LOP, ROP, true>)

MXNET_BROADCAST_GPU(broadcast_power, mshadow_op::power);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_power, binary_grad::power_left,
                        binary_grad::power_right);
MXNET_BROADCAST_GPU(broadcast_maximum, mshadow_op::maximum);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_maximum, binary_grad::ge, binary_grad::lt);
MXNET_BROADCAST_GPU(broadcast_minimum, mshadow_op::minimum);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_minimum, binary_grad::le, binary_grad::gt);
MXNET_BROADCAST_GPU(broadcast_hypot, mshadow_op::hypot);
MXNET_BROADCAST_BWD_GPU(_backward_broadcast_hypot, binary_grad::hypot_left,
                        binary_grad::hypot_right);

}  // namespace op
}  // namespace mxnet
