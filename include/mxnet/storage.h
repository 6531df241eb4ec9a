/*!
 * \file mxnet/storage.h
 * \brief Device memory: Storage::Get()->Alloc/Free through per-device pooled managers.
 *
 *   Storage::Handle h = Storage::Get()->Alloc(1 << 20, Context::CPU());
 *   float* p = static_cast<float*>(h.dptr);   // 64-byte aligned
 *   Storage::Get()->Free(h);                   // back to the pool, reused by the next Alloc
 *
 * CPU memory is pooled (unlike MXNet 1.9.1). Pool type per device kind comes from
 * MXNET_CPU_MEM_POOL_TYPE / MXNET_GPU_MEM_POOL_TYPE: "Naive" (size-bucketed reuse, default),
 * "Round" (power-of-two buckets) or "Unpooled"; anything else is an error ("Unknown memory
 * pool strategy specified: X"). Other settings, per device kind (CPU shown):
 *   MXNET_CPU_MEM_POOL_PAGE_SIZE            4096   Naive: page-multiple rounding from here on
 *   MXNET_CPU_MEM_LARGE_ALLOC_ROUND_SIZE    2 MiB  Naive: size classes (<= 12.5% waste) above
 *   MXNET_CPU_MEM_POOL_ROUND_LINEAR_CUTOFF  24     Round: powers of two up to 2^24, then
 *                                                  multiples of 2^24
 *   MXNET_CPU_MEM_POOL_MAX_CACHE_MB         4096   most memory kept in the pool
 *   MXNET_GPU_MEM_POOL_RESERVE              5      percent of GPU memory left free (CUDA)
 * When the system is out of memory, a pool frees its cached blocks and retries once before
 * throwing an error that names the size and the device.
 *
 * Devices: cpu (every CPU device id shares one pool), cpu_pinned (pinned in CUDA builds, else
 * a host pool of its own), cpu_shared (POSIX shared memory: an Alloc with shared_pid/shared_id
 * of -1 creates a block and fills them in; with them set it attaches to that block, possibly
 * another process's; reference counted, never pooled), gpu (CUDA builds only; otherwise an
 * error "GPU support is not compiled in").
 */
#ifndef MXNET_STORAGE_H_
#define MXNET_STORAGE_H_

#include <mxnet/base.h>

#include <cstddef>
#include <memory>
#include <mutex>

namespace mxnet {

class MXNET_DLL Storage {
 public:
  /*! \brief A block of device memory. */
  struct Handle {
    void* dptr{nullptr};
    size_t size{0};
    Context ctx;
    int shared_pid{-1};
    int shared_id{-1};
  };

  /*! \brief Counters of one device's manager, for tests and memory benchmarks. */
  struct Stats {
    size_t bytes_in_use{0};    ///< handed out and not yet freed
    size_t bytes_pooled{0};    ///< freed into the pool, kept for reuse
    size_t alloc_calls{0};     ///< Alloc calls served
    size_t pool_hits{0};       ///< Alloc calls served from the pool
  };

  /*! \brief Allocate `size` bytes on ctx (64-byte aligned on CPU). Throws on out-of-memory. */
  Handle Alloc(size_t size, Context ctx) {
    Handle hd;
    hd.size = size;
    hd.ctx = ctx;
    this->Alloc(&hd);
    return hd;
  }
  /*! \brief Fill handle->dptr for handle->size bytes on handle->ctx. */
  virtual void Alloc(Handle* handle) = 0;
  /*! \brief Add a reference to a shared-memory block (cpu_shared only). */
  virtual void SharedIncrementRefCount(Handle handle) = 0;
  /*! \brief Release a block, possibly into the pool. No-op for dptr == nullptr. */
  virtual void Free(Handle handle) = 0;
  /*! \brief Release a block straight to the system, bypassing the pool. */
  virtual void DirectFree(Handle handle) = 0;
  /*! \brief Return every pooled block of ctx's device to the system. */
  virtual void ReleaseAll(Context ctx) = 0;
  /*! \brief Counters for ctx's device. */
  virtual Stats GetStats(Context ctx) = 0;
  /*! \brief Lock guarding allocation calls for a device type (for external allocators). */
  virtual std::mutex& GetMutex(Context::DeviceType dev) = 0;

  virtual ~Storage() = default;

  static Storage* Get();
  static std::shared_ptr<Storage> _GetSharedRef();
};

}  // namespace mxnet

#endif  // MXNET_STORAGE_H_
