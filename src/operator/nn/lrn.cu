/*!
 * \file lrn.cu
 * \brief LRN and its gradient on the GPU: lrn-inl.h's per-element functors, the CPU's math.
 */
#include "./lrn-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(LRN).set_attr<FCompute>("FCompute<gpu>", LRNCompute<gpu>);
NNVM_REGISTER_OP(_backward_LRN).set_attr<FCompute>("FCompute<gpu>", LRNGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
