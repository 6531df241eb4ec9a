/*!
 * \file transformer.cc
 * \brief _contrib_div_sqrt_dim: data / sqrt(data.shape[-1]) (attention score scaling). The
 *        gradient is the same scaling applied to the output gradient.
 */
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace {

void DivSqrtDimCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[0].Size() == 0) return;
  const mxnet::TShape& s = inputs[0].shape_;
  const double scale = 1.0 / std::sqrt(static_cast<double>(s[s.ndim() - 1]));
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* x = inputs[0].dptr<DType>();
    DType* o = outputs[0].dptr<DType>();
    const size_t n = inputs[0].Size();
    for (size_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(x[i]) * scale;
      o[i] = req[0] == kAddTo ? static_cast<DType>(o[i] + v) : static_cast<DType>(v);
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(_contrib_div_sqrt_dim)
.describe(R"code(Rescale the input by the square root of the channel dimension.

   out = data / sqrt(data.shape[-1])

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (ndim_is_known((*in)[0]) && (*in)[0].ndim() == 0) {
    MX_THROW(ValueError) << "_contrib_div_sqrt_dim: expected data with at least one dimension, "
                         << "got shape " << (*in)[0];
  }
  return ElemwiseShape<1, 1>(attrs, in, out);
})
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", DivSqrtDimCompute)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_contrib_div_sqrt_dim"})
.add_argument("data", "NDArray-or-Symbol", "The input array.");

}  // namespace op
}  // namespace mxnet
