/*!
 * \file softmax_fast.cc
 * \brief Vectorized float32 softmax rows (softmax_fast.h): one always-inline row body compiled
 *        for the baseline and for AVX2+FMA, picked at run time (fast_math-inl.h).
 */
#include "./softmax_fast.h"

#include <cmath>
#include <limits>

#include "../fast_math-inl.h"

namespace mxnet {
namespace op {
namespace softmax_fast {
namespace {

/*! \brief exp of a max-shifted softmax argument (<= 0, or NaN): exactly 0 below -87, where
 *         fast_math::Exp clamps, so -inf and far-off entries give 0 as libm's expf does (to
 *         within the smallest normal float). */
MXNET_FAST_INLINE float ShiftedExp(float x) { return x < -87.0f ? 0.0f : fast_math::Exp(x); }

/*! \brief One row, in the order of softmax-inl.h's softmax_fwd_row: the max, the sum of the
 *         shifted exps, then the outputs. A NaN anywhere makes the whole row NaN, as there. */
MXNET_FAST_INLINE void RowImpl(const float* in, float* out, index_t n, float scale, bool log) {
  float mx = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : mx)
  for (index_t k = 0; k < n; ++k) mx = std::max(mx, scale * in[k]);
  float sum = 0.0f;
  if (log) {
#pragma omp simd reduction(+ : sum)
    for (index_t k = 0; k < n; ++k) sum += ShiftedExp(scale * in[k] - mx);
    const float log_sum = std::log(sum);
#pragma omp simd
    for (index_t k = 0; k < n; ++k) out[k] = (scale * in[k] - mx) - log_sum;
  } else {
#pragma omp simd reduction(+ : sum)
    for (index_t k = 0; k < n; ++k) {
      const float e = ShiftedExp(scale * in[k] - mx);
      out[k] = e;
      sum += e;
    }
#pragma omp simd
    for (index_t k = 0; k < n; ++k) out[k] = out[k] / sum;
  }
}

#define SOFTMAX_FAST_DEFINE(SUFFIX, ATTR)                                             \
  ATTR void Row##SUFFIX(const float* in, float* out, index_t n, float scale, bool log) { \
    RowImpl(in, out, n, scale, log);                                                  \
  }

SOFTMAX_FAST_DEFINE(Base, )
#if MXNET_FAST_MATH_AVX2
SOFTMAX_FAST_DEFINE(Avx2, __attribute__((target("avx2,fma"))))
#else
#define RowAvx2 RowBase
#endif

}  // namespace

void SoftmaxRows(const float* in, float* out, index_t rows, index_t n, float scale, bool log) {
  auto* row = fast_math::HasAvx2() ? RowAvx2 : RowBase;
#pragma omp parallel for if (rows * n > 32768)
  for (index_t r = 0; r < rows; ++r) row(in + r * n, out + r * n, n, scale, log);
}

}  // namespace softmax_fast
}  // namespace op
}  // namespace mxnet
