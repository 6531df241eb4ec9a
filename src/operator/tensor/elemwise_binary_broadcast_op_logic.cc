/*!
 * \file elemwise_binary_broadcast_op_logic.cc
 * \brief Broadcasting comparisons and logical ops (broadcast_equal ... broadcast_logical_xor):
 *        1 where true, 0 where false, in the input dtype; not differentiable.
 */
#include "./elemwise_binary_broadcast_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_REGISTER_BROADCAST_LOGIC(name, functor, what)                                   \
  MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(name)                                              \
  .describe("Returns the result of element-wise **" what "** with broadcasting: 1 where "     \
            "true, 0 where false, in the input dtype." ADD_FILELINE)                          \
  .set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, functor>)                  \
  .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)

MXNET_REGISTER_BROADCAST_LOGIC(broadcast_equal, mshadow_op::eq, "equal to (==)");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_not_equal, mshadow_op::ne, "not equal to (!=)");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_greater, mshadow_op::gt, "greater than (>)");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_greater_equal, mshadow_op::ge,
                               "greater than or equal to (>=)");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_lesser, mshadow_op::lt, "lesser than (<)");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_lesser_equal, mshadow_op::le,
                               "lesser than or equal to (<=)");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_logical_and, mshadow_op::logical_and, "logical and");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_logical_or, mshadow_op::logical_or, "logical or");
MXNET_REGISTER_BROADCAST_LOGIC(broadcast_logical_xor, mshadow_op::logical_xor, "logical xor");

}  // namespace op
}  // namespace mxnet
