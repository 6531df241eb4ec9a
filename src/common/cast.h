/*!
 * \file cast.h
 * \brief Element-wise copy with dtype conversion between raw buffers (OpenMP for large sizes).
 */
#ifndef MXNET_COMMON_CAST_H_
#define MXNET_COMMON_CAST_H_

#include <mshadow/base.h>

#include <algorithm>
#include <cstring>

namespace mxnet {
namespace common {

/*! \brief Work size below which kernels stay single-threaded (MXNET_CPU_PARALLEL_SIZE). */
constexpr size_t kParallelThreshold = 200000;

template <typename SrcT, typename DstT>
inline void CastLoop(const SrcT* src, DstT* dst, size_t n) {
#pragma omp parallel for if (n > kParallelThreshold)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    dst[i] = static_cast<DstT>(static_cast<double>(src[i]));
  }
}

/*! \brief dst[i] = DstT(src[i]) for n elements; a plain memcpy when dtypes match. */
inline void CastCopy(const void* src, int src_type, void* dst, int dst_type, size_t n) {
  if (n == 0) return;
  if (src_type == dst_type) {
    const size_t bytes = n * mshadow::mshadow_sizeof(src_type);
    if (bytes > kParallelThreshold * 4) {
      const int64_t chunk = 1 << 20;
      const int64_t nchunks = (bytes + chunk - 1) / chunk;
#pragma omp parallel for
      for (int64_t c = 0; c < nchunks; ++c) {
        const size_t off = c * chunk;
        std::memcpy(static_cast<char*>(dst) + off, static_cast<const char*>(src) + off,
                    std::min<size_t>(chunk, bytes - off));
      }
    } else {
      std::memcpy(dst, src, bytes);
    }
    return;
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(src_type, SrcT, {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(dst_type, DstT, {
      CastLoop(static_cast<const SrcT*>(src), static_cast<DstT*>(dst), n);
    });
  });
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_CAST_H_
