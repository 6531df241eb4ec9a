/*!
 * \file image_ops-inl.h
 * \brief Shared helpers of the `_image_*` operators (image_ops.cc, resize.cc): layout checks
 *        with MXNet 1.9.1's rules and the saturating cast that integer images need.
 *
 * Layouts: images are (H, W, C) or batches (N, H, W, C); to_tensor turns them into (C, H, W) /
 * (N, C, H, W) float32 in [0, 1], which normalize consumes.
 */
#ifndef MXNET_OPERATOR_IMAGE_IMAGE_OPS_INL_H_
#define MXNET_OPERATOR_IMAGE_IMAGE_OPS_INL_H_

#include <dmlc/logging.h>
#include <mxnet/tuple.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace mxnet {
namespace op {
namespace image {

/*! \brief An image (H, W, C) or a batch (N, H, W, C); throws otherwise, naming the op. */
inline void CheckImageOrBatch(const char* op, const mxnet::TShape& s) {
  if (s.ndim() != 3 && s.ndim() != 4) {
    MX_THROW(dmlc::ValueError) << op << ": input image must have shape (height, width, channels) "
                               << "or (N, height, width, channels), but got " << s;
  }
}

/*! \brief A single (H, W, C) image with 1 or 3 channels (the colour ops of 1.9.1). */
inline void CheckSingleImage(const char* op, const mxnet::TShape& s) {
  if (s.ndim() != 3) {
    MX_THROW(dmlc::ValueError) << op << ": input image must have shape (height, width, channels), "
                               << "but got " << s;
  }
  if (s[2] != 1 && s[2] != 3) {
    MX_THROW(dmlc::ValueError) << op << ": the last dimension of the input image must be the "
                               << "channel dimension with either 1 or 3 elements, but got input "
                               << "with shape " << s;
  }
}

/*!
 * \brief double -> DType as 1.9.1's image ops store results: integer types clamp to their range
 *        and truncate toward zero; floating types convert directly.
 */
template <typename DType>
inline DType SaturateCast(double v) {
  if constexpr (std::is_integral<DType>::value) {
    constexpr double lo = static_cast<double>(std::numeric_limits<DType>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<DType>::max());
    if (!(v >= lo)) return std::numeric_limits<DType>::min();  // also NaN
    if (v > hi) return std::numeric_limits<DType>::max();
    return static_cast<DType>(v);
  } else {
    return static_cast<DType>(static_cast<float>(v));
  }
}

template <>
inline double SaturateCast<double>(double v) { return v; }

}  // namespace image
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_IMAGE_IMAGE_OPS_INL_H_
