/*!
 * \file concat_split_op-inl.h
 * \brief Concat, stack, SliceChannel (split) and _split_v2 (and their gradients) on either
 *        device: every array is viewed as (outer, width) rows around the axis; joining copies
 *        each input's row segment into the output row, splitting does the reverse (the CPU with
 *        row loops, the GPU with one strided copy per input or output).
 */
#ifndef MXNET_OPERATOR_TENSOR_CONCAT_SPLIT_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_CONCAT_SPLIT_OP_INL_H_

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "./matrix_op-inl.h"

namespace mxnet {
namespace op {

struct ConcatParam : public dmlc::Parameter<ConcatParam> {
  int num_args;
  int dim;
  DMLC_DECLARE_PARAMETER(ConcatParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1).describe("Number of inputs to be concated.");
    DMLC_DECLARE_FIELD(dim).set_default(1).describe("the dimension to be concated.");
  }
};

struct SliceChannelParam : public dmlc::Parameter<SliceChannelParam> {
  int num_outputs;
  int axis;
  bool squeeze_axis;
  DMLC_DECLARE_PARAMETER(SliceChannelParam) {
    DMLC_DECLARE_FIELD(num_outputs).set_lower_bound(1).describe(
        "Number of splits. Note that this should evenly divide the length of the `axis`.");
    DMLC_DECLARE_FIELD(axis).set_default(1).describe("Axis along which to split.");
    DMLC_DECLARE_FIELD(squeeze_axis).set_default(false).describe(
        "If true, Removes the axis with length 1 from the shapes of the output arrays."
        " **Note** that setting `squeeze_axis` to ``true`` removes axis with length 1"
        " only along the `axis` which it is split."
        " Also `squeeze_axis` can be set to ``true``"
        " only if ``input.shape[axis] == num_outputs``.");
  }
};

struct SplitParam : public dmlc::Parameter<SplitParam> {
  mxnet::TShape indices;
  int axis;
  bool squeeze_axis;
  int sections;
  DMLC_DECLARE_PARAMETER(SplitParam) {
    DMLC_DECLARE_FIELD(indices).describe(
        "Indices of splits. The elements should denote the boundaries of at which split"
        " is performed along the `axis`.");
    DMLC_DECLARE_FIELD(axis).set_default(1).describe("Axis along which to split.");
    DMLC_DECLARE_FIELD(squeeze_axis).set_default(false).describe(
        "If true, Removes the axis with length 1 from the shapes of the output arrays."
        " **Note** that setting `squeeze_axis` to ``true`` removes axis with length 1"
        " only along the `axis` which it is split."
        " Also `squeeze_axis` can be set to ``true``"
        " only if ``input.shape[axis] == num_outputs``.");
    DMLC_DECLARE_FIELD(sections).set_default(0).describe(
        "Number of sections if equally splitted. Default to 0 which means split by indices.");
  }
};

/*! \brief Product of dims [begin, end) of s. */
inline index_t DimProd(const mxnet::TShape& s, int begin, int end) {
  index_t p = 1;
  for (int i = begin; i < end; ++i) p *= s[i];
  return p;
}

/*! \brief out row o = concatenation of row o of every input (widths[k] elements each). */
template <typename DType>
void JoinRows(const std::vector<const DType*>& ins, const std::vector<index_t>& widths,
              index_t outer, DType* out, OpReqType req) {
  if (req == kNullOp) return;
  index_t total = 0;
  for (index_t w : widths) total += w;
  const int nthreads = outer * total >= mxnet_op::kOmpThreshold && outer > 1
                           ? mxnet_op::MaxOmpThreads() : 1;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (index_t o = 0; o < outer; ++o) {
    DType* dst = out + o * total;
    for (size_t k = 0; k < ins.size(); ++k) {
      const DType* src = ins[k] + o * widths[k];
      if (req == kAddTo) {
        for (index_t i = 0; i < widths[k]; ++i) dst[i] += src[i];
      } else if (widths[k] > 0) {  // a zero-size part may have no memory at all
        std::memcpy(dst, src, widths[k] * sizeof(DType));
      }
      dst += widths[k];
    }
  }
}

/*! \brief The reverse of JoinRows: row o of `in` is cut into the outputs' rows. */
template <typename DType>
void SplitRows(const DType* in, index_t outer, const std::vector<DType*>& outs,
               const std::vector<index_t>& widths, const std::vector<OpReqType>& reqs) {
  index_t total = 0;
  for (index_t w : widths) total += w;
  const int nthreads = outer * total >= mxnet_op::kOmpThreshold && outer > 1
                           ? mxnet_op::MaxOmpThreads() : 1;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (index_t o = 0; o < outer; ++o) {
    const DType* src = in + o * total;
    for (size_t k = 0; k < outs.size(); ++k) {
      DType* dst = outs[k] + o * widths[k];
      if (reqs[k] == kAddTo) {
        for (index_t i = 0; i < widths[k]; ++i) dst[i] += src[i];
      } else if (reqs[k] != kNullOp && widths[k] > 0) {
        std::memcpy(dst, src, widths[k] * sizeof(DType));
      }
      src += widths[k];
    }
  }
}

/*!
 * \brief Joins inputs[] into out around `axis` of the output (an existing or new axis). On the
 *        GPU each input is one strided scatter into its columns of the (outer, total) rows.
 */
template <typename xpu>
void JoinCompute(mshadow::Stream<xpu>* s, const std::vector<TBlob>& inputs, const TBlob& out,
                 int axis, OpReqType req) {
  if (req == kNullOp) return;
  const index_t outer = DimProd(out.shape_, 0, axis);
  std::vector<index_t> widths;
  index_t total = 0;
  for (const TBlob& in : inputs) {
    widths.push_back(outer == 0 ? 0 : in.Size() / outer);
    total += widths.back();
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out.type_flag_, DType, {
    if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
      std::vector<const DType*> ins;
      for (const TBlob& in : inputs) ins.push_back(in.dptr<DType>());
      JoinRows(ins, widths, outer, out.dptr<DType>(), req);
    } else {
      index_t col = 0;
      for (size_t k = 0; k < inputs.size(); ++k) {
        StridedView v;
        v.offset = col;
        v.Add(outer, total);
        v.Add(widths[k], 1);
        StridedScatterPlanned(s, v, static_cast<const DType*>(inputs[k].dptr<DType>()),
                              out.dptr<DType>(), req);
        col += widths[k];
      }
    }
  });
}

/*! \brief Splits in into outputs[] around `axis` of the input (GPU: one gather per output). */
template <typename xpu>
void SplitCompute(mshadow::Stream<xpu>* s, const TBlob& in, const std::vector<TBlob>& outputs,
                  int axis, const std::vector<OpReqType>& req) {
  const index_t outer = DimProd(in.shape_, 0, axis);
  std::vector<index_t> widths;
  index_t total = 0;
  for (const TBlob& o : outputs) {
    widths.push_back(outer == 0 ? 0 : o.Size() / outer);
    total += widths.back();
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
      std::vector<DType*> outs;
      for (const TBlob& o : outputs) outs.push_back(o.dptr<DType>());
      SplitRows(in.dptr<DType>(), outer, outs, widths, req);
    } else {
      index_t col = 0;
      for (size_t k = 0; k < outputs.size(); ++k) {
        StridedView v;
        v.offset = col;
        v.Add(outer, total);
        v.Add(widths[k], 1);
        StridedGatherPlanned(s, v, static_cast<const DType*>(in.dptr<DType>()),
                             outputs[k].dptr<DType>(), req[k]);
        col += widths[k];
      }
    }
  });
}

/*! \brief The axis each op joins or splits along, normalised for an array of ndim dims. */
inline int JoinSplitAxis(const ConcatParam& p, int ndim) {
  return CheckAxis("Concat", p.dim, ndim);
}
inline int JoinSplitAxis(const StackParam& p, int ndim) {
  return CheckAxis("stack", p.axis, ndim);
}
inline int JoinSplitAxis(const SliceChannelParam& p, int ndim) {
  return CheckAxis("split", p.axis, ndim);
}
inline int JoinSplitAxis(const SplitParam& p, int ndim) {
  return CheckAxis("_split_v2", p.axis, ndim);
}

/*!
 * \brief Concat / stack forward and split / _split_v2 backward join their inputs (kJoin);
 *        the others split input 0 into the outputs.
 */
template <typename xpu, typename Param, bool kJoin>
void JoinSplitCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const Param& param = nnvm::get<Param>(attrs.parsed);
  if (kJoin) {
    JoinCompute(ctx.get_stream<xpu>(), inputs, outputs[0],
                JoinSplitAxis(param, outputs[0].ndim()), req[0]);
  } else {
    SplitCompute(ctx.get_stream<xpu>(), inputs[0], outputs,
                 JoinSplitAxis(param, inputs[0].ndim()), req);
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_CONCAT_SPLIT_OP_INL_H_
