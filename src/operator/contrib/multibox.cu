/*!
 * \file multibox.cu
 * \brief The SSD operators on the GPU: multibox-inl.h's kernels (anchors, IoUs, decoding and
 *        outputs one thread per element; matching, mining and NMS one thread per image).
 */
#include "./multibox-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_MultiBoxPrior)
.set_attr<FCompute>("FCompute<gpu>", MultiBoxPriorCompute<gpu>);
NNVM_REGISTER_OP(_contrib_MultiBoxTarget)
.set_attr<FCompute>("FCompute<gpu>", MultiBoxTargetCompute<gpu>);
NNVM_REGISTER_OP(_contrib_MultiBoxDetection)
.set_attr<FCompute>("FCompute<gpu>", MultiBoxDetectionCompute<gpu>);

}  // namespace op
}  // namespace mxnet
