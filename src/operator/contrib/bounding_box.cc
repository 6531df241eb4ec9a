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
 */
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./bounding_box-inl.h"

namespace mxnet {
namespace op {

using box_common::kCenter;
using box_common::kCorner;

struct BoxIoUParam : public dmlc::Parameter<BoxIoUParam> {
  int format;
  DMLC_DECLARE_PARAMETER(BoxIoUParam) {
    DMLC_DECLARE_FIELD(format).set_default(kCorner)
        .add_enum("corner", kCorner).add_enum("center", kCenter)
        .describe("The box encoding type. \n \"corner\" means boxes are encoded as "
                  "[xmin, ymin, xmax, ymax], \"center\" means boxes are encodes as "
                  "[x, y, width, height].");
  }
};

struct BoxNMSParam : public dmlc::Parameter<BoxNMSParam> {
  float overlap_thresh;
  float valid_thresh;
  int topk;
  int coord_start;
  int score_index;
  int id_index;
  int background_id;
  bool force_suppress;
  int in_format;
  int out_format;
  DMLC_DECLARE_PARAMETER(BoxNMSParam) {
    DMLC_DECLARE_FIELD(overlap_thresh).set_default(0.5)
        .describe("Overlapping(IoU) threshold to suppress object with smaller score.");
    DMLC_DECLARE_FIELD(valid_thresh).set_default(0)
        .describe("Filter input boxes to those whose scores greater than valid_thresh.");
    DMLC_DECLARE_FIELD(topk).set_default(-1)
        .describe("Apply nms to topk boxes with descending scores, -1 to no restriction.");
    DMLC_DECLARE_FIELD(coord_start).set_default(2)
        .describe("Start index of the consecutive 4 coordinates.");
    DMLC_DECLARE_FIELD(score_index).set_default(1)
        .describe("Index of the scores/confidence of boxes.");
    DMLC_DECLARE_FIELD(id_index).set_default(-1)
        .describe("Optional, index of the class categories, -1 to disable.");
    DMLC_DECLARE_FIELD(background_id).set_default(-1)
        .describe("Optional, id of the background class which will be ignored in nms.");
    DMLC_DECLARE_FIELD(force_suppress).set_default(false)
        .describe("Optional, if set false and id_index is provided, nms will only apply to "
                  "boxes belongs to the same category");
    DMLC_DECLARE_FIELD(in_format).set_default(kCorner)
        .add_enum("corner", kCorner).add_enum("center", kCenter)
        .describe("The input box encoding type.");
    DMLC_DECLARE_FIELD(out_format).set_default(kCorner)
        .add_enum("corner", kCorner).add_enum("center", kCenter)
        .describe("The output box encoding type.");
  }
};

struct BipartiteMatchingParam : public dmlc::Parameter<BipartiteMatchingParam> {
  bool is_ascend;
  float threshold;
  int topk;
  DMLC_DECLARE_PARAMETER(BipartiteMatchingParam) {
    DMLC_DECLARE_FIELD(is_ascend).set_default(false)
        .describe("Use ascend order for scores instead of descending. Please set threshold "
                  "accordingly.");
    DMLC_DECLARE_FIELD(threshold)
        .describe("Ignore matching when score < thresh, if is_ascend=false, or ignore "
                  "score > thresh, if is_ascend=true.");
    DMLC_DECLARE_FIELD(topk).set_default(-1)
        .describe("Limit the number of matches to topk, set -1 for no limit");
  }
};

struct BoxDecodeParam : public dmlc::Parameter<BoxDecodeParam> {
  float std0, std1, std2, std3;
  float clip;
  int format;
  DMLC_DECLARE_PARAMETER(BoxDecodeParam) {
    DMLC_DECLARE_FIELD(std0).set_default(1.0)
        .describe("value to be divided from the 1st encoded values");
    DMLC_DECLARE_FIELD(std1).set_default(1.0)
        .describe("value to be divided from the 2nd encoded values");
    DMLC_DECLARE_FIELD(std2).set_default(1.0)
        .describe("value to be divided from the 3rd encoded values");
    DMLC_DECLARE_FIELD(std3).set_default(1.0)
        .describe("value to be divided from the 4th encoded values");
    DMLC_DECLARE_FIELD(clip).set_default(-1.0)
        .describe("If larger than 0, bounding box target will be clipped to this value.");
    DMLC_DECLARE_FIELD(format).set_default(kCenter)
        .add_enum("corner", kCorner).add_enum("center", kCenter)
        .describe("The box encoding type. \n \"corner\" means boxes are encoded as "
                  "[xmin, ymin, xmax, ymax], \"center\" means boxes are encodes as "
                  "[x, y, width, height].");
  }
};

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

template <typename DType>
void BoxIoUImpl(const DType* lhs, index_t nl, const DType* rhs, index_t nr, int format,
                OpReqType req, DType* o) {
  #pragma omp parallel for
  for (index_t i = 0; i < nl; ++i) {
    double a[4], b[4];
    box_common::ToCorner(lhs + i * 4, format, a);
    for (index_t j = 0; j < nr; ++j) {
      box_common::ToCorner(rhs + j * 4, format, b);
      const double v = box_common::CornerIoU(a, b);
      o[i * nr + j] = static_cast<DType>(req == kAddTo ? o[i * nr + j] + v : v);
    }
  }
}

void BoxIoUCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const int format = nnvm::get<BoxIoUParam>(attrs.parsed).format;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    BoxIoUImpl(inputs[0].dptr<DType>(), inputs[0].Size() / 4, inputs[1].dptr<DType>(),
               inputs[1].Size() / 4, format, req[0], outputs[0].dptr<DType>());
  });
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

/*!
 * \brief One batch of NMS: writes the kept rows (sorted by score) then -1 rows into out, and
 *        into record row r the source row index of output row r (or -1).
 */
template <typename DType>
void NMSOneBatch(const BoxNMSParam& p, const DType* in, index_t n, index_t width, DType* out,
                 DType* record) {
  std::vector<index_t> cand;
  for (index_t i = 0; i < n; ++i) {
    const DType* row = in + i * width;
    if (!(row[p.score_index] > DType(p.valid_thresh))) continue;
    if (p.id_index >= 0 && p.background_id >= 0 &&
        row[p.id_index] == DType(p.background_id)) continue;
    cand.push_back(i);
  }
  std::stable_sort(cand.begin(), cand.end(), [&](index_t a, index_t b) {
    return in[a * width + p.score_index] > in[b * width + p.score_index];
  });
  if (p.topk > 0 && static_cast<index_t>(cand.size()) > p.topk) cand.resize(p.topk);
  std::vector<std::array<double, 4>> corners(cand.size());
  for (size_t k = 0; k < cand.size(); ++k) {
    box_common::ToCorner(in + cand[k] * width + p.coord_start, p.in_format, corners[k].data());
  }
  const auto keep = box_common::GreedyNMS(corners, p.overlap_thresh,
                                                 [&](size_t i, size_t j) {
    if (p.force_suppress || p.id_index < 0) return true;
    return in[cand[i] * width + p.id_index] == in[cand[j] * width + p.id_index];
  });
  index_t pos = 0;
  for (size_t k = 0; k < cand.size(); ++k) {
    if (!keep[k]) continue;
    DType* dst = out + pos * width;
    std::copy(in + cand[k] * width, in + (cand[k] + 1) * width, dst);
    if (p.in_format != p.out_format) {
      box_common::FromCorner(corners[k].data(), p.out_format, dst + p.coord_start);
    }
    std::fill(record + pos * width, record + (pos + 1) * width, static_cast<DType>(cand[k]));
    ++pos;
  }
  std::fill(out + pos * width, out + n * width, DType(-1));
  std::fill(record + pos * width, record + n * width, DType(-1));
}

template <typename DType>
void NMSBatches(const BoxNMSParam& p, const DType* in, index_t batches, index_t n, index_t width,
                DType* out, DType* record) {
  #pragma omp parallel for
  for (index_t b = 0; b < batches; ++b) {
    NMSOneBatch(p, in + b * n * width, n, width, out + b * n * width, record + b * n * width);
  }
}

void BoxNMSCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const BoxNMSParam& p = nnvm::get<BoxNMSParam>(attrs.parsed);
  const mxnet::TShape& d = inputs[0].shape_;
  const index_t width = d[d.ndim() - 1], n = d[d.ndim() - 2];
  const index_t batches = n * width == 0 ? 0 : d.Size() / (n * width);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    NMSBatches(p, inputs[0].dptr<DType>(), batches, n, width, outputs[0].dptr<DType>(),
               outputs[1].dptr<DType>());
  });
}

// inputs: (out_grad, record); output: data_grad.
void BoxNMSGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const mxnet::TShape& d = outputs[0].shape_;
  const index_t width = d[d.ndim() - 1], n = d[d.ndim() - 2];
  const index_t batches = n * width == 0 ? 0 : d.Size() / (n * width);
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* record = inputs[1].dptr<DType>();
    DType* ig = outputs[0].dptr<DType>();
    if (req[0] != kAddTo) std::fill(ig, ig + d.Size(), DType(0));
    for (index_t b = 0; b < batches; ++b) {
      const index_t base = b * n * width;
      for (index_t r = 0; r < n; ++r) {
        const DType src = record[base + r * width];
        if (src < DType(0)) continue;
        const index_t s = static_cast<index_t>(src);
        for (index_t k = 0; k < width; ++k) {
          ig[base + s * width + k] += og[base + r * width + k];
        }
      }
    }
  });
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

template <typename DType>
void BipartiteBatches(const BipartiteMatchingParam& p, const DType* score, index_t batches,
                      index_t nrow, index_t ncol, DType* row_marker, DType* col_marker) {
  std::fill(row_marker, row_marker + batches * nrow, DType(-1));
  std::fill(col_marker, col_marker + batches * ncol, DType(-1));
  const double thresh = p.threshold;
  #pragma omp parallel for
  for (index_t b = 0; b < batches; ++b) {
    const DType* s = score + b * nrow * ncol;
    std::vector<index_t> rm(nrow, -1), cm(ncol, -1);
    std::vector<index_t> order(nrow * ncol);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](index_t x, index_t y) {
      return p.is_ascend ? static_cast<double>(s[x]) < static_cast<double>(s[y])
                         : static_cast<double>(s[x]) > static_cast<double>(s[y]);
    });
    int matched = 0;
    for (index_t k : order) {
      const double v = static_cast<double>(s[k]);
      const bool passes = p.is_ascend ? v < thresh : v > thresh;
      if (!passes) break;  // sorted: no later score passes either
      const index_t r = k / ncol, c = k % ncol;
      if (rm[r] != -1 || cm[c] != -1) continue;
      rm[r] = c;
      cm[c] = r;
      // MXNet 1.9.1 stops only once the count exceeds topk, so it makes topk + 1 matches.
      if (p.topk > 0 && ++matched > p.topk) break;
    }
    for (index_t r = 0; r < nrow; ++r) row_marker[b * nrow + r] = static_cast<DType>(rm[r]);
    for (index_t c = 0; c < ncol; ++c) col_marker[b * ncol + c] = static_cast<DType>(cm[c]);
  }
}

void BipartiteCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const BipartiteMatchingParam& p = nnvm::get<BipartiteMatchingParam>(attrs.parsed);
  const mxnet::TShape& d = inputs[0].shape_;
  const index_t nrow = d[d.ndim() - 2], ncol = d[d.ndim() - 1];
  const index_t batches = nrow * ncol == 0 ? 0 : d.Size() / (nrow * ncol);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    BipartiteBatches(p, inputs[0].dptr<DType>(), batches, nrow, ncol,
                     outputs[0].dptr<DType>(), outputs[1].dptr<DType>());
  });
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

template <typename DType>
void BoxEncodeImpl(const DType* samples, const DType* matches, const DType* anchors,
                   const DType* refs, const DType* means, const DType* stds, index_t batches,
                   index_t n, index_t m, DType* targets, DType* masks) {
  for (index_t b = 0; b < batches; ++b) {
    for (index_t i = 0; i < n; ++i) {
      const index_t k = b * n + i;
      DType* t = targets + k * 4;
      DType* mk = masks + k * 4;
      const index_t match = static_cast<index_t>(static_cast<double>(matches[k]));
      // Only positive samples (> 0.5) with a valid match get a target.
      if (!(static_cast<double>(samples[k]) > 0.5) || match < 0 || match >= m) {
        std::fill(t, t + 4, DType(0));
        std::fill(mk, mk + 4, DType(0));
        continue;
      }
      double a[4], r[4];
      box_common::ToCorner(anchors + k * 4, kCorner, a);
      box_common::ToCorner(refs + (b * m + match) * 4, kCorner, r);
      const double aw = a[2] - a[0], ah = a[3] - a[1];
      const double ax = a[0] + aw * 0.5, ay = a[1] + ah * 0.5;
      const double rw = r[2] - r[0], rh = r[3] - r[1];
      const double rx = r[0] + rw * 0.5, ry = r[1] + rh * 0.5;
      const double v[4] = {(rx - ax) / aw, (ry - ay) / ah, std::log(rw / aw), std::log(rh / ah)};
      for (int c = 0; c < 4; ++c) {
        t[c] = static_cast<DType>((v[c] - static_cast<double>(means[c])) /
                                  static_cast<double>(stds[c]));
        mk[c] = DType(1);
      }
    }
  }
}

void BoxEncodeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    BoxEncodeImpl(inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
                  inputs[3].dptr<DType>(), inputs[4].dptr<DType>(), inputs[5].dptr<DType>(),
                  inputs[0].shape_[0], inputs[0].shape_[1], inputs[3].shape_[1],
                  outputs[0].dptr<DType>(), outputs[1].dptr<DType>());
  });
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

template <typename DType>
void BoxDecodeImpl(const BoxDecodeParam& p, const DType* data, const DType* anchors,
                   index_t batches, index_t n, OpReqType req, DType* out) {
  const double stds[4] = {p.std0, p.std1, p.std2, p.std3};
  for (index_t b = 0; b < batches; ++b) {
    for (index_t i = 0; i < n; ++i) {
      const DType* a = anchors + i * 4;
      const DType* x = data + (b * n + i) * 4;
      double c[4];  // anchor corners
      box_common::ToCorner(a, p.format, c);
      const double aw = c[2] - c[0], ah = c[3] - c[1];
      const double ax = c[0] + aw * 0.5, ay = c[1] + ah * 0.5;
      const double ox = static_cast<double>(x[0]) * stds[0] * aw + ax;
      const double oy = static_cast<double>(x[1]) * stds[1] * ah + ay;
      double dw = static_cast<double>(x[2]) * stds[2], dh = static_cast<double>(x[3]) * stds[3];
      if (p.clip > 0) {
        dw = std::min(dw, static_cast<double>(p.clip));
        dh = std::min(dh, static_cast<double>(p.clip));
      }
      const double hw = std::exp(dw) * aw * 0.5, hh = std::exp(dh) * ah * 0.5;
      const double v[4] = {ox - hw, oy - hh, ox + hw, oy + hh};
      DType* o = out + (b * n + i) * 4;
      for (int k = 0; k < 4; ++k) {
        o[k] = static_cast<DType>(req == kAddTo ? static_cast<double>(o[k]) + v[k] : v[k]);
      }
    }
  }
}

void BoxDecodeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const BoxDecodeParam& p = nnvm::get<BoxDecodeParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    BoxDecodeImpl(p, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[0].shape_[0], inputs[0].shape_[1], req[0],
                  outputs[0].dptr<DType>());
  });
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
.set_attr<FCompute>("FCompute<cpu>", BoxIoUCompute)
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
.set_attr<FCompute>("FCompute<cpu>", BoxNMSCompute)
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
.set_attr<FCompute>("FCompute<cpu>", BoxNMSGradCompute);

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
.set_attr<FCompute>("FCompute<cpu>", BipartiteCompute)
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
.set_attr<FCompute>("FCompute<cpu>", BoxEncodeCompute)
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
.set_attr<FCompute>("FCompute<cpu>", BoxDecodeCompute)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "(B, N, 4) predicted bbox offset")
.add_argument("anchors", "NDArray-or-Symbol", "(1, N, 4) encoded in corner or center")
.add_arguments(BoxDecodeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
