/*!
 * \file bounding_box-inl.h
 * \brief The box operators of bounding_box.cc (box_iou, box_nms, bipartite_matching,
 *        box_encode, box_decode) for both devices, and the box geometry they share with
 *        multibox-inl.h and proposal-inl.h: corner/center conversion, IoU, a stable merge sort
 *        usable inside a kernel, and launch/workspace helpers.
 *
 * Boxes are (x1, y1, x2, y2) "corner" or (x, y, w, h) "center"; areas have no +1 (continuous
 * coordinates), as in MXNet 1.9.1. Element-wise parts run one thread per element; the
 * sequential algorithms (sort, greedy NMS, greedy matching) run one thread per batch item
 * (SerialPerItem), in the same order on both devices, so the GPU keeps the CPU's tie-breaking.
 */
#ifndef MXNET_OPERATOR_CONTRIB_BOUNDING_BOX_INL_H_
#define MXNET_OPERATOR_CONTRIB_BOUNDING_BOX_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {
namespace box_common {

enum BoxFormat { kCorner, kCenter };

/*! \brief std::min / std::max with the same NaN behaviour, usable on the device. */
template <typename T>
MSHADOW_XINLINE T Min(T a, T b) { return b < a ? b : a; }
template <typename T>
MSHADOW_XINLINE T Max(T a, T b) { return a < b ? b : a; }

/*!
 * \brief a * b rounded on its own: nvcc would otherwise fuse it with a following add into an
 *        FMA, and IoUs compared with a threshold would differ from the CPU's in the last bit.
 */
MSHADOW_XINLINE double Mul(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
MSHADOW_XINLINE float Mul(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

/*! \brief Reads a box in `format` into corner form (x1, y1, x2, y2). */
template <typename DType>
MSHADOW_XINLINE void ToCorner(const DType* b, int format, double out[4]) {
  if (format == kCorner) {
    out[0] = static_cast<double>(b[0]); out[1] = static_cast<double>(b[1]);
    out[2] = static_cast<double>(b[2]); out[3] = static_cast<double>(b[3]);
  } else {
    const double hw = static_cast<double>(b[2]) / 2, hh = static_cast<double>(b[3]) / 2;
    out[0] = static_cast<double>(b[0]) - hw; out[1] = static_cast<double>(b[1]) - hh;
    out[2] = static_cast<double>(b[0]) + hw; out[3] = static_cast<double>(b[1]) + hh;
  }
}

/*! \brief Component k of the corner box c written in `format`. */
MSHADOW_XINLINE double FromCornerAt(const double c[4], int format, int k) {
  if (format == kCorner) return c[k];
  switch (k) {
    case 0: return (c[0] + c[2]) / 2;
    case 1: return (c[1] + c[3]) / 2;
    case 2: return c[2] - c[0];
    default: return c[3] - c[1];
  }
}

/*! \brief Intersection over union of two corner boxes; 0 when the union is empty. */
MSHADOW_XINLINE double CornerIoU(const double* a, const double* b) {
  const double w = Max(0.0, Min(a[2], b[2]) - Max(a[0], b[0]));
  const double h = Max(0.0, Min(a[3], b[3]) - Max(a[1], b[1]));
  const double inter = Mul(w, h);
  const double area_a = Mul(Max(0.0, a[2] - a[0]), Max(0.0, a[3] - a[1]));
  const double area_b = Mul(Max(0.0, b[2] - b[0]), Max(0.0, b[3] - b[1]));
  const double uni = area_a + area_b - inter;
  return uni > 0 ? inter / uni : 0.0;
}

/*!
 * \brief Stable bottom-up merge sort of idx[0, n) by less(x, y) (what std::stable_sort gives),
 *        in one thread; tmp holds n scratch slots.
 */
template <typename Less>
MSHADOW_XINLINE void StableSort(index_t* idx, index_t* tmp, index_t n, const Less& less) {
  index_t* src = idx;
  index_t* dst = tmp;
  for (index_t w = 1; w < n; w *= 2) {
    for (index_t lo = 0; lo < n; lo += 2 * w) {
      const index_t mid = Min(lo + w, n), hi = Min(lo + 2 * w, n);
      index_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) dst[k++] = less(src[j], src[i]) ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    index_t* t = src;
    src = dst;
    dst = t;
  }
  if (src != idx) {
    for (index_t k = 0; k < n; ++k) idx[k] = src[k];
  }
}

/*!
 * \brief OP::Map(i, args...) for every batch item i in [0, n), each a sequential algorithm:
 *        OpenMP over the items on the CPU, one GPU thread per item (Kernel<OP, gpu>).
 */
template <typename OP, typename xpu>
struct SerialPerItem;

template <typename OP>
struct SerialPerItem<OP, mshadow::cpu> {
  template <typename... Args>
  static void Launch(mshadow::Stream<mshadow::cpu>*, index_t n, Args... args) {
    #pragma omp parallel for if (n > 1)
    for (index_t i = 0; i < n; ++i) OP::Map(i, args...);
  }
};

#ifdef __CUDACC__
template <typename OP>
struct SerialPerItem<OP, mshadow::gpu> {
  template <typename... Args>
  static void Launch(mshadow::Stream<mshadow::gpu>* s, index_t n, Args... args) {
    mxnet_op::Kernel<OP, mshadow::gpu>::Launch(s, n, args...);
  }
};
#endif

static_assert(sizeof(index_t) == sizeof(double), "workspace slots are 8 bytes");

/*!
 * \brief The op's kTempSpace (its first requested resource) as `slots` 8-byte slots: doubles,
 *        or index_t through Slots().
 */
inline double* Workspace(const OpContext& ctx, size_t slots) {
  return ctx.requested[0].get_space_typed_ptr<double>(std::max<size_t>(slots, 1));
}
MSHADOW_XINLINE index_t* Slots(double* p) {
  return reinterpret_cast<index_t*>(p);
}

/*! \brief Copies `bytes` of host memory (a few parameter-derived values) into workspace. */
inline void CopyFromHost(mshadow::Stream<mshadow::cpu>*, const void* src, size_t bytes,
                         void* dst) {
  if (bytes) std::memcpy(dst, src, bytes);
}
#ifdef __CUDACC__
inline void CopyFromHost(mshadow::Stream<mshadow::gpu>* s, const void* src, size_t bytes,
                         void* dst) {
  // Pageable source: the call returns once the bytes are staged, so src may go away after.
  if (bytes) {
    CUDA_CALL(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                              mshadow::Stream<mshadow::gpu>::GetStream(s)));
  }
}
#endif

}  // namespace box_common

// ---- parameters --------------------------------------------------------------------------

struct BoxIoUParam : public dmlc::Parameter<BoxIoUParam> {
  int format;
  DMLC_DECLARE_PARAMETER(BoxIoUParam) {
    DMLC_DECLARE_FIELD(format).set_default(box_common::kCorner)
        .add_enum("corner", box_common::kCorner).add_enum("center", box_common::kCenter)
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
    DMLC_DECLARE_FIELD(in_format).set_default(box_common::kCorner)
        .add_enum("corner", box_common::kCorner).add_enum("center", box_common::kCenter)
        .describe("The input box encoding type.");
    DMLC_DECLARE_FIELD(out_format).set_default(box_common::kCorner)
        .add_enum("corner", box_common::kCorner).add_enum("center", box_common::kCenter)
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
    DMLC_DECLARE_FIELD(format).set_default(box_common::kCenter)
        .add_enum("corner", box_common::kCorner).add_enum("center", box_common::kCenter)
        .describe("The box encoding type. \n \"corner\" means boxes are encoded as "
                  "[xmin, ymin, xmax, ymax], \"center\" means boxes are encodes as "
                  "[x, y, width, height].");
  }
};

namespace box_kernel {

using box_common::Max;
using box_common::Min;

// ---- box_iou: one thread per (lhs box, rhs box) ------------------------------------------

struct iou {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* lhs, const DType* rhs, index_t nr,
                                  int format, int req, DType* o) {
    double a[4], b[4];
    box_common::ToCorner(lhs + (i / nr) * 4, format, a);
    box_common::ToCorner(rhs + (i % nr) * 4, format, b);
    const double v = box_common::CornerIoU(a, b);
    o[i] = static_cast<DType>(req == kAddTo ? static_cast<double>(o[i]) + v : v);
  }
};

// ---- box_nms -----------------------------------------------------------------------------

/*! \brief BoxNMSParam as plain values for a kernel, with the batch geometry. */
struct NMSArgs {
  double overlap_thresh;
  float valid_thresh;
  index_t topk, n, width;
  int coord_start, score_index, id_index, background_id, in_format, out_format;
  bool force_suppress;
};

template <typename DType>
struct ScoreGreater {
  const DType* in;
  index_t width;
  int score_index;
  MSHADOW_XINLINE bool operator()(index_t a, index_t b) const {
    return in[a * width + score_index] > in[b * width + score_index];
  }
};

/*! \brief Workspace slots of one batch item of box_nms: kept (n), tmp (n), corners (4n). */
MSHADOW_XINLINE index_t NMSSlots(index_t n) { return 6 * n + 1; }

/*!
 * \brief One batch item: filter by score and background id, stable sort by descending score,
 *        keep topk, greedy NMS (IoU > thresh, within a class unless force_suppress). Leaves
 *        the kept source rows, in score order, at the start of the item's workspace and their
 *        count in its last slot.
 */
struct nms_select {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, NMSArgs p, const DType* data, double* ws) {
    const index_t n = p.n, width = p.width;
    const DType* in = data + b * n * width;
    double* w = ws + b * NMSSlots(n);
    index_t* cand = box_common::Slots(w);
    index_t* tmp = cand + n;
    double* corners = w + 2 * n;
    index_t count = 0;
    for (index_t i = 0; i < n; ++i) {
      const DType* row = in + i * width;
      if (!(row[p.score_index] > DType(p.valid_thresh))) continue;
      if (p.id_index >= 0 && p.background_id >= 0 &&
          row[p.id_index] == DType(p.background_id)) continue;
      cand[count++] = i;
    }
    ScoreGreater<DType> greater{in, width, p.score_index};
    box_common::StableSort(cand, tmp, count, greater);
    if (p.topk > 0 && count > p.topk) count = p.topk;
    for (index_t k = 0; k < count; ++k) {
      box_common::ToCorner(in + cand[k] * width + p.coord_start, p.in_format, corners + 4 * k);
    }
    // Greedy NMS; tmp[k] = 1 while candidate k is kept.
    for (index_t k = 0; k < count; ++k) tmp[k] = 1;
    for (index_t i = 0; i < count; ++i) {
      if (!tmp[i]) continue;
      for (index_t j = i + 1; j < count; ++j) {
        if (!tmp[j]) continue;
        if (!p.force_suppress && p.id_index >= 0 &&
            !(in[cand[i] * width + p.id_index] == in[cand[j] * width + p.id_index])) continue;
        if (box_common::CornerIoU(corners + 4 * i, corners + 4 * j) > p.overlap_thresh) {
          tmp[j] = 0;
        }
      }
    }
    index_t pos = 0;
    for (index_t k = 0; k < count; ++k) {
      if (tmp[k]) cand[pos++] = cand[k];
    }
    box_common::Slots(w)[NMSSlots(n) - 1] = pos;
  }
};

/*!
 * \brief One thread per output element (b, r, c): kept row r of item b (boxes converted to
 *        out_format) or -1, and in record the source row index or -1.
 */
struct nms_write {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, NMSArgs p, const DType* data, const double* ws,
                                  DType* out, DType* record) {
    const index_t n = p.n, width = p.width;
    const index_t b = i / (n * width), r = (i / width) % n, c = i % width;
    const index_t* w = reinterpret_cast<const index_t*>(ws + b * NMSSlots(n));
    if (r >= w[NMSSlots(n) - 1]) {
      out[i] = DType(-1);
      record[i] = DType(-1);
      return;
    }
    const index_t src = w[r];
    const DType* row = data + (b * n + src) * width;
    if (p.in_format != p.out_format && c >= p.coord_start && c < p.coord_start + 4) {
      double corner[4];
      box_common::ToCorner(row + p.coord_start, p.in_format, corner);
      out[i] = static_cast<DType>(
          box_common::FromCornerAt(corner, p.out_format, static_cast<int>(c - p.coord_start)));
    } else {
      out[i] = row[c];
    }
    record[i] = static_cast<DType>(src);
  }
};

/*! \brief The gradient: each kept row's head gradient goes back to its (unique) source row. */
struct nms_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, index_t width, const DType* og,
                                  const DType* record, DType* ig) {
    const index_t b = i / (n * width), c = i % width;
    const DType src = record[i - c];
    if (src < DType(0)) return;
    const index_t s = static_cast<index_t>(src);
    ig[(b * n + s) * width + c] += og[i];
  }
};

struct fill {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* x, double v) { x[i] = static_cast<DType>(v); }
};

// ---- bipartite_matching: one thread per batch item ---------------------------------------

template <typename DType>
struct MatchOrder {
  const DType* s;
  bool ascend;
  MSHADOW_XINLINE bool operator()(index_t x, index_t y) const {
    return ascend ? static_cast<double>(s[x]) < static_cast<double>(s[y])
                  : static_cast<double>(s[x]) > static_cast<double>(s[y]);
  }
};

/*! \brief Workspace slots of one batch item: order (nrow * ncol) and tmp (nrow * ncol). */
MSHADOW_XINLINE index_t MatchSlots(index_t nrow, index_t ncol) { return 2 * nrow * ncol; }

/*!
 * \brief Greedy matching, best score first: a (row, col) pair passing the threshold is
 *        matched when neither is taken. MXNet 1.9.1 stops only once the count exceeds topk,
 *        so it makes topk + 1 matches.
 */
struct bipartite {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, const DType* score, index_t nrow, index_t ncol,
                                  bool is_ascend, double thresh, int topk, double* ws,
                                  DType* row_marker, DType* col_marker) {
    const DType* s = score + b * nrow * ncol;
    DType* rm = row_marker + b * nrow;
    DType* cm = col_marker + b * ncol;
    for (index_t r = 0; r < nrow; ++r) rm[r] = DType(-1);
    for (index_t c = 0; c < ncol; ++c) cm[c] = DType(-1);
    index_t* order = box_common::Slots(ws + b * MatchSlots(nrow, ncol));
    const index_t total = nrow * ncol;
    for (index_t k = 0; k < total; ++k) order[k] = k;
    box_common::StableSort(order, order + total, total, MatchOrder<DType>{s, is_ascend});
    int matched = 0;
    for (index_t t = 0; t < total; ++t) {
      const index_t k = order[t];
      const double v = static_cast<double>(s[k]);
      const bool passes = is_ascend ? v < thresh : v > thresh;
      if (!passes) break;  // sorted: no later score passes either
      const index_t r = k / ncol, c = k % ncol;
      if (!(rm[r] == DType(-1)) || !(cm[c] == DType(-1))) continue;
      rm[r] = static_cast<DType>(c);
      cm[c] = static_cast<DType>(r);
      if (topk > 0 && ++matched > topk) break;
    }
  }
};

// ---- box_encode / box_decode: one thread per box -----------------------------------------

struct encode {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t k, const DType* samples, const DType* matches,
                                  const DType* anchors, const DType* refs, const DType* means,
                                  const DType* stds, index_t n, index_t m, DType* targets,
                                  DType* masks) {
    const index_t b = k / n;
    DType* t = targets + k * 4;
    DType* mk = masks + k * 4;
    const index_t match = static_cast<index_t>(static_cast<double>(matches[k]));
    // Only positive samples (> 0.5) with a valid match get a target.
    if (!(static_cast<double>(samples[k]) > 0.5) || match < 0 || match >= m) {
      for (int c = 0; c < 4; ++c) t[c] = mk[c] = DType(0);
      return;
    }
    double a[4], r[4];
    box_common::ToCorner(anchors + k * 4, box_common::kCorner, a);
    box_common::ToCorner(refs + (b * m + match) * 4, box_common::kCorner, r);
    const double aw = a[2] - a[0], ah = a[3] - a[1];
    const double ax = a[0] + aw * 0.5, ay = a[1] + ah * 0.5;
    const double rw = r[2] - r[0], rh = r[3] - r[1];
    const double rx = r[0] + rw * 0.5, ry = r[1] + rh * 0.5;
    const double v[4] = {(rx - ax) / aw, (ry - ay) / ah, ::log(rw / aw), ::log(rh / ah)};
    for (int c = 0; c < 4; ++c) {
      t[c] = static_cast<DType>((v[c] - static_cast<double>(means[c])) /
                                static_cast<double>(stds[c]));
      mk[c] = DType(1);
    }
  }
};

struct decode {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t k, const DType* data, const DType* anchors,
                                  index_t n, double std0, double std1, double std2, double std3,
                                  double clip, int format, int req, DType* out) {
    const DType* x = data + k * 4;
    double c[4];  // anchor corners
    box_common::ToCorner(anchors + (k % n) * 4, format, c);
    const double aw = c[2] - c[0], ah = c[3] - c[1];
    const double ax = c[0] + aw * 0.5, ay = c[1] + ah * 0.5;
    const double ox = static_cast<double>(x[0]) * std0 * aw + ax;
    const double oy = static_cast<double>(x[1]) * std1 * ah + ay;
    double dw = static_cast<double>(x[2]) * std2, dh = static_cast<double>(x[3]) * std3;
    if (clip > 0) {
      dw = Min(dw, clip);
      dh = Min(dh, clip);
    }
    const double hw = ::exp(dw) * aw * 0.5, hh = ::exp(dh) * ah * 0.5;
    const double v[4] = {ox - hw, oy - hh, ox + hw, oy + hh};
    DType* o = out + k * 4;
    for (int j = 0; j < 4; ++j) {
      o[j] = static_cast<DType>(req == kAddTo ? static_cast<double>(o[j]) + v[j] : v[j]);
    }
  }
};

}  // namespace box_kernel

// ---- FCompute<xpu> -----------------------------------------------------------------------

template <typename xpu>
void BoxIoUCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const int format = nnvm::get<BoxIoUParam>(attrs.parsed).format;
  const index_t nl = inputs[0].Size() / 4, nr = inputs[1].Size() / 4;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<box_kernel::iou, xpu>::Launch(
        ctx.get_stream<xpu>(), nl * nr, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), nr,
        format, static_cast<int>(req[0]), outputs[0].dptr<DType>());
  });
}

/*! \brief data (..., n, width) -> (out, record), per batch item (see nms_select). */
template <typename xpu>
void BoxNMSCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const BoxNMSParam& p = nnvm::get<BoxNMSParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const mxnet::TShape& d = inputs[0].shape_;
  box_kernel::NMSArgs a;
  a.overlap_thresh = p.overlap_thresh;
  a.valid_thresh = p.valid_thresh;
  a.topk = p.topk;
  a.n = d[d.ndim() - 2];
  a.width = d[d.ndim() - 1];
  a.coord_start = p.coord_start;
  a.score_index = p.score_index;
  a.id_index = p.id_index;
  a.background_id = p.background_id;
  a.in_format = p.in_format;
  a.out_format = p.out_format;
  a.force_suppress = p.force_suppress;
  const index_t batches = a.n * a.width == 0 ? 0 : d.Size() / (a.n * a.width);
  if (batches == 0) return;
  double* ws = box_common::Workspace(ctx, batches * box_kernel::NMSSlots(a.n));
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    box_common::SerialPerItem<box_kernel::nms_select, xpu>::Launch(
        s, batches, a, inputs[0].dptr<DType>(), ws);
    mxnet_op::Kernel<box_kernel::nms_write, xpu>::Launch(
        s, d.Size(), a, inputs[0].dptr<DType>(), static_cast<const double*>(ws),
        outputs[0].dptr<DType>(), outputs[1].dptr<DType>());
  });
}

/*! \brief (out_grad, record) -> data_grad. */
template <typename xpu>
void BoxNMSGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const mxnet::TShape& d = outputs[0].shape_;
  const index_t width = d[d.ndim() - 1], n = d[d.ndim() - 2];
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DType* ig = outputs[0].dptr<DType>();
    if (req[0] != kAddTo) mxnet_op::Kernel<box_kernel::fill, xpu>::Launch(s, d.Size(), ig, 0.0);
    if (n * width > 0) {
      mxnet_op::Kernel<box_kernel::nms_grad, xpu>::Launch(
          s, d.Size(), n, width, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), ig);
    }
  });
}

template <typename xpu>
void BipartiteCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const BipartiteMatchingParam& p = nnvm::get<BipartiteMatchingParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const mxnet::TShape& d = inputs[0].shape_;
  const index_t nrow = d[d.ndim() - 2], ncol = d[d.ndim() - 1];
  const index_t batches = nrow * ncol == 0 ? d.Size() : d.Size() / (nrow * ncol);
  if (nrow * ncol == 0) {
    // No scores: every marker is -1.
    MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
      for (int k = 0; k < 2; ++k) {
        mxnet_op::Kernel<box_kernel::fill, xpu>::Launch(s, outputs[k].Size(),
                                                        outputs[k].dptr<DType>(), -1.0);
      }
    });
    return;
  }
  double* ws = box_common::Workspace(ctx, batches * box_kernel::MatchSlots(nrow, ncol));
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    box_common::SerialPerItem<box_kernel::bipartite, xpu>::Launch(
        s, batches, inputs[0].dptr<DType>(), nrow, ncol, p.is_ascend,
        static_cast<double>(p.threshold), p.topk, ws, outputs[0].dptr<DType>(),
        outputs[1].dptr<DType>());
  });
}

template <typename xpu>
void BoxEncodeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const index_t B = inputs[0].shape_[0], n = inputs[0].shape_[1], m = inputs[3].shape_[1];
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<box_kernel::encode, xpu>::Launch(
        ctx.get_stream<xpu>(), B * n, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        inputs[2].dptr<DType>(), inputs[3].dptr<DType>(), inputs[4].dptr<DType>(),
        inputs[5].dptr<DType>(), n, m, outputs[0].dptr<DType>(), outputs[1].dptr<DType>());
  });
}

template <typename xpu>
void BoxDecodeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const BoxDecodeParam& p = nnvm::get<BoxDecodeParam>(attrs.parsed);
  const index_t B = inputs[0].shape_[0], n = inputs[0].shape_[1];
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<box_kernel::decode, xpu>::Launch(
        ctx.get_stream<xpu>(), B * n, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), n,
        static_cast<double>(p.std0), static_cast<double>(p.std1), static_cast<double>(p.std2),
        static_cast<double>(p.std3), static_cast<double>(p.clip), p.format,
        static_cast<int>(req[0]), outputs[0].dptr<DType>());
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_BOUNDING_BOX_INL_H_
