/*!
 * \file elemwise_binary_op_basic.cu
 * \brief GPU kernels of the same-shape arithmetic operators: the functors of
 *        elemwise_binary_op-inl.h and mshadow_op.h, launched on the GPU.
 */
#include "./elemwise_binary_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(add_n).set_attr<FCompute>("FCompute<gpu>", ElementWiseSumCompute<gpu>);
NNVM_REGISTER_OP(elemwise_add)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::Compute<gpu, mshadow_op::plus>);
NNVM_REGISTER_OP(_grad_add)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::Compute<gpu, mshadow_op::plus>);
NNVM_REGISTER_OP(_backward_add)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::BackwardUseNone<gpu, mshadow_op::identity,
                                                                       mshadow_op::identity>);
NNVM_REGISTER_OP(elemwise_sub)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::Compute<gpu, mshadow_op::minus>);
NNVM_REGISTER_OP(_backward_sub)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::BackwardUseNone<gpu, mshadow_op::identity,
                                                                       mshadow_op::negation>);
NNVM_REGISTER_OP(elemwise_mul)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::Compute<gpu, mshadow_op::mul>);
NNVM_REGISTER_OP(_backward_mul)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::BackwardUseIn<gpu, binary_grad::mul_left,
                                                                     binary_grad::mul_right>);
NNVM_REGISTER_OP(elemwise_div)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::Compute<gpu, mshadow_op::div>);
NNVM_REGISTER_OP(_backward_div)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::BackwardUseIn<gpu, binary_grad::div_left,
                                                                     binary_grad::div_right>);
NNVM_REGISTER_OP(_mod)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::Compute<gpu, mshadow_op::mod>);
NNVM_REGISTER_OP(_backward_mod)
.set_attr<FCompute>("FCompute<gpu>", ElemwiseBinaryOp::BackwardUseIn<gpu, binary_grad::one,
                                                                     binary_grad::mod_right>);

}  // namespace op
}  // namespace mxnet
