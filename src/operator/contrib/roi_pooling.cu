/*!
 * \file roi_pooling.cu
 * \brief ROIPooling, _contrib_ROIAlign and _contrib_PSROIPooling and their gradients on the GPU:
 *        roi_pooling-inl.h's kernels (forward one thread per output, backward one thread per
 *        output gradient with atomic adds into the data gradient).
 */
#include "./roi_pooling-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(ROIPooling).set_attr<FCompute>("FCompute<gpu>", ROIPoolCompute<gpu>);
NNVM_REGISTER_OP(_backward_ROIPooling)
.set_attr<FCompute>("FCompute<gpu>", ROIPoolGradCompute<gpu>);
NNVM_REGISTER_OP(_contrib_ROIAlign).set_attr<FCompute>("FCompute<gpu>", ROIAlignCompute<gpu>);
NNVM_REGISTER_OP(_backward_ROIAlign)
.set_attr<FCompute>("FCompute<gpu>", ROIAlignGradCompute<gpu>);
NNVM_REGISTER_OP(_contrib_PSROIPooling)
.set_attr<FCompute>("FCompute<gpu>", PSROIPoolCompute<gpu>);
NNVM_REGISTER_OP(_backward_PSROIPooling)
.set_attr<FCompute>("FCompute<gpu>", PSROIPoolGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
