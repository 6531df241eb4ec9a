// NaiveEngine: runs every function synchronously on the pushing thread (debugging aid).
// Errors raise straight out of the push; WaitForVar/WaitForAll/Throw have nothing to do.
// Functions pushed from several threads at once are not serialized against each other.
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "./engine_impl.h"

#include <mxnet/profiler.h>

namespace mxnet {
namespace engine {

class NaiveEngine final : public Engine {
 public:
  struct NaiveVar final : public Var {
    size_t version() override { return writes.load(std::memory_order_relaxed); }
    std::atomic<size_t> writes{0};
  };
  struct NaiveOpr final : public Opr {
    AsyncFn fn;
    std::vector<VarHandle> const_vars;
    std::vector<VarHandle> mutable_vars;
    FnProperty prop{FnProperty::kNormal};
    std::string name;
    bool has_name{false};
  };

  void NotifyShutdown() override {}
  void Stop() override {}
  void Start() override {}

  VarHandle NewVariable() override { return new NaiveVar(); }

  OprHandle NewOperator(AsyncFn fn, std::vector<VarHandle> const& const_vars,
                        std::vector<VarHandle> const& mutable_vars, FnProperty prop,
                        const char* opr_name, bool) override {
    NaiveOpr* opr = new NaiveOpr();
    opr->fn = std::move(fn);
    opr->const_vars = const_vars;
    opr->mutable_vars = mutable_vars;
    opr->prop = prop;
    opr->has_name = opr_name != nullptr;
    if (opr_name != nullptr) opr->name = opr_name;
    return opr;
  }

  void DeleteOperator(OprHandle op) override { delete static_cast<NaiveOpr*>(op); }

  void Push(OprHandle op, Context exec_ctx, int, bool) override {
    NaiveOpr* opr = static_cast<NaiveOpr*>(op);
    RunAsync(opr->fn, exec_ctx, opr->mutable_vars, opr->has_name ? opr->name.c_str() : nullptr);
  }

  void PushAsync(AsyncFn exec_fun, Context exec_ctx, std::vector<VarHandle> const&,
                 std::vector<VarHandle> const& mutable_vars, FnProperty, int,
                 const char* opr_name, bool) override {
    RunAsync(exec_fun, exec_ctx, mutable_vars, opr_name);
  }

  void PushSync(SyncFn exec_fn, Context exec_ctx, std::vector<VarHandle> const&,
                std::vector<VarHandle> const& mutable_vars, FnProperty, int,
                const char* opr_name) override {
    ProfileScope profile(opr_name);
    try {
      const RunContext rctx = MakeRunContext(exec_ctx);
      exec_fn(rctx);
      WaitGPUFunction(rctx);
    } catch (...) {
      BumpVersions(mutable_vars);
      std::rethrow_exception(NameOperatorError(std::current_exception(), opr_name));
    }
    BumpVersions(mutable_vars);
  }

  void DeleteVariable(SyncFn delete_fn, Context exec_ctx, VarHandle var) override {
    std::unique_ptr<NaiveVar> owned(static_cast<NaiveVar*>(var));
    if (delete_fn) delete_fn(MakeRunContext(exec_ctx));
  }

  void WaitForVar(VarHandle) override {}
  void WaitForAll() override {}
  void Throw(VarHandle) override {}
  int bulk_size() const override { return ThreadBulkSize(); }
  int set_bulk_size(int size) override { return std::exchange(ThreadBulkSize(), size); }

 private:
  /*! \brief Completion state of one asynchronous function (it may complete on any thread). */
  struct Completion {
    std::mutex mu;
    std::condition_variable cv;
    bool done{false};
    std::exception_ptr error;
    const char* name{nullptr};
  };

  static void OnComplete(Engine*, void* param, const dmlc::Error* error) {
    Completion* c = static_cast<Completion*>(param);
    std::exception_ptr e;
    if (error != nullptr) e = NameOperatorError(*error, c->name);
    std::lock_guard<std::mutex> g(c->mu);
    c->error = e;
    c->done = true;
    c->cv.notify_all();
  }

  /*! \brief Records a named function with the profiler (imperative kind) when it is on. */
  struct ProfileScope {
    explicit ProfileScope(const char* name)
        : name(name),
          start((profiler::RecordingMask() & profiler::kImperative) && name != nullptr
                    ? profiler::NowMicros()
                    : 0) {}
    ~ProfileScope() {
      if (start) profiler::RecordOperator(name, start, profiler::NowMicros());
    }
    const char* name;
    uint64_t start;
  };

  static RunContext MakeRunContext(Context ctx) {
    RunContext rctx;
    rctx.ctx = ctx;
    SetRunStream(&rctx);
    return rctx;
  }

  static void BumpVersions(const std::vector<VarHandle>& vars) {
    for (VarHandle v : vars) static_cast<NaiveVar*>(v)->writes.fetch_add(1);
  }

  void RunAsync(const AsyncFn& fn, Context exec_ctx, const std::vector<VarHandle>& mutable_vars,
                const char* opr_name) {
    Completion c;
    c.name = opr_name;
    ProfileScope profile(opr_name);
    const RunContext rctx = MakeRunContext(exec_ctx);
    try {
      fn(rctx, CreateCallback(OnComplete, &c));
    } catch (...) {
      // An asynchronous function that throws is taken not to have called on_complete.
      BumpVersions(mutable_vars);
      std::rethrow_exception(NameOperatorError(std::current_exception(), opr_name));
    }
    {
      // Always take the lock: the completing thread may still be inside OnComplete.
      std::unique_lock<std::mutex> lk(c.mu);
      c.cv.wait(lk, [&c]() { return c.done; });
    }
    if (!c.error) {
      try {
        WaitGPUFunction(rctx);
      } catch (...) {
        c.error = NameOperatorError(std::current_exception(), opr_name);
      }
    }
    BumpVersions(mutable_vars);
    if (c.error) std::rethrow_exception(c.error);
  }
};

std::unique_ptr<Engine> CreateNaiveEngine() { return std::unique_ptr<Engine>(new NaiveEngine()); }

}  // namespace engine
}  // namespace mxnet
