// Dependency tracking, error propagation and waiting shared by the threaded engines.
#include "./threaded_engine.h"

#include <mxnet/profiler.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <utility>

namespace mxnet {
namespace engine {

namespace {


// How long an idle worker (or a waiting thread) spins before it sleeps.
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(50);

/*!
 * \brief Spin until ready() or kSpinBeforeSleep has passed; returns ready(). After a short
 *        busy spin it yields between checks, so that on an oversubscribed machine the thread
 *        we are waiting for can run on this core.
 */
template <typename Ready>
bool SpinUntil(Ready ready) {
  for (int i = 0; i < 128; ++i) {
    if (ready()) return true;
    CpuRelax();
  }
  const auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleep;
  while (!ready()) {
    if (std::chrono::steady_clock::now() > deadline) return ready();
    std::this_thread::yield();
  }
  return true;
}

/*!
 * Blocks run inline (wait operations, kAsync functions on the pushing thread) are executed one
 * after another from a per-thread list, so completions that trigger further inline blocks do
 * not recurse.
 */
struct InlineRunner {
  bool active{false};
  OprBlock* head{nullptr};
  OprBlock* tail{nullptr};
};
thread_local InlineRunner inline_runner;

thread_local bool is_engine_worker = false;
thread_local bool is_throttle_exempt = false;

// Enough queued work to keep the workers busy while the frontend sleeps, small enough that the
// backlog's closures and recorded graphs stay around a megabyte.
constexpr int kDefaultMaxInflight = 256;

/*!
 * One-shot signal from a completing thread to a waiting one, cheap when the wait is short: the
 * waiter spins first and only sleeps (and makes the notifier take a lock) when it has to. The
 * notifier never touches the object after the waiter may have returned.
 */
class Notification {
 public:
  void Notify() {
    if (state_.exchange(kDone) == kSleeping) {
      std::lock_guard<std::mutex> g(mu_);
      notified_ = true;
      cv_.notify_all();
    }
  }
  void Wait() {
    if (SpinUntil([this]() { return state_.load() != kWaiting; })) return;
    std::unique_lock<std::mutex> lk(mu_);
    if (state_.exchange(kSleeping) == kDone) return;
    cv_.wait(lk, [this]() { return notified_; });
  }

 private:
  enum State { kWaiting, kDone, kSleeping };
  std::atomic<int> state_{kWaiting};
  std::mutex mu_;
  std::condition_variable cv_;
  bool notified_{false};
};

// A variable must not appear twice (nor be both read and written): that would deadlock.
void CheckNoDuplicates(const std::vector<VarHandle>& const_vars,
                       const std::vector<VarHandle>& mutable_vars) {
  const size_t n = const_vars.size() + mutable_vars.size();
  if (n < 2 || n > 32) return;
  VarHandle all[32];
  std::copy(const_vars.begin(), const_vars.end(), all);
  std::copy(mutable_vars.begin(), mutable_vars.end(), all + const_vars.size());
  for (size_t i = 1; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) {
      CHECK(all[i] != all[j])
          << "a variable appears twice in the dependencies of an engine push (read and/or "
             "write lists); call Engine::DeduplicateVarHandle first";
    }
  }
}

}  // namespace

bool IsEngineWorkerThread() { return is_engine_worker; }

}  // namespace engine

void Engine::SetThreadThrottleExempt(bool exempt) { engine::is_throttle_exempt = exempt; }

namespace engine {

// ------------------------------------------------------------------------------------------
// TaskQueue
// ------------------------------------------------------------------------------------------

void TaskQueue::Push(OprBlock* b) {
  {
    std::lock_guard<SpinLock> g(lock_);
    if (b->priority == 0) {
      b->next = nullptr;
      if (fifo_tail_ != nullptr) {
        fifo_tail_->next = b;
      } else {
        fifo_head_ = b;
      }
      fifo_tail_ = b;
    } else {
      heap_.push_back(HeapEntry{b->priority, seq_++, b});
      std::push_heap(heap_.begin(), heap_.end());
    }
    size_.fetch_add(1, std::memory_order_seq_cst);
  }
  // Pairs with the sleeper's increment-then-check in Pop (all seq_cst): either it sees the
  // task, or we see it sleeping and wake it.
  if (sleepers_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard<std::mutex> g(sleep_mu_);
    sleep_cv_.notify_one();
  }
}

OprBlock* TaskQueue::TryPop() {
  if (size_.load(std::memory_order_seq_cst) == 0) return nullptr;
  std::lock_guard<SpinLock> g(lock_);
  OprBlock* b = nullptr;
  if (!heap_.empty() && (fifo_head_ == nullptr || heap_.front().priority > 0)) {
    std::pop_heap(heap_.begin(), heap_.end());
    b = heap_.back().block;
    heap_.pop_back();
  } else if (fifo_head_ != nullptr) {
    b = fifo_head_;
    fifo_head_ = b->next;
    if (fifo_head_ == nullptr) fifo_tail_ = nullptr;
  }
  if (b != nullptr) size_.fetch_sub(1, std::memory_order_seq_cst);
  return b;
}

OprBlock* TaskQueue::Pop() {
  for (;;) {
    if (OprBlock* b = TryPop()) return b;
    if (stop_.load()) return nullptr;
    // Spin a little: a busy pusher hands the next task over without a wake-up.
    if (SpinUntil([this]() { return size_.load(std::memory_order_relaxed) > 0 || stop_.load(); })) {
      continue;
    }
    std::unique_lock<std::mutex> lk(sleep_mu_);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    OprBlock* b;
    while ((b = TryPop()) == nullptr && !stop_.load()) sleep_cv_.wait(lk);
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    if (b != nullptr) return b;
    // Stopped: drain what is left before leaving.
  }
}

void TaskQueue::Stop() {
  stop_.store(true);
  std::lock_guard<std::mutex> g(sleep_mu_);
  sleep_cv_.notify_all();
}

// ------------------------------------------------------------------------------------------
// WorkerPool
// ------------------------------------------------------------------------------------------

WorkerPool::WorkerPool(ThreadedEngine* engine, int nthreads) {
  threads_.reserve(nthreads);
  for (int i = 0; i < nthreads; ++i) {
    threads_.emplace_back([this, engine]() {
      is_engine_worker = true;
      while (OprBlock* b = queue_.Pop()) engine->ExecuteOprBlock(b);
    });
  }
}

WorkerPool::~WorkerPool() {
  queue_.Stop();
  for (auto& t : threads_) t.join();
}

// ------------------------------------------------------------------------------------------
// ThreadedEngine: pushing
// ------------------------------------------------------------------------------------------

ThreadedEngine::ThreadedEngine()
    : max_inflight_(std::max(0, GetEnvInt("MXNET_ENGINE_MAX_INFLIGHT", kDefaultMaxInflight))) {}

ThreadedEngine::~ThreadedEngine() = default;

void ThreadedEngine::WaitForCapacity() {
  if (max_inflight_ == 0 || is_engine_worker || is_throttle_exempt) return;
  if (pushed_.load(std::memory_order_relaxed) - completed_.load(std::memory_order_relaxed) <
      max_inflight_) {
    return;
  }
  // Resume at half the bound, so that a blocked frontend is not woken for every completion.
  // Same handshake as WaitForAllNoThrow: the waiter announces itself, then reads the counters;
  // a completer counts, then reads the waiter count (all seq_cst), so no wake-up is lost.
  auto drained = [this]() {
    return pushed_.load(std::memory_order_seq_cst) - completed_.load(std::memory_order_seq_cst) <=
           max_inflight_ / 2;
  };
  std::unique_lock<std::mutex> lk(finish_mu_);
  capacity_waiters_.fetch_add(1, std::memory_order_seq_cst);
  finish_cv_.wait(lk, drained);
  capacity_waiters_.fetch_sub(1, std::memory_order_seq_cst);
}

OprHandle ThreadedEngine::NewOperator(AsyncFn fn, std::vector<VarHandle> const& const_vars,
                                      std::vector<VarHandle> const& mutable_vars,
                                      FnProperty prop, const char* opr_name, bool wait) {
  CheckNoDuplicates(const_vars, mutable_vars);
  ThreadedOpr* opr = ObjectPool<ThreadedOpr>::New();
  opr->fn = std::move(fn);
  opr->const_vars.Assign(const_vars);
  opr->mutable_vars.Assign(mutable_vars);
  opr->prop = prop;
  opr->wait = wait;
  opr->SetName(opr_name);
  return opr;
}

void ThreadedEngine::DeleteOperator(OprHandle op) {
  ThreadedOpr* opr = static_cast<ThreadedOpr*>(op);
  // Runs still in flight hold a reference; the last one to complete frees the operator.
  if (opr->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) ObjectPool<ThreadedOpr>::Delete(opr);
}

void ThreadedEngine::Push(OprHandle op, Context exec_ctx, int priority, bool) {
  ThreadedOpr* opr = static_cast<ThreadedOpr*>(op);
  opr->refs.fetch_add(1, std::memory_order_relaxed);
  PushBlock(opr, exec_ctx, priority);
}

void ThreadedEngine::PushAsync(AsyncFn exec_fun, Context exec_ctx,
                               std::vector<VarHandle> const& const_vars,
                               std::vector<VarHandle> const& mutable_vars, FnProperty prop,
                               int priority, const char* opr_name, bool wait) {
  CheckNoDuplicates(const_vars, mutable_vars);
  ThreadedOpr* opr = ObjectPool<ThreadedOpr>::New();
  opr->fn = std::move(exec_fun);
  opr->const_vars.Assign(const_vars);
  opr->mutable_vars.Assign(mutable_vars);
  opr->prop = prop;
  opr->wait = wait;
  opr->temporary = true;
  opr->SetName(opr_name);
  PushBlock(opr, exec_ctx, priority);
}

void ThreadedEngine::PushSync(SyncFn exec_fn, Context exec_ctx,
                              std::vector<VarHandle> const& const_vars,
                              std::vector<VarHandle> const& mutable_vars, FnProperty prop,
                              int priority, const char* opr_name) {
  CheckNoDuplicates(const_vars, mutable_vars);
  ThreadedOpr* opr = ObjectPool<ThreadedOpr>::New();
  opr->sync_fn = std::move(exec_fn);
  opr->is_sync = true;
  opr->const_vars.Assign(const_vars);
  opr->mutable_vars.Assign(mutable_vars);
  opr->prop = prop;
  opr->temporary = true;
  opr->SetName(opr_name);
  PushBlock(opr, exec_ctx, priority);
}

void ThreadedEngine::DeleteVariable(SyncFn delete_fn, Context exec_ctx, VarHandle var) {
  ThreadedOpr* opr = ObjectPool<ThreadedOpr>::New();
  opr->sync_fn = std::move(delete_fn);
  opr->is_sync = true;
  opr->mutable_vars.Assign1(ThreadedVar::Cast(var));
  opr->prop = FnProperty::kDeleteVar;
  opr->temporary = true;
  opr->delete_var = true;
  opr->SetName("DeleteVariable");
  // Ahead of every queued function once ready: operators pushed long before it, ready all
  // along (say 100 independent calls queued by a loop), would otherwise each allocate their
  // output before any of the memory freed by their predecessors goes back to the pool.
  PushBlock(opr, exec_ctx, std::numeric_limits<int>::max());
}

void ThreadedEngine::PushBlock(ThreadedOpr* opr, Context ctx, int priority) {
  OprBlock* b = ObjectPool<OprBlock>::New();
  b->opr = opr;
  b->engine = this;
  b->ctx = ctx;
  b->priority = priority;
  // +1 keeps the block from being dispatched by a completing thread while we append.
  b->wait.store(opr->const_vars.size() + opr->mutable_vars.size() + 1,
                std::memory_order_relaxed);
  pushed_.fetch_add(1, std::memory_order_seq_cst);
  int ready = 0;
  for (ThreadedVar* v : opr->const_vars) ready += v->AppendRead(b);
  for (ThreadedVar* v : opr->mutable_vars) ready += v->AppendWrite(b);
  if (b->DecrWait(ready + 1)) Dispatch(b, true);
}

void ThreadedEngine::Dispatch(OprBlock* b, bool from_pusher) {
  // Wait operations only signal a waiting thread; kAsync functions are asynchronous by
  // contract: both run where they become ready instead of taking a trip through a worker.
  if (b->opr->wait || (from_pusher && b->opr->prop == FnProperty::kAsync)) {
    RunInline(b);
  } else {
    PushToExecute(b);
  }
}

void ThreadedEngine::RunInline(OprBlock* b) {
  InlineRunner& r = inline_runner;
  b->next = nullptr;
  if (r.active) {
    if (r.tail != nullptr) {
      r.tail->next = b;
    } else {
      r.head = b;
    }
    r.tail = b;
    return;
  }
  r.active = true;
  ExecuteOprBlock(b);
  while (r.head != nullptr) {
    OprBlock* n = r.head;
    r.head = n->next;
    if (r.head == nullptr) r.tail = nullptr;
    n->engine->ExecuteOprBlock(n);
  }
  r.active = false;
}

// ------------------------------------------------------------------------------------------
// ThreadedEngine: running and completing
// ------------------------------------------------------------------------------------------

void ThreadedEngine::ExecuteOprBlock(OprBlock* b) {
  ThreadedOpr* opr = b->opr;
  if (!opr->wait) InheritErrors(b);
  const bool run = !b->error || opr->wait || opr->prop == FnProperty::kNoSkip ||
                   opr->prop == FnProperty::kDeleteVar;
  if (!run) {
    OnComplete(b, nullptr);  // skipped: inherits the error, still completes
    return;
  }
  RunContext rctx;
  rctx.ctx = b->ctx;
  try {
    SetRunStream(&rctx);
    // GPU work still pending on what this function uses, queued elsewhere, must finish first.
    if (AnyGPUInUse()) {
      for (ThreadedVar* v : opr->const_vars) SyncPendingGPU(b->ctx, v);
      for (ThreadedVar* v : opr->mutable_vars) SyncPendingGPU(b->ctx, v);
    }
  } catch (...) {
    b->error = std::make_shared<ErrorSlot>(
        ErrorSlot{NameOperatorError(std::current_exception(), opr->name())});
    b->fresh_error = true;
    OnComplete(b, nullptr);
    return;
  }
  // Profiler: one relaxed load when off. Temporary (PushAsync/PushSync) operators are
  // imperative calls, operators made once with NewOperator belong to executors (symbolic).
  const int profile_kind = opr->temporary ? profiler::kImperative : profiler::kSymbolic;
  const uint64_t profile_start =
      (profiler::RecordingMask() & profile_kind) && opr->name() != nullptr ? profiler::NowMicros()
                                                                            : 0;
  if (opr->is_sync) {
    try {
      if (opr->sync_fn) opr->sync_fn(rctx);
    } catch (...) {
      b->error = std::make_shared<ErrorSlot>(
          ErrorSlot{NameOperatorError(std::current_exception(), opr->name())});
      b->fresh_error = true;
    }
    if (profile_start) profiler::RecordOperator(opr->name(), profile_start, profiler::NowMicros());
    // A one-off function is destroyed before its successors are dispatched: the arrays it
    // captured may be the last references to their memory, and their deletions then queue
    // ahead of the successors (which may allocate), so the memory can be reused at once.
    if (opr->temporary) opr->sync_fn = nullptr;
    if (opr->delete_var) opr->mutable_vars[0]->SetToDelete();
    OnComplete(b, nullptr);
  } else {
    // on_complete may run on another thread before fn returns: the block (and the function
    // object running right now) is freed only once both have happened.
    b->holders.store(2, std::memory_order_relaxed);
    try {
      opr->fn(rctx, CallbackOnComplete(OnCompleteStatic, this, b));
    } catch (...) {
      // An asynchronous function that throws is taken not to have called on_complete.
      b->error = std::make_shared<ErrorSlot>(
          ErrorSlot{NameOperatorError(std::current_exception(), opr->name())});
      b->fresh_error = true;
      OnComplete(b, nullptr);
    }
    // Asynchronous functions are timed until they return (completion may come later).
    if (profile_start) profiler::RecordOperator(opr->name(), profile_start, profiler::NowMicros());
    ReleaseBlock(b);
  }
}

void ThreadedEngine::ReleaseBlock(OprBlock* b) {
  if (b->holders.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  ThreadedOpr* opr = b->opr;
  if (opr->temporary || opr->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    ObjectPool<ThreadedOpr>::Delete(opr);
  }
  ObjectPool<OprBlock>::Delete(b);
}

void ThreadedEngine::OnCompleteStatic(Engine* engine, void* param, const dmlc::Error* error) {
  static_cast<ThreadedEngine*>(engine)->OnComplete(static_cast<OprBlock*>(param), error);
}

void ThreadedEngine::OnComplete(OprBlock* b, const dmlc::Error* error) {
  ThreadedOpr* opr = b->opr;
  if (error != nullptr) {
    b->error = std::make_shared<ErrorSlot>(ErrorSlot{NameOperatorError(*error, opr->name())});
    b->fresh_error = true;
  }
  if (b->ctx.dev_mask() == gpu::kDevMask && !opr->wait) TagGPUWork(b);
  if (b->error && !opr->wait) PoisonOutputs(b);
  auto dispatch = [this](OprBlock* next) { Dispatch(next, false); };
  for (ThreadedVar* v : opr->const_vars) v->CompleteRead(dispatch);
  for (ThreadedVar* v : opr->mutable_vars) {
    if (v->CompleteWrite(!opr->wait, dispatch)) ObjectPool<ThreadedVar>::Delete(v);
  }
  ReleaseBlock(b);
  // Nothing of this completion may touch the engine after inflight_ drops: the destructor
  // waits for AllDone() and inflight_ == 0 before freeing it. The completion that makes
  // completed_ reach pushed_ wakes the waiters (pairs with WaitForAllNoThrow: both sides
  // update their own counter, then read the other's; all seq_cst).
  inflight_.fetch_add(1, std::memory_order_seq_cst);
  const int64_t completed = completed_.fetch_add(1, std::memory_order_seq_cst) + 1;
  const int64_t pending = pushed_.load(std::memory_order_seq_cst) - completed;
  if ((all_waiters_.load(std::memory_order_seq_cst) > 0 && pending == 0) ||
      (capacity_waiters_.load(std::memory_order_seq_cst) > 0 && pending <= max_inflight_ / 2)) {
    std::lock_guard<std::mutex> g(finish_mu_);
    finish_cv_.notify_all();
  }
  inflight_.fetch_sub(1, std::memory_order_seq_cst);
}

void ThreadedEngine::TagGPUWork(OprBlock* b) {
  // The function's GPU work is queued, not finished: its variables carry the launch, and
  // whoever needs their data on the host or another device waits for it (gpu_streams.cc).
  try {
    const uint64_t tag = NoteGPUFunction(b->ctx, b->opr->name());
    if (tag == 0) return;
    for (ThreadedVar* v : b->opr->const_vars) v->gpu_tag.store(tag, std::memory_order_release);
    for (ThreadedVar* v : b->opr->mutable_vars) v->gpu_tag.store(tag, std::memory_order_release);
  } catch (...) {
    if (!b->error) {
      b->error = std::make_shared<ErrorSlot>(
          ErrorSlot{NameOperatorError(std::current_exception(), b->opr->name())});
      b->fresh_error = true;
    }
  }
}

void ThreadedEngine::InheritErrors(OprBlock* b) {
  auto inherit = [this, b](ThreadedVar* v) {
    if (!v->has_error.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> g(error_mu_);
    if (v->error && v->error->error) {
      if (!b->error) b->error = v->error;
    } else {  // the error was rethrown (and cleared) elsewhere
      v->error.reset();
      v->has_error.store(false, std::memory_order_relaxed);
    }
  };
  for (ThreadedVar* v : b->opr->const_vars) inherit(v);
  for (ThreadedVar* v : b->opr->mutable_vars) inherit(v);
}

void ThreadedEngine::PoisonOutputs(OprBlock* b) {
  std::lock_guard<std::mutex> g(error_mu_);
  for (ThreadedVar* v : b->opr->mutable_vars) {
    v->error = b->error;
    v->has_error.store(true, std::memory_order_release);
  }
  if (b->fresh_error) {
    if (global_errors_.size() >= 64) {  // drop errors already rethrown by WaitForVar
      global_errors_.erase(
          std::remove_if(global_errors_.begin(), global_errors_.end(),
                         [](const std::shared_ptr<ErrorSlot>& s) { return !s->error; }),
          global_errors_.end());
    }
    global_errors_.push_back(b->error);
  }
}

// ------------------------------------------------------------------------------------------
// ThreadedEngine: waiting
// ------------------------------------------------------------------------------------------

void ThreadedEngine::WaitForVar(VarHandle var) {
  ThreadedVar* v = ThreadedVar::Cast(var);
  if (!v->Idle()) {
    Notification done;
    // A wait operation queued as a writer of var: it becomes ready once every earlier use of
    // var has completed, runs inline on the completing thread and only signals us.
    ThreadedOpr* opr = ObjectPool<ThreadedOpr>::New();
    opr->fn = [&done](RunContext, CallbackOnComplete on_complete) {
      done.Notify();
      on_complete();
    };
    opr->mutable_vars.Assign1(v);
    opr->wait = true;
    opr->temporary = true;
    opr->SetName("WaitForVar");
    PushBlock(opr, Context::CPU(), 0);
    done.Wait();
  }
  Throw(var);
  if (AnyGPUInUse()) SyncPendingGPU(Context::CPU(), var);
}

void ThreadedEngine::WaitForAllNoThrow() {
  // AllDone() reads completed_ before pushed_: equal values then mean that everything pushed
  // before the first read had completed by then, even if other threads keep pushing.
  if (!SpinUntil([this]() { return AllDone(); })) {
    std::unique_lock<std::mutex> lk(finish_mu_);
    all_waiters_.fetch_add(1, std::memory_order_seq_cst);
    finish_cv_.wait(lk, [this]() { return AllDone(); });
    all_waiters_.fetch_sub(1, std::memory_order_seq_cst);
  }
  while (inflight_.load(std::memory_order_seq_cst) != 0) std::this_thread::yield();
}

void ThreadedEngine::WaitForAll() {
  WaitForAllNoThrow();
  FinishWaitForAll();
}

bool ThreadedEngine::WaitForAllFor(int64_t timeout_ms) {
  if (!SpinUntil([this]() { return AllDone(); })) {
    std::unique_lock<std::mutex> lk(finish_mu_);
    all_waiters_.fetch_add(1, std::memory_order_seq_cst);
    const bool done = finish_cv_.wait_for(lk, std::chrono::milliseconds(std::max<int64_t>(
                                                  timeout_ms, 0)),
                                          [this]() { return AllDone(); });
    all_waiters_.fetch_sub(1, std::memory_order_seq_cst);
    if (!done) return false;
  }
  while (inflight_.load(std::memory_order_seq_cst) != 0) std::this_thread::yield();
  FinishWaitForAll();
  return true;
}

void ThreadedEngine::FinishWaitForAll() {
  SyncAllGPU();
  std::exception_ptr first;
  {
    std::lock_guard<std::mutex> g(error_mu_);
    for (auto& slot : global_errors_) {
      if (slot->error && !first) first = slot->error;
      slot->error = nullptr;  // clears it on every var it poisoned, too
    }
    global_errors_.clear();
  }
  if (first) std::rethrow_exception(first);
}

void ThreadedEngine::Throw(VarHandle var) {
  ThreadedVar* v = ThreadedVar::Cast(var);
  if (!v->has_error.load(std::memory_order_acquire)) return;
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> g(error_mu_);
    if (v->error) {
      e = v->error->error;
      v->error->error = nullptr;  // rethrown once: cleared wherever it was attached
      v->error.reset();
    }
    v->has_error.store(false, std::memory_order_relaxed);
  }
  if (e) std::rethrow_exception(e);
}

WorkerPool* ThreadedEngine::GetPool(std::atomic<WorkerPool*>* slot, int nthreads) {
  WorkerPool* p = slot->load(std::memory_order_acquire);
  if (p != nullptr) return p;
  std::lock_guard<std::mutex> g(pool_mu_);
  p = slot->load(std::memory_order_acquire);
  if (p == nullptr) {
    p = new WorkerPool(this, nthreads);
    slot->store(p, std::memory_order_release);
  }
  return p;
}

void ThreadedEngine::Stop() {
  WaitForAllNoThrow();
  StopWorkers();
}

int ThreadedEngine::bulk_size() const { return ThreadBulkSize(); }

int ThreadedEngine::set_bulk_size(int size) { return std::exchange(ThreadBulkSize(), size); }

}  // namespace engine
}  // namespace mxnet
