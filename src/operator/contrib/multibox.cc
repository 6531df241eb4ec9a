/*!
 * \file multibox.cc
 * \brief SSD operators (parameters in multibox-inl.h), CPU, with MXNet 1.9.1's semantics:
 *
 * _contrib_MultiBoxPrior: data (N, C, H, W) -> (1, H*W*(len(sizes)+len(ratios)-1), 4). Per cell
 *   (centre ((c+offset_x)*step_x, (r+offset_y)*step_y), step 1/W, 1/H unless given): one box per
 *   size with ratio 1 (half width size*H/W/2, half height size/2), then one per extra ratio with
 *   sizes[0] (widths scaled by sqrt(ratio), heights divided by it); optionally clipped to [0, 1].
 *
 * _contrib_MultiBoxTarget: anchor (1, A, 4), label (B, M, >=5) rows [cls, x1, y1, x2, y2] (rows
 *   from the first cls == -1 on are padding), cls_pred (B, classes, A) -> loc_target (B, A*4),
 *   loc_mask (B, A*4), cls_target (B, A). Matching: greedy bipartite (largest IoU first, each
 *   ground truth gets one anchor), then every other anchor whose best IoU > overlap_threshold.
 *   Unmatched anchors are negatives (cls 0); with negative_mining_ratio > 0 only the hardest
 *   ratio*positives with best IoU < negative_mining_thresh (lowest softmax background
 *   probability first) are, the rest get ignore_label (1.9.1's CPU ignores
 *   minimum_negative_samples). An image without ground truth gets ignore_label everywhere.
 *
 * _contrib_MultiBoxDetection: cls_prob (B, classes, A), loc_pred (B, A*4), anchor (1, A, 4) ->
 *   (B, A, 6) rows [class_id, score, x1, y1, x2, y2]: class 0 is background (on CPU 1.9.1 ignores
 *   background_id); anchors whose best class score is below threshold are dropped; the rest are
 *   sorted by score (the first nms_topk), NMS marks suppressed rows class -1; trailing rows -1.
 *
 * All three have zero gradients, as in 1.9.1.
 */
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "./bounding_box-inl.h"
#include "./multibox-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(MultiBoxPriorParam);
DMLC_REGISTER_PARAMETER(MultiBoxTargetParam);
DMLC_REGISTER_PARAMETER(MultiBoxDetectionParam);

namespace {

bool AllSameType(const char* op, std::vector<int>* in, std::vector<int>* out) {
  int t = -1;
  for (int v : *in) if (v != -1) { t = v; break; }
  if (t == -1) return false;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] != -1 && (*in)[i] != t) {
      MX_THROW(TypeError) << op << ": input " << i << " has dtype " << (*in)[i]
                          << " but input 0 has dtype " << t;
    }
    (*in)[i] = t;
  }
  for (auto& v : *out) v = t;
  return true;
}

void CheckVariances(const char* op, const mxnet::Tuple<float>& v) {
  if (v.ndim() != 4) {
    MX_THROW(ValueError) << op << ": variances must have 4 elements, got " << v.ndim();
  }
}

// ---- MultiBoxPrior -----------------------------------------------------------------------

bool PriorShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const MultiBoxPriorParam& p = nnvm::get<MultiBoxPriorParam>(attrs.parsed);
  if (p.sizes.ndim() < 1 || p.ratios.ndim() < 1) {
    MX_THROW(ValueError) << "_contrib_MultiBoxPrior: sizes and ratios must be non-empty, got "
                         << p.sizes.ndim() << " sizes and " << p.ratios.ndim() << " ratios";
  }
  if (p.steps.ndim() != 2 || p.offsets.ndim() != 2) {
    MX_THROW(ValueError) << "_contrib_MultiBoxPrior: steps and offsets must have 2 elements "
                         << "(y, x), got " << p.steps.ndim() << " and " << p.offsets.ndim();
  }
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() != 4) {
    MX_THROW(ValueError) << "_contrib_MultiBoxPrior: data must be 4-d (batch, channel, height, "
                         << "width), got " << d;
  }
  const dim_t per_cell = p.sizes.ndim() + p.ratios.ndim() - 1;
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({1, d[2] * d[3] * per_cell, 4}));
  return true;
}

template <typename DType>
void PriorImpl(const MultiBoxPriorParam& p, index_t H, index_t W, DType* out) {
  const float step_y = p.steps[0] > 0 ? p.steps[0] : 1.0f / H;
  const float step_x = p.steps[1] > 0 ? p.steps[1] : 1.0f / W;
  const float aspect = static_cast<float>(H) / static_cast<float>(W);
  const index_t per_cell = p.sizes.ndim() + p.ratios.ndim() - 1;
  #pragma omp parallel for
  for (index_t r = 0; r < H; ++r) {
    const float cy = (r + p.offsets[0]) * step_y;
    for (index_t c = 0; c < W; ++c) {
      const float cx = (c + p.offsets[1]) * step_x;
      DType* o = out + (r * W + c) * per_cell * 4;
      auto emit = [&](float hw, float hh) {
        float box[4] = {cx - hw, cy - hh, cx + hw, cy + hh};
        for (int k = 0; k < 4; ++k) {
          if (p.clip) box[k] = std::min(std::max(box[k], 0.0f), 1.0f);
          *o++ = static_cast<DType>(box[k]);
        }
      };
      for (int i = 0; i < p.sizes.ndim(); ++i) emit(p.sizes[i] * aspect / 2, p.sizes[i] / 2);
      for (int j = 1; j < p.ratios.ndim(); ++j) {
        const float s = std::sqrt(p.ratios[j]);
        emit(p.sizes[0] * aspect * s / 2, p.sizes[0] / s / 2);
      }
    }
  }
}

void PriorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const MultiBoxPriorParam& p = nnvm::get<MultiBoxPriorParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    PriorImpl(p, inputs[0].shape_[2], inputs[0].shape_[3], outputs[0].dptr<DType>());
  });
}

// ---- MultiBoxTarget ----------------------------------------------------------------------

bool TargetShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  CheckVariances("_contrib_MultiBoxTarget",
                 nnvm::get<MultiBoxTargetParam>(attrs.parsed).variances);
  const mxnet::TShape &anchor = (*in)[0], &label = (*in)[1], &cls = (*in)[2];
  if (!shape_is_known(anchor) || !shape_is_known(label) || !shape_is_known(cls)) return false;
  if (anchor.ndim() != 3 || anchor[0] != 1 || anchor[2] != 4) {
    MX_THROW(ValueError) << "_contrib_MultiBoxTarget: anchor must be (1, num_anchors, 4), got "
                         << anchor;
  }
  if (label.ndim() != 3 || label[2] < 5) {
    MX_THROW(ValueError) << "_contrib_MultiBoxTarget: label must be (batch, num_labels, >=5) "
                         << "with rows [class, x1, y1, x2, y2, ...], got " << label;
  }
  if (cls.ndim() != 3 || cls[0] != label[0] || cls[2] != anchor[1]) {
    MX_THROW(ValueError) << "_contrib_MultiBoxTarget: cls_pred must be (batch, num_classes, "
                         << "num_anchors) = (" << label[0] << ", C, " << anchor[1]
                         << "), got " << cls << " (anchor " << anchor << ", label " << label
                         << ")";
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({label[0], anchor[1] * 4}));
  SHAPE_ASSIGN_CHECK(*out, 1, mxnet::TShape({label[0], anchor[1] * 4}));
  SHAPE_ASSIGN_CHECK(*out, 2, mxnet::TShape({label[0], anchor[1]}));
  return true;
}

template <typename DType>
void TargetOneBatch(const MultiBoxTargetParam& p, const DType* anchors, index_t A,
                    const DType* label, index_t M, index_t LW, const DType* cls_pred,
                    index_t classes, DType* loc_target, DType* loc_mask, DType* cls_target) {
  std::fill(loc_target, loc_target + A * 4, DType(0));
  std::fill(loc_mask, loc_mask + A * 4, DType(0));
  index_t G = 0;  // valid ground truths: the rows before the first class -1
  while (G < M && static_cast<float>(label[G * LW]) != -1.0f) ++G;
  if (G == 0) {
    // No object in this image: every anchor is ignored (as in 1.9.1).
    std::fill(cls_target, cls_target + A, static_cast<DType>(p.ignore_label));
    return;
  }
  std::vector<std::array<double, 4>> ac(A), gc(G);
  for (index_t j = 0; j < A; ++j) box_common::ToCorner(anchors + j * 4, 0, ac[j].data());
  for (index_t k = 0; k < G; ++k) box_common::ToCorner(label + k * LW + 1, 0, gc[k].data());
  std::vector<double> iou(A * G);
  for (index_t j = 0; j < A; ++j)
    for (index_t k = 0; k < G; ++k) {
      iou[j * G + k] = box_common::CornerIoU(ac[j].data(), gc[k].data());
    }

  // flag: 1 positive, 0 negative, -1 ignored.
  std::vector<int> flag(A, -1);
  std::vector<index_t> match(A, -1);
  std::vector<bool> gt_done(G, false);
  while (true) {  // greedy bipartite matching, largest IoU first
    index_t best_a = -1, best_g = -1;
    double best = 1e-6;
    for (index_t j = 0; j < A; ++j) {
      if (flag[j] == 1) continue;
      for (index_t k = 0; k < G; ++k) {
        if (!gt_done[k] && iou[j * G + k] > best) {
          best = iou[j * G + k];
          best_a = j;
          best_g = k;
        }
      }
    }
    if (best_a < 0) break;
    flag[best_a] = 1;
    match[best_a] = best_g;
    gt_done[best_g] = true;
  }
  std::vector<double> max_iou(A, -1.0);
  for (index_t j = 0; j < A; ++j) {
    index_t best_g = -1;
    for (index_t k = 0; k < G; ++k) {
      if (iou[j * G + k] > max_iou[j]) {
        max_iou[j] = iou[j * G + k];
        best_g = k;
      }
    }
    if (flag[j] != 1 && p.overlap_threshold > 0 && best_g >= 0 &&
        max_iou[j] > p.overlap_threshold) {
      flag[j] = 1;
      match[j] = best_g;
    }
  }

  if (p.negative_mining_ratio > 0) {
    const index_t positives = std::count(flag.begin(), flag.end(), 1);
    index_t negatives = static_cast<index_t>(positives * p.negative_mining_ratio);
    // minimum_negative_samples is accepted but, like MXNet 1.9.1 on CPU, not applied.
    negatives = std::min<index_t>(negatives, A - positives);
    if (negatives > 0) {
      // Hardest negatives: lowest softmax probability of the background class.
      std::vector<std::pair<double, index_t>> cand;
      for (index_t j = 0; j < A; ++j) {
        if (flag[j] == 1 || !(max_iou[j] < p.negative_mining_thresh)) continue;
        double mx = static_cast<double>(cls_pred[j]);
        for (index_t c = 1; c < classes; ++c) {
          mx = std::max(mx, static_cast<double>(cls_pred[c * A + j]));
        }
        double sum = 0;
        for (index_t c = 0; c < classes; ++c) {
          sum += std::exp(static_cast<double>(cls_pred[c * A + j]) - mx);
        }
        cand.emplace_back(std::exp(static_cast<double>(cls_pred[j]) - mx) / sum, j);
      }
      std::stable_sort(cand.begin(), cand.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      const index_t take = std::min<index_t>(negatives, cand.size());
      for (index_t i = 0; i < take; ++i) flag[cand[i].second] = 0;
    }
  } else {
    for (auto& f : flag) if (f != 1) f = 0;
  }

  const double v[4] = {p.variances[0], p.variances[1], p.variances[2], p.variances[3]};
  for (index_t j = 0; j < A; ++j) {
    if (flag[j] == 1) {
      const index_t k = match[j];
      cls_target[j] = static_cast<DType>(static_cast<double>(label[k * LW]) + 1);
      const double* a = ac[j].data();
      const double* g = gc[k].data();
      const double aw = a[2] - a[0], ah = a[3] - a[1];
      const double ax = (a[0] + a[2]) / 2, ay = (a[1] + a[3]) / 2;
      const double gw = g[2] - g[0], gh = g[3] - g[1];
      const double gx = (g[0] + g[2]) / 2, gy = (g[1] + g[3]) / 2;
      const double t[4] = {(gx - ax) / aw / v[0], (gy - ay) / ah / v[1],
                           std::log(gw / aw) / v[2], std::log(gh / ah) / v[3]};
      for (int c = 0; c < 4; ++c) {
        loc_target[j * 4 + c] = static_cast<DType>(t[c]);
        loc_mask[j * 4 + c] = DType(1);
      }
    } else {
      cls_target[j] = static_cast<DType>(flag[j] == 0 ? 0.0f : p.ignore_label);
    }
  }
}

void TargetCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const MultiBoxTargetParam& p = nnvm::get<MultiBoxTargetParam>(attrs.parsed);
  const index_t A = inputs[0].shape_[1];
  const index_t B = inputs[1].shape_[0], M = inputs[1].shape_[1], LW = inputs[1].shape_[2];
  const index_t classes = inputs[2].shape_[1];
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    for (index_t b = 0; b < B; ++b) {
      TargetOneBatch(p, inputs[0].dptr<DType>(), A, inputs[1].dptr<DType>() + b * M * LW, M, LW,
                     inputs[2].dptr<DType>() + b * classes * A, classes,
                     outputs[0].dptr<DType>() + b * A * 4, outputs[1].dptr<DType>() + b * A * 4,
                     outputs[2].dptr<DType>() + b * A);
    }
  });
}

// ---- MultiBoxDetection -------------------------------------------------------------------

bool DetectionShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  CheckVariances("_contrib_MultiBoxDetection",
                 nnvm::get<MultiBoxDetectionParam>(attrs.parsed).variances);
  const mxnet::TShape &cls = (*in)[0], &loc = (*in)[1], &anchor = (*in)[2];
  if (!shape_is_known(cls) || !shape_is_known(loc) || !shape_is_known(anchor)) return false;
  if (anchor.ndim() != 3 || anchor[0] != 1 || anchor[2] != 4) {
    MX_THROW(ValueError) << "_contrib_MultiBoxDetection: anchor must be (1, num_anchors, 4), "
                         << "got " << anchor;
  }
  if (cls.ndim() != 3 || cls[2] != anchor[1] || cls[1] < 1) {
    MX_THROW(ValueError) << "_contrib_MultiBoxDetection: cls_prob must be (batch, num_classes, "
                         << "num_anchors) with num_anchors = " << anchor[1] << ", got " << cls;
  }
  if (loc.ndim() != 2 || loc[0] != cls[0] || loc[1] != anchor[1] * 4) {
    MX_THROW(ValueError) << "_contrib_MultiBoxDetection: loc_pred must be (batch, "
                         << "num_anchors * 4) = (" << cls[0] << ", " << anchor[1] * 4
                         << "), got " << loc;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({cls[0], anchor[1], 6}));
  return true;
}

template <typename DType>
void DetectionOneBatch(const MultiBoxDetectionParam& p, const DType* cls, index_t classes,
                       const DType* loc, const DType* anchors, index_t A, DType* out) {
  struct Row { double v[6]; };
  std::vector<Row> valid;  // anchors with a confident foreground class, in anchor order
  for (index_t i = 0; i < A; ++i) {
    double score = -1;
    index_t id = 0;
    for (index_t c = 1; c < classes; ++c) {
      const double s = static_cast<double>(cls[c * A + i]);
      if (s > score) {
        score = s;
        id = c;
      }
    }
    if (id > 0 && score < p.threshold) id = 0;
    if (id == 0) continue;
    double a[4];
    box_common::ToCorner(anchors + i * 4, 0, a);
    const double aw = a[2] - a[0], ah = a[3] - a[1];
    const double ax = (a[0] + a[2]) / 2, ay = (a[1] + a[3]) / 2;
    const DType* l = loc + i * 4;
    const double ox = static_cast<double>(l[0]) * p.variances[0] * aw + ax;
    const double oy = static_cast<double>(l[1]) * p.variances[1] * ah + ay;
    const double hw = std::exp(static_cast<double>(l[2]) * p.variances[2]) * aw / 2;
    const double hh = std::exp(static_cast<double>(l[3]) * p.variances[3]) * ah / 2;
    Row row{{static_cast<double>(id - 1), score, ox - hw, oy - hh, ox + hw, oy + hh}};
    if (p.clip) {
      for (int k = 2; k < 6; ++k) row.v[k] = std::min(std::max(row.v[k], 0.0), 1.0);
    }
    valid.push_back(row);
  }
  const index_t n = valid.size();
  std::vector<index_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](index_t x, index_t y) { return valid[x].v[1] > valid[y].v[1]; });
  const index_t keep = p.nms_topk > 0 ? std::min<index_t>(p.nms_topk, n) : n;
  // Rows past nms_topk keep the anchor-order content with class -1 (as 1.9.1 leaves them).
  std::vector<Row> rows(valid);
  for (index_t i = 0; i < keep; ++i) rows[i] = valid[order[i]];
  for (index_t i = keep; i < n; ++i) rows[i].v[0] = -1;
  for (index_t i = 0; i < keep; ++i) {
    if (rows[i].v[0] < 0) continue;
    for (index_t j = i + 1; j < keep; ++j) {
      if (rows[j].v[0] < 0) continue;
      if (!p.force_suppress && rows[i].v[0] != rows[j].v[0]) continue;
      if (box_common::CornerIoU(rows[i].v + 2, rows[j].v + 2) >= p.nms_threshold) {
        rows[j].v[0] = -1;
      }
    }
  }
  for (index_t i = 0; i < A; ++i) {
    for (int k = 0; k < 6; ++k) {
      out[i * 6 + k] = static_cast<DType>(i < n ? rows[i].v[k] : -1.0);
    }
  }
}

void DetectionCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const MultiBoxDetectionParam& p = nnvm::get<MultiBoxDetectionParam>(attrs.parsed);
  const index_t B = inputs[0].shape_[0], classes = inputs[0].shape_[1],
                A = inputs[0].shape_[2];
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    for (index_t b = 0; b < B; ++b) {
      DetectionOneBatch(p, inputs[0].dptr<DType>() + b * classes * A, classes,
                        inputs[1].dptr<DType>() + b * A * 4, inputs[2].dptr<DType>(), A,
                        outputs[0].dptr<DType>() + b * A * 6);
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(_contrib_MultiBoxPrior)
.describe("Generate prior(anchor) boxes from data, sizes and ratios." ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<MultiBoxPriorParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", PriorShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return AllSameType("_contrib_MultiBoxPrior", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", PriorCompute)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_arguments(MultiBoxPriorParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_MultiBoxTarget)
.describe("Compute Multibox training targets" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr_parser(ParamParser<MultiBoxTargetParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"anchor", "label", "cls_pred"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"loc_target", "loc_mask", "cls_target"};
})
.set_attr<mxnet::FInferShape>("FInferShape", TargetShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return AllSameType("_contrib_MultiBoxTarget", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", TargetCompute)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("anchor", "NDArray-or-Symbol", "Generated anchor boxes.")
.add_argument("label", "NDArray-or-Symbol", "Object detection labels.")
.add_argument("cls_pred", "NDArray-or-Symbol", "Class predictions.")
.add_arguments(MultiBoxTargetParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_MultiBoxDetection)
.describe("Convert multibox detection predictions." ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<MultiBoxDetectionParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"cls_prob", "loc_pred", "anchor"};
})
.set_attr<mxnet::FInferShape>("FInferShape", DetectionShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return AllSameType("_contrib_MultiBoxDetection", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", DetectionCompute)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("cls_prob", "NDArray-or-Symbol", "Class probabilities.")
.add_argument("loc_pred", "NDArray-or-Symbol", "Location regression predictions.")
.add_argument("anchor", "NDArray-or-Symbol", "Multibox prior anchor boxes")
.add_arguments(MultiBoxDetectionParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
