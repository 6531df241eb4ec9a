// CUDA device queries and streams. In a CPU-only build the queries answer "no GPU" and no
// stream is ever made; in a CUDA build without a GPU (or without a driver) they answer the same.
#include <mxnet/base.h>

#include "./cuda_utils.h"

namespace mxnet {

int32_t Context::GetGPUCount() {
#if MXNET_USE_CUDA
  // Asked once: the set of visible devices does not change while the process runs. No
  // driver, no device or a driver too old for this runtime all mean: no usable GPU.
  static const int32_t count = []() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return count;
#else
  return 0;
#endif
}

void Context::GetGPUMemoryInformation(int dev, uint64_t* free_mem, uint64_t* total_mem) {
#if MXNET_USE_CUDA
  const int count = GetGPUCount();
  if (dev < 0 || dev >= count) {
    MX_THROW(ValueError) << "gpu_memory_info: no device gpu(" << dev << "): " << count
                         << " GPU(s) visible";
  }
  common::cuda::DeviceGuard guard(dev);
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CALL(cudaMemGetInfo(&free_bytes, &total_bytes));
  *free_mem = free_bytes;
  *total_mem = total_bytes;
#else
  (void)free_mem;
  (void)total_mem;
  CheckGPU(Context::GPU(dev), "gpu_memory_info");  // throws: no GPU support in this build
#endif
}

void Context::CheckGPU(const Context& ctx, const std::string& what) {
  if (ctx.dev_mask() != gpu::kDevMask) return;
  const std::string prefix = what.empty() ? std::string() : what + ": ";
#if MXNET_USE_CUDA
  const int count = GetGPUCount();
  if (ctx.dev_id >= count) {
    MX_THROW(ValueError) << prefix << "device " << ctx << " does not exist: " << count
                         << " GPU(s) visible";
  }
#else
  MX_THROW(NotImplementedError) << prefix << "cannot use " << ctx
                                << ": GPU support is not compiled in (rebuild with "
                                   "-DMXNET_USE_CUDA=ON)";
#endif
}

}  // namespace mxnet

#if MXNET_USE_CUDA
namespace mshadow {

void Stream<gpu>::Wait() {
  CUDA_CALL(cudaStreamSynchronize(stream_));
}

bool Stream<gpu>::CheckIdle() {
  const cudaError_t err = cudaStreamQuery(stream_);
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) return false;
  CUDA_CALL(err);
  return false;
}

Stream<gpu>* NewGPUStream(int dev_id) {
  mxnet::common::cuda::DeviceGuard guard(dev_id);
  auto* s = new Stream<gpu>();
  s->dev_id = dev_id;
  cudaStream_t st = nullptr;
  CUDA_CALL(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  s->stream_ = st;
  return s;
}

void DeleteGPUStream(Stream<gpu>* s) {
  if (s == nullptr) return;
  mxnet::common::cuda::DeviceGuard guard(s->dev_id);
  // At process exit the runtime may be gone already: nothing left to release then.
  if (s->stream_ != nullptr) cudaStreamDestroy(s->stream_);
  delete s;
}

}  // namespace mshadow
#endif  // MXNET_USE_CUDA
