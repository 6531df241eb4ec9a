/*!
 * \file adaptive_avg_pooling.cu
 * \brief _contrib_AdaptiveAvgPooling2D and its gradient on the GPU: adaptive_avg_pooling-inl.h's
 *        kernels.
 */
#include "./adaptive_avg_pooling-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_AdaptiveAvgPooling2D)
.set_attr<FCompute>("FCompute<gpu>", AdaptivePoolCompute<gpu>);
NNVM_REGISTER_OP(_backward_contrib_AdaptiveAvgPooling2D)
.set_attr<FCompute>("FCompute<gpu>", AdaptivePoolGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
