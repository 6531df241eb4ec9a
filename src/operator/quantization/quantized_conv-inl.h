/*!
 * \file quantized_conv-inl.h
 * \brief Pieces of _contrib_quantized_conv and _contrib_quantized_fully_connected (semantics in
 *        quantized_conv.cc) shared by the CPU (quantized_conv.cc: im2col + integer GEMM loops)
 *        and the GPU (quantized_conv.cu: a tiled int32 GEMM for FC, a direct convolution of one
 *        thread per output element): the int32 output range, FC's bias scale, and the direct
 *        convolution's output element.
 */
#ifndef MXNET_OPERATOR_QUANTIZATION_QUANTIZED_CONV_INL_H_
#define MXNET_OPERATOR_QUANTIZATION_QUANTIZED_CONV_INL_H_

#include "../mxnet_op.h"
#include "../nn/conv_kernels.h"
#include "./quantize-inl.h"

namespace mxnet {
namespace op {
namespace quant {

/*! \brief The int32 output range +-(m_d / l_d)(m_w / 127) 2^31 of conv / FC. */
struct int32_product_range {
  MSHADOW_XINLINE static void Map(index_t, const float* d_lo, const float* d_hi,
                                  const float* w_lo, const float* w_hi, float l_d, float* lo,
                                  float* hi) {
    const float m =
        Int32ProductRange(MaxAbsX(*d_lo, *d_hi), l_d, MaxAbsX(*w_lo, *w_hi), kInt8Limit);
    *lo = -m;
    *hi = m;
  }
};

/*!
 * \brief FC's int8 bias in int32 units: trunc(b * rescale), rescale = (R_d / m_d)(127.5 / m_w)
 *        m_b / 127.5 in this float order (R_d = 127.5 for int8 data, 255.5 for uint8).
 */
struct FCBiasAccessor {
  const float *d_lo, *d_hi, *w_lo, *w_hi, *b_lo, *b_hi;
  float r_d;
  MSHADOW_XINLINE float get() const {
    const float data_scale = r_d / MaxAbsX(*d_lo, *d_hi);
    const float weight_scale = kInt8Range / MaxAbsX(*w_lo, *w_hi);
    return data_scale * weight_scale * MaxAbsX(*b_lo, *b_hi) / kInt8Range;
  }
};

MSHADOW_XINLINE int32_t FCBias(int8_t b, float rescale) {
  return SatTrunc<int32_t>(static_cast<float>(b * rescale));
}

/*!
 * \brief Output element i of an (N, F, out...) int32 convolution: the exact int32 sum over the
 *        group's channels and the kernel window (zero padding), plus the int8 bias as is.
 */
struct quantized_conv_direct {
  template <typename Q>
  MSHADOW_XINLINE static void Map(index_t i, ConvGeom g, const Q* x, const int8_t* w,
                                  const int8_t* bias, int32_t* y) {
    index_t r = i;
    const index_t ow = r % g.out[2];
    r /= g.out[2];
    const index_t oh = r % g.out[1];
    r /= g.out[1];
    const index_t od = r % g.out[0];
    r /= g.out[0];
    const index_t f = r % g.F;
    const index_t n = r / g.F;
    const index_t cg = g.C / g.G, fg = g.F / g.G, grp = f / fg;
    const index_t ksz = g.k[0] * g.k[1] * g.k[2];
    const index_t isp = g.in[0] * g.in[1] * g.in[2];
    int32_t acc = 0;
    for (index_t c = 0; c < cg; ++c) {
      const Q* xc = x + (n * g.C + grp * cg + c) * isp;
      const int8_t* wc = w + (f * cg + c) * ksz;
      for (index_t kd = 0; kd < g.k[0]; ++kd) {
        const index_t id = od * g.s[0] + kd * g.d[0] - g.p[0];
        if (id < 0 || id >= g.in[0]) continue;
        for (index_t kh = 0; kh < g.k[1]; ++kh) {
          const index_t ih = oh * g.s[1] + kh * g.d[1] - g.p[1];
          if (ih < 0 || ih >= g.in[1]) continue;
          for (index_t kw = 0; kw < g.k[2]; ++kw) {
            const index_t iw = ow * g.s[2] + kw * g.d[2] - g.p[2];
            if (iw < 0 || iw >= g.in[2]) continue;
            // Wrapping int32 arithmetic, as the CPU's int32 accumulators.
            acc = static_cast<int32_t>(
                static_cast<uint32_t>(acc) +
                static_cast<uint32_t>(static_cast<int32_t>(xc[(id * g.in[1] + ih) * g.in[2] + iw]) *
                                      static_cast<int32_t>(wc[(kd * g.k[1] + kh) * g.k[2] + kw])));
          }
        }
      }
    }
    y[i] = static_cast<int32_t>(static_cast<uint32_t>(acc) +
                                static_cast<uint32_t>(bias != nullptr ? bias[f] : 0));
  }
};

}  // namespace quant
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_QUANTIZATION_QUANTIZED_CONV_INL_H_
