/*!
 * \file proposal.cc
 * \brief Faster R-CNN region proposals, CPU: _contrib_Proposal (batch 1) and
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
 * (N * post, 1). Gradients are zero, as in MXNet 1.9.1.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/tuple.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "../operator_common.h"

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

DMLC_REGISTER_PARAMETER(ProposalParam);

namespace {

using Box = std::array<float, 4>;

/*! \brief The A anchors of one cell at the origin: ratios outer, scales inner. */
std::vector<Box> BaseAnchors(const ProposalParam& p) {
  const float side = static_cast<float>(p.feature_stride);
  const float ctr = 0.5f * (side - 1.0f);
  std::vector<Box> out;
  for (int i = 0; i < p.ratios.ndim(); ++i) {
    const float size_ratio = std::floor(side * side / p.ratios[i]);
    const float base_w = std::floor(std::sqrt(size_ratio) + 0.5f);
    const float base_h = std::floor(base_w * p.ratios[i] + 0.5f);
    for (int j = 0; j < p.scales.ndim(); ++j) {
      const float w = base_w * p.scales[j], h = base_h * p.scales[j];
      out.push_back({ctr - 0.5f * (w - 1.0f), ctr - 0.5f * (h - 1.0f), ctr + 0.5f * (w - 1.0f),
                     ctr + 0.5f * (h - 1.0f)});
    }
  }
  return out;
}

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

struct Proposal {
  Box box;
  float score;
};

template <typename DType>
void ProposalOneImage(const ProposalParam& p, const std::vector<Box>& base, index_t b,
                      const DType* cls, const DType* deltas, const DType* info, index_t H,
                      index_t W, DType* rois, DType* scores) {
  const index_t A = base.size();
  const float im_h = static_cast<float>(info[0]), im_w = static_cast<float>(info[1]);
  const float im_scale = static_cast<float>(info[2]);
  const float stride = static_cast<float>(p.feature_stride);
  const index_t real_h = static_cast<index_t>(im_h / stride);
  const index_t real_w = static_cast<index_t>(im_w / stride);
  const float min_size = p.rpn_min_size * im_scale;
  std::vector<Proposal> all(A * H * W);
  for (index_t h = 0; h < H; ++h) {
    for (index_t w = 0; w < W; ++w) {
      for (index_t a = 0; a < A; ++a) {
        Proposal& pr = all[(h * W + w) * A + a];
        const Box& an = base[a];
        const float x1 = an[0] + w * stride, y1 = an[1] + h * stride;
        const float x2 = an[2] + w * stride, y2 = an[3] + h * stride;
        auto delta = [&](int k) {
          return static_cast<float>(deltas[((a * 4 + k) * H + h) * W + w]);
        };
        float px1, py1, px2, py2;
        if (p.iou_loss) {
          px1 = x1 + delta(0); py1 = y1 + delta(1); px2 = x2 + delta(2); py2 = y2 + delta(3);
        } else {
          const float bw = x2 - x1 + 1.0f, bh = y2 - y1 + 1.0f;
          const float cx = x1 + 0.5f * (bw - 1.0f), cy = y1 + 0.5f * (bh - 1.0f);
          const float pcx = delta(0) * bw + cx, pcy = delta(1) * bh + cy;
          const float pw = std::exp(delta(2)) * bw, ph = std::exp(delta(3)) * bh;
          px1 = pcx - 0.5f * (pw - 1.0f); py1 = pcy - 0.5f * (ph - 1.0f);
          px2 = pcx + 0.5f * (pw - 1.0f); py2 = pcy + 0.5f * (ph - 1.0f);
        }
        px1 = std::max(std::min(px1, im_w - 1.0f), 0.0f);
        py1 = std::max(std::min(py1, im_h - 1.0f), 0.0f);
        px2 = std::max(std::min(px2, im_w - 1.0f), 0.0f);
        py2 = std::max(std::min(py2, im_h - 1.0f), 0.0f);
        pr.box = {px1, py1, px2, py2};
        pr.score = static_cast<float>(cls[((A + a) * H + h) * W + w]);
        if (h >= real_h || w >= real_w) pr.score = -1.0f;  // padding beyond the image
        // Too small: grown by min_size (as 1.9.1 does) and ranked last.
        if (px2 - px1 + 1.0f < min_size || py2 - py1 + 1.0f < min_size) {
          pr.box = {px1 - min_size / 2, py1 - min_size / 2, px2 + min_size / 2,
                    py2 + min_size / 2};
          pr.score = -1.0f;
        }
      }
    }
  }
  const index_t count = all.size();
  index_t pre = p.rpn_pre_nms_top_n > 0 ? std::min<index_t>(p.rpn_pre_nms_top_n, count) : count;
  std::vector<index_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](index_t x, index_t y) { return all[x].score > all[y].score; });
  order.resize(pre);
  auto area = [](const Box& c) { return (c[2] - c[0] + 1.0f) * (c[3] - c[1] + 1.0f); };
  std::vector<index_t> keep;
  std::vector<bool> suppressed(pre, false);
  for (index_t i = 0; i < pre && static_cast<int>(keep.size()) < p.rpn_post_nms_top_n; ++i) {
    if (suppressed[i]) continue;
    keep.push_back(order[i]);
    const Box& bi = all[order[i]].box;
    for (index_t j = i + 1; j < pre; ++j) {
      if (suppressed[j]) continue;
      const Box& bj = all[order[j]].box;
      const float iw = std::max(0.0f, std::min(bi[2], bj[2]) - std::max(bi[0], bj[0]) + 1.0f);
      const float ih = std::max(0.0f, std::min(bi[3], bj[3]) - std::max(bi[1], bj[1]) + 1.0f);
      const float inter = iw * ih;
      if (inter / (area(bi) + area(bj) - inter) > p.threshold) suppressed[j] = true;
    }
  }
  const index_t post = p.rpn_post_nms_top_n;
  for (index_t i = 0; i < post; ++i) {
    DType* r = rois + i * 5;
    r[0] = static_cast<DType>(b);
    if (keep.empty()) {
      std::fill(r + 1, r + 5, DType(0));
      scores[i] = DType(0);
      continue;
    }
    const Proposal& pr = all[keep[i % keep.size()]];
    for (int k = 0; k < 4; ++k) r[1 + k] = static_cast<DType>(pr.box[k]);
    scores[i] = static_cast<DType>(pr.score);
  }
}

void ProposalCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const ProposalParam& p = nnvm::get<ProposalParam>(attrs.parsed);
  const std::vector<Box> base = BaseAnchors(p);
  const index_t N = inputs[0].shape_[0], H = inputs[0].shape_[2], W = inputs[0].shape_[3];
  const index_t A = base.size(), post = p.rpn_post_nms_top_n;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    for (index_t b = 0; b < N; ++b) {
      ProposalOneImage(p, base, b, inputs[0].dptr<DType>() + b * 2 * A * H * W,
                       inputs[1].dptr<DType>() + b * 4 * A * H * W,
                       inputs[2].dptr<DType>() + b * 3, H, W,
                       outputs[0].dptr<DType>() + b * post * 5,
                       outputs[1].dptr<DType>() + b * post);
    }
  });
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
  .set_attr<FCompute>("FCompute<cpu>", ProposalCompute)                                       \
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
