/*!
 * \file proposal-inl.h
 * \brief Faster R-CNN region proposals (_contrib_Proposal, _contrib_MultiProposal; see
 *        proposal.cc) for both devices: the proposals of all anchors one thread per anchor,
 *        sort + greedy NMS one thread per image, the output rows one thread per row.
 */
#ifndef MXNET_OPERATOR_CONTRIB_PROPOSAL_INL_H_
#define MXNET_OPERATOR_CONTRIB_PROPOSAL_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/tuple.h>

#include <cmath>
#include <vector>

#include "../operator_common.h"
#include "./bounding_box-inl.h"

namespace mxnet {
namespace op {

struct ProposalParam : public dmlc::Parameter<ProposalParam> {
  int rpn_pre_nms_top_n;
  int rpn_post_nms_top_n;
  float threshold;
  int rpn_min_size;
  mxnet::Tuple<float> scales;
  mxnet::Tuple<float> ratios;
  int feature_stride;
  bool output_score;
  bool iou_loss;
  DMLC_DECLARE_PARAMETER(ProposalParam) {
    DMLC_DECLARE_FIELD(rpn_pre_nms_top_n).set_default(6000)
        .describe("Number of top scoring boxes to keep before applying NMS to RPN proposals");
    DMLC_DECLARE_FIELD(rpn_post_nms_top_n).set_default(300)
        .describe("Number of top scoring boxes to keep after applying NMS to RPN proposals");
    DMLC_DECLARE_FIELD(threshold).set_default(0.7f)
        .describe("NMS value, below which to suppress.");
    DMLC_DECLARE_FIELD(rpn_min_size).set_default(16)
        .describe("Minimum height or width in proposal");
    DMLC_DECLARE_FIELD(scales).set_default(mxnet::Tuple<float>({4.0f, 8.0f, 16.0f, 32.0f}))
        .describe("Used to generate anchor windows by enumerating scales");
    DMLC_DECLARE_FIELD(ratios).set_default(mxnet::Tuple<float>({0.5f, 1.0f, 2.0f}))
        .describe("Used to generate anchor windows by enumerating ratios");
    DMLC_DECLARE_FIELD(feature_stride).set_default(16)
        .describe("The size of the receptive field each unit in the convolution layer of the "
                  "rpn,for example the product of all stride's prior to this layer.");
    DMLC_DECLARE_FIELD(output_score).set_default(false)
        .describe("Add score to outputs");
    DMLC_DECLARE_FIELD(iou_loss).set_default(false)
        .describe("Usage of IoU Loss");
  }
};

namespace proposal_kernel {

using box_common::Max;
using box_common::Min;

struct ProposalArgs {
  float threshold, stride;
  int rpn_min_size;
  bool iou_loss;
  index_t A, H, W, pre_top_n, post;
};

/*!
 * \brief Workspace of one image over count = A * H * W anchors: boxes (4 * count floats),
 *        scores (count floats), order (count), tmp (count), keep (post), kept count (1).
 */
struct ProposalWs {
  float *boxes, *scores;
  index_t *order, *tmp, *keep, *nkeep;
  MSHADOW_XINLINE static index_t Slots(index_t count, index_t post) {
    return (5 * count + 1) / 2 + 2 * count + post + 1;
  }
  MSHADOW_XINLINE ProposalWs(double* ws, index_t b, index_t count, index_t post) {
    double* w = ws + b * Slots(count, post);
    boxes = reinterpret_cast<float*>(w);
    scores = boxes + 4 * count;
    order = box_common::Slots(w + (5 * count + 1) / 2);
    tmp = order + count;
    keep = tmp + count;
    nkeep = keep + post;
  }
};

/*!
 * \brief One thread per (image, cell, anchor): the anchor moved by its deltas and clipped to
 *        the image; score -1 in the padding beyond im_info's size, and for boxes smaller than
 *        rpn_min_size * scale (grown by min_size, as 1.9.1 does).
 */
struct proposal_boxes {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, ProposalArgs p, const float* base,
                                  const DType* cls_all, const DType* deltas_all,
                                  const DType* info_all, double* ws) {
    const index_t A = p.A, H = p.H, W = p.W, count = A * H * W;
    const index_t b = i / count, rest = i % count;
    const index_t a = rest % A, h = rest / A / W, w = (rest / A) % W;
    const DType* cls = cls_all + b * 2 * count;
    const DType* deltas = deltas_all + b * 4 * count;
    const DType* info = info_all + b * 3;
    ProposalWs ws_b(ws, b, count, p.post);
    const float im_h = static_cast<float>(info[0]), im_w = static_cast<float>(info[1]);
    const float im_scale = static_cast<float>(info[2]);
    const float stride = p.stride;
    const index_t real_h = static_cast<index_t>(im_h / stride);
    const index_t real_w = static_cast<index_t>(im_w / stride);
    const float min_size = p.rpn_min_size * im_scale;
    const float* an = base + a * 4;
    const float x1 = an[0] + w * stride, y1 = an[1] + h * stride;
    const float x2 = an[2] + w * stride, y2 = an[3] + h * stride;
    float d[4];
    for (int k = 0; k < 4; ++k) d[k] = static_cast<float>(deltas[((a * 4 + k) * H + h) * W + w]);
    float px1, py1, px2, py2;
    if (p.iou_loss) {
      px1 = x1 + d[0]; py1 = y1 + d[1]; px2 = x2 + d[2]; py2 = y2 + d[3];
    } else {
      const float bw = x2 - x1 + 1.0f, bh = y2 - y1 + 1.0f;
      const float cx = x1 + 0.5f * (bw - 1.0f), cy = y1 + 0.5f * (bh - 1.0f);
      const float pcx = d[0] * bw + cx, pcy = d[1] * bh + cy;
      const float pw = ::expf(d[2]) * bw, ph = ::expf(d[3]) * bh;
      px1 = pcx - 0.5f * (pw - 1.0f); py1 = pcy - 0.5f * (ph - 1.0f);
      px2 = pcx + 0.5f * (pw - 1.0f); py2 = pcy + 0.5f * (ph - 1.0f);
    }
    px1 = Max(Min(px1, im_w - 1.0f), 0.0f);
    py1 = Max(Min(py1, im_h - 1.0f), 0.0f);
    px2 = Max(Min(px2, im_w - 1.0f), 0.0f);
    py2 = Max(Min(py2, im_h - 1.0f), 0.0f);
    float* box = ws_b.boxes + rest * 4;
    float score = static_cast<float>(cls[((A + a) * H + h) * W + w]);
    if (h >= real_h || w >= real_w) score = -1.0f;  // padding beyond the image
    if (px2 - px1 + 1.0f < min_size || py2 - py1 + 1.0f < min_size) {
      box[0] = px1 - min_size / 2; box[1] = py1 - min_size / 2;
      box[2] = px2 + min_size / 2; box[3] = py2 + min_size / 2;
      score = -1.0f;
    } else {
      box[0] = px1; box[1] = py1; box[2] = px2; box[3] = py2;
    }
    ws_b.scores[rest] = score;
  }
};

struct ScoreGreater {
  const float* scores;
  MSHADOW_XINLINE bool operator()(index_t x, index_t y) const { return scores[x] > scores[y]; }
};

MSHADOW_XINLINE float PixelArea(const float* c) {
  return box_common::Mul(c[2] - c[0] + 1.0f, c[3] - c[1] + 1.0f);
}

/*!
 * \brief One thread per image: the rpn_pre_nms_top_n best by score (stable), then greedy NMS
 *        (IoU > threshold, +1 pixel areas) keeping at most rpn_post_nms_top_n.
 */
struct proposal_nms {
  MSHADOW_XINLINE static void Map(index_t b, ProposalArgs p, double* ws) {
    const index_t count = p.A * p.H * p.W;
    ProposalWs w(ws, b, count, p.post);
    for (index_t k = 0; k < count; ++k) w.order[k] = k;
    box_common::StableSort(w.order, w.tmp, count, ScoreGreater{w.scores});
    const index_t pre = p.pre_top_n > 0 ? Min(p.pre_top_n, count) : count;
    index_t* suppressed = w.tmp;
    for (index_t k = 0; k < pre; ++k) suppressed[k] = 0;
    index_t nkeep = 0;
    for (index_t i = 0; i < pre && nkeep < p.post; ++i) {
      if (suppressed[i]) continue;
      w.keep[nkeep++] = w.order[i];
      const float* bi = w.boxes + w.order[i] * 4;
      for (index_t j = i + 1; j < pre; ++j) {
        if (suppressed[j]) continue;
        const float* bj = w.boxes + w.order[j] * 4;
        const float iw = Max(0.0f, Min(bi[2], bj[2]) - Max(bi[0], bj[0]) + 1.0f);
        const float ih = Max(0.0f, Min(bi[3], bj[3]) - Max(bi[1], bj[1]) + 1.0f);
        const float inter = box_common::Mul(iw, ih);
        if (inter / (PixelArea(bi) + PixelArea(bj) - inter) > p.threshold) suppressed[j] = 1;
      }
    }
    *w.nkeep = nkeep;
  }
};

/*!
 * \brief One thread per output row (image, r): [image index, box] and the score of kept box
 *        r, repeating the kept boxes cyclically; zeros when none was kept.
 */
struct proposal_write {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, ProposalArgs p, double* ws, DType* rois,
                                  DType* scores) {
    const index_t b = i / p.post, r = i % p.post;
    ProposalWs w(ws, b, p.A * p.H * p.W, p.post);
    DType* row = rois + i * 5;
    row[0] = static_cast<DType>(b);
    const index_t nkeep = *w.nkeep;
    if (nkeep == 0) {
      for (int k = 1; k < 5; ++k) row[k] = DType(0);
      scores[i] = DType(0);
      return;
    }
    const index_t src = w.keep[r % nkeep];
    for (int k = 0; k < 4; ++k) row[1 + k] = static_cast<DType>(w.boxes[src * 4 + k]);
    scores[i] = static_cast<DType>(w.scores[src]);
  }
};

}  // namespace proposal_kernel

/*! \brief The A anchors of one cell at the origin: ratios outer, scales inner (x1 y1 x2 y2). */
inline std::vector<float> ProposalBaseAnchors(const ProposalParam& p) {
  const float side = static_cast<float>(p.feature_stride);
  const float ctr = 0.5f * (side - 1.0f);
  std::vector<float> out;
  for (int i = 0; i < p.ratios.ndim(); ++i) {
    const float size_ratio = std::floor(side * side / p.ratios[i]);
    const float base_w = std::floor(std::sqrt(size_ratio) + 0.5f);
    const float base_h = std::floor(base_w * p.ratios[i] + 0.5f);
    for (int j = 0; j < p.scales.ndim(); ++j) {
      const float w = base_w * p.scales[j], h = base_h * p.scales[j];
      out.insert(out.end(), {ctr - 0.5f * (w - 1.0f), ctr - 0.5f * (h - 1.0f),
                             ctr + 0.5f * (w - 1.0f), ctr + 0.5f * (h - 1.0f)});
    }
  }
  return out;
}

/*! \brief (cls_prob, bbox_pred, im_info) -> (rois, scores). */
template <typename xpu>
void ProposalCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const ProposalParam& p = nnvm::get<ProposalParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const std::vector<float> base = ProposalBaseAnchors(p);
  proposal_kernel::ProposalArgs a;
  a.threshold = p.threshold;
  a.stride = static_cast<float>(p.feature_stride);
  a.rpn_min_size = p.rpn_min_size;
  a.iou_loss = p.iou_loss;
  a.A = base.size() / 4;
  a.H = inputs[0].shape_[2];
  a.W = inputs[0].shape_[3];
  a.pre_top_n = p.rpn_pre_nms_top_n;
  a.post = p.rpn_post_nms_top_n;
  const index_t N = inputs[0].shape_[0], count = a.A * a.H * a.W;
  if (N == 0) return;
  // The base anchors first (whole slots), then each image's part.
  const index_t base_slots = (base.size() + 1) / 2;
  double* ws = box_common::Workspace(
      ctx, base_slots + N * proposal_kernel::ProposalWs::Slots(count, a.post));
  float* dev_base = reinterpret_cast<float*>(ws);
  box_common::CopyFromHost(s, base.data(), base.size() * sizeof(float), dev_base);
  ws += base_slots;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<proposal_kernel::proposal_boxes, xpu>::Launch(
        s, N * count, a, static_cast<const float*>(dev_base), inputs[0].dptr<DType>(),
        inputs[1].dptr<DType>(), inputs[2].dptr<DType>(), ws);
    box_common::SerialPerItem<proposal_kernel::proposal_nms, xpu>::Launch(s, N, a, ws);
    mxnet_op::Kernel<proposal_kernel::proposal_write, xpu>::Launch(
        s, N * a.post, a, ws, outputs[0].dptr<DType>(), outputs[1].dptr<DType>());
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_PROPOSAL_INL_H_
