/*!
 * \file spatial_sampler.cu
 * \brief GridGenerator, BilinearSampler and SpatialTransformer and their gradients on the GPU:
 *        spatial_sampler-inl.h's kernels (the data gradient scattered with atomic adds).
 */
#include "./spatial_sampler-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(GridGenerator)
.set_attr<FCompute>("FCompute<gpu>", GridGeneratorCompute<gpu>);
NNVM_REGISTER_OP(_backward_GridGenerator)
.set_attr<FCompute>("FCompute<gpu>", GridGeneratorGradCompute<gpu>);
NNVM_REGISTER_OP(BilinearSampler)
.set_attr<FCompute>("FCompute<gpu>", BilinearSamplerCompute<gpu>);
NNVM_REGISTER_OP(_backward_BilinearSampler)
.set_attr<FCompute>("FCompute<gpu>", BilinearSamplerGradCompute<gpu>);
NNVM_REGISTER_OP(SpatialTransformer)
.set_attr<FCompute>("FCompute<gpu>", SpatialTransformerCompute<gpu>);
NNVM_REGISTER_OP(_backward_SpatialTransformer)
.set_attr<FCompute>("FCompute<gpu>", SpatialTransformerGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
