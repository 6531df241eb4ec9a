/*!
 * \file image_ops.cc
 * \brief The `_image_*` operators of MXNet 1.9.1 except resize (resize.cc): to_tensor,
 *        normalize, the flips, the colour jitters, lighting and crop. Registration, shape and
 *        type inference and the CPU computes; the kernels are in image_ops-inl.h (shared with
 *        image_ops.cu).
 *
 * Random ops draw their factors from the kRandom resource, so mx.random.seed fixes them.
 * Integer images store each stage's result through SaturateCast (clamp, truncate), as 1.9.1.
 */
#include <dmlc/parameter.h>
#include <mshadow/random.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./image_ops-inl.h"

namespace mxnet {
namespace op {
namespace image {

// ---------------------------------------------------------------- parameters

struct RandomEnhanceParam : public dmlc::Parameter<RandomEnhanceParam> {
  float min_factor;
  float max_factor;
  DMLC_DECLARE_PARAMETER(RandomEnhanceParam) {
    DMLC_DECLARE_FIELD(min_factor).set_lower_bound(0.0).describe("Minimum factor.");
    DMLC_DECLARE_FIELD(max_factor).set_lower_bound(0.0).describe("Maximum factor.");
  }
};

struct RandomColorJitterParam : public dmlc::Parameter<RandomColorJitterParam> {
  float brightness;
  float contrast;
  float saturation;
  float hue;
  DMLC_DECLARE_PARAMETER(RandomColorJitterParam) {
    DMLC_DECLARE_FIELD(brightness).describe("How much to jitter brightness.");
    DMLC_DECLARE_FIELD(contrast).describe("How much to jitter contrast.");
    DMLC_DECLARE_FIELD(saturation).describe("How much to jitter saturation.");
    DMLC_DECLARE_FIELD(hue).describe("How much to jitter hue.");
  }
};

struct RandomLightingParam : public dmlc::Parameter<RandomLightingParam> {
  float alpha_std;
  DMLC_DECLARE_PARAMETER(RandomLightingParam) {
    DMLC_DECLARE_FIELD(alpha_std).set_default(0.05f).describe("Level of the lighting noise.");
  }
};

DMLC_REGISTER_PARAMETER(NormalizeParam);
DMLC_REGISTER_PARAMETER(RandomEnhanceParam);
DMLC_REGISTER_PARAMETER(RandomColorJitterParam);
DMLC_REGISTER_PARAMETER(AdjustLightingParam);
DMLC_REGISTER_PARAMETER(RandomLightingParam);
DMLC_REGISTER_PARAMETER(CropParam);

namespace {

std::vector<ResourceRequest> RandomResource(const NodeAttrs&) {
  return {ResourceRequest::kRandom};
}

/*! \brief One uniform draw in [lo, hi) from the op's kRandom generator. */
float DrawUniform(const OpContext& ctx, float lo, float hi) {
  auto* rnd = ctx.requested[0].get_random<cpu, float>(ctx.get_stream<cpu>());
  float v = lo;
  if (hi > lo) rnd->SampleUniform(&v, 1, lo, hi);
  return v;
}

bool SameAsSecondInputShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                            mxnet::ShapeVector* out);

// ---------------------------------------------------------------- to_tensor

bool ToTensorShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  CheckImageOrBatch("_image_to_tensor", s);
  if (s.ndim() == 3) {
    SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({s[2], s[0], s[1]}));
  } else {
    SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({s[0], s[3], s[1], s[2]}));
  }
  return shape_is_known(s);
}

bool ToTensorType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
  return (*in)[0] != -1;
}

// ---------------------------------------------------------------- normalize

bool NormalizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const NormalizeParam& p = nnvm::get<NormalizeParam>(attrs.parsed);
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  if (s.ndim() != 3 && s.ndim() != 4) {
    MX_THROW(dmlc::ValueError) << "_image_normalize: input tensor must have shape (channels, "
                               << "height, width) or (N, channels, height, width), but got " << s;
  }
  const dim_t c = s[s.ndim() - 3];
  if (c >= 0) {
    if (c != 1 && c != 3) {
      MX_THROW(dmlc::ValueError) << "_image_normalize: the channel dimension of the input "
                                 << "tensor must have 1 or 3 elements, but got input with shape "
                                 << s;
    }
    PerChannel(p.mean, c, "mean", s);
    const Channels3 sd = PerChannel(p.std, c, "std", s);
    for (index_t ch = 0; ch < c; ++ch) {
      if (sd.v[ch] == 0.f) {
        MX_THROW(dmlc::ValueError) << "_image_normalize: std must be non-zero, got " << p.std;
      }
    }
  }
  return ElemwiseShape<1, 1>(attrs, in, out);
}

bool NormalizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0] != -1 ? (*in)[0] : (*out)[0];
  if (t != -1 && !mshadow::IsFloatingType(t)) {
    MX_THROW(dmlc::TypeError) << "_image_normalize: input must be a floating-point tensor (use "
                              << "to_tensor first), got dtype " << mshadow::dtype_string(t);
  }
  return ElemwiseType<1, 1>(attrs, in, out);
}

// ---------------------------------------------------------------- flips

bool SingleImageShape(const char* op, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (!ndim_is_known((*in)[0]) && !ndim_is_known((*out)[0])) return false;
  if (ndim_is_known((*in)[0])) CheckSingleImage(op, (*in)[0]);
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  SHAPE_ASSIGN_CHECK(*in, 0, (*out)[0]);
  return shape_is_known((*out)[0]);
}

template <int axis>
void RandomFlipCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<cpu>* s = ctx.get_stream<cpu>();
  if (DrawUniform(ctx, 0.f, 1.f) < 0.5f) {
    FlipRun<cpu>(s, inputs[0], outputs[0], axis);
  } else {
    CopyIfDistinct<cpu>(s, inputs[0], outputs[0]);
  }
}

// ---------------------------------------------------------------- colour adjustments

/*! \brief y = x * alpha + (1 - alpha) * mean gray value of the image. */
template <typename DType>
void AdjustContrast(const DType* x, DType* y, const mxnet::TShape& s, float alpha) {
  const index_t pixels = s[0] * s[1], c = s[2];
  double sum = 0;
  for (index_t p = 0; p < pixels; ++p) {
    if (c == 3) {
      sum += 0.299 * static_cast<float>(x[p * 3]) + 0.587 * static_cast<float>(x[p * 3 + 1]) +
             0.114 * static_cast<float>(x[p * 3 + 2]);
    } else {
      sum += static_cast<float>(x[p]);
    }
  }
  const float beta = (1.f - alpha) * static_cast<float>(sum / pixels);
  for (index_t i = 0; i < pixels * c; ++i)
    y[i] = SaturateCast<DType>(static_cast<float>(x[i]) * alpha + beta);
}

enum ColorOp { kBrightness, kContrast, kSaturation, kHue };

/*! \brief Applies one colour adjustment with factor alpha, reading x and writing y (x == y is
 *         fine). Gray images pass saturation and hue unchanged, as 1.9.1. */
template <typename DType>
void ApplyColorOp(ColorOp op, const DType* x, DType* y, const mxnet::TShape& s, float alpha) {
  using mxnet_op::Kernel;
  const index_t pixels = s[0] * s[1], c = s[2];
  const bool identity = (op == kSaturation || op == kHue) &&
                        (c == 1 || (op == kHue && std::fabs(alpha) < 1e-3f));  // 1.9.1's skip
  if (identity) {
    if (x != y) std::copy(x, x + pixels * c, y);
    return;
  }
  switch (op) {
    case kBrightness:
      Kernel<BrightnessKernel, cpu>::Launch(nullptr, pixels * c, y, x, alpha);
      break;
    case kContrast: AdjustContrast(x, y, s, alpha); break;
    case kSaturation: Kernel<SaturationKernel, cpu>::Launch(nullptr, pixels, y, x, alpha); break;
    case kHue: Kernel<HueKernel, cpu>::Launch(nullptr, pixels, y, x, alpha); break;
  }
}

template <ColorOp op>
void RandomColorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const RandomEnhanceParam& p = nnvm::get<RandomEnhanceParam>(attrs.parsed);
  const float alpha = DrawUniform(ctx, p.min_factor, p.max_factor);
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    ApplyColorOp<DType>(op, inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), inputs[0].shape_,
                        alpha);
  });
}

/*! \brief Brightness, contrast, saturation and hue in an order shuffled per call (as 1.9.1);
 *         an adjustment whose strength is 0 is skipped. */
void RandomColorJitterCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const RandomColorJitterParam& p = nnvm::get<RandomColorJitterParam>(attrs.parsed);
  auto* rnd = ctx.requested[0].get_random<cpu, float>(ctx.get_stream<cpu>());
  int order[4] = {kBrightness, kContrast, kSaturation, kHue};
  for (int i = 3; i > 0; --i) {  // Fisher-Yates on our own draws: portable across libstdc++
    const int j = static_cast<int>(rnd->GetRandInt() % static_cast<uint32_t>(i + 1));
    std::swap(order[i], order[j]);
  }
  const float strength[4] = {p.brightness, p.contrast, p.saturation, p.hue};
  bool applied = false;
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* src = inputs[0].dptr<DType>();
    DType* dst = outputs[0].dptr<DType>();
    for (int op : order) {
      if (strength[op] <= 0) continue;
      const float jitter = DrawUniform(ctx, -strength[op], strength[op]);
      const float alpha = op == kHue ? jitter : 1.f + jitter;
      ApplyColorOp<DType>(static_cast<ColorOp>(op), src, dst, inputs[0].shape_, alpha);
      src = dst;  // later stages work in place on the output
      applied = true;
    }
  });
  if (!applied) CopyIfDistinct<cpu>(ctx.get_stream<cpu>(), inputs[0], outputs[0]);
}

void RandomLightingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const RandomLightingParam& p = nnvm::get<RandomLightingParam>(attrs.parsed);
  float alpha[3] = {0.f, 0.f, 0.f};
  if (p.alpha_std > 0) {
    auto* rnd = ctx.requested[0].get_random<cpu, float>(ctx.get_stream<cpu>());
    rnd->SampleGaussian(alpha, 3, 0.f, p.alpha_std);
  }
  AdjustLightingRun<cpu>(ctx.get_stream<cpu>(), inputs[0], outputs[0], alpha);
}

// ---------------------------------------------------------------- crop

bool CropShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const CropParam& p = nnvm::get<CropParam>(attrs.parsed);
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  CheckImageOrBatch("_image_crop", s);
  const int hd = s.ndim() - 3;  // the height axis
  if (p.width <= 0 || p.height <= 0) {
    MX_THROW(dmlc::ValueError) << "_image_crop: width and height must be greater than 0, got "
                               << "width=" << p.width << ", height=" << p.height;
  }
  if (p.x < 0 || p.y < 0) {
    MX_THROW(dmlc::ValueError) << "_image_crop: x and y must be non-negative, got x=" << p.x
                               << ", y=" << p.y;
  }
  if (s[hd + 1] >= 0 && p.x + p.width > s[hd + 1]) {
    MX_THROW(dmlc::ValueError) << "_image_crop: x + width (" << p.x << " + " << p.width
                               << ") must not be greater than the input width " << s[hd + 1]
                               << " (input shape " << s << ")";
  }
  if (s[hd] >= 0 && p.y + p.height > s[hd]) {
    MX_THROW(dmlc::ValueError) << "_image_crop: y + height (" << p.y << " + " << p.height
                               << ") must not be greater than the input height " << s[hd]
                               << " (input shape " << s << ")";
  }
  mxnet::TShape o = s;
  o[hd] = p.height;
  o[hd + 1] = p.width;
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return shape_is_known(s);
}


bool SameAsSecondInputShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                            mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
}

bool SameAsFirstInputType(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                          std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1;
}

}  // namespace

// ---------------------------------------------------------------- registration

#define MXNET_IMAGE_UNARY(name)                                                         \
  NNVM_REGISTER_OP(name)                                                                \
  .set_num_inputs(1)                                                                    \
  .set_num_outputs(1)                                                                   \
  .set_attr<nnvm::FListInputNames>("FListInputNames",                                   \
                                   [](const NodeAttrs&) {                               \
                                     return std::vector<std::string>{"data"};           \
                                   })                                                   \
  .set_attr<nnvm::FInplaceOption>("FInplaceOption",                                     \
                                  [](const NodeAttrs&) {                                \
                                    return std::vector<std::pair<int, int>>{{0, 0}};    \
                                  })                                                    \
  .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)                         \
  .add_argument("data", "NDArray-or-Symbol", "The input.")

#define MXNET_IMAGE_SINGLE_SHAPE(name)                                                  \
  .set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,         \
                                                   mxnet::ShapeVector* in,              \
                                                   mxnet::ShapeVector* out) {           \
    return SingleImageShape(#name, in, out);                                            \
  })

NNVM_REGISTER_OP(_image_to_tensor)
.describe(R"code(Converts an image NDArray of shape (H x W x C) or (N x H x W x C)
with values in [0, 255] to a tensor NDArray of shape (C x H x W) or (N x C x H x W)
of float32 values in [0, 1] (divided by 255).
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ToTensorShape)
.set_attr<nnvm::FInferType>("FInferType", ToTensorType)
.set_attr<FCompute>("FCompute<cpu>", ToTensorCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_image_to_tensor", n, {ograds[0], n->inputs[0]}, {});
  })
.add_argument("data", "NDArray-or-Symbol", "Input ndarray");

NNVM_REGISTER_OP(_backward_image_to_tensor)
.describe("Backward of _image_to_tensor: (out_grad, data) -> data_grad = out_grad / 255 in the "
          "image layout (floating-point images only).")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", SameAsSecondInputShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return (*out)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", ToTensorGradCompute<cpu>);

NNVM_REGISTER_OP(_image_normalize)
.describe(R"code(Normalizes a tensor of shape (C x H x W) or (N x C x H x W) with mean and
standard deviation: output[c] = (input[c] - mean[c]) / std[c]. C must be 1 or 3; mean and std
have 1 or C values.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<NormalizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", NormalizeShape)
.set_attr<nnvm::FInferType>("FInferType", NormalizeType)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs&) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", NormalizeCompute<cpu, false>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_image_normalize"})
.add_argument("data", "NDArray-or-Symbol", "Input ndarray")
.add_arguments(NormalizeParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_image_normalize)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<NormalizeParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", NormalizeCompute<cpu, true>);

MXNET_IMAGE_UNARY(_image_flip_left_right)
.describe("Reverses the columns of an (H x W x C) image (C = 1 or 3).")
MXNET_IMAGE_SINGLE_SHAPE(_image_flip_left_right)
.set_attr<FCompute>("FCompute<cpu>", FlipCompute<cpu, 1>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_image_flip_left_right"});

MXNET_IMAGE_UNARY(_image_flip_top_bottom)
.describe("Reverses the rows of an (H x W x C) image (C = 1 or 3).")
MXNET_IMAGE_SINGLE_SHAPE(_image_flip_top_bottom)
.set_attr<FCompute>("FCompute<cpu>", FlipCompute<cpu, 0>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_image_flip_top_bottom"});

MXNET_IMAGE_UNARY(_image_random_flip_left_right)
.describe("Reverses the columns of an (H x W x C) image with probability 0.5.")
MXNET_IMAGE_SINGLE_SHAPE(_image_random_flip_left_right)
.set_attr<FResourceRequest>("FResourceRequest", RandomResource)
.set_attr<FCompute>("FCompute<cpu>", RandomFlipCompute<1>)
.set_attr<bool>("TNonDifferentiable", true);

MXNET_IMAGE_UNARY(_image_random_flip_top_bottom)
.describe("Reverses the rows of an (H x W x C) image with probability 0.5.")
MXNET_IMAGE_SINGLE_SHAPE(_image_random_flip_top_bottom)
.set_attr<FResourceRequest>("FResourceRequest", RandomResource)
.set_attr<FCompute>("FCompute<cpu>", RandomFlipCompute<0>)
.set_attr<bool>("TNonDifferentiable", true);

#define MXNET_IMAGE_RANDOM_ENHANCE(name, op, text)                                      \
  MXNET_IMAGE_UNARY(name)                                                               \
  .describe(text)                                                                       \
  .set_attr_parser(ParamParser<RandomEnhanceParam>)                                     \
  MXNET_IMAGE_SINGLE_SHAPE(name)                                                        \
  .set_attr<FResourceRequest>("FResourceRequest", RandomResource)                       \
  .set_attr<FCompute>("FCompute<cpu>", RandomColorCompute<op>)                          \
  .set_attr<bool>("TNonDifferentiable", true)                                           \
  .add_arguments(RandomEnhanceParam::__FIELDS__())

MXNET_IMAGE_RANDOM_ENHANCE(_image_random_brightness, kBrightness,
    "Multiplies an (H x W x C) image by a factor drawn uniformly from [min_factor, "
    "max_factor].");
MXNET_IMAGE_RANDOM_ENHANCE(_image_random_contrast, kContrast,
    "Blends an (H x W x C) image with its mean gray level: x * a + (1 - a) * mean(gray), a drawn "
    "uniformly from [min_factor, max_factor].");
MXNET_IMAGE_RANDOM_ENHANCE(_image_random_saturation, kSaturation,
    "Blends an (H x W x C) RGB image with its gray version, the factor drawn uniformly from "
    "[min_factor, max_factor].");
MXNET_IMAGE_RANDOM_ENHANCE(_image_random_hue, kHue,
    "Rotates the hue of an (H x W x C) RGB image by a * 360 degrees, a drawn uniformly from "
    "[min_factor, max_factor].");

MXNET_IMAGE_UNARY(_image_random_color_jitter)
.describe("Randomly jitters brightness, contrast, saturation and hue of an (H x W x C) image, "
          "in a random order; each factor is 1 + uniform(-v, v) (hue: uniform(-v, v)).")
.set_attr_parser(ParamParser<RandomColorJitterParam>)
MXNET_IMAGE_SINGLE_SHAPE(_image_random_color_jitter)
.set_attr<FResourceRequest>("FResourceRequest", RandomResource)
.set_attr<FCompute>("FCompute<cpu>", RandomColorJitterCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_arguments(RandomColorJitterParam::__FIELDS__());

MXNET_IMAGE_UNARY(_image_adjust_lighting)
.describe("Adds AlexNet-style PCA lighting noise eigvec * (alpha * eigval) to an (H x W x C) "
          "RGB image.")
.set_attr_parser([](nnvm::NodeAttrs* attrs) {
  ParamParser<AdjustLightingParam>(attrs);
  const auto& p = nnvm::get<AdjustLightingParam>(attrs->parsed);
  if (p.alpha.ndim() != 3) {
    MX_THROW(dmlc::ValueError) << "_image_adjust_lighting: alpha must have 3 elements (R, G, "
                               << "B), got " << p.alpha;
  }
})
MXNET_IMAGE_SINGLE_SHAPE(_image_adjust_lighting)
.set_attr<FCompute>("FCompute<cpu>", AdjustLightingCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", CloneGradient{"_backward_image_adjust_lighting"})
.add_arguments(AdjustLightingParam::__FIELDS__());

MXNET_IMAGE_UNARY(_image_random_lighting)
.describe("Adds PCA lighting noise with alpha drawn from N(0, alpha_std) per channel.")
.set_attr_parser(ParamParser<RandomLightingParam>)
MXNET_IMAGE_SINGLE_SHAPE(_image_random_lighting)
.set_attr<FResourceRequest>("FResourceRequest", RandomResource)
.set_attr<FCompute>("FCompute<cpu>", RandomLightingCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_arguments(RandomLightingParam::__FIELDS__());

NNVM_REGISTER_OP(_image_crop)
.describe(R"code(Crops the window (x, y, width, height) out of an image (H x W x C) or a
batch (N x H x W x C); the output is (height x width x C) or (N x height x width x C).
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CropParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CropShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", CropCompute<cpu, false>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_image_crop", n, {ograds[0], n->inputs[0]}, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "The input.")
.add_arguments(CropParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_image_crop)
.describe("Backward of _image_crop: (out_grad, data) -> data_grad (zero outside the window).")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CropParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", SameAsSecondInputShape)
.set_attr<nnvm::FInferType>("FInferType", SameAsFirstInputType)
.set_attr<FCompute>("FCompute<cpu>", CropCompute<cpu, true>);

}  // namespace image
}  // namespace op
}  // namespace mxnet
