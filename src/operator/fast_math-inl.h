/*!
 * \file fast_math-inl.h
 * \brief What the vectorized float32 CPU kernels share (rnn_fast.cc, softmax_fast.cc,
 *        unary_fast.cc): a branch-free exp, sigmoid and tanh the compiler vectorizes, and the
 *        run-time AVX2 check that picks between a kernel's baseline (SSE2) and AVX2+FMA builds.
 *
 * Kernel bodies are MXNET_FAST_INLINE functions compiled into both entry points; files using
 * this are compiled with -fno-trapping-math (CMakeLists.txt) so that GCC vectorizes selects.
 */
#ifndef MXNET_OPERATOR_FAST_MATH_INL_H_
#define MXNET_OPERATOR_FAST_MATH_INL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#define MXNET_FAST_INLINE inline __attribute__((always_inline))

#if defined(__x86_64__) && defined(__GNUC__)
#define MXNET_FAST_MATH_AVX2 1
#else
#define MXNET_FAST_MATH_AVX2 0
#endif

namespace mxnet {
namespace op {
namespace fast_math {

/*! \brief exp(x) for float: n = round(x / ln2), exp(x) = 2^n * exp(r) with |r| <= ln2/2 and
 *         Cephes' degree-6 polynomial for exp(r); relative error about 2e-7. Inputs are clamped
 *         to [-87, 88], where the result is still a normal float; NaN stays NaN. */
MXNET_FAST_INLINE float Exp(float x) {
  x = std::min(std::max(x, -87.0f), 88.0f);
  const float round_shift = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  float nf = x * 1.44269504088896341f + round_shift;
  int32_t n;
  std::memcpy(&n, &nf, sizeof(n));
  n -= 0x4B400000;  // the bits of round_shift: what is left is the integer
  nf -= round_shift;
  float r = x - nf * 0.693359375f;  // ln2 split in two for an exact first product
  r = r + nf * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t bits = (n + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  return p * scale;
}

/*! \brief 1 / (1 + exp(-x)); NaN stays NaN. */
MXNET_FAST_INLINE float Sigmoid(float x) { return 1.0f / (1.0f + Exp(-x)); }

/*! \brief tanh: (1 - e) / (1 + e) with e = exp(-2|x|), and the Taylor series below 0.25 where
 *         1 - e would lose relative precision; NaN stays NaN, +-inf give +-1. */
MXNET_FAST_INLINE float Tanh(float x) {
  const float a = std::fabs(x);
  const float e = Exp(-2.0f * a);
  const float big = (1.0f - e) / (1.0f + e);
  const float a2 = a * a;
  float s = -1382.0f / 155925.0f;
  s = s * a2 + 62.0f / 2835.0f;
  s = s * a2 - 17.0f / 315.0f;
  s = s * a2 + 2.0f / 15.0f;
  s = s * a2 - 1.0f / 3.0f;
  const float small = a + a * a2 * s;
  return std::copysign(a < 0.25f ? small : big, x);
}

/*! \brief AVX2 + FMA present. __builtin_cpu_init first: this may run during static
 *         initialization, before libgcc's own CPU detection. */
inline bool HasAvx2() {
#if MXNET_FAST_MATH_AVX2
  static const bool has = []() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return has;
#else
  return false;
#endif
}

}  // namespace fast_math
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_FAST_MATH_INL_H_
