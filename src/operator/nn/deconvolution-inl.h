/*!
 * \file deconvolution-inl.h
 * \brief Deconvolution (transposed convolution, 1-D/2-D/3-D): parameters, shape inference and
 *        the CPU compute, expressed with the convolution kernels.
 *
 * data (N, C, *in), weight (C, num_filter/num_group, *kernel), bias (num_filter,),
 * out (N, num_filter, *out) with out = stride*(in-1) + dilate*(kernel-1) + 1 - 2*pad + adj,
 * or target_shape (pad and adj are then derived from it).
 *
 * In convolution terms (ConvGeom) the deconvolution's output is the convolution's input: the
 * forward is the convolution data gradient, the data gradient is the convolution forward, and
 * the weight gradient is the convolution weight gradient with the roles of x and dy swapped.
 */
#ifndef MXNET_OPERATOR_NN_DECONVOLUTION_INL_H_
#define MXNET_OPERATOR_NN_DECONVOLUTION_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <sstream>
#include <string>
#include <vector>

#include "./convolution-inl.h"

namespace mxnet {
namespace op {

struct DeconvolutionParam : public dmlc::Parameter<DeconvolutionParam> {
  mxnet::TShape kernel;
  mxnet::TShape stride;
  mxnet::TShape dilate;
  mxnet::TShape pad;
  mxnet::TShape adj;
  mxnet::TShape target_shape;
  uint32_t num_filter;
  uint32_t num_group;
  uint64_t workspace;
  bool no_bias;
  dmlc::optional<int> cudnn_tune;
  bool cudnn_off;
  dmlc::optional<int> layout;
  DMLC_DECLARE_PARAMETER(DeconvolutionParam) {
    DMLC_DECLARE_FIELD(kernel).describe(
        "Deconvolution kernel size: (w,), (h, w) or (d, h, w). This is same as the kernel size "
        "used for the corresponding convolution");
    DMLC_DECLARE_FIELD(stride).set_default(mxnet::TShape(0, 0)).describe(
        "The stride used for the corresponding convolution: (w,), (h, w) or (d, h, w). "
        "Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(dilate).set_default(mxnet::TShape(0, 0)).describe(
        "Dilation factor for each dimension of the input: (w,), (h, w) or (d, h, w). "
        "Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(pad).set_default(mxnet::TShape(0, 0)).describe(
        "The amount of implicit zero padding added during convolution for each dimension of "
        "the input: (w,), (h, w) or (d, h, w). ``(kernel-1)/2`` is usually a good choice. If "
        "`target_shape` is set, `pad` will be ignored and a padding that will generate the "
        "target shape will be used. Defaults to no padding.");
    DMLC_DECLARE_FIELD(adj).set_default(mxnet::TShape(0, 0)).describe(
        "Adjustment for output shape: (w,), (h, w) or (d, h, w). If `target_shape` is set, "
        "`adj` will be ignored and computed accordingly.");
    DMLC_DECLARE_FIELD(target_shape).set_default(mxnet::TShape(0, 0)).describe(
        "Shape of the output tensor: (w,), (h, w) or (d, h, w).");
    DMLC_DECLARE_FIELD(num_filter).set_lower_bound(1).describe("Number of output filters.");
    DMLC_DECLARE_FIELD(num_group).set_default(1).set_lower_bound(1).describe(
        "Number of groups partition.");
    DMLC_DECLARE_FIELD(workspace).set_default(512).set_lower_bound(0).describe(
        "Maximum temporary workspace allowed (MB) in deconvolution.This parameter has two "
        "usages. When CUDNN is not used, it determines the effective batch size of the "
        "deconvolution kernel. When CUDNN is used, it controls the maximum temporary storage "
        "used for tuning the best CUDNN kernel when `limited_workspace` strategy is used.");
    DMLC_DECLARE_FIELD(no_bias).set_default(true).describe(
        "Whether to disable bias parameter.");
    DMLC_DECLARE_FIELD(cudnn_tune)
        .add_enum("off", conv::kOff)
        .add_enum("limited_workspace", conv::kLimited)
        .add_enum("fastest", conv::kFastest)
        .set_default(dmlc::optional<int>())
        .describe("Whether to pick convolution algorithm by running performance test.");
    DMLC_DECLARE_FIELD(cudnn_off).set_default(false).describe("Turn off cudnn for this layer.");
    DMLC_DECLARE_FIELD(layout)
        .add_enum("NCW", conv::kNCW)
        .add_enum("NCHW", conv::kNCHW)
        .add_enum("NCDHW", conv::kNCDHW)
        .add_enum("NHWC", conv::kNHWC)
        .add_enum("NDHWC", conv::kNDHWC)
        .set_default(dmlc::optional<int>())
        .describe("Set layout for input, output and weight. Empty for default layout, NCW for "
                  "1d, NCHW for 2d and NCDHW for 3d.NHWC and NDHWC are only supported on GPU.");
  }
};

inline void DeconvolutionParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<DeconvolutionParam>(attrs);
  DeconvolutionParam& p = nnvm::get<DeconvolutionParam>(attrs->parsed);
  FillConvDefaults("Deconvolution", p.kernel, &p.stride, &p.dilate, &p.pad);
  const int nk = p.kernel.ndim();
  if (p.adj.ndim() <= 0) p.adj = mxnet::TShape(nk, 0);
  if (p.adj.ndim() != nk) {
    throw dmlc::ParamError("Deconvolution: adj " + shape_string(p.adj) +
                           " must have as many dimensions as kernel " + shape_string(p.kernel));
  }
  if (p.target_shape.ndim() > 0 && p.target_shape.ndim() != nk) {
    throw dmlc::ParamError("Deconvolution: target_shape " + shape_string(p.target_shape) +
                           " must have as many dimensions as kernel " +
                           shape_string(p.kernel));
  }
}

/*! \brief Effective pad and adj per spatial dim for input spatial sizes `in` (target_shape
 *         overrides pad/adj when given and non-zero). Throws ValueError when unreachable. */
inline void DeconvPadAdj(const DeconvolutionParam& p, const mxnet::TShape& dshape,
                         std::vector<dim_t>* pad, std::vector<dim_t>* adj) {
  const int nsp = p.kernel.ndim();
  pad->assign(nsp, 0);
  adj->assign(nsp, 0);
  const bool use_target = p.target_shape.ndim() == nsp &&
                          std::any_of(p.target_shape.begin(), p.target_shape.end(),
                                      [](dim_t v) { return v > 0; });
  for (int i = 0; i < nsp; ++i) {
    if (use_target && p.target_shape[i] > 0) {
      const dim_t in = dshape[2 + i];
      const dim_t full = p.stride[i] * (in - 1) + p.dilate[i] * (p.kernel[i] - 1) + 1;
      const dim_t total = full - p.target_shape[i];
      if (total < 0 || (total + 1) / 2 * 2 - total >= std::max(p.stride[i], p.dilate[i])) {
        MX_THROW(ValueError) << "Deconvolution: target_shape " << p.target_shape
                             << " cannot be reached from data " << dshape << " with kernel "
                             << p.kernel << ", stride " << p.stride;
      }
      (*pad)[i] = (total + 1) / 2;
      (*adj)[i] = total % 2;
    } else {
      (*pad)[i] = p.pad[i];
      (*adj)[i] = p.adj[i];
    }
  }
}

/*! \brief The convolution geometry whose data gradient this deconvolution computes. */
inline ConvGeom MakeDeconvGeom(const DeconvolutionParam& p, const mxnet::TShape& dshape) {
  std::vector<dim_t> pad, adj;
  DeconvPadAdj(p, dshape, &pad, &adj);
  ConvGeom g;
  const int nsp = p.kernel.ndim();
  g.nsp = nsp;
  g.N = dshape[0];
  g.F = dshape[1];        // the deconvolution's input channels
  g.C = p.num_filter;     // its output channels
  g.G = p.num_group;
  for (int i = 0; i < nsp; ++i) {
    const int j = 3 - nsp + i;
    g.out[j] = dshape[2 + i];
    g.k[j] = p.kernel[i];
    g.s[j] = p.stride[i];
    g.d[j] = p.dilate[i];
    g.p[j] = pad[i];
    g.in[j] = p.stride[i] * (dshape[2 + i] - 1) + p.dilate[i] * (p.kernel[i] - 1) + 1 -
              2 * pad[i] + adj[i];
  }
  return g;
}

inline bool DeconvolutionShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                               mxnet::ShapeVector* out_shape) {
  const DeconvolutionParam& param = nnvm::get<DeconvolutionParam>(attrs.parsed);
  const size_t nin = param.no_bias ? 2 : 3;
  if (in_shape->size() != nin) {
    MX_THROW(ValueError) << "Deconvolution: expected " << nin << " inputs (data, weight"
                         << (param.no_bias ? "" : ", bias") << "), got " << in_shape->size();
  }
  const int nsp = param.kernel.ndim();
  const dim_t F = param.num_filter, G = param.num_group;
  CheckChannelFirstLayout("Deconvolution", param.layout, nsp);
  if (F % G != 0) {
    MX_THROW(ValueError) << "Deconvolution: num_filter=" << F
                         << " must be divisible by num_group=" << G;
  }
  for (int i = 0; i < nsp; ++i) {
    if (param.adj[i] >= std::max(param.stride[i], param.dilate[i])) {
      MX_THROW(ValueError) << "Deconvolution: adj " << param.adj
                           << " must be smaller than stride " << param.stride << " (or dilate)";
    }
  }
  const mxnet::TShape dshape = (*in_shape)[conv::kData];
  if (!param.no_bias) SHAPE_ASSIGN_CHECK(*in_shape, conv::kBias, mxnet::TShape(1, F));
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() != nsp + 2) {
    MX_THROW(ValueError) << "Deconvolution: data must have " << nsp + 2
                         << " dimensions for kernel " << param.kernel << ", got data " << dshape;
  }
  const dim_t C = dshape[1];
  if (C >= 0 && C % G != 0) {
    MX_THROW(ValueError) << "Deconvolution: input channels " << C << " of data " << dshape
                         << " must be divisible by num_group=" << G;
  }
  mxnet::TShape wshape(nsp + 2, -1);
  wshape[0] = C;
  wshape[1] = F / G;
  for (int i = 0; i < nsp; ++i) wshape[2 + i] = param.kernel[i];
  const mxnet::TShape given_w = (*in_shape)[conv::kWeight];
  if (ndim_is_known(given_w) && !shape_assign(&(*in_shape)[conv::kWeight], wshape)) {
    MX_THROW(ValueError) << "Deconvolution: expected weight of shape " << wshape
                         << " (in_channels, num_filter/num_group, *kernel) for data " << dshape
                         << ", got " << given_w;
  }
  if (!ndim_is_known(given_w)) (*in_shape)[conv::kWeight] = wshape;
  mxnet::TShape oshape(nsp + 2, -1);
  oshape[0] = dshape[0];
  oshape[1] = F;
  if (shape_is_known(dshape)) {
    const ConvGeom g = MakeDeconvGeom(param, dshape);
    for (int i = 0; i < nsp; ++i) {
      const dim_t o = g.in[3 - nsp + i];
      if (o <= 0) {
        MX_THROW(ValueError) << "Deconvolution: output size " << o << " <= 0 for data " << dshape
                             << ", kernel " << param.kernel << ", pad " << param.pad;
      }
      oshape[2 + i] = o;
    }
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, oshape);
  return shape_is_known(dshape) && shape_is_known((*in_shape)[conv::kWeight]);
}

/*! \brief y[n, c, :] += bias[c] over (N, C, spatial). */
template <typename DType>
void AddChannelBias(index_t N, index_t C, index_t sp, const DType* bias, DType* y) {
#pragma omp parallel for schedule(static) if (N * C * sp > 65536)
  for (index_t t = 0; t < N * C; ++t) {
    const DType b = bias[t % C];
    DType* p = y + t * sp;
    for (index_t j = 0; j < sp; ++j) p[j] += b;
  }
}

template <typename DType>
void DeconvForwardTyped(const DeconvolutionParam& param, const ConvGeom& g, const DType* x,
                        const DType* w, const DType* b, DType* y, OpReqType req,
                        const OpContext& ctx) {
  if (req == kNullOp) return;
  const index_t ysize = g.N * g.C * g.InSpatial();
  bool done = false;
  if (std::is_same<DType, float>::value && req != kAddTo) {
    done = DnnlConvBackwardData(g, reinterpret_cast<const float*>(w),
                                reinterpret_cast<const float*>(x), reinterpret_cast<float*>(y));
  }
  if (!done) {
    if (req != kAddTo) std::fill(y, y + ysize, DType(0));
    DType* ws = ctx.requested[0].get_space_typed_ptr<DType>(g.WorkspaceElems(kConvChunkElems));
    ConvBackwardDataAccumulate<DType>(g, w, x, y, ws);
  }
  if (b != nullptr) AddChannelBias(g.N, g.C, g.InSpatial(), b, y);
}

/*! \brief dy: gradient of the deconvolution output; x: its input. */
template <typename DType>
void DeconvBackwardTyped(const ConvGeom& g, const DType* dy, const DType* x, const DType* w,
                         DType* dx, OpReqType req_dx, DType* dw, OpReqType req_dw, DType* db,
                         OpReqType req_db, const OpContext& ctx) {
  // data gradient: the convolution of dy with w
  if (req_dx != kNullOp) ConvForwardDispatch<DType>(g, dy, w, nullptr, dx, req_dx, ctx);
  // weight gradient: conv weight gradient with conv input dy and conv output gradient x
  if (req_dw != kNullOp) {
    ConvBackwardDispatch<DType>(g, dy, w, x, nullptr, kNullOp, dw, req_dw, nullptr, kNullOp,
                                ctx);
  }
  if (req_db != kNullOp && db != nullptr) ConvBiasGrad(g.N, g.C, g.InSpatial(), dy, db, req_db);
}

template <typename xpu>
void DeconvolutionCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const DeconvolutionParam& param = nnvm::get<DeconvolutionParam>(attrs.parsed);
  const ConvGeom g = MakeDeconvGeom(param, inputs[conv::kData].shape_);
  const int dtype = outputs[0].type_flag_;
  if (dtype == mshadow::kFloat16) {
    using mshadow::half::half_t;
    std::vector<float> x = HalfToFloat(inputs[0].dptr<half_t>(), inputs[0].shape_.Size());
    std::vector<float> w = HalfToFloat(inputs[1].dptr<half_t>(), inputs[1].shape_.Size());
    std::vector<float> b;
    if (!param.no_bias) b = HalfToFloat(inputs[2].dptr<half_t>(), param.num_filter);
    std::vector<float> y(outputs[0].shape_.Size());
    DeconvForwardTyped<float>(param, g, x.data(), w.data(), param.no_bias ? nullptr : b.data(),
                              y.data(), kWriteTo, ctx);
    FloatToHalf(y.data(), y.size(), outputs[0].dptr<half_t>(), req[0]);
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(dtype, DType, {
    DeconvForwardTyped<DType>(param, g, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                              param.no_bias ? nullptr : inputs[2].dptr<DType>(),
                              outputs[0].dptr<DType>(), req[0], ctx);
  });
}

/*! \brief inputs: out_grad, data, weight; outputs: data_grad, weight_grad[, bias_grad]. */
template <typename xpu>
void DeconvolutionGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const DeconvolutionParam& param = nnvm::get<DeconvolutionParam>(attrs.parsed);
  const ConvGeom g = MakeDeconvGeom(param, inputs[1].shape_);
  const int dtype = inputs[0].type_flag_;
  const OpReqType req_db = param.no_bias ? kNullOp : req[2];
  if (dtype == mshadow::kFloat16) {
    HalfBackwardInFloat(inputs, req, outputs, !param.no_bias, param.num_filter,
                        [&](const float* dy, const float* x, const float* w, float* dx,
                            OpReqType req_dx, float* dw, OpReqType req_dw, float* db,
                            OpReqType req_bias) {
                          DeconvBackwardTyped<float>(g, dy, x, w, dx, req_dx, dw, req_dw, db,
                                                     req_bias, ctx);
                        });
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(dtype, DType, {
    DeconvBackwardTyped<DType>(g, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                               inputs[2].dptr<DType>(), outputs[0].dptr<DType>(), req[0],
                               outputs[1].dptr<DType>(), req[1],
                               param.no_bias ? nullptr : outputs[2].dptr<DType>(), req_db, ctx);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_DECONVOLUTION_INL_H_
