/*!
 * \file np_comparison_op.cc
 * \brief NumPy comparisons _npi_equal, _npi_not_equal, _npi_greater, _npi_greater_equal,
 *        _npi_less, _npi_less_equal (broadcasting, two arrays of one dtype) and their
 *        `_scalar` forms: the results are bool arrays. Not differentiable.
 */
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mshadow_op.h"
#include "../operator_common.h"
#include "../tensor/elemwise_binary_broadcast_op-inl.h"
#include "../tensor/elemwise_binary_scalar_op-inl.h"

namespace mxnet {
namespace op {

namespace {

bool NumpyCompareType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                      std::vector<int>* out_attrs) {
  const int lhs = (*in_attrs)[0];
  const int rhs = in_attrs->size() > 1 ? (*in_attrs)[1] : lhs;
  if (lhs != -1 && rhs != -1 && lhs != rhs) {
    MX_THROW(TypeError) << attrs.op->name << ": both operands must have the same dtype, got "
                        << "dtype codes " << lhs << " and " << rhs
                        << " (mx.np promotes them before calling)";
  }
  TYPE_ASSIGN_CHECK(*out_attrs, 0, mshadow::kBool);
  return lhs != -1 && rhs != -1;
}

/*! \brief out[i] = OP(a, b) != 0 with broadcasting; out is bool. */
template <typename OP>
void NumpyCompareCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& lhs = inputs[0];
  const TBlob& rhs = inputs[1];
  const TBlob& out = outputs[0];
  const BroadcastPlan plan(out.shape_, lhs.shape_, rhs.shape_);
  const index_t inner = plan.ndim == 0 ? 1 : plan.shape[plan.ndim - 1];
  const index_t rows = inner == 0 ? 0 : plan.size / inner;
  bool* y = out.dptr<bool>();
  MSHADOW_TYPE_SWITCH_WITH_BOOL(lhs.type_flag_, DType, {
    const DType* a = lhs.dptr<DType>();
    const DType* b = rhs.dptr<DType>();
    ForEachRow(plan, 0, rows,
               [&](index_t o, index_t ia, index_t ib, index_t n, index_t sa, index_t sb) {
                 for (index_t j = 0; j < n; ++j) {
                   y[o + j] = OP::Map(a[ia + j * sa], b[ib + j * sb]) != DType(0);
                 }
               });
  });
}

template <typename OP, typename DType>
void CompareWithScalar(const DType* x, double scalar, bool* y, index_t n) {
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
  for (index_t i = 0; i < n; ++i) {
    y[i] = OP::Map(static_cast<double>(x[i]), scalar) != 0.0;
  }
}

/*! \brief out[i] = OP(x[i], scalar) != 0 (compared in double); out is bool. */
template <typename OP>
void NumpyCompareScalarCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const double scalar = nnvm::get<NumpyBinaryScalarParam>(attrs.parsed).scalar;
  const TBlob& in = inputs[0];
  bool* y = outputs[0].dptr<bool>();
  const index_t n = static_cast<index_t>(in.Size());
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    CompareWithScalar<OP>(in.dptr<DType>(), scalar, y, n);
  });
}

}  // namespace

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
      .set_attr<FCompute>("FCompute<cpu>", NumpyCompareCompute<functor>)                       \
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
      .set_attr<FCompute>("FCompute<cpu>", NumpyCompareScalarCompute<functor>)                 \
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
