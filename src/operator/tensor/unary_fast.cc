/*!
 * \file unary_fast.cc
 * \brief Vectorized float32 sigmoid and tanh (unary_fast.h): one always-inline loop body per
 *        function, compiled for the baseline and for AVX2+FMA, picked at run time.
 */
#include "./unary_fast.h"

#include <algorithm>

#include "../fast_math-inl.h"

namespace mxnet {
namespace op {
namespace unary_fast {
namespace {

template <Fn fn>
MXNET_FAST_INLINE void LoopImpl(const float* in, float* out, index_t n) {
#pragma omp simd
  for (index_t i = 0; i < n; ++i) {
    out[i] = fn == Fn::kTanh ? fast_math::Tanh(in[i]) : fast_math::Sigmoid(in[i]);
  }
}

#define UNARY_FAST_DEFINE(SUFFIX, ATTR)                                         \
  ATTR void Tanh##SUFFIX(const float* in, float* out, index_t n) {              \
    LoopImpl<Fn::kTanh>(in, out, n);                                            \
  }                                                                             \
  ATTR void Sigmoid##SUFFIX(const float* in, float* out, index_t n) {           \
    LoopImpl<Fn::kSigmoid>(in, out, n);                                         \
  }

UNARY_FAST_DEFINE(Base, )
#if MXNET_FAST_MATH_AVX2
UNARY_FAST_DEFINE(Avx2, __attribute__((target("avx2,fma"))))
#else
#define TanhAvx2 TanhBase
#define SigmoidAvx2 SigmoidBase
#endif

}  // namespace

void Apply(Fn fn, const float* in, float* out, index_t n) {
  const bool avx2 = fast_math::HasAvx2();
  auto* loop = fn == Fn::kTanh ? (avx2 ? TanhAvx2 : TanhBase) : (avx2 ? SigmoidAvx2 : SigmoidBase);
  constexpr index_t kChunk = 1 << 14;  // per task: enough work to pay for a thread's start
  const index_t chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for if (chunks > 1)
  for (index_t c = 0; c < chunks; ++c) {
    const index_t begin = c * kChunk;
    loop(in + begin, out + begin, std::min(kChunk, n - begin));
  }
}

}  // namespace unary_fast
}  // namespace op
}  // namespace mxnet
