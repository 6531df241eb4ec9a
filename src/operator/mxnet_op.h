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

#include "../common/parallel_ranges.h"
#ifdef __CUDACC__
#include "../common/cuda_launch.h"
#include "../common/cuda_utils.h"
#endif

namespace mxnet {
namespace op {
namespace mxnet_op {

using mshadow::Stream;

/*! \brief Elements per kernel below which OpenMP threads cost more than they save. */
constexpr index_t kOmpThreshold = common::kParallelThreshold;

using common::MaxOmpThreads;
using common::ParallelRanges;

template <typename OP, typename xpu>
struct Kernel;

template <typename OP>
struct Kernel<OP, mshadow::cpu> {
  /*! \brief Run OP::Map(i, args...) for i in [0, N). */
  template <typename... Args>
  inline static bool Launch(Stream<mshadow::cpu>*, const index_t N, Args... args) {
    ParallelRanges(N, [=](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) OP::Map(i, args...);
    });
    return true;
  }
  /*! \brief Run OP::Map(begin, length, args...) over contiguous chunks (vectorisable bodies). */
  template <typename... Args>
  inline static void LaunchEx(Stream<mshadow::cpu>*, const index_t N, Args... args) {
    ParallelRanges(N, [=](index_t b, index_t e) { OP::Map(b, e - b, args...); });
  }
};

#ifdef __CUDACC__
using common::cuda::GridFor;

/*! \brief The chunked form on a GPU: every thread runs a chunk of one element. */
template <typename OP, typename... Args>
__global__ void generic_kernel_ex(index_t N, Args... args) {
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    OP::Map(i, index_t(1), args...);
  }
}

/*!
 * \brief The same functors on the GPU, queued on the worker's stream. A launch failure (bad
 *        configuration) throws here; a fault inside the kernel surfaces at the next wait.
 */
template <typename OP>
struct Kernel<OP, mshadow::gpu> {
  template <typename... Args>
  inline static bool Launch(Stream<mshadow::gpu>* s, const index_t N, Args... args) {
    common::cuda::LaunchMap<OP>(Stream<mshadow::gpu>::GetStream(s), N, args...);
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

/*!
 * \brief Element-wise kernels compiled once per (functor, dtype), whatever the req.
 *
 * A write kernel K has `K::Map(begin, n, dst, args...)`, which writes the values of elements
 * [begin, begin + n) to dst[0, n) (dst points at element `begin` of the output); the two-output
 * form writes dst0 and dst1. LaunchWrite applies the req around it: kWriteTo / kWriteInplace
 * write the output directly, kAddTo (gradient accumulation) and kNullOp evaluate into a stack
 * buffer, which is then added or dropped. So the functor's loop exists once instead of once per
 * req (twice for one output, eight times for two), which halves the compile time of the
 * element-wise families; the extra pass over an L1-resident buffer costs little next to the
 * read-modify-write that kAddTo does anyway.
 */
constexpr index_t kWriteChunk = 1024;

template <typename K, typename DType, typename... Args>
__attribute__((noinline)) void WriteChunk(index_t begin, index_t n, DType* dst, Args... args) {
  K::Map(begin, n, dst, args...);
}

template <typename K, typename DType, typename... Args>
__attribute__((noinline)) void WriteChunk2(index_t begin, index_t n, DType* dst0, DType* dst1,
                                           Args... args) {
  K::Map(begin, n, dst0, dst1, args...);
}

/*! \brief out[0, n) += v[0, n) (once per dtype, shared by every functor). */
template <typename DType>
__attribute__((noinline)) void AddChunk(DType* out, const DType* v, index_t n) {
  for (index_t i = 0; i < n; ++i) out[i] += v[i];
}

inline bool WritesDirectly(OpReqType req) { return req == kWriteTo || req == kWriteInplace; }

template <typename K, typename DType, typename... Args>
inline void LaunchWrite(Stream<mshadow::cpu>*, index_t n, OpReqType req, DType* out,
                        Args... args) {
  if (req == kNullOp || n <= 0) return;
  ParallelRanges(n, [=](index_t b, index_t e) {
    DType buf[kWriteChunk];
    for (index_t c = b; c < e; c += kWriteChunk) {
      const index_t len = std::min(kWriteChunk, e - c);
      WriteChunk<K>(c, len, WritesDirectly(req) ? out + c : buf, args...);
      if (req == kAddTo) AddChunk(out + c, buf, len);
    }
  });
}

template <typename K, typename DType, typename... Args>
inline void LaunchWrite2(Stream<mshadow::cpu>*, index_t n, OpReqType req0, DType* out0,
                         OpReqType req1, DType* out1, Args... args) {
  if ((req0 == kNullOp && req1 == kNullOp) || n <= 0) return;
  ParallelRanges(n, [=](index_t b, index_t e) {
    DType buf0[kWriteChunk], buf1[kWriteChunk];
    for (index_t c = b; c < e; c += kWriteChunk) {
      const index_t len = std::min(kWriteChunk, e - c);
      WriteChunk2<K>(c, len, WritesDirectly(req0) ? out0 + c : buf0,
                     WritesDirectly(req1) ? out1 + c : buf1, args...);
      if (req0 == kAddTo) AddChunk(out0 + c, buf0, len);
      if (req1 == kAddTo) AddChunk(out1 + c, buf1, len);
    }
  });
}

#ifdef __CUDACC__
/*! \brief One element per thread; the req is a run-time value (a uniform branch). */
template <typename K, typename DType, typename... Args>
__global__ void write_kernel(index_t N, OpReqType req, DType* out, Args... args) {
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    DType v;
    K::Map(i, index_t(1), &v, args...);
    if (req == kAddTo) {
      out[i] += v;
    } else {
      out[i] = v;
    }
  }
}

template <typename K, typename DType, typename... Args>
__global__ void write_kernel2(index_t N, OpReqType req0, DType* out0, OpReqType req1,
                              DType* out1, Args... args) {
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    DType v0, v1;
    K::Map(i, index_t(1), &v0, &v1, args...);
    if (req0 == kAddTo) {
      out0[i] += v0;
    } else if (req0 != kNullOp) {
      out0[i] = v0;
    }
    if (req1 == kAddTo) {
      out1[i] += v1;
    } else if (req1 != kNullOp) {
      out1[i] = v1;
    }
  }
}

template <typename K, typename DType, typename... Args>
inline void LaunchWrite(Stream<mshadow::gpu>* s, index_t n, OpReqType req, DType* out,
                        Args... args) {
  if (req == kNullOp || n <= 0) return;
  write_kernel<K, DType, Args...><<<GridFor(n), common::cuda::kThreadsPerBlock, 0,
                                    Stream<mshadow::gpu>::GetStream(s)>>>(n, req, out, args...);
  CUDA_CALL(cudaPeekAtLastError());
}

template <typename K, typename DType, typename... Args>
inline void LaunchWrite2(Stream<mshadow::gpu>* s, index_t n, OpReqType req0, DType* out0,
                         OpReqType req1, DType* out1, Args... args) {
  if ((req0 == kNullOp && req1 == kNullOp) || n <= 0) return;
  write_kernel2<K, DType, Args...><<<GridFor(n), common::cuda::kThreadsPerBlock, 0,
                                     Stream<mshadow::gpu>::GetStream(s)>>>(
      n, req0, out0, req1, out1, args...);
  CUDA_CALL(cudaPeekAtLastError());
}
#endif  // __CUDACC__

}  // namespace mxnet_op
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_MXNET_OP_H_
