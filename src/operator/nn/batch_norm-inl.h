/*!
 * \file batch_norm-inl.h
 * \brief BatchNorm: parameters, shape/type inference and CPU kernels.
 *
 * Inputs data, gamma, beta, moving_mean, moving_var (the last two are auxiliary states);
 * outputs out, mean, var (one visible unless output_mean_var). As in MXNet 1.9.1:
 * - training (is_train and not use_global_stats) normalises with the batch mean and biased
 *   variance; otherwise with the moving statistics;
 * - the `mean` output is the mean used and the `var` output its inverse standard deviation
 *   1/sqrt(var + eps);
 * - the moving statistics are updated by the backward pass of a training step:
 *   moving = moving * momentum + batch * (1 - momentum);
 * - fix_gamma uses gamma = 1, gives gamma a zero gradient, and the forward pass writes 1s
 *   into gamma;
 * float16 data uses float32 gamma/beta/statistics (and float32 arithmetic).
 *
 * _backward_BatchNorm: (out_grad, mean, var, data, gamma, beta, moving_mean, moving_var) ->
 * (data_grad, gamma_grad, beta_grad); it mutates moving_mean and moving_var.
 */
#ifndef MXNET_OPERATOR_NN_BATCH_NORM_INL_H_
#define MXNET_OPERATOR_NN_BATCH_NORM_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace batchnorm {
enum Inputs { kData, kGamma, kBeta, kMovingMean, kMovingVar };
enum Outputs { kOut, kMean, kVar };
}  // namespace batchnorm

struct BatchNormParam : public dmlc::Parameter<BatchNormParam> {
  double eps;
  float momentum;
  bool fix_gamma;
  bool use_global_stats;
  bool output_mean_var;
  int axis;
  bool cudnn_off;
  dmlc::optional<float> min_calib_range;
  dmlc::optional<float> max_calib_range;
  DMLC_DECLARE_PARAMETER(BatchNormParam) {
    DMLC_DECLARE_FIELD(eps).set_default(1e-3f)
        .describe("Epsilon to prevent div 0. Must be no less than CUDNN_BN_MIN_EPSILON defined "
                  "in cudnn.h when using cudnn (usually 1e-5)");
    DMLC_DECLARE_FIELD(momentum).set_default(0.9f)
        .describe("Momentum for moving average");
    DMLC_DECLARE_FIELD(fix_gamma).set_default(true)
        .describe("Fix gamma while training");
    DMLC_DECLARE_FIELD(use_global_stats).set_default(false)
        .describe("Whether use global moving statistics instead of local batch-norm. This will "
                  "force change batch-norm into a scale shift operator.");
    DMLC_DECLARE_FIELD(output_mean_var).set_default(false)
        .describe("Output the mean and inverse std ");
    DMLC_DECLARE_FIELD(axis).set_default(1)
        .describe("Specify which shape axis the channel is specified");
    DMLC_DECLARE_FIELD(cudnn_off).set_default(false)
        .describe("Do not select CUDNN operator, if available");
    DMLC_DECLARE_FIELD(min_calib_range).set_default(dmlc::optional<float>())
        .describe("The minimum scalar value in the form of float32 obtained through calibration. "
                  "If present, it will be used to by quantized batch norm op to calculate "
                  "primitive scale.Note: this calib_range is to calib bn output.");
    DMLC_DECLARE_FIELD(max_calib_range).set_default(dmlc::optional<float>())
        .describe("The maximum scalar value in the form of float32 obtained through calibration. "
                  "If present, it will be used to by quantized batch norm op to calculate "
                  "primitive scale.Note: this calib_range is to calib bn output.");
  }
};

/*! \brief data viewed as (outer, C, inner) around the channel axis. */
struct BNDims {
  index_t outer = 1, C = 1, inner = 1;
  index_t PerChannel() const { return outer * inner; }
};

inline int BNAxis(const BatchNormParam& p, int ndim) {
  const int axis = p.axis < 0 ? p.axis + ndim : p.axis;
  if (axis < 0 || axis >= ndim) {
    MX_THROW(ValueError) << "BatchNorm: axis " << p.axis << " is out of range for data with "
                         << ndim << " dimensions";
  }
  return axis;
}

inline BNDims MakeBNDims(const BatchNormParam& p, const mxnet::TShape& dshape) {
  BNDims d;
  const int axis = BNAxis(p, dshape.ndim());
  for (int i = 0; i < axis; ++i) d.outer *= dshape[i];
  d.C = dshape[axis];
  for (int i = axis + 1; i < dshape.ndim(); ++i) d.inner *= dshape[i];
  return d;
}

inline bool BatchNormShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                           mxnet::ShapeVector* out_shape) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  if (in_shape->size() != 5U) {
    MX_THROW(ValueError) << "BatchNorm: expected 5 inputs (data, gamma, beta, moving_mean, "
                         << "moving_var), got " << in_shape->size();
  }
  const mxnet::TShape dshape = (*in_shape)[batchnorm::kData];
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() < 1) {
    MX_THROW(ValueError) << "BatchNorm: data must have at least 1 dimension, got " << dshape;
  }
  const int axis = BNAxis(param, dshape.ndim());
  const dim_t C = dshape[axis];
  const mxnet::TShape cshape(1, C);
  static const char* names[] = {"data", "gamma", "beta", "moving_mean", "moving_var"};
  for (int i = 1; i < 5; ++i) {
    const mxnet::TShape given = (*in_shape)[i];
    if (ndim_is_known(given) && !shape_assign(&(*in_shape)[i], cshape)) {
      MX_THROW(ValueError) << "BatchNorm: " << names[i] << " must have shape " << cshape
                           << " (the size of axis " << axis << " of data " << dshape
                           << "), got " << given;
    }
    if (!ndim_is_known(given)) (*in_shape)[i] = cshape;
  }
  out_shape->resize(3);
  SHAPE_ASSIGN_CHECK(*out_shape, batchnorm::kOut, dshape);
  SHAPE_ASSIGN_CHECK(*out_shape, batchnorm::kMean, cshape);
  SHAPE_ASSIGN_CHECK(*out_shape, batchnorm::kVar, cshape);
  return shape_is_known(dshape);
}

/*! \brief Parameter/statistics dtype for a data dtype (float32 for float16 and bfloat16 data). */
inline int BNParamType(int dtype) {
  return dtype == mshadow::kFloat16 || dtype == mshadow::kBfloat16 ? mshadow::kFloat32 : dtype;
}

inline bool BatchNormType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                          std::vector<int>* out_type) {
  int dtype = (*in_type)[batchnorm::kData];
  if (dtype < 0) dtype = (*out_type)[batchnorm::kOut];
  if (dtype < 0) return false;
  if (!mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << "BatchNorm: data must be floating-point "
                           "(float16, bfloat16, float32 or float64), got "
                        << type_string(dtype);
  }
  const int ptype = BNParamType(dtype);
  static const char* names[] = {"data", "gamma", "beta", "moving_mean", "moving_var"};
  TYPE_ASSIGN_CHECK(*in_type, 0, dtype);
  for (int i = 1; i < 5; ++i) {
    if ((*in_type)[i] >= 0 && (*in_type)[i] != ptype) {
      MX_THROW(TypeError) << "BatchNorm: " << names[i] << " must be " << type_string(ptype)
                          << " for " << type_string(dtype) << " data, got "
                          << type_string((*in_type)[i]);
    }
    (*in_type)[i] = ptype;
  }
  out_type->resize(3);
  TYPE_ASSIGN_CHECK(*out_type, batchnorm::kOut, dtype);
  TYPE_ASSIGN_CHECK(*out_type, batchnorm::kMean, ptype);
  TYPE_ASSIGN_CHECK(*out_type, batchnorm::kVar, ptype);
  return true;
}

/*! \brief Sum of f(x) over channel c of data viewed as (outer, C, inner), in double. */
template <typename DType, typename F>
inline double BNChannelSum(const BNDims& d, const DType* x, index_t c, F f) {
  double acc = 0;
  for (index_t o = 0; o < d.outer; ++o) {
    const DType* p = x + (o * d.C + c) * d.inner;
    double part = 0;
    for (index_t i = 0; i < d.inner; ++i) part += f(static_cast<double>(p[i]), i);
    acc += part;
  }
  return acc;
}

template <typename DType, typename AType>
void BatchNormForwardImpl(const BatchNormParam& param, bool training, const BNDims& d,
                          const DType* x, const AType* gamma, const AType* beta,
                          const AType* moving_mean, const AType* moving_var, DType* y,
                          OpReqType req, AType* mean_out, AType* invstd_out) {
  const double M = static_cast<double>(d.PerChannel());
#pragma omp parallel for schedule(dynamic) if (d.C > 1 && d.outer * d.C * d.inner > 16384)
  for (index_t c = 0; c < d.C; ++c) {
    double mean, var;
    if (training) {
      mean = M > 0 ? BNChannelSum(d, x, c, [](double v, index_t) { return v; }) / M : 0.0;
      var = M > 0 ? BNChannelSum(d, x, c, [mean](double v, index_t) {
                      return (v - mean) * (v - mean);
                    }) / M
                  : 0.0;
    } else {
      mean = static_cast<double>(moving_mean[c]);
      var = static_cast<double>(moving_var[c]);
    }
    const double invstd = 1.0 / std::sqrt(var + param.eps);
    mean_out[c] = static_cast<AType>(mean);
    invstd_out[c] = static_cast<AType>(invstd);
    if (req == kNullOp) continue;
    const double g = param.fix_gamma ? 1.0 : static_cast<double>(gamma[c]);
    const AType scale = static_cast<AType>(g * invstd);
    const AType shift = static_cast<AType>(static_cast<double>(beta[c]) - mean * g * invstd);
    for (index_t o = 0; o < d.outer; ++o) {
      const DType* px = x + (o * d.C + c) * d.inner;
      DType* py = y + (o * d.C + c) * d.inner;
      if (req == kAddTo) {
        for (index_t i = 0; i < d.inner; ++i)
          py[i] = DType(static_cast<AType>(py[i]) + static_cast<AType>(px[i]) * scale + shift);
      } else {
        for (index_t i = 0; i < d.inner; ++i)
          py[i] = DType(static_cast<AType>(px[i]) * scale + shift);
      }
    }
  }
}

template <typename DType, typename AType>
void BatchNormBackwardImpl(const BatchNormParam& param, bool training, const BNDims& d,
                           const DType* dy, const AType* mean_in, const AType* invstd_in,
                           const DType* x, const AType* gamma, AType* moving_mean,
                           AType* moving_var, DType* dx, OpReqType req_dx, AType* dgamma,
                           OpReqType req_dgamma, AType* dbeta, OpReqType req_dbeta) {
  const double M = static_cast<double>(d.PerChannel());
#pragma omp parallel for schedule(dynamic) if (d.C > 1 && d.outer * d.C * d.inner > 16384)
  for (index_t c = 0; c < d.C; ++c) {
    double mean, invstd;
    if (training) {
      mean = static_cast<double>(mean_in[c]);
      invstd = static_cast<double>(invstd_in[c]);
    } else {
      mean = static_cast<double>(moving_mean[c]);
      invstd = 1.0 / std::sqrt(static_cast<double>(moving_var[c]) + param.eps);
    }
    double sum_dy = 0, sum_dy_xhat = 0;
    for (index_t o = 0; o < d.outer; ++o) {
      const DType* px = x + (o * d.C + c) * d.inner;
      const DType* pg = dy + (o * d.C + c) * d.inner;
      double s1 = 0, s2 = 0;
      for (index_t i = 0; i < d.inner; ++i) {
        const double g = static_cast<double>(pg[i]);
        s1 += g;
        s2 += g * (static_cast<double>(px[i]) - mean);
      }
      sum_dy += s1;
      sum_dy_xhat += s2 * invstd;
    }
    const double g = param.fix_gamma ? 1.0 : static_cast<double>(gamma[c]);
    if (req_dx != kNullOp) {
      const double k = g * invstd;
      // training: dx = g*invstd*(dy - mean(dy) - xhat*mean(dy*xhat)); else dx = g*invstd*dy
      const double a = training && M > 0 ? sum_dy / M : 0.0;
      const double b = training && M > 0 ? sum_dy_xhat / M : 0.0;
      for (index_t o = 0; o < d.outer; ++o) {
        const DType* px = x + (o * d.C + c) * d.inner;
        const DType* pg = dy + (o * d.C + c) * d.inner;
        DType* pd = dx + (o * d.C + c) * d.inner;
        for (index_t i = 0; i < d.inner; ++i) {
          const double xhat = (static_cast<double>(px[i]) - mean) * invstd;
          const double v = k * (static_cast<double>(pg[i]) - a - xhat * b);
          pd[i] = req_dx == kAddTo ? DType(static_cast<double>(pd[i]) + v) : DType(v);
        }
      }
    }
    const double gg = param.fix_gamma ? 0.0 : sum_dy_xhat;
    if (req_dgamma != kNullOp) {
      dgamma[c] = req_dgamma == kAddTo ? static_cast<AType>(dgamma[c] + gg)
                                       : static_cast<AType>(gg);
    }
    if (req_dbeta != kNullOp) {
      dbeta[c] = req_dbeta == kAddTo ? static_cast<AType>(dbeta[c] + sum_dy)
                                     : static_cast<AType>(sum_dy);
    }
    if (training) {
      const double mom = param.momentum;
      const double var = 1.0 / (invstd * invstd) - param.eps;
      moving_mean[c] = static_cast<AType>(moving_mean[c] * mom + mean * (1 - mom));
      moving_var[c] = static_cast<AType>(moving_var[c] * mom + var * (1 - mom));
    }
  }
}

/*! \brief Calls run(DType(), AType()) for BatchNorm's data types (float16 data computes with
 *         float parameters); other dtypes raise TypeError naming `op`. CPU and GPU share it. */
template <typename Run>
void BNTypeSwitch(int dtype, const char* op, Run run) {
  switch (dtype) {
    case mshadow::kFloat32: run(float(), float()); break;
    case mshadow::kFloat64: run(double(), double()); break;
    case mshadow::kFloat16: run(mshadow::half::half_t(), float()); break;
    default: MX_THROW(TypeError) << op << ": unsupported dtype " << type_string(dtype);
  }
}

template <typename xpu>
void BatchNormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  const BNDims d = MakeBNDims(param, inputs[batchnorm::kData].shape_);
  const bool training = ctx.is_train && !param.use_global_stats;
  const int dtype = inputs[batchnorm::kData].type_flag_;
  BNTypeSwitch(dtype, "BatchNorm", [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    BatchNormForwardImpl<DType, AType>(
        param, training, d, inputs[0].dptr<DType>(), inputs[1].dptr<AType>(),
        inputs[2].dptr<AType>(), inputs[3].dptr<AType>(), inputs[4].dptr<AType>(),
        outputs[0].dptr<DType>(), req[0], outputs[1].dptr<AType>(), outputs[2].dptr<AType>());
    if (param.fix_gamma) {
      // As in MXNet 1.9.1, a fixed gamma reads back as ones after a forward pass. Safe under
      // the read dependency the engine gives this op on gamma: no writer of gamma runs
      // concurrently, and elements already 1 (every pass after the first) are not stored to,
      // so concurrent readers see each element either unchanged or 1.
      AType* gamma = inputs[batchnorm::kGamma].dptr<AType>();
      for (index_t c = 0; c < d.C; ++c) {
        if (gamma[c] != AType(1)) gamma[c] = AType(1);
      }
    }
  });
}

/*! \brief inputs: out_grad, mean, var(invstd), data, gamma, beta, moving_mean, moving_var. */
template <typename xpu>
void BatchNormGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  const BNDims d = MakeBNDims(param, inputs[3].shape_);
  const bool training = ctx.is_train && !param.use_global_stats;
  const int dtype = inputs[3].type_flag_;
  BNTypeSwitch(dtype, "_backward_BatchNorm", [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    BatchNormBackwardImpl<DType, AType>(
        param, training, d, inputs[0].dptr<DType>(), inputs[1].dptr<AType>(),
        inputs[2].dptr<AType>(), inputs[3].dptr<DType>(), inputs[4].dptr<AType>(),
        inputs[6].dptr<AType>(), inputs[7].dptr<AType>(), outputs[0].dptr<DType>(), req[0],
        outputs[1].dptr<AType>(), req[1], outputs[2].dptr<AType>(), req[2]);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_BATCH_NORM_INL_H_
