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
 * no gradient for this operator; neither does this one. The kernel serves every device
 * (rroi_align.cc registers the CPU, rroi_align.cu the GPU): one item per bin and block of
 * channels (a block is one channel on the GPU).
 */
#ifndef MXNET_OPERATOR_CONTRIB_RROI_ALIGN_INL_H_
#define MXNET_OPERATOR_CONTRIB_RROI_ALIGN_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../nn/spatial_kernel_util-inl.h"
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
MSHADOW_XINLINE G RROIBilinear(const DType* plane, index_t H, index_t W, G y, G x) {
  index_t idx[4];
  G wt[4];
  if (!BilinearTaps(y, x, H, W, idx, wt)) return G(0);
  return wt[0] * static_cast<G>(plane[idx[0]]) + wt[1] * static_cast<G>(plane[idx[1]]) +
         wt[2] * static_cast<G>(plane[idx[2]]) + wt[3] * static_cast<G>(plane[idx[3]]);
}

/*! \brief Shapes and parameters of one call. */
struct RROIGeom {
  index_t N, C, H, W, PH, PW;
  float spatial_scale;
  int sampling_ratio;
};

/*!
 * \brief Item i = (r, cb, ph, pw): outputs (r, c, ph, pw) for the kBlock channels c of block cb,
 *        each the average of the bin's samples (the sample points shared by the block). G is
 *        the geometry type (float, or double for float64).
 */
template <int kBlock>
struct rroi_align_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* data, const DType* rois, DType* out,
                                  RROIGeom g, int req) {
    using G = SpGeomT<DType>;
    const index_t nb = (g.C + kBlock - 1) / kBlock;
    const index_t pw = i % g.PW, ph = (i / g.PW) % g.PH, cb = (i / (g.PW * g.PH)) % nb;
    const index_t r = i / (g.PW * g.PH * nb);
    const index_t c0 = cb * kBlock, nc = SpMin<index_t>(kBlock, g.C - c0);
    const index_t P = g.PH * g.PW;
    DType* o = out + (r * g.C + c0) * P + ph * g.PW + pw;  // channel stride P
    const DType* roi = rois + r * 6;
    const G scale = g.spatial_scale;
    const G pi = static_cast<G>(3.14159265358979323846);
    const G bf = static_cast<G>(roi[0]);  // truncated toward zero; NaN is out of range
    const G cx = static_cast<G>(roi[1]) * scale, cy = static_cast<G>(roi[2]) * scale;
    const G rw = SpMax(static_cast<G>(roi[3]) * scale, G(1));
    const G rh = SpMax(static_cast<G>(roi[4]) * scale, G(1));
    const G theta = static_cast<G>(roi[5]) * pi / G(180);
    G acc[kBlock];
    for (index_t cc = 0; cc < nc; ++cc) acc[cc] = 0;
    G count = 1;
    if (bf > G(-1) && bf < static_cast<G>(g.N) && SpIsFinite(cx) && SpIsFinite(cy) &&
        SpIsFinite(rw) && SpIsFinite(rh) && SpIsFinite(theta)) {
      const index_t b = static_cast<index_t>(bf);
      const G ct = SpCos(theta), st = SpSin(theta);
      const G bh = rh / static_cast<G>(g.PH), bw = rw / static_cast<G>(g.PW);
      // Adaptive grids are capped so that absurd roi sizes cannot overflow the count.
      const index_t gh = g.sampling_ratio > 0 ? g.sampling_ratio
          : static_cast<index_t>(SpMin(SpCeil(rh / static_cast<G>(g.PH)), G(1 << 16)));
      const index_t gw = g.sampling_ratio > 0 ? g.sampling_ratio
          : static_cast<index_t>(SpMin(SpCeil(rw / static_cast<G>(g.PW)), G(1 << 16)));
      count = static_cast<G>(SpMax<index_t>(gh * gw, 1));
      const DType* base = data + (b * g.C + c0) * g.H * g.W;
      for (index_t iy = 0; iy < gh; ++iy) {
        const G yy = -rh / G(2) + static_cast<G>(ph) * bh +
                     (static_cast<G>(iy) + G(0.5)) * bh / static_cast<G>(gh);
        for (index_t ix = 0; ix < gw; ++ix) {
          const G xx = -rw / G(2) + static_cast<G>(pw) * bw +
                       (static_cast<G>(ix) + G(0.5)) * bw / static_cast<G>(gw);
          const G x = xx * ct + yy * st + cx;
          const G y = yy * ct - xx * st + cy;
          for (index_t cc = 0; cc < nc; ++cc) {
            acc[cc] += RROIBilinear<G>(base + cc * g.H * g.W, g.H, g.W, y, x);
          }
        }
      }
    }
    for (index_t cc = 0; cc < nc; ++cc) {
      const DType v = static_cast<DType>(acc[cc] / count);
      o[cc * P] = req == kAddTo ? static_cast<DType>(o[cc * P] + v) : v;
    }
  }
};

template <typename xpu>
void RROIAlignCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const RROIAlignParam& p = nnvm::get<RROIAlignParam>(attrs.parsed);
  const mxnet::TShape& d = inputs[0].shape_;
  const RROIGeom g{d[0], d[1], d[2], d[3], p.pooled_size[0], p.pooled_size[1], p.spatial_scale,
                   p.sampling_ratio};
  constexpr int kBlock = SpChannelBlock<xpu>::value;
  const index_t items = inputs[1].shape_[0] * ((g.C + kBlock - 1) / kBlock) * g.PH * g.PW;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchGrouped<rroi_align_forward<kBlock>>(ctx.get_stream<xpu>(), items, 1,
                                              inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                                              outputs[0].dptr<DType>(), g,
                                              static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_RROI_ALIGN_INL_H_
