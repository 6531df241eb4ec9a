/*!
 * \file np_comparison_op.cc
 * \brief NumPy comparisons _npi_equal, _npi_not_equal, _npi_greater, _npi_greater_equal,
 *        _npi_less, _npi_less_equal (broadcasting, two arrays of one dtype) and their
 *        `_scalar` forms: the results are bool arrays. Not differentiable.
 */
#include <string>
#include <vector>

#include "./np_comparison_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_NP_REGISTER_COMPARISON(name, functor, symbol)                                    \
  NNVM_REGISTER_OP(_npi_##name)                                                                \
      .describe("Element-wise ``x1 " symbol " x2`` with NumPy broadcasting (numpy." #name      \
                "); the result is a bool array." ADD_FILELINE)                                 \
      .set_num_inputs(2)                                                                       \
      .set_num_outputs(1)                                                                      \
      .set_attr<nnvm::FListInputNames>(                                                        \
          "FListInputNames",                                                                   \
          [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"lhs", "rhs"}; })       \
      .set_attr<mxnet::FInferShape>("FInferShape", BinaryBroadcastShape)                       \
      .set_attr<nnvm::FInferType>("FInferType", NumpyCompareType)                              \
      .set_attr<FCompute>("FCompute<cpu>", NumpyCompareCompute<cpu, functor>)                       \
      .set_attr<bool>("TNonDifferentiable", true)                                              \
      .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)                               \
      .add_argument("lhs", "NDArray-or-Symbol", "First input to the function")                 \
      .add_argument("rhs", "NDArray-or-Symbol", "Second input to the function");               \
  NNVM_REGISTER_OP(_npi_##name##_scalar)                                                       \
      .describe("Element-wise ``x " symbol " scalar`` (numpy." #name                          \
                " with a scalar); the result is a bool array." ADD_FILELINE)                   \
      .set_num_inputs(1)                                                                       \
      .set_num_outputs(1)                                                                      \
      .set_attr_parser(ParamParser<NumpyBinaryScalarParam>)                                    \
      .set_attr<nnvm::FListInputNames>(                                                        \
          "FListInputNames",                                                                   \
          [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"data"}; })             \
      .set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)                        \
      .set_attr<nnvm::FInferType>("FInferType", NumpyCompareType)                              \
      .set_attr<FCompute>("FCompute<cpu>", NumpyCompareScalarCompute<cpu, functor>)                 \
      .set_attr<bool>("TNonDifferentiable", true)                                              \
      .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)                               \
      .add_argument("data", "NDArray-or-Symbol", "source input")                               \
      .add_arguments(NumpyBinaryScalarParam::__FIELDS__())

MXNET_NP_REGISTER_COMPARISON(equal, mshadow_op::eq, "==");
MXNET_NP_REGISTER_COMPARISON(not_equal, mshadow_op::ne, "!=");
MXNET_NP_REGISTER_COMPARISON(greater, mshadow_op::gt, ">");
MXNET_NP_REGISTER_COMPARISON(greater_equal, mshadow_op::ge, ">=");
MXNET_NP_REGISTER_COMPARISON(less, mshadow_op::lt, "<");
MXNET_NP_REGISTER_COMPARISON(less_equal, mshadow_op::le, "<=");

}  // namespace op
}  // namespace mxnet
