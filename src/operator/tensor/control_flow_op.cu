/*!
 * \file control_flow_op.cu
 * \brief GPU kernels of where and its gradient (the functors of control_flow_op-inl.h).
 */
#include "./control_flow_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(where).set_attr<FCompute>("FCompute<gpu>", WhereOpForward<gpu>);
NNVM_REGISTER_OP(_backward_where).set_attr<FCompute>("FCompute<gpu>", WhereOpBackward<gpu>);

}  // namespace op
}  // namespace mxnet
