/*!
 * \file transformer.cc
 * \brief _contrib_div_sqrt_dim: data / sqrt(data.shape[-1]) (attention score scaling). The
 *        gradient is the same scaling applied to the output gradient.
 */
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./transformer-inl.h"

namespace mxnet {
namespace op {

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
.set_attr<FCompute>("FCompute<cpu>", DivSqrtDimCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_contrib_div_sqrt_dim"})
.add_argument("data", "NDArray-or-Symbol", "The input array.");

}  // namespace op
}  // namespace mxnet
