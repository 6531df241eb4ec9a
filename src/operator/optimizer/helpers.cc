/*!
 * \file helpers.cc
 * \brief Operators the Python optimizers, Gluon Trainer and AMP use around the updates:
 *        reset_arrays (zero many arrays in place), all_finite / multi_all_finite (overflow
 *        check for loss scaling), multi_sum_sq (squared L2 norm of each array) and multi_lars
 *        (layer-wise adaptive learning rates).
 */
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./helpers-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ResetArraysParam);
DMLC_REGISTER_PARAMETER(AllFiniteParam);
DMLC_REGISTER_PARAMETER(MultiAllFiniteParam);
DMLC_REGISTER_PARAMETER(MultiSumSqParam);
DMLC_REGISTER_PARAMETER(LARSParam);

namespace {

template <typename Param>
uint32_t NumArrays(const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<Param>(attrs.parsed).num_arrays);
}

/*! \brief True when every element of b is finite. */
bool BlobAllFinite(const TBlob& b) {
  bool ok = true;
  MSHADOW_TYPE_SWITCH(b.type_flag_, DType, {
    const DType* p = b.dptr<DType>();
    const index_t n = b.Size();
    for (index_t i = 0; i < n && ok; ++i) ok = std::isfinite(static_cast<double>(p[i]));
  });
  return ok;
}

/*! \brief Sum of squares of b's elements (double accumulation). */
double BlobSumSq(const TBlob& b) {
  double s = 0;
  MSHADOW_REAL_TYPE_SWITCH(b.type_flag_, DType, {
    const DType* p = b.dptr<DType>();
    const index_t n = b.Size();
    for (index_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(p[i]);
      s += v * v;
    }
  });
  return s;
}

/*! \brief out[0] = 1 (when init) and 0 if any input has a non-finite value. */
void FiniteCheck(const std::vector<TBlob>& inputs, bool init, const TBlob& out) {
  float* o = out.dptr<float>();
  if (init) o[0] = 1.f;
  for (const TBlob& b : inputs) {
    if (!BlobAllFinite(b)) {
      o[0] = 0.f;
      return;
    }
  }
}

bool ScalarOutShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape(1, 1));
  for (const auto& s : *in)
    if (!shape_is_known(s)) return false;
  return true;
}

bool Float32OutType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, mshadow::kFloat32);
  for (int t : *in)
    if (t < 0) return false;
  return true;
}

}  // namespace

NNVM_REGISTER_OP(reset_arrays)
.describe(R"code(Set to zero multiple arrays
)code" ADD_FILELINE)
.set_num_inputs(NumArrays<ResetArraysParam>)
.set_num_outputs(0)
.set_attr_parser(ParamParser<ResetArraysParam>)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  for (const auto& s : *in)
    if (!shape_is_known(s)) return false;
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  for (int t : *in)
    if (t < 0) return false;
  return true;
})
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const nnvm::NodeAttrs& attrs) {
  std::vector<uint32_t> idx(NumArrays<ResetArraysParam>(attrs));
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<uint32_t>(i);
  return idx;
})
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  for (const TBlob& b : inputs) {
    if (b.Size() > 0) std::memset(b.dptr_, 0, b.Size() * mshadow::mshadow_sizeof(b.type_flag_));
  }
})
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol[]", "Arrays")
.add_arguments(ResetArraysParam::__FIELDS__());

NNVM_REGISTER_OP(all_finite)
.describe(R"code(Check if all the float numbers in the array are finite (used for AMP)
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AllFiniteParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ScalarOutShape)
.set_attr<nnvm::FInferType>("FInferType", Float32OutType)
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  FiniteCheck(inputs, nnvm::get<AllFiniteParam>(attrs.parsed).init_output, outputs[0]);
})
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray", "Array")
.add_arguments(AllFiniteParam::__FIELDS__());

NNVM_REGISTER_OP(multi_all_finite)
.describe(R"code(Check if all the float numbers in all the arrays are finite (used for AMP)
)code" ADD_FILELINE)
.set_num_inputs(NumArrays<MultiAllFiniteParam>)
.set_num_outputs(1)
.set_attr_parser(ParamParser<MultiAllFiniteParam>)
.set_attr<mxnet::FInferShape>("FInferShape", ScalarOutShape)
.set_attr<nnvm::FInferType>("FInferType", Float32OutType)
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  FiniteCheck(inputs, nnvm::get<MultiAllFiniteParam>(attrs.parsed).init_output, outputs[0]);
})
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol[]", "Arrays")
.add_arguments(MultiAllFiniteParam::__FIELDS__());

NNVM_REGISTER_OP(multi_sum_sq)
.describe(R"code(Compute the sums of squares of multiple arrays
)code" ADD_FILELINE)
.set_num_inputs(NumArrays<MultiSumSqParam>)
.set_num_outputs(1)
.set_attr_parser(ParamParser<MultiSumSqParam>)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape(1, NumArrays<MultiSumSqParam>(attrs)));
  for (const auto& s : *in)
    if (!shape_is_known(s)) return false;
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", Float32OutType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  // The GPU kernel's partial sums.
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", [](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                        const std::vector<TBlob>& inputs,
                                        const std::vector<OpReqType>& req,
                                        const std::vector<TBlob>& outputs) {
  float* o = outputs[0].dptr<float>();
  for (size_t i = 0; i < inputs.size(); ++i) {
    KERNEL_ASSIGN(o[i], req[0], static_cast<float>(BlobSumSq(inputs[i])));
  }
})
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol[]", "Arrays")
.add_arguments(MultiSumSqParam::__FIELDS__());

NNVM_REGISTER_OP(multi_lars)
.describe(R"code(Compute the LARS coefficients of multiple weights and grads from their sums of square"

``new_lr[i] = lr[i] * eta * w_norm / (g_norm + wd[i] * w_norm + eps)`` with
``w_norm = sqrt(weights_sum_sq[i])`` and ``g_norm = sqrt(grads_sum_sq[i]) * rescale_grad``,
or ``lr[i]`` when either norm is 0.
)code" ADD_FILELINE)
.set_num_inputs(4)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LARSParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"lrs", "weights_sum_sq", "grads_sum_sq", "wds"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  mxnet::TShape s;
  for (const auto& x : *in) {
    if (!ndim_is_known(x)) continue;
    if (ndim_is_known(s) && x != s) {
      MX_THROW(ValueError) << "multi_lars: expected lrs, weights_sum_sq, grads_sum_sq and wds "
                           << "of one shape, got " << s << " and " << x;
    }
    s = x;
  }
  if (!ndim_is_known(s)) return false;
  for (size_t i = 0; i < in->size(); ++i) SHAPE_ASSIGN_CHECK(*in, i, s);
  SHAPE_ASSIGN_CHECK(*out, 0, s);
  return shape_is_known(s);
})
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<4, 1>)
.set_attr<FCompute>("FCompute<cpu>", MultiLARSCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("lrs", "NDArray-or-Symbol", "Learning rates to scale by LARS coefficient")
.add_argument("weights_sum_sq", "NDArray-or-Symbol", "sum of square of weights arrays")
.add_argument("grads_sum_sq", "NDArray-or-Symbol", "sum of square of gradients arrays")
.add_argument("wds", "NDArray-or-Symbol", "weight decays")
.add_arguments(LARSParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
