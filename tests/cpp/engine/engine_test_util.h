// Helpers shared by the engine tests: building an engine of a given type (with env overrides)
// and rendezvous with a timeout (to prove two functions really ran at the same time).
#ifndef MXNET_TESTS_CPP_ENGINE_ENGINE_TEST_UTIL_H_
#define MXNET_TESTS_CPP_ENGINE_ENGINE_TEST_UTIL_H_

#include <mxnet/engine.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/engine_impl.h"

namespace mxnet {
namespace test {

using engine::VarHandle;

const char* const kNaive = "NaiveEngine";
const char* const kPooled = "ThreadedEngine";
const char* const kPerDevice = "ThreadedEnginePerDevice";

/*! \brief Build an engine, with environment variables set only while it is constructed. */
inline std::unique_ptr<Engine> MakeEngine(
    const std::string& type, const std::vector<std::pair<const char*, const char*>>& env = {}) {
  for (auto& kv : env) setenv(kv.first, kv.second, 1);
  auto eng = engine::CreateEngine(type);
  for (auto& kv : env) unsetenv(kv.first);
  return eng;
}

/*! \brief Wait until pred() holds or `seconds` pass; returns pred(). */
template <typename Pred>
bool WaitUntil(Pred pred, double seconds = 20) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return pred();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return true;
}

/*! \brief n parties arrive; each waits (with timeout) for the others. */
class Rendezvous {
 public:
  explicit Rendezvous(int n) : n_(n) {}
  /*! \brief true if all n parties were present at the same time. */
  bool Arrive() {
    arrived_.fetch_add(1);
    return WaitUntil([this]() { return arrived_.load() >= n_; });
  }

 private:
  const int n_;
  std::atomic<int> arrived_{0};
};

}  // namespace test
}  // namespace mxnet

#endif  // MXNET_TESTS_CPP_ENGINE_ENGINE_TEST_UTIL_H_
