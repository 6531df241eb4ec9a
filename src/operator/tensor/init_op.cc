/*!
 * \file init_op.cc
 * \brief Registration of the creation operators and zeros_like / ones_like.
 */
#include "./init_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(InitOpParam);
DMLC_REGISTER_PARAMETER(InitOpWithoutDTypeParam);
DMLC_REGISTER_PARAMETER(InitOpWithScalarParam);
DMLC_REGISTER_PARAMETER(RangeParam);
DMLC_REGISTER_PARAMETER(LinspaceParam);
DMLC_REGISTER_PARAMETER(EyeParam);

namespace {

/*! \brief `_arange(n)` means [0, n): with no stop (and no infer_range) start becomes stop. */
void RangeParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<RangeParam>(attrs);
  RangeParam& param = dmlc::get<RangeParam>(attrs->parsed);
  if (!param.infer_range && !param.stop.has_value()) {
    param.stop = param.start;
    param.start = 0;
  }
}

}  // namespace

/*! \brief A creation op: no inputs, one output, not differentiable. */
#define MXNET_REGISTER_INIT_OP(name)                                                   \
  NNVM_REGISTER_OP(name)                                                               \
  .set_num_inputs(0)                                                                   \
  .set_num_outputs(1)                                                                  \
  .set_attr<bool>("TNonDifferentiable", true)

MXNET_REGISTER_INIT_OP(_zeros_without_dtype)
.describe("fill target with zeros without default dtype" ADD_FILELINE)
.set_attr_parser(ParamParser<InitOpWithoutDTypeParam>)
.set_attr<mxnet::FInferShape>("FInferShape", InitShape<InitOpWithoutDTypeParam>)
.set_attr<nnvm::FInferType>("FInferType", InitType<InitOpWithoutDTypeParam>)
.set_attr<FCompute>("FCompute<cpu>", FillCompute<cpu, 0>)
.add_arguments(InitOpWithoutDTypeParam::__FIELDS__());

MXNET_REGISTER_INIT_OP(_zeros)
.describe("fill target with zeros" ADD_FILELINE)
.set_attr_parser(ParamParser<InitOpParam>)
.set_attr<mxnet::FInferShape>("FInferShape", InitShape<InitOpParam>)
.set_attr<nnvm::FInferType>("FInferType", InitType<InitOpParam>)
.set_attr<FCompute>("FCompute<cpu>", FillCompute<cpu, 0>)
.add_arguments(InitOpParam::__FIELDS__());

MXNET_REGISTER_INIT_OP(_ones)
.describe("fill target with ones" ADD_FILELINE)
.set_attr_parser(ParamParser<InitOpParam>)
.set_attr<mxnet::FInferShape>("FInferShape", InitShape<InitOpParam>)
.set_attr<nnvm::FInferType>("FInferType", InitType<InitOpParam>)
.set_attr<FCompute>("FCompute<cpu>", FillCompute<cpu, 1>)
.add_arguments(InitOpParam::__FIELDS__());

MXNET_REGISTER_INIT_OP(_full)
.add_alias("_npi_full")
.describe("fill target with a scalar value" ADD_FILELINE)
.set_attr_parser(ParamParser<InitOpWithScalarParam>)
.set_attr<mxnet::FInferShape>("FInferShape", InitShape<InitOpWithScalarParam>)
.set_attr<nnvm::FInferType>("FInferType", InitType<InitOpWithScalarParam>)
.set_attr<FCompute>("FCompute<cpu>", FullCompute<cpu>)
.add_arguments(InitOpWithScalarParam::__FIELDS__());

MXNET_REGISTER_INIT_OP(_arange)
.describe(R"code(Return evenly spaced values within a given interval. Similar to Numpy

With only `start` given, the values are [0, start).

Example::

   arange(5) = [0, 1, 2, 3, 4]
   arange(2, 6, 2, repeat=2) = [2, 2, 4, 4]

)code" ADD_FILELINE)
.set_attr_parser(RangeParamParser)
.set_attr<mxnet::FInferShape>("FInferShape", RangeShape)
.set_attr<nnvm::FInferType>("FInferType", InitType<RangeParam>)
.set_attr<FCompute>("FCompute<cpu>", RangeCompute<cpu>)
.add_arguments(RangeParam::__FIELDS__());

// As in MXNet 1.9.1, _linspace parses LinspaceParam (start, stop, num, endpoint, ctx, dtype)
// while its documented arguments are RangeParam's.
MXNET_REGISTER_INIT_OP(_linspace)
.add_alias("_npi_linspace")
.describe("Return evenly spaced numbers over a specified interval. Similar to Numpy" ADD_FILELINE)
.set_attr_parser(ParamParser<LinspaceParam>)
.set_attr<mxnet::FInferShape>("FInferShape", LinspaceShape)
.set_attr<nnvm::FInferType>("FInferType", InitType<LinspaceParam>)
.set_attr<FCompute>("FCompute<cpu>", LinspaceCompute<cpu>)
.add_arguments(RangeParam::__FIELDS__());

MXNET_REGISTER_INIT_OP(_eye)
.describe("Return a 2-D array with ones on the diagonal and zeros elsewhere." ADD_FILELINE)
.set_attr_parser(ParamParser<EyeParam>)
.set_attr<mxnet::FInferShape>("FInferShape", EyeShape)
.set_attr<nnvm::FInferType>("FInferType", InitType<EyeParam>)
.set_attr<FCompute>("FCompute<cpu>", EyeCompute<cpu>)
.add_arguments(EyeParam::__FIELDS__());

NNVM_REGISTER_OP(zeros_like)
.add_alias("_sparse_zeros_like")
.describe(R"code(Return an array of zeros with the same shape, type and storage type
as the input array.

Examples::

  x = [[ 1.,  1.,  1.],
       [ 1.,  1.,  1.]]

  zeros_like(x) = [[ 0.,  0.,  0.],
                   [ 0.,  0.,  0.]]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames",
    [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"data"}; })
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FIgnoreInputs>("FIgnoreInputs",
    [](const nnvm::NodeAttrs&) { return std::vector<uint32_t>(1, 0); })
.set_attr<FCompute>("FCompute<cpu>", FillCompute<cpu, 0>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "The input");

NNVM_REGISTER_OP(ones_like)
.describe(R"code(Return an array of ones with the same shape and type
as the input array.

Examples::

  x = [[ 0.,  0.,  0.],
       [ 0.,  0.,  0.]]

  ones_like(x) = [[ 1.,  1.,  1.],
                  [ 1.,  1.,  1.]]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames",
    [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"data"}; })
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FIgnoreInputs>("FIgnoreInputs",
    [](const nnvm::NodeAttrs&) { return std::vector<uint32_t>(1, 0); })
.set_attr<FCompute>("FCompute<cpu>", FillCompute<cpu, 1>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "The input");

}  // namespace op
}  // namespace mxnet
