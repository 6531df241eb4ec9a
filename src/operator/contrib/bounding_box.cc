/*!
 * \file bounding_box.cc
 * \brief Box operators of MXNet 1.9.1's contrib namespace:
 *   _contrib_box_iou (lhs (..., 4), rhs (..., 4) -> lhs.shape[:-1] + rhs.shape[:-1]),
 *   _contrib_box_nms / _contrib_box_non_maximum_suppression (per batch: filter by score and
 *     background id, sort by descending score, keep topk, greedy NMS; kept rows first in score
 *     order, the remaining rows all -1; the gradient routes each kept row's head gradient back
 *     to its source row),
 *   _contrib_bipartite_matching (greedy matching of a score matrix (..., N, M)),
 *   _contrib_box_encode / _contrib_box_decode (anchor-relative regression targets).
 *   Only box_nms is differentiable; the others give zero gradients as in 1.9.1.
 *   Parameters and kernels (both devices) are in bounding_box-inl.h, the GPU registration in
 *   bounding_box.cu.
 */
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./bounding_box-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(BoxIoUParam);
DMLC_REGISTER_PARAMETER(BoxNMSParam);
DMLC_REGISTER_PARAMETER(BipartiteMatchingParam);
DMLC_REGISTER_PARAMETER(BoxDecodeParam);

namespace {

bool SameTypeAllFloat(const char* op, std::vector<int>* in, std::vector<int>* out) {
  int t = -1;
  for (int v : *in) if (v != -1) { t = v; break; }
  for (int v : *out) if (t == -1 && v != -1) t = v;
  if (t == -1) return false;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] != -1 && (*in)[i] != t) {
      MX_THROW(TypeError) << op << ": input " << i << " has dtype " << (*in)[i]
                          << " but the other inputs have dtype " << t;
    }
    (*in)[i] = t;
  }
  for (auto& v : *out) v = t;
  return true;
}

// ---- box_iou -----------------------------------------------------------------------------

bool BoxIoUShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const mxnet::TShape& l = (*in)[0];
  const mxnet::TShape& r = (*in)[1];
  if (!shape_is_known(l) || !shape_is_known(r)) return false;
  if (l.ndim() < 1 || l[l.ndim() - 1] != 4 || r.ndim() < 1 || r[r.ndim() - 1] != 4) {
    MX_THROW(ValueError) << "_contrib_box_iou: lhs and rhs must have a last dimension of 4 "
                         << "(one box per row), got lhs " << l << " and rhs " << r;
  }
  mxnet::TShape o(l.ndim() + r.ndim() - 2, -1);
  for (int i = 0; i < l.ndim() - 1; ++i) o[i] = l[i];
  for (int i = 0; i < r.ndim() - 1; ++i) o[l.ndim() - 1 + i] = r[i];
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

// ---- box_nms -----------------------------------------------------------------------------

bool BoxNMSShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const BoxNMSParam& p = nnvm::get<BoxNMSParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() < 2) {
    MX_THROW(ValueError) << "_contrib_box_nms: data must have at least 2 dimensions "
                         << "(..., num_boxes, box_width), got " << d;
  }
  const dim_t width = d[d.ndim() - 1];
  if (p.coord_start < 0 || p.coord_start + 4 > width) {
    MX_THROW(ValueError) << "_contrib_box_nms: coord_start=" << p.coord_start
                         << " needs 4 coordinates inside rows of width " << width
                         << " (data shape " << d << ")";
  }
  if (p.score_index < 0 || p.score_index >= width) {
    MX_THROW(ValueError) << "_contrib_box_nms: score_index=" << p.score_index
                         << " is outside rows of width " << width << " (data shape " << d << ")";
  }
  if (p.id_index >= width) {
    MX_THROW(ValueError) << "_contrib_box_nms: id_index=" << p.id_index
                         << " is outside rows of width " << width << " (data shape " << d << ")";
  }
  SHAPE_ASSIGN_CHECK(*out, 0, d);
  SHAPE_ASSIGN_CHECK(*out, 1, d);
  return true;
}

// ---- bipartite_matching ------------------------------------------------------------------

bool BipartiteShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() < 2) {
    MX_THROW(ValueError) << "_contrib_bipartite_matching: data must be a score matrix "
                         << "(..., num_rows, num_cols), got shape " << d;
  }
  mxnet::TShape rows(d.ndim() - 1, -1), cols(d.ndim() - 1, -1);
  for (int i = 0; i < d.ndim() - 2; ++i) rows[i] = cols[i] = d[i];
  rows[d.ndim() - 2] = d[d.ndim() - 2];
  cols[d.ndim() - 2] = d[d.ndim() - 1];
  SHAPE_ASSIGN_CHECK(*out, 0, rows);
  SHAPE_ASSIGN_CHECK(*out, 1, cols);
  return true;
}

// ---- box_encode --------------------------------------------------------------------------

bool BoxEncodeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  for (const auto& s : *in) if (!shape_is_known(s)) return false;
  const mxnet::TShape &samples = (*in)[0], &matches = (*in)[1], &anchors = (*in)[2],
                      &refs = (*in)[3], &means = (*in)[4], &stds = (*in)[5];
  if (samples.ndim() != 2 || matches != samples || anchors.ndim() != 3 ||
      anchors[0] != samples[0] || anchors[1] != samples[1] || anchors[2] != 4 ||
      refs.ndim() != 3 || refs[0] != samples[0] || refs[2] != 4 || means != mxnet::TShape({4}) ||
      stds != mxnet::TShape({4})) {
    MX_THROW(ValueError) << "_contrib_box_encode: expected samples (B, N), matches (B, N), "
                         << "anchors (B, N, 4), refs (B, M, 4), means (4,), stds (4,); got "
                         << "samples " << samples << ", matches " << matches << ", anchors "
                         << anchors << ", refs " << refs << ", means " << means << ", stds "
                         << stds;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, anchors);
  SHAPE_ASSIGN_CHECK(*out, 1, anchors);
  return true;
}

// ---- box_decode --------------------------------------------------------------------------

bool BoxDecodeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const mxnet::TShape &d = (*in)[0], &a = (*in)[1];
  if (!shape_is_known(d) || !shape_is_known(a)) return false;
  if (d.ndim() != 3 || d[2] != 4 || a.ndim() != 3 || a[0] != 1 || a[2] != 4 || a[1] != d[1]) {
    MX_THROW(ValueError) << "_contrib_box_decode: expected data (B, N, 4) and anchors "
                         << "(1, N, 4) shared by the batch, got data " << d << " and anchors "
                         << a;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, d);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_box_iou)
.describe(R"code(Bounding box overlap of two arrays.
  The overlap is defined as Intersection-over-Union, aka, IOU.
  - lhs: (a_1, a_2, ..., a_n, 4) array
  - rhs: (b_1, b_2, ..., b_n, 4) array
  - output: (a_1, a_2, ..., a_n, b_1, b_2, ..., b_n) array
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<BoxIoUParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"lhs", "rhs"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BoxIoUShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return SameTypeAllFloat("_contrib_box_iou", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", BoxIoUCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("lhs", "NDArray-or-Symbol", "The first input")
.add_argument("rhs", "NDArray-or-Symbol", "The second input")
.add_arguments(BoxIoUParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_box_nms)
.add_alias("_contrib_box_non_maximum_suppression")
.describe(R"code(Apply non-maximum suppression to input.

The output will be sorted in descending order according to `score`. Boxes with
overlaps larger than `overlap_thresh`, smaller scores and background boxes
will be removed and filled with -1, the corresponding position will be recorded
for backward propogation.

During back-propagation, the gradient will be copied to the original
position according to the input index. For positions that have been suppressed,
the in_grad will be assigned 0.
In summary, gradients are sticked to its boxes, will either be moved or discarded
according to its original index in input.

Input requirements::

  1. Input tensor have at least 2 dimensions, (n, k), any higher dims will be regarded
  as batch, e.g. (a, b, c, d, n, k) == (a*b*c*d, n, k)
  2. n is the number of boxes in each batch
  3. k is the width of each box item.

By default, a box is [id, score, xmin, ymin, xmax, ymax, ...],
additional elements are allowed.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {
  return 1;
})
.set_attr_parser(ParamParser<BoxNMSParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BoxNMSShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return SameTypeAllFloat("_contrib_box_nms", in, out);
})
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", BoxNMSCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_contrib_box_nms", n, {ograds[0], nnvm::NodeEntry{n, 1, 0}},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "The input")
.add_arguments(BoxNMSParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_contrib_box_nms)
.describe("Backward of _contrib_box_nms: (out_grad, record) -> data_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<BoxNMSParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<FCompute>("FCompute<cpu>", BoxNMSGradCompute<cpu>);

NNVM_REGISTER_OP(_contrib_bipartite_matching)
.describe(R"code(Compute bipartite matching.
  The matching is performed on score matrix with shape [B, N, M]
  - B: batch_size
  - N: number of rows to match
  - M: number of columns as reference to be matched against.

  Returns:
  x : matched column indices. -1 indicating non-matched elements in rows.
  y : matched row indices.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.set_attr_parser(ParamParser<BipartiteMatchingParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BipartiteShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return SameTypeAllFloat("_contrib_bipartite_matching", in, out);
})
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", BipartiteCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "The input")
.add_arguments(BipartiteMatchingParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_box_encode)
.describe(R"code(Encode bounding boxes training target with normalized center offsets.
    Input bounding boxes are using corner type: `x_{min}, y_{min}, x_{max}, y_{max}`.
)code" ADD_FILELINE)
.set_num_inputs(6)
.set_num_outputs(2)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"samples", "matches", "anchors", "refs", "means", "stds"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BoxEncodeShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return SameTypeAllFloat("_contrib_box_encode", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", BoxEncodeCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("samples", "NDArray-or-Symbol", "(B, N) value +1 (positive), -1 (negative), "
              "0 (ignore)")
.add_argument("matches", "NDArray-or-Symbol", "(B, N) value range [0, M)")
.add_argument("anchors", "NDArray-or-Symbol", "(B, N, 4) encoded in corner")
.add_argument("refs", "NDArray-or-Symbol", "(B, M, 4) encoded in corner")
.add_argument("means", "NDArray-or-Symbol",
              "(4,) Mean value to be subtracted from encoded values")
.add_argument("stds", "NDArray-or-Symbol", "(4,) Std value to be divided from encoded values");

NNVM_REGISTER_OP(_contrib_box_decode)
.describe(R"code(Decode bounding boxes training target with normalized center offsets.
    Input bounding boxes are using corner type: `x_{min}, y_{min}, x_{max}, y_{max}`
    or center type: `x, y, width, height.) array
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<BoxDecodeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "anchors"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BoxDecodeShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return SameTypeAllFloat("_contrib_box_decode", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", BoxDecodeCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "(B, N, 4) predicted bbox offset")
.add_argument("anchors", "NDArray-or-Symbol", "(1, N, 4) encoded in corner or center")
.add_arguments(BoxDecodeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
