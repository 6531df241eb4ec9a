/*!
 * \file rnn_fast.cc
 * \brief Vectorized float32 gate kernels of the fused RNN operator (see rnn_fast.h).
 *
 * Each kernel body is an always-inline function compiled into two entry points: the baseline
 * (SSE2) one and an AVX2+FMA one, picked once per process from the CPU's features. The math is
 * branch-free (clamps and selects) so that the compiler vectorizes every loop.
 */
#include "./rnn_fast.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace mxnet {
namespace op {
namespace rnn_fast {

namespace {

// CMakeLists.txt compiles this file with -fno-trapping-math: GCC then computes both sides of
// tanh's select and vectorizes the loops.
#define RNN_FAST_INLINE inline __attribute__((always_inline))

/*! \brief exp(x) for float: n = round(x / ln2), exp(x) = 2^n * exp(r) with |r| <= ln2/2 and
 *         Cephes' degree-6 polynomial for exp(r); relative error about 2e-7. Inputs are clamped
 *         to [-87, 88], where the result is still a normal float. */
RNN_FAST_INLINE float Exp(float x) {
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

RNN_FAST_INLINE float Sigmoid(float x) { return 1.0f / (1.0f + Exp(-x)); }

/*! \brief tanh: (1 - e) / (1 + e) with e = exp(-2|x|), and the Taylor series below 0.25 where
 *         1 - e would lose relative precision. */
RNN_FAST_INLINE float Tanh(float x) {
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

RNN_FAST_INLINE void LstmForwardRowImpl(index_t H, float* __restrict g,
                                        const float* __restrict hr,
                                        const float* __restrict cprev, float* __restrict craw,
                                        float* __restrict y) {
  float* __restrict gi = g;
  float* __restrict gf = g + H;
  float* __restrict gg = g + 2 * H;
  float* __restrict go = g + 3 * H;
#pragma omp simd
  for (index_t j = 0; j < H; ++j) {
    const float i = Sigmoid(gi[j] + hr[j]);
    const float f = Sigmoid(gf[j] + hr[H + j]);
    const float c = Tanh(gg[j] + hr[2 * H + j]);
    const float o = Sigmoid(go[j] + hr[3 * H + j]);
    gi[j] = i;
    gf[j] = f;
    gg[j] = c;
    go[j] = o;
    const float cell = f * cprev[j] + i * c;
    craw[j] = cell;
    y[j] = o * Tanh(cell);
  }
}

RNN_FAST_INLINE void GruForwardRowImpl(index_t H, float* __restrict g,
                                       const float* __restrict hr,
                                       const float* __restrict bhn, const float* __restrict hp,
                                       float* __restrict hn, float* __restrict y) {
  float* __restrict gr = g;
  float* __restrict gz = g + H;
  float* __restrict gn = g + 2 * H;
#pragma omp simd
  for (index_t j = 0; j < H; ++j) {
    const float r = Sigmoid(gr[j] + hr[j]);
    const float z = Sigmoid(gz[j] + hr[H + j]);
    const float hnj = hr[2 * H + j] + bhn[j];
    const float n = Tanh(gn[j] + r * hnj);
    hn[j] = hnj;
    gr[j] = r;
    gz[j] = z;
    gn[j] = n;
    y[j] = (1.0f - z) * n + z * hp[j];
  }
}

RNN_FAST_INLINE void LstmBackwardRowImpl(index_t H, const float* __restrict g,
                                         const float* __restrict craw,
                                         const float* __restrict cprev,
                                         const float* __restrict dy, const float* __restrict dh,
                                         float* __restrict dc, float* __restrict dg) {
#pragma omp simd
  for (index_t j = 0; j < H; ++j) {
    const float gradh = dy[j] + dh[j];
    const float i = g[j], f = g[H + j], c = g[2 * H + j], o = g[3 * H + j];
    const float tc = Tanh(craw[j]);
    const float dcc = dc[j] + gradh * o * (1.0f - tc * tc);
    dg[j] = dcc * c * i * (1.0f - i);
    dg[H + j] = dcc * cprev[j] * f * (1.0f - f);
    dg[2 * H + j] = dcc * i * (1.0f - c * c);
    dg[3 * H + j] = gradh * tc * o * (1.0f - o);
    dc[j] = dcc * f;
  }
}

RNN_FAST_INLINE void GruBackwardRowImpl(index_t H, const float* __restrict g,
                                        const float* __restrict hn, const float* __restrict hp,
                                        const float* __restrict dy, const float* __restrict dh,
                                        float* __restrict dgi, float* __restrict dgh,
                                        float* __restrict dhz) {
#pragma omp simd
  for (index_t j = 0; j < H; ++j) {
    const float gradh = dy[j] + dh[j];
    const float r = g[j], z = g[H + j], n = g[2 * H + j];
    const float dn = gradh * (1.0f - z) * (1.0f - n * n);
    const float dz = gradh * (hp[j] - n) * z * (1.0f - z);
    const float dr = dn * hn[j] * r * (1.0f - r);
    dgi[j] = dr;
    dgi[H + j] = dz;
    dgi[2 * H + j] = dn;
    dgh[j] = dr;
    dgh[H + j] = dz;
    dgh[2 * H + j] = dn * r;
    dhz[j] = gradh * z;
  }
}

// One entry point per instruction set; ATTR is the function-attribute list.
#define RNN_FAST_DEFINE(SUFFIX, ATTR)                                                         \
  ATTR void LstmForwardRow##SUFFIX(index_t H, float* g, const float* hr, const float* cprev,  \
                                   float* craw, float* y) {                                   \
    LstmForwardRowImpl(H, g, hr, cprev, craw, y);                                             \
  }                                                                                           \
  ATTR void GruForwardRow##SUFFIX(index_t H, float* g, const float* hr, const float* bhn,     \
                                  const float* hp, float* hn, float* y) {                     \
    GruForwardRowImpl(H, g, hr, bhn, hp, hn, y);                                              \
  }                                                                                           \
  ATTR void LstmBackwardRow##SUFFIX(index_t H, const float* g, const float* craw,             \
                                    const float* cprev, const float* dy, const float* dh,     \
                                    float* dc, float* dg) {                                   \
    LstmBackwardRowImpl(H, g, craw, cprev, dy, dh, dc, dg);                                   \
  }                                                                                           \
  ATTR void GruBackwardRow##SUFFIX(index_t H, const float* g, const float* hn,                \
                                   const float* hp, const float* dy, const float* dh,         \
                                   float* dgi, float* dgh, float* dhz) {                      \
    GruBackwardRowImpl(H, g, hn, hp, dy, dh, dgi, dgh, dhz);                                  \
  }

RNN_FAST_DEFINE(Base, )
#if defined(__x86_64__) && defined(__GNUC__)
RNN_FAST_DEFINE(Avx2, __attribute__((target("avx2,fma"))))
const bool kHasAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
const bool kHasAvx2 = false;
#define LstmForwardRowAvx2 LstmForwardRowBase
#define GruForwardRowAvx2 GruForwardRowBase
#define LstmBackwardRowAvx2 LstmBackwardRowBase
#define GruBackwardRowAvx2 GruBackwardRowBase
#endif

}  // namespace

bool Enabled() {
  const char* v = std::getenv("MXNET_RNN_FAST");
  return v == nullptr || std::atoi(v) != 0;
}

void LstmForwardRow(index_t H, float* g, const float* hr, const float* cprev, float* craw,
                    float* y) {
  if (kHasAvx2) {
    LstmForwardRowAvx2(H, g, hr, cprev, craw, y);
  } else {
    LstmForwardRowBase(H, g, hr, cprev, craw, y);
  }
}

void GruForwardRow(index_t H, float* g, const float* hr, const float* bhn, const float* hp,
                   float* hn, float* y) {
  if (kHasAvx2) {
    GruForwardRowAvx2(H, g, hr, bhn, hp, hn, y);
  } else {
    GruForwardRowBase(H, g, hr, bhn, hp, hn, y);
  }
}

void LstmBackwardRow(index_t H, const float* g, const float* craw, const float* cprev,
                     const float* dy, const float* dh, float* dc, float* dg) {
  if (kHasAvx2) {
    LstmBackwardRowAvx2(H, g, craw, cprev, dy, dh, dc, dg);
  } else {
    LstmBackwardRowBase(H, g, craw, cprev, dy, dh, dc, dg);
  }
}

void GruBackwardRow(index_t H, const float* g, const float* hn, const float* hp, const float* dy,
                    const float* dh, float* dgi, float* dgh, float* dhz) {
  if (kHasAvx2) {
    GruBackwardRowAvx2(H, g, hn, hp, dy, dh, dgi, dgh, dhz);
  } else {
    GruBackwardRowBase(H, g, hn, hp, dy, dh, dgi, dgh, dhz);
  }
}

}  // namespace rnn_fast
}  // namespace op
}  // namespace mxnet
