// Engine overhead: push+run of empty functions, per engine.
//
//   ./build/engine_bench [num_pushes=1000000] [engine ...]
//
// For each engine prints, for N pushes of an empty PushSync function followed by WaitForAll:
//   chain       every push writes the same variable (fully serialized)
//   indep64     pushes write 64 variables round-robin (independent neighbours)
// the push rate (pushes per second seen by the pushing thread), the amortized cost of a
// push+run (ns, total time including the final WaitForAll / N) and the CPU time the pushing
// thread spent per push (less sensitive to other load on the machine). Then the round trip of
// "push one function, WaitForVar on its variable", and WaitForVar on an idle variable.
// Dependency vectors are built once: this measures the engine, not std::vector.
#include <mxnet/engine.h>

#include <algorithm>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../src/engine/engine_impl.h"

using mxnet::Context;
using mxnet::Engine;
using mxnet::RunContext;
using mxnet::engine::VarHandle;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void Throughput(Engine* eng, const char* label, int nvars, long n) {
  std::vector<VarHandle> vars(nvars);
  std::vector<std::vector<VarHandle>> writes(nvars);
  for (int i = 0; i < nvars; ++i) {
    vars[i] = eng->NewVariable();
    writes[i] = {vars[i]};
  }
  const std::vector<VarHandle> none;
  const Context ctx = Context::CPU();
  // Warm up the pools and start the workers.
  for (long i = 0; i < 10000; ++i) eng->PushSync([](RunContext) {}, ctx, none, writes[i % nvars]);
  eng->WaitForAll();

  const double c0 = ThreadCpuSeconds();
  const auto t0 = Clock::now();
  for (long i = 0; i < n; ++i) eng->PushSync([](RunContext) {}, ctx, none, writes[i % nvars]);
  const auto t1 = Clock::now();
  const double c1 = ThreadCpuSeconds();
  eng->WaitForAll();
  const auto t2 = Clock::now();
  std::printf("  %-8s pushes/s %6.2f M   push+run %6.1f ns   pusher CPU/push %6.1f ns"
              "   (push loop %.3f s, total %.3f s)\n",
              label, n / Seconds(t0, t1) / 1e6, Seconds(t0, t2) / n * 1e9, (c1 - c0) / n * 1e9,
              Seconds(t0, t1), Seconds(t0, t2));
  for (VarHandle v : vars) eng->DeleteVariable([](RunContext) {}, ctx, v);
  eng->WaitForAll();
}

void WaitLatency(Engine* eng, long n) {
  VarHandle v = eng->NewVariable();
  const std::vector<VarHandle> none, w = {v};
  const Context ctx = Context::CPU();
  auto t0 = Clock::now();
  for (long i = 0; i < n; ++i) {
    eng->PushSync([](RunContext) {}, ctx, none, w);
    eng->WaitForVar(v);
  }
  auto t1 = Clock::now();
  for (long i = 0; i < n; ++i) eng->WaitForVar(v);
  auto t2 = Clock::now();
  std::printf("  push+WaitForVar round trip %7.1f ns   WaitForVar(idle var) %5.1f ns\n",
              Seconds(t0, t1) / n * 1e9, Seconds(t1, t2) / n * 1e9);
  eng->DeleteVariable([](RunContext) {}, ctx, v);
  eng->WaitForAll();
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 1000000;
  std::vector<std::string> types;
  for (int i = 2; i < argc; ++i) types.push_back(argv[i]);
  if (types.empty()) types = {"NaiveEngine", "ThreadedEngine", "ThreadedEnginePerDevice"};
  std::printf("engine_bench: %ld pushes of an empty function per case\n", n);
  for (const std::string& type : types) {
    auto eng = mxnet::engine::CreateEngine(type);
    std::printf("%s\n", type.c_str());
    Throughput(eng.get(), "chain", 1, n);
    Throughput(eng.get(), "indep64", 64, n);
    WaitLatency(eng.get(), std::max(1000L, n / 20));
  }
  return 0;
}
