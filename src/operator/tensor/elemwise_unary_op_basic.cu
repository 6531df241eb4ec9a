/*!
 * \file elemwise_unary_op_basic.cu
 * \brief GPU kernels of the basic element-wise unary operators (elemwise_unary_op_basic.cc) and
 *        their gradients, from the functors of mshadow_op.h.
 */
#include "./elemwise_unary_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_UNARY_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", UnaryOp::Compute<gpu, OP>)
#define MXNET_UNARY_BWD_GPU(name, GRAD) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", UnaryOp::Backward<gpu, GRAD>)

NNVM_REGISTER_OP(clip).set_attr<FCompute>("FCompute<gpu>", ClipCompute<gpu>);
NNVM_REGISTER_OP(_backward_clip).set_attr<FCompute>("FCompute<gpu>", ClipGradCompute<gpu>);
NNVM_REGISTER_OP(Cast).set_attr<FCompute>("FCompute<gpu>", CastCompute<gpu>);
NNVM_REGISTER_OP(_backward_cast).set_attr<FCompute>("FCompute<gpu>", CastCompute<gpu>);
NNVM_REGISTER_OP(amp_cast).set_attr<FCompute>("FCompute<gpu>", CastEachCompute<gpu>);
NNVM_REGISTER_OP(_backward_amp_cast).set_attr<FCompute>("FCompute<gpu>", CastEachCompute<gpu>);
NNVM_REGISTER_OP(amp_multicast).set_attr<FCompute>("FCompute<gpu>", CastEachCompute<gpu>);
NNVM_REGISTER_OP(_backward_amp_multicast)
.set_attr<FCompute>("FCompute<gpu>", CastEachCompute<gpu>);
NNVM_REGISTER_OP(_contrib_gradientmultiplier)
.set_attr<FCompute>("FCompute<gpu>", CastEachCompute<gpu>);
NNVM_REGISTER_OP(_copyto).set_attr<FCompute>("FCompute<gpu>", CastCompute<gpu>);
NNVM_REGISTER_OP(_copy).set_attr<FCompute>("FCompute<gpu>", UnaryOp::IdentityCompute<gpu>);
NNVM_REGISTER_OP(_backward_copy).set_attr<FCompute>("FCompute<gpu>", UnaryOp::IdentityCompute<gpu>);
NNVM_REGISTER_OP(BlockGrad).set_attr<FCompute>("FCompute<gpu>", UnaryOp::IdentityCompute<gpu>);
MXNET_UNARY_GPU(negative, mshadow_op::negation);
MXNET_UNARY_GPU(reciprocal, mshadow_op::reciprocal);
MXNET_UNARY_GPU(abs, mshadow_op::abs);
MXNET_UNARY_GPU(sign, mshadow_op::sign);
MXNET_UNARY_GPU(round, mshadow_op::round);
MXNET_UNARY_GPU(rint, mshadow_op::rint);
MXNET_UNARY_GPU(ceil, mshadow_op::ceil);
MXNET_UNARY_GPU(floor, mshadow_op::floor);
MXNET_UNARY_GPU(trunc, mshadow_op::trunc);
MXNET_UNARY_GPU(fix, mshadow_op::fix);
MXNET_UNARY_GPU(square, mshadow_op::square);
MXNET_UNARY_GPU(sqrt, mshadow_op::sqrt);
MXNET_UNARY_GPU(rsqrt, mshadow_op::rsqrt);
MXNET_UNARY_GPU(cbrt, mshadow_op::cbrt);
MXNET_UNARY_GPU(rcbrt, mshadow_op::rcbrt);
MXNET_UNARY_GPU(relu, mshadow_op::relu);
MXNET_UNARY_GPU(sigmoid, mshadow_op::sigmoid);
MXNET_UNARY_GPU(softsign, mshadow_op::softsign);
MXNET_UNARY_GPU(logical_not, mshadow_op::logical_not);
MXNET_UNARY_GPU(exp, mshadow_op::exp);
MXNET_UNARY_BWD_GPU(_backward_reciprocal, unary_grad::reciprocal);
MXNET_UNARY_BWD_GPU(_backward_abs, unary_grad::abs);
MXNET_UNARY_BWD_GPU(_backward_sign, unary_grad::sign);
MXNET_UNARY_BWD_GPU(_backward_square, unary_grad::square);
MXNET_UNARY_BWD_GPU(_backward_sqrt, unary_grad::sqrt);
MXNET_UNARY_BWD_GPU(_backward_rsqrt, unary_grad::rsqrt);
MXNET_UNARY_BWD_GPU(_backward_cbrt, unary_grad::cbrt);
MXNET_UNARY_BWD_GPU(_backward_rcbrt, unary_grad::rcbrt);
MXNET_UNARY_BWD_GPU(_backward_relu, unary_grad::relu);
MXNET_UNARY_BWD_GPU(_backward_sigmoid, unary_grad::sigmoid);
MXNET_UNARY_BWD_GPU(_backward_softsign, unary_grad::softsign);

}  // namespace op
}  // namespace mxnet
