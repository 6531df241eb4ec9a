/*!
 * \file extension_gpu.cu
 * \brief The CUDA half of extension operator calls on a GPU (extension_gpu.h).
 */
#include "./extension_gpu.h"

#include <map>
#include <mutex>
#include <utility>

#include <mxnet/random_generator.h>
#include <mxnet/storage.h>

#include "../common/cuda_launch.h"

#if __has_include(<curand_kernel.h>)
#include <curand_kernel.h>
#define MXNET_EXT_HAS_CURAND 1
#else
#define MXNET_EXT_HAS_CURAND 0
#endif

namespace mxnet {
namespace ext_loader {
namespace {

struct AddIntoKernel {
  template <typename DType>
  __device__ static void Map(index_t i, DType* out, const DType* tmp) {
    out[i] = out[i] + tmp[i];
  }
};

#if MXNET_EXT_HAS_CURAND
// lib_api.h's MX_NUM_GPU_RANDOM_STATES: the libraries index the states up to it.
constexpr index_t kNumGpuRandomStates = 32768;

struct InitPhilox {
  __device__ static void Map(index_t i, curandStatePhilox4_32_10_t* states,
                             unsigned long long seed) {
    curand_init(seed, static_cast<unsigned long long>(i), 0, &states[i]);
  }
};
#endif

}  // namespace

void* GpuRandStates(const OpContext& ctx, const Resource& rand) {
#if MXNET_EXT_HAS_CURAND
  // One buffer per GPU and resource copy: calls holding the same copy run one at a time.
  static std::mutex mu;
  static std::map<std::pair<int, int>, void*> buffers;
  const Context dev = ctx.run_ctx.ctx;
  void* states = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu);
    void*& buffer = buffers[{dev.dev_id, rand.id}];
    if (buffer == nullptr) {  // kept for the process's life
      buffer = Storage::Get()->Alloc(kNumGpuRandomStates * sizeof(curandStatePhilox4_32_10_t),
                                     dev).dptr;
    }
    states = buffer;
  }
  auto* gen = rand.get_parallel_random<gpu, float>();
  const unsigned long long seed =
      (static_cast<unsigned long long>(gen->seed()) << 32) ^ gen->NextCall();
  common::cuda::LaunchMap<InitPhilox>(mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>()),
                                      kNumGpuRandomStates,
                                      static_cast<curandStatePhilox4_32_10_t*>(states), seed);
  return states;
#else
  (void)ctx;
  (void)rand;
  return nullptr;
#endif
}

void* CallStream(const OpContext& ctx) {
  return mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
}

void AddIntoOnGpu(const OpContext& ctx, const TBlob& out, const void* tmp) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    common::cuda::LaunchMap<AddIntoKernel>(stream, static_cast<index_t>(out.shape_.Size()),
                                           static_cast<DType*>(out.dptr_),
                                           static_cast<const DType*>(tmp));
  });
}

}  // namespace ext_loader
}  // namespace mxnet
