/*!
 * \file storage/storage_manager.h
 * \brief Private interface of the per-device memory managers behind mxnet::Storage, and the
 *        factories that build them (used by storage.cc and by tests/cpp/storage).
 *
 *   PoolConfig cfg = PoolConfigFromEnv("CPU");           // MXNET_CPU_MEM_POOL_TYPE, ...
 *   auto mgr = CreateStorageManager(Context::CPU(), cfg, MakeCPUAllocator());
 *   Storage::Handle h; h.size = 100; h.ctx = Context::CPU();
 *   mgr->Alloc(&h);  ...  mgr->Free(h);                  // kept in the pool for the next Alloc
 *
 * Pool strategies (PoolType):
 *   kNaive    size-bucketed reuse: a request is rounded up to a multiple of `alignment` below
 *             `page_size`, to a page multiple below `large_alloc_round_size`, and above that to
 *             a size class (8 classes per power of two, at most 12.5% waste, granularity capped
 *             at `large_alloc_round_size`). Freed blocks wait in a free list per rounded size.
 *   kRound    power-of-two buckets up to 2^round_linear_cutoff, multiples of it above.
 *   kUnpooled every Alloc/Free goes straight to the device allocator.
 * All pooled blocks are returned to the device allocator by ReleaseAll, and when an allocation
 * fails (the pool is emptied and the allocation retried once before an error is thrown).
 */
#ifndef MXNET_STORAGE_STORAGE_MANAGER_H_
#define MXNET_STORAGE_STORAGE_MANAGER_H_

#include <mxnet/storage.h>

#include <cstddef>
#include <memory>
#include <string>

namespace mxnet {
namespace storage {

/*! \brief Raw device memory: where a pool gets its blocks from and returns them to. */
class RawAllocator {
 public:
  virtual ~RawAllocator() = default;
  /*! \brief `bytes` (> 0) of memory aligned to alignment(), or nullptr when out of memory. */
  virtual void* Alloc(size_t bytes) = 0;
  virtual void Free(void* ptr, size_t bytes) = 0;
  /*! \brief Alignment every returned pointer has. */
  virtual size_t alignment() const = 0;
};

/*! \brief One device's manager. Every method is thread-safe. */
class StorageManager {
 public:
  virtual ~StorageManager() = default;
  /*! \brief Fill handle->dptr for handle->size bytes; size 0 gives dptr == nullptr. Throws. */
  virtual void Alloc(Storage::Handle* handle) = 0;
  /*! \brief Give a block back (to the pool, if any). No-op for dptr == nullptr. */
  virtual void Free(Storage::Handle handle) = 0;
  /*! \brief Give a block straight back to the device allocator. */
  virtual void DirectFree(Storage::Handle handle) = 0;
  /*! \brief Add a reference to a shared block (shared-memory managers only). */
  virtual void SharedIncrementRefCount(Storage::Handle handle);
  /*! \brief Return every pooled block to the device allocator. */
  virtual void ReleaseAll() {}
  virtual Storage::Stats GetStats() = 0;
};

enum class PoolType { kNaive, kRound, kUnpooled };

/*! \brief "Naive" | "Round" | "Unpooled"; anything else throws
 *         "Unknown memory pool strategy specified: X". */
PoolType ParsePoolType(const std::string& name);
const char* PoolTypeName(PoolType type);

struct PoolConfig {
  PoolType type{PoolType::kNaive};
  /*! \brief Smallest block granularity (and pointer alignment on CPU). Power of two. */
  size_t alignment{64};
  /*! \brief Naive: page multiples from this size on. Round: smallest bucket. Power of two. */
  size_t page_size{4096};
  /*! \brief Naive: above this size, size classes of granularity at most this. */
  size_t large_alloc_round_size{size_t(2) << 20};
  /*! \brief Round: power-of-two buckets below 2^cutoff, multiples of 2^cutoff above. */
  int round_linear_cutoff{24};
  /*! \brief Most bytes kept in the pool; a block freed beyond it goes back to the system. */
  size_t max_cache_bytes{size_t(4096) << 20};
};

/*!
 * \brief Pool settings from MXNET_<DEV>_MEM_POOL_TYPE, MXNET_<DEV>_MEM_POOL_PAGE_SIZE,
 *        MXNET_<DEV>_MEM_LARGE_ALLOC_ROUND_SIZE, MXNET_<DEV>_MEM_POOL_ROUND_LINEAR_CUTOFF and
 *        MXNET_<DEV>_MEM_POOL_MAX_CACHE_MB, where <DEV> is `dev` ("CPU" or "GPU").
 *        Throws on invalid values.
 */
PoolConfig PoolConfigFromEnv(const std::string& dev);

/*!
 * \brief Size of the block a pool hands out for a request of `size` bytes (> 0).
 *        Throws "failed to allocate" when the rounded size overflows.
 */
size_t RoundAllocSize(const PoolConfig& cfg, size_t size, Context ctx);

/*! \brief 64-byte aligned host memory (posix_memalign). */
std::unique_ptr<RawAllocator> MakeCPUAllocator();

/*! \brief A pooled (or, for kUnpooled, pass-through) manager over `alloc` for device ctx. */
std::unique_ptr<StorageManager> CreateStorageManager(Context ctx, const PoolConfig& cfg,
                                                     std::unique_ptr<RawAllocator> alloc);

/*!
 * \brief POSIX shared memory (shm_open + mmap) for cpu_shared: an Alloc with shared_pid and
 *        shared_id of -1 creates a block (and fills them in); an Alloc with them set attaches
 *        to that block, possibly created by another process. A reference count lives in the
 *        block's header; the block's name is unlinked when the last reference is freed.
 */
std::unique_ptr<StorageManager> CreateCPUSharedStorageManager();

/*! \brief Name of a shared block: "/mx_<pid hex>_<id hex>" as MXNet 1.x. */
std::string SharedHandleToString(int shared_pid, int shared_id);

/*! \brief Throw the out-of-memory error naming the request and the device. */
[[noreturn]] void ThrowOutOfMemory(size_t size, Context ctx, const char* detail);

}  // namespace storage
}  // namespace mxnet

#endif  // MXNET_STORAGE_STORAGE_MANAGER_H_
