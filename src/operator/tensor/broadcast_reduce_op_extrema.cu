/*!
 * \file broadcast_reduce_op_extrema.cu
 * \brief GPU kernels of max and min and their gradients (the reducers of
 *        broadcast_reduce_op-inl.h; one file per few reducers keeps each unit's compile short).
 */
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(max).set_attr<FCompute>("FCompute<gpu>", ReduceAxesCompute<gpu, red::maximum>);
NNVM_REGISTER_OP(_backward_max)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesBackwardUseInOut<gpu, red_grad::eq>);
NNVM_REGISTER_OP(min).set_attr<FCompute>("FCompute<gpu>", ReduceAxesCompute<gpu, red::minimum>);
NNVM_REGISTER_OP(_backward_min)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesBackwardUseInOut<gpu, red_grad::eq>);

}  // namespace op
}  // namespace mxnet
