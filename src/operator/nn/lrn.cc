/*!
 * \file lrn.cc
 * \brief Registration of LRN and _backward_LRN.
 */
#include "./lrn-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(LRNParam);

NNVM_REGISTER_OP(LRN)
.describe(R"code(Local response normalization across channels.

For data ``(batch, channel, spatial...)`` each value is divided by a power of the sum of
squares over nearby channels at the same position:

.. math::

  out_{c} = x_{c} \Big(knorm + \frac{alpha}{nsize} \sum_{c'=max(0, c-h)}^{min(C-1, c+h)} x_{c'}^2\Big)^{-beta}

with ``h = (nsize - 1) / 2`` (integer division) and ``C`` the number of channels.

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs",
    [](const NodeAttrs& attrs) { return 1; })
.set_attr_parser(ParamParser<LRNParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "tmp_norm"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LRNShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("LRN", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", LRNCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[lrn_enum::kOut], n->inputs[lrn_enum::kData],
                                       nnvm::NodeEntry{n, lrn_enum::kTmpNorm, 0}};
    return MakeGradNode("_backward_LRN", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to LRN")
.add_arguments(LRNParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_LRN)
.describe("Backward of LRN: (out_grad, data, tmp_norm) -> data_grad.")
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LRNParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*in, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*in, 2, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("_backward_LRN", in, out);
})
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", LRNGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input of the forward LRN")
.add_argument("tmp_norm", "NDArray-or-Symbol", "The tmp_norm output of the forward LRN")
.add_arguments(LRNParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
