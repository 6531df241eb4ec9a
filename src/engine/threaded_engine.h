/*!
 * \file engine/threaded_engine.h
 * \brief Dependency tracking shared by the threaded engines (ThreadedEnginePooled and
 *        ThreadedEnginePerDevice); subclasses only decide which worker runs a ready function.
 *
 * Each variable keeps a FIFO of the operations waiting on it. Reads between two writes run
 * together; a write waits for every earlier read and write. An operation block counts the
 * variables it still waits for and is dispatched when the count reaches zero.
 *
 *   var queue:   [W1 running] -> R2 -> R3 -> W4 -> R5 -> (head: empty sentinel)
 *   W1 done  =>  R2 and R3 dispatched (num_pending_reads_ = 2), W4 becomes pending_write_
 *   R2, R3 done  =>  W4 dispatched (num_pending_reads_ = kWriteTriggered)
 *
 * The pushing thread does the bookkeeping; a worker runs the function and completes its
 * dependencies, which may dispatch successors. Blocks, queue entries and variables come from
 * ObjectPool, so a push does not touch the heap.
 */
#ifndef MXNET_ENGINE_THREADED_ENGINE_H_
#define MXNET_ENGINE_THREADED_ENGINE_H_

#include <mxnet/engine.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "./engine_impl.h"
#include "./object_pool.h"

namespace mxnet {
namespace engine {

struct OprBlock;
struct ThreadedOpr;
class ThreadedEngine;

/*! \brief A captured error, shared by the failed op, the vars it poisoned and the global list.
 *  Rethrowing it (WaitForVar or WaitForAll) empties it everywhere at once. */
struct ErrorSlot {
  std::exception_ptr error;
};

/*! \brief Entry of a variable's queue of waiting operations. */
struct VarBlock {
  VarBlock* next{nullptr};
  OprBlock* trigger{nullptr};
  bool write{false};
};

/*! \brief One pushed run of an operator. */
struct OprBlock {
  std::atomic<int> wait{0};  // dependencies still missing (+1 while the push is in progress)
  std::atomic<int> holders{1};  // completion (+ the running async function): last one frees
  ThreadedOpr* opr{nullptr};
  ThreadedEngine* engine{nullptr};
  OprBlock* next{nullptr};  // intrusive link for task queues and the inline runner
  Context ctx;
  int priority{0};
  bool fresh_error{false};  // error raised by this run itself (goes to the global list)
  std::shared_ptr<ErrorSlot> error;  // inherited from an input or raised by this run

  /*! \brief Remove n satisfied dependencies; true when the block became ready. */
  bool DecrWait(int n = 1) { return wait.fetch_sub(n, std::memory_order_acq_rel) == n; }
};

/*! \brief Engine variable with its FIFO of waiting operations. */
class ThreadedVar final : public Var {
 public:
  static const int kWriteTriggered = -1;

  ThreadedVar() : head_(ObjectPool<VarBlock>::New()) {}
  ~ThreadedVar() override {
    if (head_ != nullptr) ObjectPool<VarBlock>::Delete(head_);
  }
  static ThreadedVar* Cast(VarHandle v) { return static_cast<ThreadedVar*>(v); }

  size_t version() override {
    std::lock_guard<SpinLock> g(lock_);
    return version_;
  }

  /*! \brief Queue a read; true if it may run now (no pending write). */
  bool AppendRead(OprBlock* b) {
    std::lock_guard<SpinLock> g(lock_);
    if (pending_write_ == nullptr) {
      ++num_pending_reads_;
      return true;
    }
    VarBlock* nb = ObjectPool<VarBlock>::New();
    head_->trigger = b;
    head_->write = false;
    head_->next = nb;
    head_ = nb;
    return false;
  }

  /*! \brief Queue a write; true if it may run now (nothing pending). */
  bool AppendWrite(OprBlock* b) {
    VarBlock* nb = ObjectPool<VarBlock>::New();
    std::lock_guard<SpinLock> g(lock_);
    bool ready = false;
    head_->trigger = b;
    head_->write = true;
    head_->next = nb;
    if (pending_write_ == nullptr) {
      pending_write_ = head_;
      if (num_pending_reads_ == 0) {
        num_pending_reads_ = kWriteTriggered;
        ready = true;
      }
    }
    head_ = nb;
    return ready;
  }

  /*! \brief A read finished: maybe trigger the pending write. */
  template <typename Dispatch>
  void CompleteRead(Dispatch&& dispatch) {
    OprBlock* trigger = nullptr;
    {
      std::lock_guard<SpinLock> g(lock_);
      if (--num_pending_reads_ == 0 && pending_write_ != nullptr) {
        trigger = pending_write_->trigger;
        num_pending_reads_ = kWriteTriggered;
      }
    }
    if (trigger != nullptr && trigger->DecrWait()) dispatch(trigger);
  }

  /*!
   * \brief A write finished: trigger the reads queued behind it, or the next write.
   * \return true if the variable was marked for deletion: the caller deletes it.
   */
  template <typename Dispatch>
  bool CompleteWrite(bool bump_version, Dispatch&& dispatch) {
    VarBlock* done;
    VarBlock* end;
    OprBlock* trigger_write = nullptr;
    {
      std::lock_guard<SpinLock> g(lock_);
      if (bump_version) ++version_;
      if (to_delete_) {
        // Nothing may be queued after the deleting write.
        ObjectPool<VarBlock>::Delete(pending_write_);
        ObjectPool<VarBlock>::Delete(head_);
        pending_write_ = head_ = nullptr;
        return true;
      }
      done = pending_write_;
      end = done->next;
      num_pending_reads_ = 0;
      while (end != head_ && !end->write) {
        ++num_pending_reads_;
        end = end->next;
      }
      if (end == head_) {
        pending_write_ = nullptr;
      } else {
        pending_write_ = end;
        if (num_pending_reads_ == 0) {
          num_pending_reads_ = kWriteTriggered;
          trigger_write = end->trigger;
        }
      }
    }
    // [done->next, end) is detached from the var now: walk it without the lock.
    VarBlock* cur = done->next;
    ObjectPool<VarBlock>::Delete(done);
    while (cur != end) {
      if (cur->trigger->DecrWait()) dispatch(cur->trigger);
      VarBlock* prev = cur;
      cur = cur->next;
      ObjectPool<VarBlock>::Delete(prev);
    }
    if (trigger_write != nullptr && trigger_write->DecrWait()) dispatch(trigger_write);
    return false;
  }

  /*! \brief Nothing reads, writes or waits on the variable. */
  bool Idle() {
    std::lock_guard<SpinLock> g(lock_);
    return pending_write_ == nullptr && num_pending_reads_ == 0;
  }
  /*! \brief Called by the deleting write while it runs. */
  void SetToDelete() {
    std::lock_guard<SpinLock> g(lock_);
    to_delete_ = true;
  }

  // Error state, guarded by the engine's error mutex; has_error lets ops skip the mutex.
  std::atomic<bool> has_error{false};
  std::shared_ptr<ErrorSlot> error;

 private:
  SpinLock lock_;
  int num_pending_reads_{0};
  VarBlock* head_;                    // empty sentinel after the last queued entry
  VarBlock* pending_write_{nullptr};  // first queued write, if any
  bool to_delete_{false};
};

/*! \brief Small list of variables with inline storage (no allocation for <= kInline vars). */
class VarList {
 public:
  static const int kInline = 4;
  VarList() = default;
  VarList(const VarList&) = delete;
  VarList& operator=(const VarList&) = delete;
  ~VarList() {
    if (data_ != inline_) delete[] data_;
  }
  void Assign(const std::vector<VarHandle>& vars) {
    size_ = static_cast<int>(vars.size());
    if (size_ > kInline) data_ = new ThreadedVar*[size_];
    for (int i = 0; i < size_; ++i) data_[i] = static_cast<ThreadedVar*>(vars[i]);
  }
  void Assign1(ThreadedVar* v) {
    size_ = 1;
    data_[0] = v;
  }
  int size() const { return size_; }
  ThreadedVar* const* begin() const { return data_; }
  ThreadedVar* const* end() const { return data_ + size_; }
  ThreadedVar* operator[](int i) const { return data_[i]; }

 private:
  ThreadedVar* inline_[kInline];
  ThreadedVar** data_{inline_};
  int size_{0};
};

/*! \brief An operator: the function, its variables and how to run it. Immutable once built;
 *  shared by every pushed run. Temporary ones (PushAsync/PushSync) die with their run. */
struct ThreadedOpr final : public Opr {
  Engine::AsyncFn fn;       // set for async functions
  Engine::SyncFn sync_fn;   // set for sync functions (PushSync, DeleteVariable)
  VarList const_vars;
  VarList mutable_vars;
  FnProperty prop{FnProperty::kNormal};
  bool is_sync{false};      // run sync_fn (else fn with a completion callback)
  bool wait{false};         // a wait operation: never skipped, never bumps versions
  bool temporary{false};    // made by PushAsync/PushSync: deleted when its run completes
  bool delete_var{false};   // made by DeleteVariable: marks mutable_vars[0] for deletion
  std::atomic<int> refs{1};  // owner (NewOperator) + pushed runs in flight

  void SetName(const char* name) {
    if (name == nullptr) return;
    size_t n = std::strlen(name);
    if (n < sizeof(name_buf_)) {
      std::memcpy(name_buf_, name, n + 1);
      name_ = name_buf_;
    } else {
      long_name_.reset(new std::string(name));
      name_ = long_name_->c_str();
    }
  }
  /*! \brief The operator name, or nullptr. */
  const char* name() const { return name_; }

 private:
  const char* name_{nullptr};
  char name_buf_[48];
  std::unique_ptr<std::string> long_name_;
};

/*!
 * \brief Blocking task queue of one worker pool: FIFO among equal priorities, higher priority
 *        first. Idle workers spin briefly before sleeping, so a steady stream of pushes is
 *        handed over without system calls; a push wakes a sleeper only if there is one.
 */
class TaskQueue {
 public:
  void Push(OprBlock* b);
  /*! \brief Next task, or nullptr once stopped and empty. */
  OprBlock* Pop();
  void Stop();

 private:
  struct HeapEntry {
    int priority;
    uint64_t seq;
    OprBlock* block;
    bool operator<(const HeapEntry& o) const {  // max-heap: higher priority, then older
      return priority != o.priority ? priority < o.priority : seq > o.seq;
    }
  };
  OprBlock* TryPop();

  SpinLock lock_;
  OprBlock* fifo_head_{nullptr};  // priority-0 tasks, in push order
  OprBlock* fifo_tail_{nullptr};
  std::vector<HeapEntry> heap_;   // tasks of any other priority
  uint64_t seq_{0};
  std::atomic<int> size_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> sleepers_{0};
  std::mutex sleep_mu_;
  std::condition_variable sleep_cv_;
};

/*! \brief A set of worker threads serving one TaskQueue. */
class WorkerPool {
 public:
  WorkerPool(ThreadedEngine* engine, int nthreads);
  ~WorkerPool();
  void Push(OprBlock* b) { queue_.Push(b); }

 private:
  TaskQueue queue_;
  std::vector<std::thread> threads_;
};

/*! \brief Dependency engine with worker threads; subclasses route ready blocks to workers. */
class ThreadedEngine : public Engine {
 public:
  ThreadedEngine();
  ~ThreadedEngine() override;

  void NotifyShutdown() override { shutdown_phase_.store(true); }
  VarHandle NewVariable() override { return ObjectPool<ThreadedVar>::New(); }
  OprHandle NewOperator(AsyncFn fn, std::vector<VarHandle> const& const_vars,
                        std::vector<VarHandle> const& mutable_vars,
                        FnProperty prop = FnProperty::kNormal, const char* opr_name = nullptr,
                        bool wait = false) override;
  void DeleteOperator(OprHandle op) override;
  void Push(OprHandle op, Context exec_ctx, int priority = 0, bool profiling = false) override;
  void PushAsync(AsyncFn exec_fun, Context exec_ctx, std::vector<VarHandle> const& const_vars,
                 std::vector<VarHandle> const& mutable_vars, FnProperty prop = FnProperty::kNormal,
                 int priority = 0, const char* opr_name = nullptr, bool wait = false) override;
  void PushSync(SyncFn exec_fn, Context exec_ctx, std::vector<VarHandle> const& const_vars,
                std::vector<VarHandle> const& mutable_vars, FnProperty prop = FnProperty::kNormal,
                int priority = 0, const char* opr_name = nullptr) override;
  void DeleteVariable(SyncFn delete_fn, Context exec_ctx, VarHandle var) override;
  void WaitForVar(VarHandle var) override;
  void WaitForAll() override;
  bool WaitForAllFor(int64_t timeout_ms) override;
  void Throw(VarHandle var) override;
  /*! \brief Finish all work and join the workers; Start() lets them be created again. */
  void Stop() override;
  void Start() override {}
  int bulk_size() const override;
  int set_bulk_size(int size) override;

  void WaitForCapacity() override;

  /*! \brief Run a ready block on the calling worker (or inline). */
  void ExecuteOprBlock(OprBlock* block);
  /*! \brief Functions pushed and not yet completed. */
  int64_t NumPending() const { return pushed_.load() - completed_.load(); }

 protected:
  /*! \brief Hand a ready block to a worker. Called from pushing and completing threads. */
  virtual void PushToExecute(OprBlock* block) = 0;
  /*! \brief Join and destroy every worker pool (all work has completed). */
  virtual void StopWorkers() = 0;
  /*! \brief Wait until nothing is pending and no completion is still in flight. */
  void WaitForAllNoThrow();
  /*! \brief After the queue drained: the GPUs synced, the first stored error rethrown. */
  void FinishWaitForAll();
  bool shutdown_phase() const { return shutdown_phase_.load(std::memory_order_relaxed); }
  /*! \brief The pool in *slot, created with nthreads workers on first use. */
  WorkerPool* GetPool(std::atomic<WorkerPool*>* slot, int nthreads);
  /*! \brief Guards pool creation and StopWorkers. */
  std::mutex pool_mu_;

 private:
  static void OnCompleteStatic(Engine* engine, void* param, const dmlc::Error* error);
  void PushBlock(ThreadedOpr* opr, Context ctx, int priority);
  void Dispatch(OprBlock* block, bool from_pusher);
  void RunInline(OprBlock* block);
  void OnComplete(OprBlock* block, const dmlc::Error* error);
  /*! \brief Drop one holder of the block; the last frees it and its temporary operator. */
  static void ReleaseBlock(OprBlock* block);
  void InheritErrors(OprBlock* block);
  /*! \brief Tag the variables of a completed GPU function with its queued work. */
  void TagGPUWork(OprBlock* block);
  void PoisonOutputs(OprBlock* block);

  /*! \brief Everything pushed so far has completed. */
  bool AllDone() const {
    const int64_t completed = completed_.load();  // first: see WaitForAllNoThrow
    return completed == pushed_.load();
  }

  // Counted separately (pushing vs completing threads) so that the two sides do not fight
  // over one cache line on every function.
  alignas(64) std::atomic<int64_t> pushed_{0};
  alignas(64) std::atomic<int64_t> completed_{0};
  std::atomic<int> inflight_{0};  // completions still touching the engine after counting
  alignas(64) std::atomic<int> all_waiters_{0};
  std::atomic<int> capacity_waiters_{0};  // frontends blocked in WaitForCapacity
  const int64_t max_inflight_;            // MXNET_ENGINE_MAX_INFLIGHT (0 = unbounded)
  std::mutex finish_mu_;
  std::condition_variable finish_cv_;

  std::mutex error_mu_;  // guards var/slot errors and the global list
  std::vector<std::shared_ptr<ErrorSlot>> global_errors_;

  std::atomic<bool> shutdown_phase_{false};
};

}  // namespace engine
}  // namespace mxnet

#endif  // MXNET_ENGINE_THREADED_ENGINE_H_
