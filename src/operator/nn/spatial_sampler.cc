/*!
 * \file spatial_sampler.cc
 * \brief GridGenerator, BilinearSampler and SpatialTransformer (MXNet 1.9.1 semantics, CPU) and
 *        their backward ops.
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
 *     BilinearSampler(data, GridGenerator(loc, affine, target_shape)).
 */
#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"

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

DMLC_REGISTER_PARAMETER(GridGeneratorParam);
DMLC_REGISTER_PARAMETER(BilinearSamplerParam);
DMLC_REGISTER_PARAMETER(SpatialTransformerParam);

namespace {

/*! \brief The (H, W) of an affine target, validated. */
void CheckTargetShape(const char* op, const mxnet::TShape& t) {
  if (t.ndim() != 2 || t[0] <= 0 || t[1] <= 0) {
    MX_THROW(dmlc::ValueError) << op << ": target_shape must be a positive (H, W), got " << t;
  }
}

inline double TargetCoord(index_t k, index_t n) {
  return n > 1 ? -1.0 + 2.0 * k / (n - 1) : -1.0;
}

/*! \brief grid (N, 2, H, W) = theta (N, 6) applied to the normalised target coordinates. */
template <typename DType>
void AffineGrid(const DType* theta, DType* grid, index_t n, index_t h, index_t w) {
  for (index_t b = 0; b < n; ++b) {
    const DType* t = theta + b * 6;
    DType* gx = grid + b * 2 * h * w;
    DType* gy = gx + h * w;
    for (index_t i = 0; i < h; ++i) {
      const double y = TargetCoord(i, h);
      for (index_t j = 0; j < w; ++j) {
        const double x = TargetCoord(j, w);
        gx[i * w + j] = static_cast<DType>(t[0] * x + t[1] * y + t[2]);
        gy[i * w + j] = static_cast<DType>(t[3] * x + t[4] * y + t[5]);
      }
    }
  }
}

/*! \brief theta_grad (N, 6) (+)= grid_grad (N, 2, H, W) @ target coordinates^T. */
template <typename DType>
void AffineGridBackward(const DType* grid_grad, DType* theta_grad, index_t n, index_t h,
                        index_t w, OpReqType req) {
  for (index_t b = 0; b < n; ++b) {
    const DType* gx = grid_grad + b * 2 * h * w;
    const DType* gy = gx + h * w;
    double acc[6] = {0, 0, 0, 0, 0, 0};
    for (index_t i = 0; i < h; ++i) {
      const double y = TargetCoord(i, h);
      for (index_t j = 0; j < w; ++j) {
        const double x = TargetCoord(j, w);
        const double ax = gx[i * w + j], ay = gy[i * w + j];
        acc[0] += ax * x;
        acc[1] += ax * y;
        acc[2] += ax;
        acc[3] += ay * x;
        acc[4] += ay * y;
        acc[5] += ay;
      }
    }
    for (int k = 0; k < 6; ++k) {
      DType& dst = theta_grad[b * 6 + k];
      dst = static_cast<DType>(req == kAddTo ? dst + acc[k] : acc[k]);
    }
  }
}

/*! \brief grad = false: grid = warp(flow); grad = true: flow_grad = d grid / d flow * grid_grad
 *         (a per-channel scale, so one routine does both). */
template <typename DType>
void WarpGrid(const DType* src, DType* dst, index_t n, index_t h, index_t w, bool grad,
              OpReqType req) {
  const double sx = (w - 1) / 2.0, sy = (h - 1) / 2.0;
  for (index_t b = 0; b < n; ++b) {
    for (int ch = 0; ch < 2; ++ch) {
      const double scale = ch == 0 ? sx : sy;
      const DType* s = src + (b * 2 + ch) * h * w;
      DType* d = dst + (b * 2 + ch) * h * w;
      for (index_t i = 0; i < h; ++i) {
        for (index_t j = 0; j < w; ++j) {
          const double offset = ch == 0 ? j : i;
          const double v = grad ? s[i * w + j] / scale : (s[i * w + j] + offset) / scale - 1.0;
          DType& o = d[i * w + j];
          o = static_cast<DType>(req == kAddTo ? o + v : v);
        }
      }
    }
  }
}

/*! \brief Forward bilinear sampling with zero padding outside the source. */
template <typename DType>
void SampleForward(const DType* data, const DType* grid, DType* out, index_t n, index_t c,
                   index_t h, index_t w, index_t oh, index_t ow, OpReqType req) {
  #pragma omp parallel for
  for (index_t b = 0; b < n; ++b) {
    const DType* gx = grid + b * 2 * oh * ow;
    const DType* gy = gx + oh * ow;
    for (index_t p = 0; p < oh * ow; ++p) {
      const double xr = (static_cast<double>(gx[p]) + 1) * (w - 1) / 2;
      const double yr = (static_cast<double>(gy[p]) + 1) * (h - 1) / 2;
      const index_t x0 = static_cast<index_t>(std::floor(xr));
      const index_t y0 = static_cast<index_t>(std::floor(yr));
      const double wx0 = 1.0 - (xr - x0), wy0 = 1.0 - (yr - y0);
      const index_t xs[2] = {x0, x0 + 1}, ys[2] = {y0, y0 + 1};
      const double wxs[2] = {wx0, 1 - wx0}, wys[2] = {wy0, 1 - wy0};
      for (index_t ch = 0; ch < c; ++ch) {
        const DType* plane = data + (b * c + ch) * h * w;
        double v = 0;
        for (int a = 0; a < 2; ++a)
          for (int e = 0; e < 2; ++e)
            if (ys[a] >= 0 && ys[a] < h && xs[e] >= 0 && xs[e] < w)
              v += plane[ys[a] * w + xs[e]] * wys[a] * wxs[e];
        DType& o = out[(b * c + ch) * oh * ow + p];
        o = static_cast<DType>(req == kAddTo ? o + v : v);
      }
    }
  }
}

/*! \brief Gradients of SampleForward: data_grad and grid_grad are accumulated into (zeroed by
 *         the caller unless req is kAddTo); either may be null. */
template <typename DType>
void SampleBackward(const DType* ograd, const DType* data, const DType* grid, DType* data_grad,
                    DType* grid_grad, index_t n, index_t c, index_t h, index_t w, index_t oh,
                    index_t ow) {
  #pragma omp parallel for
  for (index_t b = 0; b < n; ++b) {
    const DType* gx = grid + b * 2 * oh * ow;
    const DType* gy = gx + oh * ow;
    for (index_t p = 0; p < oh * ow; ++p) {
      const double xr = (static_cast<double>(gx[p]) + 1) * (w - 1) / 2;
      const double yr = (static_cast<double>(gy[p]) + 1) * (h - 1) / 2;
      const index_t x0 = static_cast<index_t>(std::floor(xr));
      const index_t y0 = static_cast<index_t>(std::floor(yr));
      const double wx0 = 1.0 - (xr - x0), wy0 = 1.0 - (yr - y0);
      const index_t xs[2] = {x0, x0 + 1}, ys[2] = {y0, y0 + 1};
      const double wxs[2] = {wx0, 1 - wx0}, wys[2] = {wy0, 1 - wy0};
      const double dwx[2] = {-1, 1}, dwy[2] = {-1, 1};  // d weight / d coordinate
      double gxr = 0, gyr = 0;
      for (index_t ch = 0; ch < c; ++ch) {
        const double g = ograd[(b * c + ch) * oh * ow + p];
        const DType* plane = data + (b * c + ch) * h * w;
        for (int a = 0; a < 2; ++a) {
          for (int e = 0; e < 2; ++e) {
            if (!(ys[a] >= 0 && ys[a] < h && xs[e] >= 0 && xs[e] < w)) continue;
            const index_t at = ys[a] * w + xs[e];
            if (data_grad != nullptr) {
              DType& d = data_grad[(b * c + ch) * h * w + at];
              d = static_cast<DType>(d + g * wys[a] * wxs[e]);
            }
            const double v = plane[at];
            gxr += g * v * wys[a] * dwx[e];
            gyr += g * v * dwy[a] * wxs[e];
          }
        }
      }
      if (grid_grad != nullptr) {
        DType* ggx = grid_grad + b * 2 * oh * ow;
        ggx[p] = static_cast<DType>(ggx[p] + gxr * (w - 1) / 2);
        ggx[oh * ow + p] = static_cast<DType>(ggx[oh * ow + p] + gyr * (h - 1) / 2);
      }
    }
  }
}

void ZeroUnlessAdd(const TBlob& b, OpReqType req) {
  if (req == kWriteTo || req == kWriteInplace)
    std::memset(b.dptr_, 0, b.Size() * mshadow::mshadow_sizeof(b.type_flag_));
}

// ---------------------------------------------------------------- GridGenerator

bool GridGeneratorShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                        mxnet::ShapeVector* out) {
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  if (p.transform_type == grid::kAffine) {
    CheckTargetShape("GridGenerator", p.target_shape);
    if (d.ndim() != 2 || (d[1] >= 0 && d[1] != 6)) {
      MX_THROW(dmlc::ValueError) << "GridGenerator: transform_type='affine' expects data of "
                                 << "shape (batch, 6), got " << d;
    }
    SHAPE_ASSIGN_CHECK(*out, 0,
                       mxnet::TShape({d[0], 2, p.target_shape[0], p.target_shape[1]}));
  } else {
    if (d.ndim() != 4 || (d[1] >= 0 && d[1] != 2)) {
      MX_THROW(dmlc::ValueError) << "GridGenerator: transform_type='warp' expects data (an "
                                 << "optical flow) of shape (batch, 2, height, width), got " << d;
    }
    SHAPE_ASSIGN_CHECK(*out, 0, d);
  }
  return shape_is_known(d);
}

void GridGeneratorCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& o = outputs[0].shape_;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (p.transform_type == grid::kAffine) {
      if (req[0] == kAddTo) MX_THROW(dmlc::ValueError) << "GridGenerator: req='add' unsupported";
      AffineGrid(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), o[0], o[2], o[3]);
    } else {
      WarpGrid(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), o[0], o[2], o[3], false,
               req[0]);
    }
  });
}

void GridGeneratorGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& g = inputs[0].shape_;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (p.transform_type == grid::kAffine) {
      AffineGridBackward(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), g[0], g[2], g[3],
                         req[0]);
    } else {
      WarpGrid(inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), g[0], g[2], g[3], true,
               req[0]);
    }
  });
}

// ---------------------------------------------------------------- BilinearSampler

bool BilinearSamplerShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                          mxnet::ShapeVector* out) {
  const mxnet::TShape& d = (*in)[0];
  const mxnet::TShape& g = (*in)[1];
  if (!ndim_is_known(d) || !ndim_is_known(g)) return false;
  if (d.ndim() != 4) {
    MX_THROW(dmlc::ValueError) << "BilinearSampler: data must have shape (batch, channel, "
                               << "height, width), got " << d;
  }
  if (g.ndim() != 4 || (g[1] >= 0 && g[1] != 2) || (g[0] >= 0 && d[0] >= 0 && g[0] != d[0])) {
    MX_THROW(dmlc::ValueError) << "BilinearSampler: grid must have shape (batch, 2, height, "
                               << "width) with the batch of data " << d << ", got " << g;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1], g[2], g[3]}));
  return shape_is_known(d) && shape_is_known(g);
}

void BilinearSamplerCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const mxnet::TShape& d = inputs[0].shape_;
  const mxnet::TShape& g = inputs[1].shape_;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    SampleForward(inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), outputs[0].dptr<DType>(),
                  d[0], d[1], d[2], d[3], g[2], g[3], req[0]);
  });
}

/*! \brief (ograd, data, grid) -> (data_grad, grid_grad). */
void BilinearSamplerGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  const mxnet::TShape& d = inputs[1].shape_;
  const mxnet::TShape& g = inputs[2].shape_;
  ZeroUnlessAdd(outputs[0], req[0]);
  ZeroUnlessAdd(outputs[1], req[1]);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    SampleBackward(inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
                   req[0] == kNullOp ? nullptr : outputs[0].dptr<DType>(),
                   req[1] == kNullOp ? nullptr : outputs[1].dptr<DType>(), d[0], d[1], d[2],
                   d[3], g[2], g[3]);
  });
}

// ---------------------------------------------------------------- SpatialTransformer

bool SpatialTransformerShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                             mxnet::ShapeVector* out) {
  const SpatialTransformerParam& p = nnvm::get<SpatialTransformerParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  CheckTargetShape("SpatialTransformer", p.target_shape);
  if (d.ndim() != 4) {
    MX_THROW(dmlc::ValueError) << "SpatialTransformer: data must have shape (batch, channel, "
                               << "height, width), got " << d;
  }
  SHAPE_ASSIGN_CHECK(*in, 1, mxnet::TShape({d[0], 6}));
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1], p.target_shape[0],
                                              p.target_shape[1]}));
  return shape_is_known(d);
}

void SpatialTransformerCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const mxnet::TShape& d = inputs[0].shape_;
  const mxnet::TShape& o = outputs[0].shape_;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    std::vector<DType> grid(d[0] * 2 * o[2] * o[3]);
    AffineGrid(inputs[1].dptr<DType>(), grid.data(), d[0], o[2], o[3]);
    SampleForward(inputs[0].dptr<DType>(), grid.data(), outputs[0].dptr<DType>(), d[0], d[1],
                  d[2], d[3], o[2], o[3], req[0]);
  });
}

/*! \brief (ograd, data, loc) -> (data_grad, loc_grad). */
void SpatialTransformerGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& inputs,
                                   const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& outputs) {
  const mxnet::TShape& og = inputs[0].shape_;
  const mxnet::TShape& d = inputs[1].shape_;
  ZeroUnlessAdd(outputs[0], req[0]);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const index_t gsize = d[0] * 2 * og[2] * og[3];
    std::vector<DType> grid(gsize), grid_grad(gsize, DType(0));
    AffineGrid(inputs[2].dptr<DType>(), grid.data(), d[0], og[2], og[3]);
    SampleBackward(inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), grid.data(),
                   req[0] == kNullOp ? nullptr : outputs[0].dptr<DType>(), grid_grad.data(),
                   d[0], d[1], d[2], d[3], og[2], og[3]);
    if (req[1] != kNullOp) {
      AffineGridBackward(grid_grad.data(), outputs[1].dptr<DType>(), d[0], og[2], og[3], req[1]);
    }
  });
}

bool BackwardShapeFromInputs(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                             mxnet::ShapeVector* out) {
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
    known &= shape_is_known((*out)[i]);
  }
  return known;
}

bool AllSameType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  int t = -1;
  for (int v : *in) if (v != -1) t = v;
  for (int v : *out) if (v != -1) t = v;
  if (t == -1) return false;
  for (size_t i = 0; i < in->size(); ++i) TYPE_ASSIGN_CHECK(*in, i, t);
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, t);
  return true;
}

nnvm::FGradient GradWithInputs(const char* backward) {
  return [backward](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    for (const auto& e : n->inputs) heads.push_back(e);
    return MakeGradNode(backward, n, heads, n->attrs.dict);
  };
}

}  // namespace

NNVM_REGISTER_OP(GridGenerator)
.describe(R"code(Generates 2D sampling grids for BilinearSampler: from affine matrices
(batch, 6) over target_shape, or from an optical flow (batch, 2, H, W) ('warp').
The grid's channel 0 holds normalised source x and channel 1 source y, in [-1, 1].
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GridGeneratorParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", GridGeneratorShape)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", GridGeneratorCompute)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_GridGenerator"})
.add_argument("data", "NDArray-or-Symbol", "Input data to the function.")
.add_arguments(GridGeneratorParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_GridGenerator)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GridGeneratorParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& g = (*in)[0];
  if (!shape_is_known(g)) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, p.transform_type == grid::kAffine ? mxnet::TShape({g[0], 6}) : g);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", GridGeneratorGradCompute);

NNVM_REGISTER_OP(BilinearSampler)
.describe(R"code(Samples data (batch, channel, H, W) at the points of grid (batch, 2, oh, ow)
(normalised x, y in [-1, 1]) with bilinear interpolation; points outside the image read 0.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<BilinearSamplerParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data", "grid"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BilinearSamplerShape)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", BilinearSamplerCompute)
.set_attr<nnvm::FGradient>("FGradient", GradWithInputs("_backward_BilinearSampler"))
.add_argument("data", "NDArray-or-Symbol", "Input data to the BilinearsamplerOp.")
.add_argument("grid", "NDArray-or-Symbol",
              "Input grid to the BilinearsamplerOp.grid has two channels: x_src, y_src")
.add_arguments(BilinearSamplerParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_BilinearSampler)
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<BilinearSamplerParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", BackwardShapeFromInputs)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", BilinearSamplerGradCompute);

NNVM_REGISTER_OP(SpatialTransformer)
.describe(R"code(Applies an affine spatial transformer: samples data (batch, channel, H, W)
bilinearly on the grid that loc (batch, 6) generates over target_shape.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SpatialTransformerParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data", "loc"};
})
.set_attr<mxnet::FInferShape>("FInferShape", SpatialTransformerShape)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", SpatialTransformerCompute)
.set_attr<nnvm::FGradient>("FGradient", GradWithInputs("_backward_SpatialTransformer"))
.add_argument("data", "NDArray-or-Symbol", "Input data to the SpatialTransformerOp.")
.add_argument("loc", "NDArray-or-Symbol",
              "localisation net, the output dim should be 6 when transform_type is affine. You "
              "shold initialize the weight and bias with identity tranform.")
.add_arguments(SpatialTransformerParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SpatialTransformer)
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<SpatialTransformerParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", BackwardShapeFromInputs)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", SpatialTransformerGradCompute);

}  // namespace op
}  // namespace mxnet
