/*!
 * \file matrix_op-inl.h
 * \brief Shape and matrix manipulation: Reshape, Flatten, transpose, SwapAxis, expand_dims,
 *        squeeze, slice / slice_axis / slice_like / _slice_assign(_scalar), tile, repeat,
 *        reverse, stack, depth_to_space, space_to_depth, diag. Parameters, shape inference and
 *        the CPU kernels they share.
 *
 * Most of these ops are a strided copy: the output (or, for assignments and gradients, the
 * destination) is walked in row-major order while a second "strided view" of the other array
 * gives the matching element. StridedView + ForEachStrided implement that walk with size-1
 * axes dropped and contiguous axes merged, OpenMP over rows of large outputs.
 */
#ifndef MXNET_OPERATOR_TENSOR_MATRIX_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_MATRIX_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

// ---------------------------------------------------------------- parameters

struct ReshapeParam : public dmlc::Parameter<ReshapeParam> {
  mxnet::TShape target_shape;
  bool keep_highest;
  mxnet::Tuple<int> shape;
  bool reverse;
  DMLC_DECLARE_PARAMETER(ReshapeParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::Tuple<int>()).describe("The target shape");
    DMLC_DECLARE_FIELD(reverse).set_default(false).describe(
        "If true then the special values are inferred from right to left");
    DMLC_DECLARE_FIELD(target_shape)
        .set_default(mxnet::TShape(0, -1))
        .describe("(Deprecated! Use ``shape`` instead.) "
                  "Target new shape. One and only one dim can be 0, "
                  "in which case it will be inferred from the rest of dims");
    DMLC_DECLARE_FIELD(keep_highest).set_default(false).describe(
        "(Deprecated! Use ``shape`` instead.) Whether keep the highest dim unchanged."
        "If set to true, then the first dim in target_shape is ignored,"
        "and always fixed as input");
  }
};

struct TransposeParam : public dmlc::Parameter<TransposeParam> {
  mxnet::TShape axes;
  DMLC_DECLARE_PARAMETER(TransposeParam) {
    DMLC_DECLARE_FIELD(axes).set_default(mxnet::TShape(0, -1)).describe(
        "Target axis order. By default the axes will be inverted.");
  }
};

struct SwapAxisParam : public dmlc::Parameter<SwapAxisParam> {
  int dim1, dim2;
  DMLC_DECLARE_PARAMETER(SwapAxisParam) {
    DMLC_DECLARE_FIELD(dim1).set_default(0).describe("the first axis to be swapped.");
    DMLC_DECLARE_FIELD(dim2).set_default(0).describe("the second axis to be swapped.");
  }
};

struct ExpandDimParam : public dmlc::Parameter<ExpandDimParam> {
  int axis;
  DMLC_DECLARE_PARAMETER(ExpandDimParam) {
    DMLC_DECLARE_FIELD(axis).describe(
        "Position where new axis is to be inserted. Suppose that "
        "the input `NDArray`'s dimension is `ndim`, the range of "
        "the inserted axis is `[-ndim, ndim]`");
  }
};

struct SqueezeParam : public dmlc::Parameter<SqueezeParam> {
  dmlc::optional<mxnet::TShape> axis;
  DMLC_DECLARE_PARAMETER(SqueezeParam) {
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<mxnet::TShape>()).describe(
        "Selects a subset of the single-dimensional entries in the shape."
        " If an axis is selected with shape entry greater than one, an error is raised.");
  }
};

struct SliceParam : public dmlc::Parameter<SliceParam> {
  mxnet::Tuple<dmlc::optional<int64_t>> begin, end;
  mxnet::Tuple<dmlc::optional<int64_t>> step;
  DMLC_DECLARE_PARAMETER(SliceParam) {
    DMLC_DECLARE_FIELD(begin).describe(
        "starting indices for the slice operation, supports negative indices.");
    DMLC_DECLARE_FIELD(end).describe(
        "ending indices for the slice operation, supports negative indices.");
    DMLC_DECLARE_FIELD(step)
        .set_default(mxnet::Tuple<dmlc::optional<int64_t>>())
        .describe("step for the slice operation, supports negative values.");
  }
};

struct SliceAssignScalarParam : public dmlc::Parameter<SliceAssignScalarParam> {
  double scalar;
  mxnet::Tuple<dmlc::optional<int64_t>> begin, end;
  mxnet::Tuple<dmlc::optional<int64_t>> step;
  DMLC_DECLARE_PARAMETER(SliceAssignScalarParam) {
    DMLC_DECLARE_FIELD(scalar).set_default(0).describe("The scalar value for assignment.");
    DMLC_DECLARE_FIELD(begin).describe(
        "starting indices for the slice operation, supports negative indices.");
    DMLC_DECLARE_FIELD(end).describe(
        "ending indices for the slice operation, supports negative indices.");
    DMLC_DECLARE_FIELD(step)
        .set_default(mxnet::Tuple<dmlc::optional<int64_t>>())
        .describe("step for the slice operation, supports negative values.");
  }
};

struct SliceAxisParam : public dmlc::Parameter<SliceAxisParam> {
  int axis;
  int64_t begin;
  dmlc::optional<int64_t> end;
  DMLC_DECLARE_PARAMETER(SliceAxisParam) {
    DMLC_DECLARE_FIELD(axis).describe("Axis along which to be sliced, supports negative indexes.");
    DMLC_DECLARE_FIELD(begin).describe(
        "The beginning index along the axis to be sliced, "
        " supports negative indexes.");
    DMLC_DECLARE_FIELD(end).describe(
        "The ending index along the axis to be sliced, "
        " supports negative indexes.");
  }
};

struct SliceLikeParam : public dmlc::Parameter<SliceLikeParam> {
  mxnet::TShape axes;
  DMLC_DECLARE_PARAMETER(SliceLikeParam) {
    DMLC_DECLARE_FIELD(axes).set_default(mxnet::TShape(0, -1)).describe(
        "List of axes on which input data will be sliced according to the "
        "corresponding size of the second input. By default will slice on "
        "all axes. Negative axes are supported.");
  }
};

struct TileParam : public dmlc::Parameter<TileParam> {
  mxnet::TShape reps;
  DMLC_DECLARE_PARAMETER(TileParam) {
    DMLC_DECLARE_FIELD(reps).describe(
        "The number of times for repeating the tensor a. Each dim size of reps"
        " must be a positive integer."
        " If reps has length d, the result will have dimension of max(d, a.ndim);"
        " If a.ndim < d, a is promoted to be d-dimensional by prepending new axes."
        " If a.ndim > d, reps is promoted to a.ndim by pre-pending 1's to it.");
  }
};

struct RepeatParam : public dmlc::Parameter<RepeatParam> {
  int repeats;
  dmlc::optional<int> axis;
  DMLC_DECLARE_PARAMETER(RepeatParam) {
    DMLC_DECLARE_FIELD(repeats).describe(
        "The number of repetitions for each element.");
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>()).describe(
        "The axis along which to repeat values."
        " The negative numbers are interpreted counting from the backward."
        " By default, use the flattened input array,"
        " and return a flat output array.");
  }
};

struct ReverseParam : public dmlc::Parameter<ReverseParam> {
  mxnet::Tuple<int> axis;
  DMLC_DECLARE_PARAMETER(ReverseParam) {
    DMLC_DECLARE_FIELD(axis).describe("The axis which to reverse elements.");
  }
};

struct StackParam : public dmlc::Parameter<StackParam> {
  int axis;
  int num_args;
  DMLC_DECLARE_PARAMETER(StackParam) {
    DMLC_DECLARE_FIELD(axis).set_default(0).describe(
        "The axis in the result array along which the input arrays are stacked.");
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1).describe(
        "Number of inputs to be stacked.");
  }
};

struct DepthToSpaceParam : public dmlc::Parameter<DepthToSpaceParam> {
  int block_size;
  DMLC_DECLARE_PARAMETER(DepthToSpaceParam) {
    DMLC_DECLARE_FIELD(block_size).describe("Blocks of [block_size. block_size] are moved");
  }
};

struct DiagParam : public dmlc::Parameter<DiagParam> {
  int k;
  int axis1;
  int axis2;
  DMLC_DECLARE_PARAMETER(DiagParam) {
    DMLC_DECLARE_FIELD(k).set_default(0).describe(
        "Diagonal in question. The default is 0. "
        "Use k>0 for diagonals above the main diagonal, "
        "and k<0 for diagonals below the main diagonal. "
        "If input has shape (S0 S1) k must be between -S0 and S1");
    DMLC_DECLARE_FIELD(axis1).set_default(0).describe(
        "The first axis of the sub-arrays of interest. "
        "Ignored when the input is a 1-D array.");
    DMLC_DECLARE_FIELD(axis2).set_default(1).describe(
        "The second axis of the sub-arrays of interest. "
        "Ignored when the input is a 1-D array.");
  }
};

// ---------------------------------------------------------------- strided copies

/*! \brief A walk over `shape` in row-major order with element strides into another array. */
struct StridedView {
  static constexpr int kMaxDim = ReducePlan::kMaxDim;
  int ndim = 0;
  index_t shape[kMaxDim];
  index_t stride[kMaxDim];
  index_t offset = 0;  // element offset of coordinate (0, ..., 0)

  void Add(index_t size, index_t st) {
    CHECK_LT(ndim, kMaxDim) << "too many dimensions";
    shape[ndim] = size;
    stride[ndim] = st;
    ++ndim;
  }
  index_t Size() const {
    index_t s = 1;
    for (int i = 0; i < ndim; ++i) s *= shape[i];
    return s;
  }
  /*! \brief Drop size-1 axes and merge axes whose strides chain (a contiguous pair). */
  void Simplify() {
    int n = 0;
    for (int i = 0; i < ndim; ++i) {
      if (shape[i] == 1) continue;
      if (n > 0 && stride[n - 1] == stride[i] * shape[i]) {
        shape[n - 1] *= shape[i];
        stride[n - 1] = stride[i];
      } else {
        shape[n] = shape[i];
        stride[n] = stride[i];
        ++n;
      }
    }
    ndim = n;
  }
};

/*! \brief Row-major strides of a shape. */
inline std::vector<index_t> RowMajorStrides(const mxnet::TShape& s) {
  std::vector<index_t> st(s.ndim() > 0 ? s.ndim() : 0);
  index_t acc = 1;
  for (int i = s.ndim() - 1; i >= 0; --i) {
    st[i] = acc;
    acc *= s[i];
  }
  return st;
}

/*!
 * \brief Calls f(i, off) for i in [0, v.Size()) in row-major order of v.shape, with `off` the
 *        strided offset of element i. OpenMP over chunks of rows when large.
 */
template <typename F>
void ForEachStrided(StridedView v, F f) {
  v.Simplify();
  const index_t total = v.Size();
  if (total == 0) return;
  if (v.ndim == 0) {
    f(index_t(0), v.offset);
    return;
  }
  Odometer outer;
  for (int d = 0; d < v.ndim - 1; ++d) outer.Add(v.shape[d], v.stride[d]);
  const index_t inner = v.shape[v.ndim - 1];
  const index_t istride = v.stride[v.ndim - 1];
  const index_t rows = total / inner;
  const int nthreads = total >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
  const index_t chunk = (rows + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (int t = 0; t < nthreads; ++t) {
    const index_t r0 = std::min(rows, t * chunk), r1 = std::min(rows, r0 + chunk);
    if (r0 >= r1) continue;
    Odometer o = outer;
    o.Seek(r0);
    for (index_t r = r0; r < r1; ++r, o.Next()) {
      const index_t base = v.offset + o.offset;
      const index_t ibase = r * inner;
      if (istride == 1) {
        for (index_t i = 0; i < inner; ++i) f(ibase + i, base + i);
      } else {
        for (index_t i = 0; i < inner; ++i) f(ibase + i, base + i * istride);
      }
    }
  }
}

/*! \brief out[i] (req) = src[off(i)]: gather a strided view of src into contiguous out. */
template <typename DType>
void StridedGather(const StridedView& v, const DType* src, DType* out, OpReqType req) {
  if (req == kNullOp) return;
  if (req == kAddTo) {
    ForEachStrided(v, [&](index_t i, index_t off) { out[i] += src[off]; });
  } else {
    ForEachStrided(v, [&](index_t i, index_t off) { out[i] = src[off]; });
  }
}

/*! \brief dst[off(i)] (req) = src[i]: scatter contiguous src into a strided view of dst. */
template <typename DType>
void StridedScatter(const StridedView& v, const DType* src, DType* dst, OpReqType req) {
  if (req == kNullOp) return;
  if (req == kAddTo) {
    ForEachStrided(v, [&](index_t i, index_t off) { dst[off] += src[i]; });
  } else {
    ForEachStrided(v, [&](index_t i, index_t off) { dst[off] = src[i]; });
  }
}

inline void CheckCopyTypes(const TBlob& in, const TBlob& out) {
  if (in.type_flag_ != out.type_flag_) {
    MX_THROW(TypeError) << "copy: expected output dtype " << mshadow::dtype_string(in.type_flag_)
                        << ", got " << mshadow::dtype_string(out.type_flag_);
  }
}

/*! \brief Copy (req) of a whole blob into another of the same size (no-op when in place). */
inline void CopyBlob(const TBlob& in, const TBlob& out, OpReqType req) {
  if (req == kNullOp) return;
  CheckCopyTypes(in, out);
  const size_t n = in.Size();
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    const DType* x = in.dptr<DType>();
    DType* y = out.dptr<DType>();
    if (req == kAddTo) {
      for (size_t i = 0; i < n; ++i) y[i] += x[i];
    } else if (x != y) {
      std::memcpy(y, x, n * sizeof(DType));
    }
  });
}

// ---------------------------------------------------------------- device forms
// The CPU forms call the loops above; the GPU forms are in matrix_op_gpu.cuh (CUDA compiles).

template <typename DType>
inline void StridedGatherPlanned(mshadow::Stream<mshadow::cpu>*, const StridedView& v,
                                 const DType* src, DType* out, OpReqType req) {
  StridedGather(v, src, out, req);
}
template <typename DType>
void StridedGatherPlanned(mshadow::Stream<mshadow::gpu>* s, const StridedView& v,
                          const DType* src, DType* out, OpReqType req);

template <typename DType>
inline void StridedScatterPlanned(mshadow::Stream<mshadow::cpu>*, const StridedView& v,
                                  const DType* src, DType* dst, OpReqType req) {
  StridedScatter(v, src, dst, req);
}
template <typename DType>
void StridedScatterPlanned(mshadow::Stream<mshadow::gpu>* s, const StridedView& v,
                           const DType* src, DType* dst, OpReqType req);

/*! \brief dst[off(i)] = value over a strided view. */
template <typename DType>
inline void StridedFillPlanned(mshadow::Stream<mshadow::cpu>*, const StridedView& v, DType* dst,
                               DType value) {
  ForEachStrided(v, [&](index_t, index_t off) { dst[off] = value; });
}
template <typename DType>
void StridedFillPlanned(mshadow::Stream<mshadow::gpu>* s, const StridedView& v, DType* dst,
                        DType value);

inline void CopyBlobPlanned(mshadow::Stream<mshadow::cpu>*, const TBlob& in, const TBlob& out,
                            OpReqType req) {
  CopyBlob(in, out, req);
}
void CopyBlobPlanned(mshadow::Stream<mshadow::gpu>* s, const TBlob& in, const TBlob& out,
                     OpReqType req);

/*! \brief Zeros over a whole blob (any dtype) on either device. */
template <typename xpu>
inline void ZeroBlob(mshadow::Stream<xpu>* s, const TBlob& b) {
  MSHADOW_TYPE_SWITCH_WITH_BOOL(b.type_flag_, DType, {
    mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, static_cast<index_t>(b.Size()),
                                                      b.dptr<DType>());
  });
}

/*! \brief FCompute of the copy-like ops (Reshape, Flatten, expand_dims, squeeze, backward). */
template <typename xpu>
void IdentityCopyCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  CopyBlobPlanned(ctx.get_stream<xpu>(), inputs[0], outputs[0], req[0]);
}

/*!
 * \brief out = transpose(in, axes): out axis i is in axis axes[i]. Blocked 32x32 when the
 *        innermost output axis walks the input with a stride and a contiguous input axis exists
 *        next to it (the 2-D transpose case), which keeps both sides in cache.
 */
template <typename DType>
void TransposeImpl(const DType* in, DType* out, const mxnet::TShape& ishape,
                   const std::vector<int>& axes, OpReqType req) {
  if (req == kNullOp) return;
  const std::vector<index_t> ist = RowMajorStrides(ishape);
  StridedView v;
  for (size_t i = 0; i < axes.size(); ++i) v.Add(ishape[axes[i]], ist[axes[i]]);
  StridedView s = v;
  s.Simplify();
  if (s.ndim >= 2 && s.stride[s.ndim - 1] != 1 && s.stride[s.ndim - 2] == 1 && req != kAddTo &&
      s.shape[s.ndim - 1] >= 16 && s.shape[s.ndim - 2] >= 16) {
    // out[..., a, b] = in[... + a + b * sb]: tile over (a, b).
    const index_t A = s.shape[s.ndim - 2], B = s.shape[s.ndim - 1], sb = s.stride[s.ndim - 1];
    Odometer outer;
    for (int d = 0; d < s.ndim - 2; ++d) outer.Add(s.shape[d], s.stride[d]);
    const index_t nmat = s.Size() / (A * B);
    const index_t tile = 32;
    const index_t ta = (A + tile - 1) / tile, tb = (B + tile - 1) / tile;
    const index_t ntiles = nmat * ta * tb;
    const int nthreads = s.Size() >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
    for (index_t t = 0; t < ntiles; ++t) {
      const index_t m = t / (ta * tb), rem = t % (ta * tb);
      const index_t a0 = (rem / tb) * tile, b0 = (rem % tb) * tile;
      Odometer o = outer;
      o.Seek(m);
      const DType* src = in + o.offset;
      DType* dst = out + m * A * B;
      const index_t a1 = std::min(A, a0 + tile), b1 = std::min(B, b0 + tile);
      for (index_t a = a0; a < a1; ++a) {
        for (index_t b = b0; b < b1; ++b) dst[a * B + b] = src[a + b * sb];
      }
    }
    return;
  }
  StridedGather(v, in, out, req);
}

/*! \brief Normalised transpose axes (default: reversed); errors name the op. */
inline std::vector<int> TransposeAxes(const char* op, const mxnet::TShape& axes, int ndim) {
  std::vector<int> ret(ndim);
  if (axes.ndim() <= 0) {
    for (int i = 0; i < ndim; ++i) ret[i] = ndim - 1 - i;
    return ret;
  }
  if (axes.ndim() != ndim) {
    MX_THROW(ValueError) << op << ": expected axes with " << ndim
                         << " entries (one per input dimension), got axes=" << axes;
  }
  std::vector<bool> seen(ndim, false);
  for (int i = 0; i < ndim; ++i) {
    const int a = CheckAxis(op, static_cast<int>(axes[i]), ndim);
    if (seen[a]) MX_THROW(ValueError) << op << ": repeated axis in axes=" << axes;
    seen[a] = true;
    ret[i] = a;
  }
  return ret;
}

// ---------------------------------------------------------------- slicing

/*! \brief Normalised begin / step and output extent of each axis of a slice. */
struct SliceRange {
  std::vector<index_t> begin, step;
  mxnet::TShape oshape;
};

/*!
 * \brief MXNet's slice index rules: negative indices wrap, None means the whole axis (from the
 *        end for negative steps), out-of-range begin/end raise IndexError naming the op.
 */
inline SliceRange GetSliceRange(const char* op, const mxnet::TShape& dshape,
                                const mxnet::Tuple<dmlc::optional<int64_t>>& pbegin,
                                const mxnet::Tuple<dmlc::optional<int64_t>>& pend,
                                const mxnet::Tuple<dmlc::optional<int64_t>>& pstep) {
  if (pbegin.ndim() != pend.ndim()) {
    MX_THROW(ValueError) << op << ": expected begin and end of the same length, got begin="
                         << pbegin << " and end=" << pend;
  }
  if (pbegin.ndim() > dshape.ndim()) {
    MX_THROW(ValueError) << op << ": begin=" << pbegin << " has more entries than the input has "
                         << "dimensions (" << dshape << ")";
  }
  if (pstep.ndim() > 0 && pstep.ndim() != pbegin.ndim()) {
    MX_THROW(ValueError) << op << ": expected step of the same length as begin, got step="
                         << pstep << " and begin=" << pbegin;
  }
  SliceRange r;
  r.oshape = dshape;
  for (int i = 0; i < dshape.ndim(); ++i) {
    const index_t len = dshape[i];
    index_t b = 0, e = len, s = 1;
    if (i < pbegin.ndim()) {
      if (pstep.ndim() > 0 && pstep[i].has_value()) {
        s = pstep[i].value();
        if (s == 0) MX_THROW(ValueError) << op << ": step[" << i << "] cannot be 0";
      }
      if (pbegin[i].has_value()) {
        b = pbegin[i].value();
        if (b < 0) b += len;
        if (b < 0 || (b >= len && len > 0)) {
          MX_THROW(IndexError) << op << ": begin[" << i << "]=" << pbegin[i].value()
                               << " is out of range for dimension " << i << " of size " << len
                               << " (input shape " << dshape << ")";
        }
      } else if (s < 0) {
        b = len - 1;
      }
      if (pend[i].has_value()) {
        e = pend[i].value();
        if (e < 0) e += len;
        if (e < 0 || e > len) {
          MX_THROW(IndexError) << op << ": end[" << i << "]=" << pend[i].value()
                               << " is out of range for dimension " << i << " of size " << len
                               << " (input shape " << dshape << ")";
        }
      } else if (s < 0) {
        e = -1;
      }
    }
    index_t n = 0;
    if (len > 0) {
      if (s > 0) {
        n = e > b ? (e - b - 1) / s + 1 : 0;
      } else {
        n = e < b ? (b - e - 1) / (-s) + 1 : 0;
      }
    }
    r.begin.push_back(n > 0 ? b : 0);
    r.step.push_back(s);
    r.oshape[i] = n;
  }
  return r;
}

/*! \brief The strided view of the sliced region of an array of shape dshape. */
inline StridedView SliceView(const mxnet::TShape& dshape, const SliceRange& r) {
  const std::vector<index_t> st = RowMajorStrides(dshape);
  StridedView v;
  for (int i = 0; i < dshape.ndim(); ++i) {
    v.offset += r.begin[i] * st[i];
    v.Add(r.oshape[i], st[i] * r.step[i]);
  }
  return v;
}

/*! \brief slice_axis as a SliceRange. */
inline SliceRange SliceAxisRange(const SliceAxisParam& param, const mxnet::TShape& ishape) {
  const int axis = CheckAxis("slice_axis", param.axis, ishape.ndim());
  const index_t len = ishape[axis];
  index_t b = param.begin, e = param.end.has_value() ? param.end.value() : len;
  if (b < 0) b += len;
  if (e < 0) e += len;
  if (len > 0 && (b < 0 || e > len || b >= e)) {
    MX_THROW(IndexError) << "slice_axis: invalid begin=" << param.begin << ", end=" << param.end
                         << " for axis " << param.axis << " of size " << len << " (input shape "
                         << ishape << "); expected 0 <= begin < end <= " << len
                         << " after wrapping negative values";
  }
  SliceRange r;
  r.oshape = ishape;
  for (int i = 0; i < ishape.ndim(); ++i) {
    r.begin.push_back(i == axis && len > 0 ? b : 0);
    r.step.push_back(1);
  }
  r.oshape[axis] = len > 0 ? e - b : 0;
  return r;
}

/*! \brief slice_like as a SliceRange (begins at 0 on every sliced axis). */
inline SliceRange SliceLikeRange(const SliceLikeParam& param, const mxnet::TShape& ishape,
                                 const mxnet::TShape& fshape) {
  SliceRange r;
  r.oshape = ishape;
  r.begin.assign(ishape.ndim(), 0);
  r.step.assign(ishape.ndim(), 1);
  auto take = [&](int i, int j) {
    if (fshape[j] > ishape[i]) {
      MX_THROW(ValueError) << "slice_like: slicing axis " << i << " of data " << ishape
                           << " to size " << fshape[j] << " (from shape_like " << fshape
                           << ") exceeds its size " << ishape[i];
    }
    r.oshape[i] = fshape[j];
  };
  if (param.axes.ndim() <= 0) {
    if (ishape.ndim() != fshape.ndim()) {
      MX_THROW(ValueError) << "slice_like: with axes=() data and shape_like must have the same "
                              "number of dimensions, got "
                           << ishape << " and " << fshape;
    }
    for (int i = 0; i < ishape.ndim(); ++i) take(i, i);
  } else {
    for (int k = 0; k < param.axes.ndim(); ++k) {
      const int a = static_cast<int>(param.axes[k]);
      const int i = CheckAxis("slice_like", a, ishape.ndim());
      const int j = a < 0 ? a + fshape.ndim() : a;
      if (j < 0 || j >= fshape.ndim()) {
        MX_THROW(ValueError) << "slice_like: axis " << a << " is out of range for shape_like "
                             << fshape;
      }
      take(i, j);
    }
  }
  return r;
}

/*! \brief slice-family forward: out = in[range]. */
template <typename xpu>
void SliceForwardImpl(mshadow::Stream<xpu>* s, const TBlob& in, const SliceRange& r,
                      const TBlob& out, OpReqType req) {
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    StridedGatherPlanned(s, SliceView(in.shape_, r), static_cast<const DType*>(in.dptr<DType>()),
                         out.dptr<DType>(), req);
  });
}

/*!
 * \brief slice-family backward: igrad = zeros with igrad[range] = ograd (or += for kAddTo).
 */
template <typename xpu>
void SliceBackwardImpl(mshadow::Stream<xpu>* s, const TBlob& ograd, const SliceRange& r,
                       const TBlob& igrad, OpReqType req) {
  if (req == kNullOp) return;
  if (req != kAddTo) ZeroBlob(s, igrad);
  MSHADOW_TYPE_SWITCH(igrad.type_flag_, DType, {
    StridedScatterPlanned(s, SliceView(igrad.shape_, r),
                          static_cast<const DType*>(ograd.dptr<DType>()), igrad.dptr<DType>(),
                          kAddTo);
  });
}

inline SliceRange RangeOf(const SliceParam& p, const mxnet::TShape& s, const char* op) {
  return GetSliceRange(op, s, p.begin, p.end, p.step);
}

template <typename xpu>
void SliceCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const SliceRange r = RangeOf(nnvm::get<SliceParam>(attrs.parsed), inputs[0].shape_, "slice");
  SliceForwardImpl(ctx.get_stream<xpu>(), inputs[0], r, outputs[0], req[0]);
}

template <typename xpu>
void SliceBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const SliceRange r = RangeOf(nnvm::get<SliceParam>(attrs.parsed), outputs[0].shape_, "slice");
  SliceBackwardImpl(ctx.get_stream<xpu>(), inputs[0], r, outputs[0], req[0]);
}

template <typename xpu>
void SliceAxisCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const SliceRange r = SliceAxisRange(nnvm::get<SliceAxisParam>(attrs.parsed), inputs[0].shape_);
  SliceForwardImpl(ctx.get_stream<xpu>(), inputs[0], r, outputs[0], req[0]);
}

template <typename xpu>
void SliceAxisBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const SliceRange r =
      SliceAxisRange(nnvm::get<SliceAxisParam>(attrs.parsed), outputs[0].shape_);
  SliceBackwardImpl(ctx.get_stream<xpu>(), inputs[0], r, outputs[0], req[0]);
}

template <typename xpu>
void SliceLikeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const SliceRange r = SliceLikeRange(nnvm::get<SliceLikeParam>(attrs.parsed), inputs[0].shape_,
                                      inputs[1].shape_);
  SliceForwardImpl(ctx.get_stream<xpu>(), inputs[0], r, outputs[0], req[0]);
}

/*! \brief inputs: ograd; outputs: data grad, shape_like grad (zeros). */
template <typename xpu>
void SliceLikeBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const SliceRange r = SliceLikeRange(nnvm::get<SliceLikeParam>(attrs.parsed), outputs[0].shape_,
                                      inputs[0].shape_);
  SliceBackwardImpl(ctx.get_stream<xpu>(), inputs[0], r, outputs[0], req[0]);
  if (outputs.size() > 1 && (req[1] == kWriteTo || req[1] == kWriteInplace)) {
    ZeroBlob(ctx.get_stream<xpu>(), outputs[1]);
  }
}

/*! \brief out = lhs with out[range] = rhs; lhs is copied unless out aliases it. */
template <typename xpu>
void SliceAssignCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "_slice_assign: req kAddTo is not supported";
  }
  const SliceRange r =
      RangeOf(nnvm::get<SliceParam>(attrs.parsed), inputs[0].shape_, "_slice_assign");
  CopyBlobPlanned(ctx.get_stream<xpu>(), inputs[0], outputs[0], kWriteTo);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[0].type_flag_, DType, {
    StridedScatterPlanned(ctx.get_stream<xpu>(), SliceView(outputs[0].shape_, r),
                          static_cast<const DType*>(inputs[1].dptr<DType>()),
                          outputs[0].dptr<DType>(), kWriteTo);
  });
}

template <typename xpu>
void SliceAssignScalarCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "_slice_assign_scalar: req kAddTo is not supported";
  }
  const SliceAssignScalarParam& p = nnvm::get<SliceAssignScalarParam>(attrs.parsed);
  const SliceRange r =
      GetSliceRange("_slice_assign_scalar", inputs[0].shape_, p.begin, p.end, p.step);
  CopyBlobPlanned(ctx.get_stream<xpu>(), inputs[0], outputs[0], kWriteTo);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[0].type_flag_, DType, {
    StridedFillPlanned(ctx.get_stream<xpu>(), SliceView(outputs[0].shape_, r),
                       outputs[0].dptr<DType>(), static_cast<DType>(p.scalar));
  });
}

// ---------------------------------------------------------------- other shapes

/*! \brief Output shape of the deprecated target_shape / keep_highest form of Reshape. */
inline mxnet::TShape ReshapeTargetShape(const ReshapeParam& param, const mxnet::TShape& dshape) {
  mxnet::TShape oshape = param.target_shape;
  int neg_count = 0, inf_idx = 0;
  const int start = param.keep_highest ? 1 : 0;
  if (param.keep_highest) oshape[0] = dshape[0];
  for (int i = start; i < oshape.ndim(); ++i) {
    if (oshape[i] == 0) {
      ++neg_count;
      inf_idx = i;
    }
  }
  if (neg_count > 1) {
    MX_THROW(ValueError) << "Reshape: target_shape " << param.target_shape
                         << " may contain at most one 0 (inferred) dimension";
  }
  if (neg_count == 1) {
    oshape[inf_idx] = 1;
    const index_t rest = static_cast<index_t>(oshape.Size());
    if (rest == 0 || dshape.Size() % rest != 0) {
      MX_THROW(ValueError) << "Reshape: cannot infer the 0 dimension of target_shape "
                           << param.target_shape << " for input " << dshape;
    }
    oshape[inf_idx] = static_cast<index_t>(dshape.Size()) / rest;
  }
  if (oshape.Size() != dshape.Size()) {
    MX_THROW(ValueError) << "Reshape: cannot reshape array of shape " << dshape << " into "
                         << oshape << ": expected " << dshape.Size() << " elements, got "
                         << oshape.Size();
  }
  return oshape;
}

/*! \brief Tile: (padded input shape, padded reps), both of ndim max(ndim, len(reps)). */
inline void TilePadded(const mxnet::TShape& ishape, const mxnet::TShape& reps,
                       std::vector<index_t>* in, std::vector<index_t>* rp) {
  const int nd = std::max(ishape.ndim(), reps.ndim());
  in->assign(nd, 1);
  rp->assign(nd, 1);
  for (int i = 0; i < ishape.ndim(); ++i) (*in)[nd - ishape.ndim() + i] = ishape[i];
  for (int i = 0; i < reps.ndim(); ++i) (*rp)[nd - reps.ndim() + i] = reps[i];
}

/*! \brief Tile as a broadcast: big (r0, d0, r1, d1, ...) from small (1, d0, 1, d1, ...). */
inline ReducePlan TilePlan(const mxnet::TShape& ishape, const mxnet::TShape& reps) {
  std::vector<index_t> in, rp;
  TilePadded(ishape, reps, &in, &rp);
  std::vector<dim_t> big, small;
  for (size_t i = 0; i < in.size(); ++i) {
    big.push_back(rp[i]);
    big.push_back(in[i]);
    small.push_back(1);
    small.push_back(in[i]);
  }
  return MakeReducePlan(mxnet::TShape(big.begin(), big.end()),
                        mxnet::TShape(small.begin(), small.end()));
}

/*! \brief Repeat as a broadcast: big (..., d_axis, repeats, ...) from small (..., d_axis, 1, ...). */
inline ReducePlan RepeatPlan(const RepeatParam& param, const mxnet::TShape& ishape) {
  std::vector<dim_t> big, small;
  if (!param.axis.has_value()) {
    big = {static_cast<dim_t>(ishape.Size()), param.repeats};
    small = {static_cast<dim_t>(ishape.Size()), 1};
  } else {
    const int axis = CheckAxis("repeat", param.axis.value(), ishape.ndim());
    for (int i = 0; i < ishape.ndim(); ++i) {
      big.push_back(ishape[i]);
      small.push_back(ishape[i]);
      if (i == axis) {
        big.push_back(param.repeats);
        small.push_back(1);
      }
    }
  }
  return MakeReducePlan(mxnet::TShape(big.begin(), big.end()),
                        mxnet::TShape(small.begin(), small.end()));
}

/*!
 * \brief depth_to_space / space_to_depth as a transpose of a 6-D view. Returns the 6-D input
 *        view shape and the axes; the output is the transposed view reshaped to 4-D.
 */
inline void DepthSpaceView(bool to_space, const mxnet::TShape& s, int b, mxnet::TShape* view,
                           std::vector<int>* axes) {
  const dim_t N = s[0], C = s[1], H = s[2], W = s[3];
  if (to_space) {  // (N, b, b, C/b^2, H, W) -> (N, C/b^2, H, b, W, b)
    *view = mxnet::TShape{N, b, b, C / (b * b), H, W};
    *axes = {0, 3, 4, 1, 5, 2};
  } else {  // (N, C, H/b, b, W/b, b) -> (N, b, b, C, H/b, W/b)
    *view = mxnet::TShape{N, C, H / b, b, W / b, b};
    *axes = {0, 3, 5, 1, 2, 4};
  }
}

// ---------------------------------------------------------------- matrix ops by device

template <typename DType>
inline void TransposePlanned(mshadow::Stream<mshadow::cpu>*, const DType* in, DType* out,
                             const mxnet::TShape& ishape, const std::vector<int>& axes,
                             OpReqType req) {
  TransposeImpl(in, out, ishape, axes, req);
}
/*! \brief The GPU transpose: a strided gather (out axis i walks input axis axes[i]). */
template <typename DType>
inline void TransposePlanned(mshadow::Stream<mshadow::gpu>* s, const DType* in, DType* out,
                             const mxnet::TShape& ishape, const std::vector<int>& axes,
                             OpReqType req) {
  const std::vector<index_t> ist = RowMajorStrides(ishape);
  StridedView v;
  for (size_t i = 0; i < axes.size(); ++i) v.Add(ishape[axes[i]], ist[axes[i]]);
  StridedGatherPlanned(s, v, in, out, req);
}

/*! \brief out (req) = the view v of out's own old contents (reverse in place), via a copy. */
template <typename DType>
inline void ReverseInPlace(mshadow::Stream<mshadow::cpu>* s, const StridedView& v, DType* out,
                           size_t n, OpReqType req) {
  std::unique_ptr<DType[]> tmp(new DType[n]);
  std::copy(out, out + n, tmp.get());
  StridedGather(v, static_cast<const DType*>(tmp.get()), out, req);
}
template <typename DType>
void ReverseInPlace(mshadow::Stream<mshadow::gpu>* s, const StridedView& v, DType* out, size_t n,
                    OpReqType req);

template <typename xpu>
void TransposeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const TransposeParam& param = nnvm::get<TransposeParam>(attrs.parsed);
  const std::vector<int> axes = TransposeAxes("transpose", param.axes, inputs[0].ndim());
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    TransposePlanned(ctx.get_stream<xpu>(), static_cast<const DType*>(inputs[0].dptr<DType>()),
                     outputs[0].dptr<DType>(), inputs[0].shape_, axes, req[0]);
  });
}

inline std::vector<int> SwapAxes(const SwapAxisParam& param, int ndim) {
  const int a = CheckAxis("SwapAxis (dim1)", param.dim1, ndim);
  const int b = CheckAxis("SwapAxis (dim2)", param.dim2, ndim);
  std::vector<int> axes(ndim);
  for (int i = 0; i < ndim; ++i) axes[i] = i;
  std::swap(axes[a], axes[b]);
  return axes;
}

template <typename xpu>
void SwapAxisCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const std::vector<int> axes =
      SwapAxes(nnvm::get<SwapAxisParam>(attrs.parsed), inputs[0].ndim());
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    TransposePlanned(ctx.get_stream<xpu>(), static_cast<const DType*>(inputs[0].dptr<DType>()),
                     outputs[0].dptr<DType>(), inputs[0].shape_, axes, req[0]);
  });
}

template <typename xpu>
void TileCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx, const std::vector<TBlob>& inputs,
                 const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const ReducePlan p = TilePlan(inputs[0].shape_, nnvm::get<TileParam>(attrs.parsed).reps);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    BroadcastPlanned(ctx.get_stream<xpu>(), p, static_cast<const DType*>(inputs[0].dptr<DType>()),
                     outputs[0].dptr<DType>(), req[0]);
  });
}

template <typename xpu>
void TileBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx, const std::vector<TBlob>& inputs,
                  const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const ReducePlan p = TilePlan(outputs[0].shape_, nnvm::get<TileParam>(attrs.parsed).reps);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    ReducePlanned<red::sum>(ctx.get_stream<xpu>(), p,
                            static_cast<const DType*>(inputs[0].dptr<DType>()),
                            outputs[0].dptr<DType>(), req[0]);
  });
}

template <typename xpu>
void RepeatCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const ReducePlan p = RepeatPlan(nnvm::get<RepeatParam>(attrs.parsed), inputs[0].shape_);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    BroadcastPlanned(ctx.get_stream<xpu>(), p, static_cast<const DType*>(inputs[0].dptr<DType>()),
                     outputs[0].dptr<DType>(), req[0]);
  });
}

template <typename xpu>
void RepeatBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const ReducePlan p = RepeatPlan(nnvm::get<RepeatParam>(attrs.parsed), outputs[0].shape_);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    ReducePlanned<red::sum>(ctx.get_stream<xpu>(), p,
                            static_cast<const DType*>(inputs[0].dptr<DType>()),
                            outputs[0].dptr<DType>(), req[0]);
  });
}

template <typename xpu>
void ReverseCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const ReverseParam& param = nnvm::get<ReverseParam>(attrs.parsed);
  const mxnet::TShape& s = inputs[0].shape_;
  std::vector<bool> flip(s.ndim(), false);
  for (int a : param.axis) {
    const int ax = CheckAxis("reverse", a, s.ndim());
    flip[ax] = !flip[ax];
  }
  const std::vector<index_t> st = RowMajorStrides(s);
  StridedView v;
  for (int i = 0; i < s.ndim(); ++i) {
    if (flip[i] && s[i] > 0) {
      v.offset += (s[i] - 1) * st[i];
      v.Add(s[i], -st[i]);
    } else {
      v.Add(s[i], st[i]);
    }
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    const DType* in = inputs[0].dptr<DType>();
    DType* out = outputs[0].dptr<DType>();
    if (in == out && req[0] != kNullOp) {  // in place: gather from a copy
      ReverseInPlace(ctx.get_stream<xpu>(), v, out, inputs[0].Size(), req[0]);
    } else {
      StridedGatherPlanned(ctx.get_stream<xpu>(), v, in, out, req[0]);
    }
  });
}

template <typename xpu, bool to_space>
void DepthSpaceCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  mxnet::TShape view;
  std::vector<int> axes;
  DepthSpaceView(to_space, inputs[0].shape_, nnvm::get<DepthToSpaceParam>(attrs.parsed).block_size,
                 &view, &axes);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    TransposePlanned(ctx.get_stream<xpu>(), static_cast<const DType*>(inputs[0].dptr<DType>()),
                     outputs[0].dptr<DType>(), view, axes, req[0]);
  });
}

/*! \brief The strided view of diagonal k over (axis1, axis2) of an array of shape s (ndim>=2). */
inline StridedView DiagView(const DiagParam& p, const mxnet::TShape& s, mxnet::TShape* oshape) {
  const int nd = s.ndim();
  const int a1 = CheckAxis("diag (axis1)", p.axis1, nd);
  const int a2 = CheckAxis("diag (axis2)", p.axis2, nd);
  if (a1 == a2) {
    MX_THROW(ValueError) << "diag: axis1 and axis2 cannot refer to the same axis, got axis1="
                         << p.axis1 << " and axis2=" << p.axis2;
  }
  const std::vector<index_t> st = RowMajorStrides(s);
  StridedView v;
  std::vector<dim_t> o;
  for (int i = 0; i < nd; ++i) {
    if (i == a1 || i == a2) continue;
    v.Add(s[i], st[i]);
    o.push_back(s[i]);
  }
  const index_t k = p.k;
  const index_t r0 = k >= 0 ? 0 : -k, c0 = k >= 0 ? k : 0;
  index_t len = std::min(s[a1] - r0, s[a2] - c0);
  if (len < 0) len = 0;
  v.offset = len > 0 ? r0 * st[a1] + c0 * st[a2] : 0;
  v.Add(len, st[a1] + st[a2]);
  o.push_back(len);
  if (oshape) *oshape = mxnet::TShape(o.begin(), o.end());
  return v;
}

/*! \brief The view of diagonal k inside an (n+|k|, n+|k|) matrix (1-D input case). */
inline StridedView DiagMatrixView(int k, index_t n) {
  const index_t m = n + (k >= 0 ? k : -k);
  StridedView v;
  v.offset = k >= 0 ? k : -k * m;
  v.Add(n, m + 1);
  return v;
}

/*! \brief forward: gather the diagonal (or build the matrix); backward: the reverse. */
template <typename xpu, bool backward>
void DiagCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx, const std::vector<TBlob>& inputs,
                 const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const DiagParam& param = nnvm::get<DiagParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  // "data" is the array of the forward input's shape; "diag" the forward output.
  const TBlob& data = backward ? outputs[0] : inputs[0];
  const TBlob& other = backward ? inputs[0] : outputs[0];
  MSHADOW_TYPE_SWITCH_WITH_BOOL(data.type_flag_, DType, {
    const bool gather = (data.ndim() >= 2) != backward;  // read a strided diagonal
    const TBlob& mat = data.ndim() >= 2 ? data : other;  // the array holding the diagonal
    const TBlob& vec = data.ndim() >= 2 ? other : data;
    const StridedView v = data.ndim() >= 2 ? DiagView(param, data.shape_, nullptr)
                                           : DiagMatrixView(param.k, data.shape_[0]);
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    if (gather) {
      StridedGatherPlanned(s, v, static_cast<const DType*>(mat.dptr<DType>()),
                           outputs[0].dptr<DType>(), req[0]);
    } else {
      if (req[0] != kAddTo) ZeroBlob(s, outputs[0]);
      StridedScatterPlanned(s, v, static_cast<const DType*>(vec.dptr<DType>()),
                            outputs[0].dptr<DType>(), kAddTo);
    }
  });
}

}  // namespace op
}  // namespace mxnet

#ifdef __CUDACC__
#include "./matrix_op_gpu.cuh"
#endif

#endif  // MXNET_OPERATOR_TENSOR_MATRIX_OP_INL_H_
