/*!
 * \file deformable_psroi_pooling-inl.h
 * \brief _contrib_DeformablePSROIPooling (deformable_psroi_pooling.cc): position-sensitive ROI
 *        pooling whose bins are shifted by learned offsets (Dai et al. 2017, Deformable ConvNets).
 *
 * data (N, output_dim*group_size^2, H, W), rois (R, 5) rows [batch, x1, y1, x2, y2], trans
 * (R, 2*num_classes, part_size, part_size) (absent with no_trans) -> output
 * (R, output_dim, pooled_size, pooled_size) and a hidden second output top_count (the number
 * of samples averaged into each output, read by the backward).
 *
 * The roi is [round(x1)*s - 0.5, (round(x2)+1)*s - 0.5] (s = spatial_scale, at least 0.1 wide),
 * split into pooled_size^2 bins. Output channel co belongs to class co / (output_dim /
 * num_classes); bin (i, j) is shifted by trans_std * (roi width, roi height) times
 * trans[r, 2*class + {0,1}, part_h, part_w] (part_h = floor(i / pooled_size * part_size)).
 * Each bin averages sample_per_part^2 bilinear samples (floor/ceil corners) of input channel
 * (co*group_size + gi)*group_size + gj (gi = floor(i*group_size/pooled_size)); samples outside
 * [-0.5, size-0.5] are skipped, the others clamped to the map. A roi whose batch index is
 * outside [0, N) pools to zeros. The rois get zero gradient.
 */
#ifndef MXNET_OPERATOR_CONTRIB_DEFORMABLE_PSROI_POOLING_INL_H_
#define MXNET_OPERATOR_CONTRIB_DEFORMABLE_PSROI_POOLING_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {

struct DeformablePSROIPoolingParam : public dmlc::Parameter<DeformablePSROIPoolingParam> {
  float spatial_scale;
  int output_dim;
  int group_size;
  int pooled_size;
  int part_size;
  int sample_per_part;
  float trans_std;
  bool no_trans;
  DMLC_DECLARE_PARAMETER(DeformablePSROIPoolingParam) {
    DMLC_DECLARE_FIELD(spatial_scale).set_range(0.0f, 1.0f)
        .describe("Ratio of input feature map height (or w) to raw image height (or w). "
                  "Equals the reciprocal of total stride in convolutional layers");
    DMLC_DECLARE_FIELD(output_dim).describe("fix output dim");
    DMLC_DECLARE_FIELD(group_size).describe("fix group size");
    DMLC_DECLARE_FIELD(pooled_size).describe("fix pooled size");
    DMLC_DECLARE_FIELD(part_size).set_default(0).describe("fix part size");
    DMLC_DECLARE_FIELD(sample_per_part).set_default(1).describe("fix samples per part");
    DMLC_DECLARE_FIELD(trans_std).set_default(0.0f).describe("fix transition std");
    DMLC_DECLARE_FIELD(no_trans).set_default(false)
        .describe("Whether to disable trans parameter.");
  }
};

/*! \brief The geometry of one call. */
struct DPSROIGeom {
  index_t N, C, H, W, R;
  index_t P, group, part, samples, D, classes;
  bool no_trans;
};

/*!
 * \brief Visits the samples of every output cell of roi r and output channel co:
 *        fn(out_index, plane_offset, y, x, trans_x_index, trans_y_index, roi_w, roi_h) per
 *        in-map sample (y, x already clamped), then done(out_index, count). G is the geometry
 *        arithmetic type. Returns false when the roi's batch index is out of range.
 */
template <typename G, typename DType, typename Visit, typename Done>
bool DPSROIVisit(const DPSROIGeom& g, float spatial_scale, const DType* roi,
                 const DType* trans, float trans_std, index_t r, index_t co, Visit fn,
                 Done done) {
  const G bf = static_cast<G>(roi[0]);  // truncated toward zero; NaN is out of range
  if (!(bf > G(-1) && bf < static_cast<G>(g.N))) return false;
  const index_t b = static_cast<index_t>(bf);
  const G scale = spatial_scale;
  const G x1 = std::round(static_cast<G>(roi[1])) * scale - G(0.5);
  const G y1 = std::round(static_cast<G>(roi[2])) * scale - G(0.5);
  const G x2 = (std::round(static_cast<G>(roi[3])) + G(1)) * scale - G(0.5);
  const G y2 = (std::round(static_cast<G>(roi[4])) + G(1)) * scale - G(0.5);
  const G rw = std::max(x2 - x1, G(0.1)), rh = std::max(y2 - y1, G(0.1));
  const G bw = rw / static_cast<G>(g.P), bh = rh / static_cast<G>(g.P);
  const G sbw = bw / static_cast<G>(g.samples), sbh = bh / static_cast<G>(g.samples);
  const index_t per_class = g.D / g.classes, cls = co / per_class;
  const G tstd = trans_std;
  for (index_t i = 0; i < g.P; ++i) {
    const index_t part_h = static_cast<index_t>(
        std::floor(static_cast<G>(i) / static_cast<G>(g.P) * static_cast<G>(g.part)));
    const index_t gi = std::min(std::max<index_t>(i * g.group / g.P, 0), g.group - 1);
    for (index_t j = 0; j < g.P; ++j) {
      const index_t part_w = static_cast<index_t>(
          std::floor(static_cast<G>(j) / static_cast<G>(g.P) * static_cast<G>(g.part)));
      const index_t gj = std::min(std::max<index_t>(j * g.group / g.P, 0), g.group - 1);
      const index_t tx_idx = ((r * g.classes + cls) * 2 * g.part + part_h) * g.part + part_w;
      const index_t ty_idx = tx_idx + g.part * g.part;
      G tx = 0, ty = 0;
      if (!g.no_trans) {
        tx = static_cast<G>(trans[tx_idx]) * tstd;
        ty = static_cast<G>(trans[ty_idx]) * tstd;
      }
      const G ws = static_cast<G>(j) * bw + x1 + tx * rw;
      const G hs = static_cast<G>(i) * bh + y1 + ty * rh;
      const index_t plane = (b * g.C + (co * g.group + gi) * g.group + gj) * g.H * g.W;
      const index_t o = (co * g.P + i) * g.P + j;
      index_t count = 0;
      for (index_t iy = 0; iy < g.samples; ++iy) {
        for (index_t ix = 0; ix < g.samples; ++ix) {
          G x = ws + static_cast<G>(ix) * sbw;
          G y = hs + static_cast<G>(iy) * sbh;
          // (written so that NaN coordinates are skipped too)
          if (!(x >= G(-0.5) && x <= static_cast<G>(g.W) - G(0.5) && y >= G(-0.5) &&
                y <= static_cast<G>(g.H) - G(0.5))) {
            continue;
          }
          x = std::min(std::max(x, G(0)), static_cast<G>(g.W - 1));
          y = std::min(std::max(y, G(0)), static_cast<G>(g.H - 1));
          fn(o, plane, y, x, tx_idx, ty_idx, rw, rh);
          ++count;
        }
      }
      done(o, count);
    }
  }
  return true;
}

/*! \brief The floor/ceil interpolation corners of (y, x) (already inside the map). */
template <typename G>
struct DPSCorners {
  index_t y0, y1, x0, x1;
  G ly, lx;
  DPSCorners(G y, G x) {
    y0 = static_cast<index_t>(std::floor(y));
    y1 = static_cast<index_t>(std::ceil(y));
    x0 = static_cast<index_t>(std::floor(x));
    x1 = static_cast<index_t>(std::ceil(x));
    ly = y - static_cast<G>(y0);
    lx = x - static_cast<G>(x0);
  }
};

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_DEFORMABLE_PSROI_POOLING_INL_H_
