/*!
 * \file multibox-inl.h
 * \brief Parameters of the SSD operators in multibox.cc: _contrib_MultiBoxPrior (anchor
 *        generation), _contrib_MultiBoxTarget (anchor/ground-truth matching into training
 *        targets) and _contrib_MultiBoxDetection (decoding + per-class NMS). Anchors are corner
 *        boxes in [0, 1] image coordinates, shape (1, num_anchors, 4). The kernels below serve
 *        both devices (multibox.cc, multibox.cu): anchors, IoUs, decoding and the outputs one
 *        thread per element; matching, hard-negative mining and NMS one thread per image.
 */
#ifndef MXNET_OPERATOR_CONTRIB_MULTIBOX_INL_H_
#define MXNET_OPERATOR_CONTRIB_MULTIBOX_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/tuple.h>

#include <cmath>
#include <vector>

#include "../operator_common.h"
#include "./bounding_box-inl.h"

namespace mxnet {
namespace op {

struct MultiBoxPriorParam : public dmlc::Parameter<MultiBoxPriorParam> {
  mxnet::Tuple<float> sizes;
  mxnet::Tuple<float> ratios;
  bool clip;
  mxnet::Tuple<float> steps;
  mxnet::Tuple<float> offsets;
  DMLC_DECLARE_PARAMETER(MultiBoxPriorParam) {
    DMLC_DECLARE_FIELD(sizes).set_default(mxnet::Tuple<float>({1.0f}))
        .describe("List of sizes of generated MultiBoxPriores.");
    DMLC_DECLARE_FIELD(ratios).set_default(mxnet::Tuple<float>({1.0f}))
        .describe("List of aspect ratios of generated MultiBoxPriores.");
    DMLC_DECLARE_FIELD(clip).set_default(false)
        .describe("Whether to clip out-of-boundary boxes.");
    DMLC_DECLARE_FIELD(steps).set_default(mxnet::Tuple<float>({-1.f, -1.f}))
        .describe("Priorbox step across y and x, -1 for auto calculation.");
    DMLC_DECLARE_FIELD(offsets).set_default(mxnet::Tuple<float>({0.5f, 0.5f}))
        .describe("Priorbox center offsets, y and x respectively");
  }
};

struct MultiBoxTargetParam : public dmlc::Parameter<MultiBoxTargetParam> {
  float overlap_threshold;
  float ignore_label;
  float negative_mining_ratio;
  float negative_mining_thresh;
  int minimum_negative_samples;
  mxnet::Tuple<float> variances;
  DMLC_DECLARE_PARAMETER(MultiBoxTargetParam) {
    DMLC_DECLARE_FIELD(overlap_threshold).set_default(0.5f)
        .describe("Anchor-GT overlap threshold to be regarded as a positive match.");
    DMLC_DECLARE_FIELD(ignore_label).set_default(-1.0f)
        .describe("Label for ignored anchors.");
    DMLC_DECLARE_FIELD(negative_mining_ratio).set_default(-1.0f)
        .describe("Max negative to positive samples ratio, use -1 to disable mining");
    DMLC_DECLARE_FIELD(negative_mining_thresh).set_default(0.5f)
        .describe("Threshold used for negative mining.");
    DMLC_DECLARE_FIELD(minimum_negative_samples).set_default(0)
        .describe("Minimum number of negative samples.");
    DMLC_DECLARE_FIELD(variances).set_default(mxnet::Tuple<float>({0.1f, 0.1f, 0.2f, 0.2f}))
        .describe("Variances to be encoded in box regression target.");
  }
};

struct MultiBoxDetectionParam : public dmlc::Parameter<MultiBoxDetectionParam> {
  bool clip;
  float threshold;
  int background_id;
  float nms_threshold;
  bool force_suppress;
  mxnet::Tuple<float> variances;
  int nms_topk;
  DMLC_DECLARE_PARAMETER(MultiBoxDetectionParam) {
    DMLC_DECLARE_FIELD(clip).set_default(true)
        .describe("Clip out-of-boundary boxes.");
    DMLC_DECLARE_FIELD(threshold).set_default(0.01f)
        .describe("Threshold to be a positive prediction.");
    DMLC_DECLARE_FIELD(background_id).set_default(0)
        .describe("Background id.");
    DMLC_DECLARE_FIELD(nms_threshold).set_default(0.5f)
        .describe("Non-maximum suppression threshold.");
    DMLC_DECLARE_FIELD(force_suppress).set_default(false)
        .describe("Suppress all detections regardless of class_id.");
    DMLC_DECLARE_FIELD(variances).set_default(mxnet::Tuple<float>({0.1f, 0.1f, 0.2f, 0.2f}))
        .describe("Variances to be decoded from box regression output.");
    DMLC_DECLARE_FIELD(nms_topk).set_default(-1)
        .describe("Keep maximum top k detections before nms, -1 for no limit.");
  }
};


namespace multibox_kernel {

using box_common::Max;
using box_common::Min;

// ---- MultiBoxPrior: one thread per anchor ------------------------------------------------

/*! \brief halves: (half width, half height) of the per_cell anchors of a cell. */
struct prior {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const float* halves, index_t per_cell, index_t W,
                                  float step_y, float step_x, float off_y, float off_x,
                                  bool clip, DType* out) {
    const index_t cell = i / per_cell, k = i % per_cell;
    const index_t r = cell / W, c = cell % W;
    const float cy = (r + off_y) * step_y;
    const float cx = (c + off_x) * step_x;
    const float hw = halves[2 * k], hh = halves[2 * k + 1];
    float box[4] = {cx - hw, cy - hh, cx + hw, cy + hh};
    for (int j = 0; j < 4; ++j) {
      if (clip) box[j] = Min(Max(box[j], 0.0f), 1.0f);
      out[i * 4 + j] = static_cast<DType>(box[j]);
    }
  }
};

// ---- MultiBoxTarget ----------------------------------------------------------------------

/*! \brief MultiBoxTargetParam as plain values, with the geometry. */
struct TargetArgs {
  float overlap_threshold, ignore_label, negative_mining_ratio, negative_mining_thresh;
  double var[4];
  index_t A, M, LW, classes;
};

/*!
 * \brief Workspace of one image: iou (A * M), flag (A: 1 positive, 0 negative, -1 ignored),
 *        match (A), max_iou (A), gt_done (M), prob (A), cand (A), tmp (A).
 */
struct TargetWs {
  double *iou, *max_iou, *prob;
  index_t *flag, *match, *gt_done, *cand, *tmp;
  MSHADOW_XINLINE static index_t Slots(index_t A, index_t M) { return A * M + 7 * A + M; }
  MSHADOW_XINLINE TargetWs(double* ws, index_t b, index_t A, index_t M) {
    double* w = ws + b * Slots(A, M);
    iou = w;
    max_iou = w + A * M;
    prob = max_iou + A;
    flag = box_common::Slots(prob + A);
    match = flag + A;
    gt_done = match + A;
    cand = gt_done + M;
    tmp = cand + A;
  }
};

/*! \brief One thread per (image, anchor, label row): IoU (rows past the last object unused). */
struct target_iou {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, TargetArgs p, const DType* anchors,
                                  const DType* label, double* ws) {
    const index_t b = i / (p.A * p.M), j = (i / p.M) % p.A, k = i % p.M;
    double a[4], g[4];
    box_common::ToCorner(anchors + j * 4, box_common::kCorner, a);
    box_common::ToCorner(label + (b * p.M + k) * p.LW + 1, box_common::kCorner, g);
    TargetWs(ws, b, p.A, p.M).iou[j * p.M + k] = box_common::CornerIoU(a, g);
  }
};

template <typename DType>
struct ProbLess {
  const double* prob;
  MSHADOW_XINLINE bool operator()(index_t x, index_t y) const { return prob[x] < prob[y]; }
};

/*!
 * \brief One thread per image: greedy bipartite matching (largest IoU first, each ground truth
 *        one anchor), then every other anchor whose best IoU > overlap_threshold, then the
 *        negatives (all, or the hardest ratio * positives by background probability).
 */
struct target_match {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, TargetArgs p, const DType* label,
                                  const DType* cls_pred_all, double* ws) {
    const index_t A = p.A, M = p.M;
    TargetWs w(ws, b, A, M);
    const DType* lab = label + b * M * p.LW;
    const DType* cls_pred = cls_pred_all + b * p.classes * A;
    for (index_t j = 0; j < A; ++j) {
      w.flag[j] = -1;
      w.match[j] = -1;
    }
    index_t G = 0;  // valid ground truths: the rows before the first class -1
    while (G < M && static_cast<float>(lab[G * p.LW]) != -1.0f) ++G;
    if (G == 0) return;  // no object in this image: every anchor is ignored (as in 1.9.1)
    for (index_t k = 0; k < G; ++k) w.gt_done[k] = 0;
    while (true) {  // greedy bipartite matching, largest IoU first
      index_t best_a = -1, best_g = -1;
      double best = 1e-6;
      for (index_t j = 0; j < A; ++j) {
        if (w.flag[j] == 1) continue;
        for (index_t k = 0; k < G; ++k) {
          if (!w.gt_done[k] && w.iou[j * M + k] > best) {
            best = w.iou[j * M + k];
            best_a = j;
            best_g = k;
          }
        }
      }
      if (best_a < 0) break;
      w.flag[best_a] = 1;
      w.match[best_a] = best_g;
      w.gt_done[best_g] = 1;
    }
    for (index_t j = 0; j < A; ++j) {
      index_t best_g = -1;
      w.max_iou[j] = -1.0;
      for (index_t k = 0; k < G; ++k) {
        if (w.iou[j * M + k] > w.max_iou[j]) {
          w.max_iou[j] = w.iou[j * M + k];
          best_g = k;
        }
      }
      if (w.flag[j] != 1 && p.overlap_threshold > 0 && best_g >= 0 &&
          w.max_iou[j] > p.overlap_threshold) {
        w.flag[j] = 1;
        w.match[j] = best_g;
      }
    }
    if (!(p.negative_mining_ratio > 0)) {
      for (index_t j = 0; j < A; ++j) {
        if (w.flag[j] != 1) w.flag[j] = 0;
      }
      return;
    }
    index_t positives = 0;
    for (index_t j = 0; j < A; ++j) positives += w.flag[j] == 1;
    index_t negatives = static_cast<index_t>(positives * p.negative_mining_ratio);
    // minimum_negative_samples is accepted but, like MXNet 1.9.1 on CPU, not applied.
    negatives = Min(negatives, A - positives);
    if (negatives <= 0) return;
    // Hardest negatives: lowest softmax probability of the background class.
    index_t n = 0;
    for (index_t j = 0; j < A; ++j) {
      if (w.flag[j] == 1 || !(w.max_iou[j] < p.negative_mining_thresh)) continue;
      double mx = static_cast<double>(cls_pred[j]);
      for (index_t c = 1; c < p.classes; ++c) {
        mx = Max(mx, static_cast<double>(cls_pred[c * A + j]));
      }
      double sum = 0;
      for (index_t c = 0; c < p.classes; ++c) {
        sum += ::exp(static_cast<double>(cls_pred[c * A + j]) - mx);
      }
      w.prob[j] = ::exp(static_cast<double>(cls_pred[j]) - mx) / sum;
      w.cand[n++] = j;
    }
    box_common::StableSort(w.cand, w.tmp, n, ProbLess<DType>{w.prob});
    const index_t take = Min(negatives, n);
    for (index_t i = 0; i < take; ++i) w.flag[w.cand[i]] = 0;
  }
};

/*! \brief One thread per (image, anchor): the regression target, its mask and the class. */
struct target_write {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, TargetArgs p, const DType* anchors,
                                  const DType* label, double* ws, DType* loc_target,
                                  DType* loc_mask, DType* cls_target) {
    const index_t b = i / p.A, j = i % p.A;
    TargetWs w(ws, b, p.A, p.M);
    DType* lt = loc_target + i * 4;
    DType* lm = loc_mask + i * 4;
    if (w.flag[j] != 1) {
      for (int c = 0; c < 4; ++c) lt[c] = lm[c] = DType(0);
      cls_target[i] = static_cast<DType>(w.flag[j] == 0 ? 0.0f : p.ignore_label);
      return;
    }
    const DType* gt = label + (b * p.M + w.match[j]) * p.LW;
    cls_target[i] = static_cast<DType>(static_cast<double>(gt[0]) + 1);
    double a[4], g[4];
    box_common::ToCorner(anchors + j * 4, box_common::kCorner, a);
    box_common::ToCorner(gt + 1, box_common::kCorner, g);
    const double aw = a[2] - a[0], ah = a[3] - a[1];
    const double ax = (a[0] + a[2]) / 2, ay = (a[1] + a[3]) / 2;
    const double gw = g[2] - g[0], gh = g[3] - g[1];
    const double gx = (g[0] + g[2]) / 2, gy = (g[1] + g[3]) / 2;
    const double t[4] = {(gx - ax) / aw / p.var[0], (gy - ay) / ah / p.var[1],
                         ::log(gw / aw) / p.var[2], ::log(gh / ah) / p.var[3]};
    for (int c = 0; c < 4; ++c) {
      lt[c] = static_cast<DType>(t[c]);
      lm[c] = DType(1);
    }
  }
};

// ---- MultiBoxDetection -------------------------------------------------------------------

struct DetectionArgs {
  float threshold, nms_threshold;
  bool clip, force_suppress;
  int nms_topk;
  double var[4];
  index_t A, classes;
};

/*!
 * \brief Workspace of one image: rows (A * 6: [class, score, x1, y1, x2, y2] of each anchor,
 *        class -1 when not confident), cls (A: the output rows' classes), valid, src, order
 *        (A each: anchor indices), count (1).
 */
struct DetectionWs {
  double *rows, *cls;
  index_t *valid, *src, *order, *count;
  MSHADOW_XINLINE static index_t Slots(index_t A) { return 10 * A + 1; }
  MSHADOW_XINLINE DetectionWs(double* ws, index_t b, index_t A) {
    rows = ws + b * Slots(A);
    cls = rows + 6 * A;
    valid = box_common::Slots(cls + A);
    src = valid + A;
    order = src + A;
    count = order + A;
  }
};

/*! \brief One thread per (image, anchor): best foreground class, score and decoded box. */
struct detection_decode {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DetectionArgs p, const DType* cls_prob,
                                  const DType* loc_pred, const DType* anchors, double* ws) {
    const index_t b = i / p.A, j = i % p.A;
    double* row = DetectionWs(ws, b, p.A).rows + j * 6;
    const DType* cls = cls_prob + b * p.classes * p.A;
    double score = -1;
    index_t id = 0;
    for (index_t c = 1; c < p.classes; ++c) {
      const double s = static_cast<double>(cls[c * p.A + j]);
      if (s > score) {
        score = s;
        id = c;
      }
    }
    if (id > 0 && score < p.threshold) id = 0;
    if (id == 0) {
      row[0] = -1;
      return;
    }
    double a[4];
    box_common::ToCorner(anchors + j * 4, box_common::kCorner, a);
    const double aw = a[2] - a[0], ah = a[3] - a[1];
    const double ax = (a[0] + a[2]) / 2, ay = (a[1] + a[3]) / 2;
    const DType* l = loc_pred + i * 4;
    const double ox = static_cast<double>(l[0]) * p.var[0] * aw + ax;
    const double oy = static_cast<double>(l[1]) * p.var[1] * ah + ay;
    const double hw = ::exp(static_cast<double>(l[2]) * p.var[2]) * aw / 2;
    const double hh = ::exp(static_cast<double>(l[3]) * p.var[3]) * ah / 2;
    const double v[6] = {static_cast<double>(id - 1), score, ox - hw, oy - hh, ox + hw, oy + hh};
    for (int k = 0; k < 6; ++k) {
      row[k] = (p.clip && k >= 2) ? Min(Max(v[k], 0.0), 1.0) : v[k];
    }
  }
};

struct RowScoreGreater {
  const double* rows;
  MSHADOW_XINLINE bool operator()(index_t x, index_t y) const {
    return rows[x * 6 + 1] > rows[y * 6 + 1];
  }
};

/*!
 * \brief One thread per image: the confident anchors in anchor order, the first nms_topk by
 *        descending score (the rest keep anchor order with class -1, as 1.9.1 leaves them),
 *        then NMS (IoU >= nms_threshold, within a class unless force_suppress) marks class -1.
 */
struct detection_nms {
  MSHADOW_XINLINE static void Map(index_t b, DetectionArgs p, double* ws) {
    DetectionWs w(ws, b, p.A);
    index_t n = 0;
    for (index_t j = 0; j < p.A; ++j) {
      if (w.rows[j * 6] >= 0) w.valid[n++] = j;
    }
    for (index_t k = 0; k < n; ++k) w.src[k] = w.valid[k];
    box_common::StableSort(w.src, w.order, n, RowScoreGreater{w.rows});
    const index_t keep = p.nms_topk > 0 ? Min(static_cast<index_t>(p.nms_topk), n) : n;
    for (index_t k = keep; k < n; ++k) w.src[k] = w.valid[k];
    for (index_t k = 0; k < n; ++k) w.cls[k] = k < keep ? w.rows[w.src[k] * 6] : -1.0;
    for (index_t i = 0; i < keep; ++i) {
      if (w.cls[i] < 0) continue;
      for (index_t j = i + 1; j < keep; ++j) {
        if (w.cls[j] < 0) continue;
        if (!p.force_suppress && w.cls[i] != w.cls[j]) continue;
        if (box_common::CornerIoU(w.rows + w.src[i] * 6 + 2, w.rows + w.src[j] * 6 + 2) >=
            p.nms_threshold) {
          w.cls[j] = -1;
        }
      }
    }
    *w.count = n;
  }
};

/*! \brief One thread per output value (image, row, k): the rows, then -1 rows. */
struct detection_write {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t A, double* ws, DType* out) {
    const index_t b = i / (A * 6), r = (i / 6) % A, k = i % 6;
    DetectionWs w(ws, b, A);
    double v = -1.0;
    if (r < *w.count) v = k == 0 ? w.cls[r] : w.rows[w.src[r] * 6 + k];
    out[i] = static_cast<DType>(v);
  }
};

}  // namespace multibox_kernel

// ---- FCompute<xpu> -----------------------------------------------------------------------

template <typename xpu>
void MultiBoxPriorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const MultiBoxPriorParam& p = nnvm::get<MultiBoxPriorParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t H = inputs[0].shape_[2], W = inputs[0].shape_[3];
  const float step_y = p.steps[0] > 0 ? p.steps[0] : 1.0f / H;
  const float step_x = p.steps[1] > 0 ? p.steps[1] : 1.0f / W;
  const float aspect = static_cast<float>(H) / static_cast<float>(W);
  // The half sizes of a cell's anchors: one per size with ratio 1, one per extra ratio.
  std::vector<float> halves;
  for (int i = 0; i < p.sizes.ndim(); ++i) {
    halves.push_back(p.sizes[i] * aspect / 2);
    halves.push_back(p.sizes[i] / 2);
  }
  for (int j = 1; j < p.ratios.ndim(); ++j) {
    const float r = std::sqrt(p.ratios[j]);
    halves.push_back(p.sizes[0] * aspect * r / 2);
    halves.push_back(p.sizes[0] / r / 2);
  }
  const index_t per_cell = halves.size() / 2;
  float* dev_halves = reinterpret_cast<float*>(box_common::Workspace(ctx, per_cell));
  box_common::CopyFromHost(s, halves.data(), halves.size() * sizeof(float), dev_halves);
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mxnet_op::Kernel<multibox_kernel::prior, xpu>::Launch(
        s, H * W * per_cell, static_cast<const float*>(dev_halves), per_cell, W, step_y, step_x,
        p.offsets[0], p.offsets[1], p.clip, outputs[0].dptr<DType>());
  });
}

/*! \brief (anchor, label, cls_pred) -> (loc_target, loc_mask, cls_target). */
template <typename xpu>
void MultiBoxTargetCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const MultiBoxTargetParam& p = nnvm::get<MultiBoxTargetParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  multibox_kernel::TargetArgs a;
  a.overlap_threshold = p.overlap_threshold;
  a.ignore_label = p.ignore_label;
  a.negative_mining_ratio = p.negative_mining_ratio;
  a.negative_mining_thresh = p.negative_mining_thresh;
  for (int k = 0; k < 4; ++k) a.var[k] = p.variances[k];
  a.A = inputs[0].shape_[1];
  const index_t B = inputs[1].shape_[0];
  a.M = inputs[1].shape_[1];
  a.LW = inputs[1].shape_[2];
  a.classes = inputs[2].shape_[1];
  if (B * a.A == 0) return;
  double* ws = box_common::Workspace(ctx, B * multibox_kernel::TargetWs::Slots(a.A, a.M));
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* anchors = inputs[0].dptr<DType>();
    const DType* label = inputs[1].dptr<DType>();
    mxnet_op::Kernel<multibox_kernel::target_iou, xpu>::Launch(s, B * a.A * a.M, a, anchors,
                                                               label, ws);
    box_common::SerialPerItem<multibox_kernel::target_match, xpu>::Launch(
        s, B, a, label, inputs[2].dptr<DType>(), ws);
    mxnet_op::Kernel<multibox_kernel::target_write, xpu>::Launch(
        s, B * a.A, a, anchors, label, ws, outputs[0].dptr<DType>(), outputs[1].dptr<DType>(),
        outputs[2].dptr<DType>());
  });
}

/*! \brief (cls_prob, loc_pred, anchor) -> (B, A, 6) detections. */
template <typename xpu>
void MultiBoxDetectionCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const MultiBoxDetectionParam& p = nnvm::get<MultiBoxDetectionParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  multibox_kernel::DetectionArgs a;
  a.threshold = p.threshold;
  a.nms_threshold = p.nms_threshold;
  a.clip = p.clip;
  a.force_suppress = p.force_suppress;
  a.nms_topk = p.nms_topk;
  for (int k = 0; k < 4; ++k) a.var[k] = p.variances[k];
  const index_t B = inputs[0].shape_[0];
  a.classes = inputs[0].shape_[1];
  a.A = inputs[0].shape_[2];
  if (B * a.A == 0) return;
  double* ws = box_common::Workspace(ctx, B * multibox_kernel::DetectionWs::Slots(a.A));
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<multibox_kernel::detection_decode, xpu>::Launch(
        s, B * a.A, a, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        inputs[2].dptr<DType>(), ws);
    box_common::SerialPerItem<multibox_kernel::detection_nms, xpu>::Launch(s, B, a, ws);
    mxnet_op::Kernel<multibox_kernel::detection_write, xpu>::Launch(s, B * a.A * 6, a.A, ws,
                                                                    outputs[0].dptr<DType>());
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_MULTIBOX_INL_H_
