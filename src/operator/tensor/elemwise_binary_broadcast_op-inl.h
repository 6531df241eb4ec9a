/*!
 * \file elemwise_binary_broadcast_op-inl.h
 * \brief Binary operators with NumPy broadcasting (broadcast_add, broadcast_equal, ...) and their
 *        backward ops, which reduce the output gradient over the broadcast axes.
 *
 *   (2, 3) + (3,)    -> (2, 3)          (4, 1, 5) * (6, 5) -> (4, 6, 5)
 *   (2, 3) + (4,)    -> ValueError "broadcast_add: operands could not be broadcast together ..."
 *
 * Dispatch (one place, BinaryBroadcastCompute): equal shapes take the same-shape element-wise
 * kernel of elemwise_binary_op-inl.h (a straight vectorised loop, OpenMP across cores for large
 * arrays); otherwise a BroadcastPlan merges adjacent axes that broadcast alike, and the kernel
 * walks the output row by row with a specialised inner loop (both contiguous, or one side
 * constant along the row).
 *
 * Registration: elemwise_binary_broadcast_op_basic.cc (add, sub, mul, div, mod), _extended.cc
 * (power, maximum, minimum, hypot) and _logic.cc (comparisons, logical ops), split so that
 * each unit compiles in reasonable time.
 */
#ifndef MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_BROADCAST_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_BROADCAST_OP_INL_H_

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "./elemwise_binary_op-inl.h"

namespace mxnet {
namespace op {

/*! \brief NumPy broadcasting of lhs and rhs; errors name the op and both shapes. */
inline bool BinaryBroadcastShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                                 mxnet::ShapeVector* out_attrs) {
  const mxnet::TShape& lhs = (*in_attrs)[0];
  const mxnet::TShape& rhs = (*in_attrs)[1];
  if (!mxnet::ndim_is_known(lhs) || !mxnet::ndim_is_known(rhs)) return false;
  if (lhs == rhs) {
    SHAPE_ASSIGN_CHECK(*out_attrs, 0, lhs);
    return mxnet::shape_is_known(lhs);
  }
  const int nd = std::max(lhs.ndim(), rhs.ndim());
  mxnet::TShape out(nd, -1);
  const int bl = nd - lhs.ndim();
  const int br = nd - rhs.ndim();
  for (int i = 0; i < nd; ++i) {
    const dim_t l = i >= bl ? lhs[i - bl] : 1;
    const dim_t r = i >= br ? rhs[i - br] : 1;
    if (l == -1 || r == -1) {
      if (l > 1) out[i] = l;
      if (r > 1) out[i] = r;
      continue;
    }
    if (l != r && l != 1 && r != 1) {
      MX_THROW(ValueError) << attrs.op->name
                           << ": operands could not be broadcast together with shapes " << lhs
                           << " " << rhs;
    }
    out[i] = l == 1 ? r : l;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, out);
  return mxnet::shape_is_known(lhs) && mxnet::shape_is_known(rhs) &&
         mxnet::shape_is_known((*out_attrs)[0]);
}

/*!
 * \brief Output shape and per-operand element strides (0 on broadcast axes), with size-1 axes
 *        dropped and adjacent axes merged when both operands step through them alike.
 */
struct BroadcastPlan {
  static constexpr int kMaxDim = 32;
  int ndim{0};
  index_t size{1};
  index_t shape[kMaxDim];
  index_t stride[2][kMaxDim];

  BroadcastPlan(const mxnet::TShape& out, const mxnet::TShape& a, const mxnet::TShape& b) {
    const int nd = out.ndim();
    CHECK_LE(nd, kMaxDim) << "broadcast: at most " << kMaxDim << " dimensions are supported";
    const mxnet::TShape* in[2] = {&a, &b};
    index_t raw_stride[2][kMaxDim];
    for (int k = 0; k < 2; ++k) {
      const int pad = nd - in[k]->ndim();
      index_t st = 1;
      for (int i = nd - 1; i >= 0; --i) {
        const index_t d = i >= pad ? (*in[k])[i - pad] : 1;
        raw_stride[k][i] = (d == 1) ? 0 : st;
        st *= d;
      }
    }
    for (int i = 0; i < nd; ++i) {
      const index_t d = out[i];
      size *= d;
      if (d == 1) continue;  // contributes nothing to indexing
      if (ndim > 0) {
        const int j = ndim - 1;  // try to merge the previous (outer) axis with this one
        if (raw_stride[0][i] * d == stride[0][j] && raw_stride[1][i] * d == stride[1][j]) {
          shape[j] *= d;
          stride[0][j] = raw_stride[0][i];
          stride[1][j] = raw_stride[1][i];
          continue;
        }
      }
      shape[ndim] = d;
      stride[0][ndim] = raw_stride[0][i];
      stride[1][ndim] = raw_stride[1][i];
      ++ndim;
    }
  }

  /*! \brief Offsets of both operands at output element i (one GPU thread per element). */
  MSHADOW_XINLINE void Offsets(index_t i, index_t* ia, index_t* ib) const {
    index_t r = i;
    *ia = *ib = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      const index_t c = r % shape[d];
      r /= shape[d];
      *ia += c * stride[0][d];
      *ib += c * stride[1][d];
    }
  }

  /*! \brief Offsets of both operands at output row `row` (all axes but the last). */
  void RowOffsets(index_t row, index_t* off) const {
    off[0] = off[1] = 0;
    for (int d = ndim - 2; d >= 0; --d) {
      const index_t c = row % shape[d];
      row /= shape[d];
      off[0] += c * stride[0][d];
      off[1] += c * stride[1][d];
    }
  }
};

/*!
 * \brief Walks rows [row_begin, row_end) of a plan, calling fn(out_off, a_off, b_off, n, sa, sb).
 *        Out of line: the serial and the OpenMP path of a caller share one copy of the row loops.
 */
template <typename Fn>
DMLC_NO_INLINE void ForEachRow(const BroadcastPlan& p, index_t row_begin, index_t row_end, Fn fn) {
  if (row_begin >= row_end) return;  // also keeps `% shape` below away from zero-size axes
  if (p.ndim == 0) {  // every axis has size 1
    fn(0, 0, 0, 1, 0, 0);
    return;
  }
  const int last = p.ndim - 1;
  const index_t inner = p.shape[last];
  index_t coord[BroadcastPlan::kMaxDim];
  index_t off[2];
  {
    index_t r = row_begin;
    for (int d = last - 1; d >= 0; --d) {
      coord[d] = r % p.shape[d];
      r /= p.shape[d];
    }
    p.RowOffsets(row_begin, off);
  }
  for (index_t row = row_begin; row < row_end; ++row) {
    fn(row * inner, off[0], off[1], inner, p.stride[0][last], p.stride[1][last]);
    for (int d = last - 1; d >= 0; --d) {  // increment the row counter
      off[0] += p.stride[0][d];
      off[1] += p.stride[1][d];
      if (++coord[d] < p.shape[d]) break;
      off[0] -= p.stride[0][d] * p.shape[d];
      off[1] -= p.stride[1][d] * p.shape[d];
      coord[d] = 0;
    }
  }
}

/*! \brief y[j] = OP(x0[j * sa], x1[j * sb]) for j < n: one output row, written (not added). */
template <typename OP, typename DType>
DMLC_NO_INLINE void BroadcastRow(DType* y, const DType* x0, const DType* x1, index_t n,
                                 index_t sa, index_t sb) {
  if (sa == 1 && sb == 1) {
    for (index_t j = 0; j < n; ++j) y[j] = OP::Map(x0[j], x1[j]);
  } else if (sa == 1 && sb == 0) {
    const DType v = *x1;
    for (index_t j = 0; j < n; ++j) y[j] = OP::Map(x0[j], v);
  } else if (sa == 0 && sb == 1) {
    const DType v = *x0;
    for (index_t j = 0; j < n; ++j) y[j] = OP::Map(v, x1[j]);
  } else {
    for (index_t j = 0; j < n; ++j) y[j] = OP::Map(x0[j * sa], x1[j * sb]);
  }
}

/*!
 * \brief out (req) OP(a, b) with broadcasting, parallel over output rows when large. The row
 *        loops are compiled for writing only; kAddTo adds rows through a stack buffer (as
 *        mxnet_op::LaunchWrite does).
 */
template <typename OP, typename DType>
void BroadcastForward(const BroadcastPlan& p, OpReqType req, DType* out, const DType* a,
                      const DType* b) {
  const index_t inner = p.ndim == 0 ? 1 : p.shape[p.ndim - 1];
  const index_t rows = inner == 0 ? 0 : p.size / inner;
  auto row_fn = [=](index_t o, index_t ia, index_t ib, index_t n, index_t sa, index_t sb) {
    if (req != kAddTo) {
      BroadcastRow<OP>(out + o, a + ia, b + ib, n, sa, sb);
      return;
    }
    DType buf[mxnet_op::kWriteChunk];
    for (index_t c = 0; c < n; c += mxnet_op::kWriteChunk) {
      const index_t len = std::min(mxnet_op::kWriteChunk, n - c);
      BroadcastRow<OP>(buf, a + ia + c * sa, b + ib + c * sb, len, sa, sb);
      mxnet_op::AddChunk(out + o + c, buf, len);
    }
  };
  const int nthreads = p.size >= mxnet_op::kOmpThreshold && rows > 1
                           ? std::min<index_t>(mxnet_op::MaxOmpThreads(), rows)
                           : 1;
  if (nthreads > 1) {
    const index_t chunk = (rows + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads)
    for (index_t r = 0; r < rows; r += chunk) ForEachRow(p, r, std::min(rows, r + chunk), row_fn);
  } else {
    ForEachRow(p, 0, rows, row_fn);
  }
}

namespace elemwise_kernel {

/*! \brief out[i] (req) OP(a[.], b[.]) with the operands' offsets unravelled from i (GPU). */
template <typename OP>
struct broadcast_binary {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* a, const DType* b,
                                  BroadcastPlan p, int req) {
    index_t ia, ib;
    p.Offsets(i, &ia, &ib);
    KERNEL_ASSIGN(out[i], req, OP::Map(a[ia], b[ib]));
  }
};

}  // namespace elemwise_kernel

template <typename xpu, typename OP>
void BinaryBroadcastCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& lhs = inputs[0];
  const TBlob& rhs = inputs[1];
  const TBlob& out = outputs[0];
  if (lhs.shape_ == rhs.shape_) {  // the fast path: a straight element-wise loop
    ElemwiseBinaryOp::ComputeSameShape<xpu, OP>(ctx.get_stream<xpu>(), lhs, rhs, req[0], out);
    return;
  }
  const BroadcastPlan plan(out.shape_, lhs.shape_, rhs.shape_);
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
      BroadcastForward<OP>(plan, req[0], out.dptr<DType>(), lhs.dptr<DType>(), rhs.dptr<DType>());
    } else {  // one thread per output element; the plan travels by value
      mxnet_op::Kernel<elemwise_kernel::broadcast_binary<OP>, xpu>::Launch(
          ctx.get_stream<xpu>(), plan.size, out.dptr<DType>(), lhs.dptr<DType>(),
          rhs.dptr<DType>(), plan, static_cast<int>(req[0]));
    }
  });
}

/*! \brief grad (req) acc, converting from the double accumulator. */
template <typename DType>
inline void AssignFromAcc(const std::vector<double>& acc, OpReqType req, DType* grad) {
  const index_t n = static_cast<index_t>(acc.size());
  if (req == kNullOp) return;
  if (req == kAddTo) {
    for (index_t i = 0; i < n; ++i) {
      grad[i] = static_cast<DType>(static_cast<double>(grad[i]) + acc[i]);
    }
  } else {
    for (index_t i = 0; i < n; ++i) grad[i] = static_cast<DType>(acc[i]);
  }
}

/*!
 * \brief The reduction behind BinaryBroadcastBackward, for one dtype. Output rows are split
 *        across threads when the output is large; a gradient with the output's size is
 *        accumulated in one shared buffer (each thread writes its own elements), a smaller
 *        (broadcast) one in per-thread buffers summed at the end.
 */
template <typename LOP, typename ROP, bool kUseIn, typename DType>
void BroadcastBackwardTyped(const BroadcastPlan& plan, const DType* g, const DType* a,
                            const DType* b, const std::vector<OpReqType>& req, const TBlob& lgrad,
                            const TBlob& rgrad) {
  const index_t inner = plan.ndim == 0 ? 1 : plan.shape[plan.ndim - 1];
  const index_t rows = inner == 0 ? 0 : plan.size / inner;
  const index_t gsize[2] = {req[0] == kNullOp ? 0 : static_cast<index_t>(lgrad.Size()),
                            req[1] == kNullOp ? 0 : static_cast<index_t>(rgrad.Size())};
  int nthreads = plan.size >= mxnet_op::kOmpThreshold && rows > 1
                     ? static_cast<int>(std::min<index_t>(mxnet_op::MaxOmpThreads(), rows))
                     : 1;
  // Private buffers must stay small next to the output, or the merge would dominate.
  for (int k = 0; k < 2; ++k) {
    if (gsize[k] != plan.size && gsize[k] * nthreads > plan.size) nthreads = 1;
  }
  std::vector<double> acc[2];
  std::vector<std::vector<double>> priv[2];
  for (int k = 0; k < 2; ++k) {
    acc[k].assign(gsize[k], 0.0);
    if (gsize[k] != plan.size && nthreads > 1) {
      priv[k].assign(nthreads - 1, std::vector<double>(gsize[k], 0.0));
    }
  }
  auto work = [&](int t, index_t r0, index_t r1) {
    double* la = gsize[0] == 0 ? nullptr : (priv[0].empty() || t == 0 ? acc[0].data()
                                                                       : priv[0][t - 1].data());
    double* ra = gsize[1] == 0 ? nullptr : (priv[1].empty() || t == 0 ? acc[1].data()
                                                                       : priv[1][t - 1].data());
    ForEachRow(plan, r0, r1,
               [&](index_t o, index_t ia, index_t ib, index_t n, index_t sa, index_t sb) {
      for (index_t j = 0; j < n; ++j) {
        const DType gv = g[o + j];
        const index_t pa = ia + j * sa, pb = ib + j * sb;
        if constexpr (kUseIn) {
          const DType av = a[pa], bv = b[pb];
          if (la) la[pa] += static_cast<double>(gv * LOP::Map(av, bv));
          if (ra) ra[pb] += static_cast<double>(gv * ROP::Map(av, bv));
        } else {
          if (la) la[pa] += static_cast<double>(LOP::Map(gv));
          if (ra) ra[pb] += static_cast<double>(ROP::Map(gv));
        }
      }
    });
  };
  if (nthreads > 1) {
    const index_t chunk = (rows + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads)
    for (int t = 0; t < nthreads; ++t) {
      const index_t r0 = std::min(rows, t * chunk);
      work(t, r0, std::min(rows, r0 + chunk));
    }
    for (int k = 0; k < 2; ++k) {
      for (const auto& p : priv[k]) {
        for (index_t i = 0; i < gsize[k]; ++i) acc[k][i] += p[i];
      }
    }
  } else {
    work(0, 0, rows);
  }
  if (gsize[0]) AssignFromAcc(acc[0], req[0], lgrad.dptr<DType>());
  if (gsize[1]) AssignFromAcc(acc[1], req[1], rgrad.dptr<DType>());
}

/*! \brief The GPU form of BinaryBroadcastBackward (defined at the end, CUDA compiles only). */
template <typename LOP, typename ROP, bool kUseIn>
void BinaryBroadcastBackwardGPU(const OpContext& ctx, const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs);

/*!
 * \brief Backward of a broadcasting binary op: lgrad = sum over broadcast axes of
 *        og * LOP(a, b) (or LOP(og) when !kUseIn), likewise rgrad with ROP.
 *        inputs: (ograd) or (ograd, lhs, rhs); outputs: (lgrad, rgrad) in the input shapes.
 */
template <typename xpu, typename LOP, typename ROP, bool kUseIn>
void BinaryBroadcastBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const TBlob& og = inputs[0];
  const TBlob& lgrad = outputs[0];
  const TBlob& rgrad = outputs[1];
  if (lgrad.shape_ == og.shape_ && rgrad.shape_ == og.shape_) {  // no broadcasting
    if constexpr (kUseIn) {
      ElemwiseBinaryOp::BackwardUseIn<xpu, LOP, ROP>(attrs, ctx, inputs, req, outputs);
    } else {
      ElemwiseBinaryOp::BackwardUseNone<xpu, LOP, ROP>(attrs, ctx, inputs, req, outputs);
    }
    return;
  }
  if (req[0] == kNullOp && req[1] == kNullOp) return;
  if constexpr (std::is_same<xpu, mshadow::gpu>::value) {
    BinaryBroadcastBackwardGPU<LOP, ROP, kUseIn>(ctx, inputs, req, outputs);
    return;
  }
  const BroadcastPlan plan(og.shape_, lgrad.shape_, rgrad.shape_);
  MSHADOW_TYPE_SWITCH(og.type_flag_, DType, {
    BroadcastBackwardTyped<LOP, ROP, kUseIn, DType>(
        plan, og.dptr<DType>(), kUseIn ? inputs[1].dptr<DType>() : nullptr,
        kUseIn ? inputs[2].dptr<DType>() : nullptr, req, lgrad, rgrad);
  });
}

/*!
 * \brief Shapes of the broadcast backward ops: the gradients take the forward inputs' shapes,
 *        known from (ograd, lhs, rhs) inputs, or given by the caller / graph for ograd-only ops.
 */
template <int num_inputs>
inline bool BinaryBroadcastBackwardShape(const nnvm::NodeAttrs& attrs,
                                         mxnet::ShapeVector* in_attrs,
                                         mxnet::ShapeVector* out_attrs) {
  if (num_inputs == 3) {
    SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[1]);
    SHAPE_ASSIGN_CHECK(*out_attrs, 1, (*in_attrs)[2]);
  }
  const mxnet::TShape& og = (*in_attrs)[0];
  for (int k = 0; k < 2; ++k) {
    const mxnet::TShape& s = (*out_attrs)[k];
    if (!mxnet::shape_is_known(s) || !mxnet::shape_is_known(og)) return false;
    bool ok = s.ndim() <= og.ndim();
    for (int i = 0; ok && i < s.ndim(); ++i) {
      const dim_t d = s[s.ndim() - 1 - i];
      ok = d == 1 || d == og[og.ndim() - 1 - i];
    }
    if (!ok) {
      MX_THROW(ValueError) << attrs.op->name << ": gradient " << k << " of shape " << s
                           << " does not broadcast to the output gradient's shape " << og;
    }
  }
  return true;
}

}  // namespace op
}  // namespace mxnet

/*! \brief A broadcasting binary op (lhs, rhs) -> output. */
#define MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(name)                                      \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(2)                                                                    \
      .set_num_outputs(1)                                                                   \
      .set_attr<nnvm::FListInputNames>(                                                     \
          "FListInputNames",                                                                \
          [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"lhs", "rhs"}; })    \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::BinaryBroadcastShape)       \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::BinarySameType)                \
      .set_attr<nnvm::FInplaceOption>(                                                      \
          "FInplaceOption",                                                                 \
          [](const nnvm::NodeAttrs&) {                                                      \
            return std::vector<std::pair<int, int>>{{0, 0}, {1, 0}};                        \
          })                                                                                \
      .add_argument("lhs", "NDArray-or-Symbol", "First input to the function")              \
      .add_argument("rhs", "NDArray-or-Symbol", "Second input to the function")

/*! \brief Backward of broadcast_add/sub: inputs (ograd), outputs (lgrad, rgrad). */
#define MXNET_REGISTER_BROADCAST_BWD_USE_NONE(name, LOP, ROP)                               \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(1)                                                                    \
      .set_num_outputs(2)                                                                   \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape",                                          \
                                    ::mxnet::op::BinaryBroadcastBackwardShape<1>)           \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<1, 2>)            \
      .set_attr<nnvm::FInplaceOption>(                                                      \
          "FInplaceOption",                                                                 \
          [](const nnvm::NodeAttrs&) {                                                      \
            return std::vector<std::pair<int, int>>{{0, 0}, {0, 1}};                        \
          })                                                                                \
      .set_attr<::mxnet::FCompute>(                                                         \
          "FCompute<cpu>",                                                                  \
          ::mxnet::op::BinaryBroadcastBackward<mshadow::cpu, LOP, ROP, false>)              \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")

/*! \brief Backward of the other broadcast ops: inputs (ograd, lhs, rhs), outputs (lgrad, rgrad). */
#define MXNET_REGISTER_BROADCAST_BWD_USE_IN(name, LOP, ROP)                                 \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(3)                                                                    \
      .set_num_outputs(2)                                                                   \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape",                                          \
                                    ::mxnet::op::BinaryBroadcastBackwardShape<3>)           \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<3, 2>)            \
      .set_attr<nnvm::FInplaceOption>(                                                      \
          "FInplaceOption",                                                                 \
          [](const nnvm::NodeAttrs&) { return std::vector<std::pair<int, int>>{{0, 0}}; })  \
      .set_attr<::mxnet::FCompute>(                                                         \
          "FCompute<cpu>",                                                                  \
          ::mxnet::op::BinaryBroadcastBackward<mshadow::cpu, LOP, ROP, true>)               \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")              \
      .add_argument("lhs", "NDArray-or-Symbol", "The first input")                          \
      .add_argument("rhs", "NDArray-or-Symbol", "The second input")

#ifdef __CUDACC__
#include "./broadcast_reduce_op-inl.h"  // the GPU backward sums with ReducePlanned

namespace mxnet {
namespace op {
namespace elemwise_kernel {

/*! \brief t[i] = og[i] * OP(a[.], b[.]) (kUseIn) or OP(og[i]): one gradient's terms. */
template <typename OP, bool kUseIn>
struct broadcast_grad_term {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* t, const DType* og, const DType* a,
                                  const DType* b, BroadcastPlan p) {
    if constexpr (kUseIn) {
      index_t r = i, ia = 0, ib = 0;
      for (int d = p.ndim - 1; d >= 0; --d) {
        const index_t c = r % p.shape[d];
        r /= p.shape[d];
        ia += c * p.stride[0][d];
        ib += c * p.stride[1][d];
      }
      t[i] = og[i] * OP::Map(a[ia], b[ib]);
    } else {
      t[i] = OP::Map(og[i]);
    }
  }
};

}  // namespace elemwise_kernel

/*!
 * \brief Both gradients' terms go to scratch arrays of the output's size first (a gradient may
 *        share memory with out_grad, FInplaceOption), then each is summed down to its input's
 *        shape by the GPU reduction.
 */
template <typename LOP, typename ROP, bool kUseIn>
void BinaryBroadcastBackwardGPU(const OpContext& ctx, const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  mshadow::Stream<mshadow::gpu>* s = ctx.get_stream<mshadow::gpu>();
  const TBlob& og = inputs[0];
  const index_t n = og.Size();
  const BroadcastPlan plan(og.shape_, outputs[0].shape_, outputs[1].shape_);
  MSHADOW_TYPE_SWITCH(og.type_flag_, DType, {
    const DType* g = og.dptr<DType>();
    const DType* a = kUseIn ? inputs[1].dptr<DType>() : nullptr;
    const DType* b = kUseIn ? inputs[2].dptr<DType>() : nullptr;
    reduce_gpu::Scratch terms(static_cast<size_t>(2 * n) * sizeof(DType));
    DType* t[2] = {terms.get<DType>(), terms.get<DType>() + n};
    if (req[0] != kNullOp) {
      mxnet_op::Kernel<elemwise_kernel::broadcast_grad_term<LOP, kUseIn>, mshadow::gpu>::Launch(
          s, n, t[0], g, a, b, plan);
    }
    if (req[1] != kNullOp) {
      mxnet_op::Kernel<elemwise_kernel::broadcast_grad_term<ROP, kUseIn>, mshadow::gpu>::Launch(
          s, n, t[1], g, a, b, plan);
    }
    for (int k = 0; k < 2; ++k) {
      if (req[k] == kNullOp) continue;
      mxnet::TShape small = outputs[k].shape_;
      if (small.ndim() != og.shape_.ndim()) {  // left-pad with 1s
        std::vector<dim_t> v(og.shape_.ndim() - small.ndim(), 1);
        v.insert(v.end(), small.begin(), small.end());
        small = mxnet::TShape(v.begin(), v.end());
      }
      ReducePlanned<red::sum>(s, MakeReducePlan(og.shape_, small),
                              static_cast<const DType*>(t[k]), outputs[k].dptr<DType>(), req[k]);
    }
  });
}

}  // namespace op
}  // namespace mxnet
#endif  // __CUDACC__

#endif  // MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_BROADCAST_OP_INL_H_
