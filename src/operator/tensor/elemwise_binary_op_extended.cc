/*!
 * \file elemwise_binary_op_extended.cc
 * \brief Same-shape _power, _maximum, _minimum, _hypot and their backward ops.
 */
#include "./elemwise_binary_op-inl.h"

namespace mxnet {
namespace op {

// The same-shape kernels shared with the broadcasting ops (extern in elemwise_binary_op-inl.h).
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::power);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::maximum);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::minimum);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::hypot);
MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::power_left, binary_grad::power_right);
MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::ge, binary_grad::lt);
MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::le, binary_grad::gt);
MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::hypot_left, binary_grad::hypot_right);

MXNET_OPERATOR_REGISTER_BINARY(_power)
.add_alias("_Power")
.describe("First array elements raised to powers from second array, element-wise." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::power>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_power"});
MXNET_REGISTER_BINARY_BWD_USE_IN(_backward_power, binary_grad::power_left,
                                 binary_grad::power_right);

MXNET_OPERATOR_REGISTER_BINARY(_maximum)
.add_alias("_Maximum")
.describe("Element-wise maximum of the two inputs." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::maximum>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_maximum"});
MXNET_REGISTER_BINARY_BWD_USE_IN(_backward_maximum, binary_grad::ge, binary_grad::lt);

MXNET_OPERATOR_REGISTER_BINARY(_minimum)
.add_alias("_Minimum")
.describe("Element-wise minimum of the two inputs." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::minimum>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_minimum"});
MXNET_REGISTER_BINARY_BWD_USE_IN(_backward_minimum, binary_grad::le, binary_grad::gt);

MXNET_OPERATOR_REGISTER_BINARY(_hypot)
.add_alias("_Hypot")
.describe(R"code(Given the "legs" of a right triangle, return its hypotenuse.

Equivalent to "sqrt(x1**2 + x2**2)", element-wise.

Example::

   x = [3., 5., 7.]
   y = [4., 12., 24.]
   hypot(x, y) = [5., 13., 25.]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::hypot>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_hypot"});
MXNET_REGISTER_BINARY_BWD_USE_IN(_backward_hypot, binary_grad::hypot_left,
                                 binary_grad::hypot_right);

}  // namespace op
}  // namespace mxnet
