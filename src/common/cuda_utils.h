/*!
 * \file cuda_utils.h
 * \brief CUDA error checking and device selection for the library's CUDA code (CUDA builds
 *        only). Every CUDA runtime failure becomes an MXNetError naming the call and the device:
 *
 *   CUDA_CALL(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, stream));
 *   common::cuda::DeviceGuard guard(ctx.dev_id);   // restores the previous device on exit
 */
#ifndef MXNET_COMMON_CUDA_UTILS_H_
#define MXNET_COMMON_CUDA_UTILS_H_

#if MXNET_USE_CUDA
#include <cuda_runtime.h>
#include <dmlc/logging.h>

#include <sstream>

namespace mxnet {
namespace common {
namespace cuda {

/*! \brief Throws MXNetError for a failed CUDA call, clearing the (non-sticky) error. */
[[noreturn]] inline void ThrowCudaError(cudaError_t err, const char* call, const char* file,
                                        int line) {
  cudaGetLastError();
  int dev = -1;
  cudaGetDevice(&dev);
  std::ostringstream os;
  os << "CUDA error on gpu(" << dev << "): " << cudaGetErrorString(err) << " ("
     << cudaGetErrorName(err) << ") in " << call << " at " << file << ":" << line;
  throw ::dmlc::Error(os.str());
}

/*! \brief Makes `dev_id` current for the scope; restores the previous device after. */
class DeviceGuard {
 public:
  explicit DeviceGuard(int dev_id) {
    cudaGetDevice(&previous_);
    if (previous_ != dev_id) cudaSetDevice(dev_id);
  }
  ~DeviceGuard() {
    int now = -1;
    cudaGetDevice(&now);
    if (now != previous_ && previous_ >= 0) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_{-1};
};

/*! \brief Threads per block and the grid cap the generic kernels use. */
constexpr int kThreadsPerBlock = 256;
constexpr int kMaxBlocks = 65535 * 8;

#ifdef __CUDACC__
/*!
 * \brief The block-wide sum of each thread's `v`; `buf` is shared memory of blockDim.x
 *        doubles (a power of two). Every thread of the block must call it.
 */
__device__ inline double BlockSum(double* buf, double v) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  const double total = buf[0];
  __syncthreads();
  return total;
}
#endif  // __CUDACC__

}  // namespace cuda
}  // namespace common
}  // namespace mxnet

#define CUDA_CALL(expr)                                                                  \
  do {                                                                                   \
    const cudaError_t cuda_call_err_ = (expr);                                           \
    if (cuda_call_err_ != cudaSuccess) {                                                 \
      ::mxnet::common::cuda::ThrowCudaError(cuda_call_err_, #expr, __FILE__, __LINE__);  \
    }                                                                                    \
  } while (0)

#endif  // MXNET_USE_CUDA
#endif  // MXNET_COMMON_CUDA_UTILS_H_
