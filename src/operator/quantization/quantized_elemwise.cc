/*!
 * \file quantized_elemwise.cc
 * \brief Quantized operators that work element by element or move data:
 *        _contrib_quantized_flatten, _contrib_quantized_act (relu), _contrib_quantized_concat,
 *        _contrib_quantized_elemwise_add, _contrib_quantized_elemwise_mul,
 *        _contrib_quantized_embedding, _contrib_quantized_batch_norm.
 *
 * Ranges (see quantization_utils-inl.h): m = MaxAbs(min, max) of a tensor, R = 127.5 (int8) or
 * 255.5 (uint8), L = 127 / 255. The real value of q is q * m / R.
 *  - flatten / act / embedding: the values move (relu: max(q, 0)); the range passes through.
 *  - concat: output range [min of mins, max of maxes], int8 if any input is int8 else uint8;
 *    an input whose range differs is rescaled, q' = round(q * (m_in / L_in) * (L_out / m_out)).
 *  - elemwise_add: without calibration an int32 sum, range +-(m_l + m_r),
 *    out = round((q_l m_l / R_l + q_r m_r / R_r) * 2^31 / (m_l + m_r)); with calibration
 *    int8 (uint8 when both inputs are uint8), out = round(real * R / MaxAbs(calib)), range the
 *    calibrated one.
 *  - elemwise_mul (int8 inputs only, as in 1.9.1): without calibration the exact int32 product, range
 *    +-(m_l / L_l)(m_r / L_r) 2^31; enable_float_output gives the float32 product
 *    q_l q_r (m_l / R_l)(m_r / R_r); with calibration int8, truncated
 *    q_l q_r (m_l / R_l)(m_r / R_r) R / MaxAbs(calib) (1.9.1 wraps where this saturates).
 *  - batch_norm: y = gamma (x - mean) / sqrt(var + eps) + beta on x = q m / R, requantized to
 *    int8 with the calibrated range (required, as in 1.9.1): round(y * 127.5 / MaxAbs(calib)),
 *    in 1.9.1's float32 order, which divides by sqrt(1 + eps) once more (see BNQCompute); uint8
 *    data is first halved to int8 as 1.9.1 does.
 * MXNet 1.9.1 differences, by design: quantized_act on uint8 data gives uint8 (1.9.1 labels it
 * int8); elemwise_add of uint8 + int8 adds both operands (1.9.1's CPU build drops the uint8
 * one); elemwise_mul runs imperatively (1.9.1 fails there and only runs in a bound symbol).
 * The kernels are in quantized_elemwise-inl.h, shared with the GPU registrations in
 * quantized_elemwise.cu.
 */
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../nn/activation-inl.h"
#include "../nn/batch_norm-inl.h"
#include "../tensor/concat_split_op-inl.h"
#include "../tensor/indexing_op-inl.h"
#include "./quantized_elemwise-inl.h"

namespace mxnet {
namespace op {

using namespace quant;  // NOLINT

DMLC_REGISTER_PARAMETER(QuantizedElemwiseParam);
DMLC_REGISTER_PARAMETER(QuantizedElemwiseMulParam);

namespace {

std::vector<std::string> OutNames3() { return {"output", "min_output", "max_output"}; }

// ---- flatten -----------------------------------------------------------------------------------

const char* kFlatten = "_contrib_quantized_flatten";

bool FlattenShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  RangeShapes(kFlatten, in, 1, 3, Names({"data", "min_data", "max_data"}));
  ScalarOutShapes(out, 1, 3);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  if (d.ndim() < 1) {
    MX_THROW(ValueError) << kFlatten << ": data must have at least 1 dimension, got " << d;
  }
  dim_t rest = 1;
  for (int i = 1; i < d.ndim(); ++i) rest = (d[i] < 0 || rest < 0) ? -1 : rest * d[i];
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], rest}));
  return shape_is_known(d);
}

bool PassTypes(const char* op, std::vector<int>* in, std::vector<int>* out,
               const std::vector<int>& allowed) {
  RangeTypes(op, in, 1, 3, Names({"data", "min_data", "max_data"}));
  if (!CheckInType(op, in, 0, "data", allowed)) return false;
  QuantOutTypes(out, (*in)[0]);
  return true;
}

// ---- act ---------------------------------------------------------------------------------------

const char* kAct = "_contrib_quantized_act";

bool SameShape3(const char* op, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  RangeShapes(op, in, 1, 3, Names({"data", "min_data", "max_data"}));
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  ScalarOutShapes(out, 1, 3);
  return shape_is_known((*in)[0]);
}

// ---- concat ------------------------------------------------------------------------------------

const char* kConcat = "_contrib_quantized_concat";

std::vector<std::string> ConcatInNames(int n) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("arg" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    names.push_back("arg" + std::to_string(i) + "_min");
    names.push_back("arg" + std::to_string(i) + "_max");
  }
  return names;
}

int ConcatAxis(int dim, int ndim) {
  const int axis = dim < 0 ? dim + ndim : dim;
  if (axis < 0 || axis >= ndim) {
    MX_THROW(IndexError) << kConcat << ": dim " << dim << " is out of range for inputs with "
                         << ndim << " dimensions";
  }
  return axis;
}

bool ConcatQShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const ConcatParam& p = nnvm::get<ConcatParam>(attrs.parsed);
  const int n = p.num_args;
  RangeShapes(kConcat, in, n, 3 * n, ConcatInNames(n));
  ScalarOutShapes(out, 1, 3);
  int ndim = -1;
  for (int i = 0; i < n; ++i) {
    if (ndim_is_known((*in)[i])) ndim = (*in)[i].ndim();
  }
  if (ndim < 0) return false;
  const int axis = ConcatAxis(p.dim, ndim);
  mxnet::TShape oshape(ndim, -1);
  dim_t total = 0;
  for (int i = 0; i < n; ++i) {
    const mxnet::TShape& s = (*in)[i];
    if (!ndim_is_known(s)) {
      total = -1;
      continue;
    }
    if (s.ndim() != ndim) {
      MX_THROW(ValueError) << kConcat << ": all inputs must have " << ndim
                           << " dimensions, input " << i << " has shape " << s;
    }
    for (int d = 0; d < ndim; ++d) {
      if (d == axis) continue;
      if (s[d] >= 0 && oshape[d] >= 0 && s[d] != oshape[d]) {
        MX_THROW(ValueError) << kConcat << ": input " << i << " of shape " << s
                             << " does not match the others outside dim " << p.dim;
      }
      if (s[d] >= 0) oshape[d] = s[d];
    }
    total = (total < 0 || s[axis] < 0) ? -1 : total + s[axis];
  }
  oshape[axis] = total;
  for (int i = 0; i < n; ++i) {
    if (!ndim_is_known((*in)[i])) continue;
    for (int d = 0; d < ndim; ++d) {
      if (d != axis && (*in)[i][d] < 0) (*in)[i][d] = oshape[d];
    }
  }
  SHAPE_ASSIGN_CHECK(*out, 0, oshape);
  for (int i = 0; i < n; ++i) {
    if (!shape_is_known((*in)[i])) return false;
  }
  return true;
}

bool ConcatQType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int n = nnvm::get<ConcatParam>(attrs.parsed).num_args;
  RangeTypes(kConcat, in, n, 3 * n, ConcatInNames(n));
  bool any_int8 = false;
  const auto names = ConcatInNames(n);
  for (int i = 0; i < n; ++i) {
    if (!CheckInType(kConcat, in, i, names[i], {mshadow::kInt8, mshadow::kUint8})) return false;
    any_int8 = any_int8 || (*in)[i] == mshadow::kInt8;
  }
  QuantOutTypes(out, any_int8 ? mshadow::kInt8 : mshadow::kUint8);
  return true;
}


// ---- elemwise add / mul ------------------------------------------------------------------------

std::vector<std::string> BinaryInNames() {
  return {"lhs", "rhs", "lhs_min", "lhs_max", "rhs_min", "rhs_max"};
}

bool BinaryQShape(const char* op, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  RangeShapes(op, in, 2, 6, BinaryInNames());
  for (size_t i = 1; i < out->size(); ++i) SHAPE_ASSIGN_CHECK(*out, i, mxnet::TShape(1, 1));
  mxnet::TShape& l = (*in)[0];
  mxnet::TShape& r = (*in)[1];
  if (ndim_is_known(l) && ndim_is_known(r) && l != r) {
    mxnet::TShape merged = l;
    if (!shape_assign(&merged, r)) {
      MX_THROW(ValueError) << op << ": lhs and rhs must have the same shape, got " << l << " and "
                           << r;
    }
  }
  mxnet::TShape s = ndim_is_known(l) ? l : r;
  if (ndim_is_known(r)) shape_assign(&s, r);
  if (!ndim_is_known(s)) return false;
  shape_assign(&l, s);
  shape_assign(&r, s);
  SHAPE_ASSIGN_CHECK(*out, 0, s);
  return shape_is_known(s);
}

bool BinaryInTypes(const char* op, std::vector<int>* in) {
  RangeTypes(op, in, 2, 6, BinaryInNames());
  const bool l = CheckInType(op, in, 0, "lhs", {mshadow::kInt8, mshadow::kUint8});
  const bool r = CheckInType(op, in, 1, "rhs", {mshadow::kInt8, mshadow::kUint8});
  return l && r;
}

const char* kAdd = "_contrib_quantized_elemwise_add";
const char* kMul = "_contrib_quantized_elemwise_mul";

bool AddQType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const QuantizedElemwiseParam& p = nnvm::get<QuantizedElemwiseParam>(attrs.parsed);
  const bool calib = HasCalib(kAdd, p.min_calib_range, p.max_calib_range);
  if (!BinaryInTypes(kAdd, in)) return false;
  int t = mshadow::kInt32;
  if (calib) {
    t = ((*in)[0] == mshadow::kUint8 && (*in)[1] == mshadow::kUint8) ? mshadow::kUint8
                                                                     : mshadow::kInt8;
  }
  QuantOutTypes(out, t);
  return true;
}

bool MulQShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  return BinaryQShape(kMul, in, out);
}

bool MulQType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const QuantizedElemwiseMulParam& p = nnvm::get<QuantizedElemwiseMulParam>(attrs.parsed);
  const bool calib = HasCalib(kMul, p.min_calib_range, p.max_calib_range);
  if (!BinaryInTypes(kMul, in)) return false;
  if ((*in)[0] != mshadow::kInt8 || (*in)[1] != mshadow::kInt8) {
    MX_THROW(TypeError) << kMul << ": lhs and rhs must be int8 (as in MXNet 1.9.1), got "
                        << type_string((*in)[0]) << " and " << type_string((*in)[1]);
  }
  if (p.enable_float_output) {
    TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
  } else {
    QuantOutTypes(out, calib ? mshadow::kInt8 : mshadow::kInt32);
  }
  return true;
}

// ---- embedding ---------------------------------------------------------------------------------

const char* kEmb = "_contrib_quantized_embedding";

bool EmbQShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const EmbeddingParam& p = nnvm::get<EmbeddingParam>(attrs.parsed);
  RangeShapes(kEmb, in, 2, 4, Names({"data", "weight", "min_weight", "max_weight"}));
  ScalarOutShapes(out, 1, 3);
  const mxnet::TShape wshape({p.input_dim, p.output_dim});
  const mxnet::TShape given = (*in)[1];
  if (ndim_is_known(given) && !shape_assign(&(*in)[1], wshape)) {
    MX_THROW(ValueError) << kEmb << ": expected weight of shape " << wshape
                         << " (input_dim, output_dim), got " << given;
  }
  (*in)[1] = wshape;
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  mxnet::TShape oshape(d.ndim() + 1, -1);
  for (int i = 0; i < d.ndim(); ++i) oshape[i] = d[i];
  oshape[d.ndim()] = p.output_dim;
  SHAPE_ASSIGN_CHECK(*out, 0, oshape);
  return shape_is_known(d);
}

bool EmbQType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  RangeTypes(kEmb, in, 2, 4, Names({"data", "weight", "min_weight", "max_weight"}));
  CheckInType(kEmb, in, 1, "weight", {mshadow::kInt8}, mshadow::kInt8);
  if ((*in)[0] == -1) (*in)[0] = mshadow::kFloat32;
  if ((*in)[0] == mshadow::kBool) {
    MX_THROW(TypeError) << kEmb << ": data (indices) must be a numeric dtype, got bool";
  }
  QuantOutTypes(out, mshadow::kInt8);
  return true;
}

// ---- batch norm --------------------------------------------------------------------------------

const char* kBN = "_contrib_quantized_batch_norm";

std::vector<std::string> BNInNames() {
  return {"data", "gamma", "beta", "moving_mean", "moving_var", "min_data", "max_data"};
}

bool BNQShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const BatchNormParam& p = nnvm::get<BatchNormParam>(attrs.parsed);
  RangeShapes(kBN, in, 5, 7, BNInNames());
  ScalarOutShapes(out, 1, 3);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  if (d.ndim() < 2) {
    MX_THROW(ValueError) << kBN << ": data must have at least 2 dimensions, got " << d;
  }
  const int axis = p.axis < 0 ? p.axis + d.ndim() : p.axis;
  if (axis < 0 || axis >= d.ndim()) {
    MX_THROW(IndexError) << kBN << ": axis " << p.axis << " is out of range for data " << d;
  }
  const auto names = BNInNames();
  for (int i = 1; i < 5; ++i) {
    const mxnet::TShape given = (*in)[i];
    if (d[axis] >= 0 && ndim_is_known(given) &&
        !shape_assign(&(*in)[i], mxnet::TShape(1, d[axis]))) {
      MX_THROW(ValueError) << kBN << ": " << names[i] << " must have shape (" << d[axis]
                           << ",) for data " << d << ", got " << given;
    }
    if (d[axis] >= 0) (*in)[i] = mxnet::TShape(1, d[axis]);
  }
  SHAPE_ASSIGN_CHECK(*out, 0, d);
  return shape_is_known(d);
}

bool BNQType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const BatchNormParam& p = nnvm::get<BatchNormParam>(attrs.parsed);
  HasCalib(kBN, p.min_calib_range, p.max_calib_range);
  const auto names = BNInNames();
  RangeTypes(kBN, in, 1, 7, names);
  if (!CheckInType(kBN, in, 0, "data", {mshadow::kInt8, mshadow::kUint8})) return false;
  QuantOutTypes(out, mshadow::kInt8);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_quantized_flatten)
.describe(R"code(Flattens quantized data (int8 or uint8, or any dtype, as in MXNet 1.9.1) to
(batch, features) like Flatten; min_data and max_data pass through as the output range.
)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "min_data", "max_data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", FlattenShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  RangeTypes(kFlatten, in, 1, 3, Names({"data", "min_data", "max_data"}));
  if ((*in)[0] == -1) return false;
  QuantOutTypes(out, (*in)[0]);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", QuantizedFlattenCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "A ndarray/symbol of type `float32`")
.add_argument("min_data", "NDArray-or-Symbol", "The minimum scalar value possibly produced for "
              "the data")
.add_argument("max_data", "NDArray-or-Symbol", "The maximum scalar value possibly produced for "
              "the data");

NNVM_REGISTER_OP(_contrib_quantized_act)
.describe(R"code(Activation operator for input and output data type of int8.
The input and output data comes with min and max thresholds for quantizing
the float32 data into int8. The output has the dtype of the input (int8 or uint8) and the input's
range.

.. Note::
     This operator only supports forward propogation. DO NOT use it in training.
     This operator only supports `relu`
)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr_parser([](nnvm::NodeAttrs* attrs) {
  ParamParser<ActivationParam>(attrs);
  if (nnvm::get<ActivationParam>(attrs->parsed).act_type != activation::kReLU) {
    throw dmlc::ParamError(std::string(kAct) + " only supports act_type=relu for now");
  }
})
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "min_data", "max_data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  return SameShape3(kAct, in, out);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return PassTypes(kAct, in, out, {mshadow::kInt8, mshadow::kUint8});
})
.set_attr<FCompute>("FCompute<cpu>", QuantizedActCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("min_data", "NDArray-or-Symbol", "Minimum value of data.")
.add_argument("max_data", "NDArray-or-Symbol", "Maximum value of data.")
.add_arguments(ActivationParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantized_concat)
.describe(R"code(Joins input arrays along a given axis.

The dimensions of the input arrays should be the same except the axis along
which they will be concatenated.
The dimension of the output array along the concatenated axis will be equal
to the sum of the corresponding dimensions of the input arrays.
All inputs with different min/max will be rescaled by using largest [min, max] pairs.
If any input holds int8, then the output will be int8. Otherwise output will be uint8.
The inputs are the arrays, then min and max of each array in turn.
)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<ConcatParam>(attrs.parsed).num_args * 3);
})
.set_num_outputs(3)
.set_attr_parser(ParamParser<ConcatParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return ConcatInNames(nnvm::get<ConcatParam>(attrs.parsed).num_args);
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<mxnet::FInferShape>("FInferShape", ConcatQShape)
.set_attr<nnvm::FInferType>("FInferType", ConcatQType)
.set_attr<FCompute>("FCompute<cpu>", QuantizedConcatCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol[]", "List of arrays to concatenate")
.add_arguments(ConcatParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantized_elemwise_add)
.describe(R"code(elemwise_add operator for input dataA and input dataB data type of int8,
and accumulates in type int32 for the output. For each argument, two more arguments of type
float32 must be provided representing the thresholds of quantizing argument from data
type float32 to int8. The final outputs contain result in int32, and min
and max thresholds representing the threholds for quantizing the float32 output into int32.
With min_calib_range/max_calib_range the output is requantized to int8 (uint8 when both inputs
are uint8) in the calibrated range.

.. Note::
    This operator only supports forward propogation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(6)
.set_num_outputs(3)
.set_attr_parser(ParamParser<QuantizedElemwiseParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return BinaryInNames();
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  return BinaryQShape(kAdd, in, out);
})
.set_attr<nnvm::FInferType>("FInferType", AddQType)
.set_attr<FCompute>("FCompute<cpu>", QuantizedAddCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("lhs", "NDArray-or-Symbol", "first input")
.add_argument("rhs", "NDArray-or-Symbol", "second input")
.add_argument("lhs_min", "NDArray-or-Symbol", "3rd input")
.add_argument("lhs_max", "NDArray-or-Symbol", "4th input")
.add_argument("rhs_min", "NDArray-or-Symbol", "5th input")
.add_argument("rhs_max", "NDArray-or-Symbol", "6th input")
.add_arguments(QuantizedElemwiseParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantized_elemwise_mul)
.describe(R"code(Multiplies arguments int8 element-wise.
Without calibration the output is the exact int32 product with its range; with
min_calib_range/max_calib_range it is requantized to int8; with enable_float_output it is the
float32 product (a single output).
)code" ADD_FILELINE)
.set_num_inputs(6)
.set_num_outputs([](const NodeAttrs& attrs) {
  return nnvm::get<QuantizedElemwiseMulParam>(attrs.parsed).enable_float_output ? 1U : 3U;
})
.set_attr_parser(ParamParser<QuantizedElemwiseMulParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return BinaryInNames();
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  if (nnvm::get<QuantizedElemwiseMulParam>(attrs.parsed).enable_float_output) {
    return std::vector<std::string>{"output"};
  }
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", MulQShape)
.set_attr<nnvm::FInferType>("FInferType", MulQType)
.set_attr<FCompute>("FCompute<cpu>", QuantizedMulCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("lhs", "NDArray-or-Symbol", "first input")
.add_argument("rhs", "NDArray-or-Symbol", "second input")
.add_argument("lhs_min", "NDArray-or-Symbol", "Minimum value of first input.")
.add_argument("lhs_max", "NDArray-or-Symbol", "Maximum value of first input.")
.add_argument("rhs_min", "NDArray-or-Symbol", "Minimum value of second input.")
.add_argument("rhs_max", "NDArray-or-Symbol", "Maximum value of second input.")
.add_arguments(QuantizedElemwiseMulParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantized_embedding)
.describe(R"code(Maps integer indices to int8 vector representations (embeddings).
Indices are clipped to [0, input_dim - 1]; the weight's range passes through as the output range.
)code" ADD_FILELINE)
.set_num_inputs(4)
.set_num_outputs(3)
.set_attr_parser(ParamParser<EmbeddingParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "weight", "min_weight", "max_weight"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", EmbQShape)
.set_attr<nnvm::FInferType>("FInferType", EmbQType)
.set_attr<FCompute>("FCompute<cpu>", QuantizedEmbeddingCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "The input array to the embedding operator.")
.add_argument("weight", "NDArray-or-Symbol", "The embedding weight matrix.")
.add_argument("min_weight", "NDArray-or-Symbol", "Minimum value of data.")
.add_argument("max_weight", "NDArray-or-Symbol", "Maximum value of data.")
.add_arguments(EmbeddingParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantized_batch_norm)
.describe(R"code(BatchNorm operator for input and output data type of int8.
The input and output data comes with min and max thresholds for quantizing
the float32 data into int8. It normalizes with the moving statistics (inference) and needs
min_calib_range/max_calib_range for the int8 output range.

The arithmetic is MXNet 1.9.1's (oneDNN) in float32, bit for bit: per channel
``w = gamma / sqrt(var + eps) * max|data range| / max|calib range|`` and
``b = (beta - mean * gamma / sqrt(var + eps)) * 127.5 / max|calib range|``, then
``out = round(q * (w / sqrt(1 + eps)) + b)`` saturated to int8 (eps counts twice, as in 1.9.1;
NaN gives 0). uint8 data is first halved (``q >> 1``) onto the int8 scale. ``gamma`` is used
whatever ``fix_gamma`` says, as in 1.9.1.

.. Note::
    This operator only supports forward propogation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(7)
.set_num_outputs(3)
.set_attr_parser(ParamParser<BatchNormParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return BNInNames();
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const nnvm::NodeAttrs& attrs) {
  return std::vector<uint32_t>{3, 4};
})
.set_attr<mxnet::FInferShape>("FInferShape", BNQShape)
.set_attr<nnvm::FInferType>("FInferType", BNQType)
.set_attr<FResourceRequest>("FResourceRequest", [](const nnvm::NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", QuantizedBatchNormCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("gamma", "NDArray-or-Symbol", "gamma.")
.add_argument("beta", "NDArray-or-Symbol", "beta.")
.add_argument("moving_mean", "NDArray-or-Symbol", "moving_mean.")
.add_argument("moving_var", "NDArray-or-Symbol", "moving_var.")
.add_argument("min_data", "NDArray-or-Symbol", "Minimum value of data.")
.add_argument("max_data", "NDArray-or-Symbol", "Maximum value of data.")
.add_arguments(BatchNormParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
