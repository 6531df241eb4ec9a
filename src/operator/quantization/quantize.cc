/*!
 * \file quantize.cc
 * \brief float <-> int8/uint8/int32 conversions: _contrib_quantize, _contrib_quantize_v2,
 *        _contrib_quantize_asym, _contrib_dequantize, _contrib_requantize
 *        (see quantization_utils-inl.h for the ranges and the rounding).
 *
 * quantize (min_range/max_range inputs), with m = MaxAbs(min_range, max_range):
 *   int8:  q = sat(round(x * 127 / m)),  output range [-m, m];
 *   uint8: q = sat(round(x * 255 / m)),  output range [min_range, max_range] (negative x -> 0).
 * quantize_v2 (range from min/max_calib_range, else from the data's min and max), m as above:
 *   int8:  q = sat(round(x * 127.5 / m)), output range [-m, m];
 *   uint8: q = sat(round(x * 255.5 / m)), output range [min, max].
 *   out_type='auto' is uint8 when min_calib_range >= 0, else int8 (int8 without calibration).
 *   int8/uint8 data passes through unchanged with the full range of its type (+-127.5 / [0, 255.5]).
 * dequantize: x = q * m / 127.5 (int8), q * m / 255.5 (uint8); int32 data (a generalization,
 *   1.9.1's CPU build refuses it) uses x = q * m / 2^31, the range of quantized_conv/FC outputs.
 * requantize (int32 data standing for q * MaxAbs(min_range, max_range) / 2^31):
 *   with calibration, m = MaxAbs(min_calib_range, max_calib_range): int8 q' = round(x * 127 / m)
 *   in [-m, m]; uint8 q' = round(x * 255 / m) in [0, m]. Without, m is the MaxAbs of the real
 *   values of the data's int32 min and max (1.9.1's CPU build flips the sign of the output and
 *   swaps its range when the data reaches +-2^31-1, an int32 overflow not reproduced here).
 * quantize_asym: uint8 q = floor(x * scale + shift + 0.5) saturated, scale = 255 / (max - min),
 *   shift = 255 - max * scale, with the range from calibration or the data. (1.9.1's CPU build
 *   crashes on every call of this op; this follows its documented formula.)
 * All of these are forward-only: they have no gradient, as in MXNet 1.9.1.
 * The kernels are in quantize-inl.h, shared with the GPU registrations in quantize.cu.
 */
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "./quantize-inl.h"

namespace mxnet {
namespace op {

using namespace quant;  // NOLINT

DMLC_REGISTER_PARAMETER(QuantizeParam);
DMLC_REGISTER_PARAMETER(QuantizeV2Param);
DMLC_REGISTER_PARAMETER(QuantizeAsymParam);
DMLC_REGISTER_PARAMETER(DequantizeParam);
DMLC_REGISTER_PARAMETER(RequantizeParam);

namespace {

int MshadowOf(int out_type) { return out_type == kUint8 ? mshadow::kUint8 : mshadow::kInt8; }

/*! \brief 'auto' resolves by the calibrated minimum: uint8 when it is >= 0, else int8. */
int ResolveOutType(int out_type, const dmlc::optional<float>& min_calib) {
  if (out_type != kAuto) return MshadowOf(out_type);
  if (min_calib.has_value() && min_calib.value() >= 0.f) return mshadow::kUint8;
  return mshadow::kInt8;
}

// ---- quantize ----------------------------------------------------------------------------------

bool QuantizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  RangeShapes("_contrib_quantize", in, 1, 3, Names({"data", "min_range", "max_range"}));
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  ScalarOutShapes(out, 1, 3);
  return shape_is_known((*in)[0]);
}

bool QuantizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const QuantizeParam& p = nnvm::get<QuantizeParam>(attrs.parsed);
  RangeTypes("_contrib_quantize", in, 1, 3, Names({"data", "min_range", "max_range"}));
  CheckInType("_contrib_quantize", in, 0, "data", {mshadow::kFloat32}, mshadow::kFloat32);
  QuantOutTypes(out, MshadowOf(p.out_type));
  return true;
}

// ---- quantize_v2 -------------------------------------------------------------------------------

bool UnaryQuantShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  ScalarOutShapes(out, 1, out->size());
  return shape_is_known((*in)[0]);
}

bool QuantizeV2Type(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const QuantizeV2Param& p = nnvm::get<QuantizeV2Param>(attrs.parsed);
  HasCalib("_contrib_quantize_v2", p.min_calib_range, p.max_calib_range);
  CheckInType("_contrib_quantize_v2", in, 0, "data",
              {mshadow::kFloat32, mshadow::kInt8, mshadow::kUint8}, mshadow::kFloat32);
  const int t = (*in)[0];
  QuantOutTypes(out, IsQuantType(t) ? t : ResolveOutType(p.out_type, p.min_calib_range));
  return true;
}

// ---- quantize_asym -----------------------------------------------------------------------------

bool QuantizeAsymType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const QuantizeAsymParam& p = nnvm::get<QuantizeAsymParam>(attrs.parsed);
  HasCalib("_contrib_quantize_asym", p.min_calib_range, p.max_calib_range);
  CheckInType("_contrib_quantize_asym", in, 0, "data", {mshadow::kFloat32}, mshadow::kFloat32);
  QuantOutTypes(out, mshadow::kUint8);
  return true;
}

// ---- dequantize --------------------------------------------------------------------------------

bool DequantizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  RangeTypes("_contrib_dequantize", in, 1, 3, Names({"data", "min_range", "max_range"}));
  if (!CheckInType("_contrib_dequantize", in, 0, "data",
                   {mshadow::kInt8, mshadow::kUint8, mshadow::kInt32})) {
    TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
    return false;
  }
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
  return true;
}

bool DequantizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out) {
  RangeShapes("_contrib_dequantize", in, 1, 3, Names({"data", "min_range", "max_range"}));
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return shape_is_known((*in)[0]);
}

// ---- requantize --------------------------------------------------------------------------------

bool RequantizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out) {
  RangeShapes("_contrib_requantize", in, 1, 3, Names({"data", "min_range", "max_range"}));
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  ScalarOutShapes(out, 1, 3);
  return shape_is_known((*in)[0]);
}

bool RequantizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const RequantizeParam& p = nnvm::get<RequantizeParam>(attrs.parsed);
  HasCalib("_contrib_requantize", p.min_calib_range, p.max_calib_range);
  RangeTypes("_contrib_requantize", in, 1, 3, Names({"data", "min_range", "max_range"}));
  CheckInType("_contrib_requantize", in, 0, "data", {mshadow::kInt32}, mshadow::kInt32);
  QuantOutTypes(out, ResolveOutType(p.out_type, p.min_calib_range));
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_quantize)
.describe(R"code(Quantize a input tensor from float to `out_type`,
with user-specified `min_range` and `max_range`.

min_range and max_range are scalar floats that specify the range for
the input data.

With ``m = MaxAbs(min_range, max_range)``, when out_type is `uint8` the output is
``out[i] = saturate(round(in[i] * 255 / m))`` (negative inputs become 0) and the output range is
``[min_range, max_range]``; when out_type is `int8` the output is zero centered,
``out[i] = saturate(round(in[i] * 127 / m))``, with output range ``[-m, m]``.
Rounding is half to even; values saturate to the output type, as in MXNet 1.9.1's CPU build.

.. Note::
    This operator only supports forward propagation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr_parser(ParamParser<QuantizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "min_range", "max_range"};
})
.set_attr<mxnet::FInferShape>("FInferShape", QuantizeShape)
.set_attr<nnvm::FInferType>("FInferType", QuantizeType)
.set_attr<FCompute>("FCompute<cpu>", QuantizeCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "A ndarray/symbol of type `float32`")
.add_argument("min_range", "NDArray-or-Symbol", "The minimum scalar value possibly produced for "
              "the input")
.add_argument("max_range", "NDArray-or-Symbol", "The maximum scalar value possibly produced for "
              "the input")
.add_arguments(QuantizeParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantize_v2)
.describe(R"code(Quantize a input tensor from float to `out_type`,
with user-specified `min_calib_range` and `max_calib_range` or the input range collected at runtime.

Output `min_range` and `max_range` are scalar floats that specify the range for the input data.
With ``m = MaxAbs(min, max)`` of that range: when out_type is `uint8`,
``out[i] = saturate(round(in[i] * 255.5 / m))`` with output range ``[min, max]``; when out_type is
`int8`, ``out[i] = saturate(round(in[i] * 127.5 / m))`` with output range ``[-m, m]``
(MXNet 1.9.1's oneDNN constants; rounding is half to even).

When out_type is `auto`, the output type is automatically determined by min_calib_range if presented.
If min_calib_range < 0.0f, the output type will be int8, otherwise will be uint8.
If min_calib_range isn't presented, the output type will be int8.

int8 or uint8 data is already quantized: it is passed through with the range of its type.

.. Note::
    This operator only supports forward propagation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(3)
.set_attr_parser(ParamParser<QuantizeV2Param>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", UnaryQuantShape)
.set_attr<nnvm::FInferType>("FInferType", QuantizeV2Type)
.set_attr<FCompute>("FCompute<cpu>", QuantizeV2Compute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "A ndarray/symbol of type `float32`")
.add_arguments(QuantizeV2Param::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantize_asym)
.describe(R"code(Quantize a input tensor from float to uint8_t.
Output `scale` and `shift` are scalar floats that specify the quantization parameters for the input
data.
The output is calculated using the following equation:
`out[i] = in[i] * scale + shift + 0.5` (truncated and saturated to [0, 255]),
where `scale = uint8_range / (max_range - min_range)` and
`shift = numeric_limits<T>::max - max_range * scale`, uint8_range = 255. The range is
min/max_calib_range when given, else the data's minimum and maximum.

.. Note::
    This operator only supports forward propagation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(3)
.set_attr_parser(ParamParser<QuantizeAsymParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "scale", "shift"};
})
.set_attr<mxnet::FInferShape>("FInferShape", UnaryQuantShape)
.set_attr<nnvm::FInferType>("FInferType", QuantizeAsymType)
.set_attr<FCompute>("FCompute<cpu>", QuantizeAsymCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "A ndarray/symbol of type `float32`")
.add_arguments(QuantizeAsymParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_dequantize)
.describe(R"code(Dequantize the input tensor into a float tensor.
min_range and max_range are scalar floats that specify the range for
the output data.

When input data type is `uint8`, the output is calculated using the following equation:

`out[i] = in[i] * MaxAbs(min_range, max_range) / 255.5`,

When input data type is `int8`, the output is calculate using the following equation
by keep zero centered for the quantized value:

`out[i] = in[i] * MaxAbs(min_range, max_range) / 127.5`,

(the constants of MXNet 1.9.1's CPU build). `int32` data (the output of quantized_conv and
quantized_fully_connected) is accepted too, with `out[i] = in[i] * MaxAbs(min_range, max_range) / 2^31`.

.. Note::
    This operator only supports forward propogation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<DequantizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "min_range", "max_range"};
})
.set_attr<mxnet::FInferShape>("FInferShape", DequantizeShape)
.set_attr<nnvm::FInferType>("FInferType", DequantizeType)
.set_attr<FCompute>("FCompute<cpu>", DequantizeCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "A ndarray/symbol of type `uint8`")
.add_argument("min_range", "NDArray-or-Symbol", "The minimum scalar value possibly produced for "
              "the input in float32")
.add_argument("max_range", "NDArray-or-Symbol", "The maximum scalar value possibly produced for "
              "the input in float32")
.add_arguments(DequantizeParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_requantize)
.describe(R"code(Given data that is quantized in int32 and the corresponding thresholds,
requantize the data into int8 using min and max thresholds either calculated at runtime
or from calibration. It's highly recommended to pre-calucate the min and max thresholds
through calibration since it is able to save the runtime of the operator and improve the
inference accuracy.

The int32 value q stands for ``q * MaxAbs(min_range, max_range) / 2^31``. With ``m`` the MaxAbs of
the calibrated range (or of the data's real minimum and maximum), int8 output is
``round(x * 127 / m)`` with range ``[-m, m]`` and uint8 output ``round(x * 255 / m)`` with range
``[0, m]`` (half to even, saturated).

.. Note::
    This operator only supports forward propogation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr_parser(ParamParser<RequantizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "min_range", "max_range"};
})
.set_attr<mxnet::FInferShape>("FInferShape", RequantizeShape)
.set_attr<nnvm::FInferType>("FInferType", RequantizeType)
.set_attr<FCompute>("FCompute<cpu>", RequantizeCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "A ndarray/symbol of type `int32`")
.add_argument("min_range", "NDArray-or-Symbol", "The original minimum scalar value in the form of "
              "float32 used for quantizing data into int32.")
.add_argument("max_range", "NDArray-or-Symbol", "The original maximum scalar value in the form of "
              "float32 used for quantizing data into int32.")
.add_arguments(RequantizeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
