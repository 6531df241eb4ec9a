/*!
 * \file roi_pooling.cc
 * \brief ROIPooling and _contrib_ROIAlign (see roi_pooling-inl.h).
 *
 * ROIPooling: the roi corners are scaled and rounded to feature cells; the roi (at least 1x1
 * cell, ends inclusive) is split into pooled_size bins [floor(i*bin), ceil((i+1)*bin)) shifted
 * to the roi start and clipped to the map; each output is the max of its bin (0 for an empty
 * bin). A hidden second output keeps the argmax (flat h*W+w, -1 for none) for the backward.
 *
 * ROIAlign: bins of the continuous roi (x1*scale - offset, with offset 0.5 when aligned; without
 * aligned the roi is at least 1x1) are sampled on a grid of sample_ratio^2 points (adaptive
 * ceil(roi/pooled) when sample_ratio <= 0); each point is bilinearly interpolated (points more
 * than one cell outside the map count as 0) and the bin output is the average. With
 * position_sensitive the output has C / (ph*pw) channels and bin (i, j) of channel c reads input
 * channel (c*ph + i)*pw + j.
 *
 * _contrib_PSROIPooling (R-FCN): roi corners are rounded first, then scaled (the end inclusive:
 * (round(x2) + 1) * scale), the roi is at least 0.1 wide; bin (i, j) = [floor, ceil) of the
 * continuous bin clipped to the map, averaged over input channel
 * (c*group + gi)*group + gj with gi = floor(i*group/pooled) (0 for an empty bin). data must
 * have output_dim * group_size^2 channels (group_size 0 means pooled_size).
 */
#include <cmath>
#include <limits>
#include <type_traits>

#include "../elemwise_op_common.h"
#include "./roi_pooling-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ROIPoolingParam);
DMLC_REGISTER_PARAMETER(ROIAlignParam);
DMLC_REGISTER_PARAMETER(PSROIPoolingParam);

namespace {

// Arithmetic type: the roi geometry is computed in float for float16/float32 (as MXNet does
// in DType) and in double for float64.
template <typename DType>
using GeomT = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

bool RoiTwoInputTypes(const char* op, std::vector<int>* in, std::vector<int>* out) {
  int t = (*in)[0] != -1 ? (*in)[0] : (*in)[1];
  if (t == -1) return false;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] != -1 && (*in)[i] != t) {
      MX_THROW(TypeError) << op << ": data and rois must have the same dtype, got "
                          << (*in)[0] << " and " << (*in)[1];
    }
    (*in)[i] = t;
  }
  for (auto& v : *out) v = t;
  return true;
}

// ---- ROIPooling --------------------------------------------------------------------------

bool ROIPoolShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const ROIPoolingParam& p = nnvm::get<ROIPoolingParam>(attrs.parsed);
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  if (!CheckROIInputs("ROIPooling", data, rois, p.pooled_size)) return false;
  const mxnet::TShape o({rois[0], data[1], p.pooled_size[0], p.pooled_size[1]});
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  SHAPE_ASSIGN_CHECK(*out, 1, o);
  return true;
}

template <typename DType>
void ROIPoolForward(const ROIPoolingParam& p, const TBlob& data_b, const TBlob& rois_b,
                    DType* out, DType* argmax) {
  using G = GeomT<DType>;
  const index_t N = data_b.shape_[0], C = data_b.shape_[1], H = data_b.shape_[2],
                W = data_b.shape_[3], R = rois_b.shape_[0];
  const index_t PH = p.pooled_size[0], PW = p.pooled_size[1];
  const DType* data = data_b.dptr<DType>();
  const DType* rois = rois_b.dptr<DType>();
  const G scale = p.spatial_scale;
  #pragma omp parallel for
  for (index_t r = 0; r < R; ++r) {
    const DType* roi = rois + r * 5;
    const index_t b = static_cast<index_t>(static_cast<G>(roi[0]));
    DType* o = out + r * C * PH * PW;
    DType* am = argmax + r * C * PH * PW;
    if (b < 0 || b >= N) {
      std::fill(o, o + C * PH * PW, DType(0));
      std::fill(am, am + C * PH * PW, DType(-1));
      continue;
    }
    const index_t x1 = static_cast<index_t>(std::round(static_cast<G>(roi[1]) * scale));
    const index_t y1 = static_cast<index_t>(std::round(static_cast<G>(roi[2]) * scale));
    const index_t x2 = static_cast<index_t>(std::round(static_cast<G>(roi[3]) * scale));
    const index_t y2 = static_cast<index_t>(std::round(static_cast<G>(roi[4]) * scale));
    const G bin_h = static_cast<G>(std::max<index_t>(y2 - y1 + 1, 1)) / static_cast<G>(PH);
    const G bin_w = static_cast<G>(std::max<index_t>(x2 - x1 + 1, 1)) / static_cast<G>(PW);
    for (index_t c = 0; c < C; ++c) {
      const DType* plane = data + (b * C + c) * H * W;
      for (index_t ph = 0; ph < PH; ++ph) {
        index_t hs = static_cast<index_t>(std::floor(static_cast<G>(ph) * bin_h)) + y1;
        index_t he = static_cast<index_t>(std::ceil(static_cast<G>(ph + 1) * bin_h)) + y1;
        hs = std::min(std::max<index_t>(hs, 0), H);
        he = std::min(std::max<index_t>(he, 0), H);
        for (index_t pw = 0; pw < PW; ++pw) {
          index_t ws = static_cast<index_t>(std::floor(static_cast<G>(pw) * bin_w)) + x1;
          index_t we = static_cast<index_t>(std::ceil(static_cast<G>(pw + 1) * bin_w)) + x1;
          ws = std::min(std::max<index_t>(ws, 0), W);
          we = std::min(std::max<index_t>(we, 0), W);
          const index_t k = (c * PH + ph) * PW + pw;
          if (he <= hs || we <= ws) {
            o[k] = DType(0);
            am[k] = DType(-1);
            continue;
          }
          index_t best = -1;
          for (index_t h = hs; h < he; ++h) {
            for (index_t w = ws; w < we; ++w) {
              const index_t idx = h * W + w;
              if (best < 0 || plane[idx] > plane[best]) best = idx;
            }
          }
          o[k] = plane[best];
          am[k] = static_cast<DType>(best);
        }
      }
    }
  }
}

void ROIPoolCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const ROIPoolingParam& p = nnvm::get<ROIPoolingParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    ROIPoolForward<DType>(p, inputs[0], inputs[1], outputs[0].dptr<DType>(),
                          outputs[1].dptr<DType>());
  });
}

// inputs: (out_grad, data, rois, argmax); outputs: (data_grad, rois_grad).
template <typename DType>
void ROIPoolBackward(const TBlob& ograd_b, const TBlob& rois_b, const TBlob& argmax_b,
                     const TBlob& dgrad_b, OpReqType req) {
  const index_t N = dgrad_b.shape_[0], C = dgrad_b.shape_[1],
                HW = dgrad_b.shape_[2] * dgrad_b.shape_[3];
  const index_t R = rois_b.shape_[0], P = ograd_b.shape_[2] * ograd_b.shape_[3];
  const DType* og = ograd_b.dptr<DType>();
  const DType* rois = rois_b.dptr<DType>();
  const DType* am = argmax_b.dptr<DType>();
  DType* dg = dgrad_b.dptr<DType>();
  if (req != kAddTo) std::fill(dg, dg + dgrad_b.Size(), DType(0));
  // Channels are independent: parallel over channels, serial over rois (which may share
  // input cells).
  #pragma omp parallel for
  for (index_t c = 0; c < C; ++c) {
    for (index_t r = 0; r < R; ++r) {
      const index_t b = static_cast<index_t>(static_cast<double>(rois[r * 5]));
      if (b < 0 || b >= N) continue;
      DType* plane = dg + (b * C + c) * HW;
      const index_t base = (r * C + c) * P;
      for (index_t k = 0; k < P; ++k) {
        const index_t idx = static_cast<index_t>(static_cast<double>(am[base + k]));
        if (idx >= 0) plane[idx] = static_cast<DType>(plane[idx] + og[base + k]);
      }
    }
  }
}

void ROIPoolGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (req[0] != kNullOp) {
      ROIPoolBackward<DType>(inputs[0], inputs[2], inputs[3], outputs[0], req[0]);
    }
    if (req[1] != kNullOp && req[1] != kAddTo) {
      std::fill(outputs[1].dptr<DType>(), outputs[1].dptr<DType>() + outputs[1].Size(),
                DType(0));
    }
  });
}

// ---- ROIAlign ----------------------------------------------------------------------------

bool ROIAlignShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  const ROIAlignParam& p = nnvm::get<ROIAlignParam>(attrs.parsed);
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  if (!CheckROIInputs("_contrib_ROIAlign", data, rois, p.pooled_size)) return false;
  dim_t channels = data[1];
  if (p.position_sensitive) {
    const dim_t bins = p.pooled_size[0] * p.pooled_size[1];
    if (channels % bins != 0) {
      MX_THROW(ValueError) << "_contrib_ROIAlign: with position_sensitive the data channels ("
                           << channels << ", data shape " << data << ") must be a multiple of "
                           << "pooled_size h*w = " << bins;
    }
    channels /= bins;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({rois[0], channels, p.pooled_size[0],
                                             p.pooled_size[1]}));
  return true;
}

/*! \brief Bilinear weights of point (y, x) on an H x W map: 4 flat indices and weights;
 *         returns false when the point is outside [-1, H] x [-1, W] (contributes nothing). */
template <typename G>
bool BilinearTaps(G y, G x, index_t H, index_t W, index_t idx[4], G wt[4]) {
  if (y < G(-1) || y > static_cast<G>(H) || x < G(-1) || x > static_cast<G>(W)) return false;
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
  idx[0] = y0 * W + x0; idx[1] = y0 * W + x1; idx[2] = y1 * W + x0; idx[3] = y1 * W + x1;
  wt[0] = hy * hx; wt[1] = hy * lx; wt[2] = ly * hx; wt[3] = ly * lx;
  return true;
}

/*!
 * \brief Forward (grad = false): out[r, c, i, j] = average of the bin's samples; backward
 *        (grad = true): scatters out_grad (passed as `out`) into data grad (passed as `data`).
 */
template <typename DType>
void ROIAlignPlanes(const ROIAlignParam& p, const mxnet::TShape& dshape, DType* data,
                    const DType* rois, index_t R, index_t C_out, DType* out, bool grad) {
  using G = GeomT<DType>;
  const index_t N = dshape[0], C = dshape[1], H = dshape[2], W = dshape[3];
  const index_t PH = p.pooled_size[0], PW = p.pooled_size[1];
  const G offset = p.aligned ? G(0.5) : G(0);
  const G scale = p.spatial_scale;
  // Backward runs serially over rois (rois may share input cells); forward in parallel.
  #pragma omp parallel for if (!grad)
  for (index_t r = 0; r < R; ++r) {
    const DType* roi = rois + r * 5;
    const index_t b = static_cast<index_t>(static_cast<G>(roi[0]));
    DType* o = out + r * C_out * PH * PW;
    if (b < 0 || b >= N) {
      if (!grad) std::fill(o, o + C_out * PH * PW, DType(0));
      continue;
    }
    const G x1 = static_cast<G>(roi[1]) * scale - offset;
    const G y1 = static_cast<G>(roi[2]) * scale - offset;
    G rw = static_cast<G>(roi[3]) * scale - offset - x1;
    G rh = static_cast<G>(roi[4]) * scale - offset - y1;
    if (!p.aligned) {
      rw = std::max(rw, G(1));
      rh = std::max(rh, G(1));
    }
    const G bin_h = rh / static_cast<G>(PH), bin_w = rw / static_cast<G>(PW);
    const index_t grid_h = p.sample_ratio > 0 ? p.sample_ratio
                                              : static_cast<index_t>(std::ceil(rh / PH));
    const index_t grid_w = p.sample_ratio > 0 ? p.sample_ratio
                                              : static_cast<index_t>(std::ceil(rw / PW));
    const G count = static_cast<G>(std::max<index_t>(grid_h * grid_w, 1));
    for (index_t ph = 0; ph < PH; ++ph) {
      for (index_t pw = 0; pw < PW; ++pw) {
        // The taps of this bin do not depend on the channel.
        std::vector<index_t> tap_idx;
        std::vector<G> tap_wt;
        for (index_t iy = 0; iy < grid_h; ++iy) {
          const G y = y1 + ph * bin_h + (iy + G(0.5)) * bin_h / static_cast<G>(grid_h);
          for (index_t ix = 0; ix < grid_w; ++ix) {
            const G x = x1 + pw * bin_w + (ix + G(0.5)) * bin_w / static_cast<G>(grid_w);
            index_t idx[4];
            G wt[4];
            if (!BilinearTaps(y, x, H, W, idx, wt)) continue;
            for (int t = 0; t < 4; ++t) {
              tap_idx.push_back(idx[t]);
              tap_wt.push_back(wt[t]);
            }
          }
        }
        for (index_t c = 0; c < C_out; ++c) {
          const index_t in_c = p.position_sensitive ? (c * PH + ph) * PW + pw : c;
          DType* plane = data + (b * C + in_c) * H * W;
          DType& dst = o[(c * PH + ph) * PW + pw];
          if (grad) {
            const G g = static_cast<G>(dst) / count;
            for (size_t t = 0; t < tap_idx.size(); ++t) {
              plane[tap_idx[t]] = static_cast<DType>(static_cast<G>(plane[tap_idx[t]]) +
                                                     g * tap_wt[t]);
            }
          } else {
            G sum = 0;
            for (size_t t = 0; t < tap_idx.size(); ++t) {
              sum += tap_wt[t] * static_cast<G>(plane[tap_idx[t]]);
            }
            dst = static_cast<DType>(sum / count);
          }
        }
      }
    }
  }
}

void ROIAlignCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const ROIAlignParam& p = nnvm::get<ROIAlignParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    ROIAlignPlanes<DType>(p, inputs[0].shape_, inputs[0].dptr<DType>(),
                          inputs[1].dptr<DType>(), inputs[1].shape_[0], outputs[0].shape_[1],
                          outputs[0].dptr<DType>(), false);
  });
}

// inputs: (out_grad, data, rois); outputs: (data_grad, rois_grad).
void ROIAlignGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const ROIAlignParam& p = nnvm::get<ROIAlignParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (req[0] != kNullOp) {
      DType* dg = outputs[0].dptr<DType>();
      if (req[0] != kAddTo) std::fill(dg, dg + outputs[0].Size(), DType(0));
      ROIAlignPlanes<DType>(p, outputs[0].shape_, dg, inputs[2].dptr<DType>(),
                            inputs[2].shape_[0], inputs[0].shape_[1],
                            const_cast<DType*>(inputs[0].dptr<DType>()), true);
    }
    if (req[1] != kNullOp && req[1] != kAddTo) {
      std::fill(outputs[1].dptr<DType>(), outputs[1].dptr<DType>() + outputs[1].Size(),
                DType(0));
    }
  });
}

// ---- PSROIPooling ------------------------------------------------------------------------

int PSGroup(const PSROIPoolingParam& p) { return p.group_size > 0 ? p.group_size : p.pooled_size; }

bool PSROIPoolShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const PSROIPoolingParam& p = nnvm::get<PSROIPoolingParam>(attrs.parsed);
  if (p.output_dim <= 0) {
    MX_THROW(ValueError) << "_contrib_PSROIPooling: output_dim must be positive, got "
                         << p.output_dim;
  }
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  if (!CheckROIInputs("_contrib_PSROIPooling", data, rois,
                      mxnet::TShape({p.pooled_size, p.pooled_size}))) {
    return false;
  }
  const dim_t group = PSGroup(p);
  if (data[1] != p.output_dim * group * group) {
    MX_THROW(ValueError) << "_contrib_PSROIPooling: data must have output_dim * group_size^2 = "
                         << p.output_dim << " * " << group << "^2 = "
                         << p.output_dim * group * group << " channels, got data " << data;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({rois[0], p.output_dim, p.pooled_size,
                                             p.pooled_size}));
  return true;
}

/*!
 * \brief Forward (grad = false): out = bin averages; backward (grad = true): data (the data
 *        gradient) += out (the output gradient) / bin area over each bin.
 */
template <typename DType>
void PSROIPoolPlanes(const PSROIPoolingParam& p, const mxnet::TShape& dshape, DType* data,
                     const DType* rois, index_t R, DType* out, bool grad) {
  using G = GeomT<DType>;
  const index_t N = dshape[0], C = dshape[1], H = dshape[2], W = dshape[3];
  const index_t P = p.pooled_size, group = PSGroup(p), D = p.output_dim;
  const G scale = p.spatial_scale;
  #pragma omp parallel for if (!grad)
  for (index_t r = 0; r < R; ++r) {
    const DType* roi = rois + r * 5;
    const index_t b = static_cast<index_t>(static_cast<G>(roi[0]));
    DType* o = out + r * D * P * P;
    if (b < 0 || b >= N) {
      if (!grad) std::fill(o, o + D * P * P, DType(0));
      continue;
    }
    const G x1 = std::round(static_cast<G>(roi[1])) * scale;
    const G y1 = std::round(static_cast<G>(roi[2])) * scale;
    const G x2 = (std::round(static_cast<G>(roi[3])) + G(1)) * scale;
    const G y2 = (std::round(static_cast<G>(roi[4])) + G(1)) * scale;
    const G bin_w = std::max(x2 - x1, G(0.1)) / static_cast<G>(P);
    const G bin_h = std::max(y2 - y1, G(0.1)) / static_cast<G>(P);
    for (index_t ph = 0; ph < P; ++ph) {
      index_t hs = static_cast<index_t>(std::floor(static_cast<G>(ph) * bin_h + y1));
      index_t he = static_cast<index_t>(std::ceil(static_cast<G>(ph + 1) * bin_h + y1));
      hs = std::min(std::max<index_t>(hs, 0), H);
      he = std::min(std::max<index_t>(he, 0), H);
      const index_t gh = std::min(std::max<index_t>(ph * group / P, 0), group - 1);
      for (index_t pw = 0; pw < P; ++pw) {
        index_t ws = static_cast<index_t>(std::floor(static_cast<G>(pw) * bin_w + x1));
        index_t we = static_cast<index_t>(std::ceil(static_cast<G>(pw + 1) * bin_w + x1));
        ws = std::min(std::max<index_t>(ws, 0), W);
        we = std::min(std::max<index_t>(we, 0), W);
        const index_t gw = std::min(std::max<index_t>(pw * group / P, 0), group - 1);
        const bool empty = he <= hs || we <= ws;
        const G area = static_cast<G>((he - hs) * (we - ws));
        for (index_t c = 0; c < D; ++c) {
          DType* plane = data + (b * C + (c * group + gh) * group + gw) * H * W;
          DType& dst = o[(c * P + ph) * P + pw];
          if (grad) {
            if (empty) continue;
            const G g = static_cast<G>(dst) / area;
            for (index_t h = hs; h < he; ++h)
              for (index_t w = ws; w < we; ++w)
                plane[h * W + w] = static_cast<DType>(static_cast<G>(plane[h * W + w]) + g);
          } else {
            G sum = 0;
            for (index_t h = hs; h < he; ++h)
              for (index_t w = ws; w < we; ++w) sum += static_cast<G>(plane[h * W + w]);
            dst = static_cast<DType>(empty ? G(0) : sum / area);
          }
        }
      }
    }
  }
}

void PSROIPoolCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const PSROIPoolingParam& p = nnvm::get<PSROIPoolingParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    PSROIPoolPlanes<DType>(p, inputs[0].shape_, inputs[0].dptr<DType>(),
                           inputs[1].dptr<DType>(), inputs[1].shape_[0],
                           outputs[0].dptr<DType>(), false);
  });
}

// inputs: (out_grad, data, rois); outputs: (data_grad, rois_grad).
void PSROIPoolGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const PSROIPoolingParam& p = nnvm::get<PSROIPoolingParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (req[0] != kNullOp) {
      DType* dg = outputs[0].dptr<DType>();
      if (req[0] != kAddTo) std::fill(dg, dg + outputs[0].Size(), DType(0));
      PSROIPoolPlanes<DType>(p, outputs[0].shape_, dg, inputs[2].dptr<DType>(),
                             inputs[2].shape_[0], const_cast<DType*>(inputs[0].dptr<DType>()),
                             true);
    }
    if (req[1] != kNullOp && req[1] != kAddTo) {
      std::fill(outputs[1].dptr<DType>(), outputs[1].dptr<DType>() + outputs[1].Size(),
                DType(0));
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(ROIPooling)
.describe(R"code(Performs region of interest(ROI) pooling on the input array.

ROI pooling is a variant of a max pooling layer, in which the output size is fixed and
region of interest is a parameter. Its purpose is to perform max pooling on the inputs
of non-uniform sizes to obtain fixed-size feature maps. ROI pooling is a neural-net
layer mostly used in training a `Fast R-CNN` network for object detection.

This operator takes a 4D feature map as an input array and region proposals as `rois`,
then it pools over sub-regions of input and produces a fixed-sized output array
regardless of the ROI size.

The size of each region of interest doesn't have to be perfectly divisible by
the number of pooling sections(`pooled_size`).
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(2)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {
  return 1;
})
.set_attr_parser(ParamParser<ROIPoolingParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "rois"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "maxidx"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ROIPoolShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return RoiTwoInputTypes("ROIPooling", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", ROIPoolCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_ROIPooling", n,
                        {ograds[0], n->inputs[0], n->inputs[1], nnvm::NodeEntry{n, 1, 0}},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "The input array to the pooling operator,  a 4D "
              "Feature maps ")
.add_argument("rois", "NDArray-or-Symbol", "Bounding box coordinates, a 2D array of "
              "[[batch_index, x1, y1, x2, y2]], where (x1, y1) and (x2, y2) are top left and "
              "bottom right corners of designated region of interest. `batch_index` indicates "
              "the index of corresponding image in the input array")
.add_arguments(ROIPoolingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_ROIPooling)
.describe("Backward of ROIPooling: (out_grad, data, rois, argmax) -> (data_grad, rois_grad).")
.set_num_inputs(4)
.set_num_outputs(2)
.set_attr_parser(ParamParser<ROIPoolingParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", ROIPoolGradCompute);

NNVM_REGISTER_OP(_contrib_ROIAlign)
.describe(R"code(
This operator takes a 4D feature map as an input array and region proposals as `rois`,
then align the feature map over sub-regions of input and produces a fixed-sized output array.
This operator is typically used in Faster R-CNN & Mask R-CNN networks. If roi batchid is less
than 0, it will be ignored, and the corresponding output will be set to 0.

Different from ROI pooling, ROI Align removes the harsh quantization, properly aligning
the extracted features with the input. RoIAlign computes the value of each sampling point
by bilinear interpolation from the nearby grid points on the feature map. No quantization is
performed on any coordinates involved in the RoI, its bins, or the sampling points.
Bilinear interpolation is used to compute the exact values of the
four regularly sampled locations in each RoI bin.
Then the feature map can be aggregated by avgpooling.


References
----------

He, Kaiming, et al. "Mask R-CNN." ICCV, 2017
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ROIAlignParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "rois"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ROIAlignShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return RoiTwoInputTypes("_contrib_ROIAlign", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", ROIAlignCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_ROIAlign", n, {ograds[0], n->inputs[0], n->inputs[1]},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to the pooling operator, a 4D Feature maps")
.add_argument("rois", "NDArray-or-Symbol", "Bounding box coordinates, a 2D array, if batchid is "
              "less than 0, it will be ignored.")
.add_arguments(ROIAlignParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_ROIAlign)
.describe("Backward of _contrib_ROIAlign: (out_grad, data, rois) -> (data_grad, rois_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<ROIAlignParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", ROIAlignGradCompute);

NNVM_REGISTER_OP(_contrib_PSROIPooling)
.describe(R"code(Performs region-of-interest pooling on inputs. Resize bounding box coordinates
by spatial_scale and crop input feature maps accordingly. The cropped feature maps are pooled
by max pooling to a fixed size output indicated by pooled_size. batch_size will change to
the number of region bounding boxes after PSROIPooling
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<PSROIPoolingParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "rois"};
})
.set_attr<mxnet::FInferShape>("FInferShape", PSROIPoolShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return RoiTwoInputTypes("_contrib_PSROIPooling", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", PSROIPoolCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_PSROIPooling", n, {ograds[0], n->inputs[0], n->inputs[1]},
                        n->attrs.dict);
  })
.add_argument("data", "Symbol", "Input data to the pooling operator, a 4D Feature maps")
.add_argument("rois", "Symbol", "Bounding box coordinates, a 2D array of [[batch_index, x1, y1, "
              "x2, y2]]. (x1, y1) and (x2, y2) are top left and down right corners of designated "
              "region of interest. batch_index indicates the index of corresponding image in "
              "the input data")
.add_arguments(PSROIPoolingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_PSROIPooling)
.describe("Backward of _contrib_PSROIPooling: (out_grad, data, rois) -> (data_grad, rois_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<PSROIPoolingParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", PSROIPoolGradCompute);

}  // namespace op
}  // namespace mxnet
