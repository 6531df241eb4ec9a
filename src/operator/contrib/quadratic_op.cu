/*!
 * \file quadratic_op.cu
 * \brief _contrib_quadratic and its gradient on the GPU: quadratic_op-inl.h's kernels.
 */
#include "./quadratic_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_quadratic).set_attr<FCompute>("FCompute<gpu>", QuadraticOpForward<gpu>);
NNVM_REGISTER_OP(_contrib_backward_quadratic)
.set_attr<FCompute>("FCompute<gpu>", QuadraticOpBackward<gpu>);

}  // namespace op
}  // namespace mxnet
