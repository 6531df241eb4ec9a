/*!
 * \file parallel_ranges.h
 * \brief ParallelRanges(n, fn): fn(begin, end) over [0, n), one contiguous range per OpenMP
 *        thread when n is large, else the whole range on the calling thread.
 *
 *   ParallelRanges(n, [=](int64_t b, int64_t e) { for (int64_t i = b; i < e; ++i) y[i] = f(x[i]); });
 */
#ifndef MXNET_COMMON_PARALLEL_RANGES_H_
#define MXNET_COMMON_PARALLEL_RANGES_H_

#include <algorithm>
#include <cstdint>
#if MXNET_USE_OPENMP
#include <omp.h>
#endif

namespace mxnet {
namespace common {

/*! \brief Elements below which OpenMP threads cost more than they save. */
constexpr int64_t kParallelThreshold = 32768;

/*! \brief Threads a CPU loop may use (OMP_NUM_THREADS / MXNET_OMP_MAX_THREADS). */
inline int MaxOmpThreads() {
#if MXNET_USE_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/*!
 * \brief fn(begin, end), out of line: the serial path and the OpenMP region both call it, so a
 *        loop body is compiled once rather than once per path (half the code and compile time
 *        of every CPU kernel).
 */
template <typename Fn>
__attribute__((noinline)) void RunRange(const Fn& fn, int64_t begin, int64_t end) {
  fn(begin, end);
}

template <typename Fn>
inline void ParallelRanges(int64_t n, const Fn& fn, int64_t threshold = kParallelThreshold) {
#if MXNET_USE_OPENMP
  const int nthreads = n >= threshold ? MaxOmpThreads() : 1;
  if (nthreads > 1) {
    const int64_t chunk = (n + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads)
    for (int64_t b = 0; b < n; b += chunk) RunRange(fn, b, std::min(n, b + chunk));
    return;
  }
#endif
  if (n > 0) RunRange(fn, int64_t(0), n);
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_PARALLEL_RANGES_H_
