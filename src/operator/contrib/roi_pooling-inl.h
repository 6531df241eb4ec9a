/*!
 * \file roi_pooling-inl.h
 * \brief Region-of-interest feature pooling (roi_pooling.cc): ROIPooling (max over integer bins,
 *        Fast R-CNN), _contrib_ROIAlign (average of bilinear samples, Mask R-CNN) and
 *        _contrib_PSROIPooling (position-sensitive average, R-FCN). data is (N, C, H, W), rois is
 *        (R, 5) rows of [batch_index, x1, y1, x2, y2] in input-image coordinates that
 *        spatial_scale maps onto the feature map. A roi whose batch index is outside [0, N)
 *        pools to zeros (and takes no gradient). The rois get zero gradient, as in MXNet 1.9.1.
 *
 *        The kernels here serve every device (roi_pooling.cc registers the CPU, roi_pooling.cu
 *        the GPU): the forward is one thread per output element (PSROIPooling's CPU forward
 *        takes a roi per item, each bin's geometry shared by its channels); the backward one item per
 *        output-gradient element scattering into the data gradient, grouped by output channel
 *        (in order on the CPU, atomic adds on the GPU; see nn/spatial_kernel_util-inl.h).
 */
#ifndef MXNET_OPERATOR_CONTRIB_ROI_POOLING_INL_H_
#define MXNET_OPERATOR_CONTRIB_ROI_POOLING_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <type_traits>
#include <vector>

#include "../mxnet_op.h"
#include "../nn/spatial_kernel_util-inl.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct ROIPoolingParam : public dmlc::Parameter<ROIPoolingParam> {
  mxnet::TShape pooled_size;
  float spatial_scale;
  DMLC_DECLARE_PARAMETER(ROIPoolingParam) {
    DMLC_DECLARE_FIELD(pooled_size)
        .describe("ROI pooling output shape (h,w) ");
    DMLC_DECLARE_FIELD(spatial_scale)
        .describe("Ratio of input feature map height (or w) to raw image height (or w). "
                  "Equals the reciprocal of total stride in convolutional layers");
  }
};

struct ROIAlignParam : public dmlc::Parameter<ROIAlignParam> {
  mxnet::TShape pooled_size;
  float spatial_scale;
  int sample_ratio;
  bool position_sensitive;
  bool aligned;
  DMLC_DECLARE_PARAMETER(ROIAlignParam) {
    DMLC_DECLARE_FIELD(pooled_size)
        .describe("ROI Align output roi feature map height and width: (h, w)");
    DMLC_DECLARE_FIELD(spatial_scale)
        .describe("Ratio of input feature map height (or w) to raw image height (or w). "
                  "Equals the reciprocal of total stride in convolutional layers");
    DMLC_DECLARE_FIELD(sample_ratio).set_default(-1)
        .describe("Optional sampling ratio of ROI align, using adaptive size by default.");
    DMLC_DECLARE_FIELD(position_sensitive).set_default(false)
        .describe("Whether to perform position-sensitive RoI pooling. PSRoIPooling is first "
                  "proposaled by R-FCN and it can reduce the input channels by ph*pw times, "
                  "where (ph, pw) is the pooled_size");
    DMLC_DECLARE_FIELD(aligned).set_default(false)
        .describe("Center-aligned ROIAlign introduced in Detectron2. To enable, set aligned "
                  "to True.");
  }
};

struct PSROIPoolingParam : public dmlc::Parameter<PSROIPoolingParam> {
  float spatial_scale;
  int output_dim;
  int pooled_size;
  int group_size;
  DMLC_DECLARE_PARAMETER(PSROIPoolingParam) {
    DMLC_DECLARE_FIELD(spatial_scale)
        .describe("Ratio of input feature map height (or w) to raw image height (or w). "
                  "Equals the reciprocal of total stride in convolutional layers");
    DMLC_DECLARE_FIELD(output_dim).describe("fix output dim");
    DMLC_DECLARE_FIELD(pooled_size).describe("fix pooled size");
    DMLC_DECLARE_FIELD(group_size).set_default(0)
        .describe("fix group size");
  }
};

/*!
 * \brief Checks data (N, C, H, W), rois (R, 5) and a 2-d positive pooled_size for `op`; returns
 *        false while a shape is still unknown.
 */
inline bool CheckROIInputs(const char* op, const mxnet::TShape& data, const mxnet::TShape& rois,
                           const mxnet::TShape& pooled) {
  if (pooled.ndim() != 2 || pooled[0] <= 0 || pooled[1] <= 0) {
    MX_THROW(ValueError) << op << ": pooled_size must be two positive integers (h, w), got "
                         << pooled;
  }
  if (!shape_is_known(data) || !shape_is_known(rois)) return false;
  if (data.ndim() != 4) {
    MX_THROW(ValueError) << op << ": data must be 4-d (batch, channel, height, width), got "
                         << data;
  }
  if (rois.ndim() != 2 || rois[1] != 5) {
    MX_THROW(ValueError) << op << ": rois must be 2-d (num_rois, 5) with rows "
                         << "[batch_index, x1, y1, x2, y2], got " << rois;
  }
  return true;
}

/*! \brief Shapes of one ROI pooling call: data (N, C, H, W), R rois, PH x PW bins. */
struct RoiGeom {
  index_t N, C, H, W, R, PH, PW;
};

inline RoiGeom RoiGeomOf(const mxnet::TShape& data, index_t R, index_t PH, index_t PW) {
  return RoiGeom{data[0], data[1], data[2], data[3], R, PH, PW};
}

/*! \brief The roi's batch index (truncated toward zero), or -1 when outside [0, N). */
template <typename G, typename DType>
MSHADOW_XINLINE index_t RoiBatch(const DType* roi, index_t N) {
  const index_t b = static_cast<index_t>(static_cast<G>(roi[0]));
  return b < 0 || b >= N ? -1 : b;
}

// ---- ROIPooling ------------------------------------------------------------------------------

/*! \brief The [start, end) cells of bin k of an roi starting at `start` with bins of `bin`,
 *         clipped to [0, size). */
template <typename G>
MSHADOW_XINLINE void RoiPoolBin(index_t k, G bin, index_t start, index_t size, index_t* lo,
                                index_t* hi) {
  index_t s = static_cast<index_t>(SpFloor(static_cast<G>(k) * bin)) + start;
  index_t e = static_cast<index_t>(SpCeil(static_cast<G>(k + 1) * bin)) + start;
  *lo = SpMin(SpMax<index_t>(s, 0), size);
  *hi = SpMin(SpMax<index_t>(e, 0), size);
}

/*!
 * \brief Item i = (r, cb, ph, pw): outputs (r, c, ph, pw) for the kBlock channels c of block cb,
 *        each the max of its bin, and their argmax (h * W + w, -1 for an empty bin).
 */
template <int kBlock>
struct roi_pool_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* data, const DType* rois, DType* out,
                                  DType* argmax, RoiGeom g, float spatial_scale) {
    using G = SpGeomT<DType>;
    const index_t nb = (g.C + kBlock - 1) / kBlock;
    const index_t pw = i % g.PW, ph = (i / g.PW) % g.PH, cb = (i / (g.PW * g.PH)) % nb;
    const index_t r = i / (g.PW * g.PH * nb);
    const index_t c0 = cb * kBlock, nc = SpMin<index_t>(kBlock, g.C - c0);
    const index_t P = g.PH * g.PW;
    const index_t o = (r * g.C + c0) * P + ph * g.PW + pw;  // channel stride P
    const DType* roi = rois + r * 5;
    const index_t b = RoiBatch<G>(roi, g.N);
    index_t hs = 0, he = 0, ws = 0, we = 0;
    if (b >= 0) {
      const G scale = spatial_scale;
      const index_t x1 = static_cast<index_t>(SpRound(static_cast<G>(roi[1]) * scale));
      const index_t y1 = static_cast<index_t>(SpRound(static_cast<G>(roi[2]) * scale));
      const index_t x2 = static_cast<index_t>(SpRound(static_cast<G>(roi[3]) * scale));
      const index_t y2 = static_cast<index_t>(SpRound(static_cast<G>(roi[4]) * scale));
      const G bin_h = static_cast<G>(SpMax<index_t>(y2 - y1 + 1, 1)) / static_cast<G>(g.PH);
      const G bin_w = static_cast<G>(SpMax<index_t>(x2 - x1 + 1, 1)) / static_cast<G>(g.PW);
      RoiPoolBin(ph, bin_h, y1, g.H, &hs, &he);
      RoiPoolBin(pw, bin_w, x1, g.W, &ws, &we);
    }
    for (index_t cc = 0; cc < nc; ++cc) {
      const index_t at = o + cc * P;
      if (he <= hs || we <= ws) {  // (also a roi of another batch)
        out[at] = DType(0);
        argmax[at] = DType(-1);
        continue;
      }
      const DType* plane = data + (b * g.C + c0 + cc) * g.H * g.W;
      index_t best = -1;
      for (index_t h = hs; h < he; ++h) {
        for (index_t w = ws; w < we; ++w) {
          const index_t idx = h * g.W + w;
          if (best < 0 || plane[idx] > plane[best]) best = idx;
        }
      }
      out[at] = plane[best];
      argmax[at] = static_cast<DType>(best);
    }
  }
};

/*! \brief Item t = (c, r, k): data_grad[b, c, argmax] += out_grad[r, c, k]. Group by c. */
struct roi_pool_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* ograd, const DType* rois,
                                  const DType* argmax, DType* dgrad, RoiGeom g) {
    const index_t P = g.PH * g.PW;
    const index_t k = t % P, r = (t / P) % g.R, c = t / (P * g.R);
    const index_t b = static_cast<index_t>(static_cast<double>(rois[r * 5]));
    if (b < 0 || b >= g.N) return;
    const index_t at = (r * g.C + c) * P + k;
    const index_t idx = static_cast<index_t>(static_cast<double>(argmax[at]));
    if (idx >= 0) {
      ScatterAdd(dgrad + (b * g.C + c) * g.H * g.W + idx,
                 static_cast<SpGeomT<DType>>(ograd[at]));
    }
  }
};

template <typename xpu>
void ROIPoolCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const ROIPoolingParam& p = nnvm::get<ROIPoolingParam>(attrs.parsed);
  const RoiGeom g = RoiGeomOf(inputs[0].shape_, inputs[1].shape_[0], p.pooled_size[0],
                              p.pooled_size[1]);
  constexpr int kBlock = SpChannelBlock<xpu>::value;
  const index_t items = g.R * ((g.C + kBlock - 1) / kBlock) * g.PH * g.PW;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchGrouped<roi_pool_forward<kBlock>>(
        ctx.get_stream<xpu>(), items, 1, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        outputs[0].dptr<DType>(), outputs[1].dptr<DType>(), g, p.spatial_scale);
  });
}

/*! \brief inputs: (out_grad, data, rois, argmax); outputs: (data_grad, rois_grad). */
template <typename xpu>
void ROIPoolGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const ROIPoolingParam& p = nnvm::get<ROIPoolingParam>(attrs.parsed);
  const RoiGeom g = RoiGeomOf(outputs[0].shape_, inputs[2].shape_[0], p.pooled_size[0],
                              p.pooled_size[1]);
  ZeroUnlessAddTo(s, outputs[0], req[0]);
  ZeroUnlessAddTo(s, outputs[1], req[1]);
  if (req[0] == kNullOp) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    // Channels are independent; the rois of one channel may share input cells.
    LaunchGrouped<roi_pool_backward>(s, g.C, g.R * g.PH * g.PW, inputs[0].dptr<DType>(),
                                     inputs[2].dptr<DType>(), inputs[3].dptr<DType>(),
                                     outputs[0].dptr<DType>(), g);
  });
}

// ---- ROIAlign --------------------------------------------------------------------------------

/*! \brief The sampling grid of one ROIAlign bin. */
template <typename G>
struct AlignBin {
  G y0, x0, bin_h, bin_w, count;  // (y0, x0) the bin's corner
  index_t grid_h, grid_w;
  MSHADOW_XINLINE G Y(index_t iy) const {
    return y0 + (iy + G(0.5)) * bin_h / static_cast<G>(grid_h);
  }
  MSHADOW_XINLINE G X(index_t ix) const {
    return x0 + (ix + G(0.5)) * bin_w / static_cast<G>(grid_w);
  }
};

template <typename G, typename DType>
MSHADOW_XINLINE AlignBin<G> MakeAlignBin(const DType* roi, const RoiGeom& g, float spatial_scale,
                                         int sample_ratio, bool aligned, index_t ph,
                                         index_t pw) {
  const G offset = aligned ? G(0.5) : G(0);
  const G scale = spatial_scale;
  const G x1 = static_cast<G>(roi[1]) * scale - offset;
  const G y1 = static_cast<G>(roi[2]) * scale - offset;
  G rw = static_cast<G>(roi[3]) * scale - offset - x1;
  G rh = static_cast<G>(roi[4]) * scale - offset - y1;
  if (!aligned) {
    rw = SpMax(rw, G(1));
    rh = SpMax(rh, G(1));
  }
  AlignBin<G> a;
  a.bin_h = rh / static_cast<G>(g.PH);
  a.bin_w = rw / static_cast<G>(g.PW);
  a.grid_h = sample_ratio > 0 ? sample_ratio
                              : static_cast<index_t>(SpCeil(rh / static_cast<G>(g.PH)));
  a.grid_w = sample_ratio > 0 ? sample_ratio
                              : static_cast<index_t>(SpCeil(rw / static_cast<G>(g.PW)));
  a.count = static_cast<G>(SpMax<index_t>(a.grid_h * a.grid_w, 1));
  a.y0 = y1 + ph * a.bin_h;
  a.x0 = x1 + pw * a.bin_w;
  return a;
}

/*! \brief ROIAlign parameters the kernels need. */
struct AlignArgs {
  float spatial_scale;
  int sample_ratio;
  bool aligned, position_sensitive;
  index_t C_out;
};

/*!
 * \brief Item i = (r, cb, ph, pw) of ROIAlign: outputs (r, c, ph, pw) for the kBlock channels c
 *        of block cb, each the average of the bin's samples (the taps shared by the block).
 */
template <int kBlock>
struct roi_align_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* data, const DType* rois, DType* out,
                                  RoiGeom g, AlignArgs a) {
    using G = SpGeomT<DType>;
    const index_t nb = (a.C_out + kBlock - 1) / kBlock;
    const index_t pw = i % g.PW, ph = (i / g.PW) % g.PH, cb = (i / (g.PW * g.PH)) % nb;
    const index_t r = i / (g.PW * g.PH * nb);
    const index_t c0 = cb * kBlock, nc = SpMin<index_t>(kBlock, a.C_out - c0);
    const index_t P = g.PH * g.PW;
    DType* o = out + (r * a.C_out + c0) * P + ph * g.PW + pw;  // channel stride P
    const DType* roi = rois + r * 5;
    const index_t b = RoiBatch<G>(roi, g.N);
    if (b < 0) {
      for (index_t cc = 0; cc < nc; ++cc) o[cc * P] = DType(0);
      return;
    }
    const AlignBin<G> bin = MakeAlignBin<G>(roi, g, a.spatial_scale, a.sample_ratio, a.aligned,
                                            ph, pw);
    const DType* base = data + b * g.C * g.H * g.W;
    // Input channel of block channel cc: c (or, position-sensitive, (c * PH + ph) * PW + pw).
    const index_t in_c0 = a.position_sensitive ? c0 * P + ph * g.PW + pw : c0;
    const index_t in_step = (a.position_sensitive ? P : 1) * g.H * g.W;
    G sum[kBlock];
    for (index_t cc = 0; cc < nc; ++cc) sum[cc] = 0;
    for (index_t iy = 0; iy < bin.grid_h; ++iy) {
      const G y = bin.Y(iy);
      for (index_t ix = 0; ix < bin.grid_w; ++ix) {
        index_t idx[4];
        G wt[4];
        if (!BilinearTaps(y, bin.X(ix), g.H, g.W, idx, wt)) continue;
        for (index_t cc = 0; cc < nc; ++cc) {
          const DType* plane = base + in_c0 * g.H * g.W + cc * in_step;
          for (int t = 0; t < 4; ++t) sum[cc] += wt[t] * static_cast<G>(plane[idx[t]]);
        }
      }
    }
    for (index_t cc = 0; cc < nc; ++cc) o[cc * P] = static_cast<DType>(sum[cc] / bin.count);
  }
};

/*!
 * \brief Item t = (cb, r, ph, pw): spreads out_grad[r, c, ph, pw] over the bin's taps for the
 *        kBlock channels c of block cb. Group by cb (each output channel reads its own input
 *        planes).
 */
template <int kBlock>
struct roi_align_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* ograd, const DType* rois,
                                  DType* dgrad, RoiGeom g, AlignArgs a) {
    using G = SpGeomT<DType>;
    const index_t pw = t % g.PW, ph = (t / g.PW) % g.PH, r = (t / (g.PW * g.PH)) % g.R;
    const index_t cb = t / (g.PW * g.PH * g.R);
    const index_t c0 = cb * kBlock, nc = SpMin<index_t>(kBlock, a.C_out - c0);
    const index_t P = g.PH * g.PW;
    const DType* roi = rois + r * 5;
    const index_t b = RoiBatch<G>(roi, g.N);
    if (b < 0) return;
    const AlignBin<G> bin = MakeAlignBin<G>(roi, g, a.spatial_scale, a.sample_ratio, a.aligned,
                                            ph, pw);
    DType* base = dgrad + b * g.C * g.H * g.W;
    const index_t in_c0 = a.position_sensitive ? c0 * P + ph * g.PW + pw : c0;
    const index_t in_step = (a.position_sensitive ? P : 1) * g.H * g.W;
    const DType* og = ograd + (r * a.C_out + c0) * P + ph * g.PW + pw;  // channel stride P
    G v[kBlock];
    for (index_t cc = 0; cc < nc; ++cc) v[cc] = static_cast<G>(og[cc * P]) / bin.count;
    for (index_t iy = 0; iy < bin.grid_h; ++iy) {
      const G y = bin.Y(iy);
      for (index_t ix = 0; ix < bin.grid_w; ++ix) {
        index_t idx[4];
        G wt[4];
        if (!BilinearTaps(y, bin.X(ix), g.H, g.W, idx, wt)) continue;
        for (index_t cc = 0; cc < nc; ++cc) {
          DType* plane = base + in_c0 * g.H * g.W + cc * in_step;
          for (int k = 0; k < 4; ++k) ScatterAdd(plane + idx[k], v[cc] * wt[k]);
        }
      }
    }
  }
};

inline AlignArgs AlignArgsOf(const ROIAlignParam& p, index_t C_out) {
  return AlignArgs{p.spatial_scale, p.sample_ratio, p.aligned, p.position_sensitive, C_out};
}

template <typename xpu>
void ROIAlignCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const ROIAlignParam& p = nnvm::get<ROIAlignParam>(attrs.parsed);
  const RoiGeom g = RoiGeomOf(inputs[0].shape_, inputs[1].shape_[0], p.pooled_size[0],
                              p.pooled_size[1]);
  const index_t C_out = outputs[0].shape_[1];
  constexpr int kBlock = SpChannelBlock<xpu>::value;
  const index_t items = g.R * ((C_out + kBlock - 1) / kBlock) * g.PH * g.PW;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchGrouped<roi_align_forward<kBlock>>(
        ctx.get_stream<xpu>(), items, 1, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        outputs[0].dptr<DType>(), g, AlignArgsOf(p, C_out));
  });
}

/*! \brief inputs: (out_grad, data, rois); outputs: (data_grad, rois_grad). */
template <typename xpu>
void ROIAlignGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const ROIAlignParam& p = nnvm::get<ROIAlignParam>(attrs.parsed);
  const RoiGeom g = RoiGeomOf(outputs[0].shape_, inputs[2].shape_[0], p.pooled_size[0],
                              p.pooled_size[1]);
  ZeroUnlessAddTo(s, outputs[0], req[0]);
  ZeroUnlessAddTo(s, outputs[1], req[1]);
  if (req[0] == kNullOp) return;
  const index_t C_out = inputs[0].shape_[1];
  constexpr int kBlock = SpChannelBlock<xpu>::value;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchGrouped<roi_align_backward<kBlock>>(s, (C_out + kBlock - 1) / kBlock,
                                      g.R * g.PH * g.PW, inputs[0].dptr<DType>(),
                                      inputs[2].dptr<DType>(), outputs[0].dptr<DType>(), g,
                                      AlignArgsOf(p, C_out));
  });
}

// ---- PSROIPooling ----------------------------------------------------------------------------

inline int PSGroup(const PSROIPoolingParam& p) {
  return p.group_size > 0 ? p.group_size : p.pooled_size;
}

/*! \brief Bin (ph, pw) of a PSROIPooling roi: cells [hs, he) x [ws, we) and its input channel
 *         group offset (gh, gw). */
struct PSBin {
  index_t hs, he, ws, we, gh, gw;
};

template <typename G, typename DType>
MSHADOW_XINLINE PSBin MakePSBin(const DType* roi, const RoiGeom& g, float spatial_scale,
                                index_t group, index_t ph, index_t pw) {
  const G scale = spatial_scale;
  const index_t P = g.PH;
  const G x1 = SpRound(static_cast<G>(roi[1])) * scale;
  const G y1 = SpRound(static_cast<G>(roi[2])) * scale;
  const G x2 = (SpRound(static_cast<G>(roi[3])) + G(1)) * scale;
  const G y2 = (SpRound(static_cast<G>(roi[4])) + G(1)) * scale;
  const G bin_w = SpMax(x2 - x1, G(0.1)) / static_cast<G>(P);
  const G bin_h = SpMax(y2 - y1, G(0.1)) / static_cast<G>(P);
  PSBin b;
  b.hs = static_cast<index_t>(SpFloor(static_cast<G>(ph) * bin_h + y1));
  b.he = static_cast<index_t>(SpCeil(static_cast<G>(ph + 1) * bin_h + y1));
  b.hs = SpMin(SpMax<index_t>(b.hs, 0), g.H);
  b.he = SpMin(SpMax<index_t>(b.he, 0), g.H);
  b.ws = static_cast<index_t>(SpFloor(static_cast<G>(pw) * bin_w + x1));
  b.we = static_cast<index_t>(SpCeil(static_cast<G>(pw + 1) * bin_w + x1));
  b.ws = SpMin(SpMax<index_t>(b.ws, 0), g.W);
  b.we = SpMin(SpMax<index_t>(b.we, 0), g.W);
  b.gh = SpMin(SpMax<index_t>(ph * group / P, 0), group - 1);
  b.gw = SpMin(SpMax<index_t>(pw * group / P, 0), group - 1);
  return b;
}

/*! \brief The mean of a PSROIPooling bin over one input plane (0 for an empty bin). */
template <typename G, typename DType>
MSHADOW_XINLINE DType PSBinMean(const DType* plane, const PSBin& bin, index_t W) {
  const bool empty = bin.he <= bin.hs || bin.we <= bin.ws;
  const G area = static_cast<G>((bin.he - bin.hs) * (bin.we - bin.ws));
  G sum = 0;
  for (index_t h = bin.hs; h < bin.he; ++h)
    for (index_t w = bin.ws; w < bin.we; ++w) sum += static_cast<G>(plane[h * W + w]);
  return static_cast<DType>(empty ? G(0) : sum / area);
}

/*! \brief One output (r, c, ph, pw) of PSROIPooling (D = output_dim channels): its bin's mean. */
struct psroi_pool_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* data, const DType* rois, DType* out,
                                  RoiGeom g, index_t D, index_t group, float spatial_scale) {
    using G = SpGeomT<DType>;
    const index_t P = g.PH;
    const index_t pw = i % P, ph = (i / P) % P, c = (i / (P * P)) % D, r = i / (P * P * D);
    const DType* roi = rois + r * 5;
    const index_t b = RoiBatch<G>(roi, g.N);
    if (b < 0) {
      out[i] = DType(0);
      return;
    }
    const PSBin bin = MakePSBin<G>(roi, g, spatial_scale, group, ph, pw);
    out[i] = PSBinMean<G>(data + (b * g.C + (c * group + bin.gh) * group + bin.gw) * g.H * g.W,
                          bin, g.W);
  }
};

/*! \brief The CPU's PSROIPooling forward: a roi per item, each bin's geometry made once for
 *         its D output channels (the GPU's psroi_pool_forward makes it per output). */
struct psroi_pool_forward_roi {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, const DType* data, const DType* rois, DType* out,
                                  RoiGeom g, index_t D, index_t group, float spatial_scale) {
    using G = SpGeomT<DType>;
    const index_t P = g.PH;
    const DType* roi = rois + r * 5;
    DType* o = out + r * D * P * P;
    const index_t b = RoiBatch<G>(roi, g.N);
    if (b < 0) {
      for (index_t k = 0; k < D * P * P; ++k) o[k] = DType(0);
      return;
    }
    for (index_t ph = 0; ph < P; ++ph) {
      for (index_t pw = 0; pw < P; ++pw) {
        const PSBin bin = MakePSBin<G>(roi, g, spatial_scale, group, ph, pw);
        const DType* plane = data + (b * g.C + bin.gh * group + bin.gw) * g.H * g.W;
        const index_t step = group * group * g.H * g.W;  // from channel c to c + 1
        for (index_t c = 0; c < D; ++c) {
          o[(c * P + ph) * P + pw] = PSBinMean<G>(plane + c * step, bin, g.W);
        }
      }
    }
  }
};

/*! \brief Item t = (c, r, ph, pw): data_grad += out_grad / bin area over the bin. Group by c. */
struct psroi_pool_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* ograd, const DType* rois,
                                  DType* dgrad, RoiGeom g, index_t D, index_t group,
                                  float spatial_scale) {
    using G = SpGeomT<DType>;
    const index_t P = g.PH;
    const index_t pw = t % P, ph = (t / P) % P, r = (t / (P * P)) % g.R, c = t / (P * P * g.R);
    const DType* roi = rois + r * 5;
    const index_t b = RoiBatch<G>(roi, g.N);
    if (b < 0) return;
    const PSBin bin = MakePSBin<G>(roi, g, spatial_scale, group, ph, pw);
    if (bin.he <= bin.hs || bin.we <= bin.ws) return;
    DType* plane = dgrad + (b * g.C + (c * group + bin.gh) * group + bin.gw) * g.H * g.W;
    const G area = static_cast<G>((bin.he - bin.hs) * (bin.we - bin.ws));
    const G v = static_cast<G>(ograd[((r * D + c) * P + ph) * P + pw]) / area;
    for (index_t h = bin.hs; h < bin.he; ++h)
      for (index_t w = bin.ws; w < bin.we; ++w) ScatterAdd(plane + h * g.W + w, v);
  }
};

template <typename xpu>
void PSROIPoolCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const PSROIPoolingParam& p = nnvm::get<PSROIPoolingParam>(attrs.parsed);
  const RoiGeom g = RoiGeomOf(inputs[0].shape_, inputs[1].shape_[0], p.pooled_size,
                              p.pooled_size);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const index_t D = p.output_dim, group = PSGroup(p);
    if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
      LaunchGrouped<psroi_pool_forward_roi>(ctx.get_stream<xpu>(), g.R, 1,
                                            inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                                            outputs[0].dptr<DType>(), g, D, group,
                                            p.spatial_scale);
    } else {
      mxnet_op::Kernel<psroi_pool_forward, xpu>::Launch(
          ctx.get_stream<xpu>(), outputs[0].Size(), inputs[0].dptr<DType>(),
          inputs[1].dptr<DType>(), outputs[0].dptr<DType>(), g, D, group, p.spatial_scale);
    }
  });
}

/*! \brief inputs: (out_grad, data, rois); outputs: (data_grad, rois_grad). */
template <typename xpu>
void PSROIPoolGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const PSROIPoolingParam& p = nnvm::get<PSROIPoolingParam>(attrs.parsed);
  const RoiGeom g = RoiGeomOf(outputs[0].shape_, inputs[2].shape_[0], p.pooled_size,
                              p.pooled_size);
  ZeroUnlessAddTo(s, outputs[0], req[0]);
  ZeroUnlessAddTo(s, outputs[1], req[1]);
  if (req[0] == kNullOp) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchGrouped<psroi_pool_backward>(s, p.output_dim, g.R * g.PH * g.PW,
                                       inputs[0].dptr<DType>(), inputs[2].dptr<DType>(),
                                       outputs[0].dptr<DType>(), g,
                                       static_cast<index_t>(p.output_dim),
                                       static_cast<index_t>(PSGroup(p)), p.spatial_scale);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_ROI_POOLING_INL_H_
