/*!
 * \file np_comparison_op.cu
 * \brief The NumPy comparisons and their `_scalar` forms on the GPU (np_comparison_op-inl.h).
 */
#include "./np_comparison_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_NP_COMPARISON_GPU(name, functor)                                             \
  NNVM_REGISTER_OP(_npi_##name)                                                            \
      .set_attr<FCompute>("FCompute<gpu>", NumpyCompareCompute<gpu, functor>);             \
  NNVM_REGISTER_OP(_npi_##name##_scalar)                                                   \
      .set_attr<FCompute>("FCompute<gpu>", NumpyCompareScalarCompute<gpu, functor>)

MXNET_NP_COMPARISON_GPU(equal, mshadow_op::eq);
MXNET_NP_COMPARISON_GPU(not_equal, mshadow_op::ne);
MXNET_NP_COMPARISON_GPU(greater, mshadow_op::gt);
MXNET_NP_COMPARISON_GPU(greater_equal, mshadow_op::ge);
MXNET_NP_COMPARISON_GPU(less, mshadow_op::lt);
MXNET_NP_COMPARISON_GPU(less_equal, mshadow_op::le);

}  // namespace op
}  // namespace mxnet
