/*!
 * \file image_ops.cu
 * \brief The deterministic `_image_*` operators on the GPU: image_ops-inl.h's kernels (the same
 *        functors as the CPU, one thread per output element or pixel pair).
 *
 * The random ops (_image_random_*) stay CPU-only: they draw their factors on the host from the
 * kRandom resource, which the ResourceManager provides for CPU contexts only.
 */
#include "./image_ops-inl.h"

namespace mxnet {
namespace op {
namespace image {

NNVM_REGISTER_OP(_image_to_tensor).set_attr<FCompute>("FCompute<gpu>", ToTensorCompute<gpu>);
NNVM_REGISTER_OP(_backward_image_to_tensor)
.set_attr<FCompute>("FCompute<gpu>", ToTensorGradCompute<gpu>);

NNVM_REGISTER_OP(_image_normalize)
.set_attr<FCompute>("FCompute<gpu>", NormalizeCompute<gpu, false>);
NNVM_REGISTER_OP(_backward_image_normalize)
.set_attr<FCompute>("FCompute<gpu>", NormalizeCompute<gpu, true>);

NNVM_REGISTER_OP(_image_flip_left_right).set_attr<FCompute>("FCompute<gpu>", FlipCompute<gpu, 1>);
NNVM_REGISTER_OP(_image_flip_top_bottom).set_attr<FCompute>("FCompute<gpu>", FlipCompute<gpu, 0>);

NNVM_REGISTER_OP(_image_adjust_lighting)
.set_attr<FCompute>("FCompute<gpu>", AdjustLightingCompute<gpu>);

NNVM_REGISTER_OP(_image_crop).set_attr<FCompute>("FCompute<gpu>", CropCompute<gpu, false>);
NNVM_REGISTER_OP(_backward_image_crop).set_attr<FCompute>("FCompute<gpu>", CropCompute<gpu, true>);

}  // namespace image
}  // namespace op
}  // namespace mxnet
