/*!
 * \file pad.cu
 * \brief Pad and its gradient on the GPU: pad-inl.h's per-element kernels.
 */
#include "./pad-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(Pad).set_attr<FCompute>("FCompute<gpu>", PadCompute<gpu>);
NNVM_REGISTER_OP(_backward_Pad).set_attr<FCompute>("FCompute<gpu>", PadGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
