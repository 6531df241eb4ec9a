/*!
 * \file elemwise_binary_scalar_op_extended.cu
 * \brief GPU kernels of the array-scalar power, maximum, minimum, hypot (and their gradients)
 *        and comparison / logical operators.
 */
#include "./elemwise_binary_scalar_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_SCALAR_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", BinaryScalarOp::Compute<gpu, OP>)
#define MXNET_SCALAR_BWD_GPU(name, GRAD) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", BinaryScalarOp::Backward<gpu, GRAD>)

MXNET_SCALAR_GPU(_power_scalar, mshadow_op::power);
MXNET_SCALAR_BWD_GPU(_backward_power_scalar, binary_grad::power_left);
MXNET_SCALAR_GPU(_rpower_scalar, mshadow_op::rpower);
MXNET_SCALAR_BWD_GPU(_backward_rpower_scalar, binary_grad::rpower_y);
MXNET_SCALAR_GPU(_maximum_scalar, mshadow_op::maximum);
MXNET_SCALAR_BWD_GPU(_backward_maximum_scalar, binary_grad::ge);
MXNET_SCALAR_GPU(_minimum_scalar, mshadow_op::minimum);
MXNET_SCALAR_BWD_GPU(_backward_minimum_scalar, binary_grad::le);
MXNET_SCALAR_GPU(_hypot_scalar, mshadow_op::hypot);
MXNET_SCALAR_BWD_GPU(_backward_hypot_scalar, binary_grad::hypot_left);

MXNET_SCALAR_GPU(_equal_scalar, mshadow_op::eq);
MXNET_SCALAR_GPU(_not_equal_scalar, mshadow_op::ne);
MXNET_SCALAR_GPU(_greater_scalar, mshadow_op::gt);
MXNET_SCALAR_GPU(_greater_equal_scalar, mshadow_op::ge);
MXNET_SCALAR_GPU(_lesser_scalar, mshadow_op::lt);
MXNET_SCALAR_GPU(_lesser_equal_scalar, mshadow_op::le);
MXNET_SCALAR_GPU(_logical_and_scalar, mshadow_op::logical_and);
MXNET_SCALAR_GPU(_logical_or_scalar, mshadow_op::logical_or);
MXNET_SCALAR_GPU(_logical_xor_scalar, mshadow_op::logical_xor);

}  // namespace op
}  // namespace mxnet
