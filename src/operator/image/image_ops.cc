/*!
 * \file image_ops.cc
 * \brief The `_image_*` operators of MXNet 1.9.1 except resize (resize.cc): to_tensor,
 *        normalize, the flips, the colour jitters, lighting and crop (CPU).
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
#include <cstring>
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

struct NormalizeParam : public dmlc::Parameter<NormalizeParam> {
  mxnet::Tuple<float> mean;
  mxnet::Tuple<float> std;
  DMLC_DECLARE_PARAMETER(NormalizeParam) {
    DMLC_DECLARE_FIELD(mean).set_default(mxnet::Tuple<float>({0.f, 0.f, 0.f, 0.f}))
        .describe("Sequence of means for each channel. Default value is 0.");
    DMLC_DECLARE_FIELD(std).set_default(mxnet::Tuple<float>({1.f, 1.f, 1.f, 1.f}))
        .describe("Sequence of standard deviations for each channel. Default value is 1.");
  }
};

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

struct AdjustLightingParam : public dmlc::Parameter<AdjustLightingParam> {
  mxnet::Tuple<float> alpha;
  DMLC_DECLARE_PARAMETER(AdjustLightingParam) {
    DMLC_DECLARE_FIELD(alpha).describe("The lighting alphas for the R, G, B channels.");
  }
};

struct RandomLightingParam : public dmlc::Parameter<RandomLightingParam> {
  float alpha_std;
  DMLC_DECLARE_PARAMETER(RandomLightingParam) {
    DMLC_DECLARE_FIELD(alpha_std).set_default(0.05f).describe("Level of the lighting noise.");
  }
};

struct CropParam : public dmlc::Parameter<CropParam> {
  int x;
  int y;
  int width;
  int height;
  DMLC_DECLARE_PARAMETER(CropParam) {
    DMLC_DECLARE_FIELD(x).describe("Left boundary of the cropping area.");
    DMLC_DECLARE_FIELD(y).describe("Top boundary of the cropping area.");
    DMLC_DECLARE_FIELD(width).describe("Width of the cropping area.");
    DMLC_DECLARE_FIELD(height).describe("Height of the cropping area.");
  }
};

DMLC_REGISTER_PARAMETER(NormalizeParam);
DMLC_REGISTER_PARAMETER(RandomEnhanceParam);
DMLC_REGISTER_PARAMETER(RandomColorJitterParam);
DMLC_REGISTER_PARAMETER(AdjustLightingParam);
DMLC_REGISTER_PARAMETER(RandomLightingParam);
DMLC_REGISTER_PARAMETER(CropParam);

namespace {

/*! \brief float arithmetic as 1.9.1, but double for double images (keeps their precision). */
template <typename DType>
using AccType = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

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

template <typename DType>
void CopyIfDistinct(const TBlob& in, const TBlob& out) {
  if (in.dptr_ != out.dptr_) {
    std::memcpy(out.dptr_, in.dptr_, in.Size() * sizeof(DType));
  }
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

template <typename DType>
void ToTensorLoop(const DType* x, float* o, index_t n, index_t plane, index_t c, OpReqType req) {
  #pragma omp parallel for
  for (index_t img = 0; img < n; ++img) {
    for (index_t p = 0; p < plane; ++p) {
      for (index_t ch = 0; ch < c; ++ch) {
        const float v = static_cast<float>(x[(img * plane + p) * c + ch]) / 255.0f;
        float& dst = o[(img * c + ch) * plane + p];
        dst = req == kAddTo ? dst + v : v;
      }
    }
  }
}

void ToTensorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const mxnet::TShape& s = inputs[0].shape_;
  const bool batch = s.ndim() == 4;
  const index_t n = batch ? s[0] : 1;
  const index_t h = s[batch ? 1 : 0], w = s[batch ? 2 : 1], c = s[batch ? 3 : 2];
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    ToTensorLoop(inputs[0].dptr<DType>(), outputs[0].dptr<float>(), n, h * w, c, req[0]);
  });
}

/*! \brief The input gradient of to_tensor: out_grad (C, H, W) / (N, C, H, W) transposed back
 *         to the image layout and divided by 255. */
template <typename DType>
void ToTensorGradLoop(const float* og, DType* g, index_t n, index_t plane, index_t c,
                      OpReqType req) {
  #pragma omp parallel for
  for (index_t img = 0; img < n; ++img) {
    for (index_t p = 0; p < plane; ++p) {
      for (index_t ch = 0; ch < c; ++ch) {
        const float v = og[(img * c + ch) * plane + p] / 255.0f;
        DType& dst = g[(img * plane + p) * c + ch];
        dst = req == kAddTo ? static_cast<DType>(static_cast<float>(dst) + v)
                            : static_cast<DType>(v);
      }
    }
  }
}

void ToTensorGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const mxnet::TShape& s = outputs[0].shape_;  // the image layout
  const bool batch = s.ndim() == 4;
  const index_t n = batch ? s[0] : 1;
  const index_t h = s[batch ? 1 : 0], w = s[batch ? 2 : 1], c = s[batch ? 3 : 2];
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    ToTensorGradLoop(inputs[0].dptr<float>(), outputs[0].dptr<DType>(), n, h * w, c, req[0]);
  });
}

// ---------------------------------------------------------------- normalize

/*! \brief The per-channel value of a mean/std tuple: 1 value, `channels` values, or all equal. */
std::vector<float> PerChannel(const mxnet::Tuple<float>& t, index_t channels, const char* arg,
                              const mxnet::TShape& shape) {
  bool all_equal = t.ndim() > 0;
  for (int i = 1; i < t.ndim(); ++i) all_equal &= t[i] == t[0];
  if (t.ndim() == channels) return std::vector<float>(t.begin(), t.end());
  if (t.ndim() == 1 || all_equal) return std::vector<float>(channels, t[0]);
  MX_THROW(dmlc::ValueError) << "_image_normalize: invalid " << arg << " for input with shape "
                             << shape << ": " << arg << " must have either 1 or " << channels
                             << " elements, but got " << t;
  return {};
}

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
    std::vector<float> sd = PerChannel(p.std, c, "std", s);
    for (float v : sd) {
      if (v == 0.f) MX_THROW(dmlc::ValueError) << "_image_normalize: std must be non-zero, got "
                                               << p.std;
    }
  }
  return ElemwiseShape<1, 1>(attrs, in, out);
}

template <typename DType>
void NormalizeLoop(const DType* xp, DType* yp, index_t planes, index_t c, index_t plane,
                   const std::vector<float>& mean, const std::vector<float>& sd, bool grad,
                   OpReqType req) {
  using AccT = AccType<DType>;
  #pragma omp parallel for
  for (index_t k = 0; k < planes; ++k) {
    const index_t ch = k % c;
    const AccT m = grad ? AccT(0) : static_cast<AccT>(mean[ch]);
    const AccT sdev = static_cast<AccT>(sd[ch]);
    for (index_t i = k * plane; i < (k + 1) * plane; ++i) {
      const AccT v = (static_cast<AccT>(xp[i]) - m) / sdev;
      yp[i] = req == kAddTo ? static_cast<DType>(static_cast<AccT>(yp[i]) + v)
                            : static_cast<DType>(v);
    }
  }
}

bool NormalizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0] != -1 ? (*in)[0] : (*out)[0];
  if (t != -1 && !mshadow::IsFloatingType(t)) {
    MX_THROW(dmlc::TypeError) << "_image_normalize: input must be a floating-point tensor (use "
                              << "to_tensor first), got dtype " << mshadow::dtype_string(t);
  }
  return ElemwiseType<1, 1>(attrs, in, out);
}

/*! \brief grad = false: y = (x - mean) / std; grad = true: y = x / std (the input gradient). */
void NormalizeRun(const nnvm::NodeAttrs& attrs, const TBlob& x, const TBlob& y, OpReqType req,
                  bool grad) {
  if (req == kNullOp) return;
  const NormalizeParam& p = nnvm::get<NormalizeParam>(attrs.parsed);
  const mxnet::TShape& s = x.shape_;
  const index_t c = s[s.ndim() - 3];
  const index_t n = s.ndim() == 4 ? s[0] : 1;
  const index_t plane = s[s.ndim() - 2] * s[s.ndim() - 1];
  const std::vector<float> mean = PerChannel(p.mean, c, "mean", s);
  const std::vector<float> sd = PerChannel(p.std, c, "std", s);
  MSHADOW_REAL_TYPE_SWITCH(x.type_flag_, DType, {
    NormalizeLoop(x.dptr<DType>(), y.dptr<DType>(), n * c, c, plane, mean, sd, grad, req);
  });
}

// ---------------------------------------------------------------- flips

/*! \brief Reverses axis `axis` (0 = rows, 1 = columns) of an (H, W, C) image. */
template <typename DType>
void FlipImage(const DType* x, DType* y, const mxnet::TShape& s, int axis) {
  const index_t h = s[0], w = s[1], c = s[2];
  std::vector<DType> row(w * c);  // a row buffer makes in-place flips safe
  for (index_t r = 0; r < h; ++r) {
    const index_t src_r = axis == 0 ? h - 1 - r : r;
    if (axis == 0) {
      if (r > src_r) break;  // swap row pairs once
      std::vector<DType> other(x + src_r * w * c, x + (src_r + 1) * w * c);
      std::copy(x + r * w * c, x + (r + 1) * w * c, row.begin());
      std::copy(other.begin(), other.end(), y + r * w * c);
      std::copy(row.begin(), row.end(), y + src_r * w * c);
      continue;
    }
    std::copy(x + r * w * c, x + (r + 1) * w * c, row.begin());
    for (index_t col = 0; col < w; ++col)
      for (index_t ch = 0; ch < c; ++ch)
        y[(r * w + col) * c + ch] = row[(w - 1 - col) * c + ch];
  }
}

bool SingleImageShape(const char* op, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (!ndim_is_known((*in)[0]) && !ndim_is_known((*out)[0])) return false;
  if (ndim_is_known((*in)[0])) CheckSingleImage(op, (*in)[0]);
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  SHAPE_ASSIGN_CHECK(*in, 0, (*out)[0]);
  return shape_is_known((*out)[0]);
}

template <int axis>
void FlipCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    FlipImage(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), inputs[0].shape_, axis);
  });
}

template <int axis>
void RandomFlipCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const bool flip = DrawUniform(ctx, 0.f, 1.f) < 0.5f;
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (flip) {
      FlipImage(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), inputs[0].shape_, axis);
    } else {
      CopyIfDistinct<DType>(inputs[0], outputs[0]);
    }
  });
}

// ---------------------------------------------------------------- colour adjustments

/*! \brief y = x * alpha. */
template <typename DType>
void AdjustBrightness(const DType* x, DType* y, index_t size, float alpha) {
  for (index_t i = 0; i < size; ++i) y[i] = SaturateCast<DType>(static_cast<float>(x[i]) * alpha);
}

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

/*!
 * \brief y = x * alpha + (1 - alpha) * gray. MXNet 1.9.1's kernel keeps only the last term of
 *        its gray sum (0.114 * blue); we reproduce that so that results match 1.9.1.
 */
template <typename DType>
void AdjustSaturation(const DType* x, DType* y, const mxnet::TShape& s, float alpha) {
  const index_t pixels = s[0] * s[1], c = s[2];
  if (c == 1) {
    if (x != y) std::copy(x, x + pixels, y);
    return;
  }
  for (index_t p = 0; p < pixels; ++p) {
    const float gray = 0.114f * static_cast<float>(x[p * 3 + 2]) * (1.f - alpha);
    for (index_t ch = 0; ch < 3; ++ch)
      y[p * 3 + ch] = SaturateCast<DType>(static_cast<float>(x[p * 3 + ch]) * alpha + gray);
  }
}

/*! \brief RGB in [0, 255] -> hue in degrees [0, 360), lightness and saturation in [0, 1]. */
void RgbToHls(float r, float g, float b, float* h, float* l, float* s) {
  r /= 255.f;
  g /= 255.f;
  b /= 255.f;
  const float vmax = std::max(r, std::max(g, b)), vmin = std::min(r, std::min(g, b));
  float diff = vmax - vmin;
  *l = (vmax + vmin) * 0.5f;
  *h = 0.f;
  *s = 0.f;
  if (diff > std::numeric_limits<float>::epsilon()) {
    *s = *l < 0.5f ? diff / (vmax + vmin) : diff / (2.0f - vmax - vmin);
    diff = 60.f / diff;
    if (vmax == r) {
      *h = (g - b) * diff;
    } else if (vmax == g) {
      *h = (b - r) * diff + 120.f;
    } else {
      *h = (r - g) * diff + 240.f;
    }
    if (*h < 0.f) *h += 360.f;
  }
}

/*! \brief The inverse of RgbToHls (the hue may be any angle). */
void HlsToRgb(float h, float l, float s, float* r, float* g, float* b) {
  if (s == 0.f) {
    *r = *g = *b = l * 255.f;
    return;
  }
  // Which of (p2, p1, falling, rising) feeds b, g, r in each 60-degree sector.
  static const int kSector[6][3] = {{1, 3, 0}, {1, 0, 2}, {3, 0, 1},
                                    {0, 2, 1}, {0, 1, 3}, {2, 1, 0}};
  const float p2 = l <= 0.5f ? l * (1 + s) : l + s - l * s;
  const float p1 = 2 * l - p2;
  h /= 60.f;
  while (h < 0) h += 6;
  while (h >= 6) h -= 6;
  const int sector = std::min(5, static_cast<int>(std::floor(h)));
  h -= sector;
  const float tab[4] = {p2, p1, p1 + (p2 - p1) * (1 - h), p1 + (p2 - p1) * h};
  *b = tab[kSector[sector][0]] * 255.f;
  *g = tab[kSector[sector][1]] * 255.f;
  *r = tab[kSector[sector][2]] * 255.f;
}

/*! \brief Rotates the hue of every pixel by alpha * 360 degrees. */
template <typename DType>
void AdjustHue(const DType* x, DType* y, const mxnet::TShape& s, float alpha) {
  const index_t pixels = s[0] * s[1], c = s[2];
  if (c == 1 || std::fabs(alpha) < 1e-3f) {  // 1.9.1 skips rotations below 1e-3
    if (x != y) std::copy(x, x + pixels * c, y);
    return;
  }
  #pragma omp parallel for
  for (index_t p = 0; p < pixels; ++p) {
    float h, l, sat, r, g, b;
    RgbToHls(static_cast<float>(x[p * 3]), static_cast<float>(x[p * 3 + 1]),
             static_cast<float>(x[p * 3 + 2]), &h, &l, &sat);
    HlsToRgb(h + alpha * 360.f, l, sat, &r, &g, &b);
    y[p * 3] = SaturateCast<DType>(r);
    y[p * 3 + 1] = SaturateCast<DType>(g);
    y[p * 3 + 2] = SaturateCast<DType>(b);
  }
}

/*! \brief AlexNet-style PCA lighting noise: adds eigvec * (alpha * eigval) to every pixel. */
template <typename DType>
void AdjustLighting(const DType* x, DType* y, const mxnet::TShape& s, const float alpha[3]) {
  static const float kEigval[3] = {55.46f, 4.794f, 1.148f};
  static const float kEigvec[3][3] = {{-0.5675f, 0.7192f, 0.4009f},
                                      {-0.5808f, -0.0045f, -0.8140f},
                                      {-0.5836f, -0.6948f, 0.4203f}};
  const index_t pixels = s[0] * s[1], c = s[2];
  float pca[3];
  for (int ch = 0; ch < 3; ++ch) {
    pca[ch] = 0.f;
    for (int k = 0; k < 3; ++k) pca[ch] += kEigvec[ch][k] * kEigval[k] * alpha[k];
  }
  if (c == 1) {
    if (x != y) std::copy(x, x + pixels, y);
    return;
  }
  for (index_t p = 0; p < pixels; ++p)
    for (int ch = 0; ch < 3; ++ch)
      y[p * 3 + ch] = SaturateCast<DType>(static_cast<AccType<DType>>(x[p * 3 + ch]) + pca[ch]);
}

enum ColorOp { kBrightness, kContrast, kSaturation, kHue };

/*! \brief Applies one colour adjustment with factor alpha, reading x and writing y. */
template <typename DType>
void ApplyColorOp(ColorOp op, const DType* x, DType* y, const mxnet::TShape& s, float alpha) {
  switch (op) {
    case kBrightness: AdjustBrightness(x, y, s.Size(), alpha); break;
    case kContrast: AdjustContrast(x, y, s, alpha); break;
    case kSaturation: AdjustSaturation(x, y, s, alpha); break;
    case kHue: AdjustHue(x, y, s, alpha); break;
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
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* src = inputs[0].dptr<DType>();
    DType* dst = outputs[0].dptr<DType>();
    for (int op : order) {
      if (strength[op] <= 0) continue;
      const float jitter = DrawUniform(ctx, -strength[op], strength[op]);
      const float alpha = op == kHue ? jitter : 1.f + jitter;
      ApplyColorOp<DType>(static_cast<ColorOp>(op), src, dst, inputs[0].shape_, alpha);
      src = dst;  // later stages work in place on the output
    }
    if (src != dst) CopyIfDistinct<DType>(inputs[0], outputs[0]);
  });
}

void AdjustLightingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const AdjustLightingParam& p = nnvm::get<AdjustLightingParam>(attrs.parsed);
  const float alpha[3] = {p.alpha[0], p.alpha[1], p.alpha[2]};
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    AdjustLighting(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), inputs[0].shape_, alpha);
  });
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
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    AdjustLighting(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), inputs[0].shape_, alpha);
  });
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

/*! \brief grad = false: small = big[window]; grad = true: big = 0 except big[window] = small. */
void CropRun(const CropParam& p, const TBlob& big, const TBlob& small, OpReqType req,
             bool grad) {
  if (req == kNullOp) return;
  const mxnet::TShape& s = big.shape_;
  const int hd = s.ndim() - 3;
  const index_t n = hd == 1 ? s[0] : 1, h = s[hd], w = s[hd + 1], c = s[hd + 2];
  const index_t row = p.width * c;
  MSHADOW_TYPE_SWITCH(big.type_flag_, DType, {
    DType* bp = big.dptr<DType>();
    DType* sp = small.dptr<DType>();
    if (grad && req != kAddTo) std::fill(bp, bp + big.Size(), DType(0));
    for (index_t img = 0; img < n; ++img) {
      for (index_t r = 0; r < p.height; ++r) {
        DType* b = bp + ((img * h + p.y + r) * w + p.x) * c;
        DType* sm = sp + (img * p.height + r) * row;
        for (index_t k = 0; k < row; ++k) {
          if (grad) {
            b[k] = b[k] + sm[k];
          } else {
            sm[k] = req == kAddTo ? static_cast<DType>(sm[k] + b[k]) : b[k];
          }
        }
      }
    }
  });
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
.set_attr<FCompute>("FCompute<cpu>", ToTensorCompute)
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
.set_attr<FCompute>("FCompute<cpu>", ToTensorGradCompute);

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
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  NormalizeRun(attrs, inputs[0], outputs[0], req[0], false);
})
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
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  NormalizeRun(attrs, inputs[0], outputs[0], req[0], true);
});

MXNET_IMAGE_UNARY(_image_flip_left_right)
.describe("Reverses the columns of an (H x W x C) image (C = 1 or 3).")
MXNET_IMAGE_SINGLE_SHAPE(_image_flip_left_right)
.set_attr<FCompute>("FCompute<cpu>", FlipCompute<1>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_image_flip_left_right"});

MXNET_IMAGE_UNARY(_image_flip_top_bottom)
.describe("Reverses the rows of an (H x W x C) image (C = 1 or 3).")
MXNET_IMAGE_SINGLE_SHAPE(_image_flip_top_bottom)
.set_attr<FCompute>("FCompute<cpu>", FlipCompute<0>)
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
.set_attr<FCompute>("FCompute<cpu>", AdjustLightingCompute)
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
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  CropRun(nnvm::get<CropParam>(attrs.parsed), inputs[0], outputs[0], req[0], false);
})
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
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  CropRun(nnvm::get<CropParam>(attrs.parsed), outputs[0], inputs[0], req[0], true);
});

}  // namespace image
}  // namespace op
}  // namespace mxnet
