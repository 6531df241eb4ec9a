/*!
 * \file pdf_op-inl.h
 * \brief The _random_pdf_* densities and their gradients for both devices. Each distribution
 *        is a log-density and its gradient in double; the forward is one thread per sample,
 *        the backward one thread per parameter set (or per (set, category) for dirichlet),
 *        summing its samples in order, so both devices give the CPU's sums.
 */
#ifndef MXNET_OPERATOR_RANDOM_PDF_OP_INL_H_
#define MXNET_OPERATOR_RANDOM_PDF_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct PdfParam : public dmlc::Parameter<PdfParam> {
  bool is_log;
  DMLC_DECLARE_PARAMETER(PdfParam) {
    DMLC_DECLARE_FIELD(is_log).set_default(false)
        .describe("If set, compute the density of the log-probability instead of the "
                  "probability.");
  }
};

namespace pdf {

constexpr double kPi = 3.14159265358979323846;

/*! \brief psi(x) = d/dx log Gamma(x) for x > 0 (recurrence + asymptotic series). */
MSHADOW_XINLINE double DigammaPositive(double x) {
  double result = 0;
  while (x < 6) {
    result -= 1 / x;
    x += 1;
  }
  const double f = 1 / (x * x);
  return result + ::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

/*! \brief The digamma function (NaN at the poles, reflection below zero). */
MSHADOW_XINLINE double Digamma(double x) {
  if (x <= 0 && x == ::floor(x)) return 0.0 / 0.0;
  if (x < 0) return DigammaPositive(1 - x) - kPi / ::tan(kPi * x);
  return DigammaPositive(x);
}

// Each distribution: log-density and its gradient w.r.t. the sample and every parameter.
struct Uniform {
  static constexpr int kParams = 2;
  MSHADOW_XINLINE static double LogPdf(double x, const double* p) { return -::log(p[1] - p[0]); }
  MSHADOW_XINLINE static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = 0;
    dp[0] = 1 / (p[1] - p[0]);
    dp[1] = -1 / (p[1] - p[0]);
  }
};

struct Normal {
  static constexpr int kParams = 2;
  MSHADOW_XINLINE static double LogPdf(double x, const double* p) {
    const double z = (x - p[0]) / p[1];
    return -0.5 * z * z - ::log(p[1]) - 0.5 * ::log(2 * kPi);
  }
  MSHADOW_XINLINE static void Grad(double x, const double* p, double* dx, double* dp) {
    const double z = (x - p[0]) / p[1];
    *dx = -z / p[1];
    dp[0] = z / p[1];
    dp[1] = (z * z - 1) / p[1];
  }
};

struct Gamma {  // alpha (shape), beta (rate, as MXNet 1.9.1 computes it)
  static constexpr int kParams = 2;
  MSHADOW_XINLINE static double LogPdf(double x, const double* p) {
    return p[0] * ::log(p[1]) + (p[0] - 1) * ::log(x) - p[1] * x - ::lgamma(p[0]);
  }
  MSHADOW_XINLINE static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = (p[0] - 1) / x - p[1];
    dp[0] = ::log(p[1]) + ::log(x) - Digamma(p[0]);
    dp[1] = p[0] / p[1] - x;
  }
};

struct Exponential {
  static constexpr int kParams = 1;
  MSHADOW_XINLINE static double LogPdf(double x, const double* p) {
    return ::log(p[0]) - p[0] * x;
  }
  MSHADOW_XINLINE static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = -p[0];
    dp[0] = 1 / p[0] - x;
  }
};

struct Poisson {
  static constexpr int kParams = 1;
  MSHADOW_XINLINE static double LogPdf(double x, const double* p) {
    return x * ::log(p[0]) - ::lgamma(x + 1) - p[0];
  }
  MSHADOW_XINLINE static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = 0;
    dp[0] = x / p[0] - 1;
  }
};

struct NegativeBinomial {  // k (successes), p (success probability)
  static constexpr int kParams = 2;
  MSHADOW_XINLINE static double LogPdf(double x, const double* p) {
    return ::lgamma(x + p[0]) - ::lgamma(x + 1) - ::lgamma(p[0]) + p[0] * ::log(p[1]) +
           x * ::log1p(-p[1]);
  }
  MSHADOW_XINLINE static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = 0;
    dp[0] = Digamma(x + p[0]) - Digamma(p[0]) + ::log(p[1]);
    dp[1] = p[0] / p[1] - x / (1 - p[1]);
  }
};

struct GeneralizedNegativeBinomial {  // mu (mean), alpha (dispersion)
  static constexpr int kParams = 2;
  MSHADOW_XINLINE static double LogPdf(double x, const double* p) {
    const double mu = p[0], alpha = p[1];
    if (alpha == 0) return Poisson::LogPdf(x, p);
    const double k = 1 / alpha, am = alpha * mu;
    return ::lgamma(x + k) - ::lgamma(x + 1) - ::lgamma(k) - k * ::log1p(am) +
           x * (::log(am) - ::log1p(am));
  }
  MSHADOW_XINLINE static void Grad(double x, const double* p, double* dx, double* dp) {
    const double mu = p[0], alpha = p[1];
    *dx = 0;
    if (alpha == 0) {
      Poisson::Grad(x, p, dx, dp);
      dp[1] = 0;
      return;
    }
    // With k = 1/alpha and success probability q = 1/(1 + alpha mu).
    const double k = 1 / alpha, q = 1 / (1 + alpha * mu);
    const double dk = Digamma(x + k) - Digamma(k) + ::log(q);
    const double dq = k / q - x / (1 - q);
    dp[0] = dq * (-alpha * q * q);
    dp[1] = dk * (-k * k) + dq * (-mu * q * q);
  }
};

/*! \brief Up to two parameter arrays (or their gradients), by value. */
template <typename DType>
struct Params {
  const DType* p[2];
};
template <typename DType>
struct ParamGrads {
  DType* p[2];
};

template <typename DType>
MSHADOW_XINLINE void StoreDouble(DType* dst, int req, double v) {
  *dst = req == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v) : static_cast<DType>(v);
}

/*! \brief out[i] (req) the (log-)density of sample i under parameter set i / per. */
template <typename Dist>
struct density {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* x, Params<DType> ps,
                                  index_t per, bool is_log, int req) {
    const index_t set = i / per;
    double p[Dist::kParams];
    for (int j = 0; j < Dist::kParams; ++j) p[j] = static_cast<double>(ps.p[j][set]);
    const double lp = Dist::LogPdf(static_cast<double>(x[i]), p);
    StoreDouble(out + i, req, is_log ? lp : ::exp(lp));
  }
};

/*! \brief Parameter set i: the sample gradients of its `per` samples and, summed over them in
 *         order, its parameter gradients. */
template <typename Dist>
struct density_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* og, const DType* x, const DType* y,
                                  Params<DType> ps, index_t per, bool is_log, DType* gx,
                                  int req_x, ParamGrads<DType> gps, int req_p0, int req_p1) {
    double p[Dist::kParams], gp_sum[Dist::kParams];
    for (int j = 0; j < Dist::kParams; ++j) {
      p[j] = static_cast<double>(ps.p[j][i]);
      gp_sum[j] = 0;
    }
    for (index_t s = 0; s < per; ++s) {
      const index_t at = i * per + s;
      // d out = out_grad * (is_log ? 1 : pdf) * d log pdf.
      const double g = static_cast<double>(og[at]) * (is_log ? 1.0 : static_cast<double>(y[at]));
      double dx, dp[Dist::kParams];
      Dist::Grad(static_cast<double>(x[at]), p, &dx, dp);
      for (int j = 0; j < Dist::kParams; ++j) gp_sum[j] += g * dp[j];
      if (req_x != kNullOp) StoreDouble(gx + at, req_x, g * dx);
    }
    const int req_p[2] = {req_p0, req_p1};
    for (int j = 0; j < Dist::kParams; ++j) {
      if (req_p[j] != kNullOp) StoreDouble(gps.p[j] + i, req_p[j], gp_sum[j]);
    }
  }
};

/*! \brief Dirichlet: out[i] (req) the (log-)density of sample i (K categories) under alpha
 *         set i / per. */
struct dirichlet_density {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* x, const DType* a,
                                  index_t per, index_t K, bool is_log, int req) {
    const DType* ai = a + (i / per) * K;
    double asum = 0, lp = 0;
    for (index_t k = 0; k < K; ++k) {
      asum += static_cast<double>(ai[k]);
      lp -= ::lgamma(static_cast<double>(ai[k]));
    }
    lp += ::lgamma(asum);
    for (index_t k = 0; k < K; ++k) {
      lp += (static_cast<double>(ai[k]) - 1) * ::log(static_cast<double>(x[i * K + k]));
    }
    StoreDouble(out + i, req, is_log ? lp : ::exp(lp));
  }
};

/*! \brief Dirichlet sample gradient at element (sample at, category k). */
struct dirichlet_sample_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, const DType* og, const DType* x, const DType* a,
                                  const DType* y, index_t per, index_t K, bool is_log,
                                  DType* gx, int req) {
    const index_t at = e / K, k = e % K;
    const double g = static_cast<double>(og[at]) * (is_log ? 1.0 : static_cast<double>(y[at]));
    const double ak = static_cast<double>(a[(at / per) * K + k]);
    StoreDouble(gx + e, req, g * (ak - 1) / static_cast<double>(x[e]));
  }
};

/*! \brief Dirichlet alpha gradient of (set i, category k), summed over the set's samples. */
struct dirichlet_alpha_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, const DType* og, const DType* x, const DType* a,
                                  const DType* y, index_t per, index_t K, bool is_log,
                                  DType* ga, int req) {
    const index_t i = e / K, k = e % K;
    double asum = 0;
    for (index_t c = 0; c < K; ++c) asum += static_cast<double>(a[i * K + c]);
    const double base = Digamma(asum) - Digamma(static_cast<double>(a[e]));
    double sum = 0;
    for (index_t s = 0; s < per; ++s) {
      const index_t at = i * per + s;
      const double g = static_cast<double>(og[at]) * (is_log ? 1.0 : static_cast<double>(y[at]));
      sum += g * (base + ::log(static_cast<double>(x[at * K + k])));
    }
    StoreDouble(ga + e, req, sum);
  }
};

}  // namespace pdf

/*! \brief Number of samples per parameter set: sample.Size() / param.Size(). */
inline index_t PdfSamplesPerParam(const TBlob& sample, const TBlob& param) {
  return param.Size() == 0 ? 0 : static_cast<index_t>(sample.Size() / param.Size());
}

template <typename xpu, typename Dist>
void PdfCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  if (req[0] == kNullOp) return;
  const index_t per = PdfSamplesPerParam(inputs[0], inputs[1]);
  if (per == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    pdf::Params<DType> ps{};
    for (int j = 0; j < Dist::kParams; ++j) ps.p[j] = inputs[1 + j].dptr<DType>();
    mxnet_op::Kernel<pdf::density<Dist>, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), ps, per, is_log, static_cast<int>(req[0]));
  });
}

// inputs: out_grad, sample, params..., output; outputs: sample_grad, param_grads...
template <typename xpu, typename Dist>
void PdfGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  const TBlob& sample = inputs[1];
  const TBlob& out = inputs[2 + Dist::kParams];
  const index_t per = PdfSamplesPerParam(sample, inputs[2]);
  const index_t nparam = inputs[2].Size();
  MSHADOW_REAL_TYPE_SWITCH(sample.type_flag_, DType, {
    pdf::Params<DType> ps{};
    pdf::ParamGrads<DType> gps{};
    int req_p[2] = {kNullOp, kNullOp};
    for (int j = 0; j < Dist::kParams; ++j) {
      ps.p[j] = inputs[2 + j].dptr<DType>();
      gps.p[j] = outputs[1 + j].dptr<DType>();
      req_p[j] = static_cast<int>(req[1 + j]);
    }
    mxnet_op::Kernel<pdf::density_grad<Dist>, xpu>::Launch(
        ctx.get_stream<xpu>(), nparam, inputs[0].dptr<DType>(), sample.dptr<DType>(),
        out.dptr<DType>(), ps, per, is_log, outputs[0].dptr<DType>(), static_cast<int>(req[0]),
        gps, req_p[0], req_p[1]);
  });
}

template <typename xpu>
void DirichletCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  if (req[0] == kNullOp) return;
  const TShape& as = inputs[1].shape_;
  const index_t K = as[as.ndim() - 1];
  const index_t nparam = K == 0 ? 0 : inputs[1].Size() / K;
  const index_t per = nparam == 0 ? 0 : outputs[0].Size() / nparam;
  if (per == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<pdf::dirichlet_density, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), per, K, is_log,
        static_cast<int>(req[0]));
  });
}

// inputs: out_grad, sample, alpha, output; outputs: sample_grad, alpha_grad.
template <typename xpu>
void DirichletGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  const TShape& as = inputs[2].shape_;
  const index_t K = as[as.ndim() - 1];
  const index_t nparam = K == 0 ? 0 : inputs[2].Size() / K;
  const index_t per = nparam == 0 ? 0 : inputs[3].Size() / nparam;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* x = inputs[1].dptr<DType>();
    const DType* a = inputs[2].dptr<DType>();
    const DType* y = inputs[3].dptr<DType>();
    if (req[0] != kNullOp && per > 0) {
      mxnet_op::Kernel<pdf::dirichlet_sample_grad, xpu>::Launch(
          s, inputs[1].Size(), og, x, a, y, per, K, is_log, outputs[0].dptr<DType>(),
          static_cast<int>(req[0]));
    }
    if (req[1] != kNullOp) {
      mxnet_op::Kernel<pdf::dirichlet_alpha_grad, xpu>::Launch(
          s, inputs[2].Size(), og, x, a, y, per, K, is_log, outputs[1].dptr<DType>(),
          static_cast<int>(req[1]));
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_RANDOM_PDF_OP_INL_H_
