/*!
 * \file broadcast_reduce_norm_value.cu
 * \brief GPU kernels of norm (L1 / L2, any output dtype) and its gradient.
 */
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(norm).set_attr<FCompute>("FCompute<gpu>", NormCompute<gpu>);
NNVM_REGISTER_OP(_backward_norm).set_attr<FCompute>("FCompute<gpu>", NormBackwardCompute<gpu>);

}  // namespace op
}  // namespace mxnet
