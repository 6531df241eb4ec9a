/*!
 * \file sequence_ops-inl.h
 * \brief SequenceLast and SequenceReverse for every device: the parameters, the layout, the
 *        checked sequence lengths and the per-element kernels (sequence_ops.cc registers the
 *        operators, sequence_ops.cu their GPU kernels).
 *
 *        The lengths are checked on the host, whatever the device: a length outside
 *        [min_len, max_len] would make a kernel read or write outside the data, so it is a
 *        ValueError naming the batch entry. On a GPU that takes a copy of the (batch,) lengths
 *        to the host and the checked integers back.
 */
#ifndef MXNET_OPERATOR_NN_SEQUENCE_OPS_INL_H_
#define MXNET_OPERATOR_NN_SEQUENCE_OPS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct SequenceOpParam : public dmlc::Parameter<SequenceOpParam> {
  bool use_sequence_length;
  int axis;
  DMLC_DECLARE_PARAMETER(SequenceOpParam) {
    DMLC_DECLARE_FIELD(use_sequence_length).set_default(false)
        .describe("If set to true, this layer takes in an extra input parameter "
                  "`sequence_length` to specify variable length sequence");
    DMLC_DECLARE_FIELD(axis).set_default(0)
        .describe("The sequence axis. Only values of 0 and 1 are currently supported.");
  }
};

/*! \brief (max_len, batch, inner) of data laid out along `axis`. */
struct SequenceLayout {
  index_t max_len, batch, inner;
  int axis;
  MSHADOW_XINLINE index_t Offset(index_t t, index_t b) const {
    return (axis == 0 ? t * batch + b : b * max_len + t) * inner;
  }
};

inline SequenceLayout LayoutOf(const TShape& shape, int axis) {
  SequenceLayout l;
  l.axis = axis;
  l.max_len = shape[axis];
  l.batch = shape[1 - axis];
  l.inner = 1;
  for (int i = 2; i < shape.ndim(); ++i) l.inner *= shape[i];
  return l;
}

inline const SequenceOpParam& CheckedSequenceParam(const char* op, const nnvm::NodeAttrs& attrs,
                                                   int max_axis) {
  const SequenceOpParam& p = nnvm::get<SequenceOpParam>(attrs.parsed);
  if (p.axis < 0 || p.axis > max_axis) {
    MX_THROW(ValueError) << op << ": axis must be " << (max_axis == 0 ? "0" : "0 or 1")
                         << ", got " << p.axis;
  }
  return p;
}

/*!
 * \brief The length of every sequence (max_len without sequence_length), checked to lie in
 *        [min_len, max_len]; `lengths` is the sequence_length input in host memory.
 */
inline std::vector<index_t> CheckedSequenceLengths(const char* op, const SequenceOpParam& p,
                                                   const TBlob* lengths,
                                                   const TShape& data_shape,
                                                   const SequenceLayout& l, index_t min_len) {
  std::vector<index_t> lens(l.batch, l.max_len);
  if (!p.use_sequence_length) return lens;
  MSHADOW_TYPE_SWITCH(lengths->type_flag_, LType, {
    const LType* v = lengths->dptr<LType>();
    for (index_t b = 0; b < l.batch; ++b) {
      const double len = static_cast<double>(v[b]);
      if (!(len >= min_len && len < l.max_len + 1)) {
        MX_THROW(ValueError) << op << ": sequence_length[" << b << "] = " << len
                             << " is outside [" << min_len << ", " << l.max_len
                             << "] for data of shape " << data_shape << " (axis=" << p.axis
                             << ")";
      }
      lens[b] = static_cast<index_t>(len);
    }
  });
  return lens;
}

/*!
 * \brief The checked lengths where xpu's kernels read them: `host` itself on the CPU, a copy
 *        in temp space on a GPU (sequence_ops.cu). `lengths` is the sequence_length input.
 */
inline const index_t* SequenceLengthsForKernels(const OpContext& ctx, const char* op,
                                                const SequenceOpParam& p, const TBlob* lengths,
                                                const TShape& data_shape,
                                                const SequenceLayout& l, index_t min_len,
                                                mshadow::Stream<cpu>*,
                                                std::vector<index_t>* host) {
  *host = CheckedSequenceLengths(op, p, lengths, data_shape, l, min_len);
  return host->data();
}
#if MXNET_USE_CUDA
const index_t* SequenceLengthsForKernels(const OpContext& ctx, const char* op,
                                         const SequenceOpParam& p, const TBlob* lengths,
                                         const TShape& data_shape, const SequenceLayout& l,
                                         index_t min_len, mshadow::Stream<gpu>* s,
                                         std::vector<index_t>* host);
#endif

/*! \brief Element (b, k) of SequenceLast: y[b, k] (req) x[lens[b] - 1, b, k]. */
struct sequence_last {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, const index_t* lens,
                                  SequenceLayout l, int req) {
    const index_t b = i / l.inner, k = i % l.inner;
    KERNEL_ASSIGN(y[i], req, x[l.Offset(lens[b] - 1, b) + k]);
  }
};

/*! \brief Its gradient: gx[lens[b] - 1, b, k] += gy[b, k] (each target written once). */
struct sequence_last_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* gx, const DType* gy, const index_t* lens,
                                  SequenceLayout l) {
    const index_t b = i / l.inner, k = i % l.inner;
    DType* dst = gx + l.Offset(lens[b] - 1, b) + k;
    *dst = *dst + gy[i];
  }
};

/*! \brief Element (t, b, k) of SequenceReverse: the first lens[b] steps reversed (y != x). */
struct sequence_reverse {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, const index_t* lens,
                                  SequenceLayout l, int req) {
    const index_t k = i % l.inner;
    const index_t tb = i / l.inner;  // t * batch + b (axis 0)
    const index_t t = tb / l.batch, b = tb % l.batch;
    const index_t from = t < lens[b] ? lens[b] - 1 - t : t;
    KERNEL_ASSIGN(y[l.Offset(t, b) + k], req, x[l.Offset(from, b) + k]);
  }
};

/*! \brief sequence_length's gradient: zeros (written, not added). */
template <typename xpu>
void ZeroLengthGrad(mshadow::Stream<xpu>* s, const std::vector<TBlob>& outputs,
                    const std::vector<OpReqType>& req) {
  if (outputs.size() < 2 || req[1] == kNullOp || req[1] == kAddTo) return;
  MSHADOW_TYPE_SWITCH(outputs[1].type_flag_, LType, {
    mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, outputs[1].Size(),
                                                      outputs[1].dptr<LType>());
  });
}

template <typename xpu>
void SequenceLastCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const SequenceOpParam& p = CheckedSequenceParam("SequenceLast", attrs, 1);
  const SequenceLayout l = LayoutOf(inputs[0].shape_, p.axis);
  if (req[0] == kNullOp || l.batch == 0 || l.inner == 0) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  std::vector<index_t> host;
  const index_t* lens = SequenceLengthsForKernels(
      ctx, "SequenceLast", p, p.use_sequence_length ? &inputs[1] : nullptr, inputs[0].shape_, l,
      1, s, &host);
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<sequence_last, xpu>::Launch(s, l.batch * l.inner, outputs[0].dptr<DType>(),
                                                 inputs[0].dptr<DType>(), lens, l,
                                                 static_cast<int>(req[0]));
  });
}

// inputs: out_grad[, sequence_length]; outputs: data_grad[, length_grad]. The data shape is
// the out_grad shape with the sequence axis re-inserted (known from the forward node's input).
template <typename xpu>
void SequenceLastGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const SequenceOpParam& p = CheckedSequenceParam("SequenceLast", attrs, 1);
  const SequenceLayout l = LayoutOf(outputs[0].shape_, p.axis);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  ZeroLengthGrad(s, outputs, req);
  if (req[0] == kNullOp || l.batch == 0 || l.inner == 0 || l.max_len == 0) return;
  std::vector<index_t> host;
  const index_t* lens = SequenceLengthsForKernels(
      ctx, "SequenceLast", p, p.use_sequence_length ? &inputs[1] : nullptr, outputs[0].shape_,
      l, 1, s, &host);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DType* gx = outputs[0].dptr<DType>();
    if (req[0] != kAddTo) {
      mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, outputs[0].Size(), gx);
    }
    mxnet_op::Kernel<sequence_last_grad, xpu>::Launch(s, l.batch * l.inner, gx,
                                                      inputs[0].dptr<DType>(), lens, l);
  });
}

/*! \brief SequenceReverse and its gradient (the reversal is its own inverse): inputs
 *         data or out_grad[, sequence_length]. */
template <typename xpu>
void SequenceReverseRun(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const SequenceOpParam& p = CheckedSequenceParam("SequenceReverse", attrs, 0);
  const SequenceLayout l = LayoutOf(inputs[0].shape_, p.axis);
  if (req[0] == kNullOp || l.batch == 0 || inputs[0].Size() == 0) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  std::vector<index_t> host;
  const index_t* lens = SequenceLengthsForKernels(
      ctx, "SequenceReverse", p, p.use_sequence_length ? &inputs[1] : nullptr,
      inputs[0].shape_, l, 0, s, &host);
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<sequence_reverse, xpu>::Launch(s, inputs[0].Size(),
                                                    outputs[0].dptr<DType>(),
                                                    inputs[0].dptr<DType>(), lens, l,
                                                    static_cast<int>(req[0]));
  });
}

template <typename xpu>
void SequenceReverseCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  SequenceReverseRun<xpu>(attrs, ctx, inputs, req, outputs);
}

template <typename xpu>
void SequenceReverseGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  ZeroLengthGrad(ctx.get_stream<xpu>(), outputs, req);
  SequenceReverseRun<xpu>(attrs, ctx, inputs, req, outputs);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_SEQUENCE_OPS_INL_H_
