/*!
 * \file cuda_launch.h
 * \brief The element-parallel GPU launch every layer shares (nvcc units only): OP::Map(i, args...)
 *        for i in [0, N) in a grid-stride loop on a given stream. mxnet_op's Kernel<OP, gpu>
 *        (operators) and the runtime's sparse casts (src/ndarray) both launch through it.
 */
#ifndef MXNET_COMMON_CUDA_LAUNCH_H_
#define MXNET_COMMON_CUDA_LAUNCH_H_

#ifdef __CUDACC__
#include <mxnet/base.h>

#include <algorithm>

#include "./cuda_utils.h"

namespace mxnet {
namespace common {
namespace cuda {

/*! \brief Grid-stride loop: OP::Map(i, args...) for i in [0, N). */
template <typename OP, typename... Args>
__global__ void map_kernel(index_t N, Args... args) {
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    OP::Map(i, args...);
  }
}

/*! \brief Blocks for N elements, capped (the grid-stride loop covers the rest). */
inline unsigned GridFor(index_t N) {
  const index_t blocks = (N + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<unsigned>(std::min<index_t>(blocks, kMaxBlocks));
}

/*!
 * \brief Queues OP::Map over [0, N) on `stream`. A launch failure (bad configuration) throws
 *        here; a fault inside the kernel surfaces at the next wait.
 */
template <typename OP, typename... Args>
inline void LaunchMap(cudaStream_t stream, index_t N, Args... args) {
  if (N <= 0) return;
  map_kernel<OP, Args...><<<GridFor(N), kThreadsPerBlock, 0, stream>>>(N, args...);
  CUDA_CALL(cudaPeekAtLastError());
}

}  // namespace cuda
}  // namespace common
}  // namespace mxnet
#endif  // __CUDACC__

#endif  // MXNET_COMMON_CUDA_LAUNCH_H_
