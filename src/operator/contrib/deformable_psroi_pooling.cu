/*!
 * \file deformable_psroi_pooling.cu
 * \brief _contrib_DeformablePSROIPooling and its gradient on the GPU:
 *        deformable_psroi_pooling-inl.h's kernels (the gradients scattered with atomic adds).
 */
#include "./deformable_psroi_pooling-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_DeformablePSROIPooling)
.set_attr<FCompute>("FCompute<gpu>", DPSROICompute<gpu>);
NNVM_REGISTER_OP(_backward_DeformablePSROIPooling)
.set_attr<FCompute>("FCompute<gpu>", DPSROIGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
