/*!
 * \file sample_op-inl.h
 * \brief Random samplers with scalar parameters: _random_<dist> (creation ops: shape, ctx,
 *        dtype), _random_<dist>_like (shape and dtype of an input array), and _random_randint.
 *        Parameter structs, validation (at shape inference, so bad values raise at the call),
 *        inference, and the FCompute that fills the output from the kParallelRandom resource.
 */
#ifndef MXNET_OPERATOR_RANDOM_SAMPLE_OP_INL_H_
#define MXNET_OPERATOR_RANDOM_SAMPLE_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./sampler.h"

namespace mxnet {
namespace op {

// Fields shared by the creation samplers (after the distribution's own fields, as in MXNet).
#define MXNET_RANDOM_SHAPE_CTX_FIELDS                                                        \
  DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape()).describe("Shape of the output.");  \
  DMLC_DECLARE_FIELD(ctx).set_default("").describe(                                         \
      "Context of output, in format [cpu|gpu|cpu_pinned](n)."                               \
      " Only used for imperative calls.");

#define MXNET_RANDOM_FLOAT_DTYPE_FIELD                                                       \
  DMLC_DECLARE_FIELD(dtype)                                                                  \
      .add_enum("None", -1)                                                                  \
      .add_enum("float32", mshadow::kFloat32)                                                \
      .add_enum("float64", mshadow::kFloat64)                                                \
      .add_enum("float16", mshadow::kFloat16)                                                \
      .set_default(-1)                                                                       \
      .describe("DType of the output in case this can't be inferred. "                      \
                "Defaults to float32 if not defined (dtype=None).");

/*! \brief Throw ValueError "<op>: expected <what>, got <v>" unless ok. */
inline void SampleCheck(bool ok, const char* op, const char* what, double v) {
  if (!ok) MX_THROW(ValueError) << op << ": expected " << what << ", got " << v;
}

// ------------------------------------------------------------------------- distributions
// Each has Draw(rng, a, b) and a name for messages; parameters are (a, b) in MXNet's order.
struct UniformDist {
  template <typename Rng>
  MSHADOW_XINLINE static double Draw(Rng* r, double low, double high) {
    return SampleUniform(r, low, high);
  }
  static void Check(const char* op, double low, double high) {
    if (low > high) {
      MX_THROW(ValueError) << op << ": expected low <= high, got low=" << low
                           << ", high=" << high;
    }
  }
};
struct NormalDist {
  template <typename Rng>
  MSHADOW_XINLINE static double Draw(Rng* r, double loc, double scale) {
    return SampleNormal(r, loc, scale);
  }
  static void Check(const char* op, double, double scale) {
    SampleCheck(scale >= 0, op, "scale >= 0", scale);
  }
};
struct GammaDist {
  template <typename Rng>
  MSHADOW_XINLINE static double Draw(Rng* r, double alpha, double beta) {
    return SampleGamma(r, alpha, beta);
  }
  static void Check(const char* op, double alpha, double beta) {
    SampleCheck(alpha > 0, op, "alpha > 0", alpha);
    SampleCheck(beta > 0, op, "beta > 0", beta);
  }
};
struct ExponentialDist {
  template <typename Rng>
  MSHADOW_XINLINE static double Draw(Rng* r, double lam, double) {
    return SampleExponential(r, lam);
  }
  static void Check(const char* op, double lam, double) { SampleCheck(lam > 0, op, "lam > 0", lam); }
};
struct PoissonDist {
  template <typename Rng>
  MSHADOW_XINLINE static double Draw(Rng* r, double lam, double) {
    return SamplePoisson(r, lam);
  }
  static void Check(const char* op, double lam, double) {
    SampleCheck(lam >= 0, op, "lam >= 0", lam);
  }
};
struct NegBinomialDist {
  template <typename Rng>
  MSHADOW_XINLINE static double Draw(Rng* r, double k, double p) {
    return SampleNegativeBinomial(r, k, p);
  }
  static void Check(const char* op, double k, double p) {
    SampleCheck(k > 0, op, "k > 0", k);
    SampleCheck(p > 0 && p <= 1, op, "p in (0, 1]", p);
  }
};
struct GenNegBinomialDist {
  template <typename Rng>
  MSHADOW_XINLINE static double Draw(Rng* r, double mu, double alpha) {
    return SampleGeneralizedNegativeBinomial(r, mu, alpha);
  }
  static void Check(const char* op, double mu, double alpha) {
    SampleCheck(mu >= 0, op, "mu >= 0", mu);
    SampleCheck(alpha >= 0, op, "alpha >= 0", alpha);
  }
};

// ------------------------------------------------------------------------ parameter structs
struct SampleUniformParam : public dmlc::Parameter<SampleUniformParam> {
  float low, high;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleUniformParam) {
    DMLC_DECLARE_FIELD(low).set_default(0.0f).describe("Lower bound of the distribution.");
    DMLC_DECLARE_FIELD(high).set_default(1.0f).describe("Upper bound of the distribution.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    MXNET_RANDOM_FLOAT_DTYPE_FIELD
  }
  std::pair<double, double> Args() const { return {low, high}; }
};

struct SampleNormalParam : public dmlc::Parameter<SampleNormalParam> {
  float loc, scale;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleNormalParam) {
    DMLC_DECLARE_FIELD(loc).set_default(0.0f).describe("Mean of the distribution.");
    DMLC_DECLARE_FIELD(scale).set_default(1.0f).describe("Standard deviation of the distribution.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    MXNET_RANDOM_FLOAT_DTYPE_FIELD
  }
  std::pair<double, double> Args() const { return {loc, scale}; }
};

struct SampleGammaParam : public dmlc::Parameter<SampleGammaParam> {
  float alpha, beta;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleGammaParam) {
    DMLC_DECLARE_FIELD(alpha).set_default(1.0f).describe("Alpha parameter (shape) of the gamma distribution.");
    DMLC_DECLARE_FIELD(beta).set_default(1.0f).describe("Beta parameter (scale) of the gamma distribution.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    MXNET_RANDOM_FLOAT_DTYPE_FIELD
  }
  std::pair<double, double> Args() const { return {alpha, beta}; }
};

struct SampleExponentialParam : public dmlc::Parameter<SampleExponentialParam> {
  float lam;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleExponentialParam) {
    DMLC_DECLARE_FIELD(lam).set_default(1.0f).describe("Lambda parameter (rate) of the exponential distribution.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    MXNET_RANDOM_FLOAT_DTYPE_FIELD
  }
  std::pair<double, double> Args() const { return {lam, 0.0}; }
};

struct SamplePoissonParam : public dmlc::Parameter<SamplePoissonParam> {
  float lam;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SamplePoissonParam) {
    DMLC_DECLARE_FIELD(lam).set_default(1.0f).describe("Lambda parameter (rate) of the Poisson distribution.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    MXNET_RANDOM_FLOAT_DTYPE_FIELD
  }
  std::pair<double, double> Args() const { return {lam, 0.0}; }
};

struct SampleNegBinomialParam : public dmlc::Parameter<SampleNegBinomialParam> {
  int k;
  float p;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleNegBinomialParam) {
    DMLC_DECLARE_FIELD(k).set_default(1).describe("Limit of unsuccessful experiments.");
    DMLC_DECLARE_FIELD(p).set_default(1.0f).describe("Failure probability in each experiment.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    MXNET_RANDOM_FLOAT_DTYPE_FIELD
  }
  std::pair<double, double> Args() const { return {static_cast<double>(k), p}; }
};

struct SampleGenNegBinomialParam : public dmlc::Parameter<SampleGenNegBinomialParam> {
  float mu, alpha;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleGenNegBinomialParam) {
    DMLC_DECLARE_FIELD(mu).set_default(1.0f).describe("Mean of the negative binomial distribution.");
    DMLC_DECLARE_FIELD(alpha).set_default(1.0f).describe("Alpha (dispersion) parameter of the negative binomial distribution.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    MXNET_RANDOM_FLOAT_DTYPE_FIELD
  }
  std::pair<double, double> Args() const { return {mu, alpha}; }
};

struct SampleRandIntParam : public dmlc::Parameter<SampleRandIntParam> {
  int64_t low, high;
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleRandIntParam) {
    DMLC_DECLARE_FIELD(low).describe("Lower bound of the distribution.");
    DMLC_DECLARE_FIELD(high).describe("Upper bound of the distribution.");
    MXNET_RANDOM_SHAPE_CTX_FIELDS
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("None", -1)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int64", mshadow::kInt64)
        .set_default(-1)
        .describe("DType of the output in case this can't be inferred. "
                  "Defaults to int32 if not defined (dtype=None).");
  }
};

// `_like` variants: the distribution's fields only.
struct SampleUniformLikeParam : public dmlc::Parameter<SampleUniformLikeParam> {
  float low, high;
  DMLC_DECLARE_PARAMETER(SampleUniformLikeParam) {
    DMLC_DECLARE_FIELD(low).set_default(0.0f).describe("Lower bound of the distribution.");
    DMLC_DECLARE_FIELD(high).set_default(1.0f).describe("Upper bound of the distribution.");
  }
  std::pair<double, double> Args() const { return {low, high}; }
};
struct SampleNormalLikeParam : public dmlc::Parameter<SampleNormalLikeParam> {
  float loc, scale;
  DMLC_DECLARE_PARAMETER(SampleNormalLikeParam) {
    DMLC_DECLARE_FIELD(loc).set_default(0.0f).describe("Mean of the distribution.");
    DMLC_DECLARE_FIELD(scale).set_default(1.0f).describe("Standard deviation of the distribution.");
  }
  std::pair<double, double> Args() const { return {loc, scale}; }
};
struct SampleGammaLikeParam : public dmlc::Parameter<SampleGammaLikeParam> {
  float alpha, beta;
  DMLC_DECLARE_PARAMETER(SampleGammaLikeParam) {
    DMLC_DECLARE_FIELD(alpha).set_default(1.0f).describe("Alpha parameter (shape) of the gamma distribution.");
    DMLC_DECLARE_FIELD(beta).set_default(1.0f).describe("Beta parameter (scale) of the gamma distribution.");
  }
  std::pair<double, double> Args() const { return {alpha, beta}; }
};
struct SampleExponentialLikeParam : public dmlc::Parameter<SampleExponentialLikeParam> {
  float lam;
  DMLC_DECLARE_PARAMETER(SampleExponentialLikeParam) {
    DMLC_DECLARE_FIELD(lam).set_default(1.0f).describe("Lambda parameter (rate) of the exponential distribution.");
  }
  std::pair<double, double> Args() const { return {lam, 0.0}; }
};
struct SamplePoissonLikeParam : public dmlc::Parameter<SamplePoissonLikeParam> {
  float lam;
  DMLC_DECLARE_PARAMETER(SamplePoissonLikeParam) {
    DMLC_DECLARE_FIELD(lam).set_default(1.0f).describe("Lambda parameter (rate) of the Poisson distribution.");
  }
  std::pair<double, double> Args() const { return {lam, 0.0}; }
};
struct SampleNegBinomialLikeParam : public dmlc::Parameter<SampleNegBinomialLikeParam> {
  int k;
  float p;
  DMLC_DECLARE_PARAMETER(SampleNegBinomialLikeParam) {
    DMLC_DECLARE_FIELD(k).set_default(1).describe("Limit of unsuccessful experiments.");
    DMLC_DECLARE_FIELD(p).set_default(1.0f).describe("Failure probability in each experiment.");
  }
  std::pair<double, double> Args() const { return {static_cast<double>(k), p}; }
};
struct SampleGenNegBinomialLikeParam : public dmlc::Parameter<SampleGenNegBinomialLikeParam> {
  float mu, alpha;
  DMLC_DECLARE_PARAMETER(SampleGenNegBinomialLikeParam) {
    DMLC_DECLARE_FIELD(mu).set_default(1.0f).describe("Mean of the negative binomial distribution.");
    DMLC_DECLARE_FIELD(alpha).set_default(1.0f).describe("Alpha (dispersion) parameter of the negative binomial distribution.");
  }
  std::pair<double, double> Args() const { return {mu, alpha}; }
};

// ---------------------------------------------------------------------------- inference

/*! \brief Output shape of a creation sampler: `shape`, or the caller's output shape. */
template <typename Param, typename Dist>
inline bool RandomCreationShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                                mxnet::ShapeVector* out_attrs) {
  const Param& param = nnvm::get<Param>(attrs.parsed);
  const auto args = param.Args();
  Dist::Check(attrs.op->name.c_str(), args.first, args.second);
  CHECK_EQ(out_attrs->size(), 1U);
  if (ndim_is_known(param.shape)) SHAPE_ASSIGN_CHECK(*out_attrs, 0, param.shape);
  return shape_is_known((*out_attrs)[0]);
}

/*! \brief Output dtype: `dtype`, else the caller's output dtype, else `default_type`. */
template <typename Param, int default_type>
inline bool RandomCreationType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                               std::vector<int>* out_attrs) {
  const Param& param = nnvm::get<Param>(attrs.parsed);
  int dtype = param.dtype;
  if (dtype < 0) dtype = (*out_attrs)[0] >= 0 ? (*out_attrs)[0] : default_type;
  TYPE_ASSIGN_CHECK(*out_attrs, 0, dtype);
  return true;
}

template <typename Param, typename Dist>
inline bool RandomLikeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                            mxnet::ShapeVector* out_attrs) {
  const Param& param = nnvm::get<Param>(attrs.parsed);
  const auto args = param.Args();
  Dist::Check(attrs.op->name.c_str(), args.first, args.second);
  return ElemwiseShape<1, 1>(attrs, in_attrs, out_attrs);
}

inline bool RandIntShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                         mxnet::ShapeVector* out_attrs) {
  const SampleRandIntParam& param = nnvm::get<SampleRandIntParam>(attrs.parsed);
  if (param.low >= param.high) {
    MX_THROW(ValueError) << attrs.op->name << ": expected low < high, got low=" << param.low
                         << ", high=" << param.high;
  }
  if (ndim_is_known(param.shape)) SHAPE_ASSIGN_CHECK(*out_attrs, 0, param.shape);
  return shape_is_known((*out_attrs)[0]);
}

// ----------------------------------------------------------------------------- compute

/*! \brief Fill `out` with draws of Dist(a, b) from the kParallelRandom resource. */
template <typename Dist>
inline void FillSamples(const OpContext& ctx, const TBlob& out, double a, double b) {
  const index_t n = out.Size();
  if (n == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    typedef typename std::conditional<std::is_same<DType, double>::value, double, float>::type
        AType;
    DType* dst = out.dptr<DType>();
    ParallelSample<AType>(ctx.requested[0], n, [&](auto* rng, index_t i) {
      dst[i] = DType(Dist::Draw(rng, a, b));
    });
  });
}

/*!
 * \brief The GPU's draws: element i of a call samples from its own Philox stream
 *        (PhiloxStream), so the kernel has no state and any grid gives the same numbers.
 */
template <typename Dist>
struct sample_philox {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, uint32_t seed, uint64_t call, double a,
                                  double b) {
    typedef typename std::conditional<std::is_same<DType, double>::value, double, float>::type
        A;
    common::random::PhiloxStream<A> rng(seed, call, i);
    out[i] = DType(Dist::Draw(&rng, a, b));
  }
};

/*! \brief FillSamples on the GPU: one kernel over the output. */
template <typename Dist>
inline void FillSamplesGPU(const OpContext& ctx, const TBlob& out, double a, double b) {
  const index_t n = out.Size();
  if (n == 0) return;
  auto* gen = ctx.requested[0].get_parallel_random<gpu, float>();
  const uint64_t call = gen->NextCall();
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    mxnet_op::Kernel<sample_philox<Dist>, gpu>::Launch(ctx.get_stream<gpu>(), n, out.dptr<DType>(),
                                                       gen->seed(), call, a, b);
  });
}

template <typename xpu, typename Param, typename Dist>
void SampleCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const auto args = nnvm::get<Param>(attrs.parsed).Args();
  if constexpr (std::is_same<xpu, gpu>::value) {
    FillSamplesGPU<Dist>(ctx, outputs[0], args.first, args.second);
  } else {
    FillSamples<Dist>(ctx, outputs[0], args.first, args.second);
  }
}

/*! \brief out[i] = low + (draw mod span): randint's element i on the GPU. */
struct randint_philox {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, uint32_t seed, uint64_t call,
                                  int64_t low, uint64_t span) {
    common::random::PhiloxStream<double> rng(seed, call, i);
    out[i] = static_cast<DType>(low + static_cast<int64_t>(
                                          static_cast<uint64_t>(rng.rand_int64()) % span));
  }
};

template <typename xpu>
void RandIntCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const SampleRandIntParam& param = nnvm::get<SampleRandIntParam>(attrs.parsed);
  const TBlob& out = outputs[0];
  const uint64_t span = static_cast<uint64_t>(param.high - param.low);
  const int64_t low = param.low;
  if constexpr (std::is_same<xpu, gpu>::value) {
    auto* gen = ctx.requested[0].get_parallel_random<xpu, float>();
    const uint64_t call = gen->NextCall();
    MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
      mxnet_op::Kernel<randint_philox, xpu>::Launch(ctx.get_stream<xpu>(), out.Size(),
                                                    out.dptr<DType>(), gen->seed(), call, low,
                                                    span);
    });
    return;
  }
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    DType* dst = out.dptr<DType>();
    ParallelSample<double>(ctx.requested[0], out.Size(), [&](auto* rng, index_t i) {
      const uint64_t r = static_cast<uint64_t>(rng->rand_int64());
      dst[i] = static_cast<DType>(low + static_cast<int64_t>(r % span));
    });
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_RANDOM_SAMPLE_OP_INL_H_
