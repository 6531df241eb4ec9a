/*!
 * \file deformable_convolution.cc
 * \brief _contrib_DeformableConvolution and _contrib_ModulatedDeformableConvolution with their
 *        backward ops (see deformable_convolution-inl.h for the definition).
 *
 * Inputs are (data, offset, [mask,] weight[, bias]); the backward ops take (out_grad, data,
 * offset, [mask,] weight) and return the gradients of all forward inputs. float16 runs the
 * float kernels on converted copies. The kernels (the header's, shared with the GPU in
 * deformable_convolution.cu) process one image at a time whatever im2col_step is.
 */
#include <string>
#include <vector>

#include "./deformable_convolution-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(DeformableConvolutionParam);
DMLC_REGISTER_PARAMETER(ModulatedDeformableConvolutionParam);

namespace {

template <typename Param>
DeformConvConfig ConfigOf(const nnvm::NodeAttrs& attrs) {
  return DeformConfigOf(nnvm::get<Param>(attrs.parsed));
}

template <typename Param>
void DeformParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<Param>(attrs);
  ConfigOf<Param>(*attrs);  // validate now: bad parameters fail at creation
}

template <typename Param>
bool DeformConvShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out) {
  return DeformConvShapeImpl(ConfigOf<Param>(attrs), in, out, nullptr);
}

bool DeformConvType(const char* op, std::vector<int>* in, std::vector<int>* out) {
  int dtype = -1;
  for (int t : *in) {
    if (dtype < 0) dtype = t;
  }
  for (int t : *out) {
    if (dtype < 0) dtype = t;
  }
  if (dtype < 0) return false;
  if (!mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << op << ": only float16, float32 and float64 are supported, got "
                        << type_string(dtype);
  }
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] >= 0 && (*in)[i] != dtype) {
      MX_THROW(TypeError) << op << ": input " << i << " has dtype " << type_string((*in)[i])
                          << " but the others are " << type_string(dtype);
    }
    (*in)[i] = dtype;
  }
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, dtype);
  return true;
}

bool DeformConvTypeAttr(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                        std::vector<int>* out) {
  return DeformConvType(attrs.op->name.c_str(), in, out);
}

std::vector<ResourceRequest> DeformTempSpace(const NodeAttrs&) {
  return {ResourceRequest::kTempSpace};  // columns, column gradients, float copies of float16
}

template <typename Param>
bool DeformConvBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                             mxnet::ShapeVector* out) {
  const DeformConvConfig c = ConfigOf<Param>(attrs);
  const DeformSlots s(c);
  mxnet::ShapeVector fwd_in(in->begin() + 1, in->end());
  if (s.bias >= 0) fwd_in.emplace_back(mxnet::TShape(1, c.num_filter));
  mxnet::ShapeVector fwd_out(1);
  const bool ok = DeformConvShapeImpl(c, &fwd_in, &fwd_out, nullptr);
  if (ok && ndim_is_known((*in)[0]) && (*in)[0] != fwd_out[0]) {
    MX_THROW(ValueError) << "_backward_" << (c.op + 9) << ": out_grad has shape " << (*in)[0]
                         << ", the forward output is " << fwd_out[0];
  }
  for (size_t i = 0; i < fwd_in.size() && i < out->size(); ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, fwd_in[i]);
  }
  return ok;
}

uint32_t V1NumInputs(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<DeformableConvolutionParam>(attrs.parsed).no_bias ? 3 : 4;
}

uint32_t V2NumInputs(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<ModulatedDeformableConvolutionParam>(attrs.parsed).no_bias ? 4 : 5;
}

nnvm::FGradient DeformGradient(const char* backward_op, size_t ninputs_no_bias) {
  return [backward_op, ninputs_no_bias](const nnvm::ObjectPtr& n,
                                        const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    for (size_t i = 0; i < ninputs_no_bias; ++i) heads.push_back(n->inputs[i]);
    return MakeGradNode(backward_op, n, heads, n->attrs.dict);
  };
}

}  // namespace

NNVM_REGISTER_OP(_contrib_DeformableConvolution)
.describe(R"code(Compute 2-D deformable convolution on 4-D input.

The deformable convolution operation is described in https://arxiv.org/abs/1703.06211

For 2-D deformable convolution, the shapes are

- **data**: *(batch_size, channel, height, width)*
- **offset**: *(batch_size, num_deformable_group * kernel[0] * kernel[1] * 2, out_height,
  out_width)*
- **weight**: *(num_filter, channel, kernel[0], kernel[1])*
- **bias**: *(num_filter,)*
- **out**: *(batch_size, num_filter, out_height, out_width)*.

Define::

  f(x,k,p,s,d) = floor((x+2*p-d*(k-1)-1)/s)+1

then we have::

  out_height=f(height, kernel[0], pad[0], stride[0], dilate[0])
  out_width=f(width, kernel[1], pad[1], stride[1], dilate[1])

Each kernel tap (i, j) at output cell (y, x) reads the input at
``(y*stride[0] - pad[0] + i*dilate[0] + dy, x*stride[1] - pad[1] + j*dilate[1] + dx)`` by
bilinear interpolation, where ``(dy, dx)`` are the offset channels ``2*(i*kernel[1]+j)`` and
``2*(i*kernel[1]+j)+1`` of the tap's deformable group at ``(y, x)``. Points outside the input
read 0. With zero offsets the result equals ``Convolution``.

If ``no_bias`` is set to be true, then the ``bias`` term is ignored.

The default data ``layout`` is *NCHW*, namely *(batch_size, channle, height,
width)*.

If ``num_group`` is larger than 1, denoted by *g*, then split the input ``data``
evenly into *g* parts along the channel axis, and also evenly split ``weight``
along the first dimension. Next compute the convolution on the *i*-th part of
the data with the *i*-th weight part. The output is obtained by concating all
the *g* results.

If ``num_deformable_group`` is larger than 1, denoted by *dg*, then split the
input ``offset`` evenly into *dg* parts along the channel axis, and also evenly
split ``data`` into *dg* parts along the channel axis. Next compute the
deformable convolution, apply the *i*-th part of the offset on the *i*-th part
of the data.

Both ``weight`` and ``bias`` are learnable parameters.
)code" ADD_FILELINE)
.set_num_inputs(V1NumInputs)
.set_num_outputs(1)
.set_attr_parser(DeformParamParser<DeformableConvolutionParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  if (nnvm::get<DeformableConvolutionParam>(attrs.parsed).no_bias) {
    return std::vector<std::string>{"data", "offset", "weight"};
  }
  return std::vector<std::string>{"data", "offset", "weight", "bias"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output"};
})
.set_attr<mxnet::FInferShape>("FInferShape", DeformConvShape<DeformableConvolutionParam>)
.set_attr<nnvm::FInferType>("FInferType", DeformConvTypeAttr)
.set_attr<FResourceRequest>("FResourceRequest", DeformTempSpace)
.set_attr<FCompute>("FCompute<cpu>", DeformConvCompute<cpu, DeformableConvolutionParam>)
.set_attr<nnvm::FGradient>("FGradient",
                           DeformGradient("_backward_DeformableConvolution", 3))
.add_argument("data", "NDArray-or-Symbol", "Input data to the DeformableConvolutionOp.")
.add_argument("offset", "NDArray-or-Symbol", "Input offset to the DeformableConvolutionOp.")
.add_argument("weight", "NDArray-or-Symbol", "Weight matrix.")
.add_argument("bias", "NDArray-or-Symbol", "Bias parameter.")
.add_arguments(DeformableConvolutionParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_DeformableConvolution)
.describe("Backward of _contrib_DeformableConvolution: (out_grad, data, offset, weight) -> "
          "(data_grad, offset_grad, weight_grad[, bias_grad]).")
.set_num_inputs(4)
.set_num_outputs(V1NumInputs)
.set_attr_parser(DeformParamParser<DeformableConvolutionParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape",
                              DeformConvBackwardShape<DeformableConvolutionParam>)
.set_attr<nnvm::FInferType>("FInferType", DeformConvTypeAttr)
.set_attr<FResourceRequest>("FResourceRequest", DeformTempSpace)
.set_attr<FCompute>("FCompute<cpu>",
                    DeformConvGradCompute<cpu, DeformableConvolutionParam>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("offset", "NDArray-or-Symbol", "Input offset")
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_arguments(DeformableConvolutionParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_ModulatedDeformableConvolution)
.describe(R"code(Compute 2-D modulated deformable convolution on 4-D input.

The modulated deformable convolution operation is described in https://arxiv.org/abs/1811.11168

For 2-D modulated deformable convolution, the shapes are

- **data**: *(batch_size, channel, height, width)*
- **offset**: *(batch_size, num_deformable_group * kernel[0] * kernel[1] * 2, out_height,
  out_width)*
- **mask**: *(batch_size, num_deformable_group * kernel[0] * kernel[1], out_height, out_width)*
- **weight**: *(num_filter, channel, kernel[0], kernel[1])*
- **bias**: *(num_filter,)*
- **out**: *(batch_size, num_filter, out_height, out_width)*.

Define::

  f(x,k,p,s,d) = floor((x+2*p-d*(k-1)-1)/s)+1

then we have::

  out_height=f(height, kernel[0], pad[0], stride[0], dilate[0])
  out_width=f(width, kernel[1], pad[1], stride[1], dilate[1])

As DeformableConvolution, each sample is further multiplied by the tap's ``mask`` value;
input cells outside the map read as zeros in the bilinear interpolation.

If ``no_bias`` is set to be true, then the ``bias`` term is ignored.

The default data ``layout`` is *NCHW*, namely *(batch_size, channle, height,
width)*.

If ``num_group`` is larger than 1, denoted by *g*, then split the input ``data``
evenly into *g* parts along the channel axis, and also evenly split ``weight``
along the first dimension. Next compute the convolution on the *i*-th part of
the data with the *i*-th weight part. The output is obtained by concating all
the *g* results.

If ``num_deformable_group`` is larger than 1, denoted by *dg*, then split the
input ``offset`` evenly into *dg* parts along the channel axis, and also evenly
split ``out`` evenly into *dg* parts along the channel axis. Next compute the
deformable convolution, apply the *i*-th part of the offset part on the *i*-th
out.

Both ``weight`` and ``bias`` are learnable parameters.
)code" ADD_FILELINE)
.set_num_inputs(V2NumInputs)
.set_num_outputs(1)
.set_attr_parser(DeformParamParser<ModulatedDeformableConvolutionParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  if (nnvm::get<ModulatedDeformableConvolutionParam>(attrs.parsed).no_bias) {
    return std::vector<std::string>{"data", "offset", "mask", "weight"};
  }
  return std::vector<std::string>{"data", "offset", "mask", "weight", "bias"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output"};
})
.set_attr<mxnet::FInferShape>("FInferShape",
                              DeformConvShape<ModulatedDeformableConvolutionParam>)
.set_attr<nnvm::FInferType>("FInferType", DeformConvTypeAttr)
.set_attr<FResourceRequest>("FResourceRequest", DeformTempSpace)
.set_attr<FCompute>("FCompute<cpu>",
                    DeformConvCompute<cpu, ModulatedDeformableConvolutionParam>)
.set_attr<nnvm::FGradient>("FGradient",
                           DeformGradient("_backward_ModulatedDeformableConvolution", 4))
.add_argument("data", "NDArray-or-Symbol", "Input data to the ModulatedDeformableConvolutionOp.")
.add_argument("offset", "NDArray-or-Symbol", "Input offset to ModulatedDeformableConvolutionOp.")
.add_argument("mask", "NDArray-or-Symbol", "Input mask to the ModulatedDeformableConvolutionOp.")
.add_argument("weight", "NDArray-or-Symbol", "Weight matrix.")
.add_argument("bias", "NDArray-or-Symbol", "Bias parameter.")
.add_arguments(ModulatedDeformableConvolutionParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_ModulatedDeformableConvolution)
.describe("Backward of _contrib_ModulatedDeformableConvolution: (out_grad, data, offset, mask, "
          "weight) -> (data_grad, offset_grad, mask_grad, weight_grad[, bias_grad]).")
.set_num_inputs(5)
.set_num_outputs(V2NumInputs)
.set_attr_parser(DeformParamParser<ModulatedDeformableConvolutionParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape",
                              DeformConvBackwardShape<ModulatedDeformableConvolutionParam>)
.set_attr<nnvm::FInferType>("FInferType", DeformConvTypeAttr)
.set_attr<FResourceRequest>("FResourceRequest", DeformTempSpace)
.set_attr<FCompute>("FCompute<cpu>",
                    DeformConvGradCompute<cpu, ModulatedDeformableConvolutionParam>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("offset", "NDArray-or-Symbol", "Input offset")
.add_argument("mask", "NDArray-or-Symbol", "Input mask")
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_arguments(ModulatedDeformableConvolutionParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
