// ThreadedEngine (a.k.a. ThreadedEnginePooled): one worker pool shared by every device, plus
// one IO thread for copies (kCopyFromGPU/kCopyToGPU). Pool size: MXNET_CPU_WORKER_NTHREADS if
// set, else max(2, hardware threads). Pools are created on first use (and again after Stop).
#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "./threaded_engine.h"

namespace mxnet {
namespace engine {

class ThreadedEnginePooled final : public ThreadedEngine {
 public:
  ThreadedEnginePooled()
      : nthreads_(std::max(1, GetEnvInt("MXNET_CPU_WORKER_NTHREADS",
                                        std::max(2, static_cast<int>(
                                                        std::thread::hardware_concurrency()))))) {}

  ~ThreadedEnginePooled() override {
    WaitForAllNoThrow();
    StopWorkers();
  }

 protected:
  void PushToExecute(OprBlock* b) override {
    const FnProperty prop = b->opr->prop;
    if (prop == FnProperty::kCopyFromGPU || prop == FnProperty::kCopyToGPU) {
      GetPool(&io_pool_, 1)->Push(b);
    } else {
      GetPool(&pool_, nthreads_)->Push(b);
    }
  }

  void StopWorkers() override {
    std::unique_ptr<WorkerPool> pool, io_pool;
    {
      std::lock_guard<std::mutex> g(pool_mu_);
      pool.reset(pool_.exchange(nullptr));
      io_pool.reset(io_pool_.exchange(nullptr));
    }
  }

 private:
  const int nthreads_;
  std::atomic<WorkerPool*> pool_{nullptr};
  std::atomic<WorkerPool*> io_pool_{nullptr};
};

std::unique_ptr<Engine> CreateThreadedEnginePooled() {
  return std::unique_ptr<Engine>(new ThreadedEnginePooled());
}

}  // namespace engine
}  // namespace mxnet
