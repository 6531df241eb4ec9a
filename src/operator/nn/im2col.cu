/*!
 * \file im2col.cu
 * \brief im2col, col2im and their gradients on the GPU: im2col-inl.h's kernels.
 */
#include "./im2col-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(im2col).set_attr<FCompute>("FCompute<gpu>", Im2colCompute<gpu>);
NNVM_REGISTER_OP(_backward_im2col).set_attr<FCompute>("FCompute<gpu>", Im2colGradCompute<gpu>);
NNVM_REGISTER_OP(col2im).set_attr<FCompute>("FCompute<gpu>", Col2imCompute<gpu>);
NNVM_REGISTER_OP(_backward_col2im).set_attr<FCompute>("FCompute<gpu>", Col2imGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
