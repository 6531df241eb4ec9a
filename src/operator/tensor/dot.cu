/*!
 * \file dot.cu
 * \brief GPU kernels of dot and batch_dot and their gradients: the same DotGemm plans as on the
 *        CPU, run by cuBLAS (batch_dot as one strided-batched call).
 */
#include "./dot-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(dot).set_attr<FCompute>("FCompute<gpu>", DotForward_<gpu>);
NNVM_REGISTER_OP(_backward_dot).set_attr<FCompute>("FCompute<gpu>", DotBackward_<gpu>);
NNVM_REGISTER_OP(batch_dot).set_attr<FCompute>("FCompute<gpu>", BatchDotForward_<gpu>);
NNVM_REGISTER_OP(_backward_batch_dot)
.set_attr<FCompute>("FCompute<gpu>", BatchDotBackward_<gpu>);

}  // namespace op
}  // namespace mxnet
