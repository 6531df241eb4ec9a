/*!
 * \file elemwise_unary_op_math.cu
 * \brief GPU kernels of the element-wise math functions (elemwise_unary_op_math.cc) and their
 *        gradients, from the functors of mshadow_op.h (gamma, gammaln and erfinv are in
 *        elemwise_unary_op_special.cu).
 */
#include "./elemwise_unary_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_UNARY_GPU(name, OP) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", UnaryOp::Compute<gpu, OP>)
#define MXNET_UNARY_BWD_GPU(name, GRAD) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", UnaryOp::Backward<gpu, GRAD>)

MXNET_UNARY_GPU(expm1, mshadow_op::expm1);
MXNET_UNARY_GPU(log, mshadow_op::log);
MXNET_UNARY_GPU(log10, mshadow_op::log10);
MXNET_UNARY_GPU(log2, mshadow_op::log2);
MXNET_UNARY_GPU(log1p, mshadow_op::log1p);
MXNET_UNARY_GPU(sin, mshadow_op::sin);
MXNET_UNARY_GPU(cos, mshadow_op::cos);
MXNET_UNARY_GPU(tan, mshadow_op::tan);
MXNET_UNARY_GPU(arcsin, mshadow_op::arcsin);
MXNET_UNARY_GPU(arccos, mshadow_op::arccos);
MXNET_UNARY_GPU(arctan, mshadow_op::arctan);
MXNET_UNARY_GPU(degrees, mshadow_op::degrees);
MXNET_UNARY_GPU(radians, mshadow_op::radians);
MXNET_UNARY_GPU(sinh, mshadow_op::sinh);
MXNET_UNARY_GPU(cosh, mshadow_op::cosh);
MXNET_UNARY_GPU(tanh, mshadow_op::tanh);
MXNET_UNARY_GPU(arcsinh, mshadow_op::arcsinh);
MXNET_UNARY_GPU(arccosh, mshadow_op::arccosh);
MXNET_UNARY_GPU(arctanh, mshadow_op::arctanh);
MXNET_UNARY_GPU(erf, mshadow_op::erf);
MXNET_UNARY_BWD_GPU(_backward_expm1, unary_grad::expm1);
MXNET_UNARY_BWD_GPU(_backward_log, unary_grad::log);
MXNET_UNARY_BWD_GPU(_backward_log10, unary_grad::log10);
MXNET_UNARY_BWD_GPU(_backward_log2, unary_grad::log2);
MXNET_UNARY_BWD_GPU(_backward_log1p, unary_grad::log1p);
MXNET_UNARY_BWD_GPU(_backward_sin, unary_grad::sin);
MXNET_UNARY_BWD_GPU(_backward_cos, unary_grad::cos);
MXNET_UNARY_BWD_GPU(_backward_tan, unary_grad::tan);
MXNET_UNARY_BWD_GPU(_backward_arcsin, unary_grad::arcsin);
MXNET_UNARY_BWD_GPU(_backward_arccos, unary_grad::arccos);
MXNET_UNARY_BWD_GPU(_backward_arctan, unary_grad::arctan);
MXNET_UNARY_BWD_GPU(_backward_degrees, unary_grad::degrees);
MXNET_UNARY_BWD_GPU(_backward_radians, unary_grad::radians);
MXNET_UNARY_BWD_GPU(_backward_sinh, unary_grad::sinh);
MXNET_UNARY_BWD_GPU(_backward_cosh, unary_grad::cosh);
MXNET_UNARY_BWD_GPU(_backward_tanh, unary_grad::tanh);
MXNET_UNARY_BWD_GPU(_backward_arcsinh, unary_grad::arcsinh);
MXNET_UNARY_BWD_GPU(_backward_arccosh, unary_grad::arccosh);
MXNET_UNARY_BWD_GPU(_backward_arctanh, unary_grad::arctanh);
MXNET_UNARY_BWD_GPU(_backward_erf, unary_grad::erf);

}  // namespace op
}  // namespace mxnet
