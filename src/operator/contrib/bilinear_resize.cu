/*!
 * \file bilinear_resize.cu
 * \brief _contrib_BilinearResize2D and its gradient on the GPU: bilinear_resize-inl.h's kernels.
 */
#include "./bilinear_resize-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_BilinearResize2D)
.set_attr<FCompute>("FCompute<gpu>", BilinearResizeCompute<gpu>);
NNVM_REGISTER_OP(_backward_contrib_BilinearResize2D)
.set_attr<FCompute>("FCompute<gpu>", BilinearResizeGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
