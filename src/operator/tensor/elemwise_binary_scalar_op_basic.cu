/*!
 * \file elemwise_binary_scalar_op_basic.cu
 * \brief GPU kernels of the array-scalar arithmetic operators and their gradients.
 */
#include "./elemwise_binary_scalar_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_SCALAR_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", BinaryScalarOp::Compute<gpu, OP>)
#define MXNET_SCALAR_BWD_GPU(name, GRAD) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", BinaryScalarOp::Backward<gpu, GRAD>)

MXNET_SCALAR_GPU(_plus_scalar, mshadow_op::plus);
MXNET_SCALAR_GPU(_minus_scalar, mshadow_op::minus);
MXNET_SCALAR_GPU(_rminus_scalar, mshadow_op::rminus);
MXNET_SCALAR_GPU(_mul_scalar, mshadow_op::mul);
MXNET_SCALAR_GPU(_backward_mul_scalar, mshadow_op::mul);
MXNET_SCALAR_GPU(_div_scalar, mshadow_op::div);
MXNET_SCALAR_GPU(_backward_div_scalar, mshadow_op::div);
MXNET_SCALAR_GPU(_rdiv_scalar, mshadow_op::rdiv);
MXNET_SCALAR_BWD_GPU(_backward_rdiv_scalar, binary_grad::rdiv_x);
MXNET_SCALAR_GPU(_mod_scalar, mshadow_op::mod);
MXNET_SCALAR_BWD_GPU(_backward_mod_scalar, binary_grad::one);
MXNET_SCALAR_GPU(_rmod_scalar, mshadow_op::rmod);
MXNET_SCALAR_BWD_GPU(_backward_rmod_scalar, binary_grad::rmod_x);

}  // namespace op
}  // namespace mxnet
