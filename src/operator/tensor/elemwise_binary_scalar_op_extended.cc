/*!
 * \file elemwise_binary_scalar_op_extended.cc
 * \brief Array-scalar _power_scalar, _rpower_scalar, _maximum_scalar, _minimum_scalar,
 *        _hypot_scalar and their backward ops.
 */
#include "./elemwise_binary_scalar_op-inl.h"

namespace mxnet {
namespace op {

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

}  // namespace op
}  // namespace mxnet
