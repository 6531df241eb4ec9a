/*!
 * \file checked_size.h
 * \brief The byte size of an array, or false when its element count or byte count does not
 *        fit in 63 bits: a shape such as (2**40, 2**40) must be refused, not wrapped around to
 *        a small (or zero) allocation.
 */
#ifndef MXNET_COMMON_CHECKED_SIZE_H_
#define MXNET_COMMON_CHECKED_SIZE_H_

#include <mxnet/tuple.h>

#include <cstdint>

namespace mxnet {
namespace common {

/*! \brief *bytes = shape.Size() * element_bytes, unless that overflows int64 (then false). */
inline bool CheckedBytes(const TShape& shape, size_t element_bytes, int64_t* bytes) {
  int64_t total = static_cast<int64_t>(element_bytes);
  for (int i = 0; i < shape.ndim(); ++i) {
    if (shape[i] < 0 || __builtin_mul_overflow(total, static_cast<int64_t>(shape[i]), &total)) {
      return false;
    }
  }
  *bytes = total;
  return true;
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_CHECKED_SIZE_H_
