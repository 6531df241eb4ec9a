/*!
 * \file leaky_relu-inl.h
 * \brief LeakyReLU: the parametrised rectifiers
 *     leaky  x > 0 ? x : slope * x
 *     prelu  x > 0 ? x : gamma * x          (gamma: a second input, learned)
 *     elu    x > 0 ? x : slope * (e^x - 1)
 *     selu   lambda * (x > 0 ? x : alpha * (e^x - 1))
 *     gelu   0.5 * x * (1 + erf(x / sqrt(2)))
 *     rrelu  x > 0 ? x : r * x, r ~ U(lower_bound, upper_bound) per element when training,
 *            r = (lower_bound + upper_bound) / 2 otherwise; r is the second output `mask`.
 *
 * prelu's gamma broadcasts MXNet's way: its last axis lines up with data axis 1 (channels),
 * earlier gamma axes with data axis 0, the rest of the data axes are broadcast; so gamma is
 * (1,) (one slope), (C,) (per channel) or (N, C).
 *
 * _backward_LeakyReLU inputs: (out_grad, data, output[, gamma for prelu | mask for rrelu]);
 * outputs: data_grad[, gamma_grad for prelu].
 */
#ifndef MXNET_OPERATOR_NN_LEAKY_RELU_INL_H_
#define MXNET_OPERATOR_NN_LEAKY_RELU_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"
#include "../random/sampler.h"
#include "./dropout-inl.h"

namespace mxnet {
namespace op {

namespace leakyrelu {
enum LeakyReLUOpInputs { kData, kGamma };
enum LeakyReLUOpOutputs { kOut, kMask };
enum LeakyReLUOpType { kLeakyReLU, kPReLU, kRReLU, kELU, kSELU, kGELU };
// SELU constants (Klambauer et al., 2017).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluLambda = 1.0507009873554804934193349852946;
}  // namespace leakyrelu

struct LeakyReLUParam : public dmlc::Parameter<LeakyReLUParam> {
  int act_type;
  float slope;
  float lower_bound;
  float upper_bound;
  DMLC_DECLARE_PARAMETER(LeakyReLUParam) {
    DMLC_DECLARE_FIELD(act_type)
        .set_default(leakyrelu::kLeakyReLU)
        .add_enum("rrelu", leakyrelu::kRReLU)
        .add_enum("leaky", leakyrelu::kLeakyReLU)
        .add_enum("prelu", leakyrelu::kPReLU)
        .add_enum("elu", leakyrelu::kELU)
        .add_enum("selu", leakyrelu::kSELU)
        .add_enum("gelu", leakyrelu::kGELU)
        .describe("Activation function to be applied.");
    DMLC_DECLARE_FIELD(slope).set_default(0.25f).describe(
        "Init slope for the activation. (For leaky and elu only)");
    DMLC_DECLARE_FIELD(lower_bound).set_default(0.125f).describe(
        "Lower bound of random slope. (For rrelu only)");
    DMLC_DECLARE_FIELD(upper_bound).set_default(0.334f).describe(
        "Upper bound of random slope. (For rrelu only)");
  }
};

inline bool IsPReLU(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<LeakyReLUParam>(attrs.parsed).act_type == leakyrelu::kPReLU;
}
inline bool IsRReLU(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<LeakyReLUParam>(attrs.parsed).act_type == leakyrelu::kRReLU;
}

/*!
 * \brief gamma's shape aligned to the data's ndim (MXNet's prelu broadcasting): gamma's last
 *        axis goes to data axis 1 (or 0 for 1-D data), earlier ones to axis 0; other axes 1.
 */
inline mxnet::TShape PReLUGammaShape(const mxnet::TShape& gamma, const mxnet::TShape& data) {
  mxnet::TShape result(data.ndim(), 1);
  int s = gamma.ndim() - 1;
  for (int i = data.ndim() - 1; i >= 0; --i) {
    if (s >= 0 && i <= 1 && (data[i] == gamma[s] || gamma[s] == 1)) {
      result[i] = gamma[s];
      --s;
    }
  }
  if (s != -1) {
    MX_THROW(ValueError) << "LeakyReLU(prelu): gamma of shape " << gamma
                         << " cannot be broadcast to data of shape " << data
                         << " (expected (1,), (channels,) = ("
                         << (data.ndim() > 1 ? data[1] : data[0]) << ",) or (batch, channels))";
  }
  return result;
}

inline bool LeakyReLUShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                           mxnet::ShapeVector* out_shape) {
  const bool prelu = IsPReLU(attrs);
  CHECK_EQ(in_shape->size(), prelu ? 2U : 1U) << "LeakyReLU: input count (a bug)";
  if (!ndim_is_known((*in_shape)[0]) && ndim_is_known((*out_shape)[0])) {
    SHAPE_ASSIGN_CHECK(*in_shape, 0, (*out_shape)[0]);
  }
  const mxnet::TShape dshape = (*in_shape)[0];
  if (!ndim_is_known(dshape)) return false;
  if (prelu) {
    if (dshape.ndim() == 0) {
      MX_THROW(ValueError) << "LeakyReLU(prelu): expected data with at least 1 dimension";
    }
    if (!ndim_is_known((*in_shape)[1])) {
      const int channels = dshape.ndim() > 1 ? dshape[1] : dshape[0];
      SHAPE_ASSIGN_CHECK(*in_shape, 1, mxnet::TShape(1, channels));
    }
    if (shape_is_known(dshape) && shape_is_known((*in_shape)[1])) {
      PReLUGammaShape((*in_shape)[1], dshape);  // throws a ValueError when it does not fit
    }
  }
  for (size_t i = 0; i < out_shape->size(); ++i) SHAPE_ASSIGN_CHECK(*out_shape, i, dshape);
  return shape_is_known(dshape);
}

inline bool LeakyReLUType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                          std::vector<int>* out_type) {
  const int dtype = (*in_type)[0] >= 0 ? (*in_type)[0] : (*out_type)[0];
  if (dtype < 0) return false;
  if (!mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << "LeakyReLU: expected floating-point data "
                           "(float16, bfloat16, float32 or float64), got "
                        << mshadow::dtype_string(dtype);
  }
  for (size_t i = 0; i < in_type->size(); ++i) TYPE_ASSIGN_CHECK(*in_type, i, dtype);
  for (size_t i = 0; i < out_type->size(); ++i) TYPE_ASSIGN_CHECK(*out_type, i, dtype);
  return true;
}

/*!
 * \brief The element-wise forms (everything but prelu and rrelu) and their derivatives, for
 *        both devices (leaky_relu.cu calls them in its kernels).
 */
MSHADOW_XINLINE double LeakyForward(int act, double x, double slope) {
  switch (act) {
    case leakyrelu::kLeakyReLU: return x > 0 ? x : slope * x;
    case leakyrelu::kELU: return x > 0 ? x : slope * ::expm1(x);
    case leakyrelu::kSELU:
      return leakyrelu::kSeluLambda * (x > 0 ? x : leakyrelu::kSeluAlpha * ::expm1(x));
    case leakyrelu::kGELU: return 0.5 * x * (1.0 + ::erf(x * M_SQRT1_2));
  }
  return x;
}

MSHADOW_XINLINE double LeakyDerivative(int act, double x, double slope) {
  switch (act) {
    case leakyrelu::kLeakyReLU: return x > 0 ? 1.0 : slope;
    case leakyrelu::kELU: return x > 0 ? 1.0 : slope * ::exp(x);
    // The true derivative. (MXNet 1.9.1's backward returns lambda * (out + alpha) for x <= 0,
    // which is not the derivative of its forward; the other act_types match it.)
    case leakyrelu::kSELU:
      return leakyrelu::kSeluLambda * (x > 0 ? 1.0 : leakyrelu::kSeluAlpha * ::exp(x));
    case leakyrelu::kGELU: {
      const double cdf = 0.5 * (1.0 + ::erf(x * M_SQRT1_2));
      const double pdf = ::exp(-0.5 * x * x) * 0.3989422804014327;  // 1/sqrt(2 pi)
      return cdf + x * pdf;
    }
  }
  return 1.0;
}

template <typename DType>
void LeakyReLUForwardImpl(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const LeakyReLUParam& param = nnvm::get<LeakyReLUParam>(attrs.parsed);
  const TBlob& data = inputs[leakyrelu::kData];
  const TBlob& out = outputs[leakyrelu::kOut];
  const index_t n = data.Size();
  const OpReqType rq = req[leakyrelu::kOut];
  const DType* x = data.dptr<DType>();
  DType* y = out.dptr<DType>();
  switch (param.act_type) {
    case leakyrelu::kPReLU: {
      if (rq == kNullOp) break;
      const TBlob& gamma = inputs[leakyrelu::kGamma];
      const mxnet::TShape gshape = PReLUGammaShape(gamma.shape_, data.shape_);
      const std::vector<index_t> stride = BroadcastStrides(gshape);
      const DType* g = gamma.dptr<DType>();
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
      for (index_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(x[i]);
        const double a = static_cast<double>(g[BroadcastIndex(i, data.shape_, stride)]);
        KERNEL_ASSIGN(y[i], rq, DType(v > 0 ? v : a * v));
      }
      break;
    }
    case leakyrelu::kRReLU: {
      DType* mask = outputs[leakyrelu::kMask].dptr<DType>();
      if (ctx.is_train) {
        const float lo = param.lower_bound, hi = param.upper_bound;
        ParallelSample<float>(ctx.requested[0], n, [&](auto* rng, index_t i) {
          mask[i] = DType(lo + (hi - lo) * rng->uniform());
        });
      } else {
        const DType mean((param.lower_bound + param.upper_bound) / 2.0f);
        for (index_t i = 0; i < n; ++i) mask[i] = mean;
      }
      if (rq == kNullOp) break;
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
      for (index_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(x[i]);
        KERNEL_ASSIGN(y[i], rq, DType(v > 0 ? v : static_cast<double>(mask[i]) * v));
      }
      break;
    }
    default: {
      if (rq == kNullOp) break;
      const int act = param.act_type;
      const double slope = param.slope;
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold / 4)
      for (index_t i = 0; i < n; ++i) {
        KERNEL_ASSIGN(y[i], rq, DType(LeakyForward(act, static_cast<double>(x[i]), slope)));
      }
    }
  }
}

template <typename xpu>
void LeakyReLUCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LeakyReLUForwardImpl<DType>(attrs, ctx, inputs, req, outputs);
  });
}

/*!
 * \brief inputs: out_grad, data, output[, gamma | mask]; outputs: data_grad[, gamma_grad].
 *        gamma_grad = sum of out_grad * min(x, 0) over the axes gamma is broadcast along.
 */
template <typename DType>
void LeakyReLUBackwardImpl(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const LeakyReLUParam& param = nnvm::get<LeakyReLUParam>(attrs.parsed);
  const TBlob& ograd = inputs[0];
  const TBlob& data = inputs[1];
  const index_t n = data.Size();
  const OpReqType rq = req[0];
  const DType* og = ograd.dptr<DType>();
  const DType* x = data.dptr<DType>();
  DType* dx = outputs[0].dptr<DType>();
  switch (param.act_type) {
    case leakyrelu::kPReLU: {
      const TBlob& gamma = inputs[3];
      const mxnet::TShape gshape = PReLUGammaShape(gamma.shape_, data.shape_);
      const std::vector<index_t> stride = BroadcastStrides(gshape);
      const DType* g = gamma.dptr<DType>();
      if (req[1] != kNullOp) {
        // gamma_grad first: with an in-place backward dx overwrites og. Per-thread partial
        // sums of gamma's size (small: one value per channel), added in thread order.
        const index_t gsize = gamma.Size();
        const int nthreads = n >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
        std::vector<double> part(gsize * nthreads, 0.0);
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
        for (index_t i = 0; i < n; ++i) {
#if MXNET_USE_OPENMP
          double* acc = &part[gsize * omp_get_thread_num()];
#else
          double* acc = &part[0];
#endif
          const double v = static_cast<double>(x[i]);
          if (v <= 0) acc[BroadcastIndex(i, data.shape_, stride)] += static_cast<double>(og[i]) * v;
        }
        std::vector<double> acc(gsize, 0.0);
        for (int t = 0; t < nthreads; ++t) {
          for (index_t k = 0; k < gsize; ++k) acc[k] += part[gsize * t + k];
        }
        DType* dg = outputs[1].dptr<DType>();
        for (size_t k = 0; k < acc.size(); ++k) KERNEL_ASSIGN(dg[k], req[1], DType(acc[k]));
      }
      if (rq != kNullOp) {
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
        for (index_t i = 0; i < n; ++i) {
          const double a = static_cast<double>(g[BroadcastIndex(i, data.shape_, stride)]);
          const double d = static_cast<double>(x[i]) > 0 ? 1.0 : a;
          KERNEL_ASSIGN(dx[i], rq, DType(static_cast<double>(og[i]) * d));
        }
      }
      break;
    }
    case leakyrelu::kRReLU: {
      if (rq == kNullOp) break;
      const DType* mask = inputs[3].dptr<DType>();
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
      for (index_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(x[i]) > 0 ? 1.0 : static_cast<double>(mask[i]);
        KERNEL_ASSIGN(dx[i], rq, DType(static_cast<double>(og[i]) * d));
      }
      break;
    }
    default: {
      if (rq == kNullOp) break;
      const int act = param.act_type;
      const double slope = param.slope;
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold / 4)
      for (index_t i = 0; i < n; ++i) {
        const double d = LeakyDerivative(act, static_cast<double>(x[i]), slope);
        KERNEL_ASSIGN(dx[i], rq, DType(static_cast<double>(og[i]) * d));
      }
    }
  }
}

template <typename xpu>
void LeakyReLUGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LeakyReLUBackwardImpl<DType>(attrs, ctx, inputs, req, outputs);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_LEAKY_RELU_INL_H_
