/*!
 * \file resize.cc
 * \brief _image_resize: resizes (H, W, C) images or (N, H, W, C) batches with the sampling
 *        conventions of OpenCV's cv::resize, which MXNet 1.9.1 calls:
 *
 *   nearest (interp=0): source index floor(d * in / out), clamped to in - 1.
 *   bilinear (interp=1): source coordinate (d + 0.5) * in / out - 0.5 (float), neighbours
 *     floor and floor + 1 clamped to the image. uint8 uses OpenCV's fixed-point weights
 *     (11 fractional bits per axis) and its vector kernel's rounding (bit for bit); an exact
 *     2x downscale of both axes averages 2x2 blocks (OpenCV switches to INTER_AREA there).
 *   bicubic (interp=2, A = -0.75) and Lanczos (interp=4, 8 taps): same source coordinate, taps
 *     clamped to the image. area (interp=3): pixel-area means when shrinking both axes,
 *     bilinear with area-derived weights otherwise.
 *   size: (width, height), or one number: both sides, or the short side when keep_ratio
 *     (the long side scaled by integer arithmetic long * size / short).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./image_ops-inl.h"
#include "../../common/image_resize.h"

namespace mxnet {
namespace op {
namespace image {

struct ResizeParam : public dmlc::Parameter<ResizeParam> {
  mxnet::Tuple<int> size;
  bool keep_ratio;
  int interp;
  DMLC_DECLARE_PARAMETER(ResizeParam) {
    DMLC_DECLARE_FIELD(size).set_default(mxnet::Tuple<int>())
        .describe("Size of new image. Could be (width, height) or (size)");
    DMLC_DECLARE_FIELD(keep_ratio).set_default(false)
        .describe("Whether to resize the short edge or both edges to `size`, if size is give as "
                  "an integer.");
    DMLC_DECLARE_FIELD(interp).set_default(1)
        .describe("Interpolation method for resizing. By default uses bilinear interpolation"
                  "Options are INTER_NEAREST - a nearest-neighbor interpolation"
                  "INTER_LINEAR - a bilinear interpolation"
                  "INTER_AREA - resampling using pixel area relation"
                  "INTER_CUBIC - a bicubic interpolation over 4x4 pixel neighborhood"
                  "INTER_LANCZOS4 - a Lanczos interpolation over 8x8 pixel neighborhood"
                  "Note that the GPU version only support bilinear interpolation(1)");
  }
};

DMLC_REGISTER_PARAMETER(ResizeParam);

namespace {

constexpr int kCoefBits = 11;  // OpenCV's INTER_RESIZE_COEF_BITS
constexpr int kCoefScale = 1 << kCoefBits;

/*! \brief (height, width) of the output for an input of height h and width w. */
void OutputSize(const ResizeParam& p, dim_t h, dim_t w, dim_t* oh, dim_t* ow) {
  if (p.size.ndim() == 2) {
    *ow = p.size[0];
    *oh = p.size[1];
  } else if (p.keep_ratio) {
    const dim_t s = p.size[0];
    if (h > w) {
      *ow = s;
      *oh = h * s / w;
    } else {
      *oh = s;
      *ow = w * s / h;
    }
  } else {
    *oh = *ow = p.size[0];
  }
}

bool ResizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const ResizeParam& p = nnvm::get<ResizeParam>(attrs.parsed);
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  CheckImageOrBatch("_image_resize", s);
  if (p.size.ndim() != 1 && p.size.ndim() != 2) {
    MX_THROW(dmlc::ValueError) << "_image_resize: size must have 1 or 2 elements (size) or "
                               << "(width, height), but got " << p.size;
  }
  for (int v : p.size) {
    if (v <= 0) {
      MX_THROW(dmlc::ValueError) << "_image_resize: size must be positive, but got " << p.size;
    }
  }
  if (p.interp < 0 || p.interp > 4) {
    MX_THROW(dmlc::ValueError) << "_image_resize: interp must be 0 (nearest), 1 (bilinear), "
                               << "2 (bicubic), 3 (area) or 4 (Lanczos), got " << p.interp;
  }
  const int hd = s.ndim() - 3;
  if (!shape_is_known(s)) return false;
  dim_t oh, ow;
  OutputSize(p, s[hd], s[hd + 1], &oh, &ow);
  if (oh <= 0 || ow <= 0) {
    MX_THROW(dmlc::ValueError) << "_image_resize: output size (" << oh << ", " << ow
                               << ") must be positive (input shape " << s << ", size "
                               << p.size << ")";
  }
  mxnet::TShape o = s;
  o[hd] = oh;
  o[hd + 1] = ow;
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

bool ResizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0];
  if (t == -1) return false;
  if (t != mshadow::kUint8 && t != mshadow::kFloat32 && t != mshadow::kFloat64) {
    MX_THROW(dmlc::TypeError) << "_image_resize: input dtype must be uint8, float32 or float64, "
                              << "but got " << mshadow::dtype_string(t);
  }
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

/*! \brief Per output index: first source index, and the weights of it and the next one. */
struct LinearTaps {
  std::vector<index_t> i0, i1;
  std::vector<float> w0, w1;
};

/*!
 * \brief The first source index and the fraction towards the next one of output index d:
 *        half-pixel centres, or for INTER_AREA upscaling OpenCV's pixel-area rule.
 */
void LinearSource(index_t d, index_t in, index_t out, bool area, index_t* s, float* f) {
  const double scale = 1.0 / (static_cast<double>(out) / in);
  if (!area) {
    *f = static_cast<float>((d + 0.5) * scale - 0.5);
    *s = static_cast<index_t>(std::floor(*f));
    *f -= *s;
  } else {
    *s = static_cast<index_t>(std::floor(d * scale));
    const double inv = static_cast<double>(out) / in;
    float fr = static_cast<float>((d + 1) - (*s + 1) * inv);
    *f = fr <= 0 ? 0.f : fr - std::floor(fr);
  }
}

LinearTaps MakeLinearTaps(index_t in, index_t out, bool area) {
  LinearTaps t;
  t.i0.resize(out);
  t.i1.resize(out);
  t.w0.resize(out);
  t.w1.resize(out);
  for (index_t d = 0; d < out; ++d) {
    index_t s;
    float f;
    LinearSource(d, in, out, area, &s, &f);
    if (s < 0) {
      s = 0;
      f = 0;
    }
    if (s >= in - 1) {
      s = in - 1;
      f = 0;
    }
    t.i0[d] = s;
    t.i1[d] = std::min(s + 1, in - 1);
    t.w0[d] = 1.f - f;
    t.w1[d] = f;
  }
  return t;
}

/*! \brief Float bilinear: a horizontal pass per source row, then a vertical blend (OpenCV). */
template <typename DType>
void ResizeLinearFloat(const DType* x, DType* y, index_t h, index_t w, index_t c, index_t oh,
                       index_t ow, bool area) {
  const LinearTaps tx = MakeLinearTaps(w, ow, area), ty = MakeLinearTaps(h, oh, area);
  std::vector<DType> row0(ow * c), row1(ow * c);
  auto hpass = [&](index_t r, std::vector<DType>* dst) {
    const DType* src = x + r * w * c;
    for (index_t d = 0; d < ow; ++d)
      for (index_t ch = 0; ch < c; ++ch)
        (*dst)[d * c + ch] = src[tx.i0[d] * c + ch] * static_cast<DType>(tx.w0[d]) +
                             src[tx.i1[d] * c + ch] * static_cast<DType>(tx.w1[d]);
  };
  for (index_t d = 0; d < oh; ++d) {
    hpass(ty.i0[d], &row0);
    hpass(ty.i1[d], &row1);
    const DType b0 = static_cast<DType>(ty.w0[d]), b1 = static_cast<DType>(ty.w1[d]);
    DType* dst = y + d * ow * c;
    for (index_t k = 0; k < ow * c; ++k) dst[k] = row0[k] * b0 + row1[k] * b1;
  }
}

inline uint8_t ClampU8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v)); }

/*!
 * \brief uint8 bilinear with OpenCV's fixed-point arithmetic: 11-bit weights per axis, a
 *        horizontal pass into ints, then the vertical blend of its SSE2 kernel,
 *        ((r0 >> 4) * b0 >> 16) + ((r1 >> 4) * b1 >> 16) rounded by (+2) >> 2. Unlike the
 *        horizontal weights, the vertical ones are not reset at the borders (the rows are
 *        clamped instead), which changes the rounding there.
 */
void ResizeLinearU8(const uint8_t* x, uint8_t* y, index_t h, index_t w, index_t c, index_t oh,
                    index_t ow, bool area) {
  const LinearTaps tx = MakeLinearTaps(w, ow, area);
  std::vector<int> ia0(ow), ia1(ow);
  for (index_t d = 0; d < ow; ++d) {
    ia0[d] = static_cast<int>(std::lrint(tx.w0[d] * kCoefScale));
    ia1[d] = static_cast<int>(std::lrint(tx.w1[d] * kCoefScale));
  }
  const index_t width = ow * c;
  std::vector<int> row0(width), row1(width);
  auto hpass = [&](index_t r, std::vector<int>* dst) {
    const uint8_t* src = x + r * w * c;
    for (index_t d = 0; d < ow; ++d)
      for (index_t ch = 0; ch < c; ++ch)
        (*dst)[d * c + ch] = src[tx.i0[d] * c + ch] * ia0[d] + src[tx.i1[d] * c + ch] * ia1[d];
  };
  for (index_t d = 0; d < oh; ++d) {
    index_t sy;
    float f;
    LinearSource(d, h, oh, area, &sy, &f);
    hpass(std::min(std::max<index_t>(sy, 0), h - 1), &row0);
    hpass(std::min(std::max<index_t>(sy + 1, 0), h - 1), &row1);
    const int b0 = static_cast<int>(std::lrint((1.f - f) * kCoefScale));
    const int b1 = static_cast<int>(std::lrint(f * kCoefScale));
    uint8_t* dst = y + d * width;
    for (index_t k = 0; k < width; ++k) {
      const int a = ((row0[k] >> 4) * b0) >> 16;
      const int b = ((row1[k] >> 4) * b1) >> 16;
      dst[k] = ClampU8((a + b + 2) >> 2);
    }
  }
}

/*! \brief Exact 2x downscale: the mean of each 2x2 block (OpenCV's fast INTER_AREA). */
template <typename DType>
void ResizeHalf(const DType* x, DType* y, index_t w, index_t c, index_t oh, index_t ow) {
  for (index_t r = 0; r < oh; ++r)
    for (index_t d = 0; d < ow; ++d)
      for (index_t ch = 0; ch < c; ++ch) {
        const DType* p = x + ((2 * r) * w + 2 * d) * c + ch;
        if constexpr (std::is_same<DType, uint8_t>::value) {
          y[(r * ow + d) * c + ch] = static_cast<uint8_t>((p[0] + p[c] + p[w * c] + p[w * c + c] + 2) >> 2);
        } else {
          y[(r * ow + d) * c + ch] = (p[0] + p[c] + p[w * c] + p[w * c + c]) * static_cast<DType>(0.25);
        }
      }
}

/*! \brief OpenCV's bicubic weights (A = -0.75) of the 4 taps around a fraction x. */
void CubicWeights(float x, float w[4]) {
  const float A = -0.75f;
  w[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  w[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  w[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  w[3] = 1.f - w[0] - w[1] - w[2];
}

/*! \brief OpenCV's Lanczos weights (a = 4) of the 8 taps around a fraction x. */
void Lanczos4Weights(float x, float w[8]) {
  static const double s45 = 0.70710678118654752440084436210485;
  static const double cs[8][2] = {{1, 0}, {-s45, -s45}, {0, 1}, {s45, -s45},
                                  {-1, 0}, {s45, s45}, {0, -1}, {-s45, s45}};
  if (x < std::numeric_limits<float>::epsilon()) {
    for (int i = 0; i < 8; ++i) w[i] = 0;
    w[3] = 1;
    return;
  }
  const double pi = 3.14159265358979323846;
  const double y0 = -(x + 3) * pi * 0.25, s0 = std::sin(y0), c0 = std::cos(y0);
  float sum = 0;
  for (int i = 0; i < 8; ++i) {
    const double yy = -(x + 3 - i) * pi * 0.25;
    w[i] = static_cast<float>((cs[i][0] * s0 + cs[i][1] * c0) / (yy * yy));
    sum += w[i];
  }
  sum = 1.f / sum;
  for (int i = 0; i < 8; ++i) w[i] *= sum;
}

/*! \brief Per output index: K source indices (clamped to the image) and their weights. */
struct KernelTaps {
  std::vector<index_t> idx;  // K per output
  std::vector<float> w;      // K per output
};

template <int K>
KernelTaps MakeKernelTaps(index_t in, index_t out) {
  KernelTaps t;
  t.idx.resize(K * out);
  t.w.resize(K * out);
  const double scale = 1.0 / (static_cast<double>(out) / in);
  for (index_t d = 0; d < out; ++d) {
    float f = static_cast<float>((d + 0.5) * scale - 0.5);
    const index_t s = static_cast<index_t>(std::floor(f));
    f -= s;  // these kernels keep the fraction at the borders; only the indices clamp
    if (K == 4) {
      CubicWeights(f, &t.w[K * d]);
    } else {
      Lanczos4Weights(f, &t.w[K * d]);
    }
    for (int k = 0; k < K; ++k)
      t.idx[K * d + k] = std::min(std::max<index_t>(s - (K / 2 - 1) + k, 0), in - 1);
  }
  return t;
}

/*!
 * \brief Bicubic (K = 4, interp=2) or Lanczos (K = 8, interp=4): a horizontal pass per source
 *        row, then a vertical K-row blend. uint8 uses 11-bit fixed-point weights; its vertical
 *        blend is OpenCV's vector kernel for bicubic (float weights scaled by 2^-22, rounded to
 *        nearest) and its scalar one for Lanczos ((sum + 2^21) >> 22).
 */
template <int K, typename DType>
void ResizeKernel(const DType* x, DType* y, index_t h, index_t w, index_t c, index_t oh,
                  index_t ow) {
  constexpr bool kU8 = std::is_same<DType, uint8_t>::value;
  using RowT = typename std::conditional<kU8, int, DType>::type;
  const KernelTaps tx = MakeKernelTaps<K>(w, ow), ty = MakeKernelTaps<K>(h, oh);
  std::vector<RowT> ia(K * ow);
  for (index_t k = 0; k < K * ow; ++k) {
    ia[k] = kU8 ? static_cast<RowT>(std::lrint(tx.w[k] * kCoefScale)) : static_cast<RowT>(tx.w[k]);
  }
  const index_t width = ow * c;
  std::vector<std::vector<RowT>> rows(K, std::vector<RowT>(width));
  for (index_t d = 0; d < oh; ++d) {
    for (int r = 0; r < K; ++r) {
      const DType* src = x + ty.idx[K * d + r] * w * c;
      for (index_t o = 0; o < ow; ++o)
        for (index_t ch = 0; ch < c; ++ch) {
          RowT v = 0;
          for (int k = 0; k < K; ++k) v += src[tx.idx[K * o + k] * c + ch] * ia[K * o + k];
          rows[r][o * c + ch] = v;
        }
    }
    DType* dst = y + d * width;
    if constexpr (kU8) {
      int ib[K];
      for (int r = 0; r < K; ++r) ib[r] = static_cast<int>(std::lrint(ty.w[K * d + r] * kCoefScale));
      if (K == 4) {
        const float scale = 1.f / (kCoefScale * kCoefScale);
        float b[4];
        for (int r = 0; r < 4; ++r) b[r] = static_cast<float>(ib[r]) * scale;
        for (index_t k = 0; k < width; ++k) {
          float v = static_cast<float>(rows[0][k]) * b[0] + static_cast<float>(rows[1][k]) * b[1];
          v = v + static_cast<float>(rows[2][k]) * b[2];
          v = v + static_cast<float>(rows[3][k]) * b[3];
          dst[k] = ClampU8(static_cast<int>(std::nearbyint(v)));
        }
      } else {
        for (index_t k = 0; k < width; ++k) {
          int64_t v = 0;
          for (int r = 0; r < K; ++r) v += static_cast<int64_t>(rows[r][k]) * ib[r];
          dst[k] = ClampU8(static_cast<int>((v + (1 << 21)) >> 22));
        }
      }
    } else {
      for (index_t k = 0; k < width; ++k) {
        DType v = 0;
        for (int r = 0; r < K; ++r) v += rows[r][k] * static_cast<DType>(ty.w[K * d + r]);
        dst[k] = v;
      }
    }
  }
}

/*!
 * \brief INTER_AREA downscaling (both scales >= 1): each output is the mean of the source
 *        area it covers, with fractional weights for partly covered pixels (OpenCV's
 *        DecimateAlpha tables), accumulated in float and rounded to nearest for integers.
 */
struct AreaTap {
  index_t dst, src;
  float alpha;
};

std::vector<AreaTap> AreaTable(index_t in, index_t out) {
  std::vector<AreaTap> tab;
  const double scale = static_cast<double>(in) / out;
  for (index_t d = 0; d < out; ++d) {
    const double f1 = d * scale, f2 = f1 + scale;
    const double cell = std::min(scale, in - f1);
    index_t s1 = static_cast<index_t>(std::ceil(f1)), s2 = static_cast<index_t>(std::floor(f2));
    s2 = std::min(s2, in - 1);
    s1 = std::min(s1, s2);
    if (s1 - f1 > 1e-3) tab.push_back({d, s1 - 1, static_cast<float>((s1 - f1) / cell)});
    for (index_t k = s1; k < s2; ++k) tab.push_back({d, k, static_cast<float>(1.0 / cell)});
    if (f2 - s2 > 1e-3) {
      tab.push_back({d, s2, static_cast<float>(std::min(std::min(f2 - s2, 1.0), cell) / cell)});
    }
  }
  return tab;
}

template <typename DType>
void ResizeAreaDown(const DType* x, DType* y, index_t h, index_t w, index_t c, index_t oh,
                    index_t ow) {
  const index_t ix = w / ow, iy = h / oh;
  if (ix * ow == w && iy * oh == h) {  // integer factors: plain block means
    const float scale = 1.f / static_cast<float>(ix * iy);
    for (index_t r = 0; r < oh; ++r)
      for (index_t d = 0; d < ow; ++d)
        for (index_t ch = 0; ch < c; ++ch) {
          typename std::conditional<std::is_integral<DType>::value, int, DType>::type sum = 0;
          for (index_t a = 0; a < iy; ++a)
            for (index_t b = 0; b < ix; ++b) sum += x[((r * iy + a) * w + d * ix + b) * c + ch];
          y[(r * ow + d) * c + ch] =
              std::is_integral<DType>::value
                  ? static_cast<DType>(ClampU8(static_cast<int>(std::nearbyint(sum * scale))))
                  : static_cast<DType>(sum * scale);
        }
    return;
  }
  const std::vector<AreaTap> xt = AreaTable(w, ow), yt = AreaTable(h, oh);
  using AccT = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;
  std::vector<AccT> buf(ow * c), sum(ow * c, 0);
  auto flush = [&](index_t dy) {
    for (index_t k = 0; k < ow * c; ++k) {
      y[dy * ow * c + k] = std::is_integral<DType>::value
                               ? static_cast<DType>(ClampU8(static_cast<int>(std::nearbyint(sum[k]))))
                               : static_cast<DType>(sum[k]);
    }
  };
  index_t prev = -1;
  for (const AreaTap& ty : yt) {
    std::fill(buf.begin(), buf.end(), AccT(0));
    const DType* src = x + ty.src * w * c;
    for (const AreaTap& tx : xt)
      for (index_t ch = 0; ch < c; ++ch)
        buf[tx.dst * c + ch] += static_cast<AccT>(src[tx.src * c + ch]) * tx.alpha;
    if (ty.dst != prev) {
      if (prev >= 0) flush(prev);
      for (index_t k = 0; k < ow * c; ++k) sum[k] = ty.alpha * buf[k];
      prev = ty.dst;
    } else {
      for (index_t k = 0; k < ow * c; ++k) sum[k] += ty.alpha * buf[k];
    }
  }
  if (prev >= 0) flush(prev);
}

template <typename DType>
void ResizeNearest(const DType* x, DType* y, index_t h, index_t w, index_t c, index_t oh,
                   index_t ow) {
  const double fx = 1.0 / (static_cast<double>(ow) / w), fy = 1.0 / (static_cast<double>(oh) / h);
  std::vector<index_t> sx(ow);
  for (index_t d = 0; d < ow; ++d)
    sx[d] = std::min(static_cast<index_t>(std::floor(d * fx)), w - 1);
  for (index_t r = 0; r < oh; ++r) {
    const index_t sy = std::min(static_cast<index_t>(std::floor(r * fy)), h - 1);
    for (index_t d = 0; d < ow; ++d)
      for (index_t ch = 0; ch < c; ++ch) y[(r * ow + d) * c + ch] = x[(sy * w + sx[d]) * c + ch];
  }
}

template <typename DType>
void ResizeImage(const DType* x, DType* y, index_t h, index_t w, index_t c, index_t oh,
                 index_t ow, int interp) {
  // OpenCV: an exact 2x downscale with bilinear is done as INTER_AREA (2x2 means); INTER_AREA
  // that shrinks both axes averages areas, otherwise it is bilinear with area weights.
  const bool half = h == 2 * oh && w == 2 * ow;
  const bool area = interp == 3;
  if (interp == 0) {
    ResizeNearest(x, y, h, w, c, oh, ow);
  } else if (interp == 2) {
    ResizeKernel<4>(x, y, h, w, c, oh, ow);
  } else if (interp == 4) {
    ResizeKernel<8>(x, y, h, w, c, oh, ow);
  } else if (half) {
    ResizeHalf(x, y, w, c, oh, ow);
  } else if (area && h >= oh && w >= ow) {
    ResizeAreaDown(x, y, h, w, c, oh, ow);
  } else if constexpr (std::is_same<DType, uint8_t>::value) {
    ResizeLinearU8(x, y, h, w, c, oh, ow, area);
  } else {
    ResizeLinearFloat(x, y, h, w, c, oh, ow, area);
  }
}

template <typename DType>
void ResizeBatch(const TBlob& in, const TBlob& out, int interp) {
  const mxnet::TShape& s = in.shape_;
  const mxnet::TShape& o = out.shape_;
  const int hd = s.ndim() - 3;
  const index_t n = hd == 1 ? s[0] : 1;
  const index_t h = s[hd], w = s[hd + 1], c = s[hd + 2], oh = o[hd], ow = o[hd + 1];
  const DType* x = in.dptr<DType>();
  DType* y = out.dptr<DType>();
  #pragma omp parallel for
  for (index_t i = 0; i < n; ++i)
    ResizeImage(x + i * h * w * c, y + i * oh * ow * c, h, w, c, oh, ow, interp);
}

void ResizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(dmlc::ValueError) << "_image_resize: req='add' is not supported";
  }
  const int interp = nnvm::get<ResizeParam>(attrs.parsed).interp;
  switch (inputs[0].type_flag_) {
    case mshadow::kUint8: ResizeBatch<uint8_t>(inputs[0], outputs[0], interp); break;
    case mshadow::kFloat32: ResizeBatch<float>(inputs[0], outputs[0], interp); break;
    case mshadow::kFloat64: ResizeBatch<double>(inputs[0], outputs[0], interp); break;
    default:
      MX_THROW(dmlc::TypeError) << "_image_resize: unsupported dtype "
                                << mshadow::dtype_string(inputs[0].type_flag_);
  }
}

// ---- _cvimresize: MXNet 1.9.1's OpenCV resize of one (H, W, C) image to (h, w) ----------------

struct CvResizeParam : public dmlc::Parameter<CvResizeParam> {
  int w;
  int h;
  int interp;
  DMLC_DECLARE_PARAMETER(CvResizeParam) {
    DMLC_DECLARE_FIELD(w).set_lower_bound(1).describe("Width of resized image.");
    DMLC_DECLARE_FIELD(h).set_lower_bound(1).describe("Height of resized image.");
    DMLC_DECLARE_FIELD(interp).set_default(1)
        .describe("Interpolation method (default=cv2.INTER_LINEAR).");
  }
};

}  // namespace

DMLC_REGISTER_PARAMETER(CvResizeParam);

namespace {

bool CvResizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  const CvResizeParam& p = nnvm::get<CvResizeParam>(attrs.parsed);
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  if (s.ndim() != 3) {
    MX_THROW(dmlc::ValueError) << "_cvimresize: src must be an image of shape (height, width, "
                               << "channels), but got " << s;
  }
  if (p.interp < 0 || p.interp > 4) {
    MX_THROW(dmlc::ValueError) << "_cvimresize: interp must be 0 (nearest), 1 (bilinear), "
                               << "2 (bicubic), 3 (area) or 4 (Lanczos), got " << p.interp;
  }
  if (!shape_is_known(s)) return false;
  if (s[0] == 0 || s[1] == 0) {
    MX_THROW(dmlc::ValueError) << "_cvimresize: cannot resize an empty image " << s;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({p.h, p.w, s[2]}));
  return true;
}

bool CvResizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0];
  if (t == -1) return false;
  if (t != mshadow::kUint8 && t != mshadow::kFloat32 && t != mshadow::kFloat64) {
    MX_THROW(dmlc::TypeError) << "_cvimresize: src dtype must be uint8, float32 or float64, "
                              << "but got " << mshadow::dtype_string(t);
  }
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

void CvResizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) MX_THROW(dmlc::ValueError) << "_cvimresize: req='add' is not supported";
  const int interp = nnvm::get<CvResizeParam>(attrs.parsed).interp;
  switch (inputs[0].type_flag_) {
    case mshadow::kUint8: ResizeBatch<uint8_t>(inputs[0], outputs[0], interp); break;
    case mshadow::kFloat32: ResizeBatch<float>(inputs[0], outputs[0], interp); break;
    case mshadow::kFloat64: ResizeBatch<double>(inputs[0], outputs[0], interp); break;
    default:
      MX_THROW(dmlc::TypeError) << "_cvimresize: unsupported dtype "
                                << mshadow::dtype_string(inputs[0].type_flag_);
  }
}

}  // namespace

NNVM_REGISTER_OP(_image_resize)
.describe(R"code(Resizes an image (H x W x C) or a batch (N x H x W x C) to the given size
(width, height), or to (size, size), or with keep_ratio to a short side of size. Nearest
(interp=0) and bilinear (interp=1) sampling follow OpenCV's cv::resize.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ResizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ResizeShape)
.set_attr<nnvm::FInferType>("FInferType", ResizeType)
.set_attr<FCompute>("FCompute<cpu>", ResizeCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "The input.")
.add_arguments(ResizeParam::__FIELDS__());

}  // namespace image
}  // namespace op
}  // namespace mxnet

namespace mxnet {
namespace op {
namespace image {

NNVM_REGISTER_OP(_cvimresize)
.describe(R"code(Resize image with OpenCV.

Resizes an (height, width, channels) image to (h, w, channels) with OpenCV's cv::resize
conventions; interp: 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CvResizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"src"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CvResizeShape)
.set_attr<nnvm::FInferType>("FInferType", CvResizeType)
.set_attr<FCompute>("FCompute<cpu>", CvResizeCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("src", "NDArray", "source image")
.add_arguments(CvResizeParam::__FIELDS__());

}  // namespace image
}  // namespace op
}  // namespace mxnet

void mxnet::image_resize::ResizeUint8Image(const uint8_t* x, uint8_t* y, int64_t h, int64_t w,
                                           int64_t c, int64_t oh, int64_t ow, int interp) {
  mxnet::op::image::ResizeImage<uint8_t>(x, y, h, w, c, oh, ow, interp);
}
