/*!
 * \file broadcast_reduce_op_index-inl.h
 * \brief argmax / argmin and pick (and its gradient) on either device: one functor per output
 *        element, run by Kernel<OP, xpu> (argmax keeps a cache-friendly CPU loop). The
 *        registrations are in broadcast_reduce_op_index.cc.
 */
#ifndef MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_OP_INDEX_INL_H_
#define MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_OP_INDEX_INL_H_

#include <type_traits>
#include <vector>

#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

/*! \brief (outer, K, inner) of `shape` around `axis` (already normalised). */
inline void AxisSplit(const mxnet::TShape& shape, int axis, index_t* outer, index_t* k,
                      index_t* inner) {
  *outer = 1;
  *inner = 1;
  for (int i = 0; i < axis; ++i) *outer *= shape[i];
  *k = shape[axis];
  for (int i = axis + 1; i < shape.ndim(); ++i) *inner *= shape[i];
}

inline void PickSplit(const PickParam& param, const mxnet::TShape& dshape, index_t* outer,
                      index_t* k, index_t* inner) {
  AxisSplit(dshape, CheckAxis("pick", param.axis.value(), dshape.ndim()), outer, k, inner);
}

/*!
 * \brief out[t] (req) = index of the extremum along k for output t = (o, i): first
 *        occurrence, NaN wins (numpy). One GPU thread per output (ArgExtremum on the CPU).
 */
template <bool is_max>
struct arg_extremum {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* in, DType* out, int req, index_t k,
                                  index_t inner) {
    using A = typename ReduceAccType<DType>::type;
    const DType* base = in + (t / inner) * k * inner + t % inner;
    A best = static_cast<A>(base[0]);
    index_t idx = 0;
    if (!IsNanAcc(best)) {
      for (index_t j = 1; j < k; ++j) {
        const A v = static_cast<A>(base[j * inner]);
        if (IsNanAcc(v)) {
          idx = j;
          break;
        }
        if (is_max ? v > best : v < best) {
          best = v;
          idx = j;
        }
      }
    }
    KERNEL_ASSIGN(out[t], req, static_cast<DType>(idx));
  }
};

/*! \brief Index of the extremum along the middle axis; first occurrence, NaN wins (numpy). */
template <bool is_max, typename DType>
inline void ArgExtremum(const DType* in, DType* out, OpReqType req, index_t outer, index_t k,
                 index_t inner) {
  using A = typename ReduceAccType<DType>::type;
  const int nthreads =
      outer * k * inner >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (index_t o = 0; o < outer; ++o) {
    std::vector<A> best(inner);
    std::vector<index_t> idx(inner, 0);
    std::vector<bool> done(inner, false);  // a NaN was found
    const DType* base = in + o * k * inner;
    for (index_t i = 0; i < inner; ++i) {
      best[i] = static_cast<A>(base[i]);
      done[i] = IsNanAcc(best[i]);
    }
    for (index_t j = 1; j < k; ++j) {
      const DType* row = base + j * inner;
      for (index_t i = 0; i < inner; ++i) {
        if (done[i]) continue;
        const A v = static_cast<A>(row[i]);
        if (IsNanAcc(v)) {
          idx[i] = j;
          done[i] = true;
        } else if (is_max ? v > best[i] : v < best[i]) {
          best[i] = v;
          idx[i] = j;
        }
      }
    }
    for (index_t i = 0; i < inner; ++i) {
      KERNEL_ASSIGN(out[o * inner + i], req, static_cast<DType>(idx[i]));
    }
  }
}

template <typename xpu, bool is_max>
void SearchAxisCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const ReduceAxisParam& param = nnvm::get<ReduceAxisParam>(attrs.parsed);
  const TBlob& in = inputs[0];
  index_t outer = 1, k = static_cast<index_t>(in.Size()), inner = 1;
  if (param.axis.has_value()) {
    AxisSplit(in.shape_, CheckAxis(attrs.op->name.c_str(), param.axis.value(), in.ndim()), &outer,
              &k, &inner);
  }
  if (req[0] == kNullOp || outer * inner == 0) return;
  if (k == 0) {
    MX_THROW(ValueError) << attrs.op->name << ": attempt to get the arg of an empty sequence, "
                         << "input shape " << in.shape_;
  }
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
      ArgExtremum<is_max>(in.dptr<DType>(), outputs[0].dptr<DType>(), req[0], outer, k, inner);
    } else {
      mxnet_op::Kernel<arg_extremum<is_max>, xpu>::Launch(
          ctx.get_stream<xpu>(), outer * inner, static_cast<const DType*>(in.dptr<DType>()),
          outputs[0].dptr<DType>(), static_cast<int>(req[0]), k, inner);
    }
  });
}

/*! \brief Index of pick along an axis of length k, with clip or wrap semantics. */
template <typename IType>
MSHADOW_XINLINE index_t PickIndex(IType v, index_t k, int mode) {
  index_t j = static_cast<index_t>(v);
  if (mode == kWrap) {
    j %= k;
    if (j < 0) j += k;
  } else {
    j = j < 0 ? 0 : (j >= k ? k - 1 : j);
  }
  return j;
}

/*! \brief out[i] (req) = data[o, index[i], c] for output element i = (o, c). */
struct pick_forward {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* data, const IType* index, DType* out,
                                  int req, index_t k, index_t inner, int mode) {
    const index_t o = i / inner, c = i % inner;
    const index_t j = PickIndex(index[i], k, mode);
    KERNEL_ASSIGN(out[i], req, data[(o * k + j) * inner + c]);
  }
};

/*!
 * \brief grad[o, index[i], c] += ograd[i]. Every output element picks from its own (o, c) row,
 *        so no two elements write the same place and the scatter needs no atomics.
 */
struct pick_backward {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* og, const IType* index, DType* g,
                                  index_t k, index_t inner, int mode) {
    const index_t o = i / inner, c = i % inner;
    const index_t j = PickIndex(index[i], k, mode);
    DType& dst = g[(o * k + j) * inner + c];
    dst = static_cast<DType>(dst + og[i]);
  }
};

template <typename xpu>
void PickCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const PickParam& param = nnvm::get<PickParam>(attrs.parsed);
  index_t outer, k, inner;
  PickSplit(param, inputs[0].shape_, &outer, &k, &inner);
  if (req[0] == kNullOp || outer * inner == 0) return;
  if (k == 0) MX_THROW(IndexError) << "pick: cannot pick from an empty axis";
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      mxnet_op::Kernel<pick_forward, xpu>::Launch(
          ctx.get_stream<xpu>(), outer * inner, static_cast<const DType*>(inputs[0].dptr<DType>()),
          static_cast<const IType*>(inputs[1].dptr<IType>()), outputs[0].dptr<DType>(),
          static_cast<int>(req[0]), k, inner, param.mode);
    });
  });
}

/*! \brief inputs: ograd, index; output: gradient of data (scatter-add of ograd). */
template <typename xpu>
void PickGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const PickParam& param = nnvm::get<PickParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  const TBlob& igrad = outputs[0];
  index_t outer, k, inner;
  PickSplit(param, igrad.shape_, &outer, &k, &inner);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_TYPE_SWITCH(igrad.type_flag_, DType, {
    if (req[0] != kAddTo) {
      mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, igrad.Size(), igrad.dptr<DType>());
    }
    if (k == 0 || outer * inner == 0) return;
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      mxnet_op::Kernel<pick_backward, xpu>::Launch(
          s, outer * inner, static_cast<const DType*>(inputs[0].dptr<DType>()),
          static_cast<const IType*>(inputs[1].dptr<IType>()), igrad.dptr<DType>(), k, inner,
          param.mode);
    });
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_OP_INDEX_INL_H_
