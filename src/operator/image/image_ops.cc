/*!
 * \file image_ops.cc
 * \brief The `_image_*` operators of MXNet 1.9.1 except resize (resize.cc): to_tensor,
 *        normalize, the flips, the colour jitters, lighting and crop. Registration, shape and
 *        type inference and FCompute<cpu>; the computes and kernels are in image_ops-inl.h
 *        (shared with image_ops.cu).
 *
 * Random ops draw their factors from the kRandom resource, so mx.random.seed fixes them.
 * Integer images store each stage's result through SaturateCast (clamp, truncate), as 1.9.1.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./image_ops-inl.h"

namespace mxnet {
namespace op {
namespace image {

// ---------------------------------------------------------------- parameters

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

/*! \brief Contrast (and the jitter, which may apply it) also sums the image in temp space. */
std::vector<ResourceRequest> RandomAndTempResource(const NodeAttrs&) {
  return {ResourceRequest::kRandom, ResourceRequest::kTempSpace};
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
.set_attr<FCompute>("FCompute<cpu>", RandomFlipCompute<cpu, 1>)
.set_attr<bool>("TNonDifferentiable", true);

MXNET_IMAGE_UNARY(_image_random_flip_top_bottom)
.describe("Reverses the rows of an (H x W x C) image with probability 0.5.")
MXNET_IMAGE_SINGLE_SHAPE(_image_random_flip_top_bottom)
.set_attr<FResourceRequest>("FResourceRequest", RandomResource)
.set_attr<FCompute>("FCompute<cpu>", RandomFlipCompute<cpu, 0>)
.set_attr<bool>("TNonDifferentiable", true);

#define MXNET_IMAGE_RANDOM_ENHANCE(name, op, resources, text)                           \
  MXNET_IMAGE_UNARY(name)                                                               \
  .describe(text)                                                                       \
  .set_attr_parser(ParamParser<RandomEnhanceParam>)                                     \
  MXNET_IMAGE_SINGLE_SHAPE(name)                                                        \
  .set_attr<FResourceRequest>("FResourceRequest", resources)                            \
  .set_attr<FCompute>("FCompute<cpu>", RandomColorCompute<cpu, op>)                     \
  .set_attr<bool>("TNonDifferentiable", true)                                           \
  .add_arguments(RandomEnhanceParam::__FIELDS__())

MXNET_IMAGE_RANDOM_ENHANCE(_image_random_brightness, kBrightness, RandomResource,
    "Multiplies an (H x W x C) image by a factor drawn uniformly from [min_factor, "
    "max_factor].");
MXNET_IMAGE_RANDOM_ENHANCE(_image_random_contrast, kContrast, RandomAndTempResource,
    "Blends an (H x W x C) image with its mean gray level: x * a + (1 - a) * mean(gray), a drawn "
    "uniformly from [min_factor, max_factor].");
MXNET_IMAGE_RANDOM_ENHANCE(_image_random_saturation, kSaturation, RandomResource,
    "Blends an (H x W x C) RGB image with its gray version, the factor drawn uniformly from "
    "[min_factor, max_factor].");
MXNET_IMAGE_RANDOM_ENHANCE(_image_random_hue, kHue, RandomResource,
    "Rotates the hue of an (H x W x C) RGB image by a * 360 degrees, a drawn uniformly from "
    "[min_factor, max_factor].");

MXNET_IMAGE_UNARY(_image_random_color_jitter)
.describe("Randomly jitters brightness, contrast, saturation and hue of an (H x W x C) image, "
          "in a random order; each factor is 1 + uniform(-v, v) (hue: uniform(-v, v)).")
.set_attr_parser(ParamParser<RandomColorJitterParam>)
MXNET_IMAGE_SINGLE_SHAPE(_image_random_color_jitter)
.set_attr<FResourceRequest>("FResourceRequest", RandomAndTempResource)
.set_attr<FCompute>("FCompute<cpu>", RandomColorJitterCompute<cpu>)
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
// As 1.9.1: y = x + const, so the input gradient is the output gradient.
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_copy"})
.add_arguments(AdjustLightingParam::__FIELDS__());

MXNET_IMAGE_UNARY(_image_random_lighting)
.describe("Adds PCA lighting noise with alpha drawn from N(0, alpha_std) per channel.")
.set_attr_parser(ParamParser<RandomLightingParam>)
MXNET_IMAGE_SINGLE_SHAPE(_image_random_lighting)
.set_attr<FResourceRequest>("FResourceRequest", RandomResource)
.set_attr<FCompute>("FCompute<cpu>", RandomLightingCompute<cpu>)
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
