// Pooled storage managers: size rounding, per-size free lists, pool settings from the environment.
#include <sys/mman.h>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../common/env_util.h"
#include "./storage_manager.h"

// Under AddressSanitizer, pooled blocks are poisoned while they sit in the pool, and the tail of
// a block past the requested size stays poisoned: use-after-free and small overruns are caught
// even though the memory never goes back to malloc.
#if defined(__SANITIZE_ADDRESS__)
#define MXNET_STORAGE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MXNET_STORAGE_ASAN 1
#endif
#endif
#ifdef MXNET_STORAGE_ASAN
#include <sanitizer/asan_interface.h>
#define MXNET_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define MXNET_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define MXNET_POISON(p, n) ((void)(p), (void)(n))
#define MXNET_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace mxnet {
namespace storage {

namespace {

bool IsPowerOfTwo(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

/*! \brief Largest power of two <= v (v > 0). */
size_t FloorPow2(size_t v) {
  return size_t(1) << (8 * sizeof(unsigned long long) - 1 - __builtin_clzll(v));  // NOLINT
}

/*! \brief v rounded up to a multiple of m, or throws when that overflows. */
size_t RoundUp(size_t v, size_t m, Context ctx) {
  const size_t r = v % m;
  if (r == 0) return v;
  if (v > SIZE_MAX - (m - r)) {
    ThrowOutOfMemory(v, ctx, "the request is too large for the pool's size rounding");
  }
  return v + (m - r);
}

class CPUAllocator final : public RawAllocator {
 public:
  void* Alloc(size_t bytes) override {
    void* p = nullptr;
    // Large blocks on 2 MiB boundaries, marked for transparent huge pages (where the kernel
    // leaves them to madvise, as NumPy does): fewer TLB misses and page faults when streaming.
    const bool huge = bytes >= kHugeFrom;
    if (posix_memalign(&p, huge ? kHugePage : kAlignment, bytes) != 0) return nullptr;
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, bytes - bytes % kHugePage, MADV_HUGEPAGE);
#endif
    return p;
  }
  void Free(void* ptr, size_t) override { std::free(ptr); }
  size_t alignment() const override { return kAlignment; }

 private:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kHugePage = size_t(2) << 20;
  static constexpr size_t kHugeFrom = size_t(4) << 20;
};

/*!
 * \brief The pool. Alloc looks for a free block of the request's rounded size; a miss asks the
 *        device allocator (outside the lock), and on failure empties the pool and retries once.
 */
class PooledStorageManager final : public StorageManager {
 public:
  PooledStorageManager(Context ctx, const PoolConfig& cfg, std::unique_ptr<RawAllocator> alloc)
      : ctx_(ctx), cfg_(cfg), alloc_(std::move(alloc)) {}
  ~PooledStorageManager() override { ReleaseAll(); }

  void Alloc(Storage::Handle* handle) override {
    if (handle->size == 0) {
      handle->dptr = nullptr;
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.alloc_calls;
      return;
    }
    const size_t bucket = RoundAllocSize(cfg_, handle->size, ctx_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.alloc_calls;
      auto it = pool_.find(bucket);
      if (it != pool_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        stats_.bytes_pooled -= bucket;
        stats_.bytes_in_use += bucket;
        ++stats_.pool_hits;
        MXNET_UNPOISON(p, handle->size);
        handle->dptr = p;
        return;
      }
    }
    void* p = alloc_->Alloc(bucket);
    if (p == nullptr) {
      ReleaseAll();
      p = alloc_->Alloc(bucket);
      if (p == nullptr) {
        ThrowOutOfMemory(handle->size, ctx_, "out of memory (the pool was released and the "
                                             "allocation retried)");
      }
    }
    MXNET_POISON(static_cast<char*>(p) + handle->size, bucket - handle->size);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stats_.bytes_in_use += bucket;
    }
    handle->dptr = p;
  }

  void Free(Storage::Handle handle) override {
    if (handle.dptr == nullptr) return;
    const size_t bucket = RoundAllocSize(cfg_, handle.size, ctx_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ReleaseInUse(bucket);
      if (cfg_.type != PoolType::kUnpooled &&
          stats_.bytes_pooled + bucket <= cfg_.max_cache_bytes) {
        MXNET_POISON(handle.dptr, bucket);
        pool_[bucket].push_back(handle.dptr);
        stats_.bytes_pooled += bucket;
        return;
      }
    }
    MXNET_UNPOISON(handle.dptr, bucket);
    alloc_->Free(handle.dptr, bucket);
  }

  void DirectFree(Storage::Handle handle) override {
    if (handle.dptr == nullptr) return;
    const size_t bucket = RoundAllocSize(cfg_, handle.size, ctx_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ReleaseInUse(bucket);
    }
    MXNET_UNPOISON(handle.dptr, bucket);
    alloc_->Free(handle.dptr, bucket);
  }

  void ReleaseAll() override {
    std::unordered_map<size_t, std::vector<void*>> released;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      released.swap(pool_);
      stats_.bytes_pooled = 0;
    }
    for (auto& kv : released) {
      for (void* p : kv.second) {
        MXNET_UNPOISON(p, kv.first);
        alloc_->Free(p, kv.first);
      }
    }
  }

  Storage::Stats GetStats() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

 private:
  // Stats only: a mismatch (double free, a handle whose size was changed) must not throw from
  // a Free that may run in a destructor.
  void ReleaseInUse(size_t bucket) {
    stats_.bytes_in_use = stats_.bytes_in_use >= bucket ? stats_.bytes_in_use - bucket : 0;
  }

  const Context ctx_;
  const PoolConfig cfg_;
  std::unique_ptr<RawAllocator> alloc_;
  std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> pool_;  // rounded size -> free blocks
  Storage::Stats stats_;
};

}  // namespace

void StorageManager::SharedIncrementRefCount(Storage::Handle handle) {
  LOG(FATAL) << "SharedIncrementRefCount: only cpu_shared memory is reference counted, got a "
             << "handle on " << handle.ctx;
}

void ThrowOutOfMemory(size_t size, Context ctx, const char* detail) {
  LOG(FATAL) << "Storage: failed to allocate " << size << " bytes on " << ctx << ": " << detail;
  std::abort();  // not reached: LOG(FATAL) throws
}

PoolType ParsePoolType(const std::string& name) {
  if (name == "Naive") return PoolType::kNaive;
  if (name == "Round") return PoolType::kRound;
  if (name == "Unpooled") return PoolType::kUnpooled;
  MX_THROW(ValueError) << "Unknown memory pool strategy specified: " << name
                       << " (expected Naive, Round or Unpooled)";
  return PoolType::kNaive;
}

const char* PoolTypeName(PoolType type) {
  switch (type) {
    case PoolType::kNaive: return "Naive";
    case PoolType::kRound: return "Round";
    case PoolType::kUnpooled: return "Unpooled";
  }
  return "unknown";
}

PoolConfig PoolConfigFromEnv(const std::string& dev) {
  const std::string p = "MXNET_" + dev + "_MEM_";
  PoolConfig cfg;
  cfg.type = ParsePoolType(common::GetEnvString((p + "POOL_TYPE").c_str(), "Naive"));
  const int64_t page = common::GetEnvInt((p + "POOL_PAGE_SIZE").c_str(),
                                         static_cast<int64_t>(cfg.page_size));
  if (page < static_cast<int64_t>(cfg.alignment) || !IsPowerOfTwo(static_cast<size_t>(page))) {
    MX_THROW(ValueError) << p << "POOL_PAGE_SIZE: expected a power of two >= " << cfg.alignment
                         << ", got " << page;
  }
  cfg.page_size = static_cast<size_t>(page);
  const int64_t large = common::GetEnvInt((p + "LARGE_ALLOC_ROUND_SIZE").c_str(),
                                          static_cast<int64_t>(cfg.large_alloc_round_size));
  if (large < page || large % page != 0) {
    MX_THROW(ValueError) << p << "LARGE_ALLOC_ROUND_SIZE: expected a multiple of the page size "
                         << page << ", got " << large;
  }
  cfg.large_alloc_round_size = static_cast<size_t>(large);
  const int64_t cutoff = common::GetEnvInt((p + "POOL_ROUND_LINEAR_CUTOFF").c_str(),
                                           cfg.round_linear_cutoff);
  if (cutoff < 6 || cutoff > 40) {
    MX_THROW(ValueError) << p << "POOL_ROUND_LINEAR_CUTOFF: expected 6..40, got " << cutoff;
  }
  cfg.round_linear_cutoff = static_cast<int>(cutoff);
  const int64_t cache_mb = common::GetEnvInt((p + "POOL_MAX_CACHE_MB").c_str(),
                                             static_cast<int64_t>(cfg.max_cache_bytes >> 20));
  if (cache_mb < 0) {
    MX_THROW(ValueError) << p << "POOL_MAX_CACHE_MB: expected >= 0, got " << cache_mb;
  }
  cfg.max_cache_bytes = static_cast<size_t>(cache_mb) << 20;
  return cfg;
}

size_t RoundAllocSize(const PoolConfig& cfg, size_t size, Context ctx) {
  switch (cfg.type) {
    case PoolType::kUnpooled:
      return RoundUp(size, cfg.alignment, ctx);
    case PoolType::kNaive: {
      if (size < cfg.page_size) return RoundUp(size, cfg.alignment, ctx);
      if (size < cfg.large_alloc_round_size) return RoundUp(size, cfg.page_size, ctx);
      // Size classes: 8 per power of two, granularity between a page and the large round size.
      size_t granularity = FloorPow2(size) >> 3;
      if (granularity < cfg.page_size) granularity = cfg.page_size;
      if (granularity > cfg.large_alloc_round_size) granularity = cfg.large_alloc_round_size;
      return RoundUp(size, granularity, ctx);
    }
    case PoolType::kRound: {
      const size_t linear = size_t(1) << cfg.round_linear_cutoff;
      if (size > linear) return RoundUp(size, linear, ctx);
      if (size <= cfg.alignment) return cfg.alignment;
      const size_t floor = FloorPow2(size);
      return floor == size ? size : floor << 1;
    }
  }
  return size;
}

std::unique_ptr<RawAllocator> MakeCPUAllocator() { return std::make_unique<CPUAllocator>(); }

std::unique_ptr<StorageManager> CreateStorageManager(Context ctx, const PoolConfig& cfg,
                                                     std::unique_ptr<RawAllocator> alloc) {
  CHECK(alloc != nullptr) << "CreateStorageManager: no device allocator";
  CHECK(IsPowerOfTwo(cfg.alignment) && cfg.alignment <= cfg.page_size)
      << "CreateStorageManager: alignment " << cfg.alignment
      << " must be a power of two no larger than the page size " << cfg.page_size;
  return std::make_unique<PooledStorageManager>(ctx, cfg, std::move(alloc));
}

}  // namespace storage
}  // namespace mxnet
