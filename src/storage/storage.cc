// Storage::Get(): routes every call to the manager of the handle's device, created on first use.
//   cpu         pooled host memory (MXNET_CPU_MEM_POOL_TYPE: Naive | Round | Unpooled)
//   cpu_pinned  pinned host memory in CUDA builds; without CUDA a plain CPU pool of its own
//   cpu_shared  POSIX shared memory (IPC with DataLoader workers), never pooled
//   gpu         pooled device memory (MXNET_GPU_MEM_POOL_TYPE) in CUDA builds; an error otherwise
// All CPU flavours use device id 0 (Context::real_dev_id), as MXNet 1.x.
#include <mxnet/profiler.h>
#include <mxnet/storage.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include "../common/env_util.h"
#include "../resource_internal.h"
#include "./gpu_device_storage.h"
#include "./storage_manager.h"

namespace mxnet {
namespace storage {

// The allocation watch of a CUDA graph capture (resource_internal.h), per thread.
thread_local bool t_watching = false;
thread_local size_t t_watched = 0;

void WatchAllocations(bool on) {
  t_watching = on;
  t_watched = 0;
}

size_t WatchedAllocations() { return t_watched; }

}  // namespace storage

namespace {

using storage::StorageManager;
using storage::t_watched;
using storage::t_watching;

class StorageImpl final : public Storage {
 public:
  StorageImpl() {
    for (auto& row : slots_) {
      for (auto& slot : row) slot.store(nullptr, std::memory_order_relaxed);
    }
  }

  void Alloc(Handle* handle) override {
    if (t_watching && handle->ctx.dev_type != Context::kCPU &&
        handle->ctx.dev_type != Context::kCPUShared) {
      ++t_watched;
    }
    Manager(handle->ctx)->Alloc(handle);
    if (profiler::RecordingMask() & profiler::kMemory) {
      profiler::RecordMemory(handle->ctx, static_cast<int64_t>(handle->size));
    }
  }

  void SharedIncrementRefCount(Handle handle) override {
    Manager(handle.ctx)->SharedIncrementRefCount(handle);
  }

  void Free(Handle handle) override {
    if (handle.dptr == nullptr) return;
    if (profiler::RecordingMask() & profiler::kMemory) {
      profiler::RecordMemory(handle.ctx, -static_cast<int64_t>(handle.size));
    }
    Manager(handle.ctx)->Free(handle);
  }

  void DirectFree(Handle handle) override {
    if (handle.dptr == nullptr) return;
    Manager(handle.ctx)->DirectFree(handle);
  }

  void ReleaseAll(Context ctx) override {
    if (StorageManager* m = Find(ctx)) m->ReleaseAll();
  }

  Stats GetStats(Context ctx) override {
    StorageManager* m = Find(ctx);
    return m != nullptr ? m->GetStats() : Stats();
  }

  std::mutex& GetMutex(Context::DeviceType dev) override {
    CheckDevType(dev);
    return type_mutex_[dev];
  }

 private:
  static void CheckDevType(int dev_type) {
    if (dev_type != Context::kCPU && dev_type != Context::kGPU &&
        dev_type != Context::kCPUPinned && dev_type != Context::kCPUShared) {
      MX_THROW(ValueError) << "Storage: unknown device type " << dev_type;
    }
  }

  static void CheckContext(Context ctx) {
    CheckDevType(ctx.dev_type);
    if (ctx.real_dev_id() < 0 || ctx.real_dev_id() >= Context::kMaxDevID) {
      MX_THROW(ValueError) << "Storage: device id of " << ctx << " out of range [0, "
                           << Context::kMaxDevID << ")";
    }
  }

  /*! \brief The manager of ctx's device, or nullptr if none was created yet. */
  StorageManager* Find(Context ctx) {
    CheckContext(ctx);
    return slots_[ctx.dev_type][ctx.real_dev_id()].load(std::memory_order_acquire);
  }

  StorageManager* Manager(Context ctx) {
    if (StorageManager* m = Find(ctx)) return m;
    std::lock_guard<std::mutex> lock(create_mutex_);
    const int type = ctx.dev_type, id = ctx.real_dev_id();
    StorageManager* m = slots_[type][id].load(std::memory_order_relaxed);
    if (m == nullptr) {
      owned_[type][id] = Create(ctx);
      m = owned_[type][id].get();
      slots_[type][id].store(m, std::memory_order_release);
    }
    return m;
  }

  static std::unique_ptr<StorageManager> Create(Context ctx) {
    switch (ctx.dev_type) {
      case Context::kCPU:
        return storage::CreateStorageManager(ctx, storage::PoolConfigFromEnv("CPU"),
                                             storage::MakeCPUAllocator());
      case Context::kCPUShared:
        return storage::CreateCPUSharedStorageManager();
      case Context::kCPUPinned:
#if MXNET_USE_CUDA
        if (Context::GetGPUCount() > 0) {
          return storage::CreateStorageManager(ctx, storage::PoolConfigFromEnv("CPU"),
                                               std::make_unique<storage::PinnedAllocator>(0));
        }
#endif
        return storage::CreateStorageManager(ctx, storage::PoolConfigFromEnv("CPU"),
                                             storage::MakeCPUAllocator());
      case Context::kGPU: {
        Context::CheckGPU(ctx, "Storage");
#if MXNET_USE_CUDA
        storage::PoolConfig cfg = storage::PoolConfigFromEnv("GPU");
        if (cfg.type == storage::PoolType::kRound) {
          LOG(INFO) << "Using GPUPooledRoundedStorageManager.";
        }
        const int64_t reserve = common::GetEnvInt("MXNET_GPU_MEM_POOL_RESERVE", 5);
        if (reserve < 0 || reserve > 100) {
          MX_THROW(ValueError) << "MXNET_GPU_MEM_POOL_RESERVE: expected a percentage 0..100, got "
                               << reserve;
        }
        return storage::CreateStorageManager(
            ctx, cfg,
            std::make_unique<storage::GPUAllocator>(ctx.dev_id, static_cast<int>(reserve)));
#endif
      }
    }
    MX_THROW(ValueError) << "Storage: unknown device type " << static_cast<int>(ctx.dev_type);
    return nullptr;
  }

  // slots_ gives lock-free lookup once a manager exists; owned_ keeps it alive.
  std::array<std::array<std::atomic<StorageManager*>, Context::kMaxDevID>,
             Context::kMaxDevType> slots_;
  std::array<std::array<std::unique_ptr<StorageManager>, Context::kMaxDevID>,
             Context::kMaxDevType> owned_;
  std::array<std::mutex, Context::kMaxDevType> type_mutex_;
  std::mutex create_mutex_;
};

}  // namespace

std::shared_ptr<Storage> Storage::_GetSharedRef() {
  // Never destroyed: engine workers may still free blocks while the process runs its static
  // destructors, in whatever order those run. The OS reclaims the memory at exit.
  static std::shared_ptr<Storage> inst(new StorageImpl(), [](Storage*) {});
  return inst;
}

Storage* Storage::Get() {
  static Storage* ptr = _GetSharedRef().get();
  return ptr;
}

}  // namespace mxnet
