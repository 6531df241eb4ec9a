/*!
 * \file convolution-inl.h
 * \brief Convolution (1-D/2-D/3-D, NCW/NCHW/NCDHW): parameters, shape/type inference and the
 *        CPU compute (oneDNN for float32 when enabled, else im2col + GEMM; see conv_kernels.h).
 *
 * data (N, C, *in), weight (num_filter, C/num_group, *kernel), bias (num_filter,),
 * out (N, num_filter, *out) with out = floor((in + 2*pad - dilate*(kernel-1) - 1)/stride) + 1.
 * _backward_Convolution: (out_grad, data, weight) -> (data_grad, weight_grad[, bias_grad]).
 */
#ifndef MXNET_OPERATOR_NN_CONVOLUTION_INL_H_
#define MXNET_OPERATOR_NN_CONVOLUTION_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <sstream>
#include <string>
#include <vector>

#include "../operator_common.h"
#include "./conv_kernels.h"
#include "./dnnl_conv.h"

namespace mxnet {
namespace op {

namespace conv {
enum ConvolutionOpInputs { kData, kWeight, kBias };
enum ConvolutionOpOutputs { kOut };
// Layout enum values (mshadow's layout flags).
enum Layout { kNCHW = 0, kNHWC = 1, kCHWN = 2, kNCW = 3, kNWC = 4, kCWN = 5, kNCDHW = 6,
              kNDHWC = 7, kCDHWN = 8 };
enum CudnnTune { kOff = 0, kLimited = 1, kFastest = 2 };
}  // namespace conv

struct ConvolutionParam : public dmlc::Parameter<ConvolutionParam> {
  mxnet::TShape kernel;
  mxnet::TShape stride;
  mxnet::TShape dilate;
  mxnet::TShape pad;
  uint32_t num_filter;
  uint32_t num_group;
  uint64_t workspace;
  bool no_bias;
  dmlc::optional<int> cudnn_tune;
  bool cudnn_off;
  dmlc::optional<int> layout;
  DMLC_DECLARE_PARAMETER(ConvolutionParam) {
    DMLC_DECLARE_FIELD(kernel).describe("Convolution kernel size: (w,), (h, w) or (d, h, w)");
    DMLC_DECLARE_FIELD(stride).set_default(mxnet::TShape(0, 0))
        .describe("Convolution stride: (w,), (h, w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(dilate).set_default(mxnet::TShape(0, 0))
        .describe("Convolution dilate: (w,), (h, w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(pad).set_default(mxnet::TShape(0, 0))
        .describe("Zero pad for convolution: (w,), (h, w) or (d, h, w). Defaults to no padding.");
    DMLC_DECLARE_FIELD(num_filter).set_lower_bound(1)
        .describe("Convolution filter(channel) number");
    DMLC_DECLARE_FIELD(num_group).set_default(1).set_lower_bound(1)
        .describe("Number of group partitions.");
    DMLC_DECLARE_FIELD(workspace).set_default(1024).set_lower_bound(0)
        .describe("Maximum temporary workspace allowed (MB) in convolution.This parameter has two "
                  "usages. When CUDNN is not used, it determines the effective batch size of the "
                  "convolution kernel. When CUDNN is used, it controls the maximum temporary "
                  "storage used for tuning the best CUDNN kernel when `limited_workspace` "
                  "strategy is used.");
    DMLC_DECLARE_FIELD(no_bias).set_default(false).describe("Whether to disable bias parameter.");
    DMLC_DECLARE_FIELD(cudnn_tune)
        .add_enum("off", conv::kOff)
        .add_enum("limited_workspace", conv::kLimited)
        .add_enum("fastest", conv::kFastest)
        .set_default(dmlc::optional<int>())
        .describe("Whether to pick convolution algo by running performance test.");
    DMLC_DECLARE_FIELD(cudnn_off).set_default(false).describe("Turn off cudnn for this layer.");
    DMLC_DECLARE_FIELD(layout)
        .add_enum("NCW", conv::kNCW)
        .add_enum("NCHW", conv::kNCHW)
        .add_enum("NCDHW", conv::kNCDHW)
        .add_enum("NHWC", conv::kNHWC)
        .add_enum("NDHWC", conv::kNDHWC)
        .set_default(dmlc::optional<int>())
        .describe("Set layout for input, output and weight. Empty for default layout: NCW for "
                  "1d, NCHW for 2d and NCDHW for 3d. NHWC and NDHWC are only supported on GPU.");
  }
};

/*!
 * \brief Check kernel/stride/dilate/pad of a convolution-like op and fill the defaults
 *        (stride 1, dilate 1, pad 0 per kernel dimension). Throws ParamError naming the op.
 */
inline void FillConvDefaults(const char* op, const mxnet::TShape& kernel, mxnet::TShape* stride,
                             mxnet::TShape* dilate, mxnet::TShape* pad) {
  const int nk = kernel.ndim();
  if (nk < 1 || nk > 3) {
    throw dmlc::ParamError(std::string(op) + ": kernel must have 1, 2 or 3 dimensions, got " +
                           shape_string(kernel));
  }
  for (int i = 0; i < nk; ++i) {
    if (kernel[i] <= 0) {
      throw dmlc::ParamError(std::string(op) + ": kernel sizes must be positive, got " +
                             shape_string(kernel));
    }
  }
  auto fill = [&](mxnet::TShape* t, const char* name, dim_t def, dim_t min_value) {
    if (t->ndim() <= 0) {
      *t = mxnet::TShape(nk, def);
      return;
    }
    if (t->ndim() != nk) {
      std::ostringstream os;
      os << op << ": " << name << " " << *t << " must have as many dimensions as kernel "
         << kernel;
      throw dmlc::ParamError(os.str());
    }
    for (int i = 0; i < nk; ++i) {
      if ((*t)[i] < min_value) {
        std::ostringstream os;
        os << op << ": " << name << " must be >= " << min_value << " in every dimension, got "
           << *t;
        throw dmlc::ParamError(os.str());
      }
    }
  };
  if (stride != nullptr) fill(stride, "stride", 1, 1);
  if (dilate != nullptr) fill(dilate, "dilate", 1, 1);
  if (pad != nullptr) fill(pad, "pad", 0, 0);
}

/*! \brief Channel-last layouts are GPU-only in MXNet; reject them clearly on CPU. */
inline void CheckChannelFirstLayout(const char* op, const dmlc::optional<int>& layout, int nsp) {
  if (!layout.has_value()) return;
  const int l = layout.value();
  const int want = nsp == 1 ? conv::kNCW : nsp == 2 ? conv::kNCHW : conv::kNCDHW;
  if (l == conv::kNHWC || l == conv::kNDHWC || l == conv::kNWC) {
    MX_THROW(NotImplementedError) << op << ": channel-last layout is only supported on GPU "
                                  << "(cuDNN); use the default NC(D)(H)W layout on CPU";
  }
  if (l != want) {
    MX_THROW(ValueError) << op << ": layout does not match the " << nsp
                         << "-D kernel (expected " << (nsp == 1 ? "NCW" : nsp == 2 ? "NCHW" : "NCDHW")
                         << ")";
  }
}

inline void ConvolutionParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<ConvolutionParam>(attrs);
  ConvolutionParam& p = nnvm::get<ConvolutionParam>(attrs->parsed);
  FillConvDefaults("Convolution", p.kernel, &p.stride, &p.dilate, &p.pad);
}

/*! \brief Output size of one spatial dim (may be <= 0 when the kernel does not fit). */
inline dim_t ConvOutDim(dim_t in, dim_t k, dim_t s, dim_t d, dim_t p) {
  return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}

/*! \brief The geometry of a convolution with data shape dshape. */
inline ConvGeom MakeConvGeom(const ConvolutionParam& p, const mxnet::TShape& dshape) {
  ConvGeom g;
  const int nsp = p.kernel.ndim();
  g.nsp = nsp;
  g.N = dshape[0];
  g.C = dshape[1];
  g.F = p.num_filter;
  g.G = p.num_group;
  for (int i = 0; i < nsp; ++i) {
    const int j = 3 - nsp + i;
    g.in[j] = dshape[2 + i];
    g.k[j] = p.kernel[i];
    g.s[j] = p.stride[i];
    g.d[j] = p.dilate[i];
    g.p[j] = p.pad[i];
    g.out[j] = ConvOutDim(g.in[j], g.k[j], g.s[j], g.d[j], g.p[j]);
  }
  return g;
}

inline bool ConvolutionShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                             mxnet::ShapeVector* out_shape) {
  const ConvolutionParam& param = nnvm::get<ConvolutionParam>(attrs.parsed);
  const size_t nin = param.no_bias ? 2 : 3;
  if (in_shape->size() != nin) {
    MX_THROW(ValueError) << "Convolution: expected " << nin << " inputs (data, weight"
                         << (param.no_bias ? "" : ", bias") << "), got " << in_shape->size();
  }
  const int nsp = param.kernel.ndim();
  const dim_t F = param.num_filter, G = param.num_group;
  CheckChannelFirstLayout("Convolution", param.layout, nsp);
  if (F % G != 0) {
    MX_THROW(ValueError) << "Convolution: num_filter=" << F << " must be divisible by num_group="
                         << G;
  }
  const mxnet::TShape dshape = (*in_shape)[conv::kData];
  if (!param.no_bias) SHAPE_ASSIGN_CHECK(*in_shape, conv::kBias, mxnet::TShape(1, F));
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() != nsp + 2) {
    MX_THROW(ValueError) << "Convolution: data must have " << nsp + 2 << " dimensions (N, C"
                         << (nsp == 1 ? ", W" : nsp == 2 ? ", H, W" : ", D, H, W")
                         << ") for kernel " << param.kernel << ", got data " << dshape;
  }
  const dim_t C = dshape[1];
  mxnet::TShape wshape(nsp + 2, -1);
  wshape[0] = F;
  wshape[1] = C >= 0 ? C / G : -1;
  for (int i = 0; i < nsp; ++i) wshape[2 + i] = param.kernel[i];
  if (C >= 0 && C % G != 0) {
    MX_THROW(ValueError) << "Convolution: input channels " << C << " of data " << dshape
                         << " must be divisible by num_group=" << G;
  }
  const mxnet::TShape given_w = (*in_shape)[conv::kWeight];
  if (ndim_is_known(given_w) && !shape_assign(&(*in_shape)[conv::kWeight], wshape)) {
    MX_THROW(ValueError) << "Convolution: expected weight of shape " << wshape
                         << " (num_filter, channels/num_group, *kernel) for data " << dshape
                         << ", got " << given_w;
  }
  if (!ndim_is_known(given_w)) (*in_shape)[conv::kWeight] = wshape;
  mxnet::TShape oshape(nsp + 2, -1);
  oshape[0] = dshape[0];
  oshape[1] = F;
  for (int i = 0; i < nsp; ++i) {
    const dim_t in = dshape[2 + i];
    if (in < 0) continue;
    const dim_t dk = param.dilate[i] * (param.kernel[i] - 1) + 1;
    if (in + 2 * param.pad[i] < dk) {
      MX_THROW(ValueError) << "Convolution: kernel " << param.kernel << " (dilate "
                           << param.dilate << ") is larger than the padded input: data "
                           << dshape << ", pad " << param.pad;
    }
    oshape[2 + i] = ConvOutDim(in, param.kernel[i], param.stride[i], param.dilate[i],
                               param.pad[i]);
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, oshape);
  return shape_is_known(dshape) && shape_is_known((*in_shape)[conv::kWeight]);
}

/*!
 * \brief Every input and output has one floating dtype (float16/32/64); `op` names errors.
 */
inline bool ConvLikeType(const char* op, std::vector<int>* in_type, std::vector<int>* out_type) {
  int dtype = -1;
  for (int t : *in_type) {
    if (dtype < 0) dtype = t;
  }
  for (int t : *out_type) {
    if (dtype < 0) dtype = t;
  }
  if (dtype < 0) return false;
  if (!mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << op << ": only float16, float32 and float64 are supported, got "
                        << type_string(dtype);
  }
  for (size_t i = 0; i < in_type->size(); ++i) {
    if ((*in_type)[i] >= 0 && (*in_type)[i] != dtype) {
      MX_THROW(TypeError) << op << ": input " << i << " has dtype " << type_string((*in_type)[i])
                          << " but the others are " << type_string(dtype);
    }
    (*in_type)[i] = dtype;
  }
  for (size_t i = 0; i < out_type->size(); ++i) TYPE_ASSIGN_CHECK(*out_type, i, dtype);
  return true;
}

/*! \brief Float copies of a half buffer (compute in float, as MXNet does for float16). */
inline std::vector<float> HalfToFloat(const mshadow::half::half_t* p, size_t n) {
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>(p[i]);
  return out;
}

/*! \brief dst (=|+=) src per req, converting float to half. */
inline void FloatToHalf(const float* src, size_t n, mshadow::half::half_t* dst, OpReqType req) {
  if (req == kNullOp) return;
  for (size_t i = 0; i < n; ++i) {
    const float v = req == kAddTo ? static_cast<float>(dst[i]) + src[i] : src[i];
    dst[i] = mshadow::half::half_t(v);
  }
}

/*!
 * \brief The backward of a convolution-like op over float16 tensors, computed in float:
 *        inputs (out_grad, data, weight) are staged as float, `backward(dy, x, w, dx, req_dx,
 *        dw, req_dw, db, req_db)` writes float gradients, and these are converted back into
 *        outputs (data_grad, weight_grad[, bias_grad]) under the caller's requests.
 */
template <typename FloatBackward>
void HalfBackwardInFloat(const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs, bool has_bias, size_t num_bias,
                         FloatBackward backward) {
  using mshadow::half::half_t;
  const OpReqType req_db = has_bias ? req[2] : kNullOp;
  auto staged = [](OpReqType r) { return r == kNullOp ? kNullOp : kWriteTo; };
  std::vector<float> dy = HalfToFloat(inputs[0].dptr<half_t>(), inputs[0].shape_.Size());
  std::vector<float> x = HalfToFloat(inputs[1].dptr<half_t>(), inputs[1].shape_.Size());
  std::vector<float> w = HalfToFloat(inputs[2].dptr<half_t>(), inputs[2].shape_.Size());
  std::vector<float> dx(x.size()), dw(w.size()), db(num_bias);
  backward(dy.data(), x.data(), w.data(), dx.data(), staged(req[0]), dw.data(), staged(req[1]),
           db.data(), staged(req_db));
  FloatToHalf(dx.data(), dx.size(), outputs[0].dptr<half_t>(), req[0]);
  FloatToHalf(dw.data(), dw.size(), outputs[1].dptr<half_t>(), req[1]);
  if (has_bias) FloatToHalf(db.data(), db.size(), outputs[2].dptr<half_t>(), req_db);
}

/*! \brief Forward of one convolution on raw buffers (all dtypes route here). */
template <typename DType>
void ConvForwardDispatch(const ConvGeom& g, const DType* x, const DType* w, const DType* b,
                         DType* y, OpReqType req, const OpContext& ctx) {
  if (req == kNullOp) return;
  if (std::is_same<DType, float>::value && req != kAddTo) {
    if (DnnlConvForward(g, reinterpret_cast<const float*>(x), reinterpret_cast<const float*>(w),
                        reinterpret_cast<const float*>(b), reinterpret_cast<float*>(y))) {
      return;
    }
  }
  DType* ws = ctx.requested[0].get_space_typed_ptr<DType>(g.WorkspaceElems(kConvChunkElems));
  ConvForwardNative<DType>(g, x, w, b, y, req, ws);
}

/*! \brief Backward of one convolution on raw buffers; dx/dw/db may be null (not wanted). */
template <typename DType>
void ConvBackwardDispatch(const ConvGeom& g, const DType* x, const DType* w, const DType* dy,
                          DType* dx, OpReqType req_dx, DType* dw, OpReqType req_dw, DType* db,
                          OpReqType req_db, const OpContext& ctx) {
  if (dx == nullptr) req_dx = kNullOp;
  if (dw == nullptr) req_dw = kNullOp;
  if (db == nullptr) req_db = kNullOp;
  if (std::is_same<DType, float>::value && DnnlEnabled()) {
    const float* fx = reinterpret_cast<const float*>(x);
    const float* fw = reinterpret_cast<const float*>(w);
    const float* fdy = reinterpret_cast<const float*>(dy);
    // Both backward parts below use oneDNN only from 64 input channels per group on: with
    // fewer, one big im2col GEMM wins (measured on LeNet, batch 64, one thread: weight
    // gradient of conv1 13.6 vs 5.3 ms; data + weight gradients of conv2 13.0 vs 11.6 ms).
    const bool wide = g.C / g.G >= 64;
    if ((req_dx == kWriteTo || req_dx == kWriteInplace) && wide) {
      if (DnnlConvBackwardData(g, fw, fdy, reinterpret_cast<float*>(dx))) req_dx = kNullOp;
    }
    if ((req_dw == kWriteTo || req_dw == kWriteInplace) && wide) {
      const bool with_bias = req_db == kWriteTo || req_db == kWriteInplace;
      if (DnnlConvBackwardWeights(g, fx, fdy, reinterpret_cast<float*>(dw),
                                  with_bias ? reinterpret_cast<float*>(db) : nullptr)) {
        req_dw = kNullOp;
        if (with_bias) req_db = kNullOp;
      }
    }
  }
  if (req_dx == kNullOp && req_dw == kNullOp) {
    if (req_db != kNullOp) ConvBiasGrad(g.N, g.F, g.OutSpatial(), dy, db, req_db);
    return;
  }
  DType* ws = ctx.requested[0].get_space_typed_ptr<DType>(g.WorkspaceElems(kConvChunkElems));
  ConvBackwardNative<DType>(g, x, w, dy, dx, req_dx, dw, req_dw, db, req_db, ws);
}

template <typename xpu>
void ConvolutionCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const ConvolutionParam& param = nnvm::get<ConvolutionParam>(attrs.parsed);
  const ConvGeom g = MakeConvGeom(param, inputs[conv::kData].shape_);
  const int dtype = outputs[0].type_flag_;
  if (dtype == mshadow::kFloat16) {
    using mshadow::half::half_t;
    const size_t nx = inputs[0].shape_.Size(), nw = inputs[1].shape_.Size();
    std::vector<float> x = HalfToFloat(inputs[0].dptr<half_t>(), nx);
    std::vector<float> w = HalfToFloat(inputs[1].dptr<half_t>(), nw);
    std::vector<float> b;
    if (!param.no_bias) b = HalfToFloat(inputs[2].dptr<half_t>(), param.num_filter);
    std::vector<float> y(outputs[0].shape_.Size());
    ConvForwardDispatch<float>(g, x.data(), w.data(), param.no_bias ? nullptr : b.data(),
                               y.data(), kWriteTo, ctx);
    FloatToHalf(y.data(), y.size(), outputs[0].dptr<half_t>(), req[0]);
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(dtype, DType, {
    ConvForwardDispatch<DType>(g, inputs[conv::kData].dptr<DType>(),
                               inputs[conv::kWeight].dptr<DType>(),
                               param.no_bias ? nullptr : inputs[conv::kBias].dptr<DType>(),
                               outputs[0].dptr<DType>(), req[0], ctx);
  });
}

/*! \brief inputs: out_grad, data, weight; outputs: data_grad, weight_grad[, bias_grad]. */
template <typename xpu>
void ConvolutionGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  const ConvolutionParam& param = nnvm::get<ConvolutionParam>(attrs.parsed);
  const ConvGeom g = MakeConvGeom(param, inputs[1].shape_);
  const int dtype = inputs[0].type_flag_;
  const OpReqType req_db = param.no_bias ? kNullOp : req[2];
  if (dtype == mshadow::kFloat16) {
    HalfBackwardInFloat(inputs, req, outputs, !param.no_bias, param.num_filter,
                        [&](const float* dy, const float* x, const float* w, float* dx,
                            OpReqType req_dx, float* dw, OpReqType req_dw, float* db,
                            OpReqType req_bias) {
                          ConvBackwardDispatch<float>(g, x, w, dy, dx, req_dx, dw, req_dw, db,
                                                      req_bias, ctx);
                        });
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(dtype, DType, {
    ConvBackwardDispatch<DType>(g, inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
                                inputs[0].dptr<DType>(), outputs[0].dptr<DType>(), req[0],
                                outputs[1].dptr<DType>(), req[1],
                                param.no_bias ? nullptr : outputs[2].dptr<DType>(), req_db, ctx);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_CONVOLUTION_INL_H_
