/*!
 * \file deformable_convolution.cc
 * \brief _contrib_DeformableConvolution and _contrib_ModulatedDeformableConvolution with their
 *        backward ops (see deformable_convolution-inl.h for the definition).
 *
 * Inputs are (data, offset, [mask,] weight[, bias]); the backward ops take (out_grad, data,
 * offset, [mask,] weight) and return the gradients of all forward inputs. float16 runs the
 * float kernels on converted copies. im2col_step only bounds the memory of MXNet's GPU kernel;
 * the CPU kernel processes one image at a time whatever its value.
 */
#include <memory>
#include <type_traits>

#include "./deformable_convolution-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(DeformableConvolutionParam);
DMLC_REGISTER_PARAMETER(ModulatedDeformableConvolutionParam);

namespace {

constexpr char kV1[] = "_contrib_DeformableConvolution";
constexpr char kV2[] = "_contrib_ModulatedDeformableConvolution";

DeformConvConfig ConfigOf(const DeformableConvolutionParam& p) {
  return MakeDeformConvConfig(kV1, false, p);
}

DeformConvConfig ConfigOf(const ModulatedDeformableConvolutionParam& p) {
  return MakeDeformConvConfig(kV2, true, p);
}

template <typename Param>
DeformConvConfig ConfigOf(const nnvm::NodeAttrs& attrs) {
  return ConfigOf(nnvm::get<Param>(attrs.parsed));
}

template <typename Param>
void DeformParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<Param>(attrs);
  ConfigOf<Param>(*attrs);  // validate now: bad parameters fail at creation
}

/*! \brief Input positions of the forward op. */
struct DeformSlots {
  int offset = 1, mask = -1, weight = 2, bias = 3;
  size_t count = 4;
  explicit DeformSlots(const DeformConvConfig& c) {
    if (c.modulated) {
      mask = 2;
      weight = 3;
      bias = 4;
    }
    count = static_cast<size_t>(bias) + (c.no_bias ? 0 : 1);
    if (c.no_bias) bias = -1;
  }
};

/*! \brief Assigns `expected` to (*in)[i] or throws naming the op, the input and both shapes. */
void ExpectShape(const DeformConvConfig& c, mxnet::ShapeVector* in, int i, const char* name,
                 const mxnet::TShape& expected, const char* layout, const mxnet::TShape& data) {
  const mxnet::TShape given = (*in)[i];
  if (!shape_assign(&(*in)[i], expected)) {
    MX_THROW(ValueError) << c.op << ": expected " << name << " of shape " << expected << " "
                         << layout << " for data " << data << ", kernel (" << c.kh << ", "
                         << c.kw << "), num_filter=" << c.num_filter << ", num_group="
                         << c.num_group << ", num_deformable_group=" << c.num_dgroup
                         << "; got " << name << " " << given;
  }
}

/*! \brief Shape inference of the forward op; fills `geom` when every shape is known. */
bool DeformConvShapeImpl(const DeformConvConfig& c, mxnet::ShapeVector* in,
                         mxnet::ShapeVector* out, DeformConvGeom* geom) {
  const DeformSlots s(c);
  if (in->size() != s.count) {
    MX_THROW(ValueError) << c.op << ": expected " << s.count << " inputs (data, offset, "
                         << (c.modulated ? "mask, " : "") << "weight"
                         << (c.no_bias ? "" : ", bias") << "), got " << in->size();
  }
  const dim_t F = c.num_filter, G = c.num_group, DG = c.num_dgroup, K = c.kh * c.kw;
  if (s.bias >= 0) {
    const mxnet::TShape given = (*in)[s.bias];
    if (!shape_assign(&(*in)[s.bias], mxnet::TShape(1, F))) {
      MX_THROW(ValueError) << c.op << ": expected bias of shape (" << F << ",) (num_filter), got "
                           << given;
    }
  }
  const mxnet::TShape dshape = (*in)[0];
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() != 4) {
    MX_THROW(ValueError) << c.op << ": data must be 4-d (batch, channel, height, width), got "
                         << dshape;
  }
  if (!shape_is_known(dshape)) return false;
  const dim_t N = dshape[0], C = dshape[1], H = dshape[2], W = dshape[3];
  if (C % G != 0) {
    MX_THROW(ValueError) << c.op << ": input channels " << C << " of data " << dshape
                         << " must be divisible by num_group=" << G;
  }
  if (C % DG != 0) {
    MX_THROW(ValueError) << c.op << ": input channels " << C << " of data " << dshape
                         << " must be divisible by num_deformable_group=" << DG;
  }
  const dim_t ekh = c.dh * (c.kh - 1) + 1, ekw = c.dw * (c.kw - 1) + 1;
  if (H + 2 * c.ph < ekh || W + 2 * c.pw < ekw) {
    MX_THROW(ValueError) << c.op << ": kernel (" << c.kh << ", " << c.kw << ") with dilate ("
                         << c.dh << ", " << c.dw << ") is larger than the padded input: data "
                         << dshape << ", pad (" << c.ph << ", " << c.pw << ")";
  }
  const dim_t OH = (H + 2 * c.ph - ekh) / c.sh + 1, OW = (W + 2 * c.pw - ekw) / c.sw + 1;
  ExpectShape(c, in, s.weight, "weight", mxnet::TShape({F, C / G, c.kh, c.kw}),
              "(num_filter, channels/num_group, kh, kw)", dshape);
  ExpectShape(c, in, s.offset, "offset", mxnet::TShape({N, DG * 2 * K, OH, OW}),
              "(batch, num_deformable_group*2*kh*kw, out_height, out_width)", dshape);
  if (s.mask >= 0) {
    ExpectShape(c, in, s.mask, "mask", mxnet::TShape({N, DG * K, OH, OW}),
                "(batch, num_deformable_group*kh*kw, out_height, out_width)", dshape);
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({N, F, OH, OW}));
  if (geom != nullptr) {
    geom->cfg = c;
    geom->N = N;
    geom->C = C;
    geom->H = H;
    geom->W = W;
    geom->OH = OH;
    geom->OW = OW;
  }
  return true;
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

// ---- dtype plumbing: the kernels run in float (float16/float32) or double ------------------

template <typename DType>
using RealOf = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

/*! \brief A read-only view of a blob as R: the blob itself or a converted copy. */
template <typename DType, typename R>
class RealInput {
 public:
  explicit RealInput(const TBlob& b) {
    const DType* src = b.dptr<DType>();
    if (std::is_same<DType, R>::value) {
      ptr_ = reinterpret_cast<const R*>(src);
    } else {
      copy_.resize(b.Size());
      for (size_t i = 0; i < copy_.size(); ++i) copy_[i] = static_cast<R>(src[i]);
      ptr_ = copy_.data();
    }
  }
  const R* get() const { return ptr_; }

 private:
  const R* ptr_ = nullptr;
  std::vector<R> copy_;
};

/*! \brief Writes a computed R buffer into an output blob under req. */
template <typename DType, typename R>
void StoreOutput(const std::vector<R>& v, const TBlob& b, OpReqType req) {
  if (req == kNullOp) return;
  DType* dst = b.dptr<DType>();
  if (req == kAddTo) {
    for (size_t i = 0; i < v.size(); ++i) {
      dst[i] = static_cast<DType>(static_cast<R>(dst[i]) + v[i]);
    }
  } else {
    for (size_t i = 0; i < v.size(); ++i) dst[i] = static_cast<DType>(v[i]);
  }
}

DeformConvGeom GeomOf(const DeformConvConfig& c, const std::vector<TBlob>& inputs,
                      size_t first) {
  mxnet::ShapeVector in;
  const DeformSlots s(c);
  for (size_t i = 0; i < s.count; ++i) {
    in.push_back(i < inputs.size() - first ? inputs[first + i].shape_ : mxnet::TShape());
  }
  if (s.bias >= 0) in[s.bias] = mxnet::TShape(1, c.num_filter);
  mxnet::ShapeVector out(1);
  DeformConvGeom g;
  DeformConvShapeImpl(c, &in, &out, &g);
  return g;
}

template <typename Param>
void DeformConvCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const DeformConvConfig c = ConfigOf<Param>(attrs);
  const DeformSlots s(c);
  const DeformConvGeom g = GeomOf(c, inputs, 0);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    using R = RealOf<DType>;
    RealInput<DType, R> data(inputs[0]), offset(inputs[s.offset]), weight(inputs[s.weight]);
    std::unique_ptr<RealInput<DType, R>> mask, bias;
    if (s.mask >= 0) mask.reset(new RealInput<DType, R>(inputs[s.mask]));
    if (s.bias >= 0) bias.reset(new RealInput<DType, R>(inputs[s.bias]));
    std::vector<R> out(outputs[0].Size());
    DeformConvForward<R>(g, data.get(), offset.get(), mask ? mask->get() : nullptr,
                         weight.get(), bias ? bias->get() : nullptr, out.data());
    StoreOutput<DType, R>(out, outputs[0], req[0]);
  });
}

// inputs: (out_grad, data, offset, [mask,] weight); outputs: gradients of the forward inputs.
template <typename Param>
void DeformConvGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const DeformConvConfig c = ConfigOf<Param>(attrs);
  const DeformSlots s(c);
  const DeformConvGeom g = GeomOf(c, inputs, 1);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    using R = RealOf<DType>;
    RealInput<DType, R> og(inputs[0]), data(inputs[1]), offset(inputs[1 + s.offset]),
        weight(inputs[1 + s.weight]);
    std::unique_ptr<RealInput<DType, R>> mask;
    if (s.mask >= 0) mask.reset(new RealInput<DType, R>(inputs[1 + s.mask]));
    std::vector<std::vector<R>> grads(outputs.size());
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (req[i] != kNullOp) grads[i].assign(outputs[i].Size(), R(0));
    }
    auto ptr = [&](int slot) -> R* {
      return slot >= 0 && req[slot] != kNullOp ? grads[slot].data() : nullptr;
    };
    DeformConvBackward<R>(g, og.get(), data.get(), offset.get(), mask ? mask->get() : nullptr,
                          weight.get(), ptr(0), ptr(s.offset), ptr(s.mask), ptr(s.weight),
                          ptr(s.bias));
    for (size_t i = 0; i < outputs.size(); ++i) StoreOutput<DType, R>(grads[i], outputs[i], req[i]);
  });
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
.set_attr<FCompute>("FCompute<cpu>", DeformConvCompute<DeformableConvolutionParam>)
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
.set_attr<FCompute>("FCompute<cpu>", DeformConvGradCompute<DeformableConvolutionParam>)
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
.set_attr<FCompute>("FCompute<cpu>", DeformConvCompute<ModulatedDeformableConvolutionParam>)
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
.set_attr<FCompute>("FCompute<cpu>",
                    DeformConvGradCompute<ModulatedDeformableConvolutionParam>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("offset", "NDArray-or-Symbol", "Input offset")
.add_argument("mask", "NDArray-or-Symbol", "Input mask")
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_arguments(ModulatedDeformableConvolutionParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
