/*!
 * \file l2_normalization.cc
 * \brief Registration of L2Normalization and _backward_L2Normalization.
 */
#include "./l2_normalization-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(L2NormalizationParam);

NNVM_REGISTER_OP(L2Normalization)
.describe(R"code(Divides the input by its L2 norm, ``sqrt(sum(x ** 2) + eps)``.

The sum runs, depending on ``mode``, over

- ``instance`` (default): every axis but the first, one norm per sample (1-D input: one norm
  per element);
- ``channel``: axis 1, one norm per sample and spatial position (needs >= 3-D input);
- ``spatial``: the axes after 1, one norm per sample and channel (needs >= 3-D input).

Example::

  x = [[[1,2],
        [3,4]],
       [[2,2],
        [5,6]]]

  L2Normalization(x, mode='instance')
  =[[[ 0.18257418  0.36514837]
     [ 0.54772252  0.73029673]]
    [[ 0.24077171  0.24077171]
     [ 0.60192931  0.72231513]]]

  L2Normalization(x, mode='channel')
  =[[[ 0.31622776  0.44721359]
     [ 0.94868326  0.89442718]]
    [[ 0.37139067  0.31622776]
     [ 0.92847669  0.94868326]]]

  L2Normalization(x, mode='spatial')
  =[[[ 0.44721359  0.89442718]
     [ 0.60000002  0.80000001]]
    [[ 0.70710677  0.70710677]
     [ 0.6401844   0.76822126]]]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs",
    [](const NodeAttrs& attrs) { return 1; })
.set_attr_parser(ParamParser<L2NormalizationParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "norm"};
})
.set_attr<mxnet::FInferShape>("FInferShape", L2NormalizationShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("L2Normalization", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", L2NormalizationCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[l2_normalization::kOut],
                                       nnvm::NodeEntry{n, l2_normalization::kOut, 0},
                                       nnvm::NodeEntry{n, l2_normalization::kNorm, 0}};
    return MakeGradNode("_backward_L2Normalization", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array to normalize.")
.add_arguments(L2NormalizationParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_L2Normalization)
.describe("Backward of L2Normalization: (out_grad, output, norm) -> data_grad.")
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<L2NormalizationParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*in, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  return NormUniformType("_backward_L2Normalization", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", L2NormalizationGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("output", "NDArray-or-Symbol", "Output of the forward L2Normalization")
.add_argument("norm", "NDArray-or-Symbol", "The norm output of the forward L2Normalization")
.add_arguments(L2NormalizationParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
