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
 *
 * The kernels serve every device (deformable_psroi_pooling.cc registers the CPU, the .cu the
 * GPU): the forward is one thread per output; the data gradient one item per output gradient
 * grouped by output channel, the trans gradient one grouped by roi (in order on the CPU, atomic
 * adds on the GPU).
 */
#ifndef MXNET_OPERATOR_CONTRIB_DEFORMABLE_PSROI_POOLING_INL_H_
#define MXNET_OPERATOR_CONTRIB_DEFORMABLE_PSROI_POOLING_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../nn/spatial_kernel_util-inl.h"
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

constexpr char kDPSROIOp[] = "_contrib_DeformablePSROIPooling";

/*! \brief Shape checks; fills `geom` when all shapes are known. */
inline bool DPSROIShapeImpl(const DeformablePSROIPoolingParam& p, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out, DPSROIGeom* geom) {
  const size_t nin = p.no_trans ? 2 : 3;
  if (in->size() != nin) {
    MX_THROW(ValueError) << kDPSROIOp << ": expected " << nin << " inputs (data, rois"
                         << (p.no_trans ? "" : ", trans") << "), got " << in->size();
  }
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  const dim_t D = p.output_dim, group = p.group_size, P = p.pooled_size;
  const dim_t part = p.part_size > 0 ? p.part_size : P;
  if (!shape_is_known(data) || !shape_is_known(rois)) return false;
  if (data.ndim() != 4) {
    MX_THROW(ValueError) << kDPSROIOp << ": data must be 4-d (batch, channel, height, width), got "
                         << data;
  }
  if (data[1] != D * group * group) {
    MX_THROW(ValueError) << kDPSROIOp << ": data must have output_dim * group_size^2 = " << D
                         << " * " << group << "^2 = " << D * group * group
                         << " channels, got data " << data;
  }
  if (rois.ndim() != 2 || rois[1] != 5) {
    MX_THROW(ValueError) << kDPSROIOp << ": rois must be 2-d (num_rois, 5) with rows "
                         << "[batch_index, x1, y1, x2, y2], got " << rois;
  }
  dim_t classes = 1;
  if (!p.no_trans) {
    const mxnet::TShape& trans = (*in)[2];
    if (!shape_is_known(trans)) return false;
    if (trans.ndim() != 4 || trans[0] != rois[0] || trans[1] <= 0 || trans[1] % 2 != 0 ||
        trans[2] != part || trans[3] != part || D % (trans[1] / 2) != 0) {
      MX_THROW(ValueError) << kDPSROIOp << ": trans must have shape (num_rois, 2*num_classes, "
                           << "part_size, part_size) = (" << rois[0] << ", 2*num_classes, "
                           << part << ", " << part << ") with output_dim=" << D
                           << " divisible by num_classes; got trans " << trans << " for rois "
                           << rois;
    }
    classes = trans[1] / 2;
  }
  const mxnet::TShape o({rois[0], D, P, P});
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  SHAPE_ASSIGN_CHECK(*out, 1, o);
  if (geom != nullptr) {
    geom->N = data[0];
    geom->C = data[1];
    geom->H = data[2];
    geom->W = data[3];
    geom->R = rois[0];
    geom->P = P;
    geom->group = group;
    geom->part = part;
    geom->samples = p.sample_per_part;
    geom->D = D;
    geom->classes = classes;
    geom->no_trans = p.no_trans;
  }
  return true;
}

inline DPSROIGeom DPSROIGeomOf(const DeformablePSROIPoolingParam& p, const TBlob& data,
                               const TBlob& rois, const TBlob* trans) {
  mxnet::ShapeVector in{data.shape_, rois.shape_};
  if (!p.no_trans) in.push_back(trans->shape_);
  mxnet::ShapeVector out(2);
  DPSROIGeom g;
  DPSROIShapeImpl(p, &in, &out, &g);
  return g;
}

/*! \brief Bin (i, j) of roi r and output channel co: its first sample point, sample steps,
 *         input plane, output index, trans entries and the roi size. */
template <typename G>
struct DPSBin {
  G ws, hs, sbw, sbh, rw, rh;
  index_t plane, tx_idx, ty_idx;
};

/*! \brief Fills bin (i, j) of roi r, channel co; false when the roi's batch index is out of
 *         range. */
template <typename G, typename DType>
MSHADOW_XINLINE bool MakeDPSBin(const DPSROIGeom& g, float spatial_scale, const DType* rois,
                                const DType* trans, float trans_std, index_t r, index_t co,
                                index_t i, index_t j, DPSBin<G>* bin) {
  const DType* roi = rois + r * 5;
  const G bf = static_cast<G>(roi[0]);  // truncated toward zero; NaN is out of range
  if (!(bf > G(-1) && bf < static_cast<G>(g.N))) return false;
  const index_t b = static_cast<index_t>(bf);
  const G scale = spatial_scale;
  const G x1 = SpRound(static_cast<G>(roi[1])) * scale - G(0.5);
  const G y1 = SpRound(static_cast<G>(roi[2])) * scale - G(0.5);
  const G x2 = (SpRound(static_cast<G>(roi[3])) + G(1)) * scale - G(0.5);
  const G y2 = (SpRound(static_cast<G>(roi[4])) + G(1)) * scale - G(0.5);
  const G rw = SpMax(x2 - x1, G(0.1)), rh = SpMax(y2 - y1, G(0.1));
  const G bw = rw / static_cast<G>(g.P), bh = rh / static_cast<G>(g.P);
  const index_t per_class = g.D / g.classes, cls = co / per_class;
  const index_t part_h = static_cast<index_t>(
      SpFloor(static_cast<G>(i) / static_cast<G>(g.P) * static_cast<G>(g.part)));
  const index_t part_w = static_cast<index_t>(
      SpFloor(static_cast<G>(j) / static_cast<G>(g.P) * static_cast<G>(g.part)));
  const index_t gi = SpMin(SpMax<index_t>(i * g.group / g.P, 0), g.group - 1);
  const index_t gj = SpMin(SpMax<index_t>(j * g.group / g.P, 0), g.group - 1);
  bin->tx_idx = ((r * g.classes + cls) * 2 * g.part + part_h) * g.part + part_w;
  bin->ty_idx = bin->tx_idx + g.part * g.part;
  G tx = 0, ty = 0;
  if (!g.no_trans) {
    const G tstd = trans_std;
    tx = static_cast<G>(trans[bin->tx_idx]) * tstd;
    ty = static_cast<G>(trans[bin->ty_idx]) * tstd;
  }
  bin->ws = static_cast<G>(j) * bw + x1 + tx * rw;
  bin->hs = static_cast<G>(i) * bh + y1 + ty * rh;
  bin->sbw = bw / static_cast<G>(g.samples);
  bin->sbh = bh / static_cast<G>(g.samples);
  bin->rw = rw;
  bin->rh = rh;
  bin->plane = (b * g.C + (co * g.group + gi) * g.group + gj) * g.H * g.W;
  return true;
}

/*! \brief Sample (iy, ix) of a bin, clamped to the map; false when it lies outside
 *         [-0.5, size - 0.5] (NaN too) and is skipped. */
template <typename G>
MSHADOW_XINLINE bool DPSSample(const DPSROIGeom& g, const DPSBin<G>& bin, index_t iy,
                               index_t ix, G* y, G* x) {
  G xs = bin.ws + static_cast<G>(ix) * bin.sbw;
  G ys = bin.hs + static_cast<G>(iy) * bin.sbh;
  if (!(xs >= G(-0.5) && xs <= static_cast<G>(g.W) - G(0.5) && ys >= G(-0.5) &&
        ys <= static_cast<G>(g.H) - G(0.5))) {
    return false;
  }
  *x = SpMin(SpMax(xs, G(0)), static_cast<G>(g.W - 1));
  *y = SpMin(SpMax(ys, G(0)), static_cast<G>(g.H - 1));
  return true;
}

/*! \brief The floor/ceil interpolation corners of (y, x) (already inside the map). */
template <typename G>
struct DPSCorners {
  index_t y0, y1, x0, x1;
  G ly, lx;
  MSHADOW_XINLINE DPSCorners(G y, G x) {
    y0 = static_cast<index_t>(SpFloor(y));
    y1 = static_cast<index_t>(SpCeil(y));
    x0 = static_cast<index_t>(SpFloor(x));
    x1 = static_cast<index_t>(SpCeil(x));
    ly = y - static_cast<G>(y0);
    lx = x - static_cast<G>(x0);
  }
};

/*! \brief Output i = (r, co, ph, pw): the mean of its bin's in-map samples, and their count. */
struct dpsroi_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* data, const DType* rois,
                                  const DType* trans, DType* out, DType* count, DPSROIGeom g,
                                  float spatial_scale, float trans_std) {
    using G = SpGeomT<DType>;
    const index_t pw = i % g.P, ph = (i / g.P) % g.P, co = (i / (g.P * g.P)) % g.D;
    const index_t r = i / (g.P * g.P * g.D);
    DPSBin<G> bin;
    if (!MakeDPSBin<G>(g, spatial_scale, rois, trans, trans_std, r, co, ph, pw, &bin)) {
      out[i] = DType(0);
      count[i] = DType(0);
      return;
    }
    const DType* d = data + bin.plane;
    G sum = 0;
    index_t n = 0;
    for (index_t iy = 0; iy < g.samples; ++iy) {
      for (index_t ix = 0; ix < g.samples; ++ix) {
        G y, x;
        if (!DPSSample(g, bin, iy, ix, &y, &x)) continue;
        const DPSCorners<G> c(y, x);
        sum += (G(1) - c.ly) * (G(1) - c.lx) * static_cast<G>(d[c.y0 * g.W + c.x0]) +
               (G(1) - c.ly) * c.lx * static_cast<G>(d[c.y0 * g.W + c.x1]) +
               c.ly * (G(1) - c.lx) * static_cast<G>(d[c.y1 * g.W + c.x0]) +
               c.ly * c.lx * static_cast<G>(d[c.y1 * g.W + c.x1]);
        ++n;
      }
    }
    out[i] = static_cast<DType>(n > 0 ? sum / static_cast<G>(n) : G(0));
    count[i] = static_cast<DType>(n);
  }
};

/*! \brief out_grad / top_count of output (r, idx within the roi). */
template <typename G, typename DType>
MSHADOW_XINLINE G DPSGradScale(const DType* og, const DType* count, index_t at) {
  const G n = static_cast<G>(count[at]);
  return n > 0 ? static_cast<G>(og[at]) / n : G(0);
}

/*! \brief Item t = (co, r, ph, pw): spreads the output gradient over the bin's sample corners
 *         into the data gradient. Group by co (each output channel has its own planes). */
struct dpsroi_backward_data {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* og, const DType* rois,
                                  const DType* trans, const DType* count, DType* data_grad,
                                  DPSROIGeom g, float spatial_scale, float trans_std) {
    using G = SpGeomT<DType>;
    const index_t pw = t % g.P, ph = (t / g.P) % g.P, r = (t / (g.P * g.P)) % g.R;
    const index_t co = t / (g.P * g.P * g.R);
    DPSBin<G> bin;
    if (!MakeDPSBin<G>(g, spatial_scale, rois, trans, trans_std, r, co, ph, pw, &bin)) return;
    const G v = DPSGradScale<G>(og, count, ((r * g.D + co) * g.P + ph) * g.P + pw);
    DType* d = data_grad + bin.plane;
    for (index_t iy = 0; iy < g.samples; ++iy) {
      for (index_t ix = 0; ix < g.samples; ++ix) {
        G y, x;
        if (!DPSSample(g, bin, iy, ix, &y, &x)) continue;
        const DPSCorners<G> c(y, x);
        ScatterAdd(d + c.y0 * g.W + c.x0, (G(1) - c.ly) * (G(1) - c.lx) * v);
        ScatterAdd(d + c.y1 * g.W + c.x0, c.ly * (G(1) - c.lx) * v);
        ScatterAdd(d + c.y0 * g.W + c.x1, (G(1) - c.ly) * c.lx * v);
        ScatterAdd(d + c.y1 * g.W + c.x1, c.ly * c.lx * v);
      }
    }
  }
};

/*! \brief Item t = (r, co, ph, pw): adds each sample's interpolation slope (times trans_std, the
 *         output gradient and the roi size) to its trans entries. Group by r (its own rows). */
struct dpsroi_backward_trans {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* og, const DType* data,
                                  const DType* rois, const DType* trans, const DType* count,
                                  DType* trans_grad, DPSROIGeom g, float spatial_scale,
                                  float trans_std) {
    using G = SpGeomT<DType>;
    const index_t pw = t % g.P, ph = (t / g.P) % g.P, co = (t / (g.P * g.P)) % g.D;
    const index_t r = t / (g.P * g.P * g.D);
    DPSBin<G> bin;
    if (!MakeDPSBin<G>(g, spatial_scale, rois, trans, trans_std, r, co, ph, pw, &bin)) return;
    const G v = DPSGradScale<G>(og, count, t);
    const G tstd = trans_std;
    const DType* d = data + bin.plane;
    for (index_t iy = 0; iy < g.samples; ++iy) {
      for (index_t ix = 0; ix < g.samples; ++ix) {
        G y, x;
        if (!DPSSample(g, bin, iy, ix, &y, &x)) continue;
        const DPSCorners<G> c(y, x);
        const G u00 = static_cast<G>(d[c.y0 * g.W + c.x0]);
        const G u01 = static_cast<G>(d[c.y1 * g.W + c.x0]);
        const G u10 = static_cast<G>(d[c.y0 * g.W + c.x1]);
        const G u11 = static_cast<G>(d[c.y1 * g.W + c.x1]);
        const G dx = (u11 * c.ly + u10 * (G(1) - c.ly) - u01 * c.ly -
                      u00 * (G(1) - c.ly)) * tstd * v * bin.rw;
        const G dy = (u11 * c.lx + u01 * (G(1) - c.lx) - u10 * c.lx -
                      u00 * (G(1) - c.lx)) * tstd * v * bin.rh;
        ScatterAdd(trans_grad + bin.tx_idx, dx);
        ScatterAdd(trans_grad + bin.ty_idx, dy);
      }
    }
  }
};

template <typename xpu>
void DPSROICompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const DeformablePSROIPoolingParam& p = nnvm::get<DeformablePSROIPoolingParam>(attrs.parsed);
  const DPSROIGeom g = DPSROIGeomOf(p, inputs[0], inputs[1], p.no_trans ? nullptr : &inputs[2]);
  if (outputs[0].Size() == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchGrouped<dpsroi_forward>(ctx.get_stream<xpu>(), outputs[0].Size(), 1,
                                  inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                                  p.no_trans ? static_cast<const DType*>(nullptr)
                                             : inputs[2].dptr<DType>(),
                                  outputs[0].dptr<DType>(), outputs[1].dptr<DType>(), g,
                                  p.spatial_scale, p.trans_std);
  });
}

/*! \brief inputs: (out_grad, data, rois, [trans,] top_count); outputs: (data_grad, rois_grad
 *         [, trans_grad]). */
template <typename xpu>
void DPSROIGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const DeformablePSROIPoolingParam& p = nnvm::get<DeformablePSROIPoolingParam>(attrs.parsed);
  const TBlob* trans = p.no_trans ? nullptr : &inputs[3];
  const TBlob& count = inputs[p.no_trans ? 3 : 4];
  const DPSROIGeom g = DPSROIGeomOf(p, inputs[1], inputs[2], trans);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  // Gradients accumulate in place: start from zero unless the request adds.
  for (size_t i = 0; i < outputs.size(); ++i) ZeroUnlessAddTo(s, outputs[i], req[i]);
  const index_t cells = g.R * g.P * g.P;
  if (cells == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* trans_ptr = trans ? trans->dptr<DType>() : nullptr;
    if (req[0] != kNullOp) {
      LaunchGrouped<dpsroi_backward_data>(s, g.D, cells, inputs[0].dptr<DType>(),
                                          inputs[2].dptr<DType>(), trans_ptr,
                                          count.dptr<DType>(), outputs[0].dptr<DType>(), g,
                                          p.spatial_scale, p.trans_std);
    }
    if (!p.no_trans && req[2] != kNullOp) {
      LaunchGrouped<dpsroi_backward_trans>(s, g.R, g.D * g.P * g.P, inputs[0].dptr<DType>(),
                                           inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
                                           trans_ptr, count.dptr<DType>(),
                                           outputs[2].dptr<DType>(), g, p.spatial_scale,
                                           p.trans_std);
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_DEFORMABLE_PSROI_POOLING_INL_H_
