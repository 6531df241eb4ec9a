// Streams handed to engine functions, and GPU completion tracking.
//
// Every GPU has one stream that all of its engine functions queue on (compute and copies):
// the engine dispatches a function only after the functions it depends on have been
// dispatched, so on one stream dependent kernels run in order without any host wait. A GPU
// function "completes" for the engine as soon as its work is queued; the variables it used
// are tagged with the device and a launch epoch. The host waits only where it must:
//   - before a CPU function reads or writes a variable with GPU work still pending;
//   - before a function on another GPU uses it;
//   - in WaitForVar / WaitForAll (asnumpy, wait_to_read, waitall).
// A wait synchronises the device's stream once and records the epoch it reached, so later
// checks of variables tagged before it cost one atomic load. MXNET_ENGINE_SYNC_GPU=1 waits
// after every GPU function instead (MXNet 1.9.1's behaviour; a kernel fault then names its
// operator exactly).
#include <array>
#include <atomic>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "../common/cuda_utils.h"
#include "./engine_impl.h"

namespace mxnet {
namespace engine {
namespace {

// The CPU stream carries no state: every CPU function shares it.
mshadow::Stream<mshadow::cpu> cpu_stream;

constexpr int kDevShift = 56;
constexpr uint64_t kEpochMask = (uint64_t(1) << kDevShift) - 1;

/*! \brief Whether any GPU stream was ever made: CPU-only runs skip every check. */
std::atomic<bool> gpu_in_use{false};

#if MXNET_USE_CUDA
/*! \brief One GPU's stream and its launch/wait bookkeeping. */
struct DeviceQueue {
  std::once_flag made;
  mshadow::Stream<gpu>* stream{nullptr};
  std::atomic<uint64_t> launched{0};  // epoch of the last function queued
  std::atomic<uint64_t> finished{0};  // every function with epoch <= this has finished
  std::mutex names_mu;
  std::vector<std::string> recent;    // operators queued since the last wait (a few)
};

std::array<DeviceQueue, Context::kMaxDevID>& Queues() {
  static std::array<DeviceQueue, Context::kMaxDevID> queues;
  return queues;
}

DeviceQueue& QueueOf(int dev_id) {
  if (dev_id < 0 || dev_id >= Context::kMaxDevID) {
    MX_THROW(ValueError) << "gpu(" << dev_id << "): device id out of range [0, "
                         << Context::kMaxDevID << ")";
  }
  DeviceQueue& q = Queues()[dev_id];
  std::call_once(q.made, [&q, dev_id]() {
    q.stream = mshadow::NewGPUStream(dev_id);  // kept for the process's life
    gpu_in_use.store(true, std::memory_order_release);
  });
  return q;
}

bool SyncEveryFunction() {
  static const bool on = GetEnvInt("MXNET_ENGINE_SYNC_GPU", 0) != 0;
  return on;
}

/*! \brief Wait for everything queued on dev_id up to now; a CUDA error names the operators. */
void SyncDevice(int dev_id) {
  DeviceQueue& q = QueueOf(dev_id);
  const uint64_t reached = q.launched.load(std::memory_order_acquire);
  common::cuda::DeviceGuard guard(dev_id);
  const cudaError_t err = cudaStreamSynchronize(mshadow::Stream<gpu>::GetStream(q.stream));
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(q.names_mu);
    names.swap(q.recent);
  }
  if (err != cudaSuccess) {
    cudaGetLastError();
    std::ostringstream os;
    os << "CUDA error on gpu(" << dev_id << "): " << cudaGetErrorString(err) << " ("
       << cudaGetErrorName(err) << "), raised by a kernel of an operator queued since the last "
       << "wait: ";
    for (size_t i = 0; i < names.size(); ++i) os << (i ? ", " : "") << names[i];
    os << ". Set MXNET_ENGINE_SYNC_GPU=1 to name the operator exactly.";
    throw dmlc::Error(os.str());
  }
  uint64_t done = q.finished.load(std::memory_order_relaxed);
  while (done < reached &&
         !q.finished.compare_exchange_weak(done, reached, std::memory_order_release)) {
  }
}
#endif  // MXNET_USE_CUDA

}  // namespace

mshadow::Stream<gpu>* DeviceGPUStream(int dev_id) {
#if MXNET_USE_CUDA
  return QueueOf(dev_id).stream;
#else
  Context::CheckGPU(Context::GPU(dev_id), "engine stream");  // throws: no GPU support
  return nullptr;
#endif
}

void SetRunStream(RunContext* rctx) {
  if (rctx->ctx.dev_mask() == cpu::kDevMask) {
    rctx->stream = &cpu_stream;
    return;
  }
  // The engine only schedules: a function pushed for a GPU that does not exist (or in a
  // build without CUDA) runs with no stream, and any GPU call it makes fails and names it.
  // Operators never get here for a missing GPU: the front ends check the context first.
  if (rctx->ctx.dev_id < 0 || rctx->ctx.dev_id >= Context::GetGPUCount()) {
    rctx->stream = nullptr;
    return;
  }
  mshadow::Stream<gpu>* s = DeviceGPUStream(rctx->ctx.dev_id);
#if MXNET_USE_CUDA
  // Engine threads make the device current once, not before every function. Only engine
  // code switches devices on these threads (DeviceGuard restores what it changed).
  thread_local int current_device = -1;
  if (current_device != rctx->ctx.dev_id) {
    CUDA_CALL(cudaSetDevice(rctx->ctx.dev_id));
    current_device = rctx->ctx.dev_id;
  }
#endif
  rctx->stream = s;
}

bool AnyGPUInUse() { return gpu_in_use.load(std::memory_order_acquire); }

void SyncPendingGPU(const Context& run_ctx, Var* var) {
#if MXNET_USE_CUDA
  const uint64_t tag = var->gpu_tag.load(std::memory_order_acquire);
  if (tag == 0) return;
  const int dev = static_cast<int>(tag >> kDevShift);
  if (run_ctx.dev_mask() == gpu::kDevMask && run_ctx.dev_id == dev) return;  // same stream
  if ((tag & kEpochMask) <= Queues()[dev].finished.load(std::memory_order_acquire)) return;
  SyncDevice(dev);
#else
  (void)run_ctx;
  (void)var;
#endif
}

uint64_t NoteGPUFunction(const Context& ctx, const char* name) {
#if MXNET_USE_CUDA
  if (ctx.dev_id < 0 || ctx.dev_id >= Context::GetGPUCount()) return 0;  // ran without a stream
  DeviceQueue& q = QueueOf(ctx.dev_id);
  if (SyncEveryFunction()) {
    common::cuda::DeviceGuard guard(ctx.dev_id);
    CUDA_CALL(cudaStreamSynchronize(mshadow::Stream<gpu>::GetStream(q.stream)));
    return 0;
  }
  if (name != nullptr) {
    std::lock_guard<std::mutex> lock(q.names_mu);
    if (q.recent.size() < 8) q.recent.emplace_back(name);
  }
  const uint64_t epoch = q.launched.fetch_add(1, std::memory_order_acq_rel) + 1;
  return (static_cast<uint64_t>(ctx.dev_id) << kDevShift) | (epoch & kEpochMask);
#else
  (void)ctx;
  (void)name;
  return 0;
#endif
}

void WaitGPUFunction(const RunContext& rctx) {
#if MXNET_USE_CUDA
  if (rctx.ctx.dev_mask() != gpu::kDevMask || rctx.stream == nullptr) return;
  rctx.get_stream<gpu>()->Wait();
#else
  (void)rctx;
#endif
}

void SyncAllGPU() {
#if MXNET_USE_CUDA
  if (!gpu_in_use.load(std::memory_order_acquire)) return;
  for (int dev = 0; dev < Context::kMaxDevID; ++dev) {
    if (Queues()[dev].stream != nullptr) SyncDevice(dev);
  }
#endif
}

}  // namespace engine
}  // namespace mxnet
