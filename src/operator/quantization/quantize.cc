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
 */
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "./quantization_utils-inl.h"

namespace mxnet {
namespace op {

using namespace quant;  // NOLINT

/*!
 * \brief Declarations shared by the quantize-family parameter structs: out_type and the
 *        calibrated range are declared here once, each op passing the enum set, default and
 *        1.9.1 doc wording it documents.
 */
template <typename PType>
struct QuantizeFamilyParam : public dmlc::Parameter<PType> {
 protected:
  using Manager = ::dmlc::parameter::ParamManagerSingleton<PType>;

  /*! \brief out_type: {'int8', 'uint8'}, with 'auto' first where the op resolves it from
   *         min_calib_range. */
  void DeclareOutType(Manager* manager, int* field, bool with_auto, int default_type) {
    auto& e = this->DECLARE(manager, "out_type", *field);
    if (with_auto) e.add_enum("auto", kAuto);
    e.add_enum("int8", kInt8).add_enum("uint8", kUint8).set_default(default_type);
    e.describe(with_auto ? "Output data type. `auto` can be specified to automatically determine "
                           "output type according to min_calib_range."
                         : "Output data type.");
  }

  /*! \brief min/max_calib_range, optional floats documented as "The minimum scalar value in
   *         the form of float32<origin>. If present, it will be used to <use>." */
  void DeclareCalibRange(Manager* manager, dmlc::optional<float>* lo, dmlc::optional<float>* hi,
                         const std::string& origin, const std::string& use) {
    const std::string tail = origin + ". If present, it will be used to " + use + ".";
    this->DECLARE(manager, "min_calib_range", *lo)
        .set_default(dmlc::optional<float>())
        .describe("The minimum scalar value in the form of float32" + tail);
    this->DECLARE(manager, "max_calib_range", *hi)
        .set_default(dmlc::optional<float>())
        .describe("The maximum scalar value in the form of float32" + tail);
  }
};

/*! \brief out_type ('auto', int8 by default) plus the calibrated range: quantize_v2 and
 *         requantize, which differ only in the wording of the range's docs. */
template <typename PType>
struct CalibratedOutParam : public QuantizeFamilyParam<PType> {
  int out_type;
  dmlc::optional<float> min_calib_range;
  dmlc::optional<float> max_calib_range;

 protected:
  void DeclareFields(typename QuantizeFamilyParam<PType>::Manager* manager,
                     const std::string& origin, const std::string& use) {
    this->DeclareOutType(manager, &out_type, true, kInt8);
    this->DeclareCalibRange(manager, &min_calib_range, &max_calib_range, origin, use);
  }
};

struct QuantizeParam : public QuantizeFamilyParam<QuantizeParam> {
  int out_type;
  DMLC_DECLARE_PARAMETER(QuantizeParam) {
    DeclareOutType(manager, &out_type, false, kUint8);
  }
};

struct QuantizeV2Param : public CalibratedOutParam<QuantizeV2Param> {
  DMLC_DECLARE_PARAMETER(QuantizeV2Param) {
    DeclareFields(manager, "", "quantize the fp32 data into int8 or uint8");
  }
};

struct RequantizeParam : public CalibratedOutParam<RequantizeParam> {
  DMLC_DECLARE_PARAMETER(RequantizeParam) {
    DeclareFields(manager, " obtained through calibration", "requantize the int32 data into int8");
  }
};

struct QuantizeAsymParam : public QuantizeFamilyParam<QuantizeAsymParam> {
  dmlc::optional<float> min_calib_range;
  dmlc::optional<float> max_calib_range;
  DMLC_DECLARE_PARAMETER(QuantizeAsymParam) {
    DeclareCalibRange(manager, &min_calib_range, &max_calib_range, "", "quantize the fp32 data");
  }
};

struct DequantizeParam : public dmlc::Parameter<DequantizeParam> {
  int out_type;
  DMLC_DECLARE_PARAMETER(DequantizeParam) {
    DMLC_DECLARE_FIELD(out_type)
        .add_enum("float32", mshadow::kFloat32)
        .set_default(mshadow::kFloat32)
        .describe("Output data type.");
  }
};

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

void DataMinMax(const float* x, index_t n, float* lo, float* hi) {
  float mn = n > 0 ? x[0] : 0.f, mx = n > 0 ? x[0] : 0.f;
  for (index_t i = 1; i < n; ++i) {
    mn = std::min(mn, x[i]);
    mx = std::max(mx, x[i]);
  }
  *lo = mn;
  *hi = mx;
}

/*! \brief q[i] = sat(round(x[i] * scale)) in float arithmetic, as oneDNN's reorder. */
template <typename Q>
void ScaleToQuant(const float* x, index_t n, float scale, Q* q) {
#pragma omp parallel for if (n > 65536)
  for (index_t i = 0; i < n; ++i) q[i] = SatRound<Q>(static_cast<float>(x[i] * scale));
}

void SetRange(const std::vector<TBlob>& outputs, float lo, float hi) {
  outputs[1].dptr<float>()[0] = lo;
  outputs[2].dptr<float>()[0] = hi;
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

void QuantizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const float lo = Scalar(inputs[1]), hi = Scalar(inputs[2]);
  const float m = MaxAbs(lo, hi);
  const float* x = inputs[0].dptr<float>();
  const index_t n = inputs[0].Size();
  if (outputs[0].type_flag_ == mshadow::kInt8) {
    ScaleToQuant(x, n, kInt8Limit / m, outputs[0].dptr<int8_t>());
    SetRange(outputs, -m, m);
  } else {
    ScaleToQuant(x, n, kUint8Limit / m, outputs[0].dptr<uint8_t>());
    SetRange(outputs, lo, hi);
  }
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

void QuantizeV2Compute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const QuantizeV2Param& p = nnvm::get<QuantizeV2Param>(attrs.parsed);
  const index_t n = inputs[0].Size();
  const int in_t = inputs[0].type_flag_;
  if (IsQuantType(in_t)) {
    if (outputs[0].dptr_ != inputs[0].dptr_) {
      std::copy_n(static_cast<const char*>(inputs[0].dptr_), n, static_cast<char*>(outputs[0].dptr_));
    }
    if (in_t == mshadow::kInt8) SetRange(outputs, -kInt8Range, kInt8Range);
    else SetRange(outputs, 0.f, kUint8Range);
    return;
  }
  const float* x = inputs[0].dptr<float>();
  float lo, hi;
  if (HasCalib("_contrib_quantize_v2", p.min_calib_range, p.max_calib_range)) {
    lo = p.min_calib_range.value();
    hi = p.max_calib_range.value();
  } else {
    DataMinMax(x, n, &lo, &hi);
  }
  const float m = MaxAbs(lo, hi);
  if (outputs[0].type_flag_ == mshadow::kInt8) {
    ScaleToQuant(x, n, kInt8Range / m, outputs[0].dptr<int8_t>());
    SetRange(outputs, -m, m);
  } else {
    ScaleToQuant(x, n, kUint8Range / m, outputs[0].dptr<uint8_t>());
    SetRange(outputs, lo, hi);
  }
}

// ---- quantize_asym -----------------------------------------------------------------------------

bool QuantizeAsymType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const QuantizeAsymParam& p = nnvm::get<QuantizeAsymParam>(attrs.parsed);
  HasCalib("_contrib_quantize_asym", p.min_calib_range, p.max_calib_range);
  CheckInType("_contrib_quantize_asym", in, 0, "data", {mshadow::kFloat32}, mshadow::kFloat32);
  QuantOutTypes(out, mshadow::kUint8);
  return true;
}

void QuantizeAsymCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const QuantizeAsymParam& p = nnvm::get<QuantizeAsymParam>(attrs.parsed);
  const index_t n = inputs[0].Size();
  const float* x = inputs[0].dptr<float>();
  float lo, hi;
  if (HasCalib("_contrib_quantize_asym", p.min_calib_range, p.max_calib_range)) {
    lo = p.min_calib_range.value();
    hi = p.max_calib_range.value();
  } else {
    DataMinMax(x, n, &lo, &hi);
  }
  const float scale = kUint8Limit / (hi - lo);
  const float shift = kUint8Limit - hi * scale;
  uint8_t* q = outputs[0].dptr<uint8_t>();
#pragma omp parallel for if (n > 65536)
  for (index_t i = 0; i < n; ++i) {
    const float v = x[i] * scale + shift + 0.5f;
    q[i] = std::isnan(v) ? 0 : v <= 0.f ? 0 : v >= 255.f ? 255 : static_cast<uint8_t>(v);
  }
  SetRange(outputs, scale, shift);
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

template <typename Q>
void DequantizeLoop(const Q* q, index_t n, float scale, float* x) {
#pragma omp parallel for if (n > 65536)
  for (index_t i = 0; i < n; ++i) x[i] = static_cast<float>(q[i]) * scale;
}

void DequantizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const float m = MaxAbs(Scalar(inputs[1]), Scalar(inputs[2]));
  const index_t n = inputs[0].Size();
  float* x = outputs[0].dptr<float>();
  switch (inputs[0].type_flag_) {
    case mshadow::kInt8:
      DequantizeLoop(inputs[0].dptr<int8_t>(), n, m / kInt8Range, x);
      break;
    case mshadow::kUint8:
      DequantizeLoop(inputs[0].dptr<uint8_t>(), n, m / kUint8Range, x);
      break;
    default:
      DequantizeLoop(inputs[0].dptr<int32_t>(), n, static_cast<float>(m / kInt32Range), x);
  }
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

void RequantizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const RequantizeParam& p = nnvm::get<RequantizeParam>(attrs.parsed);
  const float per_unit =
      static_cast<float>(MaxAbs(Scalar(inputs[1]), Scalar(inputs[2])) / kInt32Range);
  const int32_t* q = inputs[0].dptr<int32_t>();
  const index_t n = inputs[0].Size();
  float m;
  if (HasCalib("_contrib_requantize", p.min_calib_range, p.max_calib_range)) {
    m = MaxAbs(p.min_calib_range.value(), p.max_calib_range.value());
  } else {
    int32_t qlo = n > 0 ? q[0] : 0, qhi = n > 0 ? q[0] : 0;
    for (index_t i = 1; i < n; ++i) {
      qlo = std::min(qlo, q[i]);
      qhi = std::max(qhi, q[i]);
    }
    m = MaxAbs(static_cast<float>(qlo) * per_unit, static_cast<float>(qhi) * per_unit);
  }
  const bool s8 = outputs[0].type_flag_ == mshadow::kInt8;
  const float scale = per_unit * ((s8 ? kInt8Limit : kUint8Limit) / m);
  if (s8) {
    int8_t* o = outputs[0].dptr<int8_t>();
#pragma omp parallel for if (n > 65536)
    for (index_t i = 0; i < n; ++i) o[i] = SatRound<int8_t>(static_cast<float>(q[i]) * scale);
    SetRange(outputs, -m, m);
  } else {
    uint8_t* o = outputs[0].dptr<uint8_t>();
#pragma omp parallel for if (n > 65536)
    for (index_t i = 0; i < n; ++i) o[i] = SatRound<uint8_t>(static_cast<float>(q[i]) * scale);
    SetRange(outputs, 0.f, m);
  }
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
.set_attr<FCompute>("FCompute<cpu>", QuantizeCompute)
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
.set_attr<FCompute>("FCompute<cpu>", QuantizeV2Compute)
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
.set_attr<FCompute>("FCompute<cpu>", QuantizeAsymCompute)
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
.set_attr<FCompute>("FCompute<cpu>", DequantizeCompute)
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
.set_attr<FCompute>("FCompute<cpu>", RequantizeCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "A ndarray/symbol of type `int32`")
.add_argument("min_range", "NDArray-or-Symbol", "The original minimum scalar value in the form of "
              "float32 used for quantizing data into int32.")
.add_argument("max_range", "NDArray-or-Symbol", "The original maximum scalar value in the form of "
              "float32 used for quantizing data into int32.")
.add_arguments(RequantizeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
