/*!
 * \file broadcast_reduce_op_prod.cu
 * \brief GPU kernels of prod, nansum and nanprod and their gradients (the reducers of
 *        broadcast_reduce_op-inl.h).
 */
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(prod).set_attr<FCompute>("FCompute<gpu>", ReduceAxesCompute<gpu, red::prod>);
NNVM_REGISTER_OP(_backward_prod)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesBackwardUseInOut<gpu, red_grad::prod>);
NNVM_REGISTER_OP(nansum).set_attr<FCompute>("FCompute<gpu>", ReduceAxesCompute<gpu, red::nansum>);
NNVM_REGISTER_OP(_backward_nansum)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesBackwardUseInOut<gpu, red_grad::nansum>);
NNVM_REGISTER_OP(nanprod)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesCompute<gpu, red::nanprod>);
NNVM_REGISTER_OP(_backward_nanprod)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesBackwardUseInOut<gpu, red_grad::nanprod>);

}  // namespace op
}  // namespace mxnet
