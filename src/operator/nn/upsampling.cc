/*!
 * \file upsampling.cc
 * \brief Registration of UpSampling and _backward_UpSampling.
 */
#include "./upsampling-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(UpSamplingParam);

NNVM_REGISTER_OP(UpSampling)
.describe(R"code(Upsamples the given input data.

Two algorithms (``sample_type``) are available for upsampling:

- Nearest Neighbor
- Bilinear

**Nearest Neighbor Upsampling**

Input data is expected to be NCHW.

Example::

  x = [[[[1. 1. 1.]
         [1. 1. 1.]
         [1. 1. 1.]]]]

  UpSampling(x, scale=2, sample_type='nearest') = [[[[1. 1. 1. 1. 1. 1.]
                                                     [1. 1. 1. 1. 1. 1.]
                                                     [1. 1. 1. 1. 1. 1.]
                                                     [1. 1. 1. 1. 1. 1.]
                                                     [1. 1. 1. 1. 1. 1.]
                                                     [1. 1. 1. 1. 1. 1.]]]]

Several inputs may be given: every one is upsampled to the size of the first input times
``scale`` and the results are concatenated along the channels (``multi_input_mode='concat'``)
or added (``'sum'``).

**Bilinear Upsampling**

Uses a depthwise transposed convolution (stride ``scale``, kernel ``2 * scale - scale % 2``,
pad ``ceil((scale - 1) / 2)``) with the given ``weight`` of shape (num_filter, 1, k, k), where
``num_filter`` is the number of input channels; ``mx.init.Bilinear`` fills the weight with the
bilinear kernel.

Example::

  x = [[[[1. 1. 1.]
         [1. 1. 1.]
         [1. 1. 1.]]]]

  w = [[[[1. 1. 1. 1.]
         [1. 1. 1. 1.]
         [1. 1. 1. 1.]
         [1. 1. 1. 1.]]]]

  UpSampling(x, w, scale=2, sample_type='bilinear', num_filter=1) = [[[[1. 2. 2. 2. 2. 1.]
                                                                       [2. 4. 4. 4. 4. 2.]
                                                                       [2. 4. 4. 4. 4. 2.]
                                                                       [2. 4. 4. 4. 4. 2.]
                                                                       [2. 4. 4. 4. 4. 2.]
                                                                       [1. 2. 2. 2. 2. 1.]]]]
)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return UpSamplingNumInputs(nnvm::get<UpSamplingParam>(attrs.parsed));
})
.set_num_outputs(1)
.set_attr_parser(ParamParser<UpSamplingParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  if (param.sample_type == up_enum::kBilinear) {
    return std::vector<std::string>{"data", "weight"};
  }
  std::vector<std::string> names;
  for (int i = 0; i < param.num_args; ++i) names.push_back("arg" + std::to_string(i));
  return names;
})
.set_attr<mxnet::FInferShape>("FInferShape", UpSamplingShape)
.set_attr<nnvm::FInferType>("FInferType", UpSamplingType)
.set_attr<FCompute>("FCompute<cpu>", UpSamplingCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    heads.insert(heads.end(), n->inputs.begin(), n->inputs.end());
    return MakeGradNode("_backward_UpSampling", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol[]", "Array of tensors to upsample. For bilinear "
              "upsampling, there should be 2 inputs - 1 data and 1 weight.")
.add_arguments(UpSamplingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_UpSampling)
.describe("Backward of UpSampling: (out_grad, forward inputs...) -> one gradient per forward "
          "input.")
.set_num_inputs([](const NodeAttrs& attrs) {
  return 1 + UpSamplingNumInputs(nnvm::get<UpSamplingParam>(attrs.parsed));
})
.set_num_outputs([](const NodeAttrs& attrs) {
  return UpSamplingNumInputs(nnvm::get<UpSamplingParam>(attrs.parsed));
})
.set_attr_parser(ParamParser<UpSamplingParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  mxnet::ShapeVector fwd_in(in->begin() + 1, in->end());
  mxnet::ShapeVector fwd_out{(*in)[0]};
  if (!UpSamplingShape(attrs, &fwd_in, &fwd_out)) return false;
  SHAPE_ASSIGN_CHECK(*in, 0, fwd_out[0]);
  for (size_t i = 0; i < out->size(); ++i) SHAPE_ASSIGN_CHECK(*out, i, fwd_in[i]);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const int dtype = (*in)[0];
  if (dtype < 0) return false;
  for (size_t i = 0; i < in->size(); ++i) TYPE_ASSIGN_CHECK(*in, i, dtype);
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, dtype);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", UpSamplingGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol[]", "The forward inputs")
.add_arguments(UpSamplingParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
