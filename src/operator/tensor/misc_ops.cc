/*!
 * \file misc_ops.cc
 * \brief Small operators of MXNet 1.9.1: hard_sigmoid, cumsum (_np_cumsum), shape_array,
 *        size_array, amp_cast, amp_multicast, _contrib_gradientmultiplier, _contrib_round_ste,
 *        _contrib_sign_ste, _contrib_index_array and the deprecated _onehot_encode.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../host_fallback.h"
#include "../operator_common.h"
#include "./elemwise_unary_op-inl.h"
#include "./misc_ops-inl.h"

namespace mxnet {
namespace op {

namespace {

template <typename DType>
void Assign(DType* dst, OpReqType req, double v) {
  if (req == kNullOp) return;
  *dst = req == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v)
                       : static_cast<DType>(v);
}

bool IsAmpFloat(int dtype) {
  return dtype == mshadow::kFloat32 || dtype == mshadow::kFloat16 || dtype == mshadow::kBfloat16;
}

void Int64Output(const TBlob& out, const std::vector<int64_t>& values, OpReqType req) {
  int64_t* p = out.dptr<int64_t>();
  for (size_t i = 0; i < values.size(); ++i) Assign(p + i, req, static_cast<double>(values[i]));
}

bool Int64OutputType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kInt64);
  return true;
}

}  // namespace

// ---- hard_sigmoid --------------------------------------------------------------------------

DMLC_REGISTER_PARAMETER(HardSigmoidParam);

NNVM_REGISTER_OP(hard_sigmoid)
.describe(R"code(Computes hard sigmoid of x element-wise.

.. math::
   y = max(0, min(1, alpha * x + beta))

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<HardSigmoidParam>)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", HardSigmoidCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_hard_sigmoid"})
.add_argument("data", "NDArray-or-Symbol", "The input array.")
.add_arguments(HardSigmoidParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_hard_sigmoid)
.describe("Backward of hard_sigmoid: (out_grad, data) -> data_grad; alpha * out_grad where "
          "0 < alpha * x + beta < 1, else 0.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<HardSigmoidParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<2, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<FCompute>("FCompute<cpu>", HardSigmoidGradCompute<cpu>);

// ---- cumsum ----------------------------------------------------------------------------------

DMLC_REGISTER_PARAMETER(CumsumParam);

NNVM_REGISTER_OP(_np_cumsum)
.add_alias("cumsum")
.describe(R"code(Return the cumulative sum of the elements along a given axis.)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CumsumParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"a"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const CumsumParam& p = nnvm::get<CumsumParam>(attrs.parsed);
  const TShape& s = (*in)[0];
  if (!shape_is_known(s)) return false;
  CumsumLayout(p, s);  // validates axis
  SHAPE_ASSIGN_CHECK(*out, 0, p.axis.has_value() ? s : TShape({static_cast<dim_t>(s.Size())}));
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const CumsumParam& p = nnvm::get<CumsumParam>(attrs.parsed);
  const int t = (*in)[0];
  if (p.dtype.has_value()) {
    TYPE_ASSIGN_CHECK(*out, 0, p.dtype.value());
  } else if (t >= 0) {
    TYPE_ASSIGN_CHECK(*out, 0, t == mshadow::kBool ? mshadow::kInt64 : t);
  }
  return t >= 0 && (*out)[0] >= 0;
})
.set_attr<FCompute>("FCompute<cpu>", (CumsumCompute<cpu, false>))
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_np_cumsum"})
.add_argument("a", "NDArray-or-Symbol", "Input ndarray")
.add_arguments(CumsumParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_np_cumsum)
.describe("Backward of cumsum: out_grad -> the reversed running sum along the axis, in the "
          "input's shape and dtype.")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CumsumParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", (CumsumCompute<cpu, true>));

// ---- shape_array, size_array -------------------------------------------------------------

NNVM_REGISTER_OP(shape_array)
.add_alias("_npx_shape_array")
.describe(R"code(Returns a 1D int64 array containing the shape of data.

Example::

  shape_array([[1,2,3,4], [5,6,7,8]]) = [2,4]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (!ndim_is_known((*in)[0])) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, TShape({static_cast<dim_t>((*in)[0].ndim())}));
  return shape_is_known((*in)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", Int64OutputType)
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<FCompute>("FCompute<cpu>", ShapeArrayCompute<cpu>)
.add_argument("data", "NDArray-or-Symbol", "Input Array.");

NNVM_REGISTER_OP(size_array)
.describe(R"code(Returns a 1D int64 array containing the size of data.

Example::

  size_array([[1,2,3,4], [5,6,7,8]]) = [8]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, TShape({1}));
  return shape_is_known((*in)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", Int64OutputType)
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<FCompute>("FCompute<cpu>", SizeArrayCompute<cpu>)
.add_argument("data", "NDArray-or-Symbol", "Input Array.");

// ---- amp_cast, amp_multicast -----------------------------------------------------------------

struct AMPCastParam : public dmlc::Parameter<AMPCastParam> {
  int dtype;
  DMLC_DECLARE_PARAMETER(AMPCastParam) {
    DMLC_DECLARE_FIELD(dtype) MXNET_ADD_ALL_TYPES.describe("Output data type.");
  }
};
DMLC_REGISTER_PARAMETER(AMPCastParam);

struct AMPMultiCastParam : public dmlc::Parameter<AMPMultiCastParam> {
  int num_outputs;
  bool cast_narrow;
  DMLC_DECLARE_PARAMETER(AMPMultiCastParam) {
    DMLC_DECLARE_FIELD(num_outputs).set_lower_bound(1)
        .describe("Number of input/output pairs to be casted to the widest type.");
    DMLC_DECLARE_FIELD(cast_narrow).set_default(false)
        .describe("Whether to cast to the narrowest type");
  }
};
DMLC_REGISTER_PARAMETER(AMPMultiCastParam);


NNVM_REGISTER_OP(amp_cast)
.describe(R"code(Cast function between low precision float/FP32 used by AMP.

It casts only between low precision float/FP32 and does not do anything for other types.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AMPCastParam>)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const AMPCastParam& p = nnvm::get<AMPCastParam>(attrs.parsed);
  const int t = (*in)[0];
  if (t < 0) return false;
  const int target = IsAmpFloat(t) ? p.dtype : t;
  CheckComputableDType("amp_cast", "output", target);
  TYPE_ASSIGN_CHECK(*out, 0, target);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", CastEachCompute<cpu>)
.set_attr<bool>("TBFloat16Native", true)  // converts bfloat16 itself (common/cast.h)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_amp_cast"})
.add_argument("data", "NDArray-or-Symbol", "The input.")
.add_arguments(AMPCastParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_amp_cast)
.describe("Backward of amp_cast: the gradient converted back to the input dtype.")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AMPCastParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", CastEachCompute<cpu>)
.set_attr<bool>("TBFloat16Native", true);  // converts bfloat16 itself (common/cast.h)

NNVM_REGISTER_OP(amp_multicast)
.describe(R"code(Cast function used by AMP, that casts its inputs to the common widest type.

It casts only between low precision float/FP32 and does not do anything for other types.

)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<AMPMultiCastParam>(attrs.parsed).num_outputs);
})
.set_num_outputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<AMPMultiCastParam>(attrs.parsed).num_outputs);
})
.set_attr_parser(ParamParser<AMPMultiCastParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  std::vector<std::string> names;
  for (int i = 0; i < nnvm::get<AMPMultiCastParam>(attrs.parsed).num_outputs; ++i) {
    names.push_back("data_" + std::to_string(i));
  }
  return names;
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  bool known = true;
  for (size_t i = 0; i < in->size(); ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, (*in)[i]);
    SHAPE_ASSIGN_CHECK(*in, i, (*out)[i]);
    known &= shape_is_known((*in)[i]);
  }
  return known;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const AMPMultiCastParam& p = nnvm::get<AMPMultiCastParam>(attrs.parsed);
  for (int t : *in) if (t < 0) return false;
  // Only float32/float16 inputs take part; float64 and integer inputs pass through.
  int target = -1;
  for (int t : *in) {
    if (!IsAmpFloat(t)) continue;
    const bool wider = mshadow::mshadow_sizeof(t) > mshadow::mshadow_sizeof(target);
    if (target < 0 || (p.cast_narrow ? !wider && t != target : wider)) target = t;
  }
  for (size_t i = 0; i < in->size(); ++i) {
    TYPE_ASSIGN_CHECK(*out, i, IsAmpFloat((*in)[i]) ? target : (*in)[i]);
  }
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", CastEachCompute<cpu>)
.set_attr<bool>("TBFloat16Native", true)  // converts bfloat16 itself (common/cast.h)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_amp_multicast"})
.add_argument("data", "NDArray-or-Symbol[]", "Weights")
.add_arguments(AMPMultiCastParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_amp_multicast)
.describe("Backward of amp_multicast: every gradient converted back to its input's dtype.")
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<AMPMultiCastParam>(attrs.parsed).num_outputs);
})
.set_num_outputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<AMPMultiCastParam>(attrs.parsed).num_outputs);
})
.set_attr_parser(ParamParser<AMPMultiCastParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", CastEachCompute<cpu>)
.set_attr<bool>("TBFloat16Native", true);  // converts bfloat16 itself (common/cast.h)

// ---- straight-through and gradient-scaling ops ---------------------------------------------

DMLC_REGISTER_PARAMETER(GradientMultiplierParam);

NNVM_REGISTER_OP(_contrib_gradientmultiplier)
.describe(R"code(This operator implements the gradient multiplier function.
In forward pass it acts as an identity transform. During backpropagation it
multiplies the gradient from the subsequent level by a scalar factor lambda and passes it to
the preceding layer.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GradientMultiplierParam>)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", CastEachCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
                           ElemwiseGradUseNone{"_contrib_backward_gradientmultiplier"})
.add_argument("data", "NDArray-or-Symbol", "The input array.")
.add_arguments(GradientMultiplierParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_backward_gradientmultiplier)
.describe("Backward of gradientmultiplier: out_grad * scalar.")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GradientMultiplierParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", GradientMultiplierGradCompute<cpu>);

#define MXNET_REGISTER_STE_OP(name, OP, doc)                                                \
  NNVM_REGISTER_OP(name)                                                                    \
  .describe(doc ADD_FILELINE)                                                               \
  .set_num_inputs(1)                                                                        \
  .set_num_outputs(1)                                                                       \
  .set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)                         \
  .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)                             \
  .set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, OP>)                          \
  .set_attr<nnvm::FGradient>("FGradient", CloneGradient{"_copy"})                           \
  .add_argument("data", "NDArray-or-Symbol", "The input array.")

// Rounds half away from zero, like std::round (MXNet 1.9.1's round_ste).
MXNET_REGISTER_STE_OP(_contrib_round_ste, mshadow_op::round,
R"code(Straight-through-estimator of `round()`.

In forward pass, returns element-wise rounded value to the nearest integer of the input
(same as `round()`).

In backward pass, returns gradients of ``1`` everywhere (instead of ``0`` everywhere as in
`round()`): :math:`\frac{d}{dx}{round\_ste(x)} = 1` vs. :math:`\frac{d}{dx}{round(x)} = 0`.
This enables you to use `round()` with straight-through gradient.

)code");

MXNET_REGISTER_STE_OP(_contrib_sign_ste, mshadow_op::sign,
R"code(Straight-through-estimator of `sign()`.

In forward pass, returns element-wise sign of the input (same as `sign()`).

In backward pass, returns gradients of ``1`` everywhere (instead of ``0`` everywhere as in
``sign()``): :math:`\frac{d}{dx}{sign\_ste(x)} = 1` vs. :math:`\frac{d}{dx}{sign(x)} = 0`.
This enables you to use `sign()` with straight-through gradient.

)code");

// ---- index_array, _onehot_encode -------------------------------------------------------------

DMLC_REGISTER_PARAMETER(IndexArrayParam);


NNVM_REGISTER_OP(_contrib_index_array)
.describe(R"code(Returns an array of indexes of the input array.

For an input array with shape  :math:`(d_1, d_2, ..., d_n)`, `index_array` returns a
:math:`(d_1, d_2, ..., d_n, n)` array `idx`, where
:math:`idx[i_1, i_2, ..., i_n, :] = [i_1, i_2, ..., i_n]`.

Additionally, when the parameter `axes` is specified, `idx` will be a
:math:`(d_1, d_2, ..., d_n, m)` array where `m` is the length of `axes`, and the following
equality will hold: :math:`idx[i_1, i_2, ..., i_n, j] = i_{axes[j]}`.

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<IndexArrayParam>)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const TShape& s = (*in)[0];
  if (!shape_is_known(s)) return false;
  const auto axes = IndexArrayAxes(nnvm::get<IndexArrayParam>(attrs.parsed), s);
  std::vector<dim_t> dims(s.begin(), s.end());
  dims.push_back(static_cast<dim_t>(axes.size()));
  SHAPE_ASSIGN_CHECK(*out, 0, TShape(dims.begin(), dims.end()));
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", Int64OutputType)
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<FCompute>("FCompute<cpu>", IndexArrayCompute<cpu>)
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_arguments(IndexArrayParam::__FIELDS__());

NNVM_REGISTER_OP(_onehot_encode)
.describe(R"code(One-hot encoding of `lhs` (indices, (n,)) into an array shaped like `rhs`
((n, k)). Deprecated in MXNet; use one_hot instead.)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"lhs", "rhs"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const TShape& l = (*in)[0];
  const TShape& r = (*in)[1];
  if (!shape_is_known(l) || !shape_is_known(r)) return false;
  if (l.ndim() != 1 || r.ndim() != 2 || l[0] != r[0]) {
    MX_THROW(ValueError) << "_onehot_encode: lhs must be (n,) indices and rhs (n, k), got lhs "
                         << l << " and rhs " << r;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, r);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  if ((*in)[1] < 0) return false;
  if ((*in)[0] < 0) (*in)[0] = (*in)[1];
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return true;
})
.set_attr<bool>("TNonDifferentiable", true)
.set_attr<FCompute>("FCompute<cpu>", OnehotEncodeCompute<cpu>)
.add_argument("lhs", "NDArray-or-Symbol", "Left operand to the function.")
.add_argument("rhs", "NDArray-or-Symbol", "Right operand to the function.");

}  // namespace op
}  // namespace mxnet

// ---- _histogram ------------------------------------------------------------------------------

namespace mxnet {
namespace op {

struct HistogramParam : public dmlc::Parameter<HistogramParam> {
  dmlc::optional<int> bin_cnt;
  dmlc::optional<mxnet::Tuple<double>> range;
  DMLC_DECLARE_PARAMETER(HistogramParam) {
    DMLC_DECLARE_FIELD(bin_cnt).set_default(dmlc::optional<int>())
        .describe("Number of bins for uniform case");
    DMLC_DECLARE_FIELD(range).set_default(dmlc::optional<mxnet::Tuple<double>>())
        .describe("The lower and upper range of the bins. if not provided, range is simply "
                  "(a.min(), a.max()). values outside the range are ignored. the first "
                  "element of the range must be less than or equal to the second. range "
                  "affects the automatic bin computation as well. while bin width is computed "
                  "to be optimal based on the actual data within range, the bin count will fill "
                  "the entire range including portions containing no data.");
  }
};
DMLC_REGISTER_PARAMETER(HistogramParam);

namespace {

bool HistogramUniform(const HistogramParam& p) { return p.bin_cnt.has_value(); }

/*! \brief (lo, hi) of the uniform bins: the given range, else the data's min and max. */
void UniformRange(const HistogramParam& p, const TBlob& data, double* lo, double* hi) {
  if (p.range.has_value()) {
    const auto& r = p.range.value();
    if (r.ndim() != 2 || !(r[0] <= r[1])) {
      MX_THROW(ValueError) << "histogram: range must be (lower, upper) with lower <= upper, got "
                           << r;
    }
    *lo = r[0];
    *hi = r[1];
    return;
  }
  *lo = 0;
  *hi = 0;
  MSHADOW_TYPE_SWITCH(data.type_flag_, DType, {
    const DType* x = data.dptr<DType>();
    for (size_t i = 0; i < data.Size(); ++i) {
      const double v = static_cast<double>(x[i]);
      if (i == 0 || v < *lo) *lo = v;
      if (i == 0 || v > *hi) *hi = v;
    }
  });
}

void HistogramCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const HistogramParam& p = nnvm::get<HistogramParam>(attrs.parsed);
  const TBlob& data = inputs[0];
  const index_t nbins = outputs[0].Size();
  std::vector<double> edges(nbins + 1);
  double lo = 0, hi = 0;
  if (HistogramUniform(p)) {
    UniformRange(p, data, &lo, &hi);
    for (index_t i = 0; i <= nbins; ++i) edges[i] = lo + (hi - lo) * i / nbins;
  } else {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, BType, {
      for (index_t i = 0; i <= nbins; ++i) edges[i] = static_cast<double>(inputs[1].dptr<BType>()[i]);
    });
    for (index_t i = 0; i < nbins; ++i) {
      if (!(edges[i] <= edges[i + 1])) {
        MX_THROW(ValueError) << "histogram: bins must increase monotonically, got bins[" << i
                             << "] = " << edges[i] << " > bins[" << i + 1 << "] = "
                             << edges[i + 1];
      }
    }
    lo = edges[0];
    hi = edges[nbins];
  }
  std::vector<int64_t> counts(nbins, 0);
  MSHADOW_TYPE_SWITCH(data.type_flag_, DType, {
    const DType* x = data.dptr<DType>();
    for (size_t i = 0; i < data.Size(); ++i) {
      const double v = static_cast<double>(x[i]);
      if (!(v >= lo && v <= hi)) continue;  // outside the range (or NaN): ignored
      index_t bin;
      if (v == hi) {
        bin = nbins - 1;  // the last bin is closed on the right
      } else if (HistogramUniform(p)) {
        bin = std::min<index_t>(nbins - 1, static_cast<index_t>((v - lo) * nbins / (hi - lo)));
      } else {
        bin = static_cast<index_t>(std::upper_bound(edges.begin(), edges.end(), v) -
                                   edges.begin()) - 1;
      }
      ++counts[bin];
    }
  });
  Int64Output(outputs[0], counts, req[0]);
  MSHADOW_TYPE_SWITCH(outputs[1].type_flag_, EType, {
    for (index_t i = 0; i <= nbins; ++i) Assign(outputs[1].dptr<EType>() + i, req[1], edges[i]);
  });
}

}  // namespace

NNVM_REGISTER_OP(_histogram)
.add_alias("_npi_histogram")
.describe(R"code(This operators implements the histogram function.

Example::
  x = [[0, 1], [2, 2], [3, 4]]
  histo, bin_edges = histogram(data=x, bin_bounds=[], bin_cnt=5, range=(0,5))
  histo = [1, 1, 2, 1, 1]
  bin_edges = [0., 1., 2., 3., 4.]
  histo, bin_edges = histogram(data=x, bin_bounds=[0., 2.1, 3.])
  histo = [4, 1]

)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return HistogramUniform(nnvm::get<HistogramParam>(attrs.parsed)) ? 1U : 2U;
})
.set_num_outputs(2)
.set_attr_parser(ParamParser<HistogramParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return HistogramUniform(nnvm::get<HistogramParam>(attrs.parsed))
             ? std::vector<std::string>{"data"}
             : std::vector<std::string>{"data", "bins"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const HistogramParam& p = nnvm::get<HistogramParam>(attrs.parsed);
  if (HistogramUniform(p)) {
    if (p.bin_cnt.value() < 1) {
      MX_THROW(ValueError) << "histogram: bin_cnt must be positive, got " << p.bin_cnt.value();
    }
    SHAPE_ASSIGN_CHECK(*out, 0, TShape({p.bin_cnt.value()}));
    SHAPE_ASSIGN_CHECK(*out, 1, TShape({p.bin_cnt.value() + 1}));
    return shape_is_known((*in)[0]);
  }
  const TShape& b = (*in)[1];
  if (!shape_is_known(b)) return false;
  if (b.ndim() != 1 || b[0] < 2) {
    MX_THROW(ValueError) << "histogram: bins must be a 1-D array of at least 2 edges, got shape "
                         << b;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, TShape({b[0] - 1}));
  SHAPE_ASSIGN_CHECK(*out, 1, b);
  return shape_is_known((*in)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0];
  if (t < 0) return false;
  if (in->size() > 1) TYPE_ASSIGN_CHECK(*in, 1, t);
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kInt64);
  TYPE_ASSIGN_CHECK(*out, 1, t);
  return true;
})
.set_attr<bool>("TNonDifferentiable", true)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(HistogramCompute))
#endif
.set_attr<FCompute>("FCompute<cpu>", HistogramCompute)
.add_argument("data", "NDArray-or-Symbol", "Input ndarray")
.add_argument("bins", "NDArray-or-Symbol", "Input ndarray")
.add_arguments(HistogramParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
