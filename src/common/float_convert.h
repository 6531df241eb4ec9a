/*!
 * \file float_convert.h
 * \brief A float value converted to any element type with defined results where C++ leaves
 *        them undefined (NaN, infinities and out-of-range values into integers). Used by the
 *        element-wise math functors and by casts, on the CPU and the GPU alike.
 */
#ifndef MXNET_COMMON_FLOAT_CONVERT_H_
#define MXNET_COMMON_FLOAT_CONVERT_H_

#include <mshadow/base.h>

#include <cstdint>
#include <type_traits>

namespace mxnet {
namespace common {

/*!
 * \brief `v`, computed in a float type, converted to DType. A NaN, an infinity or an
 *        out-of-range value converted to an integer type is undefined behaviour in C++ (log(0) of
 *        int8 data, 0/0); here it is defined as what x86's truncating conversion gives, which is
 *        what MXNet 1.x returns on x86: the value truncates to a 32-bit integer (a 64-bit one
 *        for uint32 and int64), the "integer indefinite" INT_MIN when it does not fit, and that
 *        integer narrows by keeping its low bits.
 */
template <typename DType, typename A>
MSHADOW_XINLINE DType FromFloat(A v) {
  if constexpr (std::is_integral<DType>::value && !std::is_same<DType, bool>::value &&
                std::is_floating_point<A>::value) {
    using Wide = typename std::conditional<(sizeof(DType) < 4 ||
                                            (sizeof(DType) == 4 && std::is_signed<DType>::value)),
                                           std::int32_t, std::int64_t>::type;
    constexpr int kBits = static_cast<int>(sizeof(Wide)) * 8;
    const A limit = static_cast<A>(static_cast<std::uint64_t>(1) << (kBits - 1));  // 2^(bits-1)
    const Wide wide = (v >= -limit && v < limit)
                          ? static_cast<Wide>(v)
                          : static_cast<Wide>(-(static_cast<Wide>(1) << (kBits - 2)) * 2);
    return static_cast<DType>(wide);
  } else {
    return static_cast<DType>(v);
  }
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_FLOAT_CONVERT_H_
