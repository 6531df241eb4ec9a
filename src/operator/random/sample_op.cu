/*!
 * \file sample_op.cu
 * \brief GPU kernels of the uniform and normal samplers (and their _like forms): counter-based
 *        Philox draws seeded by mx.random.seed (see sample_philox in sample_op-inl.h).
 */
#include "./sample_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_random_uniform)
.set_attr<FCompute>("FCompute<gpu>", SampleCompute<gpu, SampleUniformParam, UniformDist>);
NNVM_REGISTER_OP(_random_normal)
.set_attr<FCompute>("FCompute<gpu>", SampleCompute<gpu, SampleNormalParam, NormalDist>);
NNVM_REGISTER_OP(_random_uniform_like)
.set_attr<FCompute>("FCompute<gpu>", SampleCompute<gpu, SampleUniformLikeParam, UniformDist>);
NNVM_REGISTER_OP(_random_normal_like)
.set_attr<FCompute>("FCompute<gpu>", SampleCompute<gpu, SampleNormalLikeParam, NormalDist>);

}  // namespace op
}  // namespace mxnet
