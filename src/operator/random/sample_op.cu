/*!
 * \file sample_op.cu
 * \brief GPU kernels of the scalar-parameter samplers (and their _like forms) and randint: the
 *        samplers of sampler.h drawing from per-element Philox streams seeded by
 *        mx.random.seed (sample_philox in sample_op-inl.h).
 */
#include "./sample_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_SAMPLE_GPU(name, Param, Dist) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", SampleCompute<gpu, Param, Dist>)

MXNET_SAMPLE_GPU(_random_uniform, SampleUniformParam, UniformDist);
MXNET_SAMPLE_GPU(_random_normal, SampleNormalParam, NormalDist);
MXNET_SAMPLE_GPU(_random_gamma, SampleGammaParam, GammaDist);
MXNET_SAMPLE_GPU(_random_exponential, SampleExponentialParam, ExponentialDist);
MXNET_SAMPLE_GPU(_random_poisson, SamplePoissonParam, PoissonDist);
MXNET_SAMPLE_GPU(_random_negative_binomial, SampleNegBinomialParam, NegBinomialDist);
MXNET_SAMPLE_GPU(_random_generalized_negative_binomial, SampleGenNegBinomialParam,
                 GenNegBinomialDist);
MXNET_SAMPLE_GPU(_random_uniform_like, SampleUniformLikeParam, UniformDist);
MXNET_SAMPLE_GPU(_random_normal_like, SampleNormalLikeParam, NormalDist);
MXNET_SAMPLE_GPU(_random_gamma_like, SampleGammaLikeParam, GammaDist);
MXNET_SAMPLE_GPU(_random_exponential_like, SampleExponentialLikeParam, ExponentialDist);
MXNET_SAMPLE_GPU(_random_poisson_like, SamplePoissonLikeParam, PoissonDist);
MXNET_SAMPLE_GPU(_random_negative_binomial_like, SampleNegBinomialLikeParam, NegBinomialDist);
MXNET_SAMPLE_GPU(_random_generalized_negative_binomial_like, SampleGenNegBinomialLikeParam,
                 GenNegBinomialDist);
NNVM_REGISTER_OP(_random_randint).set_attr<FCompute>("FCompute<gpu>", RandIntCompute<gpu>);

}  // namespace op
}  // namespace mxnet
