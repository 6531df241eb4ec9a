/*!
 * \file np_broadcast_reduce_op.cc
 * \brief Registration of the NumPy reductions _np_sum, _np_prod, _np_max, _np_min, _npi_mean
 *        (and their gradients): full reductions give 0-d arrays, `dtype=` picks the output type.
 */
#include "./np_broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(NumpyReduceAxesParam);

#define MXNET_NP_REGISTER_REDUCE(name)                                                   \
  NNVM_REGISTER_OP(name)                                                                 \
      .set_num_inputs(1)                                                                 \
      .set_num_outputs(1)                                                                \
      .set_attr_parser(ParamParser<NumpyReduceAxesParam>)                                \
      .set_attr<mxnet::FInferShape>("FInferShape", NumpyReduceAxesShape)                 \
      .set_attr<nnvm::FInferType>("FInferType", NumpyReduceAxesType)                     \
      .set_attr<nnvm::FListInputNames>("FListInputNames",                                \
                                       [](const NodeAttrs& attrs) {                      \
                                         return std::vector<std::string>{"a"};           \
                                       })                                                \
      .add_argument("a", "NDArray-or-Symbol", "The input")                               \
      .add_arguments(NumpyReduceAxesParam::__FIELDS__())

#define MXNET_NP_REGISTER_REDUCE_BACKWARD(name)                          \
  NNVM_REGISTER_OP(name)                                                 \
      .set_num_outputs(1)                                                \
      .set_attr_parser(ParamParser<NumpyReduceAxesParam>)                \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)

namespace {
/*! \brief Backward ops with (ograd, data, out) inputs: igrad has data's shape and type. */
bool NumpyReduceBackwardInOutShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                                   mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
}
bool NumpyReduceBackwardInOutType(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                  std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return (*out)[0] != -1;
}
}  // namespace

MXNET_NP_REGISTER_REDUCE(_np_sum)
    .describe(R"code(Sum of array elements over the given axes (numpy.sum).

With axis=None every axis is reduced and the result is a 0-d array.
)code" ADD_FILELINE)
    .set_attr<FCompute>("FCompute<cpu>", NumpyReduceAxesCompute<cpu, red::sum>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_np_sum"});

MXNET_NP_REGISTER_REDUCE_BACKWARD(_backward_np_sum)
    .set_num_inputs(1)
    .set_attr<FCompute>("FCompute<cpu>", NumpyReduceBackwardUseNone<cpu, false>);

MXNET_NP_REGISTER_REDUCE(_npi_mean)
    .describe(R"code(Arithmetic mean of array elements over the given axes (numpy.mean).

With axis=None every axis is reduced and the result is a 0-d array.
)code" ADD_FILELINE)
    .set_attr<FCompute>("FCompute<cpu>", NumpyReduceAxesCompute<cpu, red::mean>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_np_mean"});

MXNET_NP_REGISTER_REDUCE_BACKWARD(_backward_np_mean)
    .set_num_inputs(1)
    .set_attr<FCompute>("FCompute<cpu>", NumpyReduceBackwardUseNone<cpu, true>);

MXNET_NP_REGISTER_REDUCE(_np_prod)
    .add_alias("_np_product")
    .describe(R"code(Product of array elements over the given axes (numpy.prod).
)code" ADD_FILELINE)
    .set_attr<FCompute>("FCompute<cpu>", NumpyReduceAxesCompute<cpu, red::prod>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_np_prod"});

MXNET_NP_REGISTER_REDUCE(_np_max)
    .add_alias("_np_amax")
    .describe(R"code(Maximum of array elements over the given axes (numpy.max). NaN propagates.
)code" ADD_FILELINE)
    .set_attr<FCompute>("FCompute<cpu>", NumpyReduceAxesCompute<cpu, red::maximum>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_np_max"});

MXNET_NP_REGISTER_REDUCE(_np_min)
    .add_alias("_np_amin")
    .describe(R"code(Minimum of array elements over the given axes (numpy.min). NaN propagates.
)code" ADD_FILELINE)
    .set_attr<FCompute>("FCompute<cpu>", NumpyReduceAxesCompute<cpu, red::minimum>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_np_min"});

#define MXNET_NP_REGISTER_REDUCE_BACKWARD_INOUT(name, grad_op)                                 \
  MXNET_NP_REGISTER_REDUCE_BACKWARD(name)                                                      \
      .set_num_inputs(3)                                                                       \
      .set_attr<mxnet::FInferShape>("FInferShape", NumpyReduceBackwardInOutShape)              \
      .set_attr<nnvm::FInferType>("FInferType", NumpyReduceBackwardInOutType)                  \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")                 \
      .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")              \
      .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")           \
      .set_attr<FCompute>("FCompute<cpu>", NumpyReduceBackwardUseInOut<cpu, grad_op>)

MXNET_NP_REGISTER_REDUCE_BACKWARD_INOUT(_backward_np_prod, red_grad::prod);
MXNET_NP_REGISTER_REDUCE_BACKWARD_INOUT(_backward_np_max, red_grad::eq);
MXNET_NP_REGISTER_REDUCE_BACKWARD_INOUT(_backward_np_min, red_grad::eq);

}  // namespace op
}  // namespace mxnet
