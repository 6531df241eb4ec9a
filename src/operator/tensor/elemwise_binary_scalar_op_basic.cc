/*!
 * \file elemwise_binary_scalar_op_basic.cc
 * \brief Array-scalar arithmetic: _plus_scalar, _minus_scalar, _rminus_scalar, _mul_scalar,
 *        _div_scalar, _rdiv_scalar, _mod_scalar, _rmod_scalar and their backward ops.
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

}  // namespace op
}  // namespace mxnet
