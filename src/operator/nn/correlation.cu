/*!
 * \file correlation.cu
 * \brief Correlation and its gradient on the GPU: correlation-inl.h's kernels.
 */
#include "./correlation-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(Correlation).set_attr<FCompute>("FCompute<gpu>", CorrelationForward<gpu>);
NNVM_REGISTER_OP(_backward_Correlation)
.set_attr<FCompute>("FCompute<gpu>", CorrelationBackward<gpu>);

}  // namespace op
}  // namespace mxnet
