/*!
 * \file correlation.cc
 * \brief Correlation (FlowNet's correlation layer): registration, shape inference and the CPU
 *        kernels of correlation-inl.h (which describes the maths).
 */
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./correlation-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(CorrelationParam);

namespace {

bool CorrelationShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  const CorrelationParam& p = nnvm::get<CorrelationParam>(attrs.parsed);
  const mxnet::TShape& a = (*in)[0];
  const mxnet::TShape& b = (*in)[1];
  if (shape_is_known(a) && shape_is_known(b) && a != b) {
    MX_THROW(ValueError) << "Correlation: data1 and data2 must have the same shape, got " << a
                         << " and " << b;
  }
  if (shape_is_known(a)) SHAPE_ASSIGN_CHECK(*in, 1, a);
  if (shape_is_known(b)) SHAPE_ASSIGN_CHECK(*in, 0, b);
  if (!shape_is_known((*in)[0])) return false;
  const CorrDims d = MakeCorrDims(p, (*in)[0]);
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d.N, d.grid * d.grid, d.out_h, d.out_w}));
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_backward_Correlation)
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<CorrelationParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (!shape_is_known((*in)[1])) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[1]);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<3, 2>)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // padded copies
})
.set_attr<FCompute>("FCompute<cpu>", CorrelationBackward<cpu>);

NNVM_REGISTER_OP(Correlation)
.describe(R"code(Applies correlation to inputs.

The correlation layer of FlowNet compares every patch of data1 with the patches of data2 in a
neighbourhood of displacements around it. For a displacement (p, q) (in units of stride2, up to
max_displacement) and an output position, the value is the sum over channels and the kernel
window of data1 * data2 (is_multiply) or |data1 - data2|, divided by kernel_size^2 * channels.
The output has (2 * (max_displacement / stride2) + 1)^2 channels, one per displacement.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CorrelationParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data1", "data2"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CorrelationShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // padded copies
})
.set_attr<FCompute>("FCompute<cpu>", CorrelationForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_Correlation"})
.add_argument("data1", "NDArray-or-Symbol", "Input data1 to the correlation.")
.add_argument("data2", "NDArray-or-Symbol", "Input data2 to the correlation.")
.add_arguments(CorrelationParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
