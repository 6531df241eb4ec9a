/*!
 * \file deformable_convolution.cu
 * \brief _contrib_DeformableConvolution, _contrib_ModulatedDeformableConvolution and their
 *        backward ops on the GPU: deformable_convolution-inl.h's kernels (one thread per
 *        column element; atomic adds for the data gradient) with cuBLAS GEMMs per image.
 */
#include "./deformable_convolution-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_DeformableConvolution)
.set_attr<FCompute>("FCompute<gpu>", DeformConvCompute<gpu, DeformableConvolutionParam>);
NNVM_REGISTER_OP(_backward_DeformableConvolution)
.set_attr<FCompute>("FCompute<gpu>", DeformConvGradCompute<gpu, DeformableConvolutionParam>);
NNVM_REGISTER_OP(_contrib_ModulatedDeformableConvolution)
.set_attr<FCompute>("FCompute<gpu>",
                    DeformConvCompute<gpu, ModulatedDeformableConvolutionParam>);
NNVM_REGISTER_OP(_backward_ModulatedDeformableConvolution)
.set_attr<FCompute>("FCompute<gpu>",
                    DeformConvGradCompute<gpu, ModulatedDeformableConvolutionParam>);

}  // namespace op
}  // namespace mxnet
