/*!
 * \file pdf_op.cc
 * \brief _random_pdf_* (aliases random_pdf_*): densities (or log-densities with is_log) of
 *        samples under parameterized distributions, with gradients w.r.t. the samples and the
 *        parameters (as MXNet 1.9.1: discrete distributions give the samples gradient 0).
 *
 *        Shapes: the parameters all have one shape P; the sample has shape P + S (S samples per
 *        parameter set) and so has the output. Dirichlet: alpha is P + (K,), the sample
 *        P + S + (K,), the output P + S.
 *
 *        Parameterizations follow MXNet 1.9.1: gamma's beta is a rate (density
 *        b^a x^(a-1) e^(-b x) / Gamma(a)); negative_binomial(k, p) counts failures before the
 *        k-th success with success probability p; generalized_negative_binomial(mu, alpha) is
 *        the negative binomial with mean mu and dispersion alpha (poisson when alpha = 0);
 *        uniform's density is 1/(high-low) without a support check, like 1.9.1.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

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
DMLC_REGISTER_PARAMETER(PdfParam);

namespace {

/*! \brief The digamma function psi(x) = d/dx log Gamma(x) (recurrence + asymptotic series). */
double Digamma(double x) {
  if (x <= 0 && x == std::floor(x)) return std::nan("");
  if (x < 0) return Digamma(1 - x) - M_PI / std::tan(M_PI * x);  // reflection
  double result = 0;
  while (x < 6) {
    result -= 1 / x;
    x += 1;
  }
  const double f = 1 / (x * x);
  return result + std::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

// Each distribution: log-density and its gradient w.r.t. the sample and every parameter.
struct Uniform {
  static constexpr int kParams = 2;
  static double LogPdf(double x, const double* p) { return -std::log(p[1] - p[0]); }
  static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = 0;
    dp[0] = 1 / (p[1] - p[0]);
    dp[1] = -1 / (p[1] - p[0]);
  }
};

struct Normal {
  static constexpr int kParams = 2;
  static double LogPdf(double x, const double* p) {
    const double z = (x - p[0]) / p[1];
    return -0.5 * z * z - std::log(p[1]) - 0.5 * std::log(2 * M_PI);
  }
  static void Grad(double x, const double* p, double* dx, double* dp) {
    const double z = (x - p[0]) / p[1];
    *dx = -z / p[1];
    dp[0] = z / p[1];
    dp[1] = (z * z - 1) / p[1];
  }
};

struct Gamma {  // alpha (shape), beta (rate, as MXNet 1.9.1 computes it)
  static constexpr int kParams = 2;
  static double LogPdf(double x, const double* p) {
    return p[0] * std::log(p[1]) + (p[0] - 1) * std::log(x) - p[1] * x - std::lgamma(p[0]);
  }
  static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = (p[0] - 1) / x - p[1];
    dp[0] = std::log(p[1]) + std::log(x) - Digamma(p[0]);
    dp[1] = p[0] / p[1] - x;
  }
};

struct Exponential {
  static constexpr int kParams = 1;
  static double LogPdf(double x, const double* p) { return std::log(p[0]) - p[0] * x; }
  static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = -p[0];
    dp[0] = 1 / p[0] - x;
  }
};

struct Poisson {
  static constexpr int kParams = 1;
  static double LogPdf(double x, const double* p) {
    return x * std::log(p[0]) - std::lgamma(x + 1) - p[0];
  }
  static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = 0;
    dp[0] = x / p[0] - 1;
  }
};

struct NegativeBinomial {  // k (successes), p (success probability)
  static constexpr int kParams = 2;
  static double LogPdf(double x, const double* p) {
    return std::lgamma(x + p[0]) - std::lgamma(x + 1) - std::lgamma(p[0]) +
           p[0] * std::log(p[1]) + x * std::log1p(-p[1]);
  }
  static void Grad(double x, const double* p, double* dx, double* dp) {
    *dx = 0;
    dp[0] = Digamma(x + p[0]) - Digamma(p[0]) + std::log(p[1]);
    dp[1] = p[0] / p[1] - x / (1 - p[1]);
  }
};

struct GeneralizedNegativeBinomial {  // mu (mean), alpha (dispersion)
  static constexpr int kParams = 2;
  static double LogPdf(double x, const double* p) {
    const double mu = p[0], alpha = p[1];
    if (alpha == 0) return Poisson::LogPdf(x, p);
    const double k = 1 / alpha, am = alpha * mu;
    return std::lgamma(x + k) - std::lgamma(x + 1) - std::lgamma(k) - k * std::log1p(am) +
           x * (std::log(am) - std::log1p(am));
  }
  static void Grad(double x, const double* p, double* dx, double* dp) {
    const double mu = p[0], alpha = p[1];
    *dx = 0;
    if (alpha == 0) {
      Poisson::Grad(x, p, dx, dp);
      dp[1] = 0;
      return;
    }
    // With k = 1/alpha and success probability q = 1/(1 + alpha mu).
    const double k = 1 / alpha, q = 1 / (1 + alpha * mu);
    const double dk = Digamma(x + k) - Digamma(k) + std::log(q);
    const double dq = k / q - x / (1 - q);
    dp[0] = dq * (-alpha * q * q);
    dp[1] = dk * (-k * k) + dq * (-mu * q * q);
  }
};

// ---- element-wise distributions ------------------------------------------------------------

/*! \brief Number of samples per parameter set: sample.Size() / param.Size(). */
index_t SamplesPerParam(const TBlob& sample, const TBlob& param) {
  return param.Size() == 0 ? 0 : static_cast<index_t>(sample.Size() / param.Size());
}

template <typename Dist>
void PdfCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  if (req[0] == kNullOp) return;
  const index_t per = SamplesPerParam(inputs[0], inputs[1]);
  const index_t nparam = inputs[1].Size();
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* x = inputs[0].dptr<DType>();
    DType* out = outputs[0].dptr<DType>();
    for (index_t i = 0; i < nparam; ++i) {
      double p[Dist::kParams];
      for (int j = 0; j < Dist::kParams; ++j) p[j] = static_cast<double>(inputs[1 + j].dptr<DType>()[i]);
      for (index_t s = 0; s < per; ++s) {
        const double lp = Dist::LogPdf(static_cast<double>(x[i * per + s]), p);
        const double v = is_log ? lp : std::exp(lp);
        DType* dst = out + i * per + s;
        *dst = req[0] == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v)
                                : static_cast<DType>(v);
      }
    }
  });
}

// inputs: out_grad, sample, params..., output; outputs: sample_grad, param_grads...
template <typename Dist>
void PdfGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  const TBlob& sample = inputs[1];
  const TBlob& out = inputs[2 + Dist::kParams];
  const index_t per = SamplesPerParam(sample, inputs[2]);
  const index_t nparam = inputs[2].Size();
  MSHADOW_REAL_TYPE_SWITCH(sample.type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* x = sample.dptr<DType>();
    const DType* y = out.dptr<DType>();
    for (index_t i = 0; i < nparam; ++i) {
      double p[Dist::kParams], gp_sum[Dist::kParams] = {0};
      for (int j = 0; j < Dist::kParams; ++j) p[j] = static_cast<double>(inputs[2 + j].dptr<DType>()[i]);
      for (index_t s = 0; s < per; ++s) {
        const index_t at = i * per + s;
        // d out = out_grad * (is_log ? 1 : pdf) * d log pdf.
        const double g = static_cast<double>(og[at]) * (is_log ? 1.0 : static_cast<double>(y[at]));
        double dx, dp[Dist::kParams];
        Dist::Grad(static_cast<double>(x[at]), p, &dx, dp);
        for (int j = 0; j < Dist::kParams; ++j) gp_sum[j] += g * dp[j];
        if (req[0] != kNullOp) {
          DType* dst = outputs[0].dptr<DType>() + at;
          *dst = req[0] == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + g * dx)
                                  : static_cast<DType>(g * dx);
        }
      }
      for (int j = 0; j < Dist::kParams; ++j) {
        if (req[1 + j] == kNullOp) continue;
        DType* dst = outputs[1 + j].dptr<DType>() + i;
        *dst = req[1 + j] == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + gp_sum[j])
                                    : static_cast<DType>(gp_sum[j]);
      }
    }
  });
}

/*! \brief Shapes: params equal (P), sample P + S; out = sample. `vector_dim`: dirichlet. */
bool PdfShape(const char* op, bool vector_dim, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const TShape& s = (*in)[0];
  for (size_t j = 2; j < in->size(); ++j) {
    if (shape_is_known((*in)[1]) && shape_is_known((*in)[j]) && (*in)[j] != (*in)[1]) {
      MX_THROW(ValueError) << op << ": all parameters must have the same shape, got "
                           << (*in)[1] << " and " << (*in)[j];
    }
  }
  const TShape& p = (*in)[1];
  if (!shape_is_known(s) || !shape_is_known(p)) return false;
  const int pd = p.ndim() - (vector_dim ? 1 : 0);  // the leading P dims
  bool ok = s.ndim() >= p.ndim();
  for (int i = 0; ok && i < pd; ++i) ok = s[i] == p[i];
  if (ok && vector_dim) ok = p.ndim() >= 1 && s[s.ndim() - 1] == p[p.ndim() - 1];
  if (!ok) {
    MX_THROW(ValueError) << op << ": the sample shape " << s << " must start with the parameter "
                         << "shape " << (vector_dim ? "(without its last axis) " : "") << p
                         << (vector_dim ? " and end with the number of categories" : "");
  }
  if (vector_dim) {
    SHAPE_ASSIGN_CHECK(*out, 0, TShape(s.begin(), s.end() - 1));
  } else {
    SHAPE_ASSIGN_CHECK(*out, 0, s);
  }
  return true;
}

bool PdfType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  int t = -1;
  for (int v : *in) if (v >= 0) t = v;
  if (t < 0) return false;
  for (size_t i = 0; i < in->size(); ++i) TYPE_ASSIGN_CHECK(*in, i, t);
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

// ---- dirichlet -----------------------------------------------------------------------------

void DirichletCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  if (req[0] == kNullOp) return;
  const TShape& as = inputs[1].shape_;
  const index_t K = as[as.ndim() - 1];
  const index_t nparam = K == 0 ? 0 : inputs[1].Size() / K;
  const index_t per = nparam == 0 ? 0 : outputs[0].Size() / nparam;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* x = inputs[0].dptr<DType>();
    const DType* a = inputs[1].dptr<DType>();
    DType* out = outputs[0].dptr<DType>();
    for (index_t i = 0; i < nparam; ++i) {
      double asum = 0, norm = 0;
      for (index_t k = 0; k < K; ++k) {
        asum += static_cast<double>(a[i * K + k]);
        norm -= std::lgamma(static_cast<double>(a[i * K + k]));
      }
      norm += std::lgamma(asum);
      for (index_t s = 0; s < per; ++s) {
        double lp = norm;
        for (index_t k = 0; k < K; ++k) {
          lp += (static_cast<double>(a[i * K + k]) - 1) *
                std::log(static_cast<double>(x[(i * per + s) * K + k]));
        }
        const double v = is_log ? lp : std::exp(lp);
        DType* dst = out + i * per + s;
        *dst = req[0] == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v)
                                : static_cast<DType>(v);
      }
    }
  });
}

// inputs: out_grad, sample, alpha, output; outputs: sample_grad, alpha_grad.
void DirichletGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const bool is_log = nnvm::get<PdfParam>(attrs.parsed).is_log;
  const TShape& as = inputs[2].shape_;
  const index_t K = as[as.ndim() - 1];
  const index_t nparam = K == 0 ? 0 : inputs[2].Size() / K;
  const index_t per = nparam == 0 ? 0 : inputs[3].Size() / nparam;
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* x = inputs[1].dptr<DType>();
    const DType* a = inputs[2].dptr<DType>();
    const DType* y = inputs[3].dptr<DType>();
    DType* gx = outputs[0].dptr<DType>();
    DType* ga = outputs[1].dptr<DType>();
    for (index_t i = 0; i < nparam; ++i) {
      double asum = 0;
      for (index_t k = 0; k < K; ++k) asum += static_cast<double>(a[i * K + k]);
      const double psi_sum = Digamma(asum);
      std::vector<double> ga_sum(K, 0.0);
      for (index_t s = 0; s < per; ++s) {
        const index_t at = i * per + s;
        const double g = static_cast<double>(og[at]) * (is_log ? 1.0 : static_cast<double>(y[at]));
        for (index_t k = 0; k < K; ++k) {
          const double ak = static_cast<double>(a[i * K + k]);
          const double xk = static_cast<double>(x[at * K + k]);
          ga_sum[k] += g * (psi_sum - Digamma(ak) + std::log(xk));
          if (req[0] != kNullOp) {
            DType* dst = gx + at * K + k;
            const double v = g * (ak - 1) / xk;
            *dst = req[0] == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v)
                                    : static_cast<DType>(v);
          }
        }
      }
      if (req[1] == kNullOp) continue;
      for (index_t k = 0; k < K; ++k) {
        DType* dst = ga + i * K + k;
        *dst = req[1] == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + ga_sum[k])
                                : static_cast<DType>(ga_sum[k]);
      }
    }
  });
}

nnvm::FGradient PdfGradient(const char* backward_op) {
  return [backward_op](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    heads.insert(heads.end(), n->inputs.begin(), n->inputs.end());
    heads.emplace_back(n, 0, 0);
    return MakeGradNode(backward_op, n, heads, n->attrs.dict);
  };
}

}  // namespace

#define MXNET_REGISTER_PDF_OP(dist, Dist, vector_dim, compute, grad_compute, names, doc)      \
  NNVM_REGISTER_OP(_random_pdf_##dist)                                                       \
  .add_alias("random_pdf_" #dist)                                                            \
  .describe(doc ADD_FILELINE)                                                                \
  .set_num_inputs(1 + Dist::kParams)                                                         \
  .set_num_outputs(1)                                                                        \
  .set_attr_parser(ParamParser<PdfParam>)                                                    \
  .set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {           \
    return std::vector<std::string> names;                                                   \
  })                                                                                         \
  .set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,              \
                                                   mxnet::ShapeVector* in,                   \
                                                   mxnet::ShapeVector* out) {                \
    return PdfShape("random_pdf_" #dist, vector_dim, in, out);                               \
  })                                                                                         \
  .set_attr<nnvm::FInferType>("FInferType", PdfType)                                         \
  .set_attr<FCompute>("FCompute<cpu>", compute)                                              \
  .set_attr<nnvm::FGradient>("FGradient", PdfGradient("_backward_pdf_" #dist))               \
  .add_argument("sample", "NDArray-or-Symbol", "Samples from the distributions.")            \
  .add_arguments(PdfParam::__FIELDS__());                                                    \
  NNVM_REGISTER_OP(_backward_pdf_##dist)                                                     \
  .describe("Backward of random_pdf_" #dist ": (out_grad, sample, params..., output) -> "    \
            "(sample_grad, param_grads...).")                                                \
  .set_num_inputs(3 + Dist::kParams)                                                         \
  .set_num_outputs(1 + Dist::kParams)                                                        \
  .set_attr_parser(ParamParser<PdfParam>)                                                    \
  .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                          \
  .set_attr<FCompute>("FCompute<cpu>", grad_compute)

struct DirichletParams {
  static constexpr int kParams = 1;
};

MXNET_REGISTER_PDF_OP(uniform, Uniform, false, PdfCompute<Uniform>, PdfGradCompute<Uniform>,
                      ({"sample", "low", "high"}),
R"code(Computes the value of the PDF of *sample* of
uniform distributions on the intervals given by *[low,high)*.

*low* and *high* must have the same shape, which must match the leftmost subshape
of *sample*.  That is, *sample* can have the same shape as *low* and *high*, in which
case the output contains one density per distribution, or *sample* can be a tensor
of tensors with that shape, in which case the output is a tensor of densities such that
the densities at index *i* in the output are given by the samples at index *i* in *sample*
parameterized by the values of *low* and *high* at index *i*.

)code");
NNVM_REGISTER_OP(_random_pdf_uniform)
.add_argument("low", "NDArray-or-Symbol", "Lower bounds of the distributions.")
.add_argument("high", "NDArray-or-Symbol", "Upper bounds of the distributions.");

MXNET_REGISTER_PDF_OP(normal, Normal, false, PdfCompute<Normal>, PdfGradCompute<Normal>,
                      ({"sample", "mu", "sigma"}),
R"code(Computes the value of the PDF of *sample* of
normal distributions with parameters *mu* (mean) and *sigma* (standard deviation).

*mu* and *sigma* must have the same shape, which must match the leftmost subshape
of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_normal)
.add_argument("mu", "NDArray-or-Symbol", "Means of the distributions.")
.add_argument("sigma", "NDArray-or-Symbol", "Standard deviations of the distributions.");

MXNET_REGISTER_PDF_OP(gamma, Gamma, false, PdfCompute<Gamma>, PdfGradCompute<Gamma>,
                      ({"sample", "alpha", "beta"}),
R"code(Computes the value of the PDF of *sample* of
gamma distributions with parameters *alpha* (shape) and *beta* (rate).

*alpha* and *beta* must have the same shape, which must match the leftmost subshape
of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_gamma)
.add_argument("alpha", "NDArray-or-Symbol", "Alpha (shape) parameters of the distributions.")
.add_argument("beta", "NDArray-or-Symbol", "Beta (scale) parameters of the distributions.");

MXNET_REGISTER_PDF_OP(exponential, Exponential, false, PdfCompute<Exponential>,
                      PdfGradCompute<Exponential>, ({"sample", "lam"}),
R"code(Computes the value of the PDF of *sample* of
exponential distributions with parameters *lam* (rate).

The shape of *lam* must match the leftmost subshape of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_exponential)
.add_argument("lam", "NDArray-or-Symbol",
              "Lambda (rate) parameters of the distributions.");

MXNET_REGISTER_PDF_OP(poisson, Poisson, false, PdfCompute<Poisson>, PdfGradCompute<Poisson>,
                      ({"sample", "lam"}),
R"code(Computes the value of the PDF of *sample* of
Poisson distributions with parameters *lam* (rate).

The shape of *lam* must match the leftmost subshape of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_poisson)
.add_argument("lam", "NDArray-or-Symbol",
              "Lambda (rate) parameters of the distributions.");

MXNET_REGISTER_PDF_OP(negative_binomial, NegativeBinomial, false, PdfCompute<NegativeBinomial>,
                      PdfGradCompute<NegativeBinomial>, ({"sample", "k", "p"}),
R"code(Computes the value of the PDF of samples of
negative binomial distributions with parameters *k* (failure limit) and *p* (failure probability).

*k* and *p* must have the same shape, which must match the leftmost subshape
of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_negative_binomial)
.add_argument("k", "NDArray-or-Symbol", "Limits of unsuccessful experiments.")
.add_argument("p", "NDArray-or-Symbol", "Failure probabilities in each experiment.");

MXNET_REGISTER_PDF_OP(generalized_negative_binomial, GeneralizedNegativeBinomial, false,
                      PdfCompute<GeneralizedNegativeBinomial>,
                      PdfGradCompute<GeneralizedNegativeBinomial>, ({"sample", "mu", "alpha"}),
R"code(Computes the value of the PDF of *sample* of
generalized negative binomial distributions with parameters *mu* (mean)
and *alpha* (dispersion).  This can be understood as a reparameterization of
the negative binomial, where *k* = *1 / alpha* and *p* = *1 / (mu \* alpha + 1)*.

*mu* and *alpha* must have the same shape, which must match the leftmost subshape
of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_generalized_negative_binomial)
.add_argument("mu", "NDArray-or-Symbol", "Means of the distributions.")
.add_argument("alpha", "NDArray-or-Symbol", "Alpha (dispersion) parameters of the distributions.");

MXNET_REGISTER_PDF_OP(dirichlet, DirichletParams, true, DirichletCompute, DirichletGradCompute,
                      ({"sample", "alpha"}),
R"code(Computes the value of the PDF of *sample* of
Dirichlet distributions with parameter *alpha*.

The shape of *alpha* must match the leftmost subshape of *sample*.  That is, *sample*
can have the same shape as *alpha*, in which case the output contains one density per
distribution, or *sample* can be a tensor of tensors with that shape, in which case
the output is a tensor of densities such that the densities at index *i* in the output
are given by the samples at index *i* in *sample* parameterized by the value of *alpha*
at index *i*.

)code");
NNVM_REGISTER_OP(_random_pdf_dirichlet)
.add_argument("alpha", "NDArray-or-Symbol", "Concentration parameters of the distributions.");

}  // namespace op
}  // namespace mxnet
