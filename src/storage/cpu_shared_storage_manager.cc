// cpu_shared memory: POSIX shared-memory blocks that other processes (DataLoader workers) attach
// to by (shared_pid, shared_id). A block starts with a 64-byte header holding an atomic
// reference count shared by every process that maps it; the data follows, 64-byte aligned.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <random>
#include <sstream>

#include "./storage_manager.h"

namespace mxnet {
namespace storage {

std::string SharedHandleToString(int shared_pid, int shared_id) {
  std::ostringstream os;
  os << "/mx_" << std::hex << shared_pid << "_" << std::hex << shared_id;
  return os.str();
}

namespace {

constexpr size_t kHeader = 64;
static_assert(sizeof(std::atomic<int>) <= kHeader, "reference count must fit the header");

std::atomic<int>* RefCount(const Storage::Handle& handle) {
  return reinterpret_cast<std::atomic<int>*>(static_cast<char*>(handle.dptr) - kHeader);
}

class CPUSharedStorageManager final : public StorageManager {
 public:
  CPUSharedStorageManager() : rng_(std::random_device()() ^ static_cast<unsigned>(getpid())) {}

  void Alloc(Storage::Handle* handle) override {
    if (handle->size > std::numeric_limits<size_t>::max() - kHeader ||
        handle->size + kHeader > static_cast<size_t>(std::numeric_limits<off_t>::max())) {
      ThrowOutOfMemory(handle->size, handle->ctx, "the request is too large");
    }
    const size_t total = handle->size + kHeader;
    const bool is_new = handle->shared_pid == -1 && handle->shared_id == -1;
    std::string name;
    int fd = -1;
    if (is_new) {
      std::lock_guard<std::mutex> lock(mutex_);
      std::uniform_int_distribution<int> dist(0, std::numeric_limits<int>::max());
      handle->shared_pid = static_cast<int>(getpid());
      for (int attempt = 0; attempt < 16 && fd == -1; ++attempt) {
        handle->shared_id = dist(rng_);
        name = SharedHandleToString(handle->shared_pid, handle->shared_id);
        fd = shm_open(name.c_str(), O_EXCL | O_CREAT | O_RDWR, 0666);
        if (fd == -1 && errno != EEXIST) break;
      }
    } else {
      name = SharedHandleToString(handle->shared_pid, handle->shared_id);
      fd = shm_open(name.c_str(), O_RDWR, 0666);
    }
    if (fd == -1) {
      LOG(FATAL) << "Storage: failed to " << (is_new ? "create" : "open") << " shared memory "
                 << name << " (" << handle->size << " bytes on " << handle->ctx
                 << "): shm_open: " << std::strerror(errno);
    }
    if (is_new) {
      if (ftruncate(fd, static_cast<off_t>(total)) != 0) {
        const int err = errno;
        close(fd);
        shm_unlink(name.c_str());
        LOG(FATAL) << "Storage: failed to allocate " << handle->size << " bytes of shared memory "
                   << "on " << handle->ctx << ": ftruncate: " << std::strerror(err);
      }
    } else {
      struct stat st;
      if (fstat(fd, &st) != 0 || static_cast<size_t>(st.st_size) < total) {
        close(fd);
        LOG(FATAL) << "Storage: shared memory " << name << " holds fewer than the "
                   << handle->size << " bytes requested";
      }
    }
    void* base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int map_err = errno;
    close(fd);
    if (base == MAP_FAILED) {
      if (is_new) shm_unlink(name.c_str());
      LOG(FATAL) << "Storage: failed to map " << handle->size << " bytes of shared memory "
                 << name << " on " << handle->ctx << ": mmap: " << std::strerror(map_err);
    }
    if (is_new) new (base) std::atomic<int>(1);
    handle->dptr = static_cast<char*>(base) + kHeader;
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.alloc_calls;
    stats_.bytes_in_use += total;
  }

  void SharedIncrementRefCount(Storage::Handle handle) override {
    CHECK(handle.dptr != nullptr) << "SharedIncrementRefCount: empty handle";
    RefCount(handle)->fetch_add(1);
  }

  /*! \brief Unmap this process's view; unlink the name once the last reference is gone. */
  void Free(Storage::Handle handle) override {
    if (handle.dptr == nullptr) return;
    const int remaining = RefCount(handle)->fetch_sub(1) - 1;
    const size_t total = handle.size + kHeader;
    munmap(static_cast<char*>(handle.dptr) - kHeader, total);
    if (remaining == 0) {
      shm_unlink(SharedHandleToString(handle.shared_pid, handle.shared_id).c_str());
    }
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.bytes_in_use = stats_.bytes_in_use >= total ? stats_.bytes_in_use - total : 0;
  }

  void DirectFree(Storage::Handle handle) override { Free(handle); }

  Storage::Stats GetStats() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

 private:
  std::mutex mutex_;
  std::mt19937 rng_;
  Storage::Stats stats_;
};

}  // namespace

std::unique_ptr<StorageManager> CreateCPUSharedStorageManager() {
  return std::make_unique<CPUSharedStorageManager>();
}

}  // namespace storage
}  // namespace mxnet
