// Alloc+free pairs per second of the CPU storage managers (Naive, Round pools vs Unpooled),
// single thread, for a few request sizes. Run by hand: ./build/storage_bench
#include <chrono>
#include <cstdio>
#include <vector>

#include "../src/storage/storage_manager.h"

using mxnet::Context;
using mxnet::Storage;
namespace st = mxnet::storage;

static double PairsPerSecond(st::StorageManager* m, size_t size) {
  // A few live blocks per round, as an operator sequence would hold, then freed.
  constexpr int kLive = 4;
  Storage::Handle h[kLive];
  const auto start = std::chrono::steady_clock::now();
  int64_t pairs = 0;
  double elapsed = 0;
  do {
    for (int r = 0; r < 256; ++r) {
      for (int k = 0; k < kLive; ++k) {
        h[k].size = size;
        h[k].ctx = Context::CPU();
        m->Alloc(&h[k]);
        static_cast<volatile char*>(h[k].dptr)[0] = 1;
      }
      for (int k = 0; k < kLive; ++k) m->Free(h[k]);
      pairs += kLive;
    }
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < 0.3);
  return pairs / elapsed;
}

int main() {
  const size_t sizes[] = {64, 4096, 65536, 1 << 20, 16 << 20};
  std::printf("%-10s %14s %14s %14s   (alloc+free pairs per second)\n", "size", "Naive", "Round",
              "Unpooled");
  for (size_t size : sizes) {
    std::printf("%-10zu", size);
    for (st::PoolType t : {st::PoolType::kNaive, st::PoolType::kRound, st::PoolType::kUnpooled}) {
      st::PoolConfig cfg;
      cfg.type = t;
      auto m = st::CreateStorageManager(Context::CPU(), cfg, st::MakeCPUAllocator());
      std::printf(" %14.3g", PairsPerSecond(m.get(), size));
    }
    std::printf("\n");
  }
  return 0;
}
