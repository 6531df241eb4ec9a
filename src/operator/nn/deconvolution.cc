/*!
 * \file convolution.cc
 * \brief Registration of Deconvolution and _backward_Deconvolution.
 */
#include "./deconvolution-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(DeconvolutionParam);

namespace {

uint32_t DeconvNumInputs(const NodeAttrs& attrs) {
  return nnvm::get<DeconvolutionParam>(attrs.parsed).no_bias ? 2 : 3;
}

bool DeconvolutionType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                     std::vector<int>* out_type) {
  return ConvLikeType("Deconvolution", in_type, out_type);
}

bool DeconvolutionBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                              mxnet::ShapeVector* out_shape) {
  const DeconvolutionParam& param = nnvm::get<DeconvolutionParam>(attrs.parsed);
  if (in_shape->size() != 3U) {
    MX_THROW(ValueError) << "_backward_Deconvolution: expected 3 inputs (out_grad, data, weight), got "
                         << in_shape->size();
  }
  // Infer the forward output shape to check out_grad.
  mxnet::ShapeVector fwd_in{(*in_shape)[1], (*in_shape)[2]};
  if (!param.no_bias) fwd_in.emplace_back(mxnet::TShape(1, param.num_filter));
  mxnet::ShapeVector fwd_out(1);
  const bool ok = DeconvolutionShape(attrs, &fwd_in, &fwd_out);
  if (ndim_is_known(fwd_out[0]) && ndim_is_known((*in_shape)[0]) &&
      (*in_shape)[0] != fwd_out[0]) {
    MX_THROW(ValueError) << "_backward_Deconvolution: out_grad has shape " << (*in_shape)[0]
                         << ", the deconvolution of data " << (*in_shape)[1] << " gives "
                         << fwd_out[0];
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, fwd_in[0]);
  SHAPE_ASSIGN_CHECK(*out_shape, 1, fwd_in[1]);
  if (!param.no_bias) SHAPE_ASSIGN_CHECK(*out_shape, 2, mxnet::TShape(1, param.num_filter));
  return ok;
}

bool DeconvolutionBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                             std::vector<int>* out_type) {
  return ConvLikeType("_backward_Deconvolution", in_type, out_type);
}

std::vector<ResourceRequest> TempSpace(const NodeAttrs&) {
  return {ResourceRequest::kTempSpace};
}

}  // namespace

NNVM_REGISTER_OP(Deconvolution)
.describe(R"code(Computes 1D, 2D or 3D transposed convolution (aka fractionally strided convolution) of the input tensor. This operation can be seen as the gradient of Convolution operation with respect to its input. Convolution usually reduces the size of the input. Transposed convolution works the other way, going from a smaller input to a larger output while preserving the connectivity pattern.

- **data**: *(batch_size, channel, *spatial)*
- **weight**: *(channel, num_filter/num_group, *kernel)*
- **bias**: *(num_filter,)* (only when ``no_bias=False``; the default is no bias)
- **out**: *(batch_size, num_filter, *out_spatial)* with, per dimension::

    out = stride*(in-1) + dilate*(kernel-1) + 1 - 2*pad + adj

  or ``target_shape`` when given (pad and adj are then derived from it).
)code" ADD_FILELINE)
.set_num_inputs(DeconvNumInputs)
.set_num_outputs(1)
.set_attr_parser(DeconvolutionParamParser)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) {
    if (nnvm::get<DeconvolutionParam>(attrs.parsed).no_bias) {
      return std::vector<std::string>{"data", "weight"};
    }
    return std::vector<std::string>{"data", "weight", "bias"};
  })
.set_attr<nnvm::FListOutputNames>("FListOutputNames",
  [](const NodeAttrs& attrs) {
    return std::vector<std::string>{"output"};
  })
.set_attr<mxnet::FInferShape>("FInferShape", DeconvolutionShape)
.set_attr<nnvm::FInferType>("FInferType", DeconvolutionType)
.set_attr<FResourceRequest>("FResourceRequest", TempSpace)
.set_attr<FCompute>("FCompute<cpu>", DeconvolutionCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[conv::kData],
                                       n->inputs[conv::kWeight]};
    return MakeGradNode("_backward_Deconvolution", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input tensor to the deconvolution operation.")
.add_argument("weight", "NDArray-or-Symbol", "Weights representing the kernel.")
.add_argument("bias", "NDArray-or-Symbol", "Bias added to the result after the deconvolution operation.")
.add_arguments(DeconvolutionParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Deconvolution)
.describe("Backward of Deconvolution: (out_grad, data, weight) -> (data_grad, weight_grad"
          "[, bias_grad]).")
.set_num_inputs(3)
.set_num_outputs(DeconvNumInputs)
.set_attr_parser(DeconvolutionParamParser)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", DeconvolutionBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", DeconvolutionBackwardType)
.set_attr<FResourceRequest>("FResourceRequest", TempSpace)
.set_attr<FCompute>("FCompute<cpu>", DeconvolutionGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_arguments(DeconvolutionParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
