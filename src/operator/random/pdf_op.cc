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

#include <string>
#include <vector>

#include "../operator_common.h"
#include "./pdf_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(PdfParam);

namespace {

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

using pdf::Exponential;
using pdf::Gamma;
using pdf::GeneralizedNegativeBinomial;
using pdf::NegativeBinomial;
using pdf::Normal;
using pdf::Poisson;
using pdf::Uniform;

struct DirichletParams {
  static constexpr int kParams = 1;
};

MXNET_REGISTER_PDF_OP(uniform, Uniform, false,
                      (PdfCompute<cpu, Uniform>),
                      (PdfGradCompute<cpu, Uniform>), ({"sample", "low", "high"}),
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

MXNET_REGISTER_PDF_OP(normal, Normal, false,
                      (PdfCompute<cpu, Normal>),
                      (PdfGradCompute<cpu, Normal>), ({"sample", "mu", "sigma"}),
R"code(Computes the value of the PDF of *sample* of
normal distributions with parameters *mu* (mean) and *sigma* (standard deviation).

*mu* and *sigma* must have the same shape, which must match the leftmost subshape
of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_normal)
.add_argument("mu", "NDArray-or-Symbol", "Means of the distributions.")
.add_argument("sigma", "NDArray-or-Symbol", "Standard deviations of the distributions.");

MXNET_REGISTER_PDF_OP(gamma, Gamma, false,
                      (PdfCompute<cpu, Gamma>),
                      (PdfGradCompute<cpu, Gamma>), ({"sample", "alpha", "beta"}),
R"code(Computes the value of the PDF of *sample* of
gamma distributions with parameters *alpha* (shape) and *beta* (rate).

*alpha* and *beta* must have the same shape, which must match the leftmost subshape
of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_gamma)
.add_argument("alpha", "NDArray-or-Symbol", "Alpha (shape) parameters of the distributions.")
.add_argument("beta", "NDArray-or-Symbol", "Beta (scale) parameters of the distributions.");

MXNET_REGISTER_PDF_OP(exponential, Exponential, false,
                      (PdfCompute<cpu, Exponential>),
                      (PdfGradCompute<cpu, Exponential>), ({"sample", "lam"}),
R"code(Computes the value of the PDF of *sample* of
exponential distributions with parameters *lam* (rate).

The shape of *lam* must match the leftmost subshape of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_exponential)
.add_argument("lam", "NDArray-or-Symbol",
              "Lambda (rate) parameters of the distributions.");

MXNET_REGISTER_PDF_OP(poisson, Poisson, false,
                      (PdfCompute<cpu, Poisson>),
                      (PdfGradCompute<cpu, Poisson>), ({"sample", "lam"}),
R"code(Computes the value of the PDF of *sample* of
Poisson distributions with parameters *lam* (rate).

The shape of *lam* must match the leftmost subshape of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_poisson)
.add_argument("lam", "NDArray-or-Symbol",
              "Lambda (rate) parameters of the distributions.");

MXNET_REGISTER_PDF_OP(negative_binomial, NegativeBinomial, false,
                      (PdfCompute<cpu, NegativeBinomial>),
                      (PdfGradCompute<cpu, NegativeBinomial>), ({"sample", "k", "p"}),
R"code(Computes the value of the PDF of samples of
negative binomial distributions with parameters *k* (failure limit) and *p* (failure probability).

*k* and *p* must have the same shape, which must match the leftmost subshape
of *sample*.

)code");
NNVM_REGISTER_OP(_random_pdf_negative_binomial)
.add_argument("k", "NDArray-or-Symbol", "Limits of unsuccessful experiments.")
.add_argument("p", "NDArray-or-Symbol", "Failure probabilities in each experiment.");

MXNET_REGISTER_PDF_OP(generalized_negative_binomial, GeneralizedNegativeBinomial, false,
                      (PdfCompute<cpu, GeneralizedNegativeBinomial>),
                      (PdfGradCompute<cpu, GeneralizedNegativeBinomial>),
                      ({"sample", "mu", "alpha"}),
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

MXNET_REGISTER_PDF_OP(dirichlet, DirichletParams, true, DirichletCompute<cpu>,
                      DirichletGradCompute<cpu>,
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
