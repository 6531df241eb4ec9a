/*!
 * \file quantization_utils-inl.h
 * \brief Shared pieces of the int8/uint8 quantization operators (src/operator/quantization/):
 *        the range constants, saturating round-to-nearest-even conversion, the float <-> int
 *        scale of a quantized tensor, and the shape/type checks of the (data, min, max)
 *        triples every quantized operator takes.
 *
 * A quantized tensor is an int8/uint8/int32 array plus two float32 scalars (shape (1,)),
 * min and max, of the real range it stands for. The scale is symmetric: a real value x is
 * q = x * R / MaxAbs(min, max) for a type range R. MXNet 1.9.1's CPU build (oneDNN) uses
 * two sets of ranges, and these operators reproduce which one each operator uses:
 *   - kInt8Range = 127.5, kUint8Range = 255.5 (oneDNN quantize_v2, dequantize, the bias
 *     scale of quantized_fully_connected, elemwise add/mul);
 *   - 127, 255 and 2^31 (the int32 output ranges of conv / FC / elemwise_mul, quantize,
 *     requantize with calibration).
 * Conversions to int8/uint8 round half to even and saturate, as oneDNN's reorders do.
 */
#ifndef MXNET_OPERATOR_QUANTIZATION_QUANTIZATION_UTILS_INL_H_
#define MXNET_OPERATOR_QUANTIZATION_QUANTIZATION_UTILS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {
namespace quant {

constexpr float kInt8Range = 127.5f;
constexpr float kUint8Range = 255.5f;
constexpr float kInt8Limit = 127.0f;
constexpr float kUint8Limit = 255.0f;
/*! \brief The int32 range of the accumulators: 2^31 (as float; 2^31 - 1 rounds to it). */
constexpr double kInt32Range = 2147483648.0;

enum OutType { kAuto = 0, kInt8 = 1, kUint8 = 2 };

inline float MaxAbs(float a, float b) { return std::max(std::fabs(a), std::fabs(b)); }

inline bool IsQuantType(int t) { return t == mshadow::kInt8 || t == mshadow::kUint8; }

/*! \brief oneDNN's range of a quantized dtype (127.5 / 255.5). */
inline float OneDnnRange(int t) { return t == mshadow::kUint8 ? kUint8Range : kInt8Range; }
/*! \brief The integer limit of a quantized dtype (127 / 255). */
inline float IntLimit(int t) { return t == mshadow::kUint8 ? kUint8Limit : kInt8Limit; }

/*!
 * \brief The int32 output range (m_a / L_a) * (m_b / L_b) * 2^31 of a product of two quantized
 *        tensors, in float arithmetic in this order (MXNet 1.9.1's rounding of it).
 */
MSHADOW_XINLINE float Int32ProductRange(float m_a, float l_a, float m_b, float l_b) {
  return (m_a / l_a) * (m_b / l_b) * static_cast<float>(kInt32Range);
}

/*! \brief Round half to even (the default rounding mode), on the host and in device code. */
MSHADOW_XINLINE double RoundHalfEven(double v) {
#ifdef __CUDA_ARCH__
  return rint(v);
#else
  return std::nearbyint(v);
#endif
}

/*! \brief Round toward zero, on the host and in device code. */
MSHADOW_XINLINE double RoundTowardZero(double v) {
#ifdef __CUDA_ARCH__
  return trunc(v);
#else
  return std::trunc(v);
#endif
}

/*! \brief a * b rounded once: never fused with a following add into an FMA (nvcc would). */
MSHADOW_XINLINE float MulRn(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

/*! \brief MaxAbs in device code too (the same comparisons as std::max of the std::fabs). */
MSHADOW_XINLINE float MaxAbsX(float a, float b) {
  const float fa = fabsf(a), fb = fabsf(b);
  return fa < fb ? fb : fa;
}

/*!
 * \brief Round half to even and saturate to T (int8, uint8 or int32). A NaN (0 * inf, from a
 *        zero range) gives the largest int8 / 0 for uint8, as MXNet 1.9.1 does.
 */
template <typename T>
MSHADOW_XINLINE T SatRound(double v) {
  const double lo = static_cast<double>(std::numeric_limits<T>::min());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (v != v) return std::is_same<T, uint8_t>::value ? T(0) : std::numeric_limits<T>::max();
  v = RoundHalfEven(v);
  if (v <= lo) return std::numeric_limits<T>::min();
  if (v >= hi) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

/*! \brief Truncate toward zero and saturate to T. */
template <typename T>
MSHADOW_XINLINE T SatTrunc(double v) {
  const double lo = static_cast<double>(std::numeric_limits<T>::min());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (v != v) return T(0);
  v = RoundTowardZero(v);
  if (v <= lo) return std::numeric_limits<T>::min();
  if (v >= hi) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

/*!
 * \brief Range-dependent constants of an element kernel, from range scalars that live where the
 *        data does. An accessor `acc` has get(), computing them from its pointers; the CPU
 *        evaluates it once here and passes the values, a GPU thread evaluates it itself (so no
 *        range is read on the host). Kernels read their argument with ScaleOf.
 */
template <typename Acc>
inline auto ScaleArg(mshadow::Stream<mshadow::cpu>*, const Acc& a) -> decltype(a.get()) {
  return a.get();
}
template <typename Acc>
inline Acc ScaleArg(mshadow::Stream<mshadow::gpu>*, const Acc& a) { return a; }

MSHADOW_XINLINE float ScaleOf(float v) { return v; }
/*! \brief An accessor's values (a struct of values has a get() returning itself). */
template <typename Acc>
MSHADOW_XINLINE auto ScaleOf(const Acc& a) -> decltype(a.get()) { return a.get(); }

/*! \brief The float value of a (1,)-shaped range input. */
inline float Scalar(const TBlob& b) { return b.dptr<float>()[0]; }

/*! \brief Both or neither of min_calib_range / max_calib_range; true when both are given. */
inline bool HasCalib(const char* op, const dmlc::optional<float>& lo,
                     const dmlc::optional<float>& hi) {
  if (lo.has_value() != hi.has_value()) {
    MX_THROW(ValueError) << op << ": min_calib_range and max_calib_range must be given together, "
                         << "got only " << (lo.has_value() ? "min_calib_range" : "max_calib_range");
  }
  return lo.has_value();
}

/*! \brief Range inputs (min/max scalars) [first, end) of `op` have shape (1,). */
inline void RangeShapes(const char* op, mxnet::ShapeVector* in, size_t first, size_t end,
                        const std::vector<std::string>& names) {
  for (size_t i = first; i < end; ++i) {
    mxnet::TShape& s = (*in)[i];
    if (ndim_is_known(s) && shape_is_known(s) && s.Size() == 1) continue;
    if (ndim_is_known(s) && !(s.ndim() == 1 && s[0] < 0)) {
      MX_THROW(ValueError) << op << ": " << names[i] << " must be a scalar range of shape (1,), got "
                           << s;
    }
    s = mxnet::TShape(1, 1);
  }
}

/*! \brief The output range scalars [first, end) have shape (1,). */
inline void ScalarOutShapes(mxnet::ShapeVector* out, size_t first, size_t end) {
  for (size_t i = first; i < end; ++i) SHAPE_ASSIGN_CHECK(*out, i, mxnet::TShape(1, 1));
}

/*! \brief Range inputs [first, end) are float32. */
inline void RangeTypes(const char* op, std::vector<int>* in, size_t first, size_t end,
                       const std::vector<std::string>& names) {
  for (size_t i = first; i < end; ++i) {
    if ((*in)[i] != -1 && (*in)[i] != mshadow::kFloat32) {
      MX_THROW(TypeError) << op << ": " << names[i] << " must be float32, got "
                          << type_string((*in)[i]);
    }
    (*in)[i] = mshadow::kFloat32;
  }
}

/*! \brief Input i has one of `allowed` dtypes (or is unknown: then `fallback`, if >= 0). */
inline bool CheckInType(const char* op, std::vector<int>* in, size_t i, const std::string& name,
                        const std::vector<int>& allowed, int fallback = -1) {
  int& t = (*in)[i];
  if (t == -1) {
    if (fallback < 0) return false;
    t = fallback;
    return true;
  }
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end()) {
    std::string want;
    for (size_t k = 0; k < allowed.size(); ++k) {
      want += (k ? (k + 1 == allowed.size() ? " or " : ", ") : "") + type_string(allowed[k]);
    }
    MX_THROW(TypeError) << op << ": " << name << " must be " << want << ", got "
                        << type_string(t);
  }
  return true;
}

/*! \brief Output types: out0 = t, the rest float32 ranges. */
inline void QuantOutTypes(std::vector<int>* out, int t) {
  TYPE_ASSIGN_CHECK(*out, 0, t);
  for (size_t i = 1; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, mshadow::kFloat32);
}

/*! \brief Switch over int8 / uint8 storage of a quantized tensor. */
#define MXNET_QUANT_TYPE_SWITCH(type, QType, ...)                                   \
  switch (type) {                                                                   \
    case mshadow::kInt8: { typedef int8_t QType; { __VA_ARGS__ } break; }           \
    case mshadow::kUint8: { typedef uint8_t QType; { __VA_ARGS__ } break; }         \
    default:                                                                        \
      MX_THROW(TypeError) << "quantized operator: expected int8 or uint8 data, got " \
                          << mxnet::op::type_string(type);                          \
  }

/*! \brief The names "min_<x>", "max_<x>" after the data inputs. */
inline std::vector<std::string> Names(std::initializer_list<const char*> names) {
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace quant
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_QUANTIZATION_QUANTIZATION_UTILS_INL_H_
