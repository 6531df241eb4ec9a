// Tests of src/resource.cc and the random generators: temp space growth and reuse, round-robin
// copies, seeding (reproducible, ordered with running users, per-device and per-copy seeds),
// and the parallel generator's determinism inside OpenMP loops.
#include <gtest/gtest.h>
#include <mshadow/random.h>
#include <mxnet/engine.h>
#include <mxnet/resource.h>
#include <mxnet/storage.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "common/random_generator.h"
#include "resource_internal.h"

namespace {

using mxnet::Context;
using mxnet::Engine;
using mxnet::Resource;
using mxnet::ResourceManager;
using mxnet::ResourceRequest;
using mxnet::RunContext;
using mxnet::cpu;
using mxnet::common::random::RandGenerator;

// Copy counts are read when the manager is first used: set them before any test runs.
const bool kEnvSet = [] {
  setenv("MXNET_CPU_TEMP_COPY", "3", 1);
  setenv("MXNET_CPU_PARALLEL_RAND_COPY", "2", 1);
  return true;
}();

/*! \brief Run fn as an engine function that writes r.var, and wait for it. */
template <typename Fn>
void RunOn(const Resource& r, Fn fn) {
  Engine::Get()->PushSync([&](RunContext rctx) { fn(rctx); }, Context::CPU(), {}, {r.var});
  Engine::Get()->WaitForVar(r.var);
}

std::vector<float> DrawUniform(size_t n) {
  Resource r = ResourceManager::Get()->Request(Context::CPU(), ResourceRequest::kRandom);
  std::vector<float> out(n);
  RunOn(r, [&](RunContext rctx) {
    r.get_random<cpu, float>(rctx.get_stream<cpu>())->SampleUniform(out.data(), n, 0.f, 1.f);
  });
  return out;
}

/*! \brief n values from every state of one parallel-random copy, chunked as kernels do. */
std::vector<float> DrawParallel(const Resource& r, size_t n) {
  typedef RandGenerator<cpu, float> Gen;
  std::vector<float> out(n);
  RunOn(r, [&](RunContext) {
    Gen* gen = r.get_parallel_random<cpu, float>();
    const int64_t nchunk = Gen::kNumRandomStates;
    const int64_t step = (static_cast<int64_t>(n) + nchunk - 1) / nchunk;
#pragma omp parallel for
    for (int64_t id = 0; id < nchunk; ++id) {
      Gen::Impl rng(gen, static_cast<int>(id));
      for (int64_t i = id * step; i < std::min<int64_t>(n, (id + 1) * step); ++i) {
        out[i] = rng.uniform();
      }
    }
  });
  return out;
}

TEST(ResourceTempSpace, GrowsAndIsReused) {
  Resource r = ResourceManager::Get()->Request(Context::CPU(), ResourceRequest::kTempSpace);
  EXPECT_EQ(r.req.type, ResourceRequest::kTempSpace);
  ASSERT_NE(r.var, nullptr);
  RunOn(r, [&](RunContext) {
    void* small = r.get_space_internal(100);
    ASSERT_NE(small, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % 64, 0u);
    EXPECT_EQ(r.get_space_internal(50), small);  // fits: same block
    std::memset(small, 1, 100);
    void* big = r.get_space_internal(1 << 20);  // grows
    std::memset(big, 2, 1 << 20);
    EXPECT_EQ(r.get_space_internal(100), big);  // never shrinks
    float* f = r.get_space_typed_ptr<float>(1000);
    EXPECT_EQ(static_cast<void*>(f), big);
    double* host = r.get_host_space_typed_ptr<double>(10);
    ASSERT_NE(host, nullptr);
    EXPECT_NE(static_cast<void*>(host), big);  // a separate host block
    host[9] = 1.0;
  });
}

TEST(ResourceTempSpace, CopiesRotateRoundRobin) {
  ResourceManager* rm = ResourceManager::Get();
  std::vector<Resource> rs;
  for (int i = 0; i < 6; ++i) rs.push_back(rm->Request(Context::CPU(), ResourceRequest::kTempSpace));
  std::set<mxnet::engine::VarHandle> vars;
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(rs[i].id, (rs[0].id + i) % 3) << "MXNET_CPU_TEMP_COPY=3";
    vars.insert(rs[i].var);
    if (i >= 3) {
      EXPECT_EQ(rs[i].var, rs[i - 3].var);
      EXPECT_EQ(rs[i].ptr_, rs[i - 3].ptr_);
    }
  }
  EXPECT_EQ(vars.size(), 3u);  // one engine variable per copy
}

TEST(ResourceTempSpace, ConcurrentUsersOfCopiesDoNotInterfere) {
  ResourceManager* rm = ResourceManager::Get();
  constexpr int kOps = 60;
  std::vector<int> bad(kOps, 0);
  for (int op = 0; op < kOps; ++op) {
    Resource r = rm->Request(Context::CPU(), ResourceRequest::kTempSpace);
    Engine::Get()->PushSync(
        [r, op, &bad](RunContext) {
          const size_t n = 1000 + 997 * op;
          int* p = r.get_space_typed_ptr<int>(n);
          for (size_t i = 0; i < n; ++i) p[i] = op;
          std::this_thread::yield();
          for (size_t i = 0; i < n; ++i) bad[op] += p[i] != op;
        },
        Context::CPU(), {}, {r.var});
  }
  Engine::Get()->WaitForAll();
  for (int op = 0; op < kOps; ++op) EXPECT_EQ(bad[op], 0) << op;
}

TEST(ResourceRandom, OneGeneratorPerDevice) {
  ResourceManager* rm = ResourceManager::Get();
  Resource a = rm->Request(Context::CPU(), ResourceRequest::kRandom);
  Resource b = rm->Request(Context::CPU(), ResourceRequest::kRandom);
  EXPECT_EQ(a.req.type, ResourceRequest::kRandom);
  EXPECT_EQ(a.var, b.var);
  EXPECT_EQ(a.ptr_, b.ptr_);
  EXPECT_THROW(a.get_space_internal(10), dmlc::Error);  // wrong kind of resource
}

TEST(ResourceRandom, SeedGivesTheSameStreamEveryTime) {
  ResourceManager* rm = ResourceManager::Get();
  rm->SeedRandom(42);
  const std::vector<float> a = DrawUniform(100);
  rm->SeedRandom(42);
  const std::vector<float> b = DrawUniform(100);
  EXPECT_EQ(a, b);
  rm->SeedRandom(43);
  EXPECT_NE(DrawUniform(100), a);
  rm->SeedRandom(Context::CPU(), 42);  // one device, same per-device seed
  EXPECT_EQ(DrawUniform(100), a);

  // The stream is the one of seed dev_id + 42 * 127 on cpu (dev_id 0).
  mshadow::Random<cpu, float> ref(mxnet::resource::DeviceSeed(0, 42));
  std::vector<float> expect(100);
  ref.SampleUniform(expect.data(), 100, 0.f, 1.f);
  EXPECT_EQ(a, expect);
}

TEST(ResourceRandom, SeedingWaitsForRunningUsers) {
  ResourceManager* rm = ResourceManager::Get();
  Resource r = rm->Request(Context::CPU(), ResourceRequest::kRandom);
  rm->SeedRandom(1);
  std::vector<float> first(10), second(10);
  Engine::Get()->PushSync(
      [&](RunContext) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        r.get_random<cpu, float>(nullptr)->SampleUniform(first.data(), 10, 0.f, 1.f);
      },
      Context::CPU(), {}, {r.var});
  rm->SeedRandom(7);  // must apply after the draw above, before the one below
  Engine::Get()->PushSync(
      [&](RunContext) {
        r.get_random<cpu, float>(nullptr)->SampleUniform(second.data(), 10, 0.f, 1.f);
      },
      Context::CPU(), {}, {r.var});
  Engine::Get()->WaitForVar(r.var);
  mshadow::Random<cpu, float> ref1(mxnet::resource::DeviceSeed(0, 1));
  mshadow::Random<cpu, float> ref7(mxnet::resource::DeviceSeed(0, 7));
  std::vector<float> e1(10), e7(10);
  ref1.SampleUniform(e1.data(), 10, 0.f, 1.f);
  ref7.SampleUniform(e7.data(), 10, 0.f, 1.f);
  EXPECT_EQ(first, e1);
  EXPECT_EQ(second, e7);
}

TEST(ResourceRandom, SeedFormulasSeparateDevicesAndCopies) {
  using mxnet::resource::DeviceSeed;
  using mxnet::resource::ParallelCopySeed;
  EXPECT_EQ(DeviceSeed(0, 0), 0u);
  EXPECT_EQ(DeviceSeed(1, 5), 1u + 5u * 127u);
  EXPECT_EQ(ParallelCopySeed(2, 3, 5), 2u + 3u * 16u + 5u * 127u);
  // Devices 0 and 1 seeded with the same global seed draw different streams.
  mshadow::Random<cpu, float> dev0(DeviceSeed(0, 9)), dev1(DeviceSeed(1, 9));
  std::vector<float> a(50), b(50);
  dev0.SampleUniform(a.data(), 50, 0.f, 1.f);
  dev1.SampleUniform(b.data(), 50, 0.f, 1.f);
  EXPECT_NE(a, b);
}

TEST(ResourceParallelRandom, ReproducibleAndDistinctPerCopy) {
  ResourceManager* rm = ResourceManager::Get();
  Resource c0 = rm->Request(Context::CPU(), ResourceRequest::kParallelRandom);
  Resource c1 = rm->Request(Context::CPU(), ResourceRequest::kParallelRandom);
  Resource c2 = rm->Request(Context::CPU(), ResourceRequest::kParallelRandom);
  EXPECT_NE(c0.var, c1.var);  // MXNET_CPU_PARALLEL_RAND_COPY=2
  EXPECT_EQ(c0.var, c2.var);
  EXPECT_EQ(c0.req.type, ResourceRequest::kParallelRandom);

  const size_t n = 100000;
  rm->SeedRandom(5);
  const std::vector<float> a0 = DrawParallel(c0, n), a1 = DrawParallel(c1, n);
  rm->SeedRandom(5);
  EXPECT_EQ(DrawParallel(c0, n), a0);
  EXPECT_EQ(DrawParallel(c1, n), a1);
  EXPECT_NE(a0, a1);  // copies have different seeds
  rm->SeedRandom(6);
  EXPECT_NE(DrawParallel(c0, n), a0);

  // Same as a serial draw from a generator seeded with the copy's seed.
  typedef RandGenerator<cpu, float> Gen;
  Gen ref;
  Gen::AllocState(&ref);
  ref.Seed(mxnet::resource::ParallelCopySeed(0, c0.id, 5));
  const size_t step = (n + Gen::kNumRandomStates - 1) / Gen::kNumRandomStates;
  for (size_t i = 0; i < n; i += 9973) {
    Gen::Impl rng(&ref, static_cast<int>(i / step));
    float v = 0;
    for (size_t k = (i / step) * step; k <= i; ++k) v = rng.uniform();
    EXPECT_EQ(v, a0[i]) << i;
  }
  Gen::FreeState(&ref);
}

TEST(ResourceRequestErrors, GPUWithoutCUDA) {
#if !MXNET_USE_CUDA
  try {
    ResourceManager::Get()->Request(Context::GPU(0), ResourceRequest::kTempSpace);
    FAIL() << "expected an error";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("GPU support is not compiled in"), std::string::npos);
  }
  EXPECT_THROW(ResourceManager::Get()->SeedRandom(Context::GPU(0), 1), dmlc::Error);
#endif
}

template <typename DType>
void CheckMoments(const std::vector<DType>& v, double mean, double stddev, double tol) {
  double s = 0, s2 = 0;
  for (DType x : v) {
    s += static_cast<double>(x);
    s2 += static_cast<double>(x) * static_cast<double>(x);
  }
  const double m = s / v.size();
  EXPECT_NEAR(m, mean, tol);
  EXPECT_NEAR(std::sqrt(s2 / v.size() - m * m), stddev, tol);
}

TEST(MshadowRandom, UniformAndGaussianForEveryFloatType) {
  mshadow::Random<cpu, float> rf(3);
  std::vector<float> f(100001);
  rf.SampleUniform(f.data(), f.size(), -2.f, 4.f);
  for (float x : f) {
    ASSERT_GE(x, -2.f);
    ASSERT_LT(x, 4.f);
  }
  CheckMoments(f, 1.0, 6.0 / std::sqrt(12.0), 0.05);
  rf.SampleGaussian(f.data(), f.size(), 1.f, 3.f);  // odd count: last value unpaired
  CheckMoments(f, 1.0, 3.0, 0.05);

  mshadow::Random<cpu, double> rd(3);
  std::vector<double> d(100000);
  rd.SampleGaussian(d.data(), d.size(), -1.0, 0.5);
  CheckMoments(d, -1.0, 0.5, 0.02);

  mshadow::Random<cpu, mshadow::half::half_t> rh(3);
  std::vector<mshadow::half::half_t> h(50000);
  rh.SampleUniform(h.data(), h.size(), mshadow::half::half_t(0.f), mshadow::half::half_t(1.f));
  std::vector<float> hf(h.begin(), h.end());
  CheckMoments(hf, 0.5, std::sqrt(1.0 / 12.0), 0.02);

  // Reseeding restarts the sequence; GetRandInt draws raw bits.
  rf.Seed(11);
  const uint32_t x = rf.GetRandInt();
  rf.Seed(11);
  EXPECT_EQ(rf.GetRandInt(), x);
  EXPECT_EQ(rf.GetSeed(), 11u);
}

TEST(ParallelRandomImpl, RangesAndMoments) {
  typedef RandGenerator<cpu, double> Gen;
  Gen gen;
  Gen::AllocState(&gen);
  gen.Seed(123);
  Gen::Impl rng(&gen, 17);
  std::vector<double> u(50000), z(50000);
  for (auto& v : u) {
    v = rng.uniform();
    ASSERT_GE(v, 0.0);
    ASSERT_LT(v, 1.0);
  }
  for (auto& v : z) v = rng.normal();
  CheckMoments(u, 0.5, std::sqrt(1.0 / 12.0), 0.01);
  CheckMoments(z, 0.0, 1.0, 0.02);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_GE(rng.rand(), 0);
    ASSERT_GE(rng.rand_int64(), 0);
  }
  Gen::FreeState(&gen);
}

}  // namespace
