/*!
 * \file regression_output.cu
 * \brief LinearRegressionOutput, MAERegressionOutput, LogisticRegressionOutput and their
 *        gradients on the GPU: regression_output-inl.h's per-element kernels.
 */
#include "./regression_output-inl.h"

namespace mxnet {
namespace op {

#define MXNET_REGRESSION_OUTPUT_GPU(name, backward, Kind)                                       \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", RegressionForward<gpu, Kind>);     \
  NNVM_REGISTER_OP(backward).set_attr<FCompute>("FCompute<gpu>", RegressionBackward<gpu, Kind>)

MXNET_REGRESSION_OUTPUT_GPU(LinearRegressionOutput, _backward_linear_reg_out, LinearRegKind);
MXNET_REGRESSION_OUTPUT_GPU(MAERegressionOutput, _backward_mae_reg_out, MAERegKind);
MXNET_REGRESSION_OUTPUT_GPU(LogisticRegressionOutput, _backward_logistic_reg_out,
                            LogisticRegKind);

}  // namespace op
}  // namespace mxnet
