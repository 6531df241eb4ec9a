/*!
 * \file rroi_align-inl.h
 * \brief _contrib_RROIAlign (rroi_align.cc): ROI Align over rotated rois (Ma et al. 2018,
 *        rotation proposals for scene text).
 *
 * data (N, C, H, W), rois (R, 6) rows [batch_index, center_x, center_y, width, height,
 * angle_degrees] in image coordinates -> out (R, C, pooled_h, pooled_w). The roi is scaled by
 * spatial_scale (width and height at least 1), split into pooled bins in its own frame, and
 * each bin averages a grid of sampling_ratio^2 points (adaptive ceil(roi/pooled) when
 * sampling_ratio <= 0); a point (xx, yy) relative to the centre maps to the map at
 *   x = xx*cos(t) + yy*sin(t) + cx,   y = yy*cos(t) - xx*sin(t) + cy
 * and is interpolated bilinearly as in ROIAlign (0 beyond one cell outside the map, clamped
 * at the border). A roi whose batch index is outside [0, N) gives zeros. MXNet 1.9.1 defines
 * no gradient for this operator; neither does this one.
 */
#ifndef MXNET_OPERATOR_CONTRIB_RROI_ALIGN_INL_H_
#define MXNET_OPERATOR_CONTRIB_RROI_ALIGN_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {

struct RROIAlignParam : public dmlc::Parameter<RROIAlignParam> {
  mxnet::TShape pooled_size;
  float spatial_scale;
  int sampling_ratio;
  DMLC_DECLARE_PARAMETER(RROIAlignParam) {
    DMLC_DECLARE_FIELD(pooled_size).describe("RROI align output shape (h,w) ");
    DMLC_DECLARE_FIELD(spatial_scale).set_range(0.0f, 1.0f)
        .describe("Ratio of input feature map height (or width) to raw image height (or width). "
                  "Equals the reciprocal of total stride in convolutional layers");
    DMLC_DECLARE_FIELD(sampling_ratio).set_default(-1)
        .describe("Optional sampling ratio of RROI align, using adaptive size by default.");
  }
};

/*! \brief Bilinear value of point (y, x) on an H x W plane, ROIAlign's border rules. */
template <typename G, typename DType>
G RROIBilinear(const DType* plane, index_t H, index_t W, G y, G x) {
  // (written so that NaN points read 0 too)
  if (!(y >= G(-1) && y <= static_cast<G>(H) && x >= G(-1) && x <= static_cast<G>(W))) {
    return G(0);
  }
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  index_t y0 = static_cast<index_t>(y), x0 = static_cast<index_t>(x), y1, x1;
  if (y0 >= H - 1) {
    y0 = y1 = H - 1;
    y = static_cast<G>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= W - 1) {
    x0 = x1 = W - 1;
    x = static_cast<G>(x0);
  } else {
    x1 = x0 + 1;
  }
  const G ly = y - static_cast<G>(y0), lx = x - static_cast<G>(x0);
  const G hy = G(1) - ly, hx = G(1) - lx;
  return hy * hx * static_cast<G>(plane[y0 * W + x0]) +
         hy * lx * static_cast<G>(plane[y0 * W + x1]) +
         ly * hx * static_cast<G>(plane[y1 * W + x0]) +
         ly * lx * static_cast<G>(plane[y1 * W + x1]);
}

/*! \brief Forward over all rois (G is the geometry type: float, or double for float64). */
template <typename G, typename DType>
void RROIAlignForward(const RROIAlignParam& p, const mxnet::TShape& dshape, const DType* data,
                      const DType* rois, index_t R, DType* out) {
  const index_t N = dshape[0], C = dshape[1], H = dshape[2], W = dshape[3];
  const index_t PH = p.pooled_size[0], PW = p.pooled_size[1];
  const G scale = p.spatial_scale;
  const G pi = static_cast<G>(3.14159265358979323846);
  #pragma omp parallel for
  for (index_t r = 0; r < R; ++r) {
    const DType* roi = rois + r * 6;
    DType* o = out + r * C * PH * PW;
    const G bf = static_cast<G>(roi[0]);  // truncated toward zero; NaN is out of range
    const G cx = static_cast<G>(roi[1]) * scale, cy = static_cast<G>(roi[2]) * scale;
    const G rw = std::max(static_cast<G>(roi[3]) * scale, G(1));
    const G rh = std::max(static_cast<G>(roi[4]) * scale, G(1));
    const G theta = static_cast<G>(roi[5]) * pi / G(180);
    if (!(bf > G(-1) && bf < static_cast<G>(N)) || !std::isfinite(cx) || !std::isfinite(cy) ||
        !std::isfinite(rw) || !std::isfinite(rh) || !std::isfinite(theta)) {
      std::fill(o, o + C * PH * PW, DType(0));
      continue;
    }
    const index_t b = static_cast<index_t>(bf);
    const G ct = std::cos(theta), st = std::sin(theta);
    const G bh = rh / static_cast<G>(PH), bw = rw / static_cast<G>(PW);
    // Adaptive grids are capped so that absurd roi sizes cannot overflow the count.
    const index_t gh = p.sampling_ratio > 0 ? p.sampling_ratio
        : static_cast<index_t>(std::min(std::ceil(rh / static_cast<G>(PH)), G(1 << 16)));
    const index_t gw = p.sampling_ratio > 0 ? p.sampling_ratio
        : static_cast<index_t>(std::min(std::ceil(rw / static_cast<G>(PW)), G(1 << 16)));
    const G count = static_cast<G>(std::max<index_t>(gh * gw, 1));
    std::vector<G> acc(C);
    for (index_t i = 0; i < PH; ++i) {
      for (index_t j = 0; j < PW; ++j) {
        std::fill(acc.begin(), acc.end(), G(0));
        for (index_t iy = 0; iy < gh; ++iy) {
          const G yy = -rh / G(2) + static_cast<G>(i) * bh +
                       (static_cast<G>(iy) + G(0.5)) * bh / static_cast<G>(gh);
          for (index_t ix = 0; ix < gw; ++ix) {
            const G xx = -rw / G(2) + static_cast<G>(j) * bw +
                         (static_cast<G>(ix) + G(0.5)) * bw / static_cast<G>(gw);
            const G x = xx * ct + yy * st + cx;
            const G y = yy * ct - xx * st + cy;
            for (index_t c = 0; c < C; ++c) {
              acc[c] += RROIBilinear<G>(data + (b * C + c) * H * W, H, W, y, x);
            }
          }
        }
        for (index_t c = 0; c < C; ++c) {
          o[(c * PH + i) * PW + j] = static_cast<DType>(acc[c] / count);
        }
      }
    }
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_RROI_ALIGN_INL_H_
