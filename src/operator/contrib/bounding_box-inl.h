/*!
 * \file bounding_box-inl.h
 * \brief Box geometry shared by the detection operators (bounding_box.cc, multibox.cc):
 *        corner/center conversion, IoU, and greedy non-maximum suppression over a score-sorted
 *        candidate list. Boxes are (x1, y1, x2, y2) "corner" or (x, y, w, h) "center"; areas
 *        have no +1 (continuous coordinates), as in MXNet 1.9.1.
 */
#ifndef MXNET_OPERATOR_CONTRIB_BOUNDING_BOX_INL_H_
#define MXNET_OPERATOR_CONTRIB_BOUNDING_BOX_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {
namespace box_common {

enum BoxFormat { kCorner, kCenter };

/*! \brief Reads a box in `format` into corner form (x1, y1, x2, y2). */
template <typename DType>
inline void ToCorner(const DType* b, int format, double out[4]) {
  if (format == kCorner) {
    out[0] = b[0]; out[1] = b[1]; out[2] = b[2]; out[3] = b[3];
  } else {
    const double hw = static_cast<double>(b[2]) / 2, hh = static_cast<double>(b[3]) / 2;
    out[0] = b[0] - hw; out[1] = b[1] - hh; out[2] = b[0] + hw; out[3] = b[1] + hh;
  }
}

/*! \brief Writes a corner box c into `format` at dst. */
template <typename DType>
inline void FromCorner(const double c[4], int format, DType* dst) {
  if (format == kCorner) {
    for (int k = 0; k < 4; ++k) dst[k] = static_cast<DType>(c[k]);
  } else {
    dst[0] = static_cast<DType>((c[0] + c[2]) / 2);
    dst[1] = static_cast<DType>((c[1] + c[3]) / 2);
    dst[2] = static_cast<DType>(c[2] - c[0]);
    dst[3] = static_cast<DType>(c[3] - c[1]);
  }
}

/*! \brief Intersection over union of two corner boxes; 0 when the union is empty. */
inline double CornerIoU(const double a[4], const double b[4]) {
  const double w = std::max(0.0, std::min(a[2], b[2]) - std::max(a[0], b[0]));
  const double h = std::max(0.0, std::min(a[3], b[3]) - std::max(a[1], b[1]));
  const double inter = w * h;
  const double area_a = std::max(0.0, a[2] - a[0]) * std::max(0.0, a[3] - a[1]);
  const double area_b = std::max(0.0, b[2] - b[0]) * std::max(0.0, b[3] - b[1]);
  const double uni = area_a + area_b - inter;
  return uni > 0 ? inter / uni : 0.0;
}

/*!
 * \brief Greedy NMS over candidates already sorted by descending score: candidate j is dropped
 *        when an earlier kept candidate i overlaps it by IoU > thresh and may_suppress(i, j).
 *        corners[k] is the corner box (computed in double) of candidate k. Returns keep flags.
 */
inline std::vector<bool> GreedyNMS(const std::vector<std::array<double, 4>>& corners, float thresh,
                            const std::function<bool(size_t, size_t)>& may_suppress) {
  const size_t n = corners.size();
  std::vector<bool> keep(n, true);
  for (size_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    for (size_t j = i + 1; j < n; ++j) {
      if (!keep[j] || !may_suppress(i, j)) continue;
      if (CornerIoU(corners[i].data(), corners[j].data()) > thresh) keep[j] = false;
    }
  }
  return keep;
}

}  // namespace box_common
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_BOUNDING_BOX_INL_H_
