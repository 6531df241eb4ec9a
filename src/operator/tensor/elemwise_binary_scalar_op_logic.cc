/*!
 * \file elemwise_binary_scalar_op_logic.cc
 * \brief Array-scalar comparisons and logical ops (_equal_scalar ... _logical_xor_scalar): 1
 *        where true, 0 where false; not differentiable.
 */
#include "./elemwise_binary_scalar_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_REGISTER_BINARY_SCALAR_LOGIC(name, alias, functor, doc)                  \
  MXNET_OPERATOR_REGISTER_BINARY_SCALAR(name)                                          \
  .add_alias(alias)                                                                    \
  .describe(doc " (1 where true, 0 where false; in the input dtype)." ADD_FILELINE)    \
  .set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, functor>)          \
  .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)

MXNET_REGISTER_BINARY_SCALAR_LOGIC(_equal_scalar, "_EqualScalar", mshadow_op::eq,
                                   "x == scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_not_equal_scalar, "_NotEqualScalar", mshadow_op::ne,
                                   "x != scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_greater_scalar, "_GreaterScalar", mshadow_op::gt,
                                   "x > scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_greater_equal_scalar, "_GreaterEqualScalar", mshadow_op::ge,
                                   "x >= scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_lesser_scalar, "_LesserScalar", mshadow_op::lt,
                                   "x < scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_lesser_equal_scalar, "_LesserEqualScalar", mshadow_op::le,
                                   "x <= scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_logical_and_scalar, "_LogicalAndScalar",
                                   mshadow_op::logical_and, "x and scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_logical_or_scalar, "_LogicalOrScalar",
                                   mshadow_op::logical_or, "x or scalar, element-wise");
MXNET_REGISTER_BINARY_SCALAR_LOGIC(_logical_xor_scalar, "_LogicalXorScalar",
                                   mshadow_op::logical_xor, "x xor scalar, element-wise");

}  // namespace op
}  // namespace mxnet
