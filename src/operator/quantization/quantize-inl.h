/*!
 * \file quantize-inl.h
 * \brief The kernels of the float <-> int8/uint8/int32 conversions (quantize, quantize_v2,
 *        quantize_asym, dequantize, requantize; semantics in quantize.cc), written once for the
 *        CPU (quantize.cc) and the GPU (quantize.cu).
 *
 * Every forward runs in three steps on the op's stream, so that no range value has to be read
 * on the host where the data lives on a device:
 *   1. the input range (min/max_calib_range, or the data's minimum and maximum: DataMinMax)
 *      goes to the output range scalars;
 *   2. a one-element kernel turns it into the op's output range in place;
 *   3. the element kernel derives its scale from the range scalars (a "scale accessor").
 * The CPU evaluates the accessor once on the host and passes the float (ScaleArg), so its loop
 * is the plain multiply it always was; a GPU thread evaluates the accessor itself.
 */
#ifndef MXNET_OPERATOR_QUANTIZATION_QUANTIZE_INL_H_
#define MXNET_OPERATOR_QUANTIZATION_QUANTIZE_INL_H_

#include <algorithm>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "./quantization_utils-inl.h"

namespace mxnet {
namespace op {
namespace quant {

// ---- scale accessors: the scale of an element kernel from range scalars in the op's memory ----

/*! \brief num / MaxAbs(*lo, *hi): quantize, quantize_v2 (num = 127, 255, 127.5 or 255.5). */
struct RangeScale {
  const float* lo;
  const float* hi;
  float num;
  MSHADOW_XINLINE float get() const { return num / MaxAbsX(*lo, *hi); }
};

/*! \brief MaxAbs(*lo, *hi) / den (int8, uint8), or / 2^31 in double (int32): dequantize. */
struct DequantScale {
  const float* lo;
  const float* hi;
  float den;
  bool int32;
  MSHADOW_XINLINE float get() const {
    const float m = MaxAbsX(*lo, *hi);
    return int32 ? static_cast<float>(m / kInt32Range) : m / den;
  }
};

/*! \brief The value of one unit of int32 data whose range is (*lo, *hi). */
MSHADOW_XINLINE float Int32Unit(const float* lo, const float* hi) {
  return static_cast<float>(MaxAbsX(*lo, *hi) / kInt32Range);
}

/*! \brief unit(in range) * (limit / *m): requantize, m the output's MaxAbs. */
struct RequantScale {
  const float* in_lo;
  const float* in_hi;
  const float* m;
  float limit;
  MSHADOW_XINLINE float get() const { return Int32Unit(in_lo, in_hi) * (limit / *m); }
};

// ---- element kernels ---------------------------------------------------------------------------

/*!
 * \brief q[i] = sat(round(x[i] * scale)) in float arithmetic, as oneDNN's reorder (x float32,
 *        or int32 for requantize).
 */
struct quantize_elem {
  template <typename T, typename Q, typename S>
  MSHADOW_XINLINE static void Map(index_t i, const T* x, Q* q, S s) {
    q[i] = SatRound<Q>(static_cast<float>(static_cast<float>(x[i]) * ScaleOf(s)));
  }
};

/*! \brief x[i] = q[i] * scale. */
struct dequantize_elem {
  template <typename Q, typename S>
  MSHADOW_XINLINE static void Map(index_t i, const Q* q, float* x, S s) {
    x[i] = static_cast<float>(q[i]) * ScaleOf(s);
  }
};

/*! \brief uint8 q[i] = x[i] * scale + shift + 0.5 truncated and saturated (quantize_asym). */
struct quantize_asym_elem {
  MSHADOW_XINLINE static void Map(index_t i, const float* x, uint8_t* q, const float* scale,
                                  const float* shift) {
    const float v = MulRn(x[i], *scale) + *shift + 0.5f;
    q[i] = v != v ? 0 : v <= 0.f ? 0 : v >= 255.f ? 255 : static_cast<uint8_t>(v);
  }
};

/*! \brief Byte copy (quantize_v2 of data that is already int8/uint8). */
struct copy_bytes {
  MSHADOW_XINLINE static void Map(index_t i, const char* in, char* out) { out[i] = in[i]; }
};

// ---- one-element range kernels -----------------------------------------------------------------

/*! \brief (*lo, *hi) = (a, b): a calibrated or a fixed range. */
struct set_range {
  MSHADOW_XINLINE static void Map(index_t, float* lo, float* hi, float a, float b) {
    *lo = a;
    *hi = b;
  }
};

/*! \brief (*out_lo, *out_hi) = (*in_lo, *in_hi). */
struct copy_range {
  MSHADOW_XINLINE static void Map(index_t, const float* in_lo, const float* in_hi, float* out_lo,
                                  float* out_hi) {
    *out_lo = *in_lo;
    *out_hi = *in_hi;
  }
};

/*! \brief The symmetric range [-m, m], m = MaxAbs(lo, hi), from (lo, hi) in place (int8). */
struct symmetric_range {
  MSHADOW_XINLINE static void Map(index_t, float* lo, float* hi) {
    const float m = MaxAbsX(*lo, *hi);
    *lo = -m;
    *hi = m;
  }
};

/*! \brief (lo, hi) -> (scale, shift) of quantize_asym, in place. */
struct asym_range {
  MSHADOW_XINLINE static void Map(index_t, float* lo, float* hi) {
    const float scale = kUint8Limit / (*hi - *lo);
    const float shift = kUint8Limit - MulRn(*hi, scale);
    *lo = scale;
    *hi = shift;
  }
};

/*!
 * \brief requantize's output range from the data's int32 (min, max) (as floats) in place:
 *        m = MaxAbs of their real values; int8 [-m, m], uint8 [0, m].
 */
struct requant_data_range {
  MSHADOW_XINLINE static void Map(index_t, const float* in_lo, const float* in_hi, float* lo,
                                  float* hi, bool s8) {
    const float unit = Int32Unit(in_lo, in_hi);
    const float m = MaxAbsX(*lo * unit, *hi * unit);
    *lo = s8 ? -m : 0.f;
    *hi = m;
  }
};

/*! \brief requantize's output range from the calibrated range. */
struct requant_calib_range {
  MSHADOW_XINLINE static void Map(index_t, float* lo, float* hi, float a, float b, bool s8) {
    const float m = MaxAbsX(a, b);
    *lo = s8 ? -m : 0.f;
    *hi = m;
  }
};

// ---- the data's minimum and maximum ------------------------------------------------------------

/*!
 * \brief (*lo, *hi) = the minimum and maximum of x[0, n) as floats (0 for empty data), with the
 *        loop's NaN rule: a NaN is kept only when it is x[0]. lo and hi are in the op's memory.
 */
template <typename T>
inline void DataMinMax(mshadow::Stream<cpu>*, const T* x, index_t n, float* lo, float* hi) {
  T mn = n > 0 ? x[0] : T(0), mx = n > 0 ? x[0] : T(0);
  for (index_t i = 1; i < n; ++i) {
    mn = std::min(mn, x[i]);
    mx = std::max(mx, x[i]);
  }
  *lo = static_cast<float>(mn);
  *hi = static_cast<float>(mx);
}

/*! \brief The GPU form (quantize.cu): a block reduction combined with atomics. */
template <typename T>
void DataMinMax(mshadow::Stream<gpu>* s, const T* x, index_t n, float* lo, float* hi);

// ---- the forwards ------------------------------------------------------------------------------

/*! \brief Quantize x into outputs[0] with RangeScale{out range, num} (steps 2-3 done). */
template <typename xpu>
void QuantizeElements(mshadow::Stream<xpu>* s, const TBlob& x, const std::vector<TBlob>& outputs,
                      float num) {
  const RangeScale acc{outputs[1].dptr<float>(), outputs[2].dptr<float>(), num};
  MXNET_QUANT_TYPE_SWITCH(outputs[0].type_flag_, Q, {
    mxnet_op::Kernel<quantize_elem, xpu>::Launch(s, x.Size(), x.dptr<float>(),
                                                 outputs[0].dptr<Q>(), ScaleArg(s, acc));
  });
}

/*! \brief _contrib_quantize: inputs data, min_range, max_range. */
template <typename xpu>
void QuantizeForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                     const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  float* lo = outputs[1].dptr<float>();
  float* hi = outputs[2].dptr<float>();
  mxnet_op::Kernel<copy_range, xpu>::Launch(s, 1, inputs[1].dptr<float>(),
                                            inputs[2].dptr<float>(), lo, hi);
  const bool s8 = outputs[0].type_flag_ == mshadow::kInt8;
  if (s8) mxnet_op::Kernel<symmetric_range, xpu>::Launch(s, 1, lo, hi);
  QuantizeElements(s, inputs[0], outputs, s8 ? kInt8Limit : kUint8Limit);
}

/*! \brief _contrib_quantize_v2 with the range (lo, hi) if `calib`, else the data's. */
template <typename xpu>
void QuantizeV2Forward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                       const std::vector<TBlob>& outputs, bool calib, float clo, float chi) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  float* lo = outputs[1].dptr<float>();
  float* hi = outputs[2].dptr<float>();
  const int in_t = inputs[0].type_flag_;
  const index_t n = inputs[0].Size();
  if (IsQuantType(in_t)) {
    if (outputs[0].dptr_ != inputs[0].dptr_) {
      mxnet_op::Kernel<copy_bytes, xpu>::Launch(s, n, static_cast<const char*>(inputs[0].dptr_),
                                                static_cast<char*>(outputs[0].dptr_));
    }
    const bool s8 = in_t == mshadow::kInt8;
    mxnet_op::Kernel<set_range, xpu>::Launch(s, 1, lo, hi, s8 ? -kInt8Range : 0.f,
                                             s8 ? kInt8Range : kUint8Range);
    return;
  }
  if (calib) {
    mxnet_op::Kernel<set_range, xpu>::Launch(s, 1, lo, hi, clo, chi);
  } else {
    DataMinMax(s, inputs[0].dptr<float>(), n, lo, hi);
  }
  const bool s8 = outputs[0].type_flag_ == mshadow::kInt8;
  if (s8) mxnet_op::Kernel<symmetric_range, xpu>::Launch(s, 1, lo, hi);
  QuantizeElements(s, inputs[0], outputs, s8 ? kInt8Range : kUint8Range);
}

/*! \brief _contrib_quantize_asym: outputs q, scale, shift. */
template <typename xpu>
void QuantizeAsymForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                         const std::vector<TBlob>& outputs, bool calib, float clo, float chi) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  float* scale = outputs[1].dptr<float>();
  float* shift = outputs[2].dptr<float>();
  const index_t n = inputs[0].Size();
  if (calib) {
    mxnet_op::Kernel<set_range, xpu>::Launch(s, 1, scale, shift, clo, chi);
  } else {
    DataMinMax(s, inputs[0].dptr<float>(), n, scale, shift);
  }
  mxnet_op::Kernel<asym_range, xpu>::Launch(s, 1, scale, shift);
  mxnet_op::Kernel<quantize_asym_elem, xpu>::Launch(s, n, inputs[0].dptr<float>(),
                                                    outputs[0].dptr<uint8_t>(), scale, shift);
}

/*! \brief _contrib_dequantize of int8, uint8 or int32 data. */
template <typename xpu>
void DequantizeForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                       const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int t = inputs[0].type_flag_;
  const DequantScale acc{inputs[1].dptr<float>(), inputs[2].dptr<float>(),
                         t == mshadow::kUint8 ? kUint8Range : kInt8Range, t == mshadow::kInt32};
  const index_t n = inputs[0].Size();
  float* x = outputs[0].dptr<float>();
  switch (t) {
    case mshadow::kInt8:
      mxnet_op::Kernel<dequantize_elem, xpu>::Launch(s, n, inputs[0].dptr<int8_t>(), x,
                                                     ScaleArg(s, acc));
      break;
    case mshadow::kUint8:
      mxnet_op::Kernel<dequantize_elem, xpu>::Launch(s, n, inputs[0].dptr<uint8_t>(), x,
                                                     ScaleArg(s, acc));
      break;
    default:
      mxnet_op::Kernel<dequantize_elem, xpu>::Launch(s, n, inputs[0].dptr<int32_t>(), x,
                                                     ScaleArg(s, acc));
  }
}

/*! \brief _contrib_requantize of int32 data with the range (lo, hi) if `calib`, else the data's. */
template <typename xpu>
void RequantizeForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                       const std::vector<TBlob>& outputs, bool calib, float clo, float chi) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const float* in_lo = inputs[1].dptr<float>();
  const float* in_hi = inputs[2].dptr<float>();
  float* lo = outputs[1].dptr<float>();
  float* hi = outputs[2].dptr<float>();
  const int32_t* q = inputs[0].dptr<int32_t>();
  const index_t n = inputs[0].Size();
  const bool s8 = outputs[0].type_flag_ == mshadow::kInt8;
  if (calib) {
    mxnet_op::Kernel<requant_calib_range, xpu>::Launch(s, 1, lo, hi, clo, chi, s8);
  } else {
    DataMinMax(s, q, n, lo, hi);
    mxnet_op::Kernel<requant_data_range, xpu>::Launch(s, 1, in_lo, in_hi, lo, hi, s8);
  }
  const RequantScale acc{in_lo, in_hi, hi, s8 ? kInt8Limit : kUint8Limit};
  MXNET_QUANT_TYPE_SWITCH(outputs[0].type_flag_, Q, {
    mxnet_op::Kernel<quantize_elem, xpu>::Launch(s, n, q, outputs[0].dptr<Q>(), ScaleArg(s, acc));
  });
}

}  // namespace quant

// ---- parameters and FCompute of the operators (registered in quantize.cc / quantize.cu) --------

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
    if (with_auto) e.add_enum("auto", quant::kAuto);
    e.add_enum("int8", quant::kInt8).add_enum("uint8", quant::kUint8).set_default(default_type);
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
    this->DeclareOutType(manager, &out_type, true, quant::kInt8);
    this->DeclareCalibRange(manager, &min_calib_range, &max_calib_range, origin, use);
  }
};

struct QuantizeParam : public QuantizeFamilyParam<QuantizeParam> {
  int out_type;
  DMLC_DECLARE_PARAMETER(QuantizeParam) {
    DeclareOutType(manager, &out_type, false, quant::kUint8);
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

template <typename xpu>
void QuantizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  quant::QuantizeForward<xpu>(ctx, inputs, outputs);
}

template <typename xpu>
void QuantizeV2Compute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const QuantizeV2Param& p = nnvm::get<QuantizeV2Param>(attrs.parsed);
  const bool calib =
      quant::HasCalib("_contrib_quantize_v2", p.min_calib_range, p.max_calib_range);
  quant::QuantizeV2Forward<xpu>(ctx, inputs, outputs, calib, p.min_calib_range.value_or(0.f),
                                p.max_calib_range.value_or(0.f));
}

template <typename xpu>
void QuantizeAsymCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const QuantizeAsymParam& p = nnvm::get<QuantizeAsymParam>(attrs.parsed);
  const bool calib =
      quant::HasCalib("_contrib_quantize_asym", p.min_calib_range, p.max_calib_range);
  quant::QuantizeAsymForward<xpu>(ctx, inputs, outputs, calib, p.min_calib_range.value_or(0.f),
                                  p.max_calib_range.value_or(0.f));
}

template <typename xpu>
void DequantizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  quant::DequantizeForward<xpu>(ctx, inputs, outputs);
}

template <typename xpu>
void RequantizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const RequantizeParam& p = nnvm::get<RequantizeParam>(attrs.parsed);
  const bool calib =
      quant::HasCalib("_contrib_requantize", p.min_calib_range, p.max_calib_range);
  quant::RequantizeForward<xpu>(ctx, inputs, outputs, calib, p.min_calib_range.value_or(0.f),
                                p.max_calib_range.value_or(0.f));
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_QUANTIZATION_QUANTIZE_INL_H_
