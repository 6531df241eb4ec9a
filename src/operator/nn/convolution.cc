/*!
 * \file convolution.cc
 * \brief Registration of Convolution and _backward_Convolution.
 */
#include "./convolution-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ConvolutionParam);

namespace {

uint32_t ConvNumInputs(const NodeAttrs& attrs) {
  return nnvm::get<ConvolutionParam>(attrs.parsed).no_bias ? 2 : 3;
}

bool ConvolutionType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                     std::vector<int>* out_type) {
  return ConvLikeType("Convolution", in_type, out_type);
}

bool ConvolutionBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                              mxnet::ShapeVector* out_shape) {
  const ConvolutionParam& param = nnvm::get<ConvolutionParam>(attrs.parsed);
  if (in_shape->size() != 3U) {
    MX_THROW(ValueError) << "_backward_Convolution: expected 3 inputs (out_grad, data, weight), got "
                         << in_shape->size();
  }
  // Infer the forward output shape to check out_grad.
  mxnet::ShapeVector fwd_in{(*in_shape)[1], (*in_shape)[2]};
  if (!param.no_bias) fwd_in.emplace_back(mxnet::TShape(1, param.num_filter));
  mxnet::ShapeVector fwd_out(1);
  const bool ok = ConvolutionShape(attrs, &fwd_in, &fwd_out);
  if (ndim_is_known(fwd_out[0]) && ndim_is_known((*in_shape)[0]) &&
      (*in_shape)[0] != fwd_out[0]) {
    MX_THROW(ValueError) << "_backward_Convolution: out_grad has shape " << (*in_shape)[0]
                         << ", the convolution of data " << (*in_shape)[1] << " gives "
                         << fwd_out[0];
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, fwd_in[0]);
  SHAPE_ASSIGN_CHECK(*out_shape, 1, fwd_in[1]);
  if (!param.no_bias) SHAPE_ASSIGN_CHECK(*out_shape, 2, mxnet::TShape(1, param.num_filter));
  return ok;
}

bool ConvolutionBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                             std::vector<int>* out_type) {
  return ConvLikeType("_backward_Convolution", in_type, out_type);
}

std::vector<ResourceRequest> TempSpace(const NodeAttrs&) {
  return {ResourceRequest::kTempSpace};
}

}  // namespace

NNVM_REGISTER_OP(Convolution)
.describe(R"code(Compute *N*-D convolution on *(N+2)*-D input.

In the 2-D convolution, given input data with shape *(batch_size,
channel, height, width)*, the output is computed by

.. math::

   out[n,i,:,:] = bias[i] + \sum_{j=0}^{channel} data[n,j,:,:] \star
   weight[i,j,:,:]

where :math:`\star` is the 2-D cross-correlation operator.

For general 2-D convolution, the shapes are

- **data**: *(batch_size, channel, height, width)*
- **weight**: *(num_filter, channel, kernel[0], kernel[1])*
- **bias**: *(num_filter,)*
- **out**: *(batch_size, num_filter, out_height, out_width)*.

Define::

  f(x,k,p,s,d) = floor((x+2*p-d*(k-1)-1)/s)+1

then we have::

  out_height=f(height, kernel[0], pad[0], stride[0], dilate[0])
  out_width=f(width, kernel[1], pad[1], stride[1], dilate[1])

If ``no_bias`` is set to be true, then the ``bias`` term is ignored.

The default data ``layout`` is *NCHW*, namely *(batch_size, channel, height,
width)*. 1-D convolution uses *NCW* and 3-D convolution *NCDHW*.

If ``num_group`` is larger than 1, denoted by *g*, then split the input ``data``
evenly into *g* parts along the channel axis, and also evenly split ``weight``
along the first dimension. Next compute the convolution on the *i*-th part of
the data with the *i*-th weight part. The output is obtained by concatenating all
the *g* results.

On CPU, float32 convolutions run on oneDNN when the library was built with it
(``MXNET_ONEDNN_ENABLED=0`` switches to the built-in im2col + GEMM kernels).
)code" ADD_FILELINE)
.set_num_inputs(ConvNumInputs)
.set_num_outputs(1)
.set_attr_parser(ConvolutionParamParser)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) {
    if (nnvm::get<ConvolutionParam>(attrs.parsed).no_bias) {
      return std::vector<std::string>{"data", "weight"};
    }
    return std::vector<std::string>{"data", "weight", "bias"};
  })
.set_attr<nnvm::FListOutputNames>("FListOutputNames",
  [](const NodeAttrs& attrs) {
    return std::vector<std::string>{"output"};
  })
.set_attr<mxnet::FInferShape>("FInferShape", ConvolutionShape)
.set_attr<nnvm::FInferType>("FInferType", ConvolutionType)
.set_attr<FResourceRequest>("FResourceRequest", TempSpace)
.set_attr<FCompute>("FCompute<cpu>", ConvolutionCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[conv::kData],
                                       n->inputs[conv::kWeight]};
    return MakeGradNode("_backward_Convolution", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to the ConvolutionOp.")
.add_argument("weight", "NDArray-or-Symbol", "Weight matrix.")
.add_argument("bias", "NDArray-or-Symbol", "Bias parameter.")
.add_arguments(ConvolutionParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Convolution)
.describe("Backward of Convolution: (out_grad, data, weight) -> (data_grad, weight_grad"
          "[, bias_grad]).")
.set_num_inputs(3)
.set_num_outputs(ConvNumInputs)
.set_attr_parser(ConvolutionParamParser)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ConvolutionBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", ConvolutionBackwardType)
.set_attr<FResourceRequest>("FResourceRequest", TempSpace)
.set_attr<FCompute>("FCompute<cpu>", ConvolutionGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_arguments(ConvolutionParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
