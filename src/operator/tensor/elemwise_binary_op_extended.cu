/*!
 * \file elemwise_binary_op_extended.cu
 * \brief GPU kernels of the same-shape power, maximum, minimum, hypot (and their gradients) and
 *        comparison / logical operators: the functors of mshadow_op.h on the GPU.
 */
#include "./elemwise_binary_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_BINARY_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::Compute<gpu, OP>)
#define MXNET_BINARY_BWD_USE_IN_GPU(name, LOP, ROP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>(        \
      "FCompute<gpu>", ElemwiseBinaryOp::BackwardUseIn<gpu, LOP, ROP>)

MXNET_BINARY_GPU(_power, mshadow_op::power);
MXNET_BINARY_BWD_USE_IN_GPU(_backward_power, binary_grad::power_left, binary_grad::power_right);
MXNET_BINARY_GPU(_maximum, mshadow_op::maximum);
MXNET_BINARY_BWD_USE_IN_GPU(_backward_maximum, binary_grad::ge, binary_grad::lt);
MXNET_BINARY_GPU(_minimum, mshadow_op::minimum);
MXNET_BINARY_BWD_USE_IN_GPU(_backward_minimum, binary_grad::le, binary_grad::gt);
MXNET_BINARY_GPU(_hypot, mshadow_op::hypot);
MXNET_BINARY_BWD_USE_IN_GPU(_backward_hypot, binary_grad::hypot_left, binary_grad::hypot_right);

MXNET_BINARY_GPU(_equal, mshadow_op::eq);
MXNET_BINARY_GPU(_not_equal, mshadow_op::ne);
MXNET_BINARY_GPU(_greater, mshadow_op::gt);
MXNET_BINARY_GPU(_greater_equal, mshadow_op::ge);
MXNET_BINARY_GPU(_lesser, mshadow_op::lt);
MXNET_BINARY_GPU(_lesser_equal, mshadow_op::le);
MXNET_BINARY_GPU(_logical_and, mshadow_op::logical_and);
MXNET_BINARY_GPU(_logical_or, mshadow_op::logical_or);
MXNET_BINARY_GPU(_logical_xor, mshadow_op::logical_xor);

}  // namespace op
}  // namespace mxnet
