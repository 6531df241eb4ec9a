/*!
 * \file broadcast_reduce_op_index.cu
 * \brief GPU kernels of pick and its gradient (the functors of broadcast_reduce_op_index-inl.h).
 */
#include "./broadcast_reduce_op_index-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(pick).set_attr<FCompute>("FCompute<gpu>", PickCompute<gpu>);
NNVM_REGISTER_OP(_backward_pick).set_attr<FCompute>("FCompute<gpu>", PickGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
