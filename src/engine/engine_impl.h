/*!
 * \file engine/engine_impl.h
 * \brief Private pieces shared by the engine implementations: the factory (tests build each
 *        engine directly through it), error naming, and small helpers (env, spin lock).
 *
 *   auto eng = mxnet::engine::CreateEngine("ThreadedEnginePerDevice");  // any of the three
 *   auto v = eng->NewVariable();
 *   eng->PushSync([](RunContext) {}, Context::CPU(), {}, {v});
 *   eng->WaitForAll();
 */
#ifndef MXNET_ENGINE_ENGINE_IMPL_H_
#define MXNET_ENGINE_ENGINE_IMPL_H_

#include <mxnet/engine.h>

#include "../common/env_util.h"

#include <atomic>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace mxnet {
namespace engine {

/*!
 * \brief Build an engine by name: "NaiveEngine", "ThreadedEngine" (alias
 *        "ThreadedEnginePooled") or "ThreadedEnginePerDevice". Throws dmlc::Error
 *        "Cannot find Engine <type>" otherwise. Engine::Get() uses this once, with
 *        MXNET_ENGINE_TYPE; tests use it to exercise every engine in one process.
 */
MXNET_DLL std::unique_ptr<Engine> CreateEngine(const std::string& type);

std::unique_ptr<Engine> CreateNaiveEngine();
std::unique_ptr<Engine> CreateThreadedEnginePooled();
std::unique_ptr<Engine> CreateThreadedEnginePerDevice();

/*! \brief Whether the calling thread is a worker of some threaded engine. */
bool IsEngineWorkerThread();

/*!
 * \brief GPU streams and completion tracking (gpu_streams.cc). Every GPU has one stream its
 *        engine functions queue on; a GPU function completes for the engine once its work is
 *        queued, and the host waits only where a CPU function, another GPU or a waiting
 *        caller needs the data.
 */
mshadow::Stream<gpu>* DeviceGPUStream(int dev_id);
/*! \brief Fill rctx->stream for a function about to run on rctx->ctx. */
void SetRunStream(RunContext* rctx);
/*! \brief Whether any GPU stream exists yet (CPU-only runs skip every check). */
bool AnyGPUInUse();
/*!
 * \brief Before a function runs on run_ctx: wait for GPU work still pending on `var` that is
 *        not ordered before it on run_ctx's own stream. Throws a CUDA error of that work.
 */
void SyncPendingGPU(const Context& run_ctx, Var* var);
/*!
 * \brief After a function on GPU ctx has queued its work: the tag to store in every variable
 *        it used (0 when MXNET_ENGINE_SYNC_GPU=1 made it wait instead).
 */
uint64_t NoteGPUFunction(const Context& ctx, const char* name);
/*! \brief Wait for the work a function queued on rctx's GPU stream (NaiveEngine). */
void WaitGPUFunction(const RunContext& rctx);
/*! \brief Wait for everything queued on every GPU (WaitForAll). */
void SyncAllGPU();

/*! \brief The calling thread's imperative bulk size (Engine::bulk_size/set_bulk_size). */
inline int& ThreadBulkSize() {
  static thread_local int size = 0;
  return size;
}

/*! \brief Integer environment variable, or `def` when unset or empty (ValueError if malformed). */
inline int GetEnvInt(const char* name, int def) {
  return static_cast<int>(common::GetEnvInt(name, def));
}

/*! \brief One pause of a spin-wait loop. */
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

/*!
 * \brief Test-and-test-and-set lock for the engine's tiny critical sections (a handful of
 *        pointer updates). Yields after a short spin so a preempted holder can finish.
 *        Operations are seq_cst: the task queue relies on it for its sleep protocol.
 */
class SpinLock {
 public:
  void lock() {
    for (int spins = 0; locked_.exchange(true, std::memory_order_seq_cst); ++spins) {
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < 64) {
          CpuRelax();
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  bool try_lock() { return !locked_.exchange(true, std::memory_order_seq_cst); }
  void unlock() { locked_.store(false, std::memory_order_seq_cst); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace engine
}  // namespace mxnet

#endif  // MXNET_ENGINE_ENGINE_IMPL_H_
