/*!
 * \file multisample_op.cc
 * \brief _sample_<dist>: samplers whose parameters are arrays. Each parameter array has the
 *        same shape P; the output has shape P + `shape`: for every parameter position, prod(shape)
 *        draws of the distribution with those parameters.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./sample_op-inl.h"

namespace mxnet {
namespace op {

struct MultiSampleParam : public dmlc::Parameter<MultiSampleParam> {
  mxnet::TShape shape;
  int dtype;
  DMLC_DECLARE_PARAMETER(MultiSampleParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape(0, 1))
        .describe("Shape to be sampled from each random distribution.");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("None", -1)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .add_enum("float16", mshadow::kFloat16)
        .set_default(-1)
        .describe("DType of the output in case this can't be inferred. "
                  "Defaults to float32 if not defined (dtype=None).");
  }
};

DMLC_REGISTER_PARAMETER(MultiSampleParam);

namespace {

bool MultiSampleShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                      mxnet::ShapeVector* out_attrs) {
  const MultiSampleParam& param = nnvm::get<MultiSampleParam>(attrs.parsed);
  CHECK_GT(in_attrs->size(), 0U);
  // All parameter arrays share one shape.
  mxnet::TShape pshape;
  for (size_t i = 0; i < in_attrs->size(); ++i) {
    const mxnet::TShape& s = (*in_attrs)[i];
    if (!ndim_is_known(s)) continue;
    if (!ndim_is_known(pshape)) {
      pshape = s;
    } else if (s != pshape) {
      MX_THROW(ValueError) << attrs.op->name << ": expected all parameter arrays to have the "
                           << "same shape, got " << pshape << " and " << s;
    }
  }
  if (!ndim_is_known(pshape)) return false;
  for (size_t i = 0; i < in_attrs->size(); ++i) SHAPE_ASSIGN_CHECK(*in_attrs, i, pshape);
  const int extra = ndim_is_known(param.shape) ? param.shape.ndim() : 0;
  mxnet::TShape oshape(pshape.ndim() + extra, -1);
  for (int i = 0; i < pshape.ndim(); ++i) oshape[i] = pshape[i];
  for (int i = 0; i < extra; ++i) oshape[pshape.ndim() + i] = param.shape[i];
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, oshape);
  return shape_is_known(oshape);
}

bool MultiSampleType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                     std::vector<int>* out_attrs) {
  const MultiSampleParam& param = nnvm::get<MultiSampleParam>(attrs.parsed);
  int itype = -1;
  for (int t : *in_attrs) {
    if (t < 0) continue;
    if (itype >= 0 && t != itype) {
      MX_THROW(TypeError) << attrs.op->name << ": expected all parameter arrays to have the "
                          << "same dtype, got " << mshadow::dtype_string(itype) << " and "
                          << mshadow::dtype_string(t);
    }
    itype = t;
  }
  if (itype < 0) return false;
  for (size_t i = 0; i < in_attrs->size(); ++i) TYPE_ASSIGN_CHECK(*in_attrs, i, itype);
  int otype = param.dtype;
  if (otype < 0) otype = (*out_attrs)[0] >= 0 ? (*out_attrs)[0] : mshadow::kFloat32;
  TYPE_ASSIGN_CHECK(*out_attrs, 0, otype);
  return true;
}

/*! \brief Parameter array i as doubles. */
std::vector<double> ParamValues(const TBlob& b) {
  std::vector<double> v(b.Size());
  MSHADOW_TYPE_SWITCH(b.type_flag_, PType, {
    const PType* p = b.dptr<PType>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(p[i]);
  });
  return v;
}

template <typename Dist>
void MultiSampleCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& out = outputs[0];
  const index_t nparam = inputs[0].Size();
  if (nparam == 0 || out.Size() == 0) return;
  const index_t each = out.Size() / nparam;
  const std::vector<double> a = ParamValues(inputs[0]);
  const std::vector<double> b = inputs.size() > 1 ? ParamValues(inputs[1])
                                                  : std::vector<double>(nparam, 0.0);
  for (index_t j = 0; j < nparam; ++j) Dist::Check(attrs.op->name.c_str(), a[j], b[j]);
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    typedef typename std::conditional<std::is_same<DType, double>::value, double, float>::type
        AType;
    DType* dst = out.dptr<DType>();
    ParallelSample<AType>(ctx.requested[0], out.Size(), [&](auto* rng, index_t i) {
      const index_t j = i / each;
      dst[i] = DType(Dist::Draw(rng, a[j], b[j]));
    });
  });
}

std::vector<ResourceRequest> ParallelRandomResource(const NodeAttrs&) {
  return {ResourceRequest::kParallelRandom};
}

}  // namespace

#define MXNET_REGISTER_MULTISAMPLE(name, Dist, nin, in1, in1_doc, in2, in2_doc, doc)      \
  NNVM_REGISTER_OP(name)                                                                \
  .add_alias(#name + 1)                                                                 \
  .describe(doc ADD_FILELINE)                                                           \
  .set_num_inputs(nin)                                                                  \
  .set_num_outputs(1)                                                                   \
  .set_attr_parser(ParamParser<MultiSampleParam>)                                       \
  .set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {      \
    std::vector<std::string> names{in1, in2};                                           \
    names.resize(nin);                                                                  \
    return names;                                                                       \
  })                                                                                    \
  .set_attr<mxnet::FInferShape>("FInferShape", MultiSampleShape)                        \
  .set_attr<nnvm::FInferType>("FInferType", MultiSampleType)                            \
  .set_attr<FResourceRequest>("FResourceRequest", ParallelRandomResource)               \
  .set_attr<FCompute>("FCompute<cpu>", MultiSampleCompute<Dist>)                        \
  .set_attr<bool>("TNonDifferentiable", true)                                           \
  .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)                            \
  .add_argument(in1, "NDArray-or-Symbol", in1_doc)

#define MXNET_MULTISAMPLE_DOC(dist, params)                                             \
  "Concurrent sampling from multiple " dist " distributions with parameters " params    \
  ".\n\nThe parameters of the distributions are provided as input arrays.\n"            \
  "Let *[s]* be the shape of the input arrays, *n* be the dimension of *[s]*, *[t]*\n"  \
  "be the shape specified as the parameter of the operator, and *m* be the dimension\n" \
  "of *[t]*. Then the output will be a *(n+m)*-dimensional array with shape *[s]x[t]*.\n" \
  "\nFor any valid *n*-dimensional index *i* with respect to the input arrays,\n"       \
  "*output[i]* will be an *m*-dimensional array that holds randomly drawn samples from\n" \
  "the distribution which is parameterized by the input values at index *i*. If the\n"  \
  "shape parameter of the operator is not set, then one sample will be drawn per\n"     \
  "distribution and the output array has the same shape as the input arrays.\n"

MXNET_REGISTER_MULTISAMPLE(_sample_uniform, UniformDist, 2, "low",
                           "Lower bounds of the distributions.", "high",
                           "Upper bounds of the distributions.",
                           MXNET_MULTISAMPLE_DOC("uniform", "*low* (lower bound) and *high* "
                                                 "(upper bound)"))
.add_argument("high", "NDArray-or-Symbol", "Upper bounds of the distributions.")
.add_arguments(MultiSampleParam::__FIELDS__());

MXNET_REGISTER_MULTISAMPLE(_sample_normal, NormalDist, 2, "mu",
                           "Means of the distributions.", "sigma",
                           "Standard deviations of the distributions.",
                           MXNET_MULTISAMPLE_DOC("normal", "*mu* (mean) and *sigma* (standard "
                                                 "deviation)"))
.add_argument("sigma", "NDArray-or-Symbol", "Standard deviations of the distributions.")
.add_arguments(MultiSampleParam::__FIELDS__());

MXNET_REGISTER_MULTISAMPLE(_sample_gamma, GammaDist, 2, "alpha",
                           "Alpha (shape) parameters of the distributions.", "beta",
                           "Beta (scale) parameters of the distributions.",
                           MXNET_MULTISAMPLE_DOC("gamma", "*alpha* (shape) and *beta* (scale)"))
.add_argument("beta", "NDArray-or-Symbol", "Beta (scale) parameters of the distributions.")
.add_arguments(MultiSampleParam::__FIELDS__());

MXNET_REGISTER_MULTISAMPLE(_sample_exponential, ExponentialDist, 1, "lam",
                           "Lambda (rate) parameters of the distributions.", "", "",
                           MXNET_MULTISAMPLE_DOC("exponential", "*lambda* (rate)"))
.add_arguments(MultiSampleParam::__FIELDS__());

MXNET_REGISTER_MULTISAMPLE(_sample_poisson, PoissonDist, 1, "lam",
                           "Lambda (rate) parameters of the distributions.", "", "",
                           MXNET_MULTISAMPLE_DOC("Poisson", "*lambda* (rate)"))
.add_arguments(MultiSampleParam::__FIELDS__());

MXNET_REGISTER_MULTISAMPLE(_sample_negative_binomial, NegBinomialDist, 2, "k",
                           "Limits of unsuccessful experiments.", "p",
                           "Failure probabilities in each experiment.",
                           MXNET_MULTISAMPLE_DOC("negative binomial", "*k* (failure limit) and "
                                                 "*p* (failure probability)"))
.add_argument("p", "NDArray-or-Symbol", "Failure probabilities in each experiment.")
.add_arguments(MultiSampleParam::__FIELDS__());

MXNET_REGISTER_MULTISAMPLE(_sample_generalized_negative_binomial, GenNegBinomialDist, 2, "mu",
                           "Means of the distributions.", "alpha",
                           "Alpha (dispersion) parameters of the distributions.",
                           MXNET_MULTISAMPLE_DOC("generalized negative binomial", "*mu* (mean) "
                                                 "and *alpha* (dispersion)"))
.add_argument("alpha", "NDArray-or-Symbol", "Alpha (dispersion) parameters of the distributions.")
.add_arguments(MultiSampleParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
