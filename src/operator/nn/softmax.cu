/*!
 * \file softmax.cu
 * \brief GPU kernels of softmax, log_softmax, softmin, SoftmaxActivation and their gradients:
 *        the row functors of softmax-inl.h, one GPU thread per row.
 */
#include "./softmax-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(softmax)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxCompute<gpu, SoftmaxKind::kSoftmax>);
NNVM_REGISTER_OP(_backward_softmax)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxGradCompute<gpu, SoftmaxKind::kSoftmax>);
NNVM_REGISTER_OP(log_softmax)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxCompute<gpu, SoftmaxKind::kLogSoftmax>);
NNVM_REGISTER_OP(_backward_log_softmax)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxGradCompute<gpu, SoftmaxKind::kLogSoftmax>);
NNVM_REGISTER_OP(softmin)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxCompute<gpu, SoftmaxKind::kSoftmin>);
NNVM_REGISTER_OP(_backward_softmin)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxGradCompute<gpu, SoftmaxKind::kSoftmin>);
NNVM_REGISTER_OP(SoftmaxActivation)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxActivationCompute<gpu>);
NNVM_REGISTER_OP(_backward_SoftmaxActivation)
.set_attr<FCompute>("FCompute<gpu>", SoftmaxActivationGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
