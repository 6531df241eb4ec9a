/*!
 * \file elemwise_unary_op_special.cu
 * \brief GPU kernels of gamma, gammaln and erfinv and their gradients (digamma, erfinv_impl:
 *        the CPU's host-and-device functions), in a unit of their own to keep compiles short.
 */
#include "./elemwise_unary_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_UNARY_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", UnaryOp::Compute<gpu, OP>)
#define MXNET_UNARY_BWD_GPU(name, GRAD) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", UnaryOp::Backward<gpu, GRAD>)

MXNET_UNARY_GPU(gamma, mshadow_op::gamma);
MXNET_UNARY_BWD_GPU(_backward_gamma, unary_grad::gamma);
MXNET_UNARY_GPU(gammaln, mshadow_op::gammaln);
MXNET_UNARY_BWD_GPU(_backward_gammaln, unary_grad::gammaln);
MXNET_UNARY_GPU(erfinv, mshadow_op_ext::erfinv);
MXNET_UNARY_BWD_GPU(_backward_erfinv, unary_grad::erfinv);

}  // namespace op
}  // namespace mxnet
