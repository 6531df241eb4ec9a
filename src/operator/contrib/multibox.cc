/*!
 * \file multibox.cc
 * \brief SSD operators (parameters in multibox-inl.h) with MXNet 1.9.1's CPU semantics:
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
 * All three have zero gradients, as in 1.9.1. The kernels (both devices) are in multibox-inl.h,
 * the GPU registration in multibox.cu.
 */
#include <string>
#include <vector>

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
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", MultiBoxPriorCompute<cpu>)
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
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", MultiBoxTargetCompute<cpu>)
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
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", MultiBoxDetectionCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("cls_prob", "NDArray-or-Symbol", "Class probabilities.")
.add_argument("loc_pred", "NDArray-or-Symbol", "Location regression predictions.")
.add_argument("anchor", "NDArray-or-Symbol", "Multibox prior anchor boxes")
.add_arguments(MultiBoxDetectionParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
