/*!
 * \file mxnet/engine.h
 * \brief The dependency engine: runs pushed functions in an order consistent with the
 *        variables they read and write.
 *
 * Rule: two functions that touch a common variable, at least one of them writing it, run in push
 * order; everything else may run in parallel. Pushes return at once.
 *
 *   Engine* eng = Engine::Get();
 *   auto v = eng->NewVariable();
 *   eng->PushSync([&](RunContext) { x += 1; }, Context::CPU(), {}, {v});   // writes v
 *   eng->PushSync([&](RunContext) { use(x); }, Context::CPU(), {v}, {});   // reads v: after
 *   eng->WaitForVar(v);
 *   eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
 *
 * An exception thrown inside a function is stored on the variables it writes; the next
 * WaitForVar on one of them (or WaitForAll) rethrows it, naming the operator. Functions that
 * read or write a poisoned variable are skipped and inherit the error (unless kNoSkip).
 *
 * The engine is chosen once, by MXNET_ENGINE_TYPE: NaiveEngine (synchronous, errors raise
 * from the push), ThreadedEngine (one shared pool) or ThreadedEnginePerDevice (default).
 */
#ifndef MXNET_ENGINE_H_
#define MXNET_ENGINE_H_

#include <mxnet/base.h>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

namespace mxnet {

class Engine;

namespace engine {

/*! \brief Base of engine variables. version() counts completed writes. */
struct Var {
  virtual ~Var() = default;
  virtual size_t version() { return version_; }
  size_t version_{0};
  /*!
   * \brief GPU work that may still use the variable's data: (device << 56) | the device's
   *        launch epoch when an operator using it was queued (0: none). Engine-internal.
   */
  std::atomic<uint64_t> gpu_tag{0};
};

/*! \brief Base of engine operators (opaque). */
struct Opr {
  virtual ~Opr() = default;
};

typedef Var* VarHandle;
typedef Opr* OprHandle;

/*!
 * \brief Completion callback of an asynchronous function. Call it exactly once, optionally
 *        with the error that made the function fail.
 */
class CallbackOnComplete {
 public:
  typedef void (*Fn)(Engine*, void*, const dmlc::Error*);
  CallbackOnComplete() = default;
  CallbackOnComplete(Fn callback, Engine* engine, void* param)
      : callback_(callback), engine_(engine), param_(param) {}
  void operator()(const dmlc::Error* error = nullptr) const { (*callback_)(engine_, param_, error); }
  bool valid() const { return callback_ != nullptr; }

 private:
  Fn callback_{nullptr};
  Engine* engine_{nullptr};
  void* param_{nullptr};
};

/*!
 * \brief The error an engine stores and rethrows for a failed operator.
 *
 * With a name, the result is a dmlc::Error of the same typed class as `e` when it is one of
 * the dmlc errors (ValueError, TypeError, ...; other exceptions become dmlc::Error) whose
 * message is the original text followed by "\nError in operator <name>". Without a name the
 * original exception is kept as is.
 */
MXNET_DLL std::exception_ptr NameOperatorError(std::exception_ptr e, const char* opr_name);
/*! \brief Same, for an error handed to a completion callback (copied: the caller owns it). */
MXNET_DLL std::exception_ptr NameOperatorError(const dmlc::Error& e, const char* opr_name);

}  // namespace engine

/*! \brief Property of a pushed function (values as MXNet 1.x, 0..7). */
enum class FnProperty {
  kNormal = 0,
  kCopyFromGPU = 1,
  kCopyToGPU = 2,
  kCPUPrioritized = 3,
  kAsync = 4,
  kDeleteVar = 5,
  kGPUPrioritized = 6,
  kNoSkip = 7,
};

/*! \brief The dependency engine interface. */
class MXNET_DLL Engine {
 public:
  typedef engine::CallbackOnComplete CallbackOnComplete;
  typedef std::function<void(RunContext)> SyncFn;
  typedef std::function<void(RunContext, CallbackOnComplete)> AsyncFn;
  typedef engine::VarHandle VarHandle;
  typedef engine::OprHandle OprHandle;

  virtual ~Engine() = default;

  /*! \brief Tell the engine the process is shutting down (quieter, still finishes work). */
  virtual void NotifyShutdown() = 0;
  virtual void Stop() { LOG(FATAL) << "Engine cannot be stopped"; }
  virtual void Start() { LOG(FATAL) << "Engine cannot be restarted"; }

  /*! \brief A new variable: a token standing for some data functions read or write. */
  virtual VarHandle NewVariable() = 0;

  /*!
   * \brief Create a reusable operator (saves re-building the closure and dependency lists).
   * \param wait true for an operator used only to wait on variables (never skipped).
   */
  virtual OprHandle NewOperator(AsyncFn fn, std::vector<VarHandle> const& const_vars,
                                std::vector<VarHandle> const& mutable_vars,
                                FnProperty prop = FnProperty::kNormal,
                                const char* opr_name = nullptr, bool wait = false) = 0;
  /*! \brief Delete an operator once every pushed run of it has completed. */
  virtual void DeleteOperator(OprHandle op) = 0;
  /*! \brief Push a run of an operator made by NewOperator. */
  virtual void Push(OprHandle op, Context exec_ctx, int priority = 0, bool profiling = false) = 0;

  /*! \brief Push an asynchronous function: it must call on_complete exactly once. */
  virtual void PushAsync(AsyncFn exec_fun, Context exec_ctx,
                         std::vector<VarHandle> const& const_vars,
                         std::vector<VarHandle> const& mutable_vars,
                         FnProperty prop = FnProperty::kNormal, int priority = 0,
                         const char* opr_name = nullptr, bool wait = false) = 0;

  /*! \brief Push a synchronous function (completes when it returns or throws). */
  virtual void PushSync(SyncFn exec_fn, Context exec_ctx,
                        std::vector<VarHandle> const& const_vars,
                        std::vector<VarHandle> const& mutable_vars,
                        FnProperty prop = FnProperty::kNormal, int priority = 0,
                        const char* opr_name = nullptr) {
    this->PushAsync(
        [exec_fn](RunContext ctx, CallbackOnComplete on_complete) {
          exec_fn(ctx);
          on_complete();
        },
        exec_ctx, const_vars, mutable_vars, prop, priority, opr_name);
  }

  /*!
   * \brief Delete a variable after every pending function that uses it; delete_fn runs then
   *        (as a writer of the variable).
   */
  virtual void DeleteVariable(SyncFn delete_fn, Context exec_ctx, VarHandle var) = 0;

  /*! \brief Block until every pushed function using var has completed; rethrow its error. */
  virtual void WaitForVar(VarHandle var) = 0;
  /*! \brief Block until all pushed work has completed; rethrow the first error, clear all. */
  virtual void WaitForAll() = 0;
  /*!
   * \brief WaitForAll for at most timeout_ms: false (nothing rethrown) when work is still
   *        pending then. A frontend waits in slices this way, so Ctrl-C is handled meanwhile.
   */
  virtual bool WaitForAllFor(int64_t timeout_ms) {
    WaitForAll();
    return true;
  }
  /*! \brief Rethrow (and clear) the error attached to var, if any. */
  virtual void Throw(VarHandle var) = 0;

  /*!
   * \brief Called by frontends before pushing new work: blocks while too many pushed functions
   *        have not completed (MXNET_ENGINE_MAX_INFLIGHT, 0 = unbounded), so that a frontend
   *        running far ahead of the engine does not hold an unbounded backlog (and the graphs
   *        and closures it keeps alive) in host memory. Never blocks an engine worker or a thread
   *        marked with SetThreadThrottleExempt. Asynchronous engines only.
   */
  virtual void WaitForCapacity() {}
  /*!
   * \brief Mark the calling thread as one that pushed work may wait on (e.g. custom-operator
   *        workers): WaitForCapacity then never blocks it, which could deadlock.
   */
  static void SetThreadThrottleExempt(bool exempt);

  /*! \brief Imperative bulking size (functions batched per engine push); 0 = off. */
  virtual int bulk_size() const { return 0; }
  virtual int set_bulk_size(int) { return 0; }

  /*! \brief The process-wide engine, created on first use from MXNET_ENGINE_TYPE. */
  static Engine* Get();
  /*! \brief Shared reference, for singletons that must outlive their use of the engine. */
  static std::shared_ptr<Engine> _GetSharedRef();

  /*! \brief Build a CallbackOnComplete bound to this engine. */
  CallbackOnComplete CreateCallback(void (*callback)(Engine*, void*, const dmlc::Error*),
                                    void* param) {
    return CallbackOnComplete(callback, this, param);
  }

  /*!
   * \brief Sort and deduplicate both lists, and drop from `read` what is also in `write`.
   *        Callers do this before pushing (a variable must not appear twice).
   */
  static void DeduplicateVarHandle(std::vector<VarHandle>* read, std::vector<VarHandle>* write);
};

}  // namespace mxnet

#endif  // MXNET_ENGINE_H_
