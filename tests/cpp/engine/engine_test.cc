// Engine singleton, factory, DeduplicateVarHandle and error naming.
#include <gtest/gtest.h>
#include <mxnet/engine.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "./engine_test_util.h"

// LeakSanitizer judges a death test's child at its exit; one that exits from inside an engine
// function leaves by design what the engine still holds.
#if defined(__SANITIZE_ADDRESS__)
#define MXNET_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MXNET_TEST_ASAN 1
#endif
#endif
#ifdef MXNET_TEST_ASAN
#include <sanitizer/lsan_interface.h>
#define MXNET_TEST_IGNORE_LEAKS_FROM_HERE() __lsan_disable()
#else
#define MXNET_TEST_IGNORE_LEAKS_FROM_HERE() (void)0
#endif

namespace mxnet {
namespace test {
namespace {

TEST(EngineFactory, BuildsEveryEngineByName) {
  for (const char* type :
       {kNaive, kPooled, "ThreadedEnginePooled", kPerDevice}) {
    auto eng = engine::CreateEngine(type);
    ASSERT_NE(eng, nullptr) << type;
    VarHandle v = eng->NewVariable();
    int x = 0;
    eng->PushSync([&x](RunContext) { x = 1; }, Context::CPU(), {}, {v});
    eng->WaitForVar(v);
    EXPECT_EQ(x, 1) << type;
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
    eng->WaitForAll();
  }
}

TEST(EngineFactory, UnknownTypeIsAnError) {
  try {
    engine::CreateEngine("FancyEngine");
    ADD_FAILURE() << "no error";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Cannot find Engine FancyEngine"), std::string::npos)
        << e.what();
  }
}

TEST(Engine, DeduplicateVarHandle) {
  auto eng = engine::CreateEngine(kNaive);
  std::vector<VarHandle> v;
  for (int i = 0; i < 4; ++i) v.push_back(eng->NewVariable());
  std::vector<VarHandle> read = {v[0], v[1], v[0], v[2], v[3]};
  std::vector<VarHandle> write = {v[2], v[3], v[2]};
  Engine::DeduplicateVarHandle(&read, &write);
  std::vector<VarHandle> want_read = {v[0], v[1]}, want_write = {v[2], v[3]};
  std::sort(want_read.begin(), want_read.end());
  std::sort(want_write.begin(), want_write.end());
  EXPECT_EQ(read, want_read);
  EXPECT_EQ(write, want_write);
  for (VarHandle x : v) eng->DeleteVariable([](RunContext) {}, Context::CPU(), x);
}

TEST(Engine, DuplicateVariablesInAPushAreRejected) {
  auto eng = engine::CreateEngine(kPerDevice);
  VarHandle v = eng->NewVariable();
  EXPECT_THROW(eng->PushSync([](RunContext) {}, Context::CPU(), {v}, {v}), dmlc::Error);
  EXPECT_THROW(eng->PushSync([](RunContext) {}, Context::CPU(), {}, {v, v}), dmlc::Error);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng->WaitForAll();
}

TEST(Engine, NameOperatorErrorKeepsTheTypedClass) {
  auto named = engine::NameOperatorError(ValueError("original"), "my_op");
  try {
    std::rethrow_exception(named);
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()), "original\nError in operator my_op");
    EXPECT_STREQ(e.type_name(), "ValueError");
  }
  dmlc::ParamError pe("bad kwarg");
  try {
    std::rethrow_exception(engine::NameOperatorError(pe, nullptr));
  } catch (const dmlc::ParamError& e) {
    EXPECT_STREQ(e.what(), "bad kwarg");
  }
}

TEST(Engine, SingletonIsSharedAndStable) {
  Engine* eng = Engine::Get();
  ASSERT_NE(eng, nullptr);
  EXPECT_EQ(Engine::Get(), eng);
  std::shared_ptr<Engine> ref = Engine::_GetSharedRef();
  EXPECT_EQ(ref.get(), eng);
  VarHandle v = eng->NewVariable();
  int x = 0;
  eng->PushSync([&x](RunContext) { x = 3; }, Context::CPU(), {}, {v});
  eng->WaitForVar(v);
  EXPECT_EQ(x, 3);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng->WaitForAll();
}

TEST(Engine, SingletonSurvivesFork) {
  Engine* eng = Engine::Get();
  VarHandle v = eng->NewVariable();
  int x = 0;
  for (int i = 0; i < 100; ++i) eng->PushSync([&x](RunContext) { ++x; }, Context::CPU(), {}, {v});
  const pid_t pid = fork();  // the engine finishes its work and joins its workers first
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(30);
    int y = 0;
    VarHandle w = eng->NewVariable();
    for (int i = 0; i < 100; ++i) {
      eng->PushSync([&y](RunContext) { ++y; }, Context::CPU(i % 2), {}, {w});
    }
    eng->WaitForVar(w);
    _exit(x == 100 && y == 100 ? 0 : 1);
  }
  EXPECT_EQ(x, 100);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  for (int i = 0; i < 100; ++i) eng->PushSync([&x](RunContext) { ++x; }, Context::CPU(), {}, {v});
  eng->WaitForVar(v);
  EXPECT_EQ(x, 200);
  eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  eng->WaitForAll();
}

// The process-wide engine is chosen once, from MXNET_ENGINE_TYPE: check it in child processes.
class EngineSelection : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

void UseEngineThenExit(const char* type) {
  if (type != nullptr) setenv("MXNET_ENGINE_TYPE", type, 1);
  try {
    Engine* eng = Engine::Get();
    VarHandle v = eng->NewVariable();
    // Work still queued at exit: the static engine finishes it while being destroyed.
    for (int i = 0; i < 20; ++i) {
      eng->PushSync([](RunContext) { std::this_thread::sleep_for(std::chrono::milliseconds(1)); },
                    Context::CPU(), {}, {v});
    }
    eng->PushSync([](RunContext) { std::fprintf(stderr, "last function ran\n"); },
                  Context::CPU(), {}, {v});
    eng->DeleteVariable([](RunContext) {}, Context::CPU(), v);
  } catch (const dmlc::Error& e) {
    std::fprintf(stderr, "caught: %s\n", e.what());
  }
  std::exit(0);
}

TEST_F(EngineSelection, DefaultIsQuiet) {
  EXPECT_EXIT(UseEngineThenExit(nullptr), ::testing::ExitedWithCode(0),
              "^last function ran\n$");
}

TEST_F(EngineSelection, NonDefaultChoiceIsLogged) {
  for (const char* type : {kNaive, kPooled}) {
    EXPECT_EXIT(UseEngineThenExit(type), ::testing::ExitedWithCode(0),
                std::string("MXNet start using engine: ") + type + "\n(.|\n)*last function ran");
  }
}

TEST_F(EngineSelection, ExitFromInsideAnEngineFunction) {
  auto body = []() {
    MXNET_TEST_IGNORE_LEAKS_FROM_HERE();
    Engine* eng = Engine::Get();
    VarHandle v = eng->NewVariable();
    eng->PushSync([](RunContext) { std::fprintf(stderr, "pending function\n"); },
                  Context::CPU(1), {}, {v});
    eng->PushSync([](RunContext) { std::exit(3); }, Context::CPU(), {}, {});
    eng->WaitForAll();
    std::exit(0);
  };
  EXPECT_EXIT(body(), ::testing::ExitedWithCode(3), "");
}

TEST_F(EngineSelection, UnknownChoiceIsAnError) {
  EXPECT_EXIT(UseEngineThenExit("NoSuchEngine"), ::testing::ExitedWithCode(0),
              "caught: Cannot find Engine NoSuchEngine");
}

}  // namespace
}  // namespace test
}  // namespace mxnet
