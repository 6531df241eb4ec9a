/*!
 * \file rnn_param_concat-inl.h
 * \brief _rnn_param_concat (Concat along `dim`, used by Gluon's RNN layers to pack their
 *        parameters) and its backward for every device: one copy kernel per input, the
 *        input's rows placed at their offset in each output row.
 */
#ifndef MXNET_OPERATOR_NN_RNN_PARAM_CONCAT_INL_H_
#define MXNET_OPERATOR_NN_RNN_PARAM_CONCAT_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct RNNParamConcatParam : public dmlc::Parameter<RNNParamConcatParam> {
  int num_args;
  int dim;
  DMLC_DECLARE_PARAMETER(RNNParamConcatParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1).describe("Number of inputs to be concated.");
    DMLC_DECLARE_FIELD(dim).set_default(1).describe("the dimension to be concated.");
  }
};
inline int ParamConcatAxis(const RNNParamConcatParam& param, int ndim) {
  const int axis = param.dim < 0 ? param.dim + ndim : param.dim;
  if (axis < 0 || axis >= ndim) {
    MX_THROW(dmlc::ValueError) << "_rnn_param_concat: dim " << param.dim
                               << " is out of range for arrays with " << ndim << " dimensions";
  }
  return axis;
}

/*! \brief Element (o, k) of an input of row width w: output row o at column offset + k. */
struct param_concat_copy {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* big, DType* part, index_t w,
                                  index_t total, index_t offset, int req, bool split) {
    const index_t o = i / w, k = i % w;
    if (split) {
      KERNEL_ASSIGN(part[i], req, big[o * total + offset + k]);
    } else {
      KERNEL_ASSIGN(big[o * total + offset + k], req, part[i]);
    }
  }
};

/*! \brief Concatenates (split = false: parts -> big) or cuts (split = true: big -> parts). */
template <typename xpu>
void RNNParamConcatRun(const NodeAttrs& attrs, const OpContext& ctx, const TBlob& big,
                       const std::vector<TBlob>& parts, const std::vector<OpReqType>& req,
                       bool split) {
  const RNNParamConcatParam& param = nnvm::get<RNNParamConcatParam>(attrs.parsed);
  const int axis = ParamConcatAxis(param, big.ndim());
  index_t outer = 1;
  for (int i = 0; i < axis; ++i) outer *= big.shape_[i];
  if (outer == 0) return;
  const index_t total = big.Size() / outer;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_TYPE_SWITCH(big.type_flag_, DType, {
    index_t offset = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      const index_t w = parts[k].Size() / outer;
      const OpReqType r = req[split ? k : 0];
      if (r != kNullOp && w > 0) {
        // const_cast: the kernel reads the part (concat) or the big array (split) only.
        mxnet_op::Kernel<param_concat_copy, xpu>::Launch(
            s, outer * w, const_cast<DType*>(big.dptr<DType>()),
            const_cast<DType*>(parts[k].dptr<DType>()), w, total, offset, static_cast<int>(r),
            split);
      }
      offset += w;
    }
  });
}

template <typename xpu>
void RNNParamConcatCompute(const NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  RNNParamConcatRun<xpu>(attrs, ctx, outputs[0], inputs, req, false);
}

/*! \brief The reverse: the output gradient's rows are cut into the inputs' gradients. */
template <typename xpu>
void RNNParamConcatBackward(const NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  RNNParamConcatRun<xpu>(attrs, ctx, inputs[0], outputs, req, true);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_RNN_PARAM_CONCAT_INL_H_
