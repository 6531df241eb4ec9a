/*!
 * \file storage/gpu_device_storage.h
 * \brief CUDA device and pinned-host allocators for the pools (MXNET_USE_CUDA builds only).
 *        Not compiled in CPU-only builds.
 */
#ifndef MXNET_STORAGE_GPU_DEVICE_STORAGE_H_
#define MXNET_STORAGE_GPU_DEVICE_STORAGE_H_

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include "./storage_manager.h"

namespace mxnet {
namespace storage {

/*! \brief cudaMalloc on one device, keeping `reserve_percent` of its memory free. */
class GPUAllocator final : public RawAllocator {
 public:
  GPUAllocator(int dev_id, int reserve_percent) : dev_id_(dev_id), reserve_(reserve_percent) {}
  void* Alloc(size_t bytes) override {
    if (cudaSetDevice(dev_id_) != cudaSuccess) return nullptr;
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return nullptr;
    const size_t reserved = total_bytes / 100 * static_cast<size_t>(reserve_);
    if (free_bytes < reserved || free_bytes - reserved < bytes) return nullptr;
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
      cudaGetLastError();  // clear the sticky error so the pool can retry
      return nullptr;
    }
    return p;
  }
  void Free(void* ptr, size_t) override {
    cudaSetDevice(dev_id_);
    const cudaError_t err = cudaFree(ptr);
    // At process exit the runtime may already be unloading: nothing left to free then.
    if (err != cudaSuccess && err != cudaErrorCudartUnloading) {
      LOG(ERROR) << "cudaFree failed on gpu(" << dev_id_ << "): " << cudaGetErrorString(err);
    }
  }
  size_t alignment() const override { return 256; }

 private:
  int dev_id_;
  int reserve_;
};

/*! \brief Page-locked host memory usable by every device (cudaHostAllocPortable). */
class PinnedAllocator final : public RawAllocator {
 public:
  explicit PinnedAllocator(int dev_id) : dev_id_(dev_id) {}
  void* Alloc(size_t bytes) override {
    cudaSetDevice(dev_id_);
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    return p;
  }
  void Free(void* ptr, size_t) override { cudaFreeHost(ptr); }
  size_t alignment() const override { return 64; }

 private:
  int dev_id_;
};

}  // namespace storage
}  // namespace mxnet

#endif  // MXNET_USE_CUDA
#endif  // MXNET_STORAGE_GPU_DEVICE_STORAGE_H_
