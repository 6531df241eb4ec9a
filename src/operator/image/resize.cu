/*!
 * \file resize.cu
 * \brief _image_resize on the GPU: resize-inl.h's kernels (one thread per output pixel, every
 *        interpolation mode, the CPU's arithmetic).
 */
#include "./resize-inl.h"

namespace mxnet {
namespace op {
namespace image {

NNVM_REGISTER_OP(_image_resize).set_attr<FCompute>("FCompute<gpu>", ResizeCompute<gpu>);

}  // namespace image
}  // namespace op
}  // namespace mxnet
