/*!
 * \file activation.cu
 * \brief GPU kernels of Activation (relu, sigmoid, tanh, softrelu, softsign) and its gradient:
 *        the same unary functors as on the CPU.
 */
#include "./activation-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(Activation).set_attr<FCompute>("FCompute<gpu>", ActivationCompute<gpu>);
NNVM_REGISTER_OP(_backward_Activation)
.set_attr<FCompute>("FCompute<gpu>", ActivationGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
