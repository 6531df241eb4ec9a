/*!
 * \file image_ops-inl.h
 * \brief The `_image_*` operators' parameters and kernels for every device (image_ops.cc
 *        registers them with their docs and inference, image_ops.cu adds FCompute<gpu>):
 *        layout checks with MXNet 1.9.1's rules, the saturating cast that integer images need,
 *        and one mxnet_op functor per operator.
 *
 * The functors have mxnet_op's chunked form, Map(start, length, ...) run by LaunchEx: a GPU
 * thread does one element (length 1), a CPU thread a contiguous chunk, walking the coordinates
 * with counters instead of dividing for every element.
 *
 * The random ops (_image_random_*) draw their few factors on the host from the kRandom
 * resource (a host generator on every device) and then launch the same functors.
 *
 * Layouts: images are (H, W, C) or batches (N, H, W, C); to_tensor turns them into (C, H, W) /
 * (N, C, H, W) float32 in [0, 1], which normalize consumes.
 *
 * The functors give the same bits on both devices: products that feed an addition go through
 * MulRn, which keeps nvcc from fusing them into an FMA (the CPU build has no FMA).
 */
#ifndef MXNET_OPERATOR_IMAGE_IMAGE_OPS_INL_H_
#define MXNET_OPERATOR_IMAGE_IMAGE_OPS_INL_H_

#include <dmlc/logging.h>
#include <dmlc/parameter.h>
#include <mshadow/random.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <mxnet/tuple.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

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

struct AdjustLightingParam : public dmlc::Parameter<AdjustLightingParam> {
  mxnet::Tuple<float> alpha;
  DMLC_DECLARE_PARAMETER(AdjustLightingParam) {
    DMLC_DECLARE_FIELD(alpha).describe("The lighting alphas for the R, G, B channels.");
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

// ---------------------------------------------------------------- checks and helpers

/*! \brief An image (H, W, C) or a batch (N, H, W, C); throws otherwise, naming the op. */
inline void CheckImageOrBatch(const char* op, const mxnet::TShape& s) {
  if (s.ndim() != 3 && s.ndim() != 4) {
    MX_THROW(dmlc::ValueError) << op << ": input image must have shape (height, width, channels) "
                               << "or (N, height, width, channels), but got " << s;
  }
}

/*! \brief A single (H, W, C) image with 1 or 3 channels (the colour ops of 1.9.1). */
inline void CheckSingleImage(const char* op, const mxnet::TShape& s) {
  if (s.ndim() != 3) {
    MX_THROW(dmlc::ValueError) << op << ": input image must have shape (height, width, channels), "
                               << "but got " << s;
  }
  if (s[2] != 1 && s[2] != 3) {
    MX_THROW(dmlc::ValueError) << op << ": the last dimension of the input image must be the "
                               << "channel dimension with either 1 or 3 elements, but got input "
                               << "with shape " << s;
  }
}

/*! \brief float arithmetic as 1.9.1, but double for double images (keeps their precision). */
template <typename DType>
using AccType = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

/*!
 * \brief double -> DType as 1.9.1's image ops store results: integer types clamp to their range
 *        and truncate toward zero; floating types convert directly.
 */
template <typename DType>
MSHADOW_XINLINE DType SaturateCast(double v) {
  if constexpr (std::is_integral<DType>::value) {
    constexpr double lo = static_cast<double>(std::numeric_limits<DType>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<DType>::max());
    if (!(v >= lo)) return std::numeric_limits<DType>::min();  // also NaN
    if (v > hi) return std::numeric_limits<DType>::max();
    return static_cast<DType>(v);
  } else if constexpr (std::is_same<DType, double>::value) {
    return v;
  } else {
    return static_cast<DType>(static_cast<float>(v));
  }
}

/*! \brief a * b rounded by itself: nvcc would fuse a product into the addition that follows
 *         (FMA) and the GPU would differ from the CPU in the last bit. */
MSHADOW_XINLINE float MulRn(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
MSHADOW_XINLINE double MulRn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

/*! \brief Up to three per-channel floats, passed to kernels by value. */
struct Channels3 {
  float v[3];
};

/*! \brief The per-channel value of a mean/std tuple: 1 value, `channels` values, or all equal. */
inline Channels3 PerChannel(const mxnet::Tuple<float>& t, index_t channels, const char* arg,
                            const mxnet::TShape& shape) {
  bool all_equal = t.ndim() > 0;
  for (int i = 1; i < t.ndim(); ++i) all_equal &= t[i] == t[0];
  Channels3 r{{0.f, 0.f, 0.f}};
  if (channels <= 3 && (t.ndim() == channels || (t.ndim() >= 1 && (t.ndim() == 1 || all_equal)))) {
    for (index_t ch = 0; ch < channels; ++ch) r.v[ch] = t.ndim() == channels ? t[ch] : t[0];
    return r;
  }
  MX_THROW(dmlc::ValueError) << "_image_normalize: invalid " << arg << " for input with shape "
                             << shape << ": " << arg << " must have either 1 or " << channels
                             << " elements, but got " << t;
  return r;
}

/*! \brief (n, h, w, c) of an image (H, W, C) (n = 1) or a batch (N, H, W, C). */
struct ImageDims {
  index_t n, h, w, c;
};

inline ImageDims DimsOf(const mxnet::TShape& s) {
  const bool batch = s.ndim() == 4;
  return {batch ? s[0] : 1, s[batch ? 1 : 0], s[batch ? 2 : 1], s[batch ? 3 : 2]};
}

/*! \brief y[i] = x[i]. */
struct ImageCopyKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x) { y[i] = x[i]; }
};

template <typename xpu>
void CopyIfDistinct(mshadow::Stream<xpu>* s, const TBlob& in, const TBlob& out) {
  if (in.dptr_ == out.dptr_) return;
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    mxnet_op::Kernel<ImageCopyKernel, xpu>::Launch(s, in.Size(), out.dptr<DType>(),
                                                   in.dptr<DType>());
  });
}

// ---------------------------------------------------------------- to_tensor

/*! \brief out (N, C, H*W) = in (N, H*W, C) / 255 in float; the index walks out. */
struct ToTensorKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, float* out, const DType* in,
                                  index_t plane, index_t c, int req) {
    index_t p = start % plane, ch = (start / plane) % c, img = start / (plane * c);
    for (index_t i = start; i < start + length; ++i) {
      const float v = static_cast<float>(in[(img * plane + p) * c + ch]) / 255.0f;
      out[i] = req == kAddTo ? out[i] + v : v;
      if (++p == plane) {
        p = 0;
        if (++ch == c) {
          ch = 0;
          ++img;
        }
      }
    }
  }
};

/*! \brief The input gradient of to_tensor: g (N, H*W, C) = og (N, C, H*W) / 255; the index
 *         walks g. */
struct ToTensorGradKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, DType* g, const float* og,
                                  index_t plane, index_t c, int req) {
    index_t ch = start % c, p = (start / c) % plane, img = start / (plane * c);
    for (index_t i = start; i < start + length; ++i) {
      const float v = og[(img * c + ch) * plane + p] / 255.0f;
      g[i] = req == kAddTo ? static_cast<DType>(static_cast<float>(g[i]) + v)
                           : static_cast<DType>(v);
      if (++ch == c) {
        ch = 0;
        if (++p == plane) {
          p = 0;
          ++img;
        }
      }
    }
  }
};

template <typename xpu>
void ToTensorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const ImageDims d = DimsOf(inputs[0].shape_);
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<ToTensorKernel, xpu>::LaunchEx(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<float>(),
        inputs[0].dptr<DType>(), d.h * d.w, d.c, static_cast<int>(req[0]));
  });
}

template <typename xpu>
void ToTensorGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const ImageDims d = DimsOf(outputs[0].shape_);  // the image layout
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mxnet_op::Kernel<ToTensorGradKernel, xpu>::LaunchEx(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<float>(), d.h * d.w, d.c, static_cast<int>(req[0]));
  });
}

// ---------------------------------------------------------------- normalize

/*! \brief y = (x - mean[ch]) / std[ch] (grad: y = x / std[ch]) for (N, C, plane) tensors. */
struct NormalizeKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, DType* y, const DType* x,
                                  index_t plane, index_t c, Channels3 mean, Channels3 sd,
                                  bool grad, int req) {
    using AccT = AccType<DType>;
    index_t p = start % plane, ch = (start / plane) % c;
    for (index_t i = start, end = start + length; i < end;) {  // one run per channel plane
      const index_t stop = end - i < plane - p ? end : i + plane - p;
      const AccT m = grad ? AccT(0) : static_cast<AccT>(mean.v[ch]);
      const AccT sdev = static_cast<AccT>(sd.v[ch]);
      for (; i < stop; ++i) {
        const AccT v = (static_cast<AccT>(x[i]) - m) / sdev;
        y[i] = req == kAddTo ? static_cast<DType>(static_cast<AccT>(y[i]) + v)
                             : static_cast<DType>(v);
      }
      p = 0;
      ch = ch + 1 == c ? 0 : ch + 1;
    }
  }
};

/*! \brief grad = false: y = (x - mean) / std; grad = true: y = x / std (the input gradient). */
template <typename xpu>
void NormalizeRun(const OpContext& ctx, const NormalizeParam& p, const TBlob& x, const TBlob& y,
                  OpReqType req, bool grad) {
  if (req == kNullOp || x.Size() == 0) return;
  const mxnet::TShape& s = x.shape_;
  const index_t c = s[s.ndim() - 3];
  const index_t plane = s[s.ndim() - 2] * s[s.ndim() - 1];
  const Channels3 mean = PerChannel(p.mean, c, "mean", s);
  const Channels3 sd = PerChannel(p.std, c, "std", s);
  MSHADOW_REAL_TYPE_SWITCH(x.type_flag_, DType, {
    mxnet_op::Kernel<NormalizeKernel, xpu>::LaunchEx(ctx.get_stream<xpu>(), x.Size(),
                                                     y.dptr<DType>(), x.dptr<DType>(), plane,
                                                     c, mean, sd, grad, static_cast<int>(req));
  });
}

template <typename xpu, bool grad>
void NormalizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  NormalizeRun<xpu>(ctx, nnvm::get<NormalizeParam>(attrs.parsed), inputs[0], outputs[0], req[0],
                    grad);
}

// ---------------------------------------------------------------- flips

/*!
 * \brief Reverses axis 0 (rows) or 1 (columns) of an (H, W, C) image. Thread i swaps one pair
 *        of elements (reading both before writing), so x == y (in place) is safe.
 */
struct FlipKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, DType* y, const DType* x,
                                  index_t h, index_t w, index_t c, int axis) {
    // axis 0: pairs (r, k) over ((h + 1) / 2, w * c); axis 1: (r, col, ch) over
    // (h, (w + 1) / 2, c).
    // Runs of `inner` consecutive pairs: a row (axis 0) or a pixel's channels (axis 1).
    const index_t row = w * c, inner = axis == 0 ? row : c, half = (w + 1) / 2;
    index_t k = start % inner, col = axis == 0 ? 0 : (start / c) % half;
    index_t r = axis == 0 ? start / row : start / (c * half);
    for (index_t i = start, end = start + length; i < end;) {
      const index_t n = end - i < inner - k ? end - i : inner - k;
      const index_t a = axis == 0 ? r * row + k : (r * w + col) * c + k;
      const index_t b = axis == 0 ? (h - 1 - r) * row + k : (r * w + w - 1 - col) * c + k;
      for (index_t j = 0; j < n; ++j) {
        const DType va = x[a + j], vb = x[b + j];
        y[a + j] = vb;
        y[b + j] = va;
      }
      i += n;
      k = 0;
      if (axis == 0 || ++col == half) {
        col = 0;
        ++r;
      }
    }
  }
};

template <typename xpu>
void FlipRun(mshadow::Stream<xpu>* s, const TBlob& in, const TBlob& out, int axis) {
  const index_t h = in.shape_[0], w = in.shape_[1], c = in.shape_[2];
  const index_t pairs = axis == 0 ? (h + 1) / 2 * w * c : h * ((w + 1) / 2) * c;
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    mxnet_op::Kernel<FlipKernel, xpu>::LaunchEx(s, pairs, out.dptr<DType>(), in.dptr<DType>(), h,
                                              w, c, axis);
  });
}

template <typename xpu, int axis>
void FlipCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  FlipRun<xpu>(ctx.get_stream<xpu>(), inputs[0], outputs[0], axis);
}

// ---------------------------------------------------------------- colour adjustments

/*! \brief y = x * alpha. */
struct BrightnessKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, float alpha) {
    y[i] = SaturateCast<DType>(static_cast<float>(x[i]) * alpha);
  }
};

/*!
 * \brief y = x * alpha + (1 - alpha) * gray, one thread per RGB pixel. MXNet 1.9.1's kernel
 *        keeps only the last term of its gray sum (0.114 * blue); we reproduce that so that
 *        results match 1.9.1.
 */
struct SaturationKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t p, DType* y, const DType* x, float alpha) {
    const float gray = MulRn(MulRn(0.114f, static_cast<float>(x[p * 3 + 2])), 1.f - alpha);
    for (index_t ch = 0; ch < 3; ++ch)
      y[p * 3 + ch] = SaturateCast<DType>(MulRn(static_cast<float>(x[p * 3 + ch]), alpha) + gray);
  }
};

MSHADOW_XINLINE float MaxF(float a, float b) { return a < b ? b : a; }  // as std::max
MSHADOW_XINLINE float MinF(float a, float b) { return b < a ? b : a; }  // as std::min

/*! \brief RGB in [0, 255] -> hue in degrees [0, 360), lightness and saturation in [0, 1]. */
MSHADOW_XINLINE void RgbToHls(float r, float g, float b, float* h, float* l, float* s) {
  r /= 255.f;
  g /= 255.f;
  b /= 255.f;
  const float vmax = MaxF(r, MaxF(g, b)), vmin = MinF(r, MinF(g, b));
  float diff = vmax - vmin;
  *l = (vmax + vmin) * 0.5f;
  *h = 0.f;
  *s = 0.f;
  if (diff > 1.1920928955078125e-07f) {  // FLT_EPSILON
    *s = *l < 0.5f ? diff / (vmax + vmin) : diff / (2.0f - vmax - vmin);
    diff = 60.f / diff;
    if (vmax == r) {
      *h = MulRn(g - b, diff);
    } else if (vmax == g) {
      *h = MulRn(b - r, diff) + 120.f;
    } else {
      *h = MulRn(r - g, diff) + 240.f;
    }
    if (*h < 0.f) *h += 360.f;
  }
}

/*! \brief The inverse of RgbToHls (the hue may be any angle). */
MSHADOW_XINLINE void HlsToRgb(float h, float l, float s, float* r, float* g, float* b) {
  if (s == 0.f) {
    *r = *g = *b = l * 255.f;
    return;
  }
  // Which of (p2, p1, falling, rising) feeds b, g, r in each 60-degree sector.
  const int kSector[6][3] = {{1, 3, 0}, {1, 0, 2}, {3, 0, 1}, {0, 2, 1}, {0, 1, 3}, {2, 1, 0}};
  const float p2 = l <= 0.5f ? MulRn(l, 1 + s) : l + s - MulRn(l, s);
  const float p1 = 2 * l - p2;
  h /= 60.f;
  while (h < 0) h += 6;
  while (h >= 6) h -= 6;
  int sector = static_cast<int>(floorf(h));
  if (sector > 5) sector = 5;
  h -= sector;
  const float tab[4] = {p2, p1, p1 + MulRn(p2 - p1, 1 - h), p1 + MulRn(p2 - p1, h)};
  *b = tab[kSector[sector][0]] * 255.f;
  *g = tab[kSector[sector][1]] * 255.f;
  *r = tab[kSector[sector][2]] * 255.f;
}

/*! \brief Rotates the hue of RGB pixel p by alpha * 360 degrees. */
struct HueKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t p, DType* y, const DType* x, float alpha) {
    float h, l, sat, r, g, b;
    RgbToHls(static_cast<float>(x[p * 3]), static_cast<float>(x[p * 3 + 1]),
             static_cast<float>(x[p * 3 + 2]), &h, &l, &sat);
    HlsToRgb(h + MulRn(alpha, 360.f), l, sat, &r, &g, &b);
    y[p * 3] = SaturateCast<DType>(r);
    y[p * 3 + 1] = SaturateCast<DType>(g);
    y[p * 3 + 2] = SaturateCast<DType>(b);
  }
};

/*! \brief AlexNet-style PCA lighting noise: y = x + pca[ch] for RGB pixel p. */
struct LightingKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t p, DType* y, const DType* x, Channels3 pca) {
    for (int ch = 0; ch < 3; ++ch) {
      y[p * 3 + ch] = SaturateCast<DType>(static_cast<AccType<DType>>(x[p * 3 + ch]) + pca.v[ch]);
    }
  }
  /*! \brief Pixels [start, start + length): the CPU's chunks, the same math per pixel. */
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, DType* y, const DType* x,
                                  Channels3 pca) {
    for (index_t p = start; p < start + length; ++p) Map(p, y, x, pca);
  }
};

/*! \brief Adds eigvec * (alpha * eigval) to every pixel of an RGB image (copies gray ones). */
template <typename xpu>
void AdjustLightingRun(mshadow::Stream<xpu>* s, const TBlob& in, const TBlob& out,
                       const float alpha[3]) {
  const float kEigval[3] = {55.46f, 4.794f, 1.148f};
  const float kEigvec[3][3] = {{-0.5675f, 0.7192f, 0.4009f},
                               {-0.5808f, -0.0045f, -0.8140f},
                               {-0.5836f, -0.6948f, 0.4203f}};
  if (in.shape_[2] == 1) {
    CopyIfDistinct(s, in, out);
    return;
  }
  Channels3 pca;
  for (int ch = 0; ch < 3; ++ch) {
    pca.v[ch] = 0.f;
    for (int k = 0; k < 3; ++k) pca.v[ch] += kEigvec[ch][k] * kEigval[k] * alpha[k];
  }
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    mxnet_op::Kernel<LightingKernel, xpu>::LaunchEx(s, in.Size() / 3, out.dptr<DType>(),
                                                    in.dptr<DType>(), pca);
  });
}

template <typename xpu>
void AdjustLightingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const AdjustLightingParam& p = nnvm::get<AdjustLightingParam>(attrs.parsed);
  const float alpha[3] = {p.alpha[0], p.alpha[1], p.alpha[2]};
  AdjustLightingRun<xpu>(ctx.get_stream<xpu>(), inputs[0], outputs[0], alpha);
}

// ---------------------------------------------------------------- random ops
//
// The factors are drawn on the host from the op's kRandom resource, a host generator on every
// device (seeded per device id), so a call on gpu(0) after mx.random.seed(s) draws what a call
// on cpu(0) draws after the same seed; the kernels then run on the op's stream.

/*! \brief One uniform draw in [lo, hi) from the op's kRandom generator (lo when hi <= lo). */
inline float DrawUniform(const OpContext& ctx, float lo, float hi) {
  auto* rnd = ctx.requested[0].get_random<cpu, float>(nullptr);
  float v = lo;
  if (hi > lo) rnd->SampleUniform(&v, 1, lo, hi);
  return v;
}

template <typename xpu, int axis>
void RandomFlipCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  if (DrawUniform(ctx, 0.f, 1.f) < 0.5f) {
    FlipRun<xpu>(s, inputs[0], outputs[0], axis);
  } else {
    CopyIfDistinct<xpu>(s, inputs[0], outputs[0]);
  }
}

/*!
 * \brief *sum = the summed gray value of an (H, W, C) image, in double, pixel by pixel. One
 *        thread does it all: the CPU's order of additions, hence its bits, on both devices.
 */
struct GraySumKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t, double* sum, const DType* x, index_t pixels,
                                  index_t c) {
    double acc = 0;
    for (index_t p = 0; p < pixels; ++p) {
      if (c == 3) {
        acc += MulRn(0.299, static_cast<double>(static_cast<float>(x[p * 3]))) +
               MulRn(0.587, static_cast<double>(static_cast<float>(x[p * 3 + 1]))) +
               MulRn(0.114, static_cast<double>(static_cast<float>(x[p * 3 + 2])));
      } else {
        acc += static_cast<float>(x[p]);
      }
    }
    *sum = acc;
  }
};

/*! \brief y = x * alpha + (1 - alpha) * mean gray, the mean being *sum / pixels. */
struct ContrastKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, const double* sum,
                                  index_t pixels, float alpha) {
    const float beta = MulRn(1.f - alpha, static_cast<float>(*sum / pixels));
    y[i] = SaturateCast<DType>(MulRn(static_cast<float>(x[i]), alpha) + beta);
  }
};

enum ColorOp { kBrightness, kContrast, kSaturation, kHue };

/*!
 * \brief Applies one colour adjustment with factor alpha to an (H, W, C) image, reading x and
 *        writing y (x == y is fine). Gray images pass saturation and hue unchanged, as 1.9.1.
 *        Contrast needs `sum`, one double of device memory (the op's kTempSpace).
 */
template <typename xpu, typename DType>
void ApplyColorOp(mshadow::Stream<xpu>* s, ColorOp op, const DType* x, DType* y,
                  const mxnet::TShape& shape, float alpha, double* sum) {
  using mxnet_op::Kernel;
  const index_t pixels = shape[0] * shape[1], c = shape[2];
  const bool identity = (op == kSaturation || op == kHue) &&
                        (c == 1 || (op == kHue && fabsf(alpha) < 1e-3f));  // 1.9.1's skip
  if (identity) {
    if (x != y) Kernel<ImageCopyKernel, xpu>::Launch(s, pixels * c, y, x);
    return;
  }
  switch (op) {
    case kBrightness: Kernel<BrightnessKernel, xpu>::Launch(s, pixels * c, y, x, alpha); break;
    case kContrast:
      CHECK(sum != nullptr) << "ApplyColorOp: contrast without temp space (a bug)";
      Kernel<GraySumKernel, xpu>::Launch(s, 1, sum, x, pixels, c);
      Kernel<ContrastKernel, xpu>::Launch(s, pixels * c, y, x, static_cast<const double*>(sum),
                                          pixels, alpha);
      break;
    case kSaturation: Kernel<SaturationKernel, xpu>::Launch(s, pixels, y, x, alpha); break;
    case kHue: Kernel<HueKernel, xpu>::Launch(s, pixels, y, x, alpha); break;
  }
}

/*! \brief The random brightness / contrast / saturation / hue ops: one factor drawn uniformly
 *         from [min_factor, max_factor). Contrast's resources are (kRandom, kTempSpace). */
template <typename xpu, ColorOp op>
void RandomColorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const RandomEnhanceParam& p = nnvm::get<RandomEnhanceParam>(attrs.parsed);
  const float alpha = DrawUniform(ctx, p.min_factor, p.max_factor);
  double* sum = op == kContrast ? ctx.requested[1].get_space_typed_ptr<double>(1) : nullptr;
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    ApplyColorOp<xpu, DType>(ctx.get_stream<xpu>(), op, inputs[0].dptr<DType>(),
                             outputs[0].dptr<DType>(), inputs[0].shape_, alpha, sum);
  });
}

/*!
 * \brief Brightness, contrast, saturation and hue in an order shuffled per call (as 1.9.1); an
 *        adjustment whose strength is 0 is skipped. Each stage draws its factor on the host
 *        just before queuing its kernels, so the draws are the CPU's in the CPU's order.
 *        Resources (kRandom, kTempSpace).
 */
template <typename xpu>
void RandomColorJitterCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const RandomColorJitterParam& p = nnvm::get<RandomColorJitterParam>(attrs.parsed);
  auto* rnd = ctx.requested[0].get_random<cpu, float>(nullptr);
  int order[4] = {kBrightness, kContrast, kSaturation, kHue};
  for (int i = 3; i > 0; --i) {  // Fisher-Yates on our own draws: portable across libstdc++
    const int j = static_cast<int>(rnd->GetRandInt() % static_cast<uint32_t>(i + 1));
    std::swap(order[i], order[j]);
  }
  const float strength[4] = {p.brightness, p.contrast, p.saturation, p.hue};
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  double* sum = ctx.requested[1].get_space_typed_ptr<double>(1);
  bool applied = false;
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* src = inputs[0].dptr<DType>();
    DType* dst = outputs[0].dptr<DType>();
    for (int op : order) {
      if (strength[op] <= 0) continue;
      const float jitter = DrawUniform(ctx, -strength[op], strength[op]);
      const float alpha = op == kHue ? jitter : 1.f + jitter;
      ApplyColorOp<xpu, DType>(s, static_cast<ColorOp>(op), src, dst, inputs[0].shape_, alpha,
                               sum);
      src = dst;  // later stages work in place on the output
      applied = true;
    }
  });
  if (!applied) CopyIfDistinct<xpu>(s, inputs[0], outputs[0]);
}

/*! \brief AlexNet-style lighting with alpha drawn from N(0, alpha_std) per eigenvector. */
template <typename xpu>
void RandomLightingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const RandomLightingParam& p = nnvm::get<RandomLightingParam>(attrs.parsed);
  float alpha[3] = {0.f, 0.f, 0.f};
  if (p.alpha_std > 0) {
    ctx.requested[0].get_random<cpu, float>(nullptr)->SampleGaussian(alpha, 3, 0.f, p.alpha_std);
  }
  AdjustLightingRun<xpu>(ctx.get_stream<xpu>(), inputs[0], outputs[0], alpha);
}

// ---------------------------------------------------------------- crop

/*! \brief Crop window geometry: big is (n, h, w, c), small (n, height, width, c) at (y, x). */
struct CropGeom {
  index_t h, w, c, x, y, width, height;
};

/*! \brief small = big[window]; the index walks small, row by row. */
struct CropKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, DType* small, const DType* big,
                                  CropGeom g, int req) {
    const index_t row = g.width * g.c;
    index_t k = start % row, r = start / row;  // r: row of the whole batch of crops
    for (index_t i = start, end = start + length; i < end;) {  // one run per row
      const index_t n = end - i < row - k ? end - i : row - k;
      const index_t img = r / g.height;
      const DType* b = big + ((img * g.h + g.y + r - img * g.height) * g.w + g.x) * g.c + k;
      DType* sm = small + i;
      for (index_t j = 0; j < n; ++j) {
        sm[j] = req == kAddTo ? static_cast<DType>(sm[j] + b[j]) : b[j];
      }
      i += n;
      k = 0;
      ++r;
    }
  }
};

/*! \brief big = 0 (or kept, for req add) plus small inside the window; the index walks big. */
struct CropGradKernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, DType* big, const DType* small,
                                  CropGeom g, int req) {
    const index_t row = g.w * g.c, x0 = g.x * g.c, x1 = (g.x + g.width) * g.c;
    index_t k = start % row, r = (start / row) % g.h, img = start / (row * g.h);
    for (index_t i = start; i < start + length; ++i) {
      const DType base = req == kAddTo ? big[i] : DType(0);
      if (r >= g.y && r < g.y + g.height && k >= x0 && k < x1) {
        big[i] = base + small[(img * g.height + r - g.y) * g.width * g.c + k - x0];
      } else {
        big[i] = base;
      }
      if (++k == row) {
        k = 0;
        if (++r == g.h) {
          r = 0;
          ++img;
        }
      }
    }
  }
};

/*! \brief grad = false: small = big[window]; grad = true: big = 0 except big[window] = small. */
template <typename xpu>
void CropRun(const OpContext& ctx, const CropParam& p, const TBlob& big, const TBlob& small,
             OpReqType req, bool grad) {
  if (req == kNullOp) return;
  const ImageDims d = DimsOf(big.shape_);
  const CropGeom g{d.h, d.w, d.c, p.x, p.y, p.width, p.height};
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_TYPE_SWITCH(big.type_flag_, DType, {
    if (grad) {
      mxnet_op::Kernel<CropGradKernel, xpu>::LaunchEx(s, big.Size(), big.dptr<DType>(),
                                                      small.dptr<DType>(), g,
                                                      static_cast<int>(req));
    } else {
      mxnet_op::Kernel<CropKernel, xpu>::LaunchEx(s, small.Size(), small.dptr<DType>(),
                                                  big.dptr<DType>(), g, static_cast<int>(req));
    }
  });
}

template <typename xpu, bool grad>
void CropCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const CropParam& p = nnvm::get<CropParam>(attrs.parsed);
  if (grad) {
    CropRun<xpu>(ctx, p, outputs[0], inputs[0], req[0], true);
  } else {
    CropRun<xpu>(ctx, p, inputs[0], outputs[0], req[0], false);
  }
}

}  // namespace image
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_IMAGE_IMAGE_OPS_INL_H_
