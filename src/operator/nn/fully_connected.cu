/*!
 * \file fully_connected.cu
 * \brief GPU kernels of FullyConnected and its gradient: cuBLAS GEMMs, the bias add and the
 *        bias gradient's column sums as on the CPU.
 */
#include "./fully_connected-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(FullyConnected)
.set_attr<FCompute>("FCompute<gpu>", FullyConnectedCompute<gpu>);
NNVM_REGISTER_OP(_backward_FullyConnected)
.set_attr<FCompute>("FCompute<gpu>", FullyConnectedGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
