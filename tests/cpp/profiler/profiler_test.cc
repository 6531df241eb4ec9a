// Profiler recorder: engine operators are recorded only while running (and per kind), from
// any thread, with start <= end inside the wall-clock window; counts match the pushes.
#include <gtest/gtest.h>
#include <mxnet/engine.h>
#include <mxnet/profiler.h>

#include <chrono>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine_impl.h"

namespace mxnet {
namespace test {
namespace {

using profiler::Profiler;

class ProfilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Profiler::Get()->SetState(0);
    Profiler::Get()->Clear();
    Profiler::Get()->SetConfig({{"profile_all", "True"}, {"aggregate_stats", "True"}});
  }
  void TearDown() override {
    Profiler::Get()->SetState(0);
    Profiler::Get()->SetPaused(false);
    Profiler::Get()->SetConfig({{"profile_symbolic", "True"}, {"profile_imperative", "True"}});
    Profiler::Get()->Clear();
  }
};

/*! \brief (start, end) of each B/E pair of `name` in the trace, in order. */
std::vector<std::pair<uint64_t, uint64_t>> Spans(const std::string& trace,
                                                 const std::string& name) {
  std::regex re("\"name\": \"" + name + "\", \"cat\": \"operator\", \"ph\": \"([BE])\", "
                "\"ts\": ([0-9]+)");
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (std::sregex_iterator it(trace.begin(), trace.end(), re), end; it != end; ++it) {
    const uint64_t ts = std::stoull((*it)[2]);
    if ((*it)[1] == "B") {
      spans.emplace_back(ts, 0);
    } else {
      EXPECT_FALSE(spans.empty());
      spans.back().second = ts;
    }
  }
  return spans;
}

int CountInStats(const std::string& stats_json, const std::string& name) {
  std::smatch m;
  std::regex re("\"" + name + "\": \\{\\s*\"Count\": ([0-9]+)");
  return std::regex_search(stats_json, m, re) ? std::stoi(m[1]) : 0;
}

TEST_F(ProfilerTest, OffByDefaultAndWhenStopped) {
  EXPECT_EQ(profiler::RecordingMask(), 0);
  for (const char* type : {"NaiveEngine", "ThreadedEngine", "ThreadedEnginePerDevice"}) {
    auto eng = engine::CreateEngine(type);
    auto v = eng->NewVariable();
    eng->PushSync([](RunContext) {}, Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "quiet");
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
    eng->WaitForAll();
  }
  EXPECT_TRUE(Spans(Profiler::Get()->TraceJSON(), "quiet").empty());
}

TEST_F(ProfilerTest, RecordsEveryNamedPushOnEveryEngine) {
  const int kPushes = 25;
  for (const char* type : {"NaiveEngine", "ThreadedEngine", "ThreadedEnginePerDevice"}) {
    Profiler::Get()->Clear();
    auto eng = engine::CreateEngine(type);
    auto v = eng->NewVariable();
    const uint64_t t0 = profiler::NowMicros();
    Profiler::Get()->SetState(1);
    for (int i = 0; i < kPushes; ++i) {
      eng->PushSync([](RunContext) { std::this_thread::sleep_for(std::chrono::microseconds(50)); },
                    Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "sleepy");
      eng->PushSync([](RunContext) {}, Context::CPU(), {}, {v});  // unnamed: not recorded
    }
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
    eng->WaitForAll();
    Profiler::Get()->SetState(0);
    const uint64_t t1 = profiler::NowMicros();
    auto spans = Spans(Profiler::Get()->TraceJSON(), "sleepy");
    ASSERT_EQ(spans.size(), static_cast<size_t>(kPushes)) << type;
    for (const auto& s : spans) {
      EXPECT_LE(t0, s.first) << type;
      EXPECT_LE(s.first + 50, s.second) << type;  // the function slept 50us
      EXPECT_LE(s.second, t1) << type;
    }
    EXPECT_EQ(CountInStats(Profiler::Get()->AggregateStats(true, 0, false, false), "sleepy"),
              kPushes) << type;
  }
}

TEST_F(ProfilerTest, PerThreadBuffersFromManyThreads) {
  Profiler::Get()->SetState(1);
  const int kThreads = 4, kEach = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([]() {
      for (int i = 0; i < kEach; ++i) {
        const uint64_t s = profiler::NowMicros();
        profiler::RecordOperator("threaded_op", s, profiler::NowMicros());
      }
    });
  }
  for (auto& t : threads) t.join();
  Profiler::Get()->SetState(0);
  EXPECT_EQ(CountInStats(Profiler::Get()->AggregateStats(true, 0, false, false), "threaded_op"),
            kThreads * kEach);
  // Every thread has its own tid in the trace.
  std::string trace = Profiler::Get()->TraceJSON();
  std::regex re("\"name\": \"threaded_op\"[^}]*\"tid\": ([0-9]+)");
  std::set<std::string> tids;
  for (std::sregex_iterator it(trace.begin(), trace.end(), re), end; it != end; ++it) {
    tids.insert((*it)[1]);
  }
  EXPECT_EQ(tids.size(), static_cast<size_t>(kThreads));
}

TEST_F(ProfilerTest, PauseAndKinds) {
  auto eng = engine::CreateEngine("ThreadedEnginePerDevice");
  auto v = eng->NewVariable();
  auto push = [&](const char* name) {
    eng->PushSync([](RunContext) {}, Context::CPU(), {}, {v}, FnProperty::kNormal, 0, name);
  };
  Profiler::Get()->SetState(1);
  push("before_pause");
  eng->WaitForAll();
  Profiler::Get()->SetPaused(true);
  EXPECT_EQ(profiler::RecordingMask(), 0);
  push("while_paused");
  eng->WaitForAll();
  Profiler::Get()->SetPaused(false);
  // Executor operators (NewOperator + Push) are the symbolic kind.
  Profiler::Get()->SetConfig({{"profile_all", "False"}, {"profile_symbolic", "False"}});
  auto op = eng->NewOperator([](RunContext, Engine::CallbackOnComplete cb) { cb(); }, {}, {v},
                             FnProperty::kNormal, "symbolic_op");
  eng->Push(op, Context::CPU());
  push("imperative_op");
  eng->WaitForAll();
  Profiler::Get()->SetConfig({{"profile_symbolic", "True"}});
  eng->Push(op, Context::CPU());
  eng->WaitForAll();
  eng->DeleteOperator(op);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng->WaitForAll();
  Profiler::Get()->SetState(0);
  std::string trace = Profiler::Get()->TraceJSON();
  EXPECT_EQ(Spans(trace, "before_pause").size(), 1u);
  EXPECT_EQ(Spans(trace, "while_paused").size(), 0u);
  EXPECT_EQ(Spans(trace, "imperative_op").size(), 1u);
  EXPECT_EQ(Spans(trace, "symbolic_op").size(), 1u);
}

TEST_F(ProfilerTest, DumpConsumesAndResetForgetsStats) {
  Profiler::Get()->SetState(1);
  profiler::RecordOperator("once", 10, 20);
  Profiler::Get()->SetState(0);
  EXPECT_EQ(Spans(Profiler::Get()->TraceJSON(true), "once").size(), 1u);
  EXPECT_EQ(Spans(Profiler::Get()->TraceJSON(), "once").size(), 0u);  // consumed by the dump
  EXPECT_EQ(CountInStats(Profiler::Get()->AggregateStats(true, 0, false, true), "once"), 1);
  EXPECT_EQ(CountInStats(Profiler::Get()->AggregateStats(true, 0, false, false), "once"), 0);
}

TEST_F(ProfilerTest, BadConfigIsValueError) {
  EXPECT_THROW(Profiler::Get()->SetConfig({{"profile_everything", "True"}}), dmlc::ValueError);
  EXPECT_THROW(Profiler::Get()->SetConfig({{"profile_all", "maybe"}}), dmlc::ValueError);
  EXPECT_THROW(Profiler::Get()->SetState(2), dmlc::ValueError);
  EXPECT_THROW(Profiler::Get()->AggregateStats(false, 9, false, false), dmlc::ValueError);
}

}  // namespace
}  // namespace test
}  // namespace mxnet
