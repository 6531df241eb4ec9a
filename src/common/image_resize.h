/*!
 * \file image_resize.h
 * \brief The image resize kernel shared by the _image_resize operator and the image data
 *        iterators (defined with the operator's kernels in src/operator/image/resize.cc).
 */
#ifndef MXNET_COMMON_IMAGE_RESIZE_H_
#define MXNET_COMMON_IMAGE_RESIZE_H_

#include <cstdint>

namespace mxnet {
namespace image_resize {

/*!
 * \brief Resizes one (h, w, c) uint8 image to (oh, ow, c) with _image_resize's OpenCV-compatible
 *        kernels (interp 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos).
 */
void ResizeUint8Image(const uint8_t* x, uint8_t* y, int64_t h, int64_t w, int64_t c, int64_t oh,
                      int64_t ow, int interp);

}  // namespace image_resize
}  // namespace mxnet

#endif  // MXNET_COMMON_IMAGE_RESIZE_H_
