/*!
 * \file elemwise_binary_scalar_op.cc
 * \brief Array-scalar operators: arithmetic (`_plus_scalar` ... `_hypot_scalar`, with the
 *        reversed `_r*_scalar` forms), comparisons and logical ops, and their backward ops.
 */
#include "./elemwise_binary_scalar_op-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

namespace {
// Second order: _backward_mul_scalar / _backward_div_scalar are linear in ograd: their gradient
// is the same op applied to the incoming gradient.
std::vector<nnvm::NodeEntry> LinearScalarBackwardGrad(const nnvm::ObjectPtr& n,
                                                      const std::vector<nnvm::NodeEntry>& g) {
  return {nnvm::NodeEntry(GradGraphBuilder(n).Again({g[0]}), 0, 0)};
}
}  // namespace

DMLC_REGISTER_PARAMETER(NumpyBinaryScalarParam);

/*! \brief Backward of a scalar op from (ograd, x or y): dx = ograd * GRAD(x or y, scalar). */
#define MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(name, GRAD)                          \
  NNVM_REGISTER_OP(name)                                                               \
  .set_num_inputs(2)                                                                   \
  .set_num_outputs(1)                                                                  \
  .set_attr_parser(ParamParser<NumpyBinaryScalarParam>)                                \
  .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                    \
  .set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<2, 1>)                    \
  .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)                        \
  .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceIn0Out0)                    \
  .set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Backward<cpu, GRAD>)            \
  .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")              \
  .add_argument("data", "NDArray-or-Symbol", "The forward input (output for rpower)")   \
  .add_arguments(NumpyBinaryScalarParam::__FIELDS__())

/*! \brief Backward of a scalar op from ograd only: dx = OP(ograd, scalar). */
#define MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD_USE_NONE(name, OP)                   \
  NNVM_REGISTER_OP(name)                                                               \
  .set_num_inputs(1)                                                                   \
  .set_num_outputs(1)                                                                  \
  .set_attr_parser(ParamParser<NumpyBinaryScalarParam>)                                \
  .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                    \
  .set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)                    \
  .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)                        \
  .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceIn0Out0)                    \
  .set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, OP>)               \
  .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")              \
  .add_arguments(NumpyBinaryScalarParam::__FIELDS__())

// ---------------------------------------------------------------------------- arithmetic

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_plus_scalar)
.add_alias("_PlusScalar")
.describe("Adds a scalar to the array, element-wise: x + scalar." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::plus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_copy"});

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_minus_scalar)
.add_alias("_MinusScalar")
.describe("Subtracts a scalar from the array, element-wise: x - scalar." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::minus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_copy"});

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_rminus_scalar)
.add_alias("_RMinusScalar")
.describe("Subtracts the array from a scalar, element-wise: scalar - x." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::rminus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"negative"});

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_mul_scalar)
.add_alias("_MulScalar")
.describe("Multiplies the array by a scalar, element-wise: x * scalar." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::mul>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_mul_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD_USE_NONE(_backward_mul_scalar, mshadow_op::mul)
.set_attr<nnvm::FGradient>("FGradient", LinearScalarBackwardGrad);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_div_scalar)
.add_alias("_DivScalar")
.describe("Divides the array by a scalar, element-wise: x / scalar." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::div>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_div_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD_USE_NONE(_backward_div_scalar, mshadow_op::div)
.set_attr<nnvm::FGradient>("FGradient", LinearScalarBackwardGrad);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_rdiv_scalar)
.add_alias("_RDivScalar")
.describe("Divides a scalar by the array, element-wise: scalar / x." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::rdiv>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_rdiv_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_rdiv_scalar, binary_grad::rdiv_x)
// Second order: d = -s/x^2, d' = 2s/x^3.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -3), 2 * c.b.Attr("scalar", 1.0)));
}});

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_mod_scalar)
.add_alias("_ModScalar")
.describe("The array modulo a scalar, element-wise: x % scalar (sign of the scalar)." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::mod>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_mod_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_mod_scalar, binary_grad::one);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_rmod_scalar)
.add_alias("_RModScalar")
.describe("A scalar modulo the array, element-wise: scalar % x (sign of x)." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::rmod>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_rmod_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_rmod_scalar, binary_grad::rmod_x);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_power_scalar)
.add_alias("_PowerScalar")
.describe("The array raised to the power of a scalar, element-wise: x ** scalar." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::power>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_power_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_power_scalar, binary_grad::power_left);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_rpower_scalar)
.add_alias("_RPowerScalar")
.describe("A scalar raised to the power of the array, element-wise: scalar ** x." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::rpower>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_rpower_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_rpower_scalar, binary_grad::rpower_y);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_maximum_scalar)
.add_alias("_MaximumScalar")
.add_alias("_npi_maximum_scalar")
.describe("Element-wise maximum of the array and a scalar." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::maximum>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_maximum_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_maximum_scalar, binary_grad::ge);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_minimum_scalar)
.add_alias("_MinimumScalar")
.add_alias("_npi_minimum_scalar")
.describe("Element-wise minimum of the array and a scalar." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::minimum>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_minimum_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_minimum_scalar, binary_grad::le);

MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_hypot_scalar)
.add_alias("_HypotScalar")
.add_alias("_npi_hypot_scalar")
.describe("sqrt(x**2 + scalar**2), element-wise." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::hypot>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_hypot_scalar"});
MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(_backward_hypot_scalar, binary_grad::hypot_left);

// ---------------------------------------------------------------------------- logic

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
