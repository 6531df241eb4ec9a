/*!
 * \file proposal.cc
 * \brief Faster R-CNN region proposals: _contrib_Proposal (batch 1) and
 *        _contrib_MultiProposal (any batch). Inputs cls_prob (N, 2A, H, W) (foreground scores
 *        are channels A..2A-1), bbox_pred (N, 4A, H, W), im_info (N, 3) rows [height, width,
 *        scale]; A = len(ratios) * len(scales).
 *
 * Per image: the A base anchors of a feature_stride cell (ratios outer, scales inner, pixel
 * boxes with inclusive ends) are shifted to every cell and moved by the predicted deltas
 * (centre/log-size deltas, or plain corner offsets with iou_loss), clipped to the image; boxes
 * in the padding beyond im_info's size or smaller than rpn_min_size * scale get score -1.
 * The rpn_pre_nms_top_n best are kept, greedy NMS (IoU > threshold, +1 pixel areas) keeps at
 * most rpn_post_nms_top_n, and when fewer survive the output repeats them cyclically. Output
 * rows are [batch_index, x1, y1, x2, y2] (N * post, 5) and, with output_score, the scores
 * (N * post, 1). Gradients are zero, as in MXNet 1.9.1. Parameters and kernels (both devices)
 * are in proposal-inl.h, the GPU registration in proposal.cu.
 */
#include <string>
#include <vector>

#include "./proposal-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ProposalParam);

namespace {

bool ProposalShape(const char* op, bool multi, const nnvm::NodeAttrs& attrs,
                   mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const ProposalParam& p = nnvm::get<ProposalParam>(attrs.parsed);
  const mxnet::TShape &cls = (*in)[0], &bbox = (*in)[1], &info = (*in)[2];
  if (p.rpn_post_nms_top_n <= 0 || p.feature_stride <= 0 || p.ratios.ndim() < 1 ||
      p.scales.ndim() < 1) {
    MX_THROW(ValueError) << op << ": rpn_post_nms_top_n (" << p.rpn_post_nms_top_n
                         << ") and feature_stride (" << p.feature_stride << ") must be positive "
                         << "and ratios/scales non-empty";
  }
  if (!shape_is_known(cls)) return false;
  const dim_t A = static_cast<dim_t>(p.ratios.ndim()) * p.scales.ndim();
  if (cls.ndim() != 4 || cls[1] != 2 * A) {
    MX_THROW(ValueError) << op << ": cls_prob must be (batch, 2 * len(ratios) * len(scales) = "
                         << 2 * A << ", height, width), got " << cls;
  }
  if (!multi && cls[0] != 1) {
    MX_THROW(ValueError) << op << ": only batch size 1 is supported (use MultiProposal), got "
                         << "cls_prob " << cls;
  }
  const mxnet::TShape want_bbox({cls[0], 4 * A, cls[2], cls[3]});
  if (shape_is_known(bbox) && bbox != want_bbox) {
    MX_THROW(ValueError) << op << ": bbox_pred must be " << want_bbox << " for cls_prob " << cls
                         << ", got " << bbox;
  }
  if (shape_is_known(info) && (info.ndim() != 2 || info[0] != cls[0] || info[1] != 3)) {
    MX_THROW(ValueError) << op << ": im_info must be (batch, 3) rows [height, width, scale], "
                         << "got " << info << " for cls_prob " << cls;
  }
  SHAPE_ASSIGN_CHECK(*in, 1, want_bbox);
  SHAPE_ASSIGN_CHECK(*in, 2, mxnet::TShape({cls[0], 3}));
  const dim_t rows = cls[0] * p.rpn_post_nms_top_n;
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({rows, 5}));
  SHAPE_ASSIGN_CHECK(*out, 1, mxnet::TShape({rows, 1}));
  return true;
}

bool ProposalType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0];
  if (t == -1) return false;
  for (auto& v : *in) {
    if (v != -1 && v != t) {
      MX_THROW(TypeError) << "Proposal: cls_prob, bbox_pred and im_info must share a dtype";
    }
    v = t;
  }
  for (auto& v : *out) v = t;
  return true;
}

}  // namespace

#define MXNET_REGISTER_PROPOSAL_OP(NAME, MULTI, DOC)                                          \
  NNVM_REGISTER_OP(NAME)                                                                      \
  .describe(DOC ADD_FILELINE)                                                                 \
  .set_num_inputs(3)                                                                          \
  .set_num_outputs(2)                                                                         \
  .set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {     \
    return nnvm::get<ProposalParam>(attrs.parsed).output_score ? 2 : 1;                       \
  })                                                                                          \
  .set_attr_parser(ParamParser<ProposalParam>)                                                \
  .set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {           \
    return std::vector<std::string>{"cls_prob", "bbox_pred", "im_info"};                      \
  })                                                                                          \
  .set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {         \
    return std::vector<std::string>{"output", "score"};                                       \
  })                                                                                          \
  .set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,              \
                                                   mxnet::ShapeVector* in,                    \
                                                   mxnet::ShapeVector* out) {                 \
    return ProposalShape(#NAME, MULTI, attrs, in, out);                           \
  })                                                                                          \
  .set_attr<nnvm::FInferType>("FInferType", ProposalType)                                     \
  .set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {               \
    return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};                         \
  })                                                                                          \
  .set_attr<FCompute>("FCompute<cpu>", ProposalCompute<cpu>)                                  \
  .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)                                  \
  .add_argument("cls_prob", "NDArray-or-Symbol", "Score of how likely proposal is object.")   \
  .add_argument("bbox_pred", "NDArray-or-Symbol", "BBox Predicted deltas from anchors for "   \
                "proposals")                                                                  \
  .add_argument("im_info", "NDArray-or-Symbol", "Image size and scale.")                      \
  .add_arguments(ProposalParam::__FIELDS__())

MXNET_REGISTER_PROPOSAL_OP(_contrib_Proposal, false,
                           "Generate region proposals via RPN");
MXNET_REGISTER_PROPOSAL_OP(_contrib_MultiProposal, true,
                           "Generate region proposals via RPN for a batch of images");

}  // namespace op
}  // namespace mxnet
