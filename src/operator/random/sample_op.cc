/*!
 * \file sample_op.cc
 * \brief Registration of the scalar-parameter samplers: _random_uniform, _random_normal,
 *        _random_gamma, _random_exponential, _random_poisson, _random_negative_binomial,
 *        _random_generalized_negative_binomial, _random_randint and the _random_*_like ops.
 */
#include "./sample_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SampleUniformParam);
DMLC_REGISTER_PARAMETER(SampleNormalParam);
DMLC_REGISTER_PARAMETER(SampleGammaParam);
DMLC_REGISTER_PARAMETER(SampleExponentialParam);
DMLC_REGISTER_PARAMETER(SamplePoissonParam);
DMLC_REGISTER_PARAMETER(SampleNegBinomialParam);
DMLC_REGISTER_PARAMETER(SampleGenNegBinomialParam);
DMLC_REGISTER_PARAMETER(SampleRandIntParam);
DMLC_REGISTER_PARAMETER(SampleUniformLikeParam);
DMLC_REGISTER_PARAMETER(SampleNormalLikeParam);
DMLC_REGISTER_PARAMETER(SampleGammaLikeParam);
DMLC_REGISTER_PARAMETER(SampleExponentialLikeParam);
DMLC_REGISTER_PARAMETER(SamplePoissonLikeParam);
DMLC_REGISTER_PARAMETER(SampleNegBinomialLikeParam);
DMLC_REGISTER_PARAMETER(SampleGenNegBinomialLikeParam);

namespace {
std::vector<ResourceRequest> ParallelRandomResource(const NodeAttrs&) {
  return {ResourceRequest::kParallelRandom};
}
}  // namespace

#define MXNET_REGISTER_SAMPLE(name, Param, Dist)                                          \
  NNVM_REGISTER_OP(name)                                                                  \
  .set_num_inputs(0)                                                                      \
  .set_num_outputs(1)                                                                     \
  .set_attr_parser(ParamParser<Param>)                                                    \
  .set_attr<mxnet::FInferShape>("FInferShape", RandomCreationShape<Param, Dist>)          \
  .set_attr<nnvm::FInferType>("FInferType", RandomCreationType<Param, mshadow::kFloat32>) \
  .set_attr<FResourceRequest>("FResourceRequest", ParallelRandomResource)                 \
  .set_attr<FCompute>("FCompute<cpu>", SampleCompute<cpu, Param, Dist>)                   \
  .set_attr<bool>("TNonDifferentiable", true)                                             \
  .add_arguments(Param::__FIELDS__())

#define MXNET_REGISTER_SAMPLE_LIKE(name, Param, Dist)                                     \
  NNVM_REGISTER_OP(name)                                                                  \
  .set_num_inputs(1)                                                                      \
  .set_num_outputs(1)                                                                     \
  .set_attr_parser(ParamParser<Param>)                                                    \
  .set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {        \
    return std::vector<std::string>{"data"};                                              \
  })                                                                                      \
  .set_attr<mxnet::FInferShape>("FInferShape", RandomLikeShape<Param, Dist>)              \
  .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)                           \
  .set_attr<FResourceRequest>("FResourceRequest", ParallelRandomResource)                 \
  .set_attr<FCompute>("FCompute<cpu>", SampleCompute<cpu, Param, Dist>)                   \
  .set_attr<bool>("TNonDifferentiable", true)                                             \
  .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)                              \
  .add_argument("data", "NDArray-or-Symbol", "The input")                                 \
  .add_arguments(Param::__FIELDS__())

MXNET_REGISTER_SAMPLE(_random_uniform, SampleUniformParam, UniformDist)
.add_alias("uniform")
.add_alias("random_uniform")
.describe(R"code(Draw random samples from a uniform distribution.

.. note:: The existing alias ``uniform`` is deprecated.

Samples are uniformly distributed over the half-open interval *[low, high)*
(includes *low*, but excludes *high*).

Example::

   uniform(low=0, high=1, shape=(2,2)) = [[ 0.60276335,  0.85794562],
                                          [ 0.54488319,  0.84725171]]

)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE(_random_normal, SampleNormalParam, NormalDist)
.add_alias("normal")
.add_alias("random_normal")
.describe(R"code(Draw random samples from a normal (Gaussian) distribution.

.. note:: The existing alias ``normal`` is deprecated.

Samples are distributed according to a normal distribution parametrized by *loc* (mean) and *scale*
(standard deviation).

Example::

   normal(loc=0, scale=1, shape=(2,2)) = [[ 1.89171135, -1.16881478],
                                          [-1.23474145,  1.55807114]]
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE(_random_gamma, SampleGammaParam, GammaDist)
.add_alias("random_gamma")
.describe(R"code(Draw random samples from a gamma distribution.

Samples are distributed according to a gamma distribution parametrized by *alpha* (shape) and *beta* (scale).

Example::

   gamma(alpha=9, beta=0.5, shape=(2,2)) = [[ 7.10486984,  3.37695289],
                                            [ 3.91697288,  3.65933681]]
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE(_random_exponential, SampleExponentialParam, ExponentialDist)
.add_alias("random_exponential")
.describe(R"code(Draw random samples from an exponential distribution.

Samples are distributed according to an exponential distribution parametrized by *lambda* (rate).

Example::

   exponential(lam=4, shape=(2,2)) = [[ 0.0097189 ,  0.08999364],
                                      [ 0.04146638,  0.31715935]]
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE(_random_poisson, SamplePoissonParam, PoissonDist)
.add_alias("random_poisson")
.describe(R"code(Draw random samples from a Poisson distribution.

Samples are distributed according to a Poisson distribution parametrized by *lambda* (rate).
Samples will always be returned as a floating point data type.

Example::

   poisson(lam=4, shape=(2,2)) = [[ 5.,  2.],
                                  [ 4.,  6.]]
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE(_random_negative_binomial, SampleNegBinomialParam, NegBinomialDist)
.add_alias("random_negative_binomial")
.describe(R"code(Draw random samples from a negative binomial distribution.

Samples are distributed according to a negative binomial distribution parametrized by
*k* (limit of unsuccessful experiments) and *p* (failure probability in each experiment).
Samples will always be returned as a floating point data type.

Example::

   negative_binomial(k=3, p=0.4, shape=(2,2)) = [[ 4.,  7.],
                                                 [ 2.,  5.]]
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE(_random_generalized_negative_binomial, SampleGenNegBinomialParam,
                      GenNegBinomialDist)
.add_alias("random_generalized_negative_binomial")
.describe(R"code(Draw random samples from a generalized negative binomial distribution.

Samples are distributed according to a generalized negative binomial distribution parametrized by
*mu* (mean) and *alpha* (dispersion). *alpha* is defined as *1/k* where *k* is the failure limit of the
number of unsuccessful experiments (generalized to real numbers).
Samples will always be returned as a floating point data type.

Example::

   generalized_negative_binomial(mu=2.0, alpha=0.3, shape=(2,2)) = [[ 2.,  1.],
                                                                    [ 6.,  4.]]
)code" ADD_FILELINE);

NNVM_REGISTER_OP(_random_randint)
.add_alias("random_randint")
.describe(R"code(Draw random samples from a discrete uniform distribution.

Samples are uniformly distributed over the half-open interval *[low, high)*
(includes *low*, but excludes *high*).

Example::

   randint(low=0, high=5, shape=(2,2)) = [[ 0,  2],
                                          [ 3,  1]]

)code" ADD_FILELINE)
.set_num_inputs(0)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SampleRandIntParam>)
.set_attr<mxnet::FInferShape>("FInferShape", RandIntShape)
.set_attr<nnvm::FInferType>("FInferType", RandomCreationType<SampleRandIntParam, mshadow::kInt32>)
.set_attr<FResourceRequest>("FResourceRequest", ParallelRandomResource)
.set_attr<FCompute>("FCompute<cpu>", RandIntCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_arguments(SampleRandIntParam::__FIELDS__());

MXNET_REGISTER_SAMPLE_LIKE(_random_uniform_like, SampleUniformLikeParam, UniformDist)
.describe(R"code(Draw random samples from a uniform distribution according to the input array shape.

Samples are uniformly distributed over the half-open interval *[low, high)*
(includes *low*, but excludes *high*).

Example::

   uniform(low=0, high=1, data=ones(2,2)) = [[ 0.60276335,  0.85794562],
                                             [ 0.54488319,  0.84725171]]

)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE_LIKE(_random_normal_like, SampleNormalLikeParam, NormalDist)
.describe(R"code(Draw random samples from a normal (Gaussian) distribution according to the input array shape.

Samples are distributed according to a normal distribution parametrized by *loc* (mean) and *scale*
(standard deviation).

Example::

   normal(loc=0, scale=1, data=ones(2,2)) = [[ 1.89171135, -1.16881478],
                                             [-1.23474145,  1.55807114]]
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE_LIKE(_random_gamma_like, SampleGammaLikeParam, GammaDist)
.describe(R"code(Draw random samples from a gamma distribution according to the input array shape.

Samples are distributed according to a gamma distribution parametrized by *alpha* (shape) and *beta* (scale).
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE_LIKE(_random_exponential_like, SampleExponentialLikeParam, ExponentialDist)
.describe(R"code(Draw random samples from an exponential distribution according to the input array shape.

Samples are distributed according to an exponential distribution parametrized by *lambda* (rate).
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE_LIKE(_random_poisson_like, SamplePoissonLikeParam, PoissonDist)
.describe(R"code(Draw random samples from a Poisson distribution according to the input array shape.

Samples are distributed according to a Poisson distribution parametrized by *lambda* (rate).
Samples will always be returned as a floating point data type.
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE_LIKE(_random_negative_binomial_like, SampleNegBinomialLikeParam,
                           NegBinomialDist)
.describe(R"code(Draw random samples from a negative binomial distribution according to the input array shape.

Samples are distributed according to a negative binomial distribution parametrized by
*k* (limit of unsuccessful experiments) and *p* (failure probability in each experiment).
Samples will always be returned as a floating point data type.
)code" ADD_FILELINE);

MXNET_REGISTER_SAMPLE_LIKE(_random_generalized_negative_binomial_like,
                           SampleGenNegBinomialLikeParam, GenNegBinomialDist)
.describe(R"code(Draw random samples from a generalized negative binomial distribution according to the
input array shape.

Samples are distributed according to a generalized negative binomial distribution parametrized by
*mu* (mean) and *alpha* (dispersion). *alpha* is defined as *1/k* where *k* is the failure limit of the
number of unsuccessful experiments (generalized to real numbers).
Samples will always be returned as a floating point data type.
)code" ADD_FILELINE);

}  // namespace op
}  // namespace mxnet
