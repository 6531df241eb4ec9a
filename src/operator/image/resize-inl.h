/*!
 * \file resize-inl.h
 * \brief _image_resize's parameters and kernels for every device (resize.cc registers the op and
 *        describes the sampling rules, resize.cu adds FCompute<gpu>). Output pixels are walked
 *        in order (a GPU thread takes one, a CPU thread a chunk). The taps (source indices and
 *        weights) of an output row are made once per row; those of the output columns once
 *        per call on the CPU, per pixel on the GPU, by the same functions: results are the
 *        same bits on both devices, except that Lanczos' sin/cos on the GPU may differ in the
 *        last bit of a double. Bilinear and area downscaling run on the CPU row by row
 *        (LinearRowsCpu, AreaRowsCpu: a pass along the row per stage, which vectorises) with
 *        the per-pixel kernels' own functions, so the bits are the same.
 */
#ifndef MXNET_OPERATOR_IMAGE_RESIZE_INL_H_
#define MXNET_OPERATOR_IMAGE_RESIZE_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "../mxnet_op.h"
#include "./image_ops-inl.h"

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
                  "INTER_LANCZOS4 - a Lanczos interpolation over 8x8 pixel neighborhood. "
                  "The GPU version supports all of them, with the CPU's results.");
  }
};

namespace resize {

constexpr int kCoefBits = 11;  // OpenCV's INTER_RESIZE_COEF_BITS
constexpr int kCoefScale = 1 << kCoefBits;

MSHADOW_XINLINE uint8_t ClampU8(int v) {
  return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
}
MSHADOW_XINLINE index_t MinI(index_t a, index_t b) { return a < b ? a : b; }
MSHADOW_XINLINE index_t MaxI(index_t a, index_t b) { return a < b ? b : a; }
MSHADOW_XINLINE double MinD(double a, double b) { return b < a ? b : a; }

/*! \brief v rounded to the nearest integer, ties to even: lrintf / nearbyintf in the default
 *         rounding mode, but inline (glibc's are library calls). |v| < 2^31. */
MSHADOW_XINLINE int RoundInt(float v) {
  const float fl = floorf(v);
  const float frac = v - fl;  // exact
  const int r = static_cast<int>(fl);
  // Branch-free: the rounding direction of image data is unpredictable.
  return r + static_cast<int>((frac > 0.5f) | ((frac == 0.5f) & ((r & 1) != 0)));
}

/*! \brief One axis resampled from `in` to `out` elements, with its factors computed once. */
struct Axis {
  index_t in, out;
  double scale;  // 1 / (out / in): source coordinate per output index
  double inv;    // out / in (INTER_AREA upscaling)
  double ratio;  // in / out (INTER_AREA downscaling)
};

inline Axis MakeAxis(index_t in, index_t out) {
  return {in, out, 1.0 / (static_cast<double>(out) / in), static_cast<double>(out) / in,
          static_cast<double>(in) / out};
}

/*! \brief The two axes, the channels, and whether bilinear uses INTER_AREA's weights. */
struct Geom {
  Axis x, y;
  index_t c;
  bool area;
};

/*!
 * \brief The first source index and the fraction towards the next one of output index d:
 *        half-pixel centres, or for INTER_AREA upscaling OpenCV's pixel-area rule.
 */
MSHADOW_XINLINE void LinearSource(index_t d, const Axis& a, bool area, index_t* s, float* f) {
  if (!area) {
    *f = static_cast<float>(MulRn(d + 0.5, a.scale) - 0.5);
    *s = static_cast<index_t>(floorf(*f));
    *f -= *s;
  } else {
    *s = static_cast<index_t>(floor(MulRn(static_cast<double>(d), a.scale)));
    const float fr = static_cast<float>((d + 1) - MulRn(static_cast<double>(*s + 1), a.inv));
    *f = fr <= 0 ? 0.f : fr - floorf(fr);
  }
}

/*! \brief Output index d's two taps, clamped to the image (the fraction reset there). */
MSHADOW_XINLINE void LinearTap(index_t d, const Axis& a, bool area, index_t* i0, index_t* i1,
                               float* w0, float* w1) {
  index_t s;
  float f;
  LinearSource(d, a, area, &s, &f);
  if (s < 0) {
    s = 0;
    f = 0;
  }
  if (s >= a.in - 1) {
    s = a.in - 1;
    f = 0;
  }
  *i0 = s;
  *i1 = MinI(s + 1, a.in - 1);
  *w0 = 1.f - f;
  *w1 = f;
}

/*! \brief OpenCV's bicubic weights (A = -0.75) of the 4 taps around a fraction x. */
MSHADOW_XINLINE void CubicWeights(float x, float w[4]) {
  const float A = -0.75f;
  const float x1 = x + 1, y = 1 - x;
  w[0] = MulRn(MulRn(MulRn(A, x1) - 5 * A, x1) + 8 * A, x1) - 4 * A;
  w[1] = MulRn(MulRn(MulRn(A + 2, x) - (A + 3), x), x) + 1;
  w[2] = MulRn(MulRn(MulRn(A + 2, y) - (A + 3), y), y) + 1;
  w[3] = 1.f - w[0] - w[1] - w[2];
}

/*! \brief OpenCV's Lanczos weights (a = 4) of the 8 taps around a fraction x. */
MSHADOW_XINLINE void Lanczos4Weights(float x, float w[8]) {
  const double s45 = 0.70710678118654752440084436210485;
  const double cs[8][2] = {{1, 0}, {-s45, -s45}, {0, 1}, {s45, -s45},
                           {-1, 0}, {s45, s45}, {0, -1}, {-s45, s45}};
  if (x < 1.1920928955078125e-07f) {  // FLT_EPSILON
    for (int i = 0; i < 8; ++i) w[i] = 0;
    w[3] = 1;
    return;
  }
  const double pi = 3.14159265358979323846;
  const double y0 = -(x + 3) * pi * 0.25, s0 = sin(y0), c0 = cos(y0);
  float sum = 0;
  for (int i = 0; i < 8; ++i) {
    const double yy = -(x + 3 - i) * pi * 0.25;
    w[i] = static_cast<float>((MulRn(cs[i][0], s0) + MulRn(cs[i][1], c0)) / (yy * yy));
    sum += w[i];
  }
  sum = 1.f / sum;
  for (int i = 0; i < 8; ++i) w[i] *= sum;
}

/*! \brief Output index d's K taps (bicubic K = 4, Lanczos K = 8), indices clamped to the image;
 *         these kernels keep the fraction at the borders. */
template <int K>
MSHADOW_XINLINE void KernelTaps(index_t d, const Axis& a, index_t idx[K], float w[K]) {
  float f = static_cast<float>(MulRn(d + 0.5, a.scale) - 0.5);
  const index_t s = static_cast<index_t>(floorf(f));
  f -= s;
  if (K == 4) {
    CubicWeights(f, w);
  } else {
    Lanczos4Weights(f, w);
  }
  for (int k = 0; k < K; ++k) idx[k] = MinI(MaxI(s - (K / 2 - 1) + k, 0), a.in - 1);
}

/*!
 * \brief The source span of output index d for INTER_AREA downscaling (OpenCV's DecimateAlpha
 *        tables): a partly covered head pixel s1 - 1, whole pixels [s1, s2), a partly covered
 *        tail pixel s2, each with its share of the output pixel.
 */
struct AreaSpan {
  index_t s1, s2;
  bool head, tail;
  float a_head, a_mid, a_tail;

  MSHADOW_XINLINE AreaSpan(index_t d, const Axis& a) {
    const double f1 = MulRn(static_cast<double>(d), a.ratio), f2 = f1 + a.ratio;
    const double cell = MinD(a.ratio, a.in - f1);
    s2 = MinI(static_cast<index_t>(floor(f2)), a.in - 1);
    s1 = MinI(static_cast<index_t>(ceil(f1)), s2);
    head = s1 - f1 > 1e-3;
    tail = f2 - s2 > 1e-3;
    a_head = static_cast<float>((s1 - f1) / cell);
    a_mid = static_cast<float>(1.0 / cell);
    a_tail = static_cast<float>(MinD(MinD(f2 - s2, 1.0), cell) / cell);
  }
  MSHADOW_XINLINE index_t count() const { return (head ? 1 : 0) + (s2 - s1) + (tail ? 1 : 0); }
  /*! \brief Tap t in table order: head, the whole pixels, tail. */
  MSHADOW_XINLINE void tap(index_t t, index_t* src, float* alpha) const {
    if (head) {
      if (t == 0) {
        *src = s1 - 1;
        *alpha = a_head;
        return;
      }
      --t;
    }
    if (t < s2 - s1) {
      *src = s1 + t;
      *alpha = a_mid;
    } else {
      *src = s2;
      *alpha = a_tail;
    }
  }
};

/*!
 * \brief Runs Body over output pixels [start, start + length) of the batch in order: Body::Row
 *        holds what an output row needs (its vertical taps), made once per row, Body::Col what
 *        an output column needs (its horizontal taps): taken from `cols` when given (the CPU
 *        makes them once per call), else made per pixel (the GPU). Body::Pixel writes the
 *        channels of one pixel.
 */
template <typename Body>
struct PixelWalk {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, DType* y, const DType* x,
                                  Geom g, const typename Body::Col* cols) {
#ifndef __CUDA_ARCH__
    // The CPU's chunks: RGB and gray images get their channel loops unrolled.
    if (g.c == 3) return Walk<3>(start, length, y, x, g, cols);
    if (g.c == 1) return Walk<1>(start, length, y, x, g, cols);
#endif
    Walk<0>(start, length, y, x, g, cols);
  }

  /*! \brief kC: the channel count when known at compile time, else 0 (g.c). */
  template <int kC, typename DType>
  MSHADOW_XINLINE static void Walk(index_t start, index_t length, DType* y, const DType* x,
                                   const Geom& g, const typename Body::Col* cols) {
    const index_t c = kC > 0 ? kC : g.c;
    const index_t ow = g.x.out, oh = g.y.out, image = g.y.in * g.x.in * c;
    index_t d = start % ow, r = (start / ow) % oh, img = start / (ow * oh);
    typename Body::Row row(r, g);
    for (index_t i = start; i < start + length; ++i) {
      if (cols != nullptr) {
        Body::template Pixel<kC>(row, cols[d], x + img * image, y + i * c, g);
      } else {
        Body::template Pixel<kC>(row, typename Body::Col(d, g), x + img * image, y + i * c, g);
      }
      if (++d == ow) {
        d = 0;
        if (++r == oh) {
          r = 0;
          ++img;
        }
        if (i + 1 < start + length) row = typename Body::Row(r, g);
      }
    }
  }
};

/*! \brief The channel count of a Pixel: kC when known at compile time, else g.c. */
template <int kC>
MSHADOW_XINLINE index_t Chans(const Geom& g) {
  return kC > 0 ? kC : g.c;
}

/*! \brief Nearest: source index floor(d * in / out), clamped to in - 1. */
struct Nearest {
  struct Row {
    index_t sy;
    MSHADOW_XINLINE Row(index_t r, const Geom& g)
        : sy(MinI(static_cast<index_t>(floor(r * g.y.scale)), g.y.in - 1)) {}
  };
  struct Col {
    index_t sx;
    MSHADOW_XINLINE Col(index_t d, const Geom& g)
        : sx(MinI(static_cast<index_t>(floor(d * g.x.scale)), g.x.in - 1)) {}
  };
  template <int kC, typename DType>
  MSHADOW_XINLINE static void Pixel(const Row& row, const Col& col, const DType* src, DType* dst,
                                    const Geom& g) {
    const index_t c = Chans<kC>(g);
    for (index_t ch = 0; ch < c; ++ch) dst[ch] = src[(row.sy * g.x.in + col.sx) * c + ch];
  }
};

/*! \brief Exact 2x downscale: the mean of each 2x2 block (OpenCV's fast INTER_AREA). */
struct Half {
  struct Row {
    index_t r;
    MSHADOW_XINLINE Row(index_t r, const Geom&) : r(r) {}
  };
  struct Col {
    index_t d;
    MSHADOW_XINLINE Col(index_t d, const Geom&) : d(d) {}
  };
  template <int kC, typename DType>
  MSHADOW_XINLINE static void Pixel(const Row& row, const Col& col, const DType* src, DType* dst,
                                    const Geom& g) {
    const index_t d = col.d;
    const index_t c = Chans<kC>(g), wc = g.x.in * c;
    for (index_t ch = 0; ch < c; ++ch) {
      const DType* p = src + ((2 * row.r) * g.x.in + 2 * d) * c + ch;
      if constexpr (std::is_same<DType, uint8_t>::value) {
        dst[ch] = static_cast<uint8_t>((p[0] + p[c] + p[wc] + p[wc + c] + 2) >> 2);
      } else {
        dst[ch] = (p[0] + p[c] + p[wc] + p[wc + c]) * static_cast<DType>(0.25);
      }
    }
  }
};

/*!
 * \brief Bilinear (OpenCV's order: a horizontal blend of each source row, then a vertical one).
 *        uint8 uses OpenCV's fixed-point arithmetic: 11-bit weights per axis, the horizontal
 *        blend in ints, then the vertical blend of its SSE2 kernel, ((r0 >> 4) * b0 >> 16) +
 *        ((r1 >> 4) * b1 >> 16) rounded by (+2) >> 2. Unlike the horizontal weights, the
 *        vertical ones are not reset at the borders (the rows are clamped instead).
 */
struct Linear {
  struct Row {
    index_t y0, y1;   // float: the clamped taps and their weights
    float wy0, wy1;
    index_t u0, u1;   // uint8: the clamped rows and the unclamped fixed-point weights
    int b0, b1;
    MSHADOW_XINLINE Row(index_t r, const Geom& g) {
      LinearTap(r, g.y, g.area, &y0, &y1, &wy0, &wy1);
      index_t sy;
      float f;
      LinearSource(r, g.y, g.area, &sy, &f);
      u0 = MinI(MaxI(sy, 0), g.y.in - 1);
      u1 = MinI(MaxI(sy + 1, 0), g.y.in - 1);
      b0 = RoundInt((1.f - f) * kCoefScale);
      b1 = RoundInt(f * kCoefScale);
    }
  };
  struct Col {
    index_t x0, x1;
    float wx0, wx1;
    int ia0, ia1;  // uint8: the fixed-point weights
    MSHADOW_XINLINE Col(index_t d, const Geom& g) {
      LinearTap(d, g.x, g.area, &x0, &x1, &wx0, &wx1);
      ia0 = RoundInt(wx0 * kCoefScale);
      ia1 = RoundInt(wx1 * kCoefScale);
    }
  };
  /*! \brief What a horizontal blend yields: int for uint8, else DType. */
  template <typename DType>
  using Acc = typename std::conditional<std::is_same<DType, uint8_t>::value, int, DType>::type;

  /*! \brief The first and second source rows: uint8 and float clamp them differently. */
  template <typename DType>
  MSHADOW_XINLINE static index_t Src0(const Row& row) {
    return std::is_same<DType, uint8_t>::value ? row.u0 : row.y0;
  }
  template <typename DType>
  MSHADOW_XINLINE static index_t Src1(const Row& row) {
    return std::is_same<DType, uint8_t>::value ? row.u1 : row.y1;
  }
  /*! \brief The horizontal blend at output column col of a source row's channel: `line`
   *         points at the row's channel, c is the channel count. */
  template <typename DType>
  MSHADOW_XINLINE static Acc<DType> HBlend(const DType* line, const Col& col, index_t c) {
    if constexpr (std::is_same<DType, uint8_t>::value) {
      return line[col.x0 * c] * col.ia0 + line[col.x1 * c] * col.ia1;
    } else {
      return MulRn(line[col.x0 * c], static_cast<DType>(col.wx0)) +
             MulRn(line[col.x1 * c], static_cast<DType>(col.wx1));
    }
  }
  /*! \brief The vertical weights of rows Src0 and Src1 (fixed-point ones for uint8). */
  template <typename DType>
  MSHADOW_XINLINE static Acc<DType> VWeight0(const Row& row) {
    if constexpr (std::is_same<DType, uint8_t>::value) {
      return row.b0;
    } else {
      return static_cast<DType>(row.wy0);
    }
  }
  template <typename DType>
  MSHADOW_XINLINE static Acc<DType> VWeight1(const Row& row) {
    if constexpr (std::is_same<DType, uint8_t>::value) {
      return row.b1;
    } else {
      return static_cast<DType>(row.wy1);
    }
  }
  /*! \brief The vertical blend of the horizontal blends h0 (row Src0) and h1 (row Src1). */
  template <typename DType>
  MSHADOW_XINLINE static DType VBlend(Acc<DType> h0, Acc<DType> h1, Acc<DType> v0,
                                      Acc<DType> v1) {
    if constexpr (std::is_same<DType, uint8_t>::value) {
      const int a = ((h0 >> 4) * v0) >> 16;
      const int b = ((h1 >> 4) * v1) >> 16;
      return ClampU8((a + b + 2) >> 2);
    } else {
      return MulRn(h0, v0) + MulRn(h1, v1);
    }
  }
  template <int kC, typename DType>
  MSHADOW_XINLINE static void Pixel(const Row& row, const Col& col, const DType* src, DType* dst,
                                    const Geom& g) {
    const index_t c = Chans<kC>(g), w = g.x.in;
    const DType* row0 = src + Src0<DType>(row) * w * c;
    const DType* row1 = src + Src1<DType>(row) * w * c;
    const Acc<DType> v0 = VWeight0<DType>(row), v1 = VWeight1<DType>(row);
    for (index_t ch = 0; ch < c; ++ch) {
      dst[ch] = VBlend<DType>(HBlend(row0 + ch, col, c), HBlend(row1 + ch, col, c), v0, v1);
    }
  }
};

/*!
 * \brief The CPU's bilinear walk, as before the GPU port: per output row, the horizontal blends
 *        of its two source rows into buffers, then the vertical blend along the row (which
 *        vectorises). The math is Linear's, so the bits are those of Linear::Pixel.
 */
template <int kC, typename DType>
void LinearRowsRange(index_t begin, index_t end, DType* y, const DType* x, Geom g,
                     const Linear::Col* cols) {
  using Acc = Linear::Acc<DType>;
  // Locals only: the uint8 stores below may alias anything reached through a pointer.
  const index_t c = kC > 0 ? kC : g.c;
  const index_t ow = g.x.out, oh = g.y.out, w = g.x.in, width = ow * c;
  const index_t image = g.y.in * w * c;
  std::vector<Acc> h0(width), h1(width);
  Acc* q0 = h0.data();
  Acc* q1 = h1.data();
  for (index_t i = begin; i < end; ++i) {
    const Linear::Row row(i % oh, g);
    const DType* src = x + (i / oh) * image;
    const DType* line0 = src + Linear::Src0<DType>(row) * w * c;
    const DType* line1 = src + Linear::Src1<DType>(row) * w * c;
    for (index_t d = 0; d < ow; ++d) {
      for (index_t ch = 0; ch < c; ++ch) {
        q0[d * c + ch] = Linear::HBlend(line0 + ch, cols[d], c);
        q1[d * c + ch] = Linear::HBlend(line1 + ch, cols[d], c);
      }
    }
    DType* dst = y + i * width;
    const Acc v0 = Linear::VWeight0<DType>(row), v1 = Linear::VWeight1<DType>(row);
    for (index_t k = 0; k < width; ++k) dst[k] = Linear::VBlend<DType>(q0[k], q1[k], v0, v1);
  }
}

template <int kC, typename DType>
void LinearRowsCpu(index_t n, DType* y, const DType* x, const Geom& g,
                   const Linear::Col* cols) {
  const index_t width = g.x.out * g.c;
  const index_t threshold = std::max<index_t>(1, mxnet_op::kOmpThreshold / width);
  mxnet_op::ParallelRanges(n * g.y.out, [=](index_t begin, index_t end) {
    LinearRowsRange<kC>(begin, end, y, x, g, cols);
  }, threshold);
}

/*!
 * \brief Bicubic (K = 4, interp=2) or Lanczos (K = 8, interp=4): a horizontal K-tap blend of K
 *        source rows, then a vertical K-row blend. uint8 uses 11-bit fixed-point weights; its
 *        vertical blend is OpenCV's vector kernel for bicubic (float weights scaled by 2^-22,
 *        rounded to nearest) and its scalar one for Lanczos ((sum + 2^21) >> 22).
 */
template <int K>
struct Taps {
  struct Row {
    index_t iy[K];
    float wy[K];
    int ib[K];
    MSHADOW_XINLINE Row(index_t r, const Geom& g) {
      KernelTaps<K>(r, g.y, iy, wy);
      for (int k = 0; k < K; ++k) ib[k] = RoundInt(wy[k] * kCoefScale);
    }
  };
  struct Col {
    index_t ix[K];
    float wx[K];
    int ia[K];  // uint8: the fixed-point weights
    MSHADOW_XINLINE Col(index_t d, const Geom& g) {
      KernelTaps<K>(d, g.x, ix, wx);
      for (int k = 0; k < K; ++k) ia[k] = RoundInt(wx[k] * kCoefScale);
    }
  };
  template <int kC, typename DType>
  MSHADOW_XINLINE static void Pixel(const Row& row, const Col& col, const DType* src, DType* dst,
                                    const Geom& g) {
    constexpr bool kU8 = std::is_same<DType, uint8_t>::value;
    using RowT = typename std::conditional<kU8, int, DType>::type;
    const index_t c = Chans<kC>(g), w = g.x.in;
    const index_t* ix = col.ix;
    RowT ia[K];
    for (int k = 0; k < K; ++k) {
      ia[k] = kU8 ? static_cast<RowT>(col.ia[k]) : static_cast<RowT>(col.wx[k]);
    }
    for (index_t ch = 0; ch < c; ++ch) {
      RowT rows[K];
      for (int rr = 0; rr < K; ++rr) {
        const DType* line = src + row.iy[rr] * w * c;
        RowT v = 0;
        for (int k = 0; k < K; ++k) {
          if constexpr (kU8) {
            v += line[ix[k] * c + ch] * ia[k];
          } else {
            v += MulRn(line[ix[k] * c + ch], ia[k]);
          }
        }
        rows[rr] = v;
      }
      if constexpr (kU8) {
        if (K == 4) {
          const float scale = 1.f / (kCoefScale * kCoefScale);
          float b[K];
          for (int rr = 0; rr < K; ++rr) b[rr] = static_cast<float>(row.ib[rr]) * scale;
          float v = MulRn(static_cast<float>(rows[0]), b[0]) +
                    MulRn(static_cast<float>(rows[1]), b[1]);
          v = v + MulRn(static_cast<float>(rows[2]), b[2]);
          v = v + MulRn(static_cast<float>(rows[3]), b[3]);
          dst[ch] = ClampU8(RoundInt(v));
        } else {
          int64_t v = 0;
          for (int rr = 0; rr < K; ++rr) v += static_cast<int64_t>(rows[rr]) * row.ib[rr];
          dst[ch] = ClampU8(static_cast<int>((v + (1 << 21)) >> 22));
        }
      } else {
        DType v = 0;
        for (int rr = 0; rr < K; ++rr) v += MulRn(rows[rr], static_cast<DType>(row.wy[rr]));
        dst[ch] = v;
      }
    }
  }
};

/*! \brief INTER_AREA by integer factors: plain block means, rounded to nearest for uint8. */
struct AreaBlock {
  struct Row {
    index_t r;
    MSHADOW_XINLINE Row(index_t r, const Geom&) : r(r) {}
  };
  struct Col {
    index_t d;
    MSHADOW_XINLINE Col(index_t d, const Geom&) : d(d) {}
  };
  template <int kC, typename DType>
  MSHADOW_XINLINE static void Pixel(const Row& row, const Col& col, const DType* src, DType* dst,
                                    const Geom& g) {
    const index_t d = col.d;
    const index_t ix = g.x.in / g.x.out, iy = g.y.in / g.y.out, w = g.x.in, c = Chans<kC>(g);
    const float scale = 1.f / static_cast<float>(ix * iy);
    for (index_t ch = 0; ch < c; ++ch) {
      typename std::conditional<std::is_integral<DType>::value, int, DType>::type sum = 0;
      for (index_t a = 0; a < iy; ++a)
        for (index_t b = 0; b < ix; ++b) sum += src[((row.r * iy + a) * w + d * ix + b) * c + ch];
      if constexpr (std::is_integral<DType>::value) {
        dst[ch] = static_cast<DType>(ClampU8(RoundInt(sum * scale)));
      } else {
        dst[ch] = static_cast<DType>(sum * scale);
      }
    }
  }
};

/*!
 * \brief INTER_AREA downscaling by other factors: each output is the mean of the source area
 *        it covers, partly covered pixels weighted by their share, accumulated in float (double
 *        for double) row by row, and rounded to nearest for uint8.
 */
struct Area {
  struct Row {
    AreaSpan sy;
    MSHADOW_XINLINE Row(index_t r, const Geom& g) : sy(r, g.y) {}
  };
  struct Col {
    AreaSpan sx;
    MSHADOW_XINLINE Col(index_t d, const Geom& g) : sx(d, g.x) {}
  };
  template <int kC, typename DType>
  MSHADOW_XINLINE static void Pixel(const Row& row, const Col& col, const DType* src, DType* dst,
                                    const Geom& g) {
    if constexpr (kC > 0) {
      Channels<kC>(row, col, src, dst, kC, g.x.in);
    } else {
      for (index_t ch = 0; ch < g.c; ++ch) Channels<1>(row, col, src + ch, dst + ch, g.c, g.x.in);
    }
  }
  /*! \brief Channels [0, N) of source row `line` (c channels) blended by the horizontal taps
   *         of output column sx into buf, in table order: head, whole pixels, tail. */
  template <int N, typename DType, typename AccT>
  MSHADOW_XINLINE static void HSum(const DType* line, const AreaSpan& sx, index_t c, AccT* buf) {
    for (int j = 0; j < N; ++j) buf[j] = 0;
    if (sx.head) {
      const DType* p = line + (sx.s1 - 1) * c;
      for (int j = 0; j < N; ++j) {
        buf[j] = buf[j] + MulRn(static_cast<AccT>(p[j]), AccT(sx.a_head));
      }
    }
    for (index_t k = sx.s1; k < sx.s2; ++k) {
      const DType* p = line + k * c;
      for (int j = 0; j < N; ++j) {
        buf[j] = buf[j] + MulRn(static_cast<AccT>(p[j]), AccT(sx.a_mid));
      }
    }
    if (sx.tail) {
      const DType* p = line + sx.s2 * c;
      for (int j = 0; j < N; ++j) {
        buf[j] = buf[j] + MulRn(static_cast<AccT>(p[j]), AccT(sx.a_tail));
      }
    }
  }
  /*! \brief The running vertical sum after vertical tap ty (weight ay) of horizontal sum h. */
  template <typename AccT>
  MSHADOW_XINLINE static AccT VAdd(AccT sum, AccT h, float ay, index_t ty) {
    const AccT part = MulRn(static_cast<AccT>(ay), h);
    return ty == 0 ? part : sum + part;
  }
  template <typename DType, typename AccT>
  MSHADOW_XINLINE static DType Out(AccT sum) {
    if constexpr (std::is_integral<DType>::value) {
      return static_cast<DType>(ClampU8(RoundInt(sum)));
    } else {
      return static_cast<DType>(sum);
    }
  }
  /*! \brief Channels [0, N) of a pixel with c channels, each summed in the same order. */
  template <int N, typename DType>
  MSHADOW_XINLINE static void Channels(const Row& row, const Col& col, const DType* src,
                                       DType* dst, index_t c, index_t w) {
    using AccT = AccType<DType>;
    const index_t ny = row.sy.count();
    AccT sum[N];
    for (int j = 0; j < N; ++j) sum[j] = 0;
    for (index_t ty = 0; ty < ny; ++ty) {
      index_t sr;
      float ay;
      row.sy.tap(ty, &sr, &ay);
      AccT buf[N];
      HSum<N>(src + sr * w * c, col.sx, c, buf);
      for (int j = 0; j < N; ++j) sum[j] = VAdd(sum[j], buf[j], ay, ty);
    }
    for (int j = 0; j < N; ++j) dst[j] = Out<DType>(sum[j]);
  }
};

/*!
 * \brief The CPU's INTER_AREA walk (downscaling by other factors): per output row and vertical
 *        tap, the horizontal sums of the whole row, then the vertical accumulation and the
 *        rounding along the row. The math is Area's, so the bits are those of Area::Pixel.
 */
template <int kC, typename DType>
void AreaRowsRange(index_t begin, index_t end, DType* y, const DType* x, Geom g,
                   const Area::Col* cols) {
  using AccT = AccType<DType>;
  const index_t c = kC > 0 ? kC : g.c;
  const index_t ow = g.x.out, oh = g.y.out, w = g.x.in, width = ow * c;
  const index_t image = g.y.in * w * c;
  std::vector<AccT> hbuf(width), sbuf(width);
  AccT* h = hbuf.data();
  AccT* sum = sbuf.data();
  for (index_t i = begin; i < end; ++i) {
    const Area::Row row(i % oh, g);
    const DType* src = x + (i / oh) * image;
    const index_t ny = row.sy.count();
    for (index_t k = 0; k < width; ++k) sum[k] = 0;
    for (index_t ty = 0; ty < ny; ++ty) {
      index_t sr;
      float ay;
      row.sy.tap(ty, &sr, &ay);
      const DType* line = src + sr * w * c;
      for (index_t d = 0; d < ow; ++d) {
        if constexpr (kC > 0) {
          Area::HSum<kC>(line, cols[d].sx, c, h + d * c);
        } else {
          for (index_t ch = 0; ch < c; ++ch) {
            Area::HSum<1>(line + ch, cols[d].sx, c, h + d * c + ch);
          }
        }
      }
      for (index_t k = 0; k < width; ++k) sum[k] = Area::VAdd(sum[k], h[k], ay, ty);
    }
    DType* dst = y + i * width;
    for (index_t k = 0; k < width; ++k) dst[k] = Area::Out<DType>(sum[k]);
  }
}

template <int kC, typename DType>
void AreaRowsCpu(index_t n, DType* y, const DType* x, const Geom& g, const Area::Col* cols) {
  const index_t width = g.x.out * g.c;
  const index_t threshold = std::max<index_t>(1, mxnet_op::kOmpThreshold / width);
  mxnet_op::ParallelRanges(n * g.y.out, [=](index_t begin, index_t end) {
    AreaRowsRange<kC>(begin, end, y, x, g, cols);
  }, threshold);
}

/*! \brief Body's PixelWalk over `pixels` output pixels; on the CPU with its columns' taps made
 *         once (a GPU thread makes its own), and bilinear and area row by row (LinearRowsCpu,
 *         AreaRowsCpu). */
template <typename Body, typename xpu, typename DType>
void LaunchWalk(mshadow::Stream<xpu>* s, index_t pixels, DType* y, const DType* x,
                const Geom& g) {
  std::vector<typename Body::Col> cols;
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    cols.reserve(g.x.out);
    for (index_t d = 0; d < g.x.out; ++d) cols.emplace_back(d, g);
    if constexpr (std::is_same<Body, Linear>::value) {
      const index_t images = pixels / (g.x.out * g.y.out);
      if (g.c == 3) return LinearRowsCpu<3>(images, y, x, g, cols.data());
      return LinearRowsCpu<0>(images, y, x, g, cols.data());
    }
    if constexpr (std::is_same<Body, Area>::value) {
      const index_t images = pixels / (g.x.out * g.y.out);
      if (g.c == 3) return AreaRowsCpu<3>(images, y, x, g, cols.data());
      return AreaRowsCpu<0>(images, y, x, g, cols.data());
    }
  }
  mxnet_op::Kernel<PixelWalk<Body>, xpu>::LaunchEx(s, pixels, y, x, g,
                                                   cols.empty() ? nullptr : cols.data());
}

/*!
 * \brief Resizes n images (h, w, c) at x into (oh, ow, c) at y. OpenCV's choices: an exact 2x
 *        downscale with bilinear or area is done as 2x2 means; INTER_AREA that shrinks both
 *        axes averages areas, otherwise it is bilinear with area-derived weights.
 */
template <typename xpu, typename DType>
void ResizeLaunch(mshadow::Stream<xpu>* s, const DType* x, DType* y, index_t n, index_t h,
                  index_t w, index_t c, index_t oh, index_t ow, int interp) {
  const index_t pixels = n * oh * ow;
  if (pixels == 0 || c == 0) return;
  const Geom g{MakeAxis(w, ow), MakeAxis(h, oh), c, interp == 3};
  if (interp == 0) {
    LaunchWalk<Nearest>(s, pixels, y, x, g);
  } else if (interp == 2) {
    LaunchWalk<Taps<4>>(s, pixels, y, x, g);
  } else if (interp == 4) {
    LaunchWalk<Taps<8>>(s, pixels, y, x, g);
  } else if (h == 2 * oh && w == 2 * ow) {
    LaunchWalk<Half>(s, pixels, y, x, g);
  } else if (g.area && h >= oh && w >= ow) {
    if ((w / ow) * ow == w && (h / oh) * oh == h) {
      LaunchWalk<AreaBlock>(s, pixels, y, x, g);
    } else {
      LaunchWalk<Area>(s, pixels, y, x, g);
    }
  } else {
    LaunchWalk<Linear>(s, pixels, y, x, g);
  }
}

}  // namespace resize

/*! \brief Resizes an image (H, W, C) or a batch (N, H, W, C) (uint8, float32 or float64). */
template <typename xpu>
void ResizeRun(mshadow::Stream<xpu>* s, const char* op, const TBlob& in, const TBlob& out,
               int interp) {
  const ImageDims d = DimsOf(in.shape_), o = DimsOf(out.shape_);
  switch (in.type_flag_) {
#define MXNET_RESIZE_CASE(flag, T)                                                           \
  case flag:                                                                                 \
    resize::ResizeLaunch<xpu, T>(s, in.dptr<T>(), out.dptr<T>(), d.n, d.h, d.w, d.c, o.h, o.w, \
                                 interp);                                                    \
    break;
    MXNET_RESIZE_CASE(mshadow::kUint8, uint8_t)
    MXNET_RESIZE_CASE(mshadow::kFloat32, float)
    MXNET_RESIZE_CASE(mshadow::kFloat64, double)
#undef MXNET_RESIZE_CASE
    default:
      MX_THROW(dmlc::TypeError) << op << ": unsupported dtype "
                                << mshadow::dtype_string(in.type_flag_)
                                << " (expected uint8, float32 or float64)";
  }
}

template <typename xpu>
void ResizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(dmlc::ValueError) << "_image_resize: req='add' is not supported";
  }
  ResizeRun<xpu>(ctx.get_stream<xpu>(), "_image_resize", inputs[0], outputs[0],
                 nnvm::get<ResizeParam>(attrs.parsed).interp);
}

}  // namespace image
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_IMAGE_RESIZE_INL_H_
