/*!
 * \file mshadow/base.h
 * \brief The small core of our mshadow layer: device tags, streams, dtype codes and switches.
 *
 * Operator code written in the MXNet style uses these names:
 *
 *   MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
 *     Kernel<my_op, xpu>::Launch(s, out.Size(), out.dptr<DType>(), in.dptr<DType>());
 *   });
 */
#ifndef MSHADOW_BASE_H_
#define MSHADOW_BASE_H_

#include <dmlc/logging.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#ifdef __CUDACC__
#define MSHADOW_XINLINE inline __attribute__((always_inline)) __device__ __host__
#else
#define MSHADOW_XINLINE inline __attribute__((always_inline))
#endif
#define MSHADOW_CINLINE inline __attribute__((always_inline))
#define MSHADOW_FORCE_INLINE inline __attribute__((always_inline))

namespace mshadow {

/*! \brief Index type: 64-bit everywhere (no 32-bit shape overflow on large tensors). */
typedef int64_t index_t;
typedef float default_real_t;

/*! \brief Device tags. dev_mask matches Context::DeviceType codes. */
struct cpu {
  static const bool kDevCPU = true;
  static const int kDevMask = 1 << 0;
};
struct gpu {
  static const bool kDevCPU = false;
  static const int kDevMask = 1 << 1;
};

/*! \brief A device stream. On CPU it carries nothing; kernels take it for symmetry with GPU. */
template <typename Device>
struct Stream {
  void Wait() {}
  bool CheckIdle() { return true; }
};

}  // namespace mshadow

struct CUstream_st;  // what cudaStream_t points to: no CUDA header needed to name it

namespace mshadow {

/*!
 * \brief A CUDA stream of one device, owned by an engine worker. Its methods are defined in
 *        CUDA builds only (src/common/cuda_stream.cc); a CPU-only build never makes one.
 */
template <>
struct Stream<gpu> {
  CUstream_st* stream_{nullptr};
  int dev_id{-1};
  /*! \brief cuBLAS handle bound to stream_, created on first use (cublasHandle_t). */
  void* blas_handle_{nullptr};
  /*! \brief Block the host until every operation queued on the stream has finished. */
  void Wait();
  /*! \brief Whether everything queued has finished (never blocks). */
  bool CheckIdle();
  static CUstream_st* GetStream(Stream<gpu>* s) { return s != nullptr ? s->stream_ : nullptr; }
};

/*! \brief A new non-blocking stream on device `dev_id` (CUDA builds); DeleteStream frees it. */
Stream<gpu>* NewGPUStream(int dev_id);
void DeleteGPUStream(Stream<gpu>* s);

/*! \brief dtype codes shared by the C API, file formats and Python. */
enum TypeFlag {
  kFloat32 = 0,
  kFloat64 = 1,
  kFloat16 = 2,
  kUint8 = 3,
  kInt32 = 4,
  kInt8 = 5,
  kInt64 = 6,
  kBool = 7,
  kInt16 = 8,
  kUint16 = 9,
  kUint32 = 10,
  kUint64 = 11,
  kBfloat16 = 12,
};

namespace half {
/*! \brief IEEE 754 binary16 storage; arithmetic happens in float. */
struct half_t {
  uint16_t half_;

  half_t() = default;
  MSHADOW_XINLINE half_t(float f) : half_(FromFloat(f)) {}  // NOLINT(runtime/explicit)
  MSHADOW_XINLINE explicit half_t(double d) : half_(FromFloat(static_cast<float>(d))) {}
  MSHADOW_XINLINE explicit half_t(int v) : half_(FromFloat(static_cast<float>(v))) {}
  MSHADOW_XINLINE explicit half_t(int64_t v) : half_(FromFloat(static_cast<float>(v))) {}
  MSHADOW_XINLINE explicit half_t(unsigned v) : half_(FromFloat(static_cast<float>(v))) {}
  MSHADOW_XINLINE explicit half_t(uint64_t v) : half_(FromFloat(static_cast<float>(v))) {}
  MSHADOW_XINLINE explicit half_t(int8_t v) : half_(FromFloat(static_cast<float>(v))) {}
  MSHADOW_XINLINE explicit half_t(uint8_t v) : half_(FromFloat(static_cast<float>(v))) {}
  MSHADOW_XINLINE explicit half_t(bool v) : half_(FromFloat(v ? 1.f : 0.f)) {}
  MSHADOW_XINLINE operator float() const { return ToFloat(half_); }

  static half_t Binary(uint16_t bits) {
    half_t h;
    h.half_ = bits;
    return h;
  }

  MSHADOW_XINLINE half_t& operator+=(half_t o) { return *this = half_t(float(*this) + float(o)); }
  MSHADOW_XINLINE half_t& operator-=(half_t o) { return *this = half_t(float(*this) - float(o)); }
  MSHADOW_XINLINE half_t& operator*=(half_t o) { return *this = half_t(float(*this) * float(o)); }
  MSHADOW_XINLINE half_t& operator/=(half_t o) { return *this = half_t(float(*this) / float(o)); }

  static MSHADOW_XINLINE uint16_t FromFloat(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t mag = x & 0x7fffffffu;
    if (mag >= 0x7f800000u) {  // inf or nan
      return static_cast<uint16_t>(sign | 0x7c00u | (mag > 0x7f800000u ? 0x200u : 0u));
    }
    if (mag >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
    if (mag < 0x38800000u) {                                               // subnormal or zero
      if (mag < 0x33000000u) return static_cast<uint16_t>(sign);
      uint32_t e = mag >> 23;
      uint32_t m = (mag & 0x7fffffu) | 0x800000u;
      uint32_t shift = 126 - e;  // half subnormal unit is 2^-24
      uint32_t h = m >> shift;
      uint32_t rem = m & ((1u << shift) - 1);
      uint32_t half_way = 1u << (shift - 1);
      if (rem > half_way || (rem == half_way && (h & 1u))) ++h;
      return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = ((mag - 0x38000000u) >> 13);
    uint32_t rem = mag & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  static MSHADOW_XINLINE float ToFloat(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    uint32_t x;
    if (e == 0) {
      if (m == 0) {
        x = sign;
      } else {  // subnormal: normalise
        e = 127 - 15 + 1;
        while (!(m & 0x400u)) {
          m <<= 1;
          --e;
        }
        m &= 0x3ffu;
        x = sign | (e << 23) | (m << 13);
      }
    } else if (e == 31) {
      x = sign | 0x7f800000u | (m << 13);
    } else {
      x = sign | ((e + 127 - 15) << 23) | (m << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
};
}  // namespace half

/*! \brief Maps a C++ type to its dtype code. */
template <typename T>
struct DataType;
template <> struct DataType<float> { static const int kFlag = kFloat32; };
template <> struct DataType<double> { static const int kFlag = kFloat64; };
template <> struct DataType<half::half_t> { static const int kFlag = kFloat16; };
template <> struct DataType<uint8_t> { static const int kFlag = kUint8; };
template <> struct DataType<int32_t> { static const int kFlag = kInt32; };
template <> struct DataType<int8_t> { static const int kFlag = kInt8; };
template <> struct DataType<int64_t> { static const int kFlag = kInt64; };
template <> struct DataType<bool> { static const int kFlag = kBool; };

/*! \brief Bytes of one element of the dtype code, or 0 for an unknown code. */
inline size_t mshadow_sizeof(int type) {
  switch (type) {
    case kFloat32: case kInt32: case kUint32: return 4;
    case kFloat64: case kInt64: case kUint64: return 8;
    case kFloat16: case kInt16: case kUint16: case kBfloat16: return 2;
    case kUint8: case kInt8: case kBool: return 1;
    default: return 0;
  }
}

/*! \brief NumPy-style name of a dtype code ("float32", ...). */
inline const char* dtype_string(int type) {
  switch (type) {
    case kFloat32: return "float32";
    case kFloat64: return "float64";
    case kFloat16: return "float16";
    case kUint8: return "uint8";
    case kInt32: return "int32";
    case kInt8: return "int8";
    case kInt64: return "int64";
    case kBool: return "bool";
    case kInt16: return "int16";
    case kUint16: return "uint16";
    case kUint32: return "uint32";
    case kUint64: return "uint64";
    case kBfloat16: return "bfloat16";
    case -1: return "unknown";
    default: return "invalid";
  }
}

/*!
 * \brief Whether a dtype code is floating point, bfloat16 included: type inference accepts it
 *        where floats go (bfloat16 data runs through the float32 fallback of the execution
 *        core, so kernels never see it).
 */
inline bool IsFloatingType(int type) {
  return type == kFloat32 || type == kFloat64 || type == kFloat16 || type == kBfloat16;
}

}  // namespace mshadow

#define MSHADOW_TYPE_CASE_(flag, T, DType, ...) \
  case flag: {                                  \
    typedef T DType;                            \
    { __VA_ARGS__ }                             \
  } break;

/*! \brief Runs the body with DType bound to the C++ type of dtype code `type`. */
#define MSHADOW_TYPE_SWITCH(type, DType, ...)                                   \
  switch (type) {                                                               \
    MSHADOW_TYPE_CASE_(mshadow::kFloat32, float, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kFloat64, double, DType, __VA_ARGS__)           \
    MSHADOW_TYPE_CASE_(mshadow::kFloat16, mshadow::half::half_t, DType, __VA_ARGS__) \
    MSHADOW_TYPE_CASE_(mshadow::kUint8, uint8_t, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kInt8, int8_t, DType, __VA_ARGS__)              \
    MSHADOW_TYPE_CASE_(mshadow::kInt32, int32_t, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kInt64, int64_t, DType, __VA_ARGS__)            \
    default:                                                                    \
      MX_THROW(::dmlc::TypeError) << "unsupported dtype " << mshadow::dtype_string(type); \
  }

/*! \brief Like MSHADOW_TYPE_SWITCH, plus bool. */
#define MSHADOW_TYPE_SWITCH_WITH_BOOL(type, DType, ...)                         \
  switch (type) {                                                               \
    MSHADOW_TYPE_CASE_(mshadow::kFloat32, float, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kFloat64, double, DType, __VA_ARGS__)           \
    MSHADOW_TYPE_CASE_(mshadow::kFloat16, mshadow::half::half_t, DType, __VA_ARGS__) \
    MSHADOW_TYPE_CASE_(mshadow::kUint8, uint8_t, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kInt8, int8_t, DType, __VA_ARGS__)              \
    MSHADOW_TYPE_CASE_(mshadow::kInt32, int32_t, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kInt64, int64_t, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kBool, bool, DType, __VA_ARGS__)                \
    default:                                                                    \
      MX_THROW(::dmlc::TypeError) << "unsupported dtype " << mshadow::dtype_string(type); \
  }

/*! \brief Floating-point dtypes only (float32, float64, float16). */
#define MSHADOW_REAL_TYPE_SWITCH(type, DType, ...)                              \
  switch (type) {                                                               \
    MSHADOW_TYPE_CASE_(mshadow::kFloat32, float, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kFloat64, double, DType, __VA_ARGS__)           \
    MSHADOW_TYPE_CASE_(mshadow::kFloat16, mshadow::half::half_t, DType, __VA_ARGS__) \
    default:                                                                    \
      MX_THROW(::dmlc::TypeError) << "expected a floating-point dtype, got "    \
                                  << mshadow::dtype_string(type);               \
  }

/*! \brief Integer dtypes only. */
#define MSHADOW_IDX_TYPE_SWITCH(type, DType, ...)                               \
  switch (type) {                                                               \
    MSHADOW_TYPE_CASE_(mshadow::kUint8, uint8_t, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kInt8, int8_t, DType, __VA_ARGS__)              \
    MSHADOW_TYPE_CASE_(mshadow::kInt32, int32_t, DType, __VA_ARGS__)            \
    MSHADOW_TYPE_CASE_(mshadow::kInt64, int64_t, DType, __VA_ARGS__)            \
    default:                                                                    \
      MX_THROW(::dmlc::TypeError) << "expected an integer dtype, got "          \
                                  << mshadow::dtype_string(type);               \
  }
#define MSHADOW_INT_TYPE_SWITCH MSHADOW_IDX_TYPE_SWITCH

#endif  // MSHADOW_BASE_H_
