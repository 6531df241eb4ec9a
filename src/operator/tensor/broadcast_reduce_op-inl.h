/*!
 * \file broadcast_reduce_op-inl.h
 * \brief Reductions (sum, mean, prod, nansum, nanprod, max, min, norm, argmax, argmin, pick)
 *        and broadcasts (broadcast_to, broadcast_like, broadcast_axis): parameters, shape
 *        inference and CPU kernels.
 *
 * A reduction is described by the input shape and the "small" shape (the input shape with
 * every reduced axis set to 1, i.e. the keepdims output). Both are folded into a ReducePlan:
 * size-1 axes dropped, neighbouring axes of the same kind (reduced / kept) merged, so a
 * reduction over axes (1, 2) of (8, 3, 4, 5) runs as (8, 12, 5) with the middle axis reduced.
 * The same plan drives broadcasting (the reverse direction: small -> big) and the gradients
 * of the reductions.
 *
 * Accumulation: float16 in float, float32 in double, integers and bool in int64 (results are
 * cast back to the output dtype).
 */
#ifndef MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mshadow_op.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

// ---------------------------------------------------------------- parameters

struct ReduceAxesParam : public dmlc::Parameter<ReduceAxesParam> {
  dmlc::optional<mxnet::TShape> axis;
  bool keepdims;
  bool exclude;
  DMLC_DECLARE_PARAMETER(ReduceAxesParam) {
    DMLC_DECLARE_FIELD(axis)
        .set_default(dmlc::optional<mxnet::TShape>())
        .describe(R"code(The axis or axes along which to perform the reduction.

      The default, `axis=()`, will compute over all elements into a
      scalar array with shape `(1,)`.

      If `axis` is int, a reduction is performed on a particular axis.

      If `axis` is a tuple of ints, a reduction is performed on all the axes
      specified in the tuple.

      If `exclude` is true, reduction will be performed on the axes that are
      NOT in axis instead.

      Negative values means indexing from right to left.)code");
    DMLC_DECLARE_FIELD(keepdims).set_default(false).describe(
        "If this is set to `True`, the reduced axes are left "
        "in the result as dimension with size one.");
    DMLC_DECLARE_FIELD(exclude).set_default(false).describe(
        "Whether to perform reduction on axis that are NOT in axis instead.");
  }
};

struct NormParam : public dmlc::Parameter<NormParam> {
  int ord;
  dmlc::optional<mxnet::TShape> axis;
  dmlc::optional<int> out_dtype;
  bool keepdims;
  DMLC_DECLARE_PARAMETER(NormParam) {
    DMLC_DECLARE_FIELD(ord).set_default(2).describe("Order of the norm. Currently ord=1 and ord=2 is supported.");
    DMLC_DECLARE_FIELD(axis)
        .set_default(dmlc::optional<mxnet::TShape>())
        .describe(R"code(The axis or axes along which to perform the reduction.
      The default, `axis=()`, will compute over all elements into a
      scalar array with shape `(1,)`.
      If `axis` is int, a reduction is performed on a particular axis.
      If `axis` is a 2-tuple, it specifies the axes that hold 2-D matrices,
      and the matrix norms of these matrices are computed.)code");
    DMLC_DECLARE_FIELD(out_dtype)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .add_enum("int64", mshadow::kInt64)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int8", mshadow::kInt8)
        .set_default(dmlc::optional<int>())
        .describe("The data type of the output.");
    DMLC_DECLARE_FIELD(keepdims).set_default(false).describe(
        "If this is set to `True`, the reduced axis is left "
        "in the result as dimension with size one.");
  }
};

struct ReduceAxisParam : public dmlc::Parameter<ReduceAxisParam> {
  dmlc::optional<int> axis;
  bool keepdims;
  DMLC_DECLARE_PARAMETER(ReduceAxisParam) {
    DMLC_DECLARE_FIELD(axis)
        .set_default(dmlc::optional<int>())
        .describe("The axis along which to perform the reduction. "
                  "Negative values means indexing from right to left. "
                  "``Requires axis to be set as int, because global reduction "
                  "is not supported yet.``");
    DMLC_DECLARE_FIELD(keepdims).set_default(false).describe(
        "If this is set to `True`, the reduced axis is left "
        "in the result as dimension with size one.");
  }
};

enum PickOpMode { kClip, kWrap };

struct PickParam : public dmlc::Parameter<PickParam> {
  dmlc::optional<int> axis;
  int mode;
  bool keepdims;
  DMLC_DECLARE_PARAMETER(PickParam) {
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>(-1)).describe(
        "int or None. The axis to picking the elements. "
        "Negative values means indexing from right to left. "
        "If is `None`, the elements in the index w.r.t the "
        "flattened input will be picked.");
    DMLC_DECLARE_FIELD(keepdims).set_default(false).describe(
        "If true, the axis where we pick the elements is left "
        "in the result as dimension with size one.");
    DMLC_DECLARE_FIELD(mode)
        .add_enum("wrap", kWrap)
        .add_enum("clip", kClip)
        .set_default(kClip)
        .describe("Specify how out-of-bound indices behave. Default is \"clip\"."
                  " \"clip\" means clip to the range. So, if all indices mentioned are too large,"
                  " they are replaced by the index that addresses the last element along an axis. "
                  " \"wrap\" means to wrap around.");
  }
};

struct BroadcastAxesParam : public dmlc::Parameter<BroadcastAxesParam> {
  mxnet::TShape axis;
  mxnet::TShape size;
  DMLC_DECLARE_PARAMETER(BroadcastAxesParam) {
    DMLC_DECLARE_FIELD(axis).set_default(mxnet::TShape(0, -1)).describe(
        "The axes to perform the broadcasting.");
    DMLC_DECLARE_FIELD(size).set_default(mxnet::TShape(0, -1)).describe(
        "Target sizes of the broadcasting axes.");
  }
};

struct BroadcastToParam : public dmlc::Parameter<BroadcastToParam> {
  mxnet::TShape shape;
  DMLC_DECLARE_PARAMETER(BroadcastToParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape(0, -1)).describe(
        "The shape of the desired array."
        " We can set the dim to zero if it's same as the original."
        " E.g `A = broadcast_to(B, shape=(10, 0, 0))` "
        "has the same meaning as `A = broadcast_axis(B, axis=0, size=10)`.");
  }
};

struct BroadcastLikeParam : public dmlc::Parameter<BroadcastLikeParam> {
  dmlc::optional<mxnet::TShape> lhs_axes;
  dmlc::optional<mxnet::TShape> rhs_axes;
  DMLC_DECLARE_PARAMETER(BroadcastLikeParam) {
    DMLC_DECLARE_FIELD(lhs_axes).set_default(dmlc::optional<mxnet::TShape>()).describe(
        "Axes to perform broadcast on in the first input array");
    DMLC_DECLARE_FIELD(rhs_axes).set_default(dmlc::optional<mxnet::TShape>()).describe(
        "Axes to copy from the second input array");
  }
};

// ---------------------------------------------------------------- axis helpers

/*! \brief Normalises a possibly negative axis of an ndim-D input; errors name op and axis. */
inline int CheckAxis(const char* op, int axis, int ndim) {
  if (!(axis < ndim && axis >= -ndim)) {
    MX_THROW(ValueError) << op << ": axis " << axis << " is out of range for an input with "
                         << ndim << " dimension(s), expected an axis in [" << -ndim << ", "
                         << ndim - 1 << "]";
  }
  return (axis + ndim) % ndim;
}

/*! \brief The output shape of a multi-axis reduction (MXNet's ReduceAxesShapeImpl). */
inline mxnet::TShape ReduceAxesShapeImpl(const char* op, const mxnet::TShape& ishape,
                                         const dmlc::optional<mxnet::TShape>& axis, bool keepdims,
                                         bool exclude) {
  if (!axis.has_value() || axis.value().ndim() <= 0) {
    return keepdims ? mxnet::TShape(ishape.ndim(), 1) : mxnet::TShape(1, 1);
  }
  std::vector<int> axes;
  for (dim_t a : axis.value()) axes.push_back(CheckAxis(op, static_cast<int>(a), ishape.ndim()));
  std::sort(axes.begin(), axes.end());
  for (size_t i = 1; i < axes.size(); ++i) {
    if (axes[i - 1] == axes[i]) {
      MX_THROW(ValueError) << op << ": reduction axes have duplicates, got axis=" << axis.value();
    }
  }
  const int nd = ishape.ndim();
  std::vector<bool> in_axes(nd, false);
  for (int a : axes) in_axes[a] = true;
  std::vector<dim_t> out;
  for (int i = 0; i < nd; ++i) {
    const bool reduced = in_axes[i] != exclude;
    if (keepdims) {
      out.push_back(reduced ? 1 : ishape[i]);
    } else if (!reduced) {
      out.push_back(ishape[i]);
    }
  }
  if (out.empty()) out.push_back(1);
  return mxnet::TShape(out.begin(), out.end());
}

/*! \brief The keepdims form of the reduction output: reduced axes become 1. */
inline mxnet::TShape ReduceSmallShape(const char* op, const mxnet::TShape& ishape,
                                      const dmlc::optional<mxnet::TShape>& axis, bool exclude) {
  return ReduceAxesShapeImpl(op, ishape, axis, true, exclude);
}

// ---------------------------------------------------------------- the plan

/*!
 * \brief A reduction big -> small (or broadcast small -> big) with size-1 axes dropped and
 *        neighbouring axes of the same kind merged. At most kMaxDim merged axes.
 */
struct ReducePlan {
  static constexpr int kMaxDim = 32;
  int ndim = 0;
  index_t dims[kMaxDim];
  bool reduced[kMaxDim];
  index_t big_size = 1;    // elements of the big (input) shape
  index_t small_size = 1;  // elements of the small (output) shape
  index_t red_size = 1;    // elements reduced into each output
};

/*! \brief Builds the plan; `small` must have big's ndim with each dim equal to big's or 1. */
inline ReducePlan MakeReducePlan(const mxnet::TShape& big, const mxnet::TShape& small) {
  CHECK_EQ(big.ndim(), small.ndim()) << "internal error: reduction shapes " << big << " and "
                                     << small << " differ in ndim";
  ReducePlan p;
  for (int i = 0; i < big.ndim(); ++i) {
    const index_t b = big[i];
    p.big_size *= b;
    p.small_size *= small[i];
    if (b == 1) continue;
    const bool red = small[i] != b;
    if (red) {
      CHECK_EQ(small[i], 1) << "internal error: cannot reduce " << big << " to " << small;
      p.red_size *= b;
    }
    if (p.ndim > 0 && p.reduced[p.ndim - 1] == red) {
      p.dims[p.ndim - 1] *= b;
    } else {
      CHECK_LT(p.ndim, ReducePlan::kMaxDim) << "reduction over too many dimensions";
      p.dims[p.ndim] = b;
      p.reduced[p.ndim] = red;
      ++p.ndim;
    }
  }
  if (p.big_size == 0) p.red_size = p.small_size == 0 ? 1 : 0;
  return p;
}

/*! \brief Iterates coordinates of a set of axes, tracking an offset (strides may be 0). */
struct Odometer {
  int n = 0;
  index_t size[ReducePlan::kMaxDim];
  index_t stride[ReducePlan::kMaxDim];
  index_t coord[ReducePlan::kMaxDim];
  index_t offset = 0;
  void Add(index_t sz, index_t st) {
    size[n] = sz;
    stride[n] = st;
    coord[n] = 0;
    ++n;
  }
  /*! \brief Jump to flat position idx (row-major over the added axes). */
  void Seek(index_t idx) {
    offset = 0;
    for (int d = n - 1; d >= 0; --d) {
      coord[d] = idx % size[d];
      idx /= size[d];
      offset += coord[d] * stride[d];
    }
  }
  void Next() {
    for (int d = n - 1; d >= 0; --d) {
      offset += stride[d];
      if (++coord[d] < size[d]) return;
      offset -= stride[d] * size[d];
      coord[d] = 0;
    }
  }
};

// ---------------------------------------------------------------- reducers

/*! \brief Accumulation type: float for half, double for float, int64 for integers and bool. */
template <typename DType>
struct ReduceAccType {
  using type = typename std::conditional<std::is_floating_point<DType>::value, double,
                                         int64_t>::type;
};
template <>
struct ReduceAccType<mshadow::half::half_t> {
  using type = float;
};

template <typename A>
MSHADOW_XINLINE bool IsNanAcc(A x) {
  if constexpr (std::is_floating_point<A>::value) {
    return std::isnan(x);
  } else {
    return false;
  }
}

template <typename A>
MSHADOW_XINLINE A LowestAcc() {
  return std::numeric_limits<A>::has_infinity ? -std::numeric_limits<A>::infinity()
                                              : std::numeric_limits<A>::lowest();
}
template <typename A>
MSHADOW_XINLINE A HighestAcc() {
  return std::numeric_limits<A>::has_infinity ? std::numeric_limits<A>::infinity()
                                              : std::numeric_limits<A>::max();
}

namespace red {
struct sum {
  template <typename A> MSHADOW_XINLINE static A Init() { return A(0); }
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) { acc += x; }  // NOLINT(*)
  template <typename A> MSHADOW_XINLINE static void Merge(A& acc, A x) { acc += x; }   // NOLINT(*)
  template <typename A> MSHADOW_XINLINE static A Finalize(A acc, index_t) { return acc; }
};
struct mean : sum {
  template <typename A> MSHADOW_XINLINE static A Finalize(A acc, index_t n) {
    if (n) return acc / A(n);
    if constexpr (std::is_floating_point<A>::value) return A(NAN);
    return A(0);
  }
};
struct prod {
  template <typename A> MSHADOW_XINLINE static A Init() { return A(1); }
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) { acc *= x; }  // NOLINT(*)
  template <typename A> MSHADOW_XINLINE static void Merge(A& acc, A x) { acc *= x; }   // NOLINT(*)
  template <typename A> MSHADOW_XINLINE static A Finalize(A acc, index_t) { return acc; }
};
struct nansum : sum {
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) {  // NOLINT(*)
    if (!IsNanAcc(x)) acc += x;
  }
};
struct nanprod : prod {
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) {  // NOLINT(*)
    if (!IsNanAcc(x)) acc *= x;
  }
};
/*! \brief max, propagating NaN. */
struct maximum {
  template <typename A> MSHADOW_XINLINE static A Init() { return LowestAcc<A>(); }
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) {  // NOLINT(*)
    if (!IsNanAcc(acc) && !(acc >= x)) acc = x;
  }
  template <typename A> MSHADOW_XINLINE static void Merge(A& acc, A x) { Reduce(acc, x); }  // NOLINT(*)
  template <typename A> MSHADOW_XINLINE static A Finalize(A acc, index_t) { return acc; }
};
struct minimum {
  template <typename A> MSHADOW_XINLINE static A Init() { return HighestAcc<A>(); }
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) {  // NOLINT(*)
    if (!IsNanAcc(acc) && !(acc <= x)) acc = x;
  }
  template <typename A> MSHADOW_XINLINE static void Merge(A& acc, A x) { Reduce(acc, x); }  // NOLINT(*)
  template <typename A> MSHADOW_XINLINE static A Finalize(A acc, index_t) { return acc; }
};
/*! \brief L1 norm: sum of |x|. */
struct nrm1 : sum {
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) { acc += x < A(0) ? -x : x; }  // NOLINT(*)
};
/*! \brief L2 norm: sqrt of the sum of squares. */
struct nrm2 : sum {
  template <typename A> MSHADOW_XINLINE static void Reduce(A& acc, A x) { acc += x * x; }  // NOLINT(*)
  template <typename A> MSHADOW_XINLINE static A Finalize(A acc, index_t) {
    return static_cast<A>(std::sqrt(static_cast<double>(acc)));
  }
};
}  // namespace red

// ---------------------------------------------------------------- reduce kernel

/*!
 * \brief acc = Reducer over x[0, L): eight independent accumulators (merged at the end) break
 *        the loop-carried dependency so long contiguous runs pipeline / vectorise.
 */
template <typename Reducer, typename A, typename DType>
inline void ReduceRun(A* acc, const DType* x, index_t L) {
  if (L < 64) {
    for (index_t l = 0; l < L; ++l) Reducer::Reduce(*acc, static_cast<A>(x[l]));
    return;
  }
  A part[8];
  for (int k = 0; k < 8; ++k) part[k] = Reducer::template Init<A>();
  index_t l = 0;
  for (; l + 8 <= L; l += 8) {
    for (int k = 0; k < 8; ++k) Reducer::Reduce(part[k], static_cast<A>(x[l + k]));
  }
  for (; l < L; ++l) Reducer::Reduce(part[0], static_cast<A>(x[l]));
  for (int k = 0; k < 8; ++k) Reducer::Merge(*acc, part[k]);
}

/*!
 * \brief The typed loops of one reduction (reducer, input dtype, output dtype). ReduceDriver
 *        (broadcast_reduce_driver.cc, compiled once) walks the plan, splits the work among
 *        threads and owns the accumulator buffers; it calls these for the arithmetic. So a
 *        reduction compiles a handful of short loops instead of the whole driver per
 *        (reducer, dtype) pair.
 */
struct ReduceKernels {
  size_t acc_bytes, in_bytes, out_bytes;
  /*! \brief acc[0, n) = Init. */
  void (*init)(void* acc, index_t n);
  /*! \brief acc[0, n) (+)= x[0, n): n outputs from one input element each. */
  void (*rows)(void* acc, const void* x, index_t n);
  /*! \brief acc[0] (+)= x[0, n): one contiguous reduced run. */
  void (*run)(void* acc, const void* x, index_t n);
  /*!
   * \brief `count` reduced runs from base + ro->offset on (advancing ro): I contiguous outputs
   *        per run when the inner axis is kept, else one output over L contiguous inputs.
   */
  void (*runs)(void* acc, const void* base, Odometer* ro, index_t count, index_t I, index_t L,
               bool inner_kept);
  /*! \brief acc[0, n) merged with part[0, n) (per-thread partial results). */
  void (*merge)(void* acc, const void* part, index_t n);
  /*! \brief out[0, n) (req) Finalize(acc[0, n)) converted to the output dtype. */
  void (*store)(const void* acc, index_t n, void* out, OpReqType req, index_t red_size);
};

namespace reduce_kernel {

template <typename Reducer, typename A>
void Init(void* acc, index_t n) {
  A* a = static_cast<A*>(acc);
  for (index_t i = 0; i < n; ++i) a[i] = Reducer::template Init<A>();
}

template <typename Reducer, typename A, typename DType>
void Rows(void* acc, const void* x, index_t n) {
  A* a = static_cast<A*>(acc);
  const DType* v = static_cast<const DType*>(x);
  for (index_t i = 0; i < n; ++i) Reducer::Reduce(a[i], static_cast<A>(v[i]));
}

template <typename Reducer, typename A, typename DType>
void Run(void* acc, const void* x, index_t n) {
  ReduceRun<Reducer>(static_cast<A*>(acc), static_cast<const DType*>(x), n);
}

template <typename Reducer, typename A, typename DType>
void Runs(void* acc, const void* base, Odometer* ro, index_t count, index_t I, index_t L,
          bool inner_kept) {
  A* a = static_cast<A*>(acc);
  const DType* b = static_cast<const DType*>(base);
  for (index_t r = 0; r < count; ++r, ro->Next()) {
    const DType* x = b + ro->offset;
    if (inner_kept) {
      for (index_t i = 0; i < I; ++i) Reducer::Reduce(a[i], static_cast<A>(x[i]));
    } else {
      ReduceRun<Reducer>(a, x, L);
    }
  }
}

template <typename Reducer, typename A>
void Merge(void* acc, const void* part, index_t n) {
  A* a = static_cast<A*>(acc);
  const A* p = static_cast<const A*>(part);
  for (index_t i = 0; i < n; ++i) Reducer::Merge(a[i], p[i]);
}

template <typename Reducer, typename A, typename OType>
void Store(const void* acc, index_t n, void* out, OpReqType req, index_t red_size) {
  const A* a = static_cast<const A*>(acc);
  OType* o = static_cast<OType*>(out);
  for (index_t i = 0; i < n; ++i) {
    const OType v = static_cast<OType>(Reducer::template Finalize<A>(a[i], red_size));
    if (req == kAddTo) {
      o[i] = static_cast<OType>(static_cast<A>(o[i]) + static_cast<A>(v));
    } else {
      o[i] = v;
    }
  }
}

}  // namespace reduce_kernel

template <typename Reducer, typename DType, typename OType>
inline constexpr ReduceKernels kReduceKernels = {
    sizeof(typename ReduceAccType<DType>::type), sizeof(DType), sizeof(OType),
    &reduce_kernel::Init<Reducer, typename ReduceAccType<DType>::type>,
    &reduce_kernel::Rows<Reducer, typename ReduceAccType<DType>::type, DType>,
    &reduce_kernel::Run<Reducer, typename ReduceAccType<DType>::type, DType>,
    &reduce_kernel::Runs<Reducer, typename ReduceAccType<DType>::type, DType>,
    &reduce_kernel::Merge<Reducer, typename ReduceAccType<DType>::type>,
    &reduce_kernel::Store<Reducer, typename ReduceAccType<DType>::type, OType>};

/*! \brief out (req) = the reduction `k` of `in` over plan p (broadcast_reduce_driver.cc). */
void ReduceDriver(const ReducePlan& p, const void* in, void* out, OpReqType req,
                  const ReduceKernels& k);

/*!
 * \brief out (req) = Reducer over the reduced axes of `in`, following plan p.
 *        DType is the input type, OType the output type.
 */
template <typename Reducer, typename DType, typename OType>
void ReduceWithPlan(const ReducePlan& p, const DType* in, OType* out, OpReqType req) {
  ReduceDriver(p, in, out, req, kReduceKernels<Reducer, DType, OType>);
}

/*! \brief out[i] (req) = OType(acc[i]): the store step of ReduceWithPlan, as its own pass. */
template <typename A, typename OType>
void StoreReduced(const A* acc, index_t n, OType* out, OpReqType req) {
  const bool add = req == kAddTo;
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
  for (index_t i = 0; i < n; ++i) {
    const OType v = static_cast<OType>(acc[i]);
    out[i] = add ? static_cast<OType>(static_cast<A>(out[i]) + static_cast<A>(v)) : v;
  }
}

/*!
 * \brief ReduceWithPlan into an output of any dtype, with the same results. A differing output
 *        dtype is reduced into the accumulation type first and then cast, so each reducer is
 *        compiled once per input dtype instead of once per (input, output) dtype pair.
 */
template <typename Reducer, typename DType>
void ReduceWithPlanTo(const ReducePlan& p, const DType* in, const TBlob& out, OpReqType req) {
  using A = typename ReduceAccType<DType>::type;
  if (out.type_flag_ == mshadow::DataType<DType>::kFlag) {
    ReduceWithPlan<Reducer>(p, in, out.dptr<DType>(), req);
    return;
  }
  if (req == kNullOp || p.small_size == 0) return;
  std::vector<A> acc(p.small_size);
  ReduceWithPlan<Reducer>(p, in, acc.data(), kWriteTo);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out.type_flag_, OType, {
    StoreReduced(acc.data(), p.small_size, out.dptr<OType>(), req);
  });
}

// ---------------------------------------------------------------- broadcast iteration

/*!
 * \brief Calls f(big_index, small_index) for every element of the big shape of plan p (the
 *        small index is the broadcast source). Parallel over chunks of the big shape; within a
 *        chunk indices advance in row-major order.
 */
template <typename F>
void ForEachBroadcast(const ReducePlan& p, F f) {
  if (p.big_size == 0) return;
  if (p.ndim == 0) {
    f(index_t(0), index_t(0));
    return;
  }
  // Small-shape strides of each merged axis (0 for broadcast axes).
  index_t sstride[ReducePlan::kMaxDim];
  index_t s = 1;
  for (int d = p.ndim - 1; d >= 0; --d) {
    sstride[d] = p.reduced[d] ? 0 : s;
    if (!p.reduced[d]) s *= p.dims[d];
  }
  Odometer outer;
  for (int d = 0; d < p.ndim - 1; ++d) outer.Add(p.dims[d], sstride[d]);
  const index_t inner = p.dims[p.ndim - 1];
  const index_t istride = sstride[p.ndim - 1];
  const index_t rows = p.big_size / inner;
  const int nthreads = p.big_size >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
  const index_t chunk = (rows + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (int t = 0; t < nthreads; ++t) {
    const index_t r0 = std::min(rows, t * chunk), r1 = std::min(rows, r0 + chunk);
    if (r0 >= r1) continue;
    Odometer o = outer;
    o.Seek(r0);
    for (index_t r = r0; r < r1; ++r, o.Next()) {
      const index_t bbase = r * inner;
      if (istride == 0) {
        for (index_t i = 0; i < inner; ++i) f(bbase + i, o.offset);
      } else {
        for (index_t i = 0; i < inner; ++i) f(bbase + i, o.offset + i);
      }
    }
  }
}

/*! \brief out (req) = broadcast of `in` (small shape) to out's (big) shape. */
template <typename DType>
void BroadcastWithPlan(const ReducePlan& p, const DType* in, DType* out, OpReqType req) {
  if (req == kNullOp) return;
  if (req == kAddTo) {
    ForEachBroadcast(p, [&](index_t b, index_t s) { out[b] += in[s]; });
  } else {
    ForEachBroadcast(p, [&](index_t b, index_t s) { out[b] = in[s]; });
  }
}

// ---------------------------------------------------------------- device forms

/*!
 * \brief The drivers by device: the CPU forms call the loops above, the GPU forms (same reducers
 *        and gradient maps) live in broadcast_reduce_gpu.cuh and exist in CUDA compiles only.
 */
template <typename Reducer, typename DType, typename OType>
inline void ReducePlanned(mshadow::Stream<mshadow::cpu>*, const ReducePlan& p, const DType* in,
                          OType* out, OpReqType req) {
  ReduceWithPlan<Reducer>(p, in, out, req);
}
template <typename Reducer, typename DType, typename OType>
void ReducePlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p, const DType* in,
                   OType* out, OpReqType req);

template <typename DType>
inline void BroadcastPlanned(mshadow::Stream<mshadow::cpu>*, const ReducePlan& p, const DType* in,
                             DType* out, OpReqType req) {
  BroadcastWithPlan(p, in, out, req);
}
template <typename DType>
void BroadcastPlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p, const DType* in,
                      DType* out, OpReqType req);

/*! \brief out[b] (req) = in[small(b)] * scale, in the accumulation type A. */
template <typename DType, typename A>
inline void BroadcastScaledPlanned(mshadow::Stream<mshadow::cpu>*, const ReducePlan& p,
                                   const DType* in, DType* out, A scale, OpReqType req) {
  if (req == kNullOp) return;
  const bool add = req == kAddTo;
  ForEachBroadcast(p, [&](index_t b, index_t s) {
    const A v = static_cast<A>(in[s]) * scale;
    out[b] = add ? static_cast<DType>(static_cast<A>(out[b]) + v) : static_cast<DType>(v);
  });
}
template <typename DType, typename A>
void BroadcastScaledPlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p,
                            const DType* in, DType* out, A scale, OpReqType req);

// ---------------------------------------------------------------- inference

inline bool ReduceAxesShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                            mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  const ReduceAxesParam& param = nnvm::get<ReduceAxesParam>(attrs.parsed);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0,
                     ReduceAxesShapeImpl(attrs.op->name.c_str(), ishape, param.axis,
                                         param.keepdims, param.exclude));
  return shape_is_known(out_attrs->at(0));
}

/*! \brief Backward ops with (ograd, data, out) inputs: igrad has data's shape and type. */
inline bool ReduceBackwardInOutShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                                     mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
}
inline bool ReduceBackwardInOutType(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                    std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return (*out)[0] != -1;
}

inline bool NormShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                      mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  const NormParam& param = nnvm::get<NormParam>(attrs.parsed);
  if (param.axis.has_value() && param.axis.value().ndim() > 2) {
    MX_THROW(ValueError) << "norm: expected axis with at most 2 entries, got axis="
                         << param.axis.value();
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0,
                     ReduceAxesShapeImpl("norm", ishape, param.axis, param.keepdims, false));
  return shape_is_known(out_attrs->at(0));
}

inline bool NormType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                     std::vector<int>* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const NormParam& param = nnvm::get<NormParam>(attrs.parsed);
  if (param.out_dtype.has_value()) {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, param.out_dtype.value());
    return (*in_attrs)[0] != -1;
  }
  return ElemwiseType<1, 1>(attrs, in_attrs, out_attrs);
}

/*! \brief Output shape of argmax/argmin/argmax_channel (MXNet's ReduceAxisShapeImpl). */
inline mxnet::TShape ReduceAxisShapeImpl(const char* op, const mxnet::TShape& ishape,
                                         const dmlc::optional<int>& axis, bool keepdims) {
  if (!axis.has_value() || ishape.ndim() == 1) {
    if (axis.has_value()) CheckAxis(op, axis.value(), ishape.ndim());
    return keepdims ? mxnet::TShape(ishape.ndim(), 1) : mxnet::TShape(1, 1);
  }
  const int a = CheckAxis(op, axis.value(), ishape.ndim());
  if (keepdims) {
    mxnet::TShape oshape = ishape;
    oshape[a] = 1;
    return oshape;
  }
  std::vector<dim_t> out;
  for (int i = 0; i < ishape.ndim(); ++i) {
    if (i != a) out.push_back(ishape[i]);
  }
  return mxnet::TShape(out.begin(), out.end());
}

inline bool ReduceAxisShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                            mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  if (ishape.ndim() == 0) {
    MX_THROW(ValueError) << attrs.op->name << ": expected an input with at least 1 dimension, got "
                         << ishape;
  }
  const ReduceAxisParam& param = nnvm::get<ReduceAxisParam>(attrs.parsed);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0,
                     ReduceAxisShapeImpl(attrs.op->name.c_str(), ishape, param.axis,
                                         param.keepdims));
  return shape_is_known(out_attrs->at(0));
}

// ---------------------------------------------------------------- compute: reductions

/*! \brief The keepdims-form output shape of a ReduceAxesParam reduction of `ishape`. */
inline mxnet::TShape ReduceSmallFromParam(const nnvm::NodeAttrs& attrs,
                                          const mxnet::TShape& ishape) {
  const ReduceAxesParam& param = nnvm::get<ReduceAxesParam>(attrs.parsed);
  return ReduceSmallShape(attrs.op->name.c_str(), ishape, param.axis, param.exclude);
}

template <typename xpu, typename Reducer>
void ReduceAxesCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  const ReducePlan p = MakeReducePlan(in.shape_, ReduceSmallFromParam(attrs, in.shape_));
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    ReducePlanned<Reducer>(ctx.get_stream<xpu>(), p, in.dptr<DType>(), out.dptr<DType>(), req[0]);
  });
}

/*! \brief Gradient of sum/mean: broadcast the output gradient (divided by n for mean). */
template <typename xpu, bool normalize>
void ReduceAxesBackwardUseNone(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  const TBlob& ograd = inputs[0];
  const TBlob& igrad = outputs[0];
  const ReducePlan p = MakeReducePlan(igrad.shape_, ReduceSmallFromParam(attrs, igrad.shape_));
  if (req[0] == kNullOp) return;
  MSHADOW_TYPE_SWITCH(igrad.type_flag_, DType, {
    if (!normalize) {  // a plain copy, exact for every dtype
      BroadcastPlanned(ctx.get_stream<xpu>(), p, ograd.dptr<DType>(), igrad.dptr<DType>(), req[0]);
    } else {
      using A = typename mshadow_op::AccType<DType>::type;
      const A scale = p.red_size > 0 ? A(1) / A(p.red_size) : A(1);
      BroadcastScaledPlanned(ctx.get_stream<xpu>(), p, ograd.dptr<DType>(), igrad.dptr<DType>(),
                             scale, req[0]);
    }
  });
}

/*! \brief d out / d in of one element, given in and the reduced out. */
namespace red_grad {
struct prod {  // out / in
  template <typename A> MSHADOW_XINLINE static A Map(A in, A out) { return out / in; }
};
struct eq {  // max/min: 1 where the input is the extremum
  template <typename A> MSHADOW_XINLINE static A Map(A in, A out) { return in == out ? A(1) : A(0); }
};
struct nansum {
  template <typename A> MSHADOW_XINLINE static A Map(A in, A) { return IsNanAcc(in) ? A(0) : A(1); }
};
struct nanprod {
  template <typename A> MSHADOW_XINLINE static A Map(A in, A out) { return IsNanAcc(in) ? A(0) : out / in; }
};
struct nrm1 {
  template <typename A> MSHADOW_XINLINE static A Map(A in, A) {
    return in > A(0) ? A(1) : (in < A(0) ? A(-1) : A(0));
  }
};
struct nrm2 {
  template <typename A> MSHADOW_XINLINE static A Map(A in, A out) { return out == A(0) ? A(0) : in / out; }
};
}  // namespace red_grad

/*!
 * \brief Gradient using input and output: igrad = bcast(ograd) * GradOp(in, bcast(out)).
 *        inputs: ograd, data, out (the reduction result); small shape from the output.
 */
template <typename GradOp, typename DType>
inline void ReduceBackwardUseInOutPlanned(mshadow::Stream<mshadow::cpu>*, const ReducePlan& p,
                                          const DType* g, const DType* x, const DType* y,
                                          DType* o, OpReqType req) {
  using A = typename mshadow_op::AccType<DType>::type;
  const bool add = req == kAddTo;
  ForEachBroadcast(p, [&](index_t b, index_t s) {
    const A v = static_cast<A>(g[s]) * GradOp::Map(static_cast<A>(x[b]), static_cast<A>(y[s]));
    o[b] = common::FromFloat<DType>(add ? static_cast<A>(o[b]) + v : v);
  });
}
template <typename GradOp, typename DType>
void ReduceBackwardUseInOutPlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p,
                                   const DType* g, const DType* x, const DType* y, DType* o,
                                   OpReqType req);

template <typename GradOp, typename xpu>
void ReduceBackwardUseInOutImpl(mshadow::Stream<xpu>* s, const ReducePlan& p, const TBlob& ograd,
                                const TBlob& data, const TBlob& out, OpReqType req,
                                const TBlob& igrad) {
  if (req == kNullOp) return;
  MSHADOW_TYPE_SWITCH(igrad.type_flag_, DType, {
    ReduceBackwardUseInOutPlanned<GradOp>(s, p, ograd.dptr<DType>(), data.dptr<DType>(),
                                          out.dptr<DType>(), igrad.dptr<DType>(), req);
  });
}

template <typename xpu, typename GradOp>
void ReduceAxesBackwardUseInOut(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[1];
  const ReducePlan p = MakeReducePlan(data.shape_, ReduceSmallFromParam(attrs, data.shape_));
  ReduceBackwardUseInOutImpl<GradOp>(ctx.get_stream<xpu>(), p, inputs[0], data, inputs[2], req[0],
                                     outputs[0]);
}

// ---------------------------------------------------------------- norm

template <typename Reducer, typename DType>
inline void ReducePlannedTo(mshadow::Stream<mshadow::cpu>*, const ReducePlan& p, const DType* in,
                            const TBlob& out, OpReqType req) {
  ReduceWithPlanTo<Reducer>(p, in, out, req);
}
template <typename Reducer, typename DType>
void ReducePlannedTo(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p, const DType* in,
                     const TBlob& out, OpReqType req);

inline mxnet::TShape NormSmall(const NormParam& param, const mxnet::TShape& ishape) {
  return ReduceSmallShape("norm", ishape, param.axis, false);
}

template <typename xpu>
void NormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const NormParam& param = nnvm::get<NormParam>(attrs.parsed);
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  const ReducePlan p = MakeReducePlan(in.shape_, NormSmall(param, in.shape_));
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    if (param.ord == 1) {
      ReducePlannedTo<red::nrm1>(ctx.get_stream<xpu>(), p, in.dptr<DType>(), out, req[0]);
    } else {
      ReducePlannedTo<red::nrm2>(ctx.get_stream<xpu>(), p, in.dptr<DType>(), out, req[0]);
    }
  });
}

/*! \brief inputs: ograd, data, out (the norm). */
template <typename xpu>
void NormBackwardCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const NormParam& param = nnvm::get<NormParam>(attrs.parsed);
  const TBlob& data = inputs[1];
  const ReducePlan p = MakeReducePlan(data.shape_, NormSmall(param, data.shape_));
  if (inputs[0].type_flag_ != data.type_flag_ || inputs[2].type_flag_ != data.type_flag_) {
    MX_THROW(TypeError) << "norm backward: expected the output dtype ("
                        << mshadow::dtype_string(inputs[2].type_flag_)
                        << ") to equal the input dtype ("
                        << mshadow::dtype_string(data.type_flag_)
                        << "); gradients of norm with out_dtype are not supported";
  }
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  if (param.ord == 1) {
    ReduceBackwardUseInOutImpl<red_grad::nrm1>(s, p, inputs[0], data, inputs[2], req[0],
                                               outputs[0]);
  } else {
    ReduceBackwardUseInOutImpl<red_grad::nrm2>(s, p, inputs[0], data, inputs[2], req[0],
                                               outputs[0]);
  }
}

// ---------------------------------------------------------------- broadcast shapes

inline bool BroadcastAxesShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                               mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  if (!ndim_is_known((*in_attrs)[0])) return false;
  const BroadcastAxesParam& param = nnvm::get<BroadcastAxesParam>(attrs.parsed);
  if (param.axis.ndim() != param.size.ndim()) {
    MX_THROW(ValueError) << "broadcast_axis: expected as many sizes as axes, got axis="
                         << param.axis << " and size=" << param.size;
  }
  mxnet::TShape ret = (*in_attrs)[0];
  for (int i = 0; i < param.axis.ndim(); ++i) {
    const int a = CheckAxis("broadcast_axis", static_cast<int>(param.axis[i]), ret.ndim());
    if (ret[a] != 1) {
      MX_THROW(ValueError) << "broadcast_axis: axis " << param.axis[i]
                           << " must have size 1 to be broadcast, got input shape "
                           << (*in_attrs)[0];
    }
    ret[a] = param.size[i];
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, ret);
  return shape_is_known(ret);
}

inline bool BroadcastToShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                             mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  const BroadcastToParam& param = nnvm::get<BroadcastToParam>(attrs.parsed);
  if (param.shape.ndim() != ishape.ndim()) {
    MX_THROW(ValueError) << "broadcast_to: operand of shape " << ishape
                         << " cannot be broadcasted to " << param.shape
                         << " (expected a target shape with " << ishape.ndim() << " dims)";
  }
  mxnet::TShape oshape = param.shape;
  for (int i = 0; i < ishape.ndim(); ++i) {
    if (oshape[i] != 0) {
      if (ishape[i] != oshape[i] && ishape[i] != 1) {
        MX_THROW(ValueError) << "broadcast_to: array cannot be broadcasted from " << ishape
                             << " to " << param.shape << " (dimension " << i << ")";
      }
    } else {
      oshape[i] = ishape[i];
    }
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, oshape);
  return shape_is_known(oshape);
}

inline bool BroadcastLikeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                               mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& lhs = (*in_attrs)[0];
  const mxnet::TShape& rhs = (*in_attrs)[1];
  if (!ndim_is_known(lhs) || !ndim_is_known(rhs)) return false;
  const BroadcastLikeParam& param = nnvm::get<BroadcastLikeParam>(attrs.parsed);
  mxnet::TShape oshape;
  if (!param.lhs_axes.has_value() && !param.rhs_axes.has_value()) {
    if (lhs.ndim() != rhs.ndim()) {
      MX_THROW(ValueError) << "broadcast_like: operand of shape " << lhs
                           << " cannot be broadcasted to " << rhs
                           << " (expected the same number of dims)";
    }
    oshape = rhs;
    for (int i = 0; i < lhs.ndim(); ++i) {
      if (rhs[i] != -1 && lhs[i] != rhs[i] && lhs[i] != 1) {
        MX_THROW(ValueError) << "broadcast_like: array cannot be broadcasted from " << lhs
                             << " to " << rhs << " (dimension " << i << ")";
      }
    }
  } else {
    if (!param.lhs_axes.has_value() || !param.rhs_axes.has_value() ||
        param.lhs_axes.value().ndim() != param.rhs_axes.value().ndim()) {
      MX_THROW(ValueError) << "broadcast_like: expected lhs_axes and rhs_axes of the same "
                              "length, got lhs_axes="
                           << param.lhs_axes << " and rhs_axes=" << param.rhs_axes;
    }
    oshape = lhs;
    const mxnet::TShape& la = param.lhs_axes.value();
    const mxnet::TShape& ra = param.rhs_axes.value();
    for (int i = 0; i < la.ndim(); ++i) {
      const int l = CheckAxis("broadcast_like (lhs_axes)", static_cast<int>(la[i]), lhs.ndim());
      const int r = CheckAxis("broadcast_like (rhs_axes)", static_cast<int>(ra[i]), rhs.ndim());
      if (lhs[l] != 1 && lhs[l] != rhs[r]) {
        MX_THROW(ValueError) << "broadcast_like: axis " << la[i] << " of lhs " << lhs
                             << " must be 1 to be broadcast to " << rhs[r];
      }
      oshape[l] = rhs[r];
    }
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, oshape);
  return shape_is_known(lhs) && shape_is_known(oshape);
}

/*! \brief broadcast_to / broadcast_axis / broadcast_like forward: input 0 to output 0. */
template <typename xpu>
void BroadcastCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  const ReducePlan p = MakeReducePlan(out.shape_, in.shape_);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out.type_flag_, DType, {
    BroadcastPlanned(ctx.get_stream<xpu>(), p, in.dptr<DType>(), out.dptr<DType>(), req[0]);
  });
}

/*! \brief _broadcast_backward: sum the gradient (input 0) down to the output's shape. */
template <typename xpu>
void BroadcastBackwardCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  mxnet::TShape small = out.shape_;
  if (small.ndim() != in.shape_.ndim()) {  // left-pad with 1s
    std::vector<dim_t> v(in.shape_.ndim() - small.ndim(), 1);
    v.insert(v.end(), small.begin(), small.end());
    small = mxnet::TShape(v.begin(), v.end());
  }
  const ReducePlan p = MakeReducePlan(in.shape_, small);
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    ReducePlanned<red::sum>(ctx.get_stream<xpu>(), p, in.dptr<DType>(), out.dptr<DType>(),
                            req[0]);
  });
}

}  // namespace op
}  // namespace mxnet

#ifdef __CUDACC__
#include "./broadcast_reduce_gpu.cuh"
#endif

#endif  // MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_OP_INL_H_
