/*!
 * \file deformable_convolution-inl.h
 * \brief Deformable convolutions (deformable_convolution.cc): _contrib_DeformableConvolution
 *        (DCNv1, Dai et al. 2017) and _contrib_ModulatedDeformableConvolution (DCNv2, Zhu et al.
 *        2018), 2-D, NCHW, on the CPU and the GPU (deformable_convolution.cu).
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
 *
 * One implementation serves both devices, one image at a time: deform_im2col (one thread per
 * column element on the GPU, one row of them per item on the CPU) fills the columns in temp
 * space, Gemm (OpenBLAS / cuBLAS) multiplies them per group; the backward runs the transposed
 * GEMMs, deform_col2im scatters the column gradient into the data gradient (per channel in
 * order on the CPU, atomically on the GPU) and deform_coord_grad computes the offset (and
 * mask) gradients. The kernels compute in R = float (float16, float32) or double; float16
 * blobs are converted to float copies in temp space.
 */
#ifndef MXNET_OPERATOR_CONTRIB_DEFORMABLE_CONVOLUTION_INL_H_
#define MXNET_OPERATOR_CONTRIB_DEFORMABLE_CONVOLUTION_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "../blas_gemm.h"
#include "../mxnet_op.h"
#include "../nn/spatial_kernel_util-inl.h"
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
  MSHADOW_XINLINE index_t K() const { return cfg.kh * cfg.kw; }
  MSHADOW_XINLINE index_t P() const { return OH * OW; }
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
 *        Set returns false when the point is not sampled at all (value 0).
 */
template <typename R>
struct Taps {
  index_t idx[4];
  R w[4], wy[4], wx[4];

  MSHADOW_XINLINE bool Set(bool modulated, R y, R x, index_t H, index_t W) {
    if (modulated) {
      if (!(y > R(-1) && x > R(-1) && y < static_cast<R>(H) && x < static_cast<R>(W))) {
        return false;
      }
      const index_t y0 = static_cast<index_t>(SpFloor(y));
      const index_t x0 = static_cast<index_t>(SpFloor(x));
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

  MSHADOW_XINLINE R Value(const R* plane) const {
    R v = 0;
    for (int k = 0; k < 4; ++k) {
      if (idx[k] >= 0) v += w[k] * plane[idx[k]];
    }
    return v;
  }

 private:
  MSHADOW_XINLINE void Fill(index_t y0, index_t x0, index_t y1, index_t x1, R ly, R lx, R gy,
                            R gx, index_t H, index_t W) {
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

/*! \brief Sample position of tap (i, j) at output (oh, ow) for offset pair (oy, ox). */
template <typename R>
MSHADOW_XINLINE void DeformPoint(const DeformConvConfig& c, index_t oh, index_t ow, index_t i,
                                 index_t j, R oy, R ox, R* y, R* x) {
  *y = static_cast<R>(oh * c.sh - c.ph + i * c.dh) + oy;
  *x = static_cast<R>(ow * c.sw - c.pw + j * c.dw) + ox;
}

// ---- kernels of one image (R is float or double; both devices) ------------------------------

namespace dconv {

/*!
 * \brief Output positions one item of the column kernels handles: a whole row of P on the CPU
 *        (the per-(channel, tap) arithmetic done once per row), a single one on the GPU (one
 *        thread per column element).
 */
template <typename xpu>
struct ColumnRun {
  static index_t Of(index_t P) { return P > 0 ? P : 1; }
};
template <>
struct ColumnRun<mshadow::gpu> {
  static index_t Of(index_t) { return 1; }
};

/*!
 * \brief Item i covers the `run` column elements e = i * run + j, e = (ch * K + k) * P + p (run
 *        divides P): col[e] = the sample of channel ch at tap k for output position p (times
 *        the mask for v2). data/offset/mask point at the image; mask may be null.
 */
struct deform_im2col {
  template <typename R>
  MSHADOW_XINLINE static void Map(index_t i, index_t run, DeformConvGeom g, const R* data,
                                  const R* offset, const R* mask, R* col) {
    const DeformConvConfig& c = g.cfg;
    const index_t K = g.K(), P = g.P(), e0 = i * run;
    const index_t p0 = e0 % P, k = (e0 / P) % K, ch = e0 / (P * K);
    const index_t dg = ch / (g.C / c.num_dgroup), ki = k / c.kw, kj = k % c.kw;
    const R* plane = data + ch * g.H * g.W;
    const R* offy = offset + (dg * 2 * K + 2 * k) * P;
    const R* m = mask ? mask + (dg * K + k) * P : mask;
    R* out = col + (ch * K + k) * P;
    for (index_t p = p0; p < p0 + run; ++p) {
      R y, x;
      DeformPoint(c, p / g.OW, p % g.OW, ki, kj, offy[p], offy[P + p], &y, &x);
      Taps<R> t;
      const R v = t.Set(c.modulated, y, x, g.H, g.W) ? t.Value(plane) : R(0);
      out[p] = m ? v * m[p] : v;
    }
  }
};

/*!
 * \brief Item i covers the column elements of deform_im2col's item i and adds each one's
 *        gradient col_grad[e] (times the mask) to the four taps of its sample in data_grad (the
 *        image's planes). On the CPU the items of one channel run in order; on the GPU the adds
 *        are atomic.
 */
struct deform_col2im {
  template <typename R>
  MSHADOW_XINLINE static void Map(index_t i, index_t run, DeformConvGeom g, const R* col_grad,
                                  const R* offset, const R* mask, R* data_grad) {
    const DeformConvConfig& c = g.cfg;
    const index_t K = g.K(), P = g.P(), e0 = i * run;
    const index_t p0 = e0 % P, k = (e0 / P) % K, ch = e0 / (P * K);
    const index_t dg = ch / (g.C / c.num_dgroup), ki = k / c.kw, kj = k % c.kw;
    R* plane = data_grad + ch * g.H * g.W;
    const R* offy = offset + (dg * 2 * K + 2 * k) * P;
    const R* m = mask ? mask + (dg * K + k) * P : mask;
    const R* cg = col_grad + (ch * K + k) * P;
    for (index_t p = p0; p < p0 + run; ++p) {
      R y, x;
      DeformPoint(c, p / g.OW, p % g.OW, ki, kj, offy[p], offy[P + p], &y, &x);
      Taps<R> t;
      if (!t.Set(c.modulated, y, x, g.H, g.W)) continue;
      const R v = m ? cg[p] * m[p] : cg[p];
      for (int q = 0; q < 4; ++q) {
        if (t.idx[q] >= 0) ScatterAdd(plane + t.idx[q], t.w[q] * v);
      }
    }
  }
};

/*!
 * \brief Item i covers the `run` elements e = i * run + j, e = (dg * K + k) * P + p: the
 *        gradients of offset pair (dg, k) at position p (and of its mask value), summed over
 *        the channels of deformable group dg. offset_grad and mask_grad (either may be null)
 *        point at the image.
 */
struct deform_coord_grad {
  template <typename R>
  MSHADOW_XINLINE static void Map(index_t i, index_t run, DeformConvGeom g, const R* col_grad,
                                  const R* data, const R* offset, const R* mask,
                                  R* offset_grad, R* mask_grad) {
    const DeformConvConfig& c = g.cfg;
    const index_t K = g.K(), P = g.P(), HW = g.H * g.W, e0 = i * run;
    const index_t cpg = g.C / c.num_dgroup;
    const index_t p0 = e0 % P, dk = e0 / P, dg = dk / K, k = dk % K;
    const index_t ki = k / c.kw, kj = k % c.kw;
    const R* offy = offset + (dg * 2 * K + 2 * k) * P;
    for (index_t p = p0; p < p0 + run; ++p) {
      R y, x;
      DeformPoint(c, p / g.OW, p % g.OW, ki, kj, offy[p], offy[P + p], &y, &x);
      Taps<R> t;
      R gy = 0, gx = 0, gm = 0;
      if (t.Set(c.modulated, y, x, g.H, g.W)) {
        for (index_t ch = dg * cpg; ch < (dg + 1) * cpg; ++ch) {
          const R* plane = data + ch * HW;
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
      const R scale = mask ? mask[dk * P + p] : R(1);
      if (offset_grad) {
        offset_grad[(dg * 2 * K + 2 * k) * P + p] = gy * scale;
        offset_grad[(dg * 2 * K + 2 * k + 1) * P + p] = gx * scale;
      }
      if (mask_grad) mask_grad[dk * P + p] = gm;
    }
  }
};

/*! \brief out[n, f, p] += bias[f] (item i over N * F * P). */
struct deform_add_bias {
  template <typename R>
  MSHADOW_XINLINE static void Map(index_t i, R* out, const R* bias, index_t F, index_t P) {
    out[i] += bias[(i / P) % F];
  }
};

/*! \brief bias_grad[f] = sum over n of (sum over p of out_grad[n, f, p]). */
struct deform_bias_grad {
  template <typename R>
  MSHADOW_XINLINE static void Map(index_t f, R* bias_grad, const R* out_grad, index_t N,
                                  index_t F, index_t P) {
    R acc = 0;
    for (index_t n = 0; n < N; ++n) {
      const R* og = out_grad + (n * F + f) * P;
      R s = 0;
      for (index_t p = 0; p < P; ++p) s += og[p];
      acc += s;
    }
    bias_grad[f] = acc;
  }
};

/*! \brief dst[i] = src[i] converted (float16 blobs to float). */
struct deform_to_real {
  template <typename R, typename DType>
  MSHADOW_XINLINE static void Map(index_t i, R* dst, const DType* src) {
    dst[i] = static_cast<R>(src[i]);
  }
};

/*! \brief dst[i] (req) = src[i]: a computed R buffer stored into a DType blob. */
struct deform_store {
  template <typename DType, typename R>
  MSHADOW_XINLINE static void Map(index_t i, DType* dst, const R* src, int req) {
    dst[i] = req == kAddTo ? static_cast<DType>(static_cast<R>(dst[i]) + src[i])
                           : static_cast<DType>(src[i]);
  }
};

}  // namespace dconv

/*!
 * \brief Forward of one batch on either device: out (N, F, OH, OW) = weight x columns
 *        (+ bias). mask and bias may be null; col is scratch of C*K*P values.
 */
template <typename xpu, typename R>
void DeformConvForward(mshadow::Stream<xpu>* s, const DeformConvGeom& g, const R* data,
                       const R* offset, const R* mask, const R* weight, const R* bias, R* col,
                       R* out) {
  const DeformConvConfig& c = g.cfg;
  const index_t C = g.C, K = g.K(), P = g.P(), F = c.num_filter, G = c.num_group;
  const index_t Cg = C / G, Fg = F / G, DG = c.num_dgroup;
  const index_t run = dconv::ColumnRun<xpu>::Of(P);
  for (index_t n = 0; n < g.N; ++n) {
    LaunchGrouped<dconv::deform_im2col>(s, C, K * P / run, run, g, data + n * C * g.H * g.W,
                                        offset + n * DG * 2 * K * P,
                                        mask ? mask + n * DG * K * P : mask, col);
    Gemm<R>(s, false, false, Fg, P, Cg * K, 1.0, weight, Cg * K, col, P, 0.0, out + n * F * P, P,
            G, Fg * Cg * K, Cg * K * P, Fg * P);
  }
  if (bias) {
    mxnet_op::Kernel<dconv::deform_add_bias, xpu>::Launch(s, g.N * F * P, out, bias, F, P);
  }
}

/*!
 * \brief Backward of one batch on either device. Every gradient pointer may be null (not
 *        wanted); the others are overwritten. mask is null for v1 (and then mask_grad too).
 *        col and col_grad are scratch of C*K*P values (col is used only for weight_grad,
 *        col_grad only for the data, offset and mask gradients).
 */
template <typename xpu, typename R>
void DeformConvBackward(mshadow::Stream<xpu>* s, const DeformConvGeom& g, const R* out_grad,
                        const R* data, const R* offset, const R* mask, const R* weight, R* col,
                        R* col_grad, R* data_grad, R* offset_grad, R* mask_grad, R* weight_grad,
                        R* bias_grad) {
  using mxnet_op::Kernel;
  const DeformConvConfig& c = g.cfg;
  const index_t C = g.C, H = g.H, W = g.W, K = g.K(), P = g.P();
  const index_t F = c.num_filter, G = c.num_group, DG = c.num_dgroup;
  const index_t Cg = C / G, Fg = F / G;
  const bool need_col_grad = data_grad || offset_grad || mask_grad;
  const index_t run = dconv::ColumnRun<xpu>::Of(P);
  if (weight_grad && g.N == 0) {
    Kernel<mxnet_op::set_zero, xpu>::Launch(s, F * Cg * K, weight_grad);
  }
  if (bias_grad) LaunchGrouped<dconv::deform_bias_grad>(s, F, 1, bias_grad, out_grad, g.N, F, P);
  if (data_grad) Kernel<mxnet_op::set_zero, xpu>::Launch(s, g.N * C * H * W, data_grad);
  for (index_t n = 0; n < g.N; ++n) {
    const R* og = out_grad + n * F * P;
    const R* dat = data + n * C * H * W;
    const R* off = offset + n * DG * 2 * K * P;
    const R* msk = mask ? mask + n * DG * K * P : mask;
    if (weight_grad) {
      LaunchGrouped<dconv::deform_im2col>(s, C, K * P / run, run, g, dat, off, msk, col);
      Gemm<R>(s, false, true, Fg, Cg * K, P, 1.0, og, P, col, P, n == 0 ? 0.0 : 1.0,
              weight_grad, Cg * K, G, Fg * P, Cg * K * P, Fg * Cg * K);
    }
    if (!need_col_grad) continue;
    // Gradient of the columns: weight^T x out_grad per group.
    Gemm<R>(s, true, false, Cg * K, P, Fg, 1.0, weight, Cg * K, og, P, 0.0, col_grad, P, G,
            Fg * Cg * K, Fg * P, Cg * K * P);
    if (data_grad) {
      // Channel ch's items scatter only into plane ch: in order per channel on the CPU.
      LaunchGrouped<dconv::deform_col2im>(s, C, K * P / run, run, g,
                                          static_cast<const R*>(col_grad), off, msk,
                                          data_grad + n * C * H * W);
    }
    if (offset_grad || mask_grad) {
      LaunchGrouped<dconv::deform_coord_grad>(
          s, DG * K, P / run, run, g, static_cast<const R*>(col_grad), dat, off, msk,
          offset_grad ? offset_grad + n * DG * 2 * K * P : offset_grad,
          mask_grad ? mask_grad + n * DG * K * P : mask_grad);
    }
  }
}

// ---- operator plumbing shared by the CPU (.cc) and GPU (.cu) registrations -----------------

namespace dconv {
constexpr char kV1Name[] = "_contrib_DeformableConvolution";
constexpr char kV2Name[] = "_contrib_ModulatedDeformableConvolution";
}  // namespace dconv

inline DeformConvConfig DeformConfigOf(const DeformableConvolutionParam& p) {
  return MakeDeformConvConfig(dconv::kV1Name, false, p);
}

inline DeformConvConfig DeformConfigOf(const ModulatedDeformableConvolutionParam& p) {
  return MakeDeformConvConfig(dconv::kV2Name, true, p);
}

/*! \brief Input positions of the forward op (-1: absent). */
struct DeformSlots {
  int offset = 1, mask = -1, weight = 2, bias = 3;
  size_t count = 4;
  explicit DeformSlots(const DeformConvConfig& c) {
    if (c.modulated) {
      mask = 2;
      weight = 3;
      bias = 4;
    }
    count = static_cast<size_t>(bias) + (c.no_bias ? 0 : 1);
    if (c.no_bias) bias = -1;
  }
};

/*! \brief Assigns `expected` to (*in)[i] or throws naming the op, the input and both shapes. */
inline void DeformExpectShape(const DeformConvConfig& c, mxnet::ShapeVector* in, int i,
                              const char* name, const mxnet::TShape& expected,
                              const char* layout, const mxnet::TShape& data) {
  const mxnet::TShape given = (*in)[i];
  if (!shape_assign(&(*in)[i], expected)) {
    MX_THROW(ValueError) << c.op << ": expected " << name << " of shape " << expected << " "
                         << layout << " for data " << data << ", kernel (" << c.kh << ", "
                         << c.kw << "), num_filter=" << c.num_filter << ", num_group="
                         << c.num_group << ", num_deformable_group=" << c.num_dgroup
                         << "; got " << name << " " << given;
  }
}

/*! \brief Shape inference of the forward op; fills `geom` when every shape is known. */
inline bool DeformConvShapeImpl(const DeformConvConfig& c, mxnet::ShapeVector* in,
                                mxnet::ShapeVector* out, DeformConvGeom* geom) {
  const DeformSlots s(c);
  if (in->size() != s.count) {
    MX_THROW(ValueError) << c.op << ": expected " << s.count << " inputs (data, offset, "
                         << (c.modulated ? "mask, " : "") << "weight"
                         << (c.no_bias ? "" : ", bias") << "), got " << in->size();
  }
  const dim_t F = c.num_filter, G = c.num_group, DG = c.num_dgroup, K = c.kh * c.kw;
  if (s.bias >= 0) {
    const mxnet::TShape given = (*in)[s.bias];
    if (!shape_assign(&(*in)[s.bias], mxnet::TShape(1, F))) {
      MX_THROW(ValueError) << c.op << ": expected bias of shape (" << F << ",) (num_filter), got "
                           << given;
    }
  }
  const mxnet::TShape dshape = (*in)[0];
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() != 4) {
    MX_THROW(ValueError) << c.op << ": data must be 4-d (batch, channel, height, width), got "
                         << dshape;
  }
  if (!shape_is_known(dshape)) return false;
  const dim_t N = dshape[0], C = dshape[1], H = dshape[2], W = dshape[3];
  if (C % G != 0) {
    MX_THROW(ValueError) << c.op << ": input channels " << C << " of data " << dshape
                         << " must be divisible by num_group=" << G;
  }
  if (C % DG != 0) {
    MX_THROW(ValueError) << c.op << ": input channels " << C << " of data " << dshape
                         << " must be divisible by num_deformable_group=" << DG;
  }
  const dim_t ekh = c.dh * (c.kh - 1) + 1, ekw = c.dw * (c.kw - 1) + 1;
  if (H + 2 * c.ph < ekh || W + 2 * c.pw < ekw) {
    MX_THROW(ValueError) << c.op << ": kernel (" << c.kh << ", " << c.kw << ") with dilate ("
                         << c.dh << ", " << c.dw << ") is larger than the padded input: data "
                         << dshape << ", pad (" << c.ph << ", " << c.pw << ")";
  }
  const dim_t OH = (H + 2 * c.ph - ekh) / c.sh + 1, OW = (W + 2 * c.pw - ekw) / c.sw + 1;
  DeformExpectShape(c, in, s.weight, "weight", mxnet::TShape({F, C / G, c.kh, c.kw}),
                    "(num_filter, channels/num_group, kh, kw)", dshape);
  DeformExpectShape(c, in, s.offset, "offset", mxnet::TShape({N, DG * 2 * K, OH, OW}),
                    "(batch, num_deformable_group*2*kh*kw, out_height, out_width)", dshape);
  if (s.mask >= 0) {
    DeformExpectShape(c, in, s.mask, "mask", mxnet::TShape({N, DG * K, OH, OW}),
                      "(batch, num_deformable_group*kh*kw, out_height, out_width)", dshape);
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({N, F, OH, OW}));
  if (geom != nullptr) {
    geom->cfg = c;
    geom->N = N;
    geom->C = C;
    geom->H = H;
    geom->W = W;
    geom->OH = OH;
    geom->OW = OW;
  }
  return true;
}

/*! \brief The geometry of a call whose forward inputs start at inputs[first]. */
inline DeformConvGeom DeformGeomOf(const DeformConvConfig& c, const std::vector<TBlob>& inputs,
                                   size_t first) {
  mxnet::ShapeVector in;
  const DeformSlots s(c);
  for (size_t i = 0; i < s.count; ++i) {
    in.push_back(i < inputs.size() - first ? inputs[first + i].shape_ : mxnet::TShape());
  }
  if (s.bias >= 0) in[s.bias] = mxnet::TShape(1, c.num_filter);
  mxnet::ShapeVector out(1);
  DeformConvGeom g;
  DeformConvShapeImpl(c, &in, &out, &g);
  return g;
}

/*! \brief The R buffers of one call, laid out in one block of temp space. */
template <typename R>
class DeformSpace {
 public:
  /*! \brief Reserves n values; returns the buffer's id. */
  int Add(size_t n) {
    offsets_.push_back(total_);
    total_ += n;
    return static_cast<int>(offsets_.size()) - 1;
  }
  void Allocate(const Resource& r) {
    base_ = r.get_space_typed_ptr<R>(std::max<size_t>(total_, 1));
  }
  /*! \brief Buffer `id` (null for id < 0). */
  R* At(int id) const { return id < 0 ? nullptr : base_ + offsets_[id]; }

 private:
  std::vector<size_t> offsets_;
  size_t total_ = 0;
  R* base_ = nullptr;
};

/*!
 * \brief Reserves R copies of the blobs when DType is not R (float16); View then returns the
 *        blob itself or its converted copy.
 */
template <typename xpu, typename DType, typename R>
class DeformRealInputs {
 public:
  DeformRealInputs(const std::vector<TBlob>& blobs, DeformSpace<R>* ws) : blobs_(blobs) {
    const bool convert = !std::is_same<DType, R>::value;
    for (size_t i = 0; i < blobs.size(); ++i) {
      ids_.push_back(convert ? ws->Add(blobs[i].Size()) : -1);
    }
  }
  /*! \brief Blob i as R values (null for i < 0); converts on first use. */
  const R* View(mshadow::Stream<xpu>* s, const DeformSpace<R>& ws, int i) const {
    if (i < 0) return nullptr;
    const TBlob& b = blobs_[i];
    if (ids_[i] < 0) return reinterpret_cast<const R*>(b.dptr<DType>());
    mxnet_op::Kernel<dconv::deform_to_real, xpu>::Launch(s, b.Size(), ws.At(ids_[i]),
                                                        b.dptr<DType>());
    return ws.At(ids_[i]);
  }

 private:
  const std::vector<TBlob>& blobs_;
  std::vector<int> ids_;
};

/*!
 * \brief Where a gradient/output is computed: straight into the blob (R blob written), into an
 *        R buffer stored afterwards (float16, or req add), or nowhere (req null).
 */
template <typename DType, typename R>
struct DeformOutputs {
  std::vector<int> ids;  // -2: not wanted, -1: the blob itself, else a DeformSpace buffer
  DeformOutputs(const std::vector<TBlob>& blobs, const std::vector<OpReqType>& req,
                DeformSpace<R>* ws) {
    for (size_t i = 0; i < blobs.size(); ++i) {
      if (req[i] == kNullOp) {
        ids.push_back(-2);
      } else if (std::is_same<DType, R>::value && req[i] != kAddTo) {
        ids.push_back(-1);
      } else {
        ids.push_back(ws->Add(blobs[i].Size()));
      }
    }
  }
  R* Ptr(const std::vector<TBlob>& blobs, const DeformSpace<R>& ws, int i) const {
    if (i < 0 || ids[i] == -2) return nullptr;
    return ids[i] == -1 ? reinterpret_cast<R*>(blobs[i].dptr<DType>()) : ws.At(ids[i]);
  }
  /*! \brief Stores the buffered outputs under req. */
  template <typename xpu>
  void Store(mshadow::Stream<xpu>* s, const std::vector<TBlob>& blobs,
             const std::vector<OpReqType>& req, const DeformSpace<R>& ws) const {
    for (size_t i = 0; i < blobs.size(); ++i) {
      if (ids[i] < 0) continue;
      mxnet_op::Kernel<dconv::deform_store, xpu>::Launch(
          s, blobs[i].Size(), blobs[i].dptr<DType>(), static_cast<const R*>(ws.At(ids[i])),
          static_cast<int>(req[i]));
    }
  }
};

/*! \brief FCompute of the forward ops: (data, offset, [mask,] weight[, bias]) -> out. */
template <typename xpu, typename Param>
void DeformConvCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const DeformConvConfig c = DeformConfigOf(nnvm::get<Param>(attrs.parsed));
  const DeformSlots sl(c);
  const DeformConvGeom g = DeformGeomOf(c, inputs, 0);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    using R = SpGeomT<DType>;
    DeformSpace<R> ws;
    const DeformRealInputs<xpu, DType, R> in(inputs, &ws);
    const int col = ws.Add(static_cast<size_t>(g.C * g.K() * g.P()));
    const DeformOutputs<DType, R> out(outputs, req, &ws);
    ws.Allocate(ctx.requested[0]);
    DeformConvForward<xpu, R>(s, g, in.View(s, ws, 0), in.View(s, ws, sl.offset),
                              in.View(s, ws, sl.mask), in.View(s, ws, sl.weight),
                              in.View(s, ws, sl.bias), ws.At(col), out.Ptr(outputs, ws, 0));
    out.Store(s, outputs, req, ws);
  });
}

/*!
 * \brief FCompute of the backward ops: (out_grad, data, offset, [mask,] weight) -> the
 *        gradients of every forward input.
 */
template <typename xpu, typename Param>
void DeformConvGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const DeformConvConfig c = DeformConfigOf(nnvm::get<Param>(attrs.parsed));
  const DeformSlots sl(c);
  const DeformConvGeom g = DeformGeomOf(c, inputs, 1);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  auto wanted = [&](int slot) { return slot >= 0 && req[slot] != kNullOp; };
  const bool need_col_grad = wanted(0) || wanted(sl.offset) || wanted(sl.mask);
  const size_t col_size = static_cast<size_t>(g.C * g.K() * g.P());
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    using R = SpGeomT<DType>;
    DeformSpace<R> ws;
    const DeformRealInputs<xpu, DType, R> in(inputs, &ws);
    const int col = wanted(sl.weight) ? ws.Add(col_size) : -1;
    const int col_grad = need_col_grad ? ws.Add(col_size) : -1;
    const DeformOutputs<DType, R> out(outputs, req, &ws);
    ws.Allocate(ctx.requested[0]);
    auto grad = [&](int slot) { return out.Ptr(outputs, ws, slot); };
    DeformConvBackward<xpu, R>(s, g, in.View(s, ws, 0), in.View(s, ws, 1),
                               in.View(s, ws, 1 + sl.offset),
                               in.View(s, ws, sl.mask >= 0 ? 1 + sl.mask : -1),
                               in.View(s, ws, 1 + sl.weight), ws.At(col), ws.At(col_grad),
                               grad(0), grad(sl.offset), grad(sl.mask), grad(sl.weight),
                               grad(sl.bias));
    out.Store(s, outputs, req, ws);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_DEFORMABLE_CONVOLUTION_INL_H_
