/*!
 * \file conv_kernels.h
 * \brief Native (im2col + BLAS GEMM) convolution kernels shared by Convolution and
 *        Deconvolution, for 1-D/2-D/3-D (all handled as 3-D with unit leading dims).
 *
 *   ConvGeom g = ...;                       // x (N, C, in), w (F, C/G, k), y (N, F, out)
 *   ConvForwardNative(g, x, w, bias, y, req, workspace);
 *   ConvBackwardNative(g, x, w, dy, dx, req_dx, dw, req_dw, db, req_db, workspace);
 *
 * The batch is processed in chunks of `nb` images: im2col of the chunk into one
 * (C*K, nb*OSP) matrix, then a single GEMM per group, so OpenBLAS sees big matrices even for
 * small images (LeNet's 24x24 planes). Results go to a (F, nb*OSP) buffer and are scattered to
 * (N, F, OSP) with the bias added. Deconvolution reuses the same kernels: its forward is the
 * convolution's data gradient and its data gradient the convolution's forward.
 */
#ifndef MXNET_OPERATOR_NN_CONV_KERNELS_H_
#define MXNET_OPERATOR_NN_CONV_KERNELS_H_

#include <mxnet/base.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../blas_gemm.h"

namespace mxnet {
namespace op {

/*! \brief Convolution geometry in conv terms, spatial dims padded to 3 (D, H, W). */
struct ConvGeom {
  index_t N = 0, C = 0, F = 0, G = 1;  // batch, in channels, out channels (filters), groups
  index_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  index_t k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, p[3] = {0, 0, 0};
  int nsp = 2;  // spatial dims of the real problem (1, 2 or 3)

  index_t InSpatial() const { return in[0] * in[1] * in[2]; }
  index_t OutSpatial() const { return out[0] * out[1] * out[2]; }
  index_t KernelSize() const { return k[0] * k[1] * k[2]; }
  /*! \brief Rows of the im2col matrix of one group: (C/G) * kernel size. */
  index_t ColRowsPerGroup() const { return (C / G) * KernelSize(); }
  /*! \brief Images per chunk so that the chunk buffers stay below `max_elems`. */
  index_t ChunkImages(index_t max_elems) const {
    const index_t per_image = (C * KernelSize() + F) * OutSpatial();
    index_t nb = per_image > 0 ? std::max<index_t>(1, max_elems / per_image) : N;
    return std::min(nb, std::max<index_t>(N, 1));
  }
  /*! \brief Workspace elements ConvForwardNative / ConvBackwardNative need. */
  index_t WorkspaceElems(index_t max_elems) const {
    return ChunkImages(max_elems) * (C * KernelSize() + F) * OutSpatial();
  }
};

/*! \brief Default chunk budget: 16M elements (64 MB of float) of im2col + output buffers. */
constexpr index_t kConvChunkElems = index_t(1) << 24;

/*!
 * \brief Row-major float GEMM on oneDNN's OpenMP-threaded sgemm (dnnl_conv.cc). Returns
 *        false when oneDNN is not compiled in or switched off (MXNET_ONEDNN_ENABLED=0).
 *        Used by the im2col kernels so that GEMMs and the OpenMP im2col loops share one thread
 *        pool (OpenBLAS's pthreads spin after each call and fight OpenMP for the cores).
 */
bool DnnlSgemm(bool ta, bool tb, index_t M, index_t N, index_t K, float alpha, const float* A,
               index_t lda, const float* B, index_t ldb, float beta, float* C, index_t ldc);

/*! \brief The GEMM of the im2col kernels: oneDNN's sgemm for float when enabled, else BLAS. */
template <typename DType>
inline void ConvGemm(bool ta, bool tb, index_t M, index_t N, index_t K, DType alpha,
                     const DType* A, index_t lda, const DType* B, index_t ldb, DType beta,
                     DType* C, index_t ldc) {
  if (std::is_same<DType, float>::value && M > 0 && N > 0 && K > 0 &&
      DnnlSgemm(ta, tb, M, N, K, static_cast<float>(alpha), reinterpret_cast<const float*>(A),
                lda, reinterpret_cast<const float*>(B), ldb, static_cast<float>(beta),
                reinterpret_cast<float*>(C), ldc)) {
    return;
  }
  BlasGemm<DType>(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

namespace conv_detail {

/*! \brief max(0, ceil(a / b)) for b > 0. */
inline index_t CeilDivClamp(index_t a, index_t b) {
  if (a <= 0) return 0;
  return (a + b - 1) / b;
}

/*! \brief [lo, hi) of output positions whose input index o*s - p + kk*d lies in [0, in). */
inline void ValidRange(index_t in, index_t out, index_t s, index_t p, index_t kk, index_t d,
                       index_t* lo, index_t* hi) {
  const index_t off = kk * d - p;  // input index = o*s + off
  *lo = std::min(out, CeilDivClamp(-off, s));
  *hi = std::min(out, CeilDivClamp(in - off, s));
  if (*hi < *lo) *hi = *lo;
}

}  // namespace conv_detail

/*!
 * \brief im2col of channels [0, C) of one image x (C, in) into rows c*K.. of col, whose rows
 *        have stride ld (column offset already applied by the caller).
 */
template <typename DType>
inline void Im2ColChannel(const ConvGeom& g, const DType* x, index_t c, DType* col, index_t ld) {
  using conv_detail::ValidRange;
  const index_t K = g.KernelSize();
  const index_t OH = g.out[1], OW = g.out[2];
  const DType* xc = x + c * g.InSpatial();
  for (index_t kd = 0; kd < g.k[0]; ++kd) {
    index_t d_lo, d_hi;
    ValidRange(g.in[0], g.out[0], g.s[0], g.p[0], kd, g.d[0], &d_lo, &d_hi);
    for (index_t kh = 0; kh < g.k[1]; ++kh) {
      index_t h_lo, h_hi;
      ValidRange(g.in[1], g.out[1], g.s[1], g.p[1], kh, g.d[1], &h_lo, &h_hi);
      for (index_t kw = 0; kw < g.k[2]; ++kw) {
        index_t w_lo, w_hi;
        ValidRange(g.in[2], g.out[2], g.s[2], g.p[2], kw, g.d[2], &w_lo, &w_hi);
        const index_t r = c * K + (kd * g.k[1] + kh) * g.k[2] + kw;
        DType* row = col + r * ld;
        const index_t woff = kw * g.d[2] - g.p[2];
        for (index_t od = 0; od < g.out[0]; ++od) {
          DType* plane = row + od * OH * OW;
          if (od < d_lo || od >= d_hi) {
            std::fill(plane, plane + OH * OW, DType(0));
            continue;
          }
          const index_t id = od * g.s[0] + kd * g.d[0] - g.p[0];
          for (index_t oh = 0; oh < OH; ++oh) {
            DType* dst = plane + oh * OW;
            if (oh < h_lo || oh >= h_hi) {
              std::fill(dst, dst + OW, DType(0));
              continue;
            }
            const index_t ih = oh * g.s[1] + kh * g.d[1] - g.p[1];
            const DType* src = xc + (id * g.in[1] + ih) * g.in[2];
            for (index_t ow = 0; ow < w_lo; ++ow) dst[ow] = DType(0);
            if (g.s[2] == 1) {
              if (w_hi > w_lo) std::memcpy(dst + w_lo, src + w_lo + woff, (w_hi - w_lo) * sizeof(DType));
            } else {
              const index_t sw = g.s[2];
              for (index_t ow = w_lo; ow < w_hi; ++ow) dst[ow] = src[ow * sw + woff];
            }
            for (index_t ow = w_hi; ow < OW; ++ow) dst[ow] = DType(0);
          }
        }
      }
    }
  }
}

/*! \brief The reverse of Im2ColChannel: dx[c] += the col rows of channel c. */
template <typename DType>
inline void Col2ImChannel(const ConvGeom& g, const DType* col, index_t ld, index_t c, DType* dx) {
  using conv_detail::ValidRange;
  const index_t K = g.KernelSize();
  const index_t OH = g.out[1], OW = g.out[2];
  DType* xc = dx + c * g.InSpatial();
  for (index_t kd = 0; kd < g.k[0]; ++kd) {
    index_t d_lo, d_hi;
    ValidRange(g.in[0], g.out[0], g.s[0], g.p[0], kd, g.d[0], &d_lo, &d_hi);
    for (index_t kh = 0; kh < g.k[1]; ++kh) {
      index_t h_lo, h_hi;
      ValidRange(g.in[1], g.out[1], g.s[1], g.p[1], kh, g.d[1], &h_lo, &h_hi);
      for (index_t kw = 0; kw < g.k[2]; ++kw) {
        index_t w_lo, w_hi;
        ValidRange(g.in[2], g.out[2], g.s[2], g.p[2], kw, g.d[2], &w_lo, &w_hi);
        const index_t r = c * K + (kd * g.k[1] + kh) * g.k[2] + kw;
        const DType* row = col + r * ld;
        const index_t woff = kw * g.d[2] - g.p[2];
        const index_t sw = g.s[2];
        for (index_t od = d_lo; od < d_hi; ++od) {
          const index_t id = od * g.s[0] + kd * g.d[0] - g.p[0];
          for (index_t oh = h_lo; oh < h_hi; ++oh) {
            const index_t ih = oh * g.s[1] + kh * g.d[1] - g.p[1];
            const DType* src = row + (od * OH + oh) * OW;
            DType* dst = xc + (id * g.in[1] + ih) * g.in[2];
            for (index_t ow = w_lo; ow < w_hi; ++ow) dst[ow * sw + woff] += src[ow];
          }
        }
      }
    }
  }
}

/*! \brief im2col of images [n0, n0+nb) into col (C*K, nb*OSP). */
template <typename DType>
inline void Im2ColChunk(const ConvGeom& g, const DType* x, index_t n0, index_t nb, DType* col) {
  const index_t osp = g.OutSpatial(), ld = nb * osp;
  const index_t tasks = nb * g.C;
#pragma omp parallel for schedule(static) if (tasks > 1 && ld * g.KernelSize() * g.C > 32768)
  for (index_t t = 0; t < tasks; ++t) {
    const index_t i = t / g.C, c = t % g.C;
    Im2ColChannel(g, x + (n0 + i) * g.C * g.InSpatial(), c, col + i * osp, ld);
  }
}

/*!
 * \brief y = conv(x, w) + bias (bias may be null), honouring req (kWriteTo/kWriteInplace/
 *        kAddTo). workspace: g.WorkspaceElems(kConvChunkElems) elements.
 */
template <typename DType>
void ConvForwardNative(const ConvGeom& g, const DType* x, const DType* w, const DType* bias,
                       DType* y, OpReqType req, DType* workspace) {
  if (req == kNullOp || g.N == 0) return;
  const index_t osp = g.OutSpatial(), K = g.KernelSize();
  const index_t Fg = g.F / g.G, rows_g = g.ColRowsPerGroup();
  const index_t nb_max = g.ChunkImages(kConvChunkElems);
  DType* col = workspace;
  DType* tmp = workspace + g.C * K * nb_max * osp;
  for (index_t n0 = 0; n0 < g.N; n0 += nb_max) {
    const index_t nb = std::min(nb_max, g.N - n0), ld = nb * osp;
    Im2ColChunk(g, x, n0, nb, col);
    for (index_t grp = 0; grp < g.G; ++grp) {
      ConvGemm<DType>(false, false, Fg, ld, rows_g, DType(1), w + grp * Fg * rows_g, rows_g,
                      col + grp * rows_g * ld, ld, DType(0), tmp + grp * Fg * ld, ld);
    }
    // Scatter (F, nb*OSP) -> (nb, F, OSP), adding the bias.
    const index_t tasks = nb * g.F;
#pragma omp parallel for schedule(static) if (tasks * osp > 32768)
    for (index_t t = 0; t < tasks; ++t) {
      const index_t i = t / g.F, f = t % g.F;
      const DType* src = tmp + f * ld + i * osp;
      DType* dst = y + ((n0 + i) * g.F + f) * osp;
      const DType b = bias != nullptr ? bias[f] : DType(0);
      if (req == kAddTo) {
        for (index_t j = 0; j < osp; ++j) dst[j] += src[j] + b;
      } else {
        for (index_t j = 0; j < osp; ++j) dst[j] = src[j] + b;
      }
    }
  }
}

/*! \brief db[f] (=|+=) sum over n and spatial of dy (N, F, OSP); double accumulation. */
template <typename DType>
void ConvBiasGrad(index_t N, index_t F, index_t osp, const DType* dy, DType* db, OpReqType req) {
  if (req == kNullOp) return;
#pragma omp parallel for schedule(static) if (N * F * osp > 65536)
  for (index_t f = 0; f < F; ++f) {
    double acc = 0;
    for (index_t n = 0; n < N; ++n) {
      const DType* p = dy + (n * F + f) * osp;
      double part = 0;
      for (index_t j = 0; j < osp; ++j) part += static_cast<double>(p[j]);
      acc += part;
    }
    db[f] = req == kAddTo ? DType(static_cast<double>(db[f]) + acc) : DType(acc);
  }
}

/*!
 * \brief Gradients of y = conv(x, w) + b. Any of dx, dw, db may be null (not wanted).
 *        workspace: g.WorkspaceElems(kConvChunkElems) elements.
 */
template <typename DType>
void ConvBackwardNative(const ConvGeom& g, const DType* x, const DType* w, const DType* dy,
                        DType* dx, OpReqType req_dx, DType* dw, OpReqType req_dw, DType* db,
                        OpReqType req_db, DType* workspace) {
  if (req_dx == kNullOp) dx = nullptr;
  if (req_dw == kNullOp) dw = nullptr;
  if (req_db == kNullOp) db = nullptr;
  const index_t osp = g.OutSpatial(), K = g.KernelSize(), isp = g.InSpatial();
  const index_t Fg = g.F / g.G, rows_g = g.ColRowsPerGroup();
  if (db != nullptr) ConvBiasGrad(g.N, g.F, osp, dy, db, req_db);
  if (dw != nullptr && req_dw != kAddTo && g.N == 0) {
    std::fill(dw, dw + g.F * rows_g, DType(0));
  }
  if (dx != nullptr && req_dx != kAddTo) {
    const index_t total = g.N * g.C * isp;
#pragma omp parallel for schedule(static) if (total > 65536)
    for (index_t i = 0; i < total; ++i) dx[i] = DType(0);
  }
  if (dx == nullptr && dw == nullptr) return;
  const index_t nb_max = g.ChunkImages(kConvChunkElems);
  DType* col = workspace;
  DType* dyt = workspace + g.C * K * nb_max * osp;
  bool first = true;
  for (index_t n0 = 0; n0 < g.N; n0 += nb_max) {
    const index_t nb = std::min(nb_max, g.N - n0), ld = nb * osp;
    // Gather dy (nb, F, OSP) -> (F, nb*OSP).
    const index_t tasks = nb * g.F;
#pragma omp parallel for schedule(static) if (tasks * osp > 32768)
    for (index_t t = 0; t < tasks; ++t) {
      const index_t i = t / g.F, f = t % g.F;
      std::memcpy(dyt + f * ld + i * osp, dy + ((n0 + i) * g.F + f) * osp, osp * sizeof(DType));
    }
    if (dw != nullptr) {
      Im2ColChunk(g, x, n0, nb, col);
      const DType beta = (first && req_dw != kAddTo) ? DType(0) : DType(1);
      for (index_t grp = 0; grp < g.G; ++grp) {
        ConvGemm<DType>(false, true, Fg, rows_g, ld, DType(1), dyt + grp * Fg * ld, ld,
                        col + grp * rows_g * ld, ld, beta, dw + grp * Fg * rows_g, rows_g);
      }
    }
    if (dx != nullptr) {
      for (index_t grp = 0; grp < g.G; ++grp) {
        ConvGemm<DType>(true, false, rows_g, ld, Fg, DType(1), w + grp * Fg * rows_g, rows_g,
                        dyt + grp * Fg * ld, ld, DType(0), col + grp * rows_g * ld, ld);
      }
      const index_t ctasks = nb * g.C;
#pragma omp parallel for schedule(static) if (ctasks > 1 && ld * K * g.C > 32768)
      for (index_t t = 0; t < ctasks; ++t) {
        const index_t i = t / g.C, c = t % g.C;
        Col2ImChannel(g, col + i * osp, ld, c, dx + (n0 + i) * g.C * isp);
      }
    }
    first = false;
  }
}

/*!
 * \brief The data gradient alone, into a caller-zeroed-or-accumulating dx: dx += conv^T(dy).
 *        Used by Deconvolution's forward (dx is its output). Same workspace as above.
 */
template <typename DType>
void ConvBackwardDataAccumulate(const ConvGeom& g, const DType* w, const DType* dy, DType* dx,
                                DType* workspace) {
  ConvBackwardNative<DType>(g, nullptr, w, dy, dx, kAddTo, nullptr, kNullOp, nullptr, kNullOp,
                            workspace);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_CONV_KERNELS_H_
