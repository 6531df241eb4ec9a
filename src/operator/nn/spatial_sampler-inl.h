/*!
 * \file spatial_sampler-inl.h
 * \brief GridGenerator, BilinearSampler and SpatialTransformer (spatial_sampler.cc): parameters
 *        and the kernels for every device (spatial_sampler.cc registers the CPU,
 *        spatial_sampler.cu the GPU).
 *
 * Grids are (N, 2, H, W): channel 0 the source x, channel 1 the source y, both normalised to
 * [-1, 1] over the source image ((x + 1) * (W_in - 1) / 2 is the pixel column).
 *   GridGenerator affine: data (N, 6) = row-major 2 x 3 matrices theta; grid = theta @ (x_t, y_t,
 *     1) with x_t = -1 + 2 j / (W - 1), y_t = -1 + 2 i / (H - 1) over target_shape (H, W).
 *   GridGenerator warp: data (N, 2, H, W) an optical flow in pixels; grid = ((j + flow_x) /
 *     ((W - 1) / 2) - 1, (i + flow_y) / ((H - 1) / 2) - 1).
 *   BilinearSampler(data (N, C, H, W), grid (N, 2, oh, ow)) -> (N, C, oh, ow): bilinear
 *     interpolation of the four neighbours, neighbours outside the image count as 0.
 *   SpatialTransformer(data, loc (N, 6), target_shape, affine, bilinear) =
 *     BilinearSampler(data, GridGenerator(loc, affine, target_shape)); the forward computes the
 *     grid points on the fly, the backward keeps the grid gradient in temporary space.
 *
 * The sampler's forward is one thread per output element (on the CPU per block of channels); its
 * backward one item per output point (b, p), which sums the grid gradient over the channels and
 * scatters the data gradient (grouped by image: in order on the CPU, atomic adds on the GPU).
 */
#ifndef MXNET_OPERATOR_NN_SPATIAL_SAMPLER_INL_H_
#define MXNET_OPERATOR_NN_SPATIAL_SAMPLER_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./spatial_kernel_util-inl.h"

namespace mxnet {
namespace op {

namespace grid {
enum TransformType { kAffine, kWarp };
}  // namespace grid

struct GridGeneratorParam : public dmlc::Parameter<GridGeneratorParam> {
  int transform_type;
  mxnet::TShape target_shape;
  DMLC_DECLARE_PARAMETER(GridGeneratorParam) {
    DMLC_DECLARE_FIELD(transform_type)
        .add_enum("affine", grid::kAffine)
        .add_enum("warp", grid::kWarp)
        .describe("The type of transformation. For `affine`, input data should be an affine "
                  "matrix of size (batch, 6). For `warp`, input data should be an optical flow "
                  "of size (batch, 2, h, w).");
    DMLC_DECLARE_FIELD(target_shape).set_default(mxnet::TShape({0, 0}))
        .describe("Specifies the output shape (H, W). This is required if transformation type "
                  "is `affine`. If transformation type is `warp`, this parameter is ignored.");
  }
};

struct BilinearSamplerParam : public dmlc::Parameter<BilinearSamplerParam> {
  dmlc::optional<bool> cudnn_off;
  DMLC_DECLARE_PARAMETER(BilinearSamplerParam) {
    DMLC_DECLARE_FIELD(cudnn_off).set_default(dmlc::optional<bool>())
        .describe("whether to turn cudnn off");
  }
};

struct SpatialTransformerParam : public dmlc::Parameter<SpatialTransformerParam> {
  mxnet::TShape target_shape;
  int transform_type;
  int sampler_type;
  dmlc::optional<bool> cudnn_off;
  DMLC_DECLARE_PARAMETER(SpatialTransformerParam) {
    DMLC_DECLARE_FIELD(target_shape).set_default(mxnet::TShape({0, 0}))
        .describe("output shape(h, w) of spatial transformer: (y, x)");
    DMLC_DECLARE_FIELD(transform_type).add_enum("affine", grid::kAffine)
        .describe("transformation type");
    DMLC_DECLARE_FIELD(sampler_type).add_enum("bilinear", 0).describe("sampling type");
    DMLC_DECLARE_FIELD(cudnn_off).set_default(dmlc::optional<bool>())
        .describe("whether to turn cudnn off");
  }
};

/*! \brief Normalised coordinate of target index k of n. */
MSHADOW_XINLINE double TargetCoord(index_t k, index_t n) {
  return n > 1 ? -1.0 + 2.0 * k / (n - 1) : -1.0;
}

// ---- GridGenerator ---------------------------------------------------------------------------

/*! \brief Grid element i = (b, ch, y, x) of an affine grid (N, 2, h, w) from theta (N, 6). */
struct affine_grid_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* theta, DType* grid, index_t h,
                                  index_t w, int req) {
    const index_t j = i % w, ii = (i / w) % h, ch = (i / (w * h)) % 2, b = i / (2 * h * w);
    const DType* t = theta + b * 6 + ch * 3;
    const double y = TargetCoord(ii, h), x = TargetCoord(j, w);
    SpAssignDouble(grid + i, req, static_cast<double>(static_cast<DType>(t[0] * x + t[1] * y +
                                                                       t[2])));
  }
};

/*! \brief theta_grad[b, k] (req)= sum over the grid of grid_grad times d grid / d theta_k. */
struct affine_grid_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* grid_grad, DType* theta_grad,
                                  index_t h, index_t w, int req) {
    const index_t b = i / 6, k = i % 6;
    const DType* src = grid_grad + (b * 2 + k / 3) * h * w;
    const int which = k % 3;  // times x, times y, times 1
    double acc = 0;
    for (index_t ii = 0; ii < h; ++ii) {
      const double y = TargetCoord(ii, h);
      for (index_t j = 0; j < w; ++j) {
        const double a = static_cast<double>(src[ii * w + j]);
        if (which == 0) {
          acc += a * TargetCoord(j, w);
        } else if (which == 1) {
          acc += a * y;
        } else {
          acc += a;
        }
      }
    }
    SpAssignDouble(theta_grad + i, req, acc);
  }
};

/*! \brief grad = false: grid = warp(flow); grad = true: flow_grad = d grid / d flow * grid_grad
 *         (a per-channel scale, so one kernel does both). Element i = (b, ch, y, x). */
struct warp_grid {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* src, DType* dst, index_t h, index_t w,
                                  bool grad, int req) {
    const index_t j = i % w, ii = (i / w) % h, ch = (i / (w * h)) % 2;
    const double scale = ch == 0 ? (w - 1) / 2.0 : (h - 1) / 2.0;
    const double offset = ch == 0 ? j : ii;
    const double s = static_cast<double>(src[i]);
    SpAssignDouble(dst + i, req, grad ? s / scale : (s + offset) / scale - 1.0);
  }
};

// ---- bilinear sampling -----------------------------------------------------------------------

/*! \brief Grid points read from a grid array (N, 2, oh, ow). */
template <typename DType>
struct GridFromArray {
  const DType* grid;
  index_t oh, ow;
  MSHADOW_XINLINE void At(index_t b, index_t p, double* x, double* y) const {
    const DType* gx = grid + b * 2 * oh * ow;
    *x = static_cast<double>(gx[p]);
    *y = static_cast<double>(gx[oh * ow + p]);
  }
};

/*! \brief Grid points of the affine grid of theta (N, 6), rounded to DType as if stored. */
template <typename DType>
struct GridFromAffine {
  const DType* theta;
  index_t oh, ow;
  MSHADOW_XINLINE void At(index_t b, index_t p, double* x, double* y) const {
    const DType* t = theta + b * 6;
    const double ty = TargetCoord(p / ow, oh), tx = TargetCoord(p % ow, ow);
    *x = static_cast<double>(static_cast<DType>(t[0] * tx + t[1] * ty + t[2]));
    *y = static_cast<double>(static_cast<DType>(t[3] * tx + t[4] * ty + t[5]));
  }
};

/*! \brief The four neighbours of a grid point on an h x w image and their weights. */
struct SamplerTaps {
  index_t xs[2], ys[2];
  double wx[2], wy[2];
  MSHADOW_XINLINE SamplerTaps(double gx, double gy, index_t h, index_t w) {
    const double xr = (gx + 1) * (w - 1) / 2;
    const double yr = (gy + 1) * (h - 1) / 2;
    const index_t x0 = static_cast<index_t>(floor(xr));
    const index_t y0 = static_cast<index_t>(floor(yr));
    const double wx0 = 1.0 - (xr - x0), wy0 = 1.0 - (yr - y0);
    xs[0] = x0;
    xs[1] = x0 + 1;
    ys[0] = y0;
    ys[1] = y0 + 1;
    wx[0] = wx0;
    wx[1] = 1 - wx0;
    wy[0] = wy0;
    wy[1] = 1 - wy0;
  }
  MSHADOW_XINLINE bool Inside(int a, int e, index_t h, index_t w) const {
    return ys[a] >= 0 && ys[a] < h && xs[e] >= 0 && xs[e] < w;
  }
};

/*! \brief Shapes of one sampling call: data (n, c, h, w), grid (n, 2, oh, ow). */
struct SamplerGeom {
  index_t n, c, h, w, oh, ow;
};

/*! \brief Item i = (b, cb, p) of the sampler: output point p of the kBlock channels of block cb
 *         (sharing the taps). */
template <int kBlock>
struct sampler_forward {
  template <typename DType, typename Grid>
  MSHADOW_XINLINE static void Map(index_t i, const DType* data, Grid grid, DType* out,
                                  SamplerGeom g, int req) {
    const index_t ohw = g.oh * g.ow, nb = (g.c + kBlock - 1) / kBlock;
    const index_t p = i % ohw, cb = (i / ohw) % nb, b = i / (ohw * nb);
    const index_t c0 = cb * kBlock, nc = SpMin<index_t>(kBlock, g.c - c0);
    double gx, gy;
    grid.At(b, p, &gx, &gy);
    const SamplerTaps t(gx, gy, g.h, g.w);
    for (index_t cc = 0; cc < nc; ++cc) {
      const DType* plane = data + (b * g.c + c0 + cc) * g.h * g.w;
      double v = 0;
      for (int a = 0; a < 2; ++a)
        for (int e = 0; e < 2; ++e)
          if (t.Inside(a, e, g.h, g.w)) v += plane[t.ys[a] * g.w + t.xs[e]] * t.wy[a] * t.wx[e];
      SpAssignDouble(out + (b * g.c + c0 + cc) * ohw + p, req, v);
    }
  }
};

/*! \brief Runs sampler_forward over all of out (N, C, oh, ow). */
template <typename xpu, typename DType, typename Grid>
void SampleForward(mshadow::Stream<xpu>* s, const DType* data, Grid grid, DType* out,
                   const SamplerGeom& g, OpReqType req) {
  constexpr int kBlock = SpChannelBlock<xpu>::value;
  mxnet_op::Kernel<sampler_forward<kBlock>, xpu>::Launch(
      s, g.n * ((g.c + kBlock - 1) / kBlock) * g.oh * g.ow, data, grid, out, g,
      static_cast<int>(req));
}

/*!
 * \brief Item i = (b, p): the gradient of output point p of image b. grid_grad (if not null)
 *        gets the sum over the channels (req), data_grad (if not null) the scattered weights
 *        (accumulated: zeroed by the caller unless adding). Group by b.
 */
struct sampler_backward {
  template <typename DType, typename Grid>
  MSHADOW_XINLINE static void Map(index_t i, const DType* ograd, const DType* data, Grid grid,
                                  DType* data_grad, DType* grid_grad, SamplerGeom g,
                                  int grid_req) {
    const index_t ohw = g.oh * g.ow;
    const index_t p = i % ohw, b = i / ohw;
    double gx, gy;
    grid.At(b, p, &gx, &gy);
    const SamplerTaps t(gx, gy, g.h, g.w);
    const double dw[2] = {-1, 1};  // d weight / d coordinate
    double gxr = 0, gyr = 0;
    for (index_t ch = 0; ch < g.c; ++ch) {
      const double go = ograd[(b * g.c + ch) * ohw + p];
      const DType* plane = data + (b * g.c + ch) * g.h * g.w;
      for (int a = 0; a < 2; ++a) {
        for (int e = 0; e < 2; ++e) {
          if (!t.Inside(a, e, g.h, g.w)) continue;
          const index_t at = t.ys[a] * g.w + t.xs[e];
          if (data_grad != nullptr) {
            ScatterAdd(data_grad + (b * g.c + ch) * g.h * g.w + at, go * t.wy[a] * t.wx[e]);
          }
          const double v = plane[at];
          gxr += go * v * t.wy[a] * dw[e];
          gyr += go * v * dw[a] * t.wx[e];
        }
      }
    }
    if (grid_grad != nullptr) {
      DType* ggx = grid_grad + b * 2 * ohw;
      SpAssignDouble(ggx + p, grid_req, gxr * (g.w - 1) / 2);
      SpAssignDouble(ggx + ohw + p, grid_req, gyr * (g.h - 1) / 2);
    }
  }
};

// ---- compute functions -----------------------------------------------------------------------

template <typename xpu>
void GridGeneratorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& o = outputs[0].shape_;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (p.transform_type == grid::kAffine) {
      mxnet_op::Kernel<affine_grid_forward, xpu>::Launch(
          s, outputs[0].Size(), inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), o[2], o[3],
          static_cast<int>(req[0]));
    } else {
      mxnet_op::Kernel<warp_grid, xpu>::Launch(s, outputs[0].Size(), inputs[0].dptr<DType>(),
                                               outputs[0].dptr<DType>(), o[2], o[3], false,
                                               static_cast<int>(req[0]));
    }
  });
}

template <typename xpu>
void GridGeneratorGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& g = inputs[0].shape_;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (p.transform_type == grid::kAffine) {
      mxnet_op::Kernel<affine_grid_backward, xpu>::Launch(
          s, outputs[0].Size(), inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), g[2], g[3],
          static_cast<int>(req[0]));
    } else {
      mxnet_op::Kernel<warp_grid, xpu>::Launch(s, outputs[0].Size(), inputs[0].dptr<DType>(),
                                               outputs[0].dptr<DType>(), g[2], g[3], true,
                                               static_cast<int>(req[0]));
    }
  });
}

template <typename xpu>
void BilinearSamplerCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const mxnet::TShape& d = inputs[0].shape_;
  const mxnet::TShape& gs = inputs[1].shape_;
  const SamplerGeom g{d[0], d[1], d[2], d[3], gs[2], gs[3]};
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    SampleForward(ctx.get_stream<xpu>(), inputs[0].dptr<DType>(),
                  GridFromArray<DType>{inputs[1].dptr<DType>(), g.oh, g.ow},
                  outputs[0].dptr<DType>(), g, req[0]);
  });
}

/*! \brief (ograd, data, grid) -> (data_grad, grid_grad). */
template <typename xpu>
void BilinearSamplerGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  const mxnet::TShape& d = inputs[1].shape_;
  const mxnet::TShape& gs = inputs[2].shape_;
  const SamplerGeom g{d[0], d[1], d[2], d[3], gs[2], gs[3]};
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  ZeroUnlessAddTo(s, outputs[0], req[0]);
  if ((req[0] == kNullOp && req[1] == kNullOp) || g.n * g.oh * g.ow == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchGrouped<sampler_backward>(
        s, g.n, g.oh * g.ow, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        GridFromArray<DType>{inputs[2].dptr<DType>(), g.oh, g.ow},
        req[0] == kNullOp ? nullptr : outputs[0].dptr<DType>(),
        req[1] == kNullOp ? nullptr : outputs[1].dptr<DType>(), g, static_cast<int>(req[1]));
  });
}

template <typename xpu>
void SpatialTransformerCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const mxnet::TShape& d = inputs[0].shape_;
  const mxnet::TShape& o = outputs[0].shape_;
  const SamplerGeom g{d[0], d[1], d[2], d[3], o[2], o[3]};
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    SampleForward(ctx.get_stream<xpu>(), inputs[0].dptr<DType>(),
                  GridFromAffine<DType>{inputs[1].dptr<DType>(), g.oh, g.ow},
                  outputs[0].dptr<DType>(), g, req[0]);
  });
}

/*! \brief (ograd, data, loc) -> (data_grad, loc_grad); the grid gradient lives in temp space. */
template <typename xpu>
void SpatialTransformerGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& inputs,
                                   const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& outputs) {
  const mxnet::TShape& og = inputs[0].shape_;
  const mxnet::TShape& d = inputs[1].shape_;
  const SamplerGeom g{d[0], d[1], d[2], d[3], og[2], og[3]};
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  ZeroUnlessAddTo(s, outputs[0], req[0]);
  if ((req[0] == kNullOp && req[1] == kNullOp) || g.n * g.oh * g.ow == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* grid_grad = req[1] == kNullOp ? nullptr
        : ctx.requested[0].get_space_typed_ptr<DType>(g.n * 2 * g.oh * g.ow);
    LaunchGrouped<sampler_backward>(
        s, g.n, g.oh * g.ow, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        GridFromAffine<DType>{inputs[2].dptr<DType>(), g.oh, g.ow},
        req[0] == kNullOp ? nullptr : outputs[0].dptr<DType>(), grid_grad, g,
        static_cast<int>(kWriteTo));
    if (grid_grad != nullptr) {
      mxnet_op::Kernel<affine_grid_backward, xpu>::Launch(
          s, outputs[1].Size(), static_cast<const DType*>(grid_grad), outputs[1].dptr<DType>(),
          g.oh, g.ow, static_cast<int>(req[1]));
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_SPATIAL_SAMPLER_INL_H_
