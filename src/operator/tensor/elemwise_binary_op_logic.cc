/*!
 * \file elemwise_binary_op_logic.cc
 * \brief Same-shape comparisons and logical ops (_equal ... _logical_xor): 0/1 results in the
 *        input dtype; not differentiable.
 */
#include "./elemwise_binary_op-inl.h"

namespace mxnet {
namespace op {

// The same-shape kernels shared with the broadcasting ops (extern in elemwise_binary_op-inl.h).
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::eq);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::ne);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::gt);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::ge);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::lt);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::le);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::logical_and);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::logical_or);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::logical_xor);

#define MXNET_REGISTER_BINARY_LOGIC(name, alias, functor, doc)                        \
  MXNET_OPERATOR_REGISTER_BINARY(name)                                                \
  .add_alias(alias)                                                                   \
  .describe(doc " (1 where true, 0 where false; in the input dtype)." ADD_FILELINE)   \
  .set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, functor>)       \
  .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)

MXNET_REGISTER_BINARY_LOGIC(_equal, "_Equal", mshadow_op::eq, "lhs == rhs, element-wise");
MXNET_REGISTER_BINARY_LOGIC(_not_equal, "_Not_Equal", mshadow_op::ne, "lhs != rhs, element-wise");
MXNET_REGISTER_BINARY_LOGIC(_greater, "_Greater", mshadow_op::gt, "lhs > rhs, element-wise");
MXNET_REGISTER_BINARY_LOGIC(_greater_equal, "_Greater_Equal", mshadow_op::ge,
                            "lhs >= rhs, element-wise");
MXNET_REGISTER_BINARY_LOGIC(_lesser, "_Lesser", mshadow_op::lt, "lhs < rhs, element-wise");
MXNET_REGISTER_BINARY_LOGIC(_lesser_equal, "_Lesser_Equal", mshadow_op::le,
                            "lhs <= rhs, element-wise");
MXNET_REGISTER_BINARY_LOGIC(_logical_and, "_Logical_And", mshadow_op::logical_and,
                            "lhs and rhs (non-zero is true), element-wise");
MXNET_REGISTER_BINARY_LOGIC(_logical_or, "_Logical_Or", mshadow_op::logical_or,
                            "lhs or rhs (non-zero is true), element-wise");
MXNET_REGISTER_BINARY_LOGIC(_logical_xor, "_Logical_Xor", mshadow_op::logical_xor,
                            "lhs xor rhs (non-zero is true), element-wise");

}  // namespace op
}  // namespace mxnet
