/*!
 * \file instance_norm.cc
 * \brief Registration of InstanceNorm and _backward_InstanceNorm.
 */
#include "./instance_norm-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(InstanceNormParam);

NNVM_REGISTER_OP(InstanceNorm)
.describe(R"code(Normalizes every channel of every sample on its own, then scales and shifts it.

The input is ``(batch, channel, spatial...)`` with at least 3 dimensions. For each sample ``n``
and channel ``c`` the values over the spatial axes get

.. math::

  out = \frac{x - mean}{\sqrt{var + eps}} * gamma[c] + beta[c]

with the biased variance, in training and inference alike. ``gamma`` and ``beta`` have shape
``(channel,)``.

Example::

  x = [[[1.1, 2.2]], [[3.3, 4.4]]]       # (2, 1, 2)
  InstanceNorm(x, gamma=[1.5], beta=[0.5]) = [[[-0.997527, 1.997527]],
                                               [[-0.997527, 1.997527]]]

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs",
    [](const NodeAttrs& attrs) { return 1; })
.set_attr_parser(ParamParser<InstanceNormParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "gamma", "beta"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "mean", "var"};
})
.set_attr<mxnet::FInferShape>("FInferShape", InstanceNormShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("InstanceNorm", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", InstanceNormCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[instance_norm::kOut],
                                       n->inputs[instance_norm::kData],
                                       n->inputs[instance_norm::kGamma],
                                       nnvm::NodeEntry{n, instance_norm::kMean, 0},
                                       nnvm::NodeEntry{n, instance_norm::kVar, 0}};
    return MakeGradNode("_backward_InstanceNorm", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "An n-dimensional input array (n > 2) of the form "
              "[batch, channel, spatial_dim1, spatial_dim2, ...].")
.add_argument("gamma", "NDArray-or-Symbol", "A vector of length 'channel', which multiplies "
              "the normalized input.")
.add_argument("beta", "NDArray-or-Symbol", "A vector of length 'channel', which is added to "
              "the product of the normalized input and the weight.")
.add_arguments(InstanceNormParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_InstanceNorm)
.describe("Backward of InstanceNorm: (out_grad, data, gamma, mean, var) -> "
          "(data_grad, gamma_grad, beta_grad).")
.set_num_inputs(5)
.set_num_outputs(3)
.set_attr_parser(ParamParser<InstanceNormParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  return NormBackwardShape("_backward_InstanceNorm", InstanceNormShape, attrs, in, out);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("_backward_InstanceNorm", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", InstanceNormGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("gamma", "NDArray-or-Symbol", "gamma array")
.add_argument("mean", "NDArray-or-Symbol", "The mean output of the forward InstanceNorm")
.add_argument("var", "NDArray-or-Symbol", "The var output of the forward InstanceNorm")
.add_arguments(InstanceNormParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
