/*!
 * \file misc_ops.cu
 * \brief The small operators of misc_ops.cc on the GPU (misc_ops-inl.h's kernels):
 *        hard_sigmoid, cumsum, shape_array, size_array, index_array, the straight-through
 *        estimators, gradientmultiplier's gradient and _onehot_encode (whose indices are
 *        checked on the host, host_copy.h, before the kernel reads them).
 */
#include "./elemwise_unary_op-inl.h"
#include "./misc_ops-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(hard_sigmoid).set_attr<FCompute>("FCompute<gpu>", HardSigmoidCompute<gpu>);
NNVM_REGISTER_OP(_backward_hard_sigmoid)
.set_attr<FCompute>("FCompute<gpu>", HardSigmoidGradCompute<gpu>);
NNVM_REGISTER_OP(_np_cumsum).set_attr<FCompute>("FCompute<gpu>", (CumsumCompute<gpu, false>));
NNVM_REGISTER_OP(_backward_np_cumsum)
.set_attr<FCompute>("FCompute<gpu>", (CumsumCompute<gpu, true>));
NNVM_REGISTER_OP(shape_array).set_attr<FCompute>("FCompute<gpu>", ShapeArrayCompute<gpu>);
NNVM_REGISTER_OP(size_array).set_attr<FCompute>("FCompute<gpu>", SizeArrayCompute<gpu>);
NNVM_REGISTER_OP(_contrib_index_array)
.set_attr<FCompute>("FCompute<gpu>", IndexArrayCompute<gpu>);
NNVM_REGISTER_OP(_onehot_encode).set_attr<FCompute>("FCompute<gpu>", OnehotEncodeCompute<gpu>);
NNVM_REGISTER_OP(_contrib_backward_gradientmultiplier)
.set_attr<FCompute>("FCompute<gpu>", GradientMultiplierGradCompute<gpu>);
NNVM_REGISTER_OP(_contrib_round_ste)
.set_attr<FCompute>("FCompute<gpu>", UnaryOp::Compute<gpu, mshadow_op::round>);
NNVM_REGISTER_OP(_contrib_sign_ste)
.set_attr<FCompute>("FCompute<gpu>", UnaryOp::Compute<gpu, mshadow_op::sign>);

}  // namespace op
}  // namespace mxnet
