/*!
 * \file svm_output.cu
 * \brief SVMOutput and its gradient on the GPU (svm_output-inl.h).
 */
#include "./svm_output-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(SVMOutput).set_attr<FCompute>("FCompute<gpu>", SVMOutputCompute<gpu>);
NNVM_REGISTER_OP(_backward_SVMOutput)
.set_attr<FCompute>("FCompute<gpu>", SVMOutputGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
