/*!
 * \file cast.h
 * \brief Element-wise copy with dtype conversion, shared by NDArray copies (CopyFromTo) and the
 *        Cast/_copyto operators. float16 converts through float; bool normalises to 0/1.
 *        bfloat16 (raw uint16 bits, no C++ element type: it never enters the type switches)
 *        converts through float32, rounding to nearest even on the way down.
 */
#ifndef MXNET_COMMON_CAST_H_
#define MXNET_COMMON_CAST_H_

#include <mxnet/op_attr_types.h>
#include <mxnet/tensor_blob.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "./float_convert.h"
#include "./parallel_ranges.h"
#if MXNET_USE_OPENMP
#include <omp.h>
#endif

namespace mxnet {
namespace common {

/*! \brief Elements below which a copy stays on one thread. */
constexpr int64_t kCastParallelThreshold = 32768;

/*!
 * \brief float32 -> bfloat16 bits, round to nearest even; a NaN stays a (quiet) NaN with its
 *        sign, where plain rounding could carry a low-payload NaN into infinity.
 */
MSHADOW_XINLINE uint16_t Float32ToBF16Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((b >> 16) | 0x40u);
  return static_cast<uint16_t>((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

/*! \brief bfloat16 bits -> float32 (exact). */
MSHADOW_XINLINE float BF16BitsToFloat32(uint16_t h) {
  const uint32_t b = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/*! \brief Convert one value between dtypes. */
template <typename OType, typename IType>
MSHADOW_XINLINE OType CastValue(IType v) {
  using mshadow::half::half_t;
  if constexpr (std::is_same<OType, bool>::value) {
    return static_cast<double>(v) != 0.0;
  } else if constexpr (std::is_same<IType, half_t>::value || std::is_same<OType, half_t>::value) {
    return FromFloat<OType>(static_cast<float>(v));
  } else {
    return FromFloat<OType>(v);  // float -> integer with defined results (float_convert.h)
  }
}

/*! \brief o[i] (req) OType(x[i]): the element kernel of a cast on the GPU. */
struct cast_element {
  template <typename OType, typename IType>
  MSHADOW_XINLINE static void Map(int64_t i, const IType* x, OType* o, int req) {
    if (req == kAddTo) {
      o[i] = CastValue<OType>(static_cast<double>(o[i]) + static_cast<double>(x[i]));
    } else {
      o[i] = CastValue<OType>(x[i]);
    }
  }
};

/*! \brief fn(begin, end) over [0, n) in contiguous chunks, one per OpenMP thread. */
template <typename Fn>
inline void ParallelChunks(int64_t n, const Fn& fn) {
  ParallelRanges(n, fn, kCastParallelThreshold);
}

/*! \brief o (req) OType(x), element-wise. */
template <typename OType, typename IType>
inline void CastCopyTyped(int64_t n, const IType* x, OpReqType req, OType* o) {
  ParallelChunks(n, [=](int64_t b, int64_t e) {
    if (req == kAddTo) {
      for (int64_t i = b; i < e; ++i) {
        o[i] = CastValue<OType>(static_cast<double>(o[i]) + static_cast<double>(x[i]));
      }
    } else {
      for (int64_t i = b; i < e; ++i) o[i] = CastValue<OType>(x[i]);
    }
  });
}

/*! \brief o (req) bfloat16(x): x of any switchable dtype, through float32. */
template <typename IType>
inline void CastToBF16Typed(int64_t n, const IType* x, OpReqType req, uint16_t* o) {
  ParallelChunks(n, [=](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const float v = CastValue<float>(x[i]);
      o[i] = Float32ToBF16Bits(req == kAddTo ? BF16BitsToFloat32(o[i]) + v : v);
    }
  });
}

/*! \brief o (req) OType(bfloat16 x), through float32. */
template <typename OType>
inline void CastFromBF16Typed(int64_t n, const uint16_t* x, OpReqType req, OType* o) {
  ParallelChunks(n, [=](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const float v = BF16BitsToFloat32(x[i]);
      o[i] = req == kAddTo ? CastValue<OType>(static_cast<double>(o[i]) + static_cast<double>(v))
                           : CastValue<OType>(v);
    }
  });
}

/*! \brief Copy `in` into `out` (same element count), converting the dtype; honours req. */
inline void CastCopy(const TBlob& in, OpReqType req, const TBlob& out) {
  if (req == kNullOp) return;
  const int64_t n = static_cast<int64_t>(out.Size());
  if (in.type_flag_ == out.type_flag_ && req != kAddTo) {
    if (in.dptr_ != out.dptr_ && n > 0) {
      const size_t esize = mshadow::mshadow_sizeof(out.type_flag_);
      char* dst = static_cast<char*>(out.dptr_);
      const char* src = static_cast<const char*>(in.dptr_);
      ParallelChunks(n, [=](int64_t b, int64_t e) {
        std::memcpy(dst + b * esize, src + b * esize, (e - b) * esize);
      });
    }
    return;
  }
  if (out.type_flag_ == mshadow::kBfloat16) {
    uint16_t* o = static_cast<uint16_t*>(out.dptr_);
    if (in.type_flag_ == mshadow::kBfloat16) {  // only kAddTo reaches here
      const uint16_t* x = static_cast<const uint16_t*>(in.dptr_);
      ParallelChunks(n, [=](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          o[i] = Float32ToBF16Bits(BF16BitsToFloat32(o[i]) + BF16BitsToFloat32(x[i]));
        }
      });
      return;
    }
    MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, IType, {
      CastToBF16Typed(n, static_cast<const IType*>(in.dptr_), req, o);
    });
    return;
  }
  if (in.type_flag_ == mshadow::kBfloat16) {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(out.type_flag_, OType, {
      CastFromBF16Typed(n, static_cast<const uint16_t*>(in.dptr_), req,
                        static_cast<OType*>(out.dptr_));
    });
    return;
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out.type_flag_, OType, {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, IType, {
      CastCopyTyped(n, static_cast<const IType*>(in.dptr_), req, static_cast<OType*>(out.dptr_));
    });
  });
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_CAST_H_
