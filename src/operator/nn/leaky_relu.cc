/*!
 * \file leaky_relu.cc
 * \brief Registration of LeakyReLU and _backward_LeakyReLU.
 */
#include "./leaky_relu-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(LeakyReLUParam);

NNVM_REGISTER_OP(LeakyReLU)
.add_alias("_npx_leaky_relu")
.describe(R"code(Rectifiers with a non-zero response to negative inputs, element-wise.

``act_type`` selects the function (``slope`` applies to leaky and elu):

- ``leaky`` (default): ``x > 0 ? x : slope * x``
- ``prelu``: ``x > 0 ? x : gamma * x`` with the learned second input ``gamma`` (one value, or
  one per channel of axis 1)
- ``elu``: ``x > 0 ? x : slope * (exp(x) - 1)``
- ``selu``: ``lambda * (x > 0 ? x : alpha * (exp(x) - 1))``, alpha = 1.6732632423543772,
  lambda = 1.0507009873554805
- ``gelu``: ``0.5 * x * (1 + erf(x / sqrt(2)))``
- ``rrelu``: ``x > 0 ? x : r * x``; in training r is drawn uniformly from
  ``[lower_bound, upper_bound)`` for every element, in predict mode it is
  ``(lower_bound + upper_bound) / 2``. The slopes are returned as a second output ``mask``.

)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) { return IsPReLU(attrs) ? 2 : 1; })
.set_num_outputs([](const NodeAttrs& attrs) { return IsRReLU(attrs) ? 2 : 1; })
.set_attr_parser(ParamParser<LeakyReLUParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return IsPReLU(attrs) ? std::vector<std::string>{"data", "gamma"}
                        : std::vector<std::string>{"data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return IsRReLU(attrs) ? std::vector<std::string>{"output", "mask"}
                        : std::vector<std::string>{"output"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LeakyReLUShape)
.set_attr<nnvm::FInferType>("FInferType", LeakyReLUType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return IsRReLU(attrs) ? std::vector<ResourceRequest>{ResourceRequest::kParallelRandom}
                        : std::vector<ResourceRequest>{};
})
.set_attr<FCompute>("FCompute<cpu>", LeakyReLUCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[leakyrelu::kOut], n->inputs[leakyrelu::kData],
                                       nnvm::NodeEntry{n, leakyrelu::kOut, 0}};
    if (IsPReLU(n->attrs)) heads.push_back(n->inputs[leakyrelu::kGamma]);
    if (IsRReLU(n->attrs)) heads.emplace_back(n, leakyrelu::kMask, 0);
    return MakeGradNode("_backward_LeakyReLU", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to activation function.")
.add_argument("gamma", "NDArray-or-Symbol", "Input data to activation function (prelu slopes).")
.add_arguments(LeakyReLUParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_LeakyReLU)
.describe("Backward of LeakyReLU: (out_grad, data, output[, gamma | mask]) -> "
          "(data_grad[, gamma_grad]).")
.set_num_inputs([](const NodeAttrs& attrs) {
  return IsPReLU(attrs) || IsRReLU(attrs) ? 4 : 3;
})
.set_num_outputs([](const NodeAttrs& attrs) { return IsPReLU(attrs) ? 2 : 1; })
.set_attr_parser(ParamParser<LeakyReLUParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*in, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  if (IsPReLU(attrs)) {
    if (shape_is_known((*in)[1]) && shape_is_known((*in)[3])) {
      PReLUGammaShape((*in)[3], (*in)[1]);
    }
    SHAPE_ASSIGN_CHECK(*out, 1, (*in)[3]);
  }
  for (const auto& s : *out) if (!shape_is_known(s)) return false;
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const int dtype = (*in)[1];
  if (dtype < 0) return false;
  for (size_t i = 0; i < in->size(); ++i) TYPE_ASSIGN_CHECK(*in, i, dtype);
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, dtype);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", LeakyReLUGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input of the forward LeakyReLU")
.add_argument("output", "NDArray-or-Symbol", "Output of the forward LeakyReLU")
.add_argument("extra", "NDArray-or-Symbol", "gamma (prelu) or mask (rrelu)")
.add_arguments(LeakyReLUParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
