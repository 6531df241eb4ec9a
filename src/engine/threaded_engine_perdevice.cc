// ThreadedEnginePerDevice (the default engine): worker pools per device, created on first use.
//
//   CPU context, kCPUPrioritized        -> one shared priority pool (MXNET_CPU_PRIORITY_NTHREADS, 4)
//   CPU context, anything else          -> normal pool of that cpu(dev_id) (MXNET_CPU_WORKER_NTHREADS, 1)
//   GPU context, kCopyFromGPU/kCopyToGPU -> copy pool of the device (MXNET_GPU_COPY_NTHREADS, 2)
//   GPU context, kGPUPrioritized        -> priority pool of the device (MXNET_GPU_WORKER_NTHREADS, 2)
//   GPU context, anything else          -> compute pool of the device (MXNET_GPU_WORKER_NTHREADS, 2)
#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include "./threaded_engine.h"

namespace mxnet {
namespace engine {

class ThreadedEnginePerDevice final : public ThreadedEngine {
 public:
  ThreadedEnginePerDevice()
      : cpu_workers_(std::max(1, GetEnvInt("MXNET_CPU_WORKER_NTHREADS", 1))),
        cpu_priority_workers_(std::max(1, GetEnvInt("MXNET_CPU_PRIORITY_NTHREADS", 4))),
        gpu_workers_(std::max(1, GetEnvInt("MXNET_GPU_WORKER_NTHREADS", 2))),
        gpu_copy_workers_(std::max(1, GetEnvInt("MXNET_GPU_COPY_NTHREADS", 2))) {}

  ~ThreadedEnginePerDevice() override {
    WaitForAllNoThrow();
    StopWorkers();
  }

 protected:
  void PushToExecute(OprBlock* b) override {
    const Context& ctx = b->ctx;
    const int id = ((ctx.dev_id % Context::kMaxDevID) + Context::kMaxDevID) % Context::kMaxDevID;
    const FnProperty prop = b->opr->prop;
    WorkerPool* pool;
    if (ctx.dev_mask() == cpu::kDevMask) {
      if (prop == FnProperty::kCPUPrioritized) {
        pool = GetPool(&cpu_priority_, cpu_priority_workers_);
      } else {
        pool = GetPool(&cpu_normal_[id], cpu_workers_);
      }
    } else if (prop == FnProperty::kCopyFromGPU || prop == FnProperty::kCopyToGPU) {
      pool = GetPool(&gpu_copy_[id], gpu_copy_workers_);
    } else if (prop == FnProperty::kGPUPrioritized) {
      pool = GetPool(&gpu_priority_[id], gpu_workers_);
    } else {
      pool = GetPool(&gpu_normal_[id], gpu_workers_);
    }
    pool->Push(b);
  }

  void StopWorkers() override {
    std::vector<std::unique_ptr<WorkerPool>> pools;
    {
      std::lock_guard<std::mutex> g(pool_mu_);
      auto take = [&pools](std::atomic<WorkerPool*>* slot) {
        if (WorkerPool* p = slot->exchange(nullptr)) pools.emplace_back(p);
      };
      take(&cpu_priority_);
      for (int i = 0; i < Context::kMaxDevID; ++i) {
        take(&cpu_normal_[i]);
        take(&gpu_normal_[i]);
        take(&gpu_copy_[i]);
        take(&gpu_priority_[i]);
      }
    }
    pools.clear();  // joins the workers
  }

 private:
  const int cpu_workers_;
  const int cpu_priority_workers_;
  const int gpu_workers_;
  const int gpu_copy_workers_;
  std::atomic<WorkerPool*> cpu_priority_{nullptr};
  std::atomic<WorkerPool*> cpu_normal_[Context::kMaxDevID] = {};
  std::atomic<WorkerPool*> gpu_normal_[Context::kMaxDevID] = {};
  std::atomic<WorkerPool*> gpu_copy_[Context::kMaxDevID] = {};
  std::atomic<WorkerPool*> gpu_priority_[Context::kMaxDevID] = {};
};

std::unique_ptr<Engine> CreateThreadedEnginePerDevice() {
  return std::unique_ptr<Engine>(new ThreadedEnginePerDevice());
}

}  // namespace engine
}  // namespace mxnet
