/*!
 * \file arange_like-inl.h
 * \brief _contrib_arange_like's parameters and kernel for both devices.
 */
#ifndef MXNET_OPERATOR_CONTRIB_ARANGE_LIKE_INL_H_
#define MXNET_OPERATOR_CONTRIB_ARANGE_LIKE_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct ArangeLikeParam : public dmlc::Parameter<ArangeLikeParam> {
  double start;
  double step;
  int repeat;
  std::string ctx;
  dmlc::optional<int> axis;
  DMLC_DECLARE_PARAMETER(ArangeLikeParam) {
    DMLC_DECLARE_FIELD(start).set_default(0)
        .describe("Start of interval. The interval includes this value. The default start "
                  "value is 0.");
    DMLC_DECLARE_FIELD(step).set_default(1).describe("Spacing between values.");
    DMLC_DECLARE_FIELD(repeat).set_default(1)
        .describe("The repeating time of all elements. E.g repeat=3, the element a will be "
                  "repeated three times --> a, a, a.");
    DMLC_DECLARE_FIELD(ctx).set_default("")
        .describe("Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for "
                  "imperative calls.");
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>())
        .describe("Arange elements according to the size of a certain axis of input array. The "
                  "negative numbers are interpreted counting from the backward. If not "
                  "provided, will arange elements according to the input shape.");
  }
};

/*! \brief o[i] (req) start + step * (i / repeat). */
struct arange_like_kernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* o, double start, double step, int repeat,
                                  int req) {
    const DType v = static_cast<DType>(start + step * static_cast<double>(i / repeat));
    o[i] = req == kAddTo ? static_cast<DType>(o[i] + v) : v;
  }
};

template <typename xpu>
void ArangeLikeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const ArangeLikeParam& p = nnvm::get<ArangeLikeParam>(attrs.parsed);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mxnet_op::Kernel<arange_like_kernel, xpu>::Launch(ctx.get_stream<xpu>(), outputs[0].Size(),
                                                      outputs[0].dptr<DType>(), p.start, p.step,
                                                      p.repeat, static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_ARANGE_LIKE_INL_H_
