// Global C API functions: version, features.
#include <atomic>
#include <mxnet/base.h>
#include <mxnet/c_api.h>

#include <cstdlib>
#include <string>

#include "c_api_common.h"
#include "../operator/custom/custom-inl.h"

namespace {

// Order as the MXNet 1.9.1 wheel lists them; Python asks for TVM_OP and INT64_TENSOR_SIZE.
const LibFeature kFeatures[] = {
    {"CUDA", MXNET_USE_CUDA != 0},
#if MXNET_USE_CUDA && MXNET_USE_CUDNN
    {"CUDNN", true},
#else
    {"CUDNN", false},
#endif
#if MXNET_USE_CUDA && MXNET_USE_NCCL
    {"NCCL", true},
#else
    {"NCCL", false},
#endif
    {"CUDA_RTC", false},
    {"TENSORRT", false},
#if defined(__SSE__)
    {"CPU_SSE", true},
#else
    {"CPU_SSE", false},
#endif
#if defined(__SSE2__)
    {"CPU_SSE2", true},
#else
    {"CPU_SSE2", false},
#endif
#if defined(__SSE3__)
    {"CPU_SSE3", true},
#else
    {"CPU_SSE3", false},
#endif
#if defined(__SSE4_1__)
    {"CPU_SSE4_1", true},
#else
    {"CPU_SSE4_1", false},
#endif
#if defined(__SSE4_2__)
    {"CPU_SSE4_2", true},
#else
    {"CPU_SSE4_2", false},
#endif
    {"CPU_SSE4A", false},
#if defined(__AVX__)
    {"CPU_AVX", true},
#else
    {"CPU_AVX", false},
#endif
#if defined(__AVX2__)
    {"CPU_AVX2", true},
#else
    {"CPU_AVX2", false},
#endif
    {"OPENMP", MXNET_USE_OPENMP != 0},
    {"SSE", false},
    {"F16C", false},
    {"JEMALLOC", false},
#if defined(MXNET_USE_BLAS_OPEN)
    {"BLAS_OPEN", true},
#else
    {"BLAS_OPEN", false},
#endif
    {"BLAS_ATLAS", false},
    {"BLAS_MKL", false},
    {"BLAS_APPLE", false},
    {"LAPACK", false},
    {"MKLDNN", MXNET_USE_ONEDNN != 0},
    {"OPENCV", false},
    {"CAFFE", false},
    {"PROFILER", true},
    {"DIST_KVSTORE", MXNET_USE_MPI != 0},
    {"CXX14", true},
    {"INT64_TENSOR_SIZE", true},
    {"SIGNAL_HANDLER", false},
    {"DEBUG", false},
    {"TVM_OP", false},
};

}  // namespace

int MXGetVersion(int* out) {
  API_BEGIN();
  API_NOT_NULL(out);
  *out = MXNET_VERSION;
  API_END();
}

int MXLibInfoFeatures(const struct LibFeature** lib_features, size_t* size) {
  API_BEGIN();
  API_NOT_NULL(lib_features);
  API_NOT_NULL(size);
  *lib_features = kFeatures;
  *size = sizeof(kFeatures) / sizeof(kFeatures[0]);
  API_END();
}

// ------------------------------------------------------------------ runtime controls

#include <mxnet/engine.h>
#include <mxnet/resource.h>
#include <mxnet/storage.h>
#if MXNET_USE_OPENMP
#include <omp.h>
#endif

int MXNotifyShutdown() {
  API_BEGIN();
  mxnet::Engine::Get()->NotifyShutdown();
  mxnet::Engine::Get()->WaitForAll();
  // Frontend (Python) callbacks of custom operators must not run after this.
  mxnet::op::custom::NotifyShutdown();
  API_END();
}

int MXRandomSeed(int seed) {
  API_BEGIN();
  mxnet::ResourceManager::Get()->SeedRandom(static_cast<uint32_t>(seed));
  API_END();
}

int MXRandomSeedContext(int seed, int dev_type, int dev_id) {
  API_BEGIN();
  mxnet::Context ctx =
      mxnet::Context::Create(static_cast<mxnet::Context::DeviceType>(dev_type), dev_id);
  mxnet::ResourceManager::Get()->SeedRandom(ctx, static_cast<uint32_t>(seed));
  API_END();
}

int MXSetNumOMPThreads(int thread_num) {
  API_BEGIN();
  if (thread_num < 1) throw mxnet::ValueError("thread_num must be positive, got " + std::to_string(thread_num));
#if MXNET_USE_OPENMP
  omp_set_num_threads(thread_num);
#endif
  API_END();
}

int MXEngineSetBulkSize(int bulk_size, int* prev_bulk_size) {
  API_BEGIN();
  API_NOT_NULL(prev_bulk_size);
  *prev_bulk_size = mxnet::Engine::Get()->set_bulk_size(bulk_size);
  API_END();
}

int MXGetGPUCount(int* out) {
  API_BEGIN();
  API_NOT_NULL(out);
  *out = mxnet::Context::GetGPUCount();
  API_END();
}

int MXGetGPUMemoryInformation64(int dev, uint64_t* free_mem, uint64_t* total_mem) {
  API_BEGIN();
  mxnet::Context::GetGPUMemoryInformation(dev, free_mem, total_mem);
  API_END();
}

int MXGetGPUMemoryInformation(int dev, int* free_mem, int* total_mem) {
  API_BEGIN();
  uint64_t free64 = 0, total64 = 0;
  mxnet::Context::GetGPUMemoryInformation(dev, &free64, &total64);
  // Deprecated in 1.x for this reason: byte counts above 2 GiB do not fit an int.
  *free_mem = static_cast<int>(free64);
  *total_mem = static_cast<int>(total64);
  API_END();
}

int MXStorageEmptyCache(int dev_type, int dev_id) {
  API_BEGIN();
  mxnet::Storage::Get()->ReleaseAll(
      mxnet::Context::Create(static_cast<mxnet::Context::DeviceType>(dev_type), dev_id));
  API_END();
}

// Registries Python lists at import; this build has no entries in them (yet).
int MXListFunctions(uint32_t* out_size, FunctionHandle** out_array) {
  API_BEGIN();
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_array);
  *out_size = 0;
  *out_array = nullptr;
  API_END();
}

int MXNetFuncListGlobalNames(int* out_size, const char*** out_array) {
  API_BEGIN();
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_array);
  *out_size = 0;
  *out_array = nullptr;
  API_END();
}

int MXKVStoreIsWorkerNode(int* ret) {
  API_BEGIN();
  API_NOT_NULL(ret);
  const char* role = std::getenv("DMLC_ROLE");
  *ret = (role == nullptr || std::string(role) == "worker") ? 1 : 0;
  API_END();
}

namespace {
// NumPy shape semantics (mx.np): 1 = on for this thread, 2 = on for every thread (MXNet's
// GlobalOn). The core always uses NumPy shapes; the flag only tells the front end which
// conventions it asked for (the C API reports a none array as ndim -1 while it is on).
thread_local int tls_np_shape = -1;   // -1: not set in this thread, use the global value
std::atomic<int> global_np_shape{0};
}  // namespace

namespace mxnet {
namespace c_api {
bool IsNumpyShape() {
  const int v = tls_np_shape >= 0 ? tls_np_shape : global_np_shape.load();
  return v != 0;
}
}  // namespace c_api
}  // namespace mxnet

int MXIsNumpyShape(int* curr) {
  API_BEGIN();
  API_NOT_NULL(curr);
  *curr = tls_np_shape >= 0 ? tls_np_shape : global_np_shape.load();
  API_END();
}

int MXSetIsNumpyShape(int is_np_shape, int* prev) {
  API_BEGIN();
  API_NOT_NULL(prev);
  if (is_np_shape < 0 || is_np_shape > 2) {
    throw mxnet::ValueError("MXSetIsNumpyShape: expected 0 (off), 1 (thread-local on) or 2 "
                            "(global on), got " + std::to_string(is_np_shape));
  }
  *prev = tls_np_shape >= 0 ? tls_np_shape : global_np_shape.load();
  if (is_np_shape == 2) {
    global_np_shape.store(2);
    tls_np_shape = -1;
  } else {
    if (is_np_shape == 0 && global_np_shape.load() == 2) global_np_shape.store(0);
    tls_np_shape = is_np_shape;
  }
  API_END();
}
