/*!
 * \file image_ops.cu
 * \brief The `_image_*` operators on the GPU: image_ops-inl.h's kernels (the same functors as
 *        the CPU, one thread per output element, pixel or pixel pair).
 *
 * The random ops (_image_random_*) draw their factors on the host from the kRandom resource, a
 * host generator seeded per device id, exactly as the CPU does, then launch the kernels on the
 * op's stream: after mx.random.seed(s), gpu(0) gives what cpu(0) gives.
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

NNVM_REGISTER_OP(_image_random_flip_left_right)
.set_attr<FCompute>("FCompute<gpu>", RandomFlipCompute<gpu, 1>);
NNVM_REGISTER_OP(_image_random_flip_top_bottom)
.set_attr<FCompute>("FCompute<gpu>", RandomFlipCompute<gpu, 0>);

NNVM_REGISTER_OP(_image_random_brightness)
.set_attr<FCompute>("FCompute<gpu>", RandomColorCompute<gpu, kBrightness>);
NNVM_REGISTER_OP(_image_random_contrast)
.set_attr<FCompute>("FCompute<gpu>", RandomColorCompute<gpu, kContrast>);
NNVM_REGISTER_OP(_image_random_saturation)
.set_attr<FCompute>("FCompute<gpu>", RandomColorCompute<gpu, kSaturation>);
NNVM_REGISTER_OP(_image_random_hue)
.set_attr<FCompute>("FCompute<gpu>", RandomColorCompute<gpu, kHue>);
NNVM_REGISTER_OP(_image_random_color_jitter)
.set_attr<FCompute>("FCompute<gpu>", RandomColorJitterCompute<gpu>);

NNVM_REGISTER_OP(_image_adjust_lighting)
.set_attr<FCompute>("FCompute<gpu>", AdjustLightingCompute<gpu>);
NNVM_REGISTER_OP(_image_random_lighting)
.set_attr<FCompute>("FCompute<gpu>", RandomLightingCompute<gpu>);

NNVM_REGISTER_OP(_image_crop).set_attr<FCompute>("FCompute<gpu>", CropCompute<gpu, false>);
NNVM_REGISTER_OP(_backward_image_crop).set_attr<FCompute>("FCompute<gpu>", CropCompute<gpu, true>);

}  // namespace image
}  // namespace op
}  // namespace mxnet
