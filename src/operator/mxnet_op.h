/*!
 * \file mxnet_op.h
 * \brief Kernel launching for operator code in the MXNet style:
 *
 *   struct axpy {
 *     template <typename DType>
 *     MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* x, DType a) {
 *       out[i] += a * x[i];
 *     }
 *   };
 *   Kernel<axpy, cpu>::Launch(s, n, out, x, a);   // OpenMP over i when n is large enough
 *   Kernel<axpy, gpu>::Launch(s, n, out, x, a);   // the same functor, in a .cu file
 *
 * plus the req-aware assignment helpers (KERNEL_ASSIGN, MXNET_ASSIGN_REQ_SWITCH) and the
 * `op_with_req<OP, req>` adapter that turns a scalar functor into an element-wise kernel.
 */
#ifndef MXNET_OPERATOR_MXNET_OP_H_
#define MXNET_OPERATOR_MXNET_OP_H_

#include <mxnet/base.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#ifdef __CUDACC__
#include "../common/cuda_utils.h"
#endif
#if MXNET_USE_OPENMP
#include <omp.h>
#endif

namespace mxnet {
namespace op {
namespace mxnet_op {

using mshadow::Stream;

/*! \brief Elements per kernel below which OpenMP threads cost more than they save. */
constexpr index_t kOmpThreshold = 32768;

/*! \brief Threads a CPU kernel may use (OMP_NUM_THREADS / MXNET_OMP_MAX_THREADS). */
inline int MaxOmpThreads() {
#if MXNET_USE_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

template <typename OP, typename xpu>
struct Kernel;

template <typename OP>
struct Kernel<OP, mshadow::cpu> {
  /*! \brief Run OP::Map(i, args...) for i in [0, N). */
  template <typename... Args>
  inline static bool Launch(Stream<mshadow::cpu>*, const index_t N, Args... args) {
#if MXNET_USE_OPENMP
    if (N >= kOmpThreshold && MaxOmpThreads() > 1) {
#pragma omp parallel for
      for (index_t i = 0; i < N; ++i) OP::Map(i, args...);
      return true;
    }
#endif
    for (index_t i = 0; i < N; ++i) OP::Map(i, args...);
    return true;
  }
  /*! \brief Run OP::Map(begin, length, args...) over contiguous chunks (vectorisable bodies). */
  template <typename... Args>
  inline static void LaunchEx(Stream<mshadow::cpu>*, const index_t N, Args... args) {
#if MXNET_USE_OPENMP
    const int nthreads = N >= kOmpThreshold ? MaxOmpThreads() : 1;
    if (nthreads > 1) {
      const index_t chunk = (N + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads)
      for (index_t b = 0; b < N; b += chunk) OP::Map(b, std::min(chunk, N - b), args...);
      return;
    }
#endif
    OP::Map(0, N, args...);
  }
};

#ifdef __CUDACC__
/*! \brief Grid-stride loop: OP::Map(i, args...) for i in [0, N). */
template <typename OP, typename... Args>
__global__ void generic_kernel(index_t N, Args... args) {
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    OP::Map(i, args...);
  }
}

/*! \brief The chunked form on a GPU: every thread runs a chunk of one element. */
template <typename OP, typename... Args>
__global__ void generic_kernel_ex(index_t N, Args... args) {
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    OP::Map(i, index_t(1), args...);
  }
}

/*! \brief Blocks for N elements, capped (the grid-stride loop covers the rest). */
inline unsigned GridFor(index_t N) {
  const index_t blocks = (N + common::cuda::kThreadsPerBlock - 1) / common::cuda::kThreadsPerBlock;
  return static_cast<unsigned>(std::min<index_t>(blocks, common::cuda::kMaxBlocks));
}

/*!
 * \brief The same functors on the GPU, queued on the worker's stream. A launch failure (bad
 *        configuration) throws here; a fault inside the kernel surfaces at the next wait.
 */
template <typename OP>
struct Kernel<OP, mshadow::gpu> {
  template <typename... Args>
  inline static bool Launch(Stream<mshadow::gpu>* s, const index_t N, Args... args) {
    if (N <= 0) return true;
    generic_kernel<OP, Args...><<<GridFor(N), common::cuda::kThreadsPerBlock, 0,
                                  Stream<mshadow::gpu>::GetStream(s)>>>(N, args...);
    CUDA_CALL(cudaPeekAtLastError());
    return true;
  }
  template <typename... Args>
  inline static void LaunchEx(Stream<mshadow::gpu>* s, const index_t N, Args... args) {
    if (N <= 0) return;
    generic_kernel_ex<OP, Args...><<<GridFor(N), common::cuda::kThreadsPerBlock, 0,
                                     Stream<mshadow::gpu>::GetStream(s)>>>(N, args...);
    CUDA_CALL(cudaPeekAtLastError());
  }
};
#endif  // __CUDACC__

}  // namespace mxnet_op

/*! \brief Assign `val` to `out` according to `req` (null: skip, write/inplace: =, add: +=). */
#define KERNEL_ASSIGN(out, req, val)        \
  {                                         \
    switch (req) {                          \
      case ::mxnet::kNullOp:                \
        break;                              \
      case ::mxnet::kWriteTo:               \
      case ::mxnet::kWriteInplace:          \
        (out) = (val);                      \
        break;                              \
      case ::mxnet::kAddTo:                 \
        (out) += (val);                     \
        break;                              \
      default:                              \
        break;                              \
    }                                       \
  }

/*! \brief Bind the compile-time constant ReqType to `req` (kNullOp skips the body). */
#define MXNET_ASSIGN_REQ_SWITCH(req, ReqType, ...)          \
  switch (req) {                                            \
    case ::mxnet::kNullOp:                                  \
      break;                                                \
    case ::mxnet::kWriteInplace:                            \
    case ::mxnet::kWriteTo: {                               \
      const ::mxnet::OpReqType ReqType = ::mxnet::kWriteTo; \
      { __VA_ARGS__ }                                       \
    } break;                                                \
    case ::mxnet::kAddTo: {                                 \
      const ::mxnet::OpReqType ReqType = ::mxnet::kAddTo;   \
      { __VA_ARGS__ }                                       \
    } break;                                                \
    default:                                                \
      break;                                                \
  }

namespace mxnet_op {

/*! \brief Element-wise kernel from a scalar functor: out[i] (req) OP::Map(in[i], ...). */
template <typename OP, int req>
struct op_with_req {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* in) {
    KERNEL_ASSIGN(out[i], req, OP::Map(in[i]));
  }
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* lhs, const DType* rhs) {
    KERNEL_ASSIGN(out[i], req, OP::Map(lhs[i], rhs[i]));
  }
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* in, const DType value) {
    KERNEL_ASSIGN(out[i], req, OP::Map(in[i], value));
  }
};

/*! \brief out[i] (req, given at run time) in[i]. */
struct copy_with_req {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* in, int req) {
    KERNEL_ASSIGN(out[i], req, in[i]);
  }
};

/*! \brief out[i] = value. */
template <int req>
struct set_to_value {
  template <typename DType, typename VType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const VType value) {
    KERNEL_ASSIGN(out[i], req, static_cast<DType>(value));
  }
};

/*! \brief out[i] = 0. */
struct set_zero {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out) {
    out[i] = DType(0);
  }
};

/*! \brief Unravel a flat index into coordinates of `shape` (ndim <= 32). */
template <typename ShapeT>
MSHADOW_XINLINE void unravel(index_t idx, const ShapeT& shape, int ndim, index_t* coord) {
  for (int d = ndim - 1; d >= 0; --d) {
    coord[d] = idx % shape[d];
    idx /= shape[d];
  }
}

}  // namespace mxnet_op
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_MXNET_OP_H_
