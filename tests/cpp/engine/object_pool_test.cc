// The engine's recycling allocator: memory released on one thread and reused on another is
// never handed out twice, also when a thread keeps allocating while its thread_locals are
// destroyed (engine work released at thread exit, or in static destructors after main).
#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "engine/object_pool.h"

namespace mxnet {
namespace test {
namespace {

struct Probe {
  long a, b, c;
};
using ProbePool = engine::ObjectPool<Probe>;

std::mutex exit_mu;
std::vector<Probe*> made_at_exit;  // objects the exiting thread still holds

// Made before the thread's first pool use, so destroyed after the pool's own exit hook.
struct AllocatesAtExit {
  ~AllocatesAtExit() {
    std::lock_guard<std::mutex> lock(exit_mu);
    for (int i = 0; i < 8; ++i) made_at_exit.push_back(ProbePool::New());
  }
};

TEST(ObjectPoolTest, ThreadAllocatingDuringExitGetsMemoryNobodyElseGets) {
  std::thread worker([] {
    static thread_local AllocatesAtExit late_user;
    (void)late_user;
    std::vector<Probe*> used;
    for (int i = 0; i < 100; ++i) used.push_back(ProbePool::New());
    for (Probe* p : used) ProbePool::Delete(p);
  });
  worker.join();
  std::set<Probe*> held(made_at_exit.begin(), made_at_exit.end());
  ASSERT_EQ(held.size(), 8u);
  // Drain everything the worker gave back (its spill and the rest of its chunk, ~2,700 slots):
  // none of it may be memory the worker is still using.
  std::vector<Probe*> mine;
  size_t clashes = 0;
  for (int i = 0; i < 20000; ++i) {
    Probe* p = ProbePool::New();
    clashes += held.count(p);
    mine.push_back(p);
  }
  EXPECT_EQ(clashes, 0u);
  EXPECT_EQ(std::set<Probe*>(mine.begin(), mine.end()).size(), mine.size());
  for (Probe* p : mine) ProbePool::Delete(p);
  for (Probe* p : made_at_exit) ProbePool::Delete(p);
  made_at_exit.clear();
}

TEST(ObjectPoolTest, CrossThreadReleaseNeverDuplicatesLiveObjects) {
  std::mutex mu;
  std::set<Probe*> live;
  size_t duplicates = 0;
  auto make = [&]() {
    Probe* p = ProbePool::New();
    std::lock_guard<std::mutex> lock(mu);
    duplicates += !live.insert(p).second;
    return p;
  };
  auto release = [&](Probe* p) {
    {
      std::lock_guard<std::mutex> lock(mu);
      live.erase(p);
    }
    ProbePool::Delete(p);
  };
  // Short-lived producers hand their objects to short-lived consumers, many times over, so
  // batches move between threads that come and go.
  for (int round = 0; round < 20; ++round) {
    std::vector<Probe*> handoff;
    std::thread producer([&] {
      for (int i = 0; i < 1000; ++i) handoff.push_back(make());
    });
    producer.join();
    std::thread consumer([&] {
      for (Probe* p : handoff) release(p);
      for (int i = 0; i < 300; ++i) release(make());
    });
    consumer.join();
  }
  EXPECT_EQ(duplicates, 0u);
  EXPECT_TRUE(live.empty());
}

}  // namespace
}  // namespace test
}  // namespace mxnet
