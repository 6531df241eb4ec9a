/*!
 * \file rnn_fast.cc
 * \brief Vectorized float32 gate kernels of the fused RNN operator (see rnn_fast.h).
 *
 * Each kernel body is an always-inline function compiled into two entry points: the baseline
 * (SSE2) one and an AVX2+FMA one, picked once per process from the CPU's features. The math is
 * branch-free (clamps and selects) so that the compiler vectorizes every loop.
 */
#include "./rnn_fast.h"

#include "../fast_math-inl.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace mxnet {
namespace op {
namespace rnn_fast {

namespace {

// CMakeLists.txt compiles this file with -fno-trapping-math: GCC then computes both sides of
// tanh's select and vectorizes the loops.
#define RNN_FAST_INLINE MXNET_FAST_INLINE

using fast_math::Exp;
using fast_math::Sigmoid;
using fast_math::Tanh;

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

using fast_math::HasAvx2;

RNN_FAST_DEFINE(Base, )
#if MXNET_FAST_MATH_AVX2
RNN_FAST_DEFINE(Avx2, __attribute__((target("avx2,fma"))))
#else
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
  if (HasAvx2()) {
    LstmForwardRowAvx2(H, g, hr, cprev, craw, y);
  } else {
    LstmForwardRowBase(H, g, hr, cprev, craw, y);
  }
}

void GruForwardRow(index_t H, float* g, const float* hr, const float* bhn, const float* hp,
                   float* hn, float* y) {
  if (HasAvx2()) {
    GruForwardRowAvx2(H, g, hr, bhn, hp, hn, y);
  } else {
    GruForwardRowBase(H, g, hr, bhn, hp, hn, y);
  }
}

void LstmBackwardRow(index_t H, const float* g, const float* craw, const float* cprev,
                     const float* dy, const float* dh, float* dc, float* dg) {
  if (HasAvx2()) {
    LstmBackwardRowAvx2(H, g, craw, cprev, dy, dh, dc, dg);
  } else {
    LstmBackwardRowBase(H, g, craw, cprev, dy, dh, dc, dg);
  }
}

void GruBackwardRow(index_t H, const float* g, const float* hn, const float* hp, const float* dy,
                    const float* dh, float* dgi, float* dgh, float* dhz) {
  if (HasAvx2()) {
    GruBackwardRowAvx2(H, g, hn, hp, dy, dh, dgi, dgh, dhz);
  } else {
    GruBackwardRowBase(H, g, hn, hp, dy, dh, dgi, dgh, dhz);
  }
}

// ---------------------------------------------------------------- packed GEMM

namespace {
constexpr index_t kPanel = 16;  // columns per packed panel: two 8-float AVX registers
constexpr int kRowBlock = 6;    // rows per micro-kernel call: 12 accumulators

#if defined(__x86_64__) && defined(__GNUC__)
/*! \brief Stores one row's two accumulators into C (ncols <= 16 columns). */
__attribute__((target("avx2,fma"))) inline void StoreRow(float* c, __m256 lo, __m256 hi,
                                                          index_t ncols) {
  if (ncols == kPanel) {
    _mm256_storeu_ps(c, lo);
    _mm256_storeu_ps(c + 8, hi);
  } else {
    float tmp[kPanel];
    _mm256_storeu_ps(tmp, lo);
    _mm256_storeu_ps(tmp + 8, hi);
    std::memcpy(c, tmp, ncols * sizeof(float));
  }
}

/*! \brief C(MR, ncols <= 16) = A(MR, K) * panel(K, 16). The accumulators are named variables
 *         (an array would be kept in memory by GCC) and rows past MR compile away. */
template <int MR>
__attribute__((target("avx2,fma"))) void MicroKernel(index_t K, const float* A, index_t lda,
                                                      const float* panel, float* C, index_t ldc,
                                                      index_t ncols) {
  __m256 l0 = _mm256_setzero_ps(), h0 = l0, l1 = l0, h1 = l0, l2 = l0, h2 = l0;
  __m256 l3 = l0, h3 = l0, l4 = l0, h4 = l0, l5 = l0, h5 = l0;
  const float* a0 = A;
  const float* a1 = MR > 1 ? A + 1 * lda : A;  // rows past MR are never read
  const float* a2 = MR > 2 ? A + 2 * lda : A;
  const float* a3 = MR > 3 ? A + 3 * lda : A;
  const float* a4 = MR > 4 ? A + 4 * lda : A;
  const float* a5 = MR > 5 ? A + 5 * lda : A;
  for (index_t k = 0; k < K; ++k) {
    const __m256 b0 = _mm256_loadu_ps(panel + k * kPanel);
    const __m256 b1 = _mm256_loadu_ps(panel + k * kPanel + 8);
    __m256 a = _mm256_broadcast_ss(a0 + k);
    l0 = _mm256_fmadd_ps(a, b0, l0);
    h0 = _mm256_fmadd_ps(a, b1, h0);
    if constexpr (MR > 1) {
      a = _mm256_broadcast_ss(a1 + k);
      l1 = _mm256_fmadd_ps(a, b0, l1);
      h1 = _mm256_fmadd_ps(a, b1, h1);
    }
    if constexpr (MR > 2) {
      a = _mm256_broadcast_ss(a2 + k);
      l2 = _mm256_fmadd_ps(a, b0, l2);
      h2 = _mm256_fmadd_ps(a, b1, h2);
    }
    if constexpr (MR > 3) {
      a = _mm256_broadcast_ss(a3 + k);
      l3 = _mm256_fmadd_ps(a, b0, l3);
      h3 = _mm256_fmadd_ps(a, b1, h3);
    }
    if constexpr (MR > 4) {
      a = _mm256_broadcast_ss(a4 + k);
      l4 = _mm256_fmadd_ps(a, b0, l4);
      h4 = _mm256_fmadd_ps(a, b1, h4);
    }
    if constexpr (MR > 5) {
      a = _mm256_broadcast_ss(a5 + k);
      l5 = _mm256_fmadd_ps(a, b0, l5);
      h5 = _mm256_fmadd_ps(a, b1, h5);
    }
  }
  StoreRow(C, l0, h0, ncols);
  if constexpr (MR > 1) StoreRow(C + ldc, l1, h1, ncols);
  if constexpr (MR > 2) StoreRow(C + 2 * ldc, l2, h2, ncols);
  if constexpr (MR > 3) StoreRow(C + 3 * ldc, l3, h3, ncols);
  if constexpr (MR > 4) StoreRow(C + 4 * ldc, l4, h4, ncols);
  if constexpr (MR > 5) StoreRow(C + 5 * ldc, l5, h5, ncols);
}

__attribute__((target("avx2,fma"))) void MicroKernelRows(index_t rows, index_t K,
                                                          const float* A, index_t lda,
                                                          const float* panel, float* C,
                                                          index_t ldc, index_t nc) {
  switch (rows) {
    case 6: MicroKernel<6>(K, A, lda, panel, C, ldc, nc); break;
    case 5: MicroKernel<5>(K, A, lda, panel, C, ldc, nc); break;
    case 4: MicroKernel<4>(K, A, lda, panel, C, ldc, nc); break;
    case 3: MicroKernel<3>(K, A, lda, panel, C, ldc, nc); break;
    case 2: MicroKernel<2>(K, A, lda, panel, C, ldc, nc); break;
    default: MicroKernel<1>(K, A, lda, panel, C, ldc, nc); break;
  }
}

__attribute__((target("avx2,fma"))) void GemmPackedAvx2(index_t M, index_t cols, index_t K,
                                                         const float* A, index_t lda,
                                                         const float* packed, float* C,
                                                         index_t ldc) {
  for (index_t c0 = 0; c0 < cols; c0 += kPanel) {
    const float* panel = packed + c0 * K;  // panel c0 / kPanel: (K, kPanel)
    const index_t nc = std::min(kPanel, cols - c0);
    index_t r0 = 0;
    while (r0 < M) {
      // Full 6-row blocks; the last 7..11 rows go in two near-equal blocks (8 = 4 + 4, not
      // 6 + 2: a 2-row block waits on its loads more than on its FMAs).
      const index_t left = M - r0;
      const index_t rows = left <= kRowBlock ? left
                           : (left < 2 * kRowBlock ? (left + 1) / 2 : kRowBlock);
      MicroKernelRows(rows, K, A + r0 * lda, lda, panel, C + r0 * ldc + c0, ldc, nc);
      r0 += rows;
    }
  }
}
#endif
}  // namespace

bool PackedGemmAvailable() { return HasAvx2() && Enabled(); }

index_t PackedSize(index_t K, index_t cols) {
  return (cols + kPanel - 1) / kPanel * kPanel * K;
}

void PackB(const float* src, index_t ld, bool trans, index_t K, index_t cols, float* packed) {
  for (index_t c0 = 0; c0 < cols; c0 += kPanel) {
    float* panel = packed + c0 * K;
    for (index_t k = 0; k < K; ++k) {
      for (index_t c = 0; c < kPanel; ++c) {
        const index_t col = c0 + c;
        const float v = col >= cols ? 0.0f : (trans ? src[col * ld + k] : src[k * ld + col]);
        panel[k * kPanel + c] = v;
      }
    }
  }
}

void GemmPacked(index_t M, index_t cols, index_t K, const float* A, index_t lda,
                const float* packed, float* C, index_t ldc) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (HasAvx2()) {
    GemmPackedAvx2(M, cols, K, A, lda, packed, C, ldc);
    return;
  }
#endif
  // Portable path (only reached if a caller skipped PackedGemmAvailable()).
  for (index_t r = 0; r < M; ++r) {
    for (index_t col = 0; col < cols; ++col) {
      const float* panel = packed + col / kPanel * kPanel * K;
      float acc = 0.0f;
      for (index_t k = 0; k < K; ++k) acc += A[r * lda + k] * panel[k * kPanel + col % kPanel];
      C[r * ldc + col] = acc;
    }
  }
}

}  // namespace rnn_fast
}  // namespace op
}  // namespace mxnet
