// NaiveEngine: synchronous execution on the pushing thread, errors raised from the push.
#include <gtest/gtest.h>
#include <mxnet/engine.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "./engine_test_util.h"

namespace mxnet {
namespace test {
namespace {

using engine::CallbackOnComplete;

TEST(NaiveEngine, RunsOnThePushingThreadBeforeReturning) {
  auto eng = MakeEngine(kNaive);
  VarHandle v = eng->NewVariable();
  std::thread::id ran_on;
  bool ran = false;
  eng->PushSync(
      [&](RunContext rctx) {
        ran_on = std::this_thread::get_id();
        ran = true;
        EXPECT_NE(rctx.stream, nullptr);  // CPU functions get a (stateless) stream
      },
      Context::CPU(), {}, {v});
  EXPECT_TRUE(ran);
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_EQ(v->version(), 1u);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
}

TEST(NaiveEngine, WaitsForAnAsyncFunctionCompletingElsewhere) {
  auto eng = MakeEngine(kNaive);
  VarHandle v = eng->NewVariable();
  std::atomic<bool> completed{false};
  std::thread worker;
  eng->PushAsync(
      [&](RunContext, CallbackOnComplete on_complete) {
        worker = std::thread([&completed, on_complete]() {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          completed = true;
          on_complete();
        });
      },
      Context::CPU(), {}, {v}, FnProperty::kAsync);
  EXPECT_TRUE(completed.load());
  worker.join();
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
}

TEST(NaiveEngine, ErrorsRaiseFromThePushWithTheOperatorName) {
  auto eng = MakeEngine(kNaive);
  VarHandle v = eng->NewVariable();
  try {
    eng->PushSync([](RunContext) { throw ValueError("negative scale"); }, Context::CPU(), {}, {v},
                  FnProperty::kNormal, 0, "_random_normal");
    ADD_FAILURE() << "no exception";
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("negative scale", 0), 0u) << msg;
    EXPECT_NE(msg.find("Error in operator _random_normal"), std::string::npos) << msg;
  }
  // Through the completion callback, from another thread.
  std::thread worker;
  EXPECT_THROW(eng->PushAsync(
                   [&worker](RunContext, CallbackOnComplete on_complete) {
                     worker = std::thread([on_complete]() {
                       TypeError err("bad type");
                       on_complete(&err);
                     });
                   },
                   Context::CPU(), {}, {v}, FnProperty::kAsync, 0, "async_op"),
               TypeError);
  worker.join();
  // Unnamed: the original exception.
  EXPECT_THROW(eng->PushSync([](RunContext) { throw std::logic_error("x"); }, Context::CPU(), {},
                             {v}),
               std::logic_error);
  // Nothing is deferred: waits are no-ops, and the engine goes on working.
  EXPECT_NO_THROW(eng->WaitForVar(v));
  EXPECT_NO_THROW(eng->WaitForAll());
  int x = 0;
  eng->PushSync([&x](RunContext) { x = 1; }, Context::CPU(), {}, {v});
  EXPECT_EQ(x, 1);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
}

TEST(NaiveEngine, OperatorsAndDeletion) {
  auto eng = MakeEngine(kNaive);
  VarHandle v = eng->NewVariable();
  int count = 0;
  auto op = eng->NewOperator(
      [&count](RunContext, CallbackOnComplete done) {
        ++count;
        done();
      },
      {}, {v}, FnProperty::kNormal, "counter");
  for (int i = 0; i < 3; ++i) eng->Push(op, Context::CPU());
  eng->DeleteOperator(op);
  EXPECT_EQ(count, 3);
  EXPECT_EQ(v->version(), 3u);
  bool deleted = false;
  eng->DeleteVariable([&deleted](RunContext) { deleted = true; }, Context::CPU(), v);
  EXPECT_TRUE(deleted);
}

}  // namespace
}  // namespace test
}  // namespace mxnet
