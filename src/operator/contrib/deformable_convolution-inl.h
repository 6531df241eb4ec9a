/*!
 * \file deformable_convolution-inl.h
 * \brief Deformable convolutions (deformable_convolution.cc): _contrib_DeformableConvolution
 *        (DCNv1, Dai et al. 2017) and _contrib_ModulatedDeformableConvolution (DCNv2, Zhu et al.
 *        2018), 2-D, NCHW, CPU.
 *
 * data (N, C, H, W), offset (N, DG*2*KH*KW, OH, OW), [mask (N, DG*KH*KW, OH, OW)],
 * weight (F, C/G, KH, KW), bias (F,) -> out (N, F, OH, OW), OH/OW as Convolution.
 *
 * For output cell (oh, ow), input channel c (deformable group g = c / (C/DG)) and kernel tap
 * (i, j), the input is sampled at
 *   y = oh*stride_h - pad_h + i*dilate_h + offset[n, g*2*K + 2*(i*KW+j),     oh, ow]
 *   x = ow*stride_w - pad_w + j*dilate_w + offset[n, g*2*K + 2*(i*KW+j) + 1, oh, ow]
 * by bilinear interpolation (DCNv2 multiplies the sample by mask[n, g*K + i*KW+j, oh, ow]).
 * The samples form im2col columns (C*KH*KW, OH*OW) per image; out = weight x columns per
 * group, plus bias. The two versions differ at the border, as in MXNet 1.9.1:
 *  - v1 samples only 0 <= y < H, 0 <= x < W and clamps to the last row/column (a point in
 *    [H-1, H) reads row H-1 unchanged);
 *  - v2 samples -1 < y < H, -1 < x < W with the cells outside the map read as zeros.
 * The backward is the exact derivative of this sampling (zero where a point is clamped or out).
 */
#ifndef MXNET_OPERATOR_CONTRIB_DEFORMABLE_CONVOLUTION_INL_H_
#define MXNET_OPERATOR_CONTRIB_DEFORMABLE_CONVOLUTION_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../blas_gemm.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace dconv {
// Layout enum values (mshadow's layout flags, as Convolution).
enum Layout { kNCHW = 0, kNCW = 3, kNCDHW = 6 };
}  // namespace dconv

struct DeformableConvolutionParam : public dmlc::Parameter<DeformableConvolutionParam> {
  mxnet::TShape kernel;
  mxnet::TShape stride;
  mxnet::TShape dilate;
  mxnet::TShape pad;
  int num_filter;
  int num_group;
  int num_deformable_group;
  uint64_t workspace;
  bool no_bias;
  dmlc::optional<int> layout;
  DMLC_DECLARE_PARAMETER(DeformableConvolutionParam) {
    DMLC_DECLARE_FIELD(kernel).describe("Convolution kernel size: (h, w) or (d, h, w)");
    DMLC_DECLARE_FIELD(stride).set_default(mxnet::TShape(0, 0))
        .describe("Convolution stride: (h, w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(dilate).set_default(mxnet::TShape(0, 0))
        .describe("Convolution dilate: (h, w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(pad).set_default(mxnet::TShape(0, 0))
        .describe("Zero pad for convolution: (h, w) or (d, h, w). Defaults to no padding.");
    DMLC_DECLARE_FIELD(num_filter).describe("Convolution filter(channel) number");
    DMLC_DECLARE_FIELD(num_group).set_default(1).describe("Number of group partitions.");
    DMLC_DECLARE_FIELD(num_deformable_group).set_default(1)
        .describe("Number of deformable group partitions.");
    DMLC_DECLARE_FIELD(workspace).set_default(1024).set_lower_bound(0)
        .describe("Maximum temperal workspace allowed for convolution (MB).");
    DMLC_DECLARE_FIELD(no_bias).set_default(false).describe("Whether to disable bias parameter.");
    DMLC_DECLARE_FIELD(layout)
        .add_enum("NCW", dconv::kNCW)
        .add_enum("NCHW", dconv::kNCHW)
        .add_enum("NCDHW", dconv::kNCDHW)
        .set_default(dmlc::optional<int>())
        .describe("Set layout for input, output and weight. Empty for\n    default layout: "
                  "NCW for 1d, NCHW for 2d and NCDHW for 3d.");
  }
};

struct ModulatedDeformableConvolutionParam
    : public dmlc::Parameter<ModulatedDeformableConvolutionParam> {
  mxnet::TShape kernel;
  mxnet::TShape stride;
  mxnet::TShape dilate;
  mxnet::TShape pad;
  uint32_t num_filter;
  uint32_t num_group;
  uint32_t num_deformable_group;
  uint64_t workspace;
  bool no_bias;
  uint32_t im2col_step;
  dmlc::optional<int> layout;
  DMLC_DECLARE_PARAMETER(ModulatedDeformableConvolutionParam) {
    DMLC_DECLARE_FIELD(kernel).describe("Convolution kernel size: (h, w) or (d, h, w)");
    DMLC_DECLARE_FIELD(stride).set_default(mxnet::TShape(0, 0))
        .describe("Convolution stride: (h, w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(dilate).set_default(mxnet::TShape(0, 0))
        .describe("Convolution dilate: (h, w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(pad).set_default(mxnet::TShape(0, 0))
        .describe("Zero pad for convolution: (h, w) or (d, h, w). Defaults to no padding.");
    DMLC_DECLARE_FIELD(num_filter).describe("Convolution filter(channel) number");
    DMLC_DECLARE_FIELD(num_group).set_default(1).describe("Number of group partitions.");
    DMLC_DECLARE_FIELD(num_deformable_group).set_default(1)
        .describe("Number of deformable group partitions.");
    DMLC_DECLARE_FIELD(workspace).set_default(1024).set_lower_bound(0)
        .describe("Maximum temperal workspace allowed for convolution (MB).");
    DMLC_DECLARE_FIELD(no_bias).set_default(false).describe("Whether to disable bias parameter.");
    DMLC_DECLARE_FIELD(im2col_step).set_default(64)
        .describe("Maximum number of images per im2col computation; The total batch size should "
                  "be divisable by this value or smaller than this value; if you face out of "
                  "memory problem, you can try to use a smaller value here.");
    DMLC_DECLARE_FIELD(layout)
        .add_enum("NCW", dconv::kNCW)
        .add_enum("NCHW", dconv::kNCHW)
        .add_enum("NCDHW", dconv::kNCDHW)
        .set_default(dmlc::optional<int>())
        .describe("Set layout for input, output and weight. Empty for\n    default layout: "
                  "NCW for 1d, NCHW for 2d and NCDHW for 3d.");
  }
};

/*! \brief The hyper-parameters both versions share, with stride/dilate/pad defaults filled. */
struct DeformConvConfig {
  const char* op;     // registered name, for messages
  bool modulated;     // DCNv2: has a mask input
  dim_t kh, kw, sh, sw, dh, dw, ph, pw;
  dim_t num_filter, num_group, num_dgroup;
  bool no_bias;
  dim_t im2col_step;  // 0 for v1 (no constraint)
};

/*! \brief The full geometry of one call. */
struct DeformConvGeom {
  DeformConvConfig cfg;
  index_t N, C, H, W, OH, OW;
  index_t K() const { return cfg.kh * cfg.kw; }
  index_t P() const { return OH * OW; }
};

/*!
 * \brief Validates kernel/stride/dilate/pad/layout of `op` (2-D only) and returns the config;
 *        throws a ParamError / NotImplementedError naming the op.
 */
template <typename Param>
DeformConvConfig MakeDeformConvConfig(const char* op, bool modulated, const Param& p) {
  DeformConvConfig c;
  c.op = op;
  c.modulated = modulated;
  if (p.kernel.ndim() != 2) {
    MX_THROW(NotImplementedError) << op << ": only 2-D kernels (h, w) are implemented, got "
                                  << "kernel " << p.kernel;
  }
  if (p.layout.has_value() && p.layout.value() != dconv::kNCHW) {
    MX_THROW(NotImplementedError) << op << ": only the NCHW layout is implemented";
  }
  auto pick = [&](const mxnet::TShape& t, const char* name, int i, dim_t def,
                  dim_t min_value) -> dim_t {
    if (t.ndim() <= 0) return def;
    if (t.ndim() != 2) {
      throw dmlc::ParamError(std::string(op) + ": " + name + " " + shape_string(t) +
                             " must have 2 dimensions like kernel " + shape_string(p.kernel));
    }
    if (t[i] < min_value) {
      throw dmlc::ParamError(std::string(op) + ": " + name + " must be >= " +
                             std::to_string(min_value) + " in every dimension, got " +
                             shape_string(t));
    }
    return t[i];
  };
  c.kh = pick(p.kernel, "kernel", 0, 1, 1);
  c.kw = pick(p.kernel, "kernel", 1, 1, 1);
  c.sh = pick(p.stride, "stride", 0, 1, 1);
  c.sw = pick(p.stride, "stride", 1, 1, 1);
  c.dh = pick(p.dilate, "dilate", 0, 1, 1);
  c.dw = pick(p.dilate, "dilate", 1, 1, 1);
  c.ph = pick(p.pad, "pad", 0, 0, 0);
  c.pw = pick(p.pad, "pad", 1, 0, 0);
  c.num_filter = static_cast<dim_t>(p.num_filter);
  c.num_group = static_cast<dim_t>(p.num_group);
  c.num_dgroup = static_cast<dim_t>(p.num_deformable_group);
  c.no_bias = p.no_bias;
  c.im2col_step = 0;
  if (c.num_filter <= 0 || c.num_group <= 0 || c.num_dgroup <= 0) {
    throw dmlc::ParamError(std::string(op) + ": num_filter, num_group and "
                           "num_deformable_group must be positive, got " +
                           std::to_string(c.num_filter) + ", " + std::to_string(c.num_group) +
                           ", " + std::to_string(c.num_dgroup));
  }
  if (c.num_filter % c.num_group != 0) {
    throw dmlc::ParamError(std::string(op) + ": num_filter=" + std::to_string(c.num_filter) +
                           " must be divisible by num_group=" + std::to_string(c.num_group));
  }
  if (modulated && c.num_filter % c.num_dgroup != 0) {  // as MXNet 1.9.1's DCNv2
    throw dmlc::ParamError(std::string(op) + ": num_filter=" + std::to_string(c.num_filter) +
                           " must be divisible by num_deformable_group=" +
                           std::to_string(c.num_dgroup));
  }
  return c;
}

// ---- bilinear taps -------------------------------------------------------------------------

/*!
 * \brief The four interpolation taps of point (y, x) on an H x W map: flat cell indices (-1
 *        where the tap reads nothing), weights and the weights' derivatives along y and x.
 *        Returns false when the point is not sampled at all (value 0).
 */
template <typename R>
struct Taps {
  index_t idx[4];
  R w[4], wy[4], wx[4];

  bool Set(bool modulated, R y, R x, index_t H, index_t W) {
    if (modulated) {
      if (!(y > R(-1) && x > R(-1) && y < static_cast<R>(H) && x < static_cast<R>(W))) {
        return false;
      }
      const index_t y0 = static_cast<index_t>(std::floor(y));
      const index_t x0 = static_cast<index_t>(std::floor(x));
      const R ly = y - static_cast<R>(y0), lx = x - static_cast<R>(x0);
      Fill(y0, x0, y0 + 1, x0 + 1, ly, lx, R(1), R(1), H, W);
      return true;
    }
    if (!(y >= R(0) && x >= R(0) && y < static_cast<R>(H) && x < static_cast<R>(W))) {
      return false;
    }
    index_t y0 = static_cast<index_t>(y), x0 = static_cast<index_t>(x), y1 = y0 + 1,
            x1 = x0 + 1;
    R ly = y - static_cast<R>(y0), lx = x - static_cast<R>(x0), gy = 1, gx = 1;
    if (y0 >= H - 1) {  // clamped to the last row: constant along y
      y0 = y1 = H - 1;
      ly = 0;
      gy = 0;
    }
    if (x0 >= W - 1) {
      x0 = x1 = W - 1;
      lx = 0;
      gx = 0;
    }
    Fill(y0, x0, y1, x1, ly, lx, gy, gx, H, W);
    return true;
  }

  R Value(const R* plane) const {
    R v = 0;
    for (int k = 0; k < 4; ++k) {
      if (idx[k] >= 0) v += w[k] * plane[idx[k]];
    }
    return v;
  }

 private:
  void Fill(index_t y0, index_t x0, index_t y1, index_t x1, R ly, R lx, R gy, R gx, index_t H,
            index_t W) {
    const index_t ys[4] = {y0, y0, y1, y1}, xs[4] = {x0, x1, x0, x1};
    const R hy = R(1) - ly, hx = R(1) - lx;
    const R ww[4] = {hy * hx, hy * lx, ly * hx, ly * lx};
    const R wyy[4] = {-hx * gy, -lx * gy, hx * gy, lx * gy};
    const R wxx[4] = {-hy * gx, hy * gx, -ly * gx, ly * gx};
    for (int k = 0; k < 4; ++k) {
      const bool in = ys[k] >= 0 && ys[k] < H && xs[k] >= 0 && xs[k] < W;
      idx[k] = in ? ys[k] * W + xs[k] : -1;
      w[k] = in ? ww[k] : R(0);
      wy[k] = in ? wyy[k] : R(0);
      wx[k] = in ? wxx[k] : R(0);
    }
  }
};

// ---- kernels (R is float or double) ----------------------------------------------------------

/*! \brief Sample position of tap (i, j) at output (oh, ow) for offset pair (oy, ox). */
template <typename R>
inline void DeformPoint(const DeformConvConfig& c, index_t oh, index_t ow, index_t i, index_t j,
                        R oy, R ox, R* y, R* x) {
  *y = static_cast<R>(oh * c.sh - c.ph + i * c.dh) + oy;
  *x = static_cast<R>(ow * c.sw - c.pw + j * c.dw) + ox;
}

/*!
 * \brief Columns of image n: col[(c*K + k) * P + p] = sample (times the mask for v2).
 *        data/offset/mask point at image n.
 */
template <typename R>
void DeformIm2Col(const DeformConvGeom& g, const R* data, const R* offset, const R* mask,
                  R* col) {
  const DeformConvConfig& c = g.cfg;
  const index_t C = g.C, H = g.H, W = g.W, K = g.K(), P = g.P(), OW = g.OW;
  const index_t cpg = C / c.num_dgroup;
  #pragma omp parallel for
  for (index_t ch = 0; ch < C; ++ch) {
    const index_t dg = ch / cpg;
    const R* plane = data + ch * H * W;
    for (index_t k = 0; k < K; ++k) {
      const index_t i = k / c.kw, j = k % c.kw;
      const R* offy = offset + (dg * 2 * K + 2 * k) * P;
      const R* offx = offy + P;
      const R* m = mask ? mask + (dg * K + k) * P : nullptr;
      R* out = col + (ch * K + k) * P;
      for (index_t p = 0; p < P; ++p) {
        R y, x;
        DeformPoint(c, p / OW, p % OW, i, j, offy[p], offx[p], &y, &x);
        Taps<R> t;
        R v = t.Set(c.modulated, y, x, H, W) ? t.Value(plane) : R(0);
        out[p] = m ? v * m[p] : v;
      }
    }
  }
}

/*!
 * \brief Forward of one batch: out (N, F, OH, OW) = weight x columns (+ bias).
 *        mask and bias may be null.
 */
template <typename R>
void DeformConvForward(const DeformConvGeom& g, const R* data, const R* offset, const R* mask,
                       const R* weight, const R* bias, R* out) {
  const DeformConvConfig& c = g.cfg;
  const index_t C = g.C, K = g.K(), P = g.P(), F = c.num_filter, G = c.num_group;
  const index_t Cg = C / G, Fg = F / G;
  std::vector<R> col(static_cast<size_t>(C * K * P));
  for (index_t n = 0; n < g.N; ++n) {
    DeformIm2Col(g, data + n * C * g.H * g.W, offset + n * c.num_dgroup * 2 * K * P,
                 mask ? mask + n * c.num_dgroup * K * P : nullptr, col.data());
    R* o = out + n * F * P;
    for (index_t gr = 0; gr < G; ++gr) {
      BlasGemm<R>(false, false, Fg, P, Cg * K, R(1), weight + gr * Fg * Cg * K, Cg * K,
                  col.data() + gr * Cg * K * P, P, R(0), o + gr * Fg * P, P);
    }
    if (bias) {
      for (index_t f = 0; f < F; ++f) {
        for (index_t p = 0; p < P; ++p) o[f * P + p] += bias[f];
      }
    }
  }
}

/*!
 * \brief Backward of one batch. Every gradient pointer may be null (not wanted); the others
 *        are overwritten. mask is null for v1 (and then mask_grad too).
 */
template <typename R>
void DeformConvBackward(const DeformConvGeom& g, const R* out_grad, const R* data,
                        const R* offset, const R* mask, const R* weight, R* data_grad,
                        R* offset_grad, R* mask_grad, R* weight_grad, R* bias_grad) {
  const DeformConvConfig& c = g.cfg;
  const index_t C = g.C, H = g.H, W = g.W, K = g.K(), P = g.P(), OW = g.OW;
  const index_t F = c.num_filter, G = c.num_group, DG = c.num_dgroup;
  const index_t Cg = C / G, Fg = F / G, cpg = C / DG;
  std::vector<R> col(static_cast<size_t>(C * K * P)), col_grad;
  const bool need_col_grad = data_grad || offset_grad || mask_grad;
  if (need_col_grad) col_grad.resize(static_cast<size_t>(C * K * P));
  if (weight_grad && g.N == 0) std::fill(weight_grad, weight_grad + F * Cg * K, R(0));
  if (bias_grad) {
    std::fill(bias_grad, bias_grad + F, R(0));
    for (index_t n = 0; n < g.N; ++n) {
      for (index_t f = 0; f < F; ++f) {
        const R* og = out_grad + (n * F + f) * P;
        R s = 0;
        for (index_t p = 0; p < P; ++p) s += og[p];
        bias_grad[f] += s;
      }
    }
  }
  for (index_t n = 0; n < g.N; ++n) {
    const R* og = out_grad + n * F * P;
    const R* dat = data + n * C * H * W;
    const R* off = offset + n * DG * 2 * K * P;
    const R* msk = mask ? mask + n * DG * K * P : nullptr;
    if (weight_grad) {
      DeformIm2Col(g, dat, off, msk, col.data());
      for (index_t gr = 0; gr < G; ++gr) {
        BlasGemm<R>(false, true, Fg, Cg * K, P, R(1), og + gr * Fg * P, P,
                    col.data() + gr * Cg * K * P, P, n == 0 ? R(0) : R(1),
                    weight_grad + gr * Fg * Cg * K, Cg * K);
      }
    }
    if (!need_col_grad) continue;
    // Gradient of the columns: weight^T x out_grad per group.
    for (index_t gr = 0; gr < G; ++gr) {
      BlasGemm<R>(true, false, Cg * K, P, Fg, R(1), weight + gr * Fg * Cg * K, Cg * K,
                  og + gr * Fg * P, P, R(0), col_grad.data() + gr * Cg * K * P, P);
    }
    if (data_grad) {
      // Scatter into the data planes; each channel owns its plane.
      R* dgr = data_grad + n * C * H * W;
      #pragma omp parallel for
      for (index_t ch = 0; ch < C; ++ch) {
        const index_t dg = ch / cpg;
        R* plane = dgr + ch * H * W;
        std::fill(plane, plane + H * W, R(0));
        for (index_t k = 0; k < K; ++k) {
          const R* offy = off + (dg * 2 * K + 2 * k) * P;
          const R* offx = offy + P;
          const R* m = msk ? msk + (dg * K + k) * P : nullptr;
          const R* cg = col_grad.data() + (ch * K + k) * P;
          for (index_t p = 0; p < P; ++p) {
            R y, x;
            DeformPoint(c, p / OW, p % OW, k / c.kw, k % c.kw, offy[p], offx[p], &y, &x);
            Taps<R> t;
            if (!t.Set(c.modulated, y, x, H, W)) continue;
            const R v = m ? cg[p] * m[p] : cg[p];
            for (int q = 0; q < 4; ++q) {
              if (t.idx[q] >= 0) plane[t.idx[q]] += t.w[q] * v;
            }
          }
        }
      }
    }
    if (offset_grad || mask_grad) {
      R* ogr = offset_grad ? offset_grad + n * DG * 2 * K * P : nullptr;
      R* mgr = mask_grad ? mask_grad + n * DG * K * P : nullptr;
      #pragma omp parallel for
      for (index_t dk = 0; dk < DG * K; ++dk) {
        const index_t dg = dk / K, k = dk % K;
        const R* offy = off + (dg * 2 * K + 2 * k) * P;
        const R* offx = offy + P;
        const R* m = msk ? msk + (dg * K + k) * P : nullptr;
        for (index_t p = 0; p < P; ++p) {
          R y, x;
          DeformPoint(c, p / OW, p % OW, k / c.kw, k % c.kw, offy[p], offx[p], &y, &x);
          Taps<R> t;
          R gy = 0, gx = 0, gm = 0;
          if (t.Set(c.modulated, y, x, H, W)) {
            for (index_t ch = dg * cpg; ch < (dg + 1) * cpg; ++ch) {
              const R* plane = dat + ch * H * W;
              const R v = col_grad[(ch * K + k) * P + p];
              R sy = 0, sx = 0, s = 0;
              for (int q = 0; q < 4; ++q) {
                if (t.idx[q] < 0) continue;
                const R d = plane[t.idx[q]];
                sy += t.wy[q] * d;
                sx += t.wx[q] * d;
                s += t.w[q] * d;
              }
              gy += v * sy;
              gx += v * sx;
              gm += v * s;
            }
          }
          const R scale = m ? m[p] : R(1);
          if (ogr) {
            ogr[(dg * 2 * K + 2 * k) * P + p] = gy * scale;
            ogr[(dg * 2 * K + 2 * k + 1) * P + p] = gx * scale;
          }
          if (mgr) mgr[(dg * K + k) * P + p] = gm;
        }
      }
    }
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_DEFORMABLE_CONVOLUTION_INL_H_
