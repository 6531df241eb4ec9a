// Tests of src/storage: size rounding, pool reuse and counters, every pool strategy, failure
// handling, concurrency, and the Storage singleton's device routing (cpu, cpu_pinned,
// cpu_shared, gpu without CUDA).
#include <gtest/gtest.h>
#include <mxnet/storage.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "storage/storage_manager.h"

// A test asks the system for an impossible amount of memory and expects an error, not an abort.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
extern "C" const char* __tsan_default_options() { return "allocator_may_return_null=1"; }

namespace {

using mxnet::Context;
using mxnet::Storage;
using mxnet::storage::CreateStorageManager;
using mxnet::storage::MakeCPUAllocator;
using mxnet::storage::PoolConfig;
using mxnet::storage::PoolType;
using mxnet::storage::RawAllocator;
using mxnet::storage::RoundAllocSize;
using mxnet::storage::StorageManager;

PoolConfig Config(PoolType type) {
  PoolConfig cfg;
  cfg.type = type;
  return cfg;
}

std::unique_ptr<StorageManager> Make(PoolType type) {
  return CreateStorageManager(Context::CPU(), Config(type), MakeCPUAllocator());
}

Storage::Handle AllocOn(StorageManager* m, size_t size) {
  Storage::Handle h;
  h.size = size;
  h.ctx = Context::CPU();
  m->Alloc(&h);
  return h;
}

bool Aligned64(const void* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; }

/*! \brief Host memory with a byte budget, to drive the out-of-memory paths. */
class BudgetAllocator : public RawAllocator {
 public:
  explicit BudgetAllocator(size_t budget) : budget_(budget) {}
  void* Alloc(size_t bytes) override {
    ++calls;
    if (used_ + bytes > budget_) return nullptr;
    used_ += bytes;
    void* p = nullptr;
    return posix_memalign(&p, 64, bytes) == 0 ? p : nullptr;
  }
  void Free(void* ptr, size_t bytes) override {
    used_ -= bytes;
    std::free(ptr);
  }
  size_t alignment() const override { return 64; }
  int calls{0};

 private:
  size_t budget_;
  size_t used_{0};
};

TEST(StorageRounding, NaiveUsesAlignmentPagesAndSizeClasses) {
  const PoolConfig cfg = Config(PoolType::kNaive);
  const Context c = Context::CPU();
  EXPECT_EQ(RoundAllocSize(cfg, 1, c), 64u);
  EXPECT_EQ(RoundAllocSize(cfg, 64, c), 64u);
  EXPECT_EQ(RoundAllocSize(cfg, 65, c), 128u);
  EXPECT_EQ(RoundAllocSize(cfg, 4095, c), 4096u);
  EXPECT_EQ(RoundAllocSize(cfg, 4097, c), 8192u);
  EXPECT_EQ(RoundAllocSize(cfg, (2u << 20) - 1, c), 2u << 20);
  // 2 MiB .. 4 MiB: classes of 256 KiB.
  EXPECT_EQ(RoundAllocSize(cfg, (2u << 20) + 1, c), (2u << 20) + (256u << 10));
  // Above 16 MiB the granularity stops at the large round size (2 MiB).
  EXPECT_EQ(RoundAllocSize(cfg, (100u << 20) + 1, c), 102u << 20);
  for (size_t s : {1ul, 100ul, 5000ul, 3000000ul, 123456789ul}) {
    const size_t r = RoundAllocSize(cfg, s, c);
    EXPECT_GE(r, s);
    EXPECT_LE(r - s, s / 8 + 4096) << s;  // waste bounded by the size classes
    EXPECT_EQ(r % 64, 0u);
  }
}

TEST(StorageRounding, RoundUsesPowersOfTwoThenLinear) {
  PoolConfig cfg = Config(PoolType::kRound);
  const Context c = Context::CPU();
  EXPECT_EQ(RoundAllocSize(cfg, 1, c), 64u);
  EXPECT_EQ(RoundAllocSize(cfg, 5000, c), 8192u);
  EXPECT_EQ(RoundAllocSize(cfg, 8192, c), 8192u);
  EXPECT_EQ(RoundAllocSize(cfg, (1u << 24), c), 1u << 24);
  EXPECT_EQ(RoundAllocSize(cfg, (1u << 24) + 1, c), 2u << 24);
  EXPECT_EQ(RoundAllocSize(cfg, (5u << 24) + 7, c), 6u << 24);
  cfg.round_linear_cutoff = 12;
  EXPECT_EQ(RoundAllocSize(cfg, 4097, c), 8192u);
  EXPECT_EQ(RoundAllocSize(cfg, 8193, c), 12288u);
}

TEST(StorageRounding, OverflowIsAnErrorNamingSizeAndDevice) {
  for (PoolType t : {PoolType::kNaive, PoolType::kRound, PoolType::kUnpooled}) {
    try {
      RoundAllocSize(Config(t), SIZE_MAX - 3, Context::CPU());
      FAIL() << "expected an error";
    } catch (const dmlc::Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(SIZE_MAX - 3)), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("cpu(0)"), std::string::npos);
    }
  }
}

TEST(StoragePool, ReusesFreedBlocksOfTheSameBucket) {
  auto m = Make(PoolType::kNaive);
  Storage::Handle a = AllocOn(m.get(), 100);
  ASSERT_NE(a.dptr, nullptr);
  EXPECT_TRUE(Aligned64(a.dptr));
  std::memset(a.dptr, 1, 100);
  EXPECT_EQ(m->GetStats().bytes_in_use, 128u);
  m->Free(a);
  EXPECT_EQ(m->GetStats().bytes_in_use, 0u);
  EXPECT_EQ(m->GetStats().bytes_pooled, 128u);

  Storage::Handle b = AllocOn(m.get(), 120);  // same 128-byte bucket
  EXPECT_EQ(b.dptr, a.dptr);
  Storage::Stats s = m->GetStats();
  EXPECT_EQ(s.alloc_calls, 2u);
  EXPECT_EQ(s.pool_hits, 1u);
  EXPECT_EQ(s.bytes_pooled, 0u);
  EXPECT_EQ(s.bytes_in_use, 128u);

  Storage::Handle c = AllocOn(m.get(), 200);  // other bucket: a miss
  EXPECT_NE(c.dptr, b.dptr);
  EXPECT_EQ(m->GetStats().pool_hits, 1u);
  m->Free(b);
  m->Free(c);
  EXPECT_EQ(m->GetStats().bytes_in_use, 0u);
  EXPECT_EQ(m->GetStats().bytes_pooled, 128u + 256u);
}

TEST(StoragePool, SizesZeroOneOddAndLarge) {
  for (PoolType t : {PoolType::kNaive, PoolType::kRound, PoolType::kUnpooled}) {
    auto m = Make(t);
    Storage::Handle zero = AllocOn(m.get(), 0);
    EXPECT_EQ(zero.dptr, nullptr);
    m->Free(zero);  // no-op
    m->DirectFree(zero);
    std::vector<Storage::Handle> hs;
    for (size_t size : {1ul, 3ul, 63ul, 1001ul, 4097ul, 65537ul, (3ul << 20) + 1, 64ul << 20}) {
      Storage::Handle h = AllocOn(m.get(), size);
      ASSERT_NE(h.dptr, nullptr) << size;
      EXPECT_TRUE(Aligned64(h.dptr)) << size;
      auto* p = static_cast<unsigned char*>(h.dptr);
      p[size - 1] = 0xcd;
      p[0] = 0xab;
      EXPECT_EQ(p[0], 0xab);
      if (size > 1) {
        EXPECT_EQ(p[size - 1], 0xcd);
      }
      hs.push_back(h);
    }
    for (auto& h : hs) m->Free(h);
    EXPECT_EQ(m->GetStats().bytes_in_use, 0u) << PoolTypeName(t);
    EXPECT_EQ(m->GetStats().alloc_calls, 9u);
  }
}

TEST(StoragePool, UnpooledNeverCaches) {
  auto m = Make(PoolType::kUnpooled);
  for (int i = 0; i < 10; ++i) {
    Storage::Handle h = AllocOn(m.get(), 4096);
    m->Free(h);
  }
  Storage::Stats s = m->GetStats();
  EXPECT_EQ(s.alloc_calls, 10u);
  EXPECT_EQ(s.pool_hits, 0u);
  EXPECT_EQ(s.bytes_pooled, 0u);
  EXPECT_EQ(s.bytes_in_use, 0u);
}

TEST(StoragePool, RoundSharesPowerOfTwoBuckets) {
  auto m = Make(PoolType::kRound);
  Storage::Handle a = AllocOn(m.get(), 5000);
  void* p = a.dptr;
  m->Free(a);
  Storage::Handle b = AllocOn(m.get(), 8000);  // 5000 and 8000 both round to 8192
  EXPECT_EQ(b.dptr, p);
  EXPECT_EQ(m->GetStats().pool_hits, 1u);
  m->Free(b);
}

TEST(StoragePool, ReleaseAllAndDirectFree) {
  auto m = Make(PoolType::kNaive);
  Storage::Handle a = AllocOn(m.get(), 1000);
  Storage::Handle b = AllocOn(m.get(), 1000);
  m->Free(a);
  m->DirectFree(b);  // bypasses the pool
  EXPECT_EQ(m->GetStats().bytes_pooled, 1024u);
  EXPECT_EQ(m->GetStats().bytes_in_use, 0u);
  m->ReleaseAll();
  EXPECT_EQ(m->GetStats().bytes_pooled, 0u);
  Storage::Handle c = AllocOn(m.get(), 1000);
  EXPECT_EQ(m->GetStats().pool_hits, 0u);
  m->Free(c);
}

TEST(StoragePool, CacheCapSendsExtraBlocksBackToTheSystem) {
  PoolConfig cfg = Config(PoolType::kNaive);
  cfg.max_cache_bytes = 1024;
  auto m = CreateStorageManager(Context::CPU(), cfg, MakeCPUAllocator());
  std::vector<Storage::Handle> hs;
  for (int i = 0; i < 4; ++i) hs.push_back(AllocOn(m.get(), 512));
  for (auto& h : hs) m->Free(h);
  EXPECT_EQ(m->GetStats().bytes_pooled, 1024u);
  EXPECT_EQ(m->GetStats().bytes_in_use, 0u);
}

TEST(StoragePool, OutOfMemoryReleasesThePoolAndRetries) {
  auto alloc = std::make_unique<BudgetAllocator>(8192);
  BudgetAllocator* raw = alloc.get();
  auto m = CreateStorageManager(Context::CPU(), Config(PoolType::kNaive), std::move(alloc));
  Storage::Handle a = AllocOn(m.get(), 4096);
  Storage::Handle b = AllocOn(m.get(), 4096);
  m->Free(a);
  m->Free(b);
  EXPECT_EQ(m->GetStats().bytes_pooled, 8192u);
  // 8 KiB fits only once the two pooled 4 KiB blocks are given back.
  Storage::Handle c = AllocOn(m.get(), 8192);
  ASSERT_NE(c.dptr, nullptr);
  EXPECT_EQ(m->GetStats().bytes_pooled, 0u);
  EXPECT_EQ(raw->calls, 4);  // a, b, failed c, retried c
  try {
    AllocOn(m.get(), 5000);
    FAIL() << "expected out of memory";
  } catch (const dmlc::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("failed to allocate 5000 bytes on cpu(0)"), std::string::npos) << msg;
  }
  m->Free(c);
}

TEST(StoragePool, ImpossibleSystemAllocationThrows) {
  auto m = Make(PoolType::kUnpooled);
  const size_t huge = size_t(1) << 60;
  try {
    AllocOn(m.get(), huge);
    FAIL() << "expected out of memory";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(huge)), std::string::npos);
  }
}

TEST(StoragePool, ManyThreadsAllocateAndFreeConcurrently) {
  for (PoolType t : {PoolType::kNaive, PoolType::kRound}) {
    auto m = Make(t);
    constexpr int kThreads = 8, kIters = 2000;
    std::atomic<int> corrupt{0};
    std::vector<std::thread> threads;
    for (int tid = 0; tid < kThreads; ++tid) {
      threads.emplace_back([&, tid] {
        std::mt19937 rng(tid);
        std::vector<Storage::Handle> live;
        for (int i = 0; i < kIters; ++i) {
          if (live.size() < 16 && (live.empty() || rng() % 2 == 0)) {
            const size_t size = 1 + rng() % 20000;
            Storage::Handle h = AllocOn(m.get(), size);
            std::memset(h.dptr, tid + 1, size);
            live.push_back(h);
          } else {
            const size_t k = rng() % live.size();
            Storage::Handle h = live[k];
            const auto* p = static_cast<const unsigned char*>(h.dptr);
            if (p[0] != tid + 1 || p[h.size - 1] != tid + 1) ++corrupt;
            m->Free(h);
            live.erase(live.begin() + k);
          }
        }
        for (auto& h : live) m->Free(h);
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(corrupt.load(), 0);
    Storage::Stats s = m->GetStats();
    EXPECT_EQ(s.bytes_in_use, 0u);
    EXPECT_GT(s.pool_hits, 0u);
  }
}

#if defined(__SANITIZE_ADDRESS__)
// Pooled blocks are poisoned for AddressSanitizer: bugs stay visible although the memory is
// never handed back to malloc.
TEST(StoragePoolAsanDeathTest, UseAfterFreeAndOverrunAreReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto m = Make(PoolType::kNaive);
  Storage::Handle h = AllocOn(m.get(), 100);
  volatile char* p = static_cast<char*>(h.dptr);
  EXPECT_DEATH(p[100] = 1, "use-after-poison");  // past the 100 bytes asked for
  m->Free(h);
  EXPECT_DEATH(p[0] = 1, "use-after-poison");  // after Free, while pooled
}
#endif

TEST(StorageConfig, ParsesPoolTypes) {
  using mxnet::storage::ParsePoolType;
  EXPECT_EQ(ParsePoolType("Naive"), PoolType::kNaive);
  EXPECT_EQ(ParsePoolType("Round"), PoolType::kRound);
  EXPECT_EQ(ParsePoolType("Unpooled"), PoolType::kUnpooled);
  try {
    ParsePoolType("Bogus");
    FAIL() << "expected an error";
  } catch (const mxnet::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Unknown memory pool strategy specified: Bogus"),
              std::string::npos);
  }
}

TEST(StorageConfig, ReadsEnvironment) {
  using mxnet::storage::PoolConfigFromEnv;
  EXPECT_EQ(PoolConfigFromEnv("TESTDEV").type, PoolType::kNaive);  // defaults
  setenv("MXNET_TESTDEV_MEM_POOL_TYPE", "Round", 1);
  setenv("MXNET_TESTDEV_MEM_POOL_ROUND_LINEAR_CUTOFF", "20", 1);
  setenv("MXNET_TESTDEV_MEM_POOL_MAX_CACHE_MB", "7", 1);
  PoolConfig cfg = PoolConfigFromEnv("TESTDEV");
  EXPECT_EQ(cfg.type, PoolType::kRound);
  EXPECT_EQ(cfg.round_linear_cutoff, 20);
  EXPECT_EQ(cfg.max_cache_bytes, 7u << 20);
  setenv("MXNET_TESTDEV_MEM_POOL_TYPE", "Pooled", 1);
  EXPECT_THROW(PoolConfigFromEnv("TESTDEV"), mxnet::ValueError);
  setenv("MXNET_TESTDEV_MEM_POOL_TYPE", "Naive", 1);
  setenv("MXNET_TESTDEV_MEM_POOL_PAGE_SIZE", "1000", 1);  // not a power of two
  EXPECT_THROW(PoolConfigFromEnv("TESTDEV"), mxnet::ValueError);
  for (const char* v : {"TYPE", "ROUND_LINEAR_CUTOFF", "MAX_CACHE_MB", "PAGE_SIZE"}) {
    unsetenv((std::string("MXNET_TESTDEV_MEM_POOL_") + v).c_str());
  }
}

TEST(StorageSingleton, CPUAllocFreeReuse) {
  Storage* st = Storage::Get();
  EXPECT_EQ(st, Storage::_GetSharedRef().get());
  const Context cpu = Context::CPU();
  st->ReleaseAll(cpu);
  const Storage::Stats before = st->GetStats(cpu);
  Storage::Handle h = st->Alloc(12345, cpu);
  ASSERT_NE(h.dptr, nullptr);
  EXPECT_TRUE(Aligned64(h.dptr));
  EXPECT_EQ(h.size, 12345u);
  EXPECT_EQ(h.ctx, cpu);
  std::memset(h.dptr, 7, h.size);
  void* p = h.dptr;
  st->Free(h);
  Storage::Handle again = st->Alloc(12345, cpu);
  EXPECT_EQ(again.dptr, p);
  const Storage::Stats after = st->GetStats(cpu);
  EXPECT_EQ(after.alloc_calls - before.alloc_calls, 2u);
  EXPECT_EQ(after.pool_hits - before.pool_hits, 1u);
  st->Free(again);
  st->ReleaseAll(cpu);
  EXPECT_EQ(st->GetStats(cpu).bytes_pooled, 0u);
  st->Free(Storage::Handle());  // empty handle: no-op
  EXPECT_EQ(&st->GetMutex(Context::kCPU), &st->GetMutex(Context::kCPU));
}

TEST(StorageSingleton, EveryCPUDeviceIdSharesOneManager) {
  Storage* st = Storage::Get();
  Storage::Handle h = st->Alloc(64, Context::CPU(3));
  EXPECT_NE(h.dptr, nullptr);
  st->Free(h);
  EXPECT_GE(st->GetStats(Context::CPU(0)).bytes_pooled, 64u);
}

TEST(StorageSingleton, PinnedFallsBackToHostMemory) {
  Storage* st = Storage::Get();
  Storage::Handle h = st->Alloc(1000, Context::CPUPinned(0));
  ASSERT_NE(h.dptr, nullptr);
  std::memset(h.dptr, 0, 1000);
  st->Free(h);
  EXPECT_EQ(st->GetStats(Context::CPUPinned(0)).bytes_in_use, 0u);
}

#if !MXNET_USE_CUDA
TEST(StorageSingleton, GPUWithoutCUDAIsAClearError) {
  try {
    Storage::Get()->Alloc(16, Context::GPU(0));
    FAIL() << "expected an error";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("GPU support is not compiled in"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("gpu(0)"), std::string::npos);
  }
  Storage::Get()->ReleaseAll(Context::GPU(0));  // nothing to release: no error
  EXPECT_EQ(Storage::Get()->GetStats(Context::GPU(0)).alloc_calls, 0u);
}
#endif

bool ShmExists(const Storage::Handle& h) {
  const std::string path =
      "/dev/shm" + mxnet::storage::SharedHandleToString(h.shared_pid, h.shared_id);
  return access(path.c_str(), F_OK) == 0;
}

TEST(StorageShared, AttachByIdAndReferenceCount) {
  Storage* st = Storage::Get();
  Storage::Handle a = st->Alloc(1 << 16, Context::CPUShared(0));
  ASSERT_NE(a.dptr, nullptr);
  EXPECT_TRUE(Aligned64(a.dptr));
  EXPECT_EQ(a.shared_pid, static_cast<int>(getpid()));
  EXPECT_GE(a.shared_id, 0);
  EXPECT_TRUE(ShmExists(a));
  static_cast<int*>(a.dptr)[100] = 4242;

  Storage::Handle b;  // attach, as a DataLoader's consumer would
  b.size = a.size;
  b.ctx = a.ctx;
  b.shared_pid = a.shared_pid;
  b.shared_id = a.shared_id;
  st->SharedIncrementRefCount(a);  // the sender keeps one reference for the receiver
  st->Alloc(&b);
  EXPECT_NE(b.dptr, a.dptr);
  EXPECT_EQ(static_cast<int*>(b.dptr)[100], 4242);
  static_cast<int*>(b.dptr)[0] = 7;
  EXPECT_EQ(static_cast<int*>(a.dptr)[0], 7);

  st->Free(a);
  EXPECT_TRUE(ShmExists(b));  // one reference left
  st->Free(b);
  EXPECT_FALSE(ShmExists(b));  // unlinked with the last reference
}

TEST(StorageShared, AnotherProcessWritesTheBlock) {
  Storage* st = Storage::Get();
  Storage::Handle a = st->Alloc(4096, Context::CPUShared(0));
  std::memset(a.dptr, 0, 4096);
  st->SharedIncrementRefCount(a);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto m = mxnet::storage::CreateCPUSharedStorageManager();
    Storage::Handle b = a;
    b.dptr = nullptr;
    m->Alloc(&b);
    static_cast<char*>(b.dptr)[10] = 'x';
    m->Free(b);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(static_cast<char*>(a.dptr)[10], 'x');
  st->Free(a);
  EXPECT_FALSE(ShmExists(a));
}

TEST(StorageShared, AttachingAMissingBlockIsAnError) {
  Storage::Handle h;
  h.size = 16;
  h.ctx = Context::CPUShared(0);
  h.shared_pid = static_cast<int>(getpid());
  h.shared_id = -5;
  EXPECT_THROW(Storage::Get()->Alloc(&h), dmlc::Error);
}

}  // namespace
