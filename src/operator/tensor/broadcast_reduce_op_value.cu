/*!
 * \file broadcast_reduce_op_value.cu
 * \brief GPU kernels of sum and mean (and their gradients) and of the broadcast operators: the
 *        reducers of broadcast_reduce_op-inl.h run by the drivers of broadcast_reduce_gpu.cuh.
 */
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(sum).set_attr<FCompute>("FCompute<gpu>", ReduceAxesCompute<gpu, red::sum>);
NNVM_REGISTER_OP(_backward_sum)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesBackwardUseNone<gpu, false>);
NNVM_REGISTER_OP(mean).set_attr<FCompute>("FCompute<gpu>", ReduceAxesCompute<gpu, red::mean>);
NNVM_REGISTER_OP(_backward_mean)
.set_attr<FCompute>("FCompute<gpu>", ReduceAxesBackwardUseNone<gpu, true>);

NNVM_REGISTER_OP(broadcast_axis).set_attr<FCompute>("FCompute<gpu>", BroadcastCompute<gpu>);
NNVM_REGISTER_OP(broadcast_to).set_attr<FCompute>("FCompute<gpu>", BroadcastCompute<gpu>);
NNVM_REGISTER_OP(broadcast_like).set_attr<FCompute>("FCompute<gpu>", BroadcastCompute<gpu>);
NNVM_REGISTER_OP(_broadcast_backward)
.set_attr<FCompute>("FCompute<gpu>", BroadcastBackwardCompute<gpu>);

}  // namespace op
}  // namespace mxnet
