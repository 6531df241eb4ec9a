/*!
 * \file layer_norm.cc
 * \brief Registration of LayerNorm and _backward_LayerNorm.
 */
#include "./layer_norm-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(LayerNormParam);

NNVM_REGISTER_OP(LayerNorm)
.add_alias("_npx_layer_norm")
.describe(R"code(Normalizes the input along one axis, then scales and shifts it.

For every position of the other axes, the values along ``axis`` (default -1, the last) get

.. math::

  out = \frac{data - mean(data, axis)}{\sqrt{var(data, axis) + eps}} * gamma + beta

with the biased variance; ``gamma`` and ``beta`` have shape ``(data.shape[axis],)``.
With ``output_mean_var=True`` the mean and the standard deviation ``sqrt(var + eps)`` are
returned too (shape of the data with size 1 on ``axis``); no gradient flows through them.

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {
  return nnvm::get<LayerNormParam>(attrs.parsed).output_mean_var ? 3 : 1;
})
.set_attr_parser(ParamParser<LayerNormParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "gamma", "beta"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "mean", "std"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LayerNormShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("LayerNorm", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", LayerNormCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[layernorm::kOut], n->inputs[layernorm::kData],
                                       n->inputs[layernorm::kGamma],
                                       nnvm::NodeEntry{n, layernorm::kMean, 0},
                                       nnvm::NodeEntry{n, layernorm::kStd, 0}};
    return MakeGradNode("_backward_LayerNorm", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to layer normalization")
.add_argument("gamma", "NDArray-or-Symbol", "gamma array")
.add_argument("beta", "NDArray-or-Symbol", "beta array")
.add_arguments(LayerNormParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_LayerNorm)
.describe("Backward of LayerNorm: (out_grad, data, gamma, mean, std) -> "
          "(data_grad, gamma_grad, beta_grad).")
.set_num_inputs(5)
.set_num_outputs(3)
.set_attr_parser(ParamParser<LayerNormParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  return NormBackwardShape("_backward_LayerNorm", LayerNormShape, attrs, in, out);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("_backward_LayerNorm", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", LayerNormGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("gamma", "NDArray-or-Symbol", "gamma array")
.add_argument("mean", "NDArray-or-Symbol", "The mean output of the forward LayerNorm")
.add_argument("std", "NDArray-or-Symbol", "The std output of the forward LayerNorm")
.add_arguments(LayerNormParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
