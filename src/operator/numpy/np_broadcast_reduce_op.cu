/*!
 * \file np_broadcast_reduce_op.cu
 * \brief The NumPy reductions _np_sum, _np_prod, _np_max, _np_min, _npi_mean and their
 *        gradients on the GPU: np_broadcast_reduce_op-inl.h over broadcast_reduce_gpu.cuh.
 */
#include "./np_broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_np_sum)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceAxesCompute<gpu, red::sum>);
NNVM_REGISTER_OP(_backward_np_sum)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceBackwardUseNone<gpu, false>);
NNVM_REGISTER_OP(_npi_mean)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceAxesCompute<gpu, red::mean>);
NNVM_REGISTER_OP(_backward_np_mean)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceBackwardUseNone<gpu, true>);
NNVM_REGISTER_OP(_np_prod)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceAxesCompute<gpu, red::prod>);
NNVM_REGISTER_OP(_np_max)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceAxesCompute<gpu, red::maximum>);
NNVM_REGISTER_OP(_np_min)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceAxesCompute<gpu, red::minimum>);
NNVM_REGISTER_OP(_backward_np_prod)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceBackwardUseInOut<gpu, red_grad::prod>);
NNVM_REGISTER_OP(_backward_np_max)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceBackwardUseInOut<gpu, red_grad::eq>);
NNVM_REGISTER_OP(_backward_np_min)
    .set_attr<FCompute>("FCompute<gpu>", NumpyReduceBackwardUseInOut<gpu, red_grad::eq>);

}  // namespace op
}  // namespace mxnet
