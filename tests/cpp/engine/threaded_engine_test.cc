// Dependency-engine semantics, checked on every engine (EngineTest) and on the threaded ones
// (ThreadedEngineTest): ordering oracle under random load, async completion, variable and
// operator deletion, priorities, parallelism, error propagation and shutdown.
#include <gtest/gtest.h>
#include <mxnet/engine.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "./engine_test_util.h"

namespace mxnet {
namespace test {
namespace {

using engine::CallbackOnComplete;

class EngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { eng_ = MakeEngine(GetParam()); }
  void TearDown() override { eng_.reset(); }
  bool naive() const { return GetParam() == kNaive; }
  std::unique_ptr<Engine> eng_;
};

class ThreadedEngineTest : public EngineTest {};

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineTest,
                         ::testing::Values(kNaive, kPooled, kPerDevice), ParamName);
INSTANTIATE_TEST_SUITE_P(Threaded, ThreadedEngineTest, ::testing::Values(kPooled, kPerDevice),
                         ParamName);

// ------------------------------------------------------------------------------------------
// Ordering oracle
// ------------------------------------------------------------------------------------------

/*!
 * Push `nops` functions with random read/write sets over `nvars` variables. Every variable
 * holds a plain counter that writers increment. For each function we know, from the push
 * order alone, the value each of its variables must show when it runs: the number of writes
 * to that variable pushed before it. Readers seeing a larger value ran after a later writer;
 * a smaller one, before an earlier writer. The counters are plain ints: an engine that let
 * conflicting functions overlap is also a data race the thread sanitizer reports.
 */
void RunOracle(Engine* eng, int nvars, int nops, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<VarHandle> vars(nvars);
  for (auto& v : vars) v = eng->NewVariable();
  std::vector<int64_t> value(nvars, 0);           // touched only by engine functions
  std::vector<int64_t> pushed_writes(nvars, 0);   // pusher-side bookkeeping
  std::vector<std::vector<int64_t>> observed(nops), expected(nops);
  std::vector<std::thread> completers;
  std::mutex completers_mu;

  std::vector<int> order(nvars);
  for (int i = 0; i < nvars; ++i) order[i] = i;
  for (int i = 0; i < nops; ++i) {
    const int nr = rng() % std::min(4, nvars + 1);
    const int nw = rng() % std::min(3, nvars - nr + 1);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<int> reads(order.begin(), order.begin() + nr);
    std::vector<int> writes(order.begin() + nr, order.begin() + nr + nw);
    std::vector<VarHandle> rv, wv;
    for (int r : reads) {
      rv.push_back(vars[r]);
      expected[i].push_back(pushed_writes[r]);
    }
    for (int w : writes) {
      wv.push_back(vars[w]);
      expected[i].push_back(pushed_writes[w]++);
    }
    observed[i].assign(expected[i].size(), -1);
    auto body = [&value, &observed, i, reads, writes]() {
      size_t k = 0;
      for (int r : reads) observed[i][k++] = value[r];
      for (int w : writes) observed[i][k++] = value[w]++;
    };
    const Context ctx = Context::CPU(rng() % 2);
    const int priority = std::vector<int>{-1, 0, 0, 0, 3}[rng() % 5];
    switch (rng() % 6) {
      case 0:
      case 1:
        eng->PushSync([body](RunContext) { body(); }, ctx, rv, wv, FnProperty::kNormal, priority,
                      "oracle_sync");
        break;
      case 2:
        eng->PushSync([body](RunContext) { body(); }, ctx, rv, wv, FnProperty::kCPUPrioritized,
                      priority);
        break;
      case 3:
        eng->PushAsync([body](RunContext, CallbackOnComplete done) { body(), done(); }, ctx, rv,
                       wv, FnProperty::kAsync, priority, "oracle_async");
        break;
      case 4:
        eng->PushAsync([body](RunContext, CallbackOnComplete done) { body(), done(); }, ctx, rv,
                       wv, FnProperty::kNormal, priority);
        break;
      default:
        if (rng() % 8 == 0) {  // completes later, on a thread of its own
          eng->PushAsync(
              [body, &completers, &completers_mu](RunContext, CallbackOnComplete done) {
                std::lock_guard<std::mutex> g(completers_mu);
                completers.emplace_back([body, done]() { body(), done(); });
              },
              ctx, rv, wv, FnProperty::kAsync, priority);
        } else {
          eng->PushSync([body](RunContext) { body(); }, ctx, rv, wv);
        }
    }
    if (rng() % 256 == 0) {  // a wait in the middle: the host then sees every pushed write
      const int v = rng() % nvars;
      eng->WaitForVar(vars[v]);
      ASSERT_EQ(value[v], pushed_writes[v]) << "after WaitForVar, op " << i;
    }
  }
  eng->WaitForAll();
  {
    std::lock_guard<std::mutex> g(completers_mu);
    for (auto& t : completers) t.join();
  }
  int bad = 0;
  for (int i = 0; i < nops && bad < 5; ++i) {
    if (observed[i] != expected[i]) {
      ++bad;
      ADD_FAILURE() << "function " << i << " observed a state inconsistent with push order";
    }
  }
  for (int v = 0; v < nvars; ++v) {
    EXPECT_EQ(value[v], pushed_writes[v]);
    EXPECT_EQ(vars[v]->version(), static_cast<size_t>(pushed_writes[v]));
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), vars[v]);
  }
  eng->WaitForAll();
}

TEST_P(EngineTest, RandomDependenciesFollowPushOrder) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    RunOracle(eng_.get(), 40, 3000, seed);
  }
}

TEST_P(EngineTest, FewVariablesManyConflicts) { RunOracle(eng_.get(), 4, 4000, 7); }

TEST_P(ThreadedEngineTest, ConcurrentPushersShareAVariable) {
  // Each thread owns a var; all write a common one. Only per-thread push order is defined.
  // (NaiveEngine runs functions on their pushing threads: it does not serialize pushers.)
  const int kThreads = 4, kOps = 400;
  VarHandle shared = eng_->NewVariable();
  int64_t shared_count = 0;
  std::vector<VarHandle> own(kThreads);
  std::vector<int64_t> own_count(kThreads, 0);
  std::vector<int64_t> own_bad(kThreads, 0);
  for (auto& v : own) v = eng_->NewVariable();
  std::vector<std::thread> pushers;
  for (int t = 0; t < kThreads; ++t) {
    pushers.emplace_back([&, t]() {
      for (int i = 0; i < kOps; ++i) {
        if (i % 2 == 0) {
          eng_->PushSync([&shared_count](RunContext) { ++shared_count; }, Context::CPU(),
                         {own[t]}, {shared});
        } else {
          eng_->PushSync(
              [&own_count, &own_bad, t, i](RunContext) {
                if (own_count[t] != i / 2) ++own_bad[t];
                ++own_count[t];
              },
              Context::CPU(t % 2), {}, {own[t]});
        }
      }
    });
  }
  for (auto& p : pushers) p.join();
  eng_->WaitForAll();
  EXPECT_EQ(shared_count, kThreads * kOps / 2);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(own_count[t], kOps / 2);
    EXPECT_EQ(own_bad[t], 0);
  }
  for (VarHandle v : own) eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), shared);
  eng_->WaitForAll();
}

// ------------------------------------------------------------------------------------------
// Basic API
// ------------------------------------------------------------------------------------------

TEST_P(EngineTest, ReadersSeeTheWriteBeforeThem) {
  VarHandle v = eng_->NewVariable();
  int x = 0, seen = -1;
  eng_->PushSync([&x](RunContext) { x = 42; }, Context::CPU(), {}, {v});
  eng_->PushSync([&x, &seen](RunContext) { seen = x; }, Context::CPU(), {v}, {});
  eng_->WaitForVar(v);
  EXPECT_EQ(seen, 42);
  EXPECT_EQ(v->version(), 1u);
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(EngineTest, WaitForVarWaitsForPendingReaders) {
  VarHandle v = eng_->NewVariable();
  std::atomic<bool> reader_done{false};
  eng_->PushSync(
      [&reader_done](RunContext) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        reader_done = true;
      },
      Context::CPU(), {v}, {});
  eng_->WaitForVar(v);
  EXPECT_TRUE(reader_done.load());
  EXPECT_EQ(v->version(), 0u);  // waiting is not a write
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(EngineTest, AsyncFunctionCompletesOnAnotherThread) {
  VarHandle v = eng_->NewVariable();
  int x = 0, seen = -1;
  std::vector<std::thread> threads;
  std::mutex mu;
  for (int i = 0; i < 5; ++i) {
    eng_->PushAsync(
        [&x, &threads, &mu](RunContext, CallbackOnComplete on_complete) {
          std::lock_guard<std::mutex> g(mu);
          threads.emplace_back([&x, on_complete]() {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            ++x;
            on_complete();
          });
        },
        Context::CPU(), {}, {v}, FnProperty::kAsync, 0, "async_incr");
  }
  eng_->PushSync([&x, &seen](RunContext) { seen = x; }, Context::CPU(), {v}, {});
  eng_->WaitForVar(v);
  EXPECT_EQ(seen, 5);
  EXPECT_EQ(v->version(), 5u);
  eng_->WaitForAll();
  // Completion is signalled by on_complete: a function body may still be finishing.
  std::lock_guard<std::mutex> g(mu);
  for (auto& t : threads) t.join();
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(EngineTest, AsyncBodyMayOutliveItsCompletion) {
  // on_complete, called from another thread, may finish before the function body returns:
  // the engine must keep the function object (and its captures) alive until it does.
  VarHandle v = eng_->NewVariable();
  std::vector<std::thread> threads;
  std::mutex mu;
  std::atomic<int> tails{0};
  for (int i = 0; i < 20; ++i) {
    const std::string payload(100, 'x');  // a capture living on the heap
    eng_->PushAsync(
        [payload, &threads, &mu, &tails](RunContext, CallbackOnComplete on_complete) {
          {
            std::lock_guard<std::mutex> g(mu);
            threads.emplace_back([on_complete]() { on_complete(); });
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          if (payload == std::string(100, 'x')) ++tails;
        },
        Context::CPU(i % 2), {}, {v});
  }
  eng_->WaitForAll();
  EXPECT_TRUE(WaitUntil([&tails]() { return tails.load() == 20; }));
  {
    std::lock_guard<std::mutex> g(mu);
    for (auto& t : threads) t.join();
  }
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(EngineTest, DeleteVariableRunsAfterPendingUses) {
  VarHandle v = eng_->NewVariable();
  std::atomic<int> uses{0};
  int uses_at_delete = -1;
  for (int i = 0; i < 10; ++i) {
    auto slow = [&uses](RunContext) {
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      ++uses;
    };
    if (i % 3 == 0) {
      eng_->PushSync(slow, Context::CPU(), {}, {v});
    } else {
      eng_->PushSync(slow, Context::CPU(), {v}, {});
    }
  }
  eng_->DeleteVariable([&](RunContext) { uses_at_delete = uses.load(); }, Context::CPU(), v);
  eng_->WaitForAll();
  EXPECT_EQ(uses_at_delete, 10);
}

TEST_P(EngineTest, ReusableOperatorPushedManyTimes) {
  VarHandle v = eng_->NewVariable(), r = eng_->NewVariable();
  int count = 0;
  std::atomic<int> reads{0};
  auto op = eng_->NewOperator(
      [&count](RunContext, CallbackOnComplete done) {
        ++count;
        done();
      },
      {}, {v}, FnProperty::kNormal, "counter");
  auto reader = eng_->NewOperator(
      [&reads](RunContext, CallbackOnComplete done) {
        ++reads;
        done();
      },
      {r}, {});
  for (int i = 0; i < 100; ++i) {
    eng_->Push(op, Context::CPU());
    eng_->Push(reader, Context::CPU(i % 2));
  }
  // Deleting right away is fine: the operator goes when its last run completes.
  eng_->DeleteOperator(op);
  eng_->DeleteOperator(reader);
  eng_->WaitForAll();
  EXPECT_EQ(count, 100);
  EXPECT_EQ(reads.load(), 100);
  EXPECT_EQ(v->version(), 100u);
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), r);
  eng_->WaitForAll();
}

TEST_P(EngineTest, EveryPropertyAndDeviceRuns) {
  VarHandle v = eng_->NewVariable();
  int count = 0;
  const FnProperty props[] = {FnProperty::kNormal,         FnProperty::kCopyFromGPU,
                              FnProperty::kCopyToGPU,      FnProperty::kCPUPrioritized,
                              FnProperty::kAsync,          FnProperty::kGPUPrioritized,
                              FnProperty::kNoSkip};
  const Context ctxs[] = {Context::CPU(), Context::CPU(3), Context::GPU(0), Context::GPU(1),
                          Context::CPUPinned(0), Context::CPUShared(0)};
  for (FnProperty p : props) {
    for (const Context& c : ctxs) {
      eng_->PushSync(
          [&count, c](RunContext rctx) {
            EXPECT_EQ(rctx.ctx, c);
            ++count;
          },
          c, {}, {v}, p);
    }
  }
  eng_->WaitForAll();
  EXPECT_EQ(count, 7 * 6);
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(EngineTest, BulkSizeIsRemembered) {
  const int prev = eng_->set_bulk_size(15);
  EXPECT_EQ(eng_->bulk_size(), 15);
  EXPECT_EQ(eng_->set_bulk_size(prev), 15);
}

// ------------------------------------------------------------------------------------------
// Threaded engines: where and when functions run
// ------------------------------------------------------------------------------------------

TEST_P(ThreadedEngineTest, PushReturnsBeforeTheFunctionRuns) {
  VarHandle v = eng_->NewVariable();
  std::atomic<bool> release{false}, ran{false};
  eng_->PushSync(
      [&](RunContext) {
        WaitUntil([&]() { return release.load(); });
        ran = true;
      },
      Context::CPU(), {}, {v});
  EXPECT_FALSE(ran.load());
  release = true;
  eng_->WaitForVar(v);
  EXPECT_TRUE(ran.load());
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(ThreadedEngineTest, AsyncPropertyRunsOnThePushingThread) {
  VarHandle v = eng_->NewVariable();
  std::thread::id ran_on;
  eng_->PushAsync(
      [&ran_on](RunContext, CallbackOnComplete done) {
        ran_on = std::this_thread::get_id();
        done();
      },
      Context::CPU(), {}, {v}, FnProperty::kAsync);
  eng_->WaitForAll();
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

// Two functions on disjoint variables must be able to run at the same time.
void ExpectParallel(Engine* eng, Context c1, FnProperty p1, Context c2, FnProperty p2) {
  Rendezvous meet(2);
  std::atomic<int> met{0};
  VarHandle a = eng->NewVariable(), b = eng->NewVariable();
  auto fn = [&](RunContext) { met += meet.Arrive(); };
  eng->PushSync(fn, c1, {}, {a}, p1);
  eng->PushSync(fn, c2, {}, {b}, p2);
  eng->WaitForAll();
  EXPECT_EQ(met.load(), 2) << "independent functions did not run concurrently";
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), a);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), b);
  eng->WaitForAll();
}

TEST_P(ThreadedEngineTest, IndependentFunctionsRunInParallel) {
  if (GetParam() == kPooled) {
    ExpectParallel(eng_.get(), Context::CPU(), FnProperty::kNormal, Context::CPU(),
                   FnProperty::kNormal);
  } else {
    // One normal worker per CPU device by default: parallel across devices, and in the
    // priority pool (4 workers).
    ExpectParallel(eng_.get(), Context::CPU(0), FnProperty::kNormal, Context::CPU(1),
                   FnProperty::kNormal);
    ExpectParallel(eng_.get(), Context::CPU(0), FnProperty::kCPUPrioritized, Context::CPU(0),
                   FnProperty::kCPUPrioritized);
    ExpectParallel(eng_.get(), Context::CPU(0), FnProperty::kNormal, Context::CPU(0),
                   FnProperty::kCPUPrioritized);
  }
}

TEST(ThreadedEnginePerDevice, CpuWorkerCountComesFromTheEnvironment) {
  auto eng = MakeEngine(kPerDevice, {{"MXNET_CPU_WORKER_NTHREADS", "2"}});
  ExpectParallel(eng.get(), Context::CPU(0), FnProperty::kNormal, Context::CPU(0),
                 FnProperty::kNormal);
}

TEST_P(ThreadedEngineTest, HigherPriorityRunsFirstAmongReadyFunctions) {
  // A single worker, kept busy while ready functions of mixed priority queue up behind it.
  auto eng = MakeEngine(GetParam(), {{"MXNET_CPU_WORKER_NTHREADS", "1"}});
  VarHandle blocker_var = eng->NewVariable();
  std::atomic<bool> started{false}, release{false};
  eng->PushSync(
      [&](RunContext) {
        started = true;
        WaitUntil([&]() { return release.load(); });
      },
      Context::CPU(), {}, {blocker_var});
  ASSERT_TRUE(WaitUntil([&]() { return started.load(); }));
  const int priorities[] = {0, 10, -3, 5, 0, 10, 5, -3, 0, 10};
  std::vector<int> ran;  // appended by the single worker only
  std::vector<VarHandle> vars;
  for (int i = 0; i < 10; ++i) {
    vars.push_back(eng->NewVariable());
    eng->PushSync([&ran, i](RunContext) { ran.push_back(i); }, Context::CPU(), {}, {vars.back()},
                  FnProperty::kNormal, priorities[i]);
  }
  release = true;
  eng->WaitForAll();
  // Priority order, push order within a priority.
  EXPECT_EQ(ran, (std::vector<int>{1, 5, 9, 3, 6, 0, 4, 8, 2, 7}));
  for (VarHandle v : vars) eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), blocker_var);
}

TEST_P(ThreadedEngineTest, StopFinishesWorkAndStartResumes) {
  VarHandle v = eng_->NewVariable();
  int count = 0;
  for (int i = 0; i < 50; ++i) eng_->PushSync([&count](RunContext) { ++count; }, Context::CPU(), {}, {v});
  eng_->Stop();
  EXPECT_EQ(count, 50);
  eng_->Start();
  for (int i = 0; i < 50; ++i) eng_->PushSync([&count](RunContext) { ++count; }, Context::CPU(), {}, {v});
  eng_->WaitForAll();
  EXPECT_EQ(count, 100);
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
}

// ------------------------------------------------------------------------------------------
// Shutdown
// ------------------------------------------------------------------------------------------

TEST_P(EngineTest, DestroyingTheEngineFinishesQueuedWork) {
  std::atomic<int> done{0};
  {
    auto eng = MakeEngine(GetParam());
    VarHandle chain = eng->NewVariable();
    for (int i = 0; i < 40; ++i) {
      eng->PushSync(
          [&done](RunContext) {
            std::this_thread::sleep_for(std::chrono::microseconds(300));
            ++done;
          },
          Context::CPU(), {}, {chain});
      VarHandle own = eng->NewVariable();
      eng->PushSync([&done](RunContext) { ++done; }, Context::CPU(i % 3), {}, {own},
                    i % 2 ? FnProperty::kCPUPrioritized : FnProperty::kNormal);
      eng->DeleteVariable([&done](RunContext) { ++done; }, Context::CPU(), own);
    }
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), chain);
    eng->NotifyShutdown();
    // Still accepted after NotifyShutdown.
    VarHandle late = eng->NewVariable();
    eng->PushSync([&done](RunContext) { ++done; }, Context::CPU(), {}, {late});
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), late);
  }  // destroyed with work pending
  EXPECT_EQ(done.load(), 40 * 3 + 1);
}

// ------------------------------------------------------------------------------------------
// Errors (threaded engines): captured, propagated to written vars, rethrown at waits
// ------------------------------------------------------------------------------------------

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Expect WaitForVar(v) to rethrow ErrorT whose message starts with `original` and names `op`.
template <typename ErrorT>
void ExpectRethrow(Engine* eng, VarHandle v, const std::string& original, const std::string& op) {
  try {
    eng->WaitForVar(v);
    ADD_FAILURE() << "WaitForVar did not rethrow";
  } catch (const ErrorT& e) {
    const std::string msg = e.what();
    EXPECT_TRUE(StartsWith(msg, original)) << msg;
    EXPECT_NE(msg.find("Error in operator " + op), std::string::npos) << msg;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception type: " << e.what();
  }
}

TEST_P(ThreadedEngineTest, ErrorPoisonsOutputsAndSkipsDependents) {
  VarHandle in = eng_->NewVariable(), out1 = eng_->NewVariable(), out2 = eng_->NewVariable();
  VarHandle downstream = eng_->NewVariable(), nosk = eng_->NewVariable();
  VarHandle other = eng_->NewVariable();
  std::atomic<bool> dependent_ran{false}, independent_ran{false}, noskip_ran{false};
  std::atomic<bool> reader_of_input_ran{false};
  eng_->PushSync([](RunContext) { throw ValueError("bad shape (2, 3)"); }, Context::CPU(), {in},
                 {out1, out2}, FnProperty::kNormal, 0, "failing_op");
  eng_->PushSync([&](RunContext) { dependent_ran = true; }, Context::CPU(), {out1}, {downstream},
                 FnProperty::kNormal, 0, "dependent_op");
  eng_->PushSync([&](RunContext) { noskip_ran = true; }, Context::CPU(), {out2}, {nosk},
                 FnProperty::kNoSkip, 0, "noskip_op");
  eng_->PushSync([&](RunContext) { independent_ran = true; }, Context::CPU(), {}, {other});
  eng_->PushSync([&](RunContext) { reader_of_input_ran = true; }, Context::CPU(), {in}, {});

  // The dependent inherited the error (still named after the op that raised it).
  ExpectRethrow<ValueError>(eng_.get(), downstream, "bad shape (2, 3)", "failing_op");
  EXPECT_FALSE(dependent_ran.load());
  // Rethrown once: cleared, here and wherever the same error was attached.
  EXPECT_NO_THROW(eng_->WaitForVar(downstream));
  EXPECT_NO_THROW(eng_->WaitForVar(out1));
  EXPECT_NO_THROW(eng_->WaitForVar(nosk));
  EXPECT_TRUE(noskip_ran.load());
  EXPECT_NO_THROW(eng_->WaitForVar(other));
  EXPECT_TRUE(independent_ran.load());
  EXPECT_NO_THROW(eng_->WaitForVar(in));  // only written vars are poisoned
  EXPECT_TRUE(reader_of_input_ran.load());
  EXPECT_NO_THROW(eng_->WaitForAll());

  // Usable afterwards, on the same variables.
  int x = 0;
  eng_->PushSync([&x](RunContext) { x = 7; }, Context::CPU(), {in}, {out1});
  eng_->WaitForVar(out1);
  EXPECT_EQ(x, 7);
  for (VarHandle v : {in, out1, out2, downstream, nosk, other}) {
    eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  }
  eng_->WaitForAll();
}

TEST_P(ThreadedEngineTest, WaitForVarRethrowsOnce) {
  VarHandle v = eng_->NewVariable();
  eng_->PushSync([](RunContext) { throw TypeError("wrong dtype"); }, Context::CPU(), {}, {v},
                 FnProperty::kNormal, 0, "typed_op");
  ExpectRethrow<TypeError>(eng_.get(), v, "wrong dtype", "typed_op");
  EXPECT_NO_THROW(eng_->WaitForVar(v));
  EXPECT_NO_THROW(eng_->WaitForAll());  // the global list entry went with it
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(ThreadedEngineTest, WaitForAllRethrowsTheFirstAndClearsAll) {
  VarHandle order = eng_->NewVariable(), a = eng_->NewVariable(), b = eng_->NewVariable();
  // The second failure writes `order`, which the first only reads: it runs after the first
  // completed (and is not poisoned by it).
  eng_->PushSync([](RunContext) { throw IndexError("first failure"); }, Context::CPU(), {order},
                 {a}, FnProperty::kNormal, 0, "first_op");
  eng_->PushSync([](RunContext) { throw ValueError("second failure"); }, Context::CPU(), {},
                 {order, b}, FnProperty::kNormal, 0, "second_op");
  try {
    eng_->WaitForAll();
    ADD_FAILURE() << "WaitForAll did not rethrow";
  } catch (const IndexError& e) {
    EXPECT_TRUE(StartsWith(e.what(), "first failure")) << e.what();
    EXPECT_NE(std::string(e.what()).find("first_op"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(eng_->WaitForAll());
  // Cleared on the variables as well.
  EXPECT_NO_THROW(eng_->WaitForVar(a));
  EXPECT_NO_THROW(eng_->WaitForVar(b));
  int runs = 0;
  eng_->PushSync([&runs](RunContext) { ++runs; }, Context::CPU(), {a, b}, {order});
  eng_->WaitForAll();
  EXPECT_EQ(runs, 1);
  for (VarHandle v : {order, a, b}) eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(ThreadedEngineTest, ErrorHandedToTheCallbackFromAnotherThread) {
  VarHandle v = eng_->NewVariable(), next = eng_->NewVariable();
  std::thread completer;
  std::mutex completer_mu;
  std::atomic<bool> next_ran{false};
  eng_->PushAsync(
      [&completer, &completer_mu](RunContext, CallbackOnComplete on_complete) {
        std::lock_guard<std::mutex> g(completer_mu);
        completer = std::thread([on_complete]() {
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          NotImplementedError err("no kernel for this dtype");
          on_complete(&err);
        });
      },
      Context::CPU(), {}, {v}, FnProperty::kAsync, 0, "async_op");
  eng_->PushSync([&](RunContext) { next_ran = true; }, Context::CPU(), {v}, {next});
  ExpectRethrow<NotImplementedError>(eng_.get(), next, "no kernel for this dtype", "async_op");
  EXPECT_FALSE(next_ran.load());
  {
    std::lock_guard<std::mutex> g(completer_mu);  // the pushing function may still be returning
    completer.join();
  }
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), next);
  eng_->WaitForAll();
}

TEST_P(ThreadedEngineTest, AnyExceptionIsCaught) {
  VarHandle a = eng_->NewVariable(), b = eng_->NewVariable(), c = eng_->NewVariable();
  eng_->PushSync([](RunContext) { throw std::logic_error("plain std exception"); },
                 Context::CPU(), {}, {a}, FnProperty::kNormal, 0, "std_op");
  eng_->PushSync([](RunContext) { throw 42; }, Context::CPU(), {}, {b}, FnProperty::kNormal, 0,
                 "int_op");
  eng_->PushAsync([](RunContext, CallbackOnComplete) { throw std::logic_error("unnamed"); },
                  Context::CPU(), {}, {c});
  // Named: becomes a dmlc::Error naming the operator.
  ExpectRethrow<dmlc::Error>(eng_.get(), a, "plain std exception", "std_op");
  ExpectRethrow<dmlc::Error>(eng_.get(), b, "unknown exception", "int_op");
  // Unnamed: the original exception, untouched.
  EXPECT_THROW(eng_->WaitForVar(c), std::logic_error);
  EXPECT_NO_THROW(eng_->WaitForAll());
  for (VarHandle v : {a, b, c}) eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

TEST_P(ThreadedEngineTest, DeleteVariableStillRunsOnAPoisonedVariable) {
  VarHandle v = eng_->NewVariable();
  std::atomic<bool> deleted{false};
  eng_->PushSync([](RunContext) { throw ValueError("boom"); }, Context::CPU(), {}, {v},
                 FnProperty::kNormal, 0, "boom_op");
  eng_->DeleteVariable([&](RunContext) { deleted = true; }, Context::CPU(), v);
  EXPECT_THROW(eng_->WaitForAll(), ValueError);
  EXPECT_TRUE(deleted.load());
}

TEST_P(ThreadedEngineTest, ManyErrorsDoNotAccumulate) {
  VarHandle v = eng_->NewVariable();
  for (int i = 0; i < 300; ++i) {
    eng_->PushSync([](RunContext) { throw ValueError("again"); }, Context::CPU(), {}, {v},
                   FnProperty::kNoSkip, 0, "again_op");
    EXPECT_THROW(eng_->WaitForVar(v), ValueError);
  }
  EXPECT_NO_THROW(eng_->WaitForAll());
  eng_->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng_->WaitForAll();
}

// ------------------------------------------------------------------------------------------
// Bounded backlog: WaitForCapacity
// ------------------------------------------------------------------------------------------

// A frontend that pushes far ahead of a stalled engine blocks once MXNET_ENGINE_MAX_INFLIGHT
// functions are pending, resumes when half have completed, and loses no work.
TEST(EngineCapacity, FrontendBlocksAtTheBoundAndResumes) {
  for (const char* type : {kPooled, kPerDevice}) {
    auto eng = MakeEngine(type, {{"MXNET_ENGINE_MAX_INFLIGHT", "16"}});
    VarHandle v = eng->NewVariable();
    std::atomic<bool> release{false};
    std::atomic<int> pushed{0}, ran{0};
    eng->PushSync([&](RunContext) { WaitUntil([&]() { return release.load(); }); },
                  Context::CPU(), {}, {v});
    std::thread frontend([&]() {
      for (int i = 0; i < 100; ++i) {
        eng->WaitForCapacity();
        eng->PushSync([&](RunContext) { ++ran; }, Context::CPU(), {}, {v});
        ++pushed;
      }
    });
    // The stalled head plus 15 more fill the bound: the frontend must stop there.
    EXPECT_TRUE(WaitUntil([&]() { return pushed.load() >= 15; }, 5)) << type;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(pushed.load(), 15) << type;
    EXPECT_EQ(ran.load(), 0) << type;
    release = true;
    frontend.join();
    eng->WaitForVar(v);
    EXPECT_EQ(ran.load(), 100) << type;
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
    eng->WaitForAll();
  }
}

// Engine workers and exempt threads (custom-operator workers, which pending work waits on)
// never block; neither does anything when the bound is 0.
TEST(EngineCapacity, WorkersExemptThreadsAndZeroBoundNeverBlock) {
  auto eng = MakeEngine(kPerDevice, {{"MXNET_ENGINE_MAX_INFLIGHT", "4"}});
  VarHandle v = eng->NewVariable();
  std::atomic<bool> release{false};
  eng->PushSync([&](RunContext) { WaitUntil([&]() { return release.load(); }); },
                Context::CPU(), {}, {v});
  for (int i = 0; i < 8; ++i) eng->PushSync([](RunContext) {}, Context::CPU(), {}, {v});
  std::atomic<bool> done{false};
  std::thread exempt([&]() {
    Engine::SetThreadThrottleExempt(true);
    for (int i = 0; i < 8; ++i) eng->WaitForCapacity();
    done = true;
  });
  EXPECT_TRUE(WaitUntil([&]() { return done.load(); }, 5));
  exempt.join();
  release = true;
  eng->WaitForAll();

  auto unbounded = MakeEngine(kPerDevice, {{"MXNET_ENGINE_MAX_INFLIGHT", "0"}});
  VarHandle u = unbounded->NewVariable();
  std::atomic<bool> go{false};
  unbounded->PushSync([&](RunContext) { WaitUntil([&]() { return go.load(); }); },
                      Context::CPU(), {}, {u});
  for (int i = 0; i < 64; ++i) {
    unbounded->WaitForCapacity();  // would block at any bound below 64
    unbounded->PushSync([](RunContext) {}, Context::CPU(), {}, {u});
  }
  go = true;
  unbounded->WaitForAll();
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  unbounded->DeleteVariable([](RunContext) {}, Context::CPU(), u);
  eng->WaitForAll();
  unbounded->WaitForAll();
}

}  // namespace
}  // namespace test
}  // namespace mxnet
