/*!
 * \file broadcast_reduce_op_index.cu
 * \brief GPU kernels of argmax, argmin, argmax_channel, pick and its gradient (the functors
 *        of broadcast_reduce_op_index-inl.h).
 */
#include "./broadcast_reduce_op_index-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(argmax).set_attr<FCompute>("FCompute<gpu>", (SearchAxisCompute<gpu, true>));
NNVM_REGISTER_OP(argmin).set_attr<FCompute>("FCompute<gpu>", (SearchAxisCompute<gpu, false>));
NNVM_REGISTER_OP(argmax_channel)
.set_attr<FCompute>("FCompute<gpu>", (SearchAxisCompute<gpu, true>));
NNVM_REGISTER_OP(pick).set_attr<FCompute>("FCompute<gpu>", PickCompute<gpu>);
NNVM_REGISTER_OP(_backward_pick).set_attr<FCompute>("FCompute<gpu>", PickGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
