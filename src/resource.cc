// The resource manager: per-device temp space copies and random generators, each guarded by an
// engine variable. Resources are only ever touched from functions that write their variable,
// so no locking is needed inside them; seeding and deletion go through the engine the same way.
#include <mxnet/resource.h>
#include <mxnet/storage.h>

#include <array>
#include <atomic>
#include <mutex>
#include <memory>
#include <vector>

#include "./common/env_util.h"
#include "./resource_internal.h"

namespace mxnet {
namespace resource {

namespace {

size_t CopiesFromEnv(const char* name, int64_t fallback) {
  const int64_t n = common::GetEnvInt(name, fallback);
  if (n < 1 || n > 1024) {
    MX_THROW(ValueError) << name << ": expected a number of copies in 1..1024, got " << n;
  }
  return static_cast<size_t>(n);
}

}  // namespace

/*!
 * \brief Growable scratch block of one temp-space copy (device memory plus a host block).
 *        A copy is used by one function at a time (its engine variable is written by every
 *        user), and on CPU that function has returned before the next starts, so the old
 *        block can be given back to the pool as soon as a larger one is needed.
 */
struct SpaceAllocator {
  Context ctx;
  std::shared_ptr<Storage> storage;  // kept alive until the last deferred release
  Storage::Handle handle;
  Storage::Handle host_handle;

  void* GetSpace(size_t size) { return Grow(&handle, ctx, size); }
  void* GetHostSpace(size_t size) { return Grow(&host_handle, Context::CPU(), size); }

  void ReleaseAll() {
    Release(&handle);
    Release(&host_handle);
  }

 private:
  void* Grow(Storage::Handle* h, Context where, size_t size) {
    if (h->dptr != nullptr && h->size >= size) return h->dptr;
    Release(h);
    *h = storage->Alloc(size, where);
    return h->dptr;
  }
  void Release(Storage::Handle* h) {
    // A GPU block may still be read by kernels queued on the stream: bypass the pool so
    // nothing else gets it before the device is done (cudaFree synchronises).
    if (h->ctx.dev_type == Context::kGPU) {
      storage->DirectFree(*h);
    } else {
      storage->Free(*h);
    }
    *h = Storage::Handle();
  }
};

/*! \brief The copies of kTempSpace of one device, handed out round robin. */
class ResourceTempSpace {
 public:
  ResourceTempSpace(Context ctx, size_t ncopy) : ctx_(ctx), space_(ncopy), resource_(ncopy) {
    for (size_t i = 0; i < ncopy; ++i) {
      space_[i] = new SpaceAllocator();
      space_[i]->ctx = ctx;
      space_[i]->storage = Storage::_GetSharedRef();
      resource_[i].req = ResourceRequest(ResourceRequest::kTempSpace);
      resource_[i].var = Engine::Get()->NewVariable();
      resource_[i].id = static_cast<int32_t>(i);
      resource_[i].ptr_ = space_[i];
    }
  }
  ~ResourceTempSpace() {
    for (size_t i = 0; i < space_.size(); ++i) {
      // Released after the last pending user, which may still grow the block.
      SpaceAllocator* space = space_[i];
      Engine::Get()->DeleteVariable(
          [space](RunContext) {
            space->ReleaseAll();
            delete space;
          },
          ctx_, resource_[i].var);
    }
  }
  Resource GetNext() { return resource_[next_.fetch_add(1) % resource_.size()]; }

 private:
  Context ctx_;
  std::vector<SpaceAllocator*> space_;  // owned; deleted through the engine
  std::vector<Resource> resource_;
  std::atomic<size_t> next_{0};
};

/*!
 * \brief The kRandom generator of one device: a host generator (mshadow::Random<cpu>). A GPU
 *        context's kRandom is one too, for operators that draw a few numbers on the host
 *        (augmentation factors, permutations) before their kernels run; it is seeded per
 *        device id, so cpu(i) and gpu(i) draw the same sequence after mx.random.seed.
 */
class ResourceRandom {
 public:
  ResourceRandom(Context ctx, uint32_t global_seed)
      : ctx_(ctx), prnd_(new mshadow::Random<cpu>(DeviceSeed(ctx.dev_id, global_seed))) {
    resource_.req = ResourceRequest(ResourceRequest::kRandom);
    resource_.var = Engine::Get()->NewVariable();
    resource_.ptr_ = prnd_;
  }
  ~ResourceRandom() {
    mshadow::Random<cpu>* r = prnd_;
    Engine::Get()->DeleteVariable([r](RunContext) { delete r; }, Context::CPU(), resource_.var);
  }
  /*! \brief Reseed after every function already pushed on the generator. */
  void Seed(uint32_t global_seed) {
    mshadow::Random<cpu>* r = prnd_;
    const uint32_t seed = DeviceSeed(ctx_.dev_id, global_seed);
    Engine::Get()->PushSync(
        [r, seed](RunContext rctx) {
          r->set_stream(rctx.get_stream<cpu>());
          r->Seed(seed);
        },
        Context::CPU(), {}, {resource_.var}, FnProperty::kNormal, 0, "ResourceRandomSetSeed");
  }
  const Resource& resource() const { return resource_; }

 private:
  Context ctx_;
  mshadow::Random<cpu>* prnd_;
  Resource resource_;
};

/*! \brief The kParallelRandom copies of one device, handed out round robin. */
class ResourceParallelRandom {
 public:
  typedef common::random::RandGenerator<cpu> Gen;

  ResourceParallelRandom(Context ctx, size_t ncopy, uint32_t global_seed)
      : ctx_(ctx), gens_(ncopy), resource_(ncopy) {
    for (size_t i = 0; i < ncopy; ++i) {
      gens_[i] = new Gen();
      Gen::AllocState(gens_[i]);
      gens_[i]->Seed(ParallelCopySeed(ctx.dev_id, static_cast<int>(i), global_seed));
      resource_[i].req = ResourceRequest(ResourceRequest::kParallelRandom);
      resource_[i].var = Engine::Get()->NewVariable();
      resource_[i].id = static_cast<int32_t>(i);
      resource_[i].ptr_ = gens_[i];
    }
  }
  ~ResourceParallelRandom() {
    for (size_t i = 0; i < gens_.size(); ++i) {
      Gen* g = gens_[i];
      Engine::Get()->DeleteVariable(
          [g](RunContext) {
            Gen::FreeState(g);
            delete g;
          },
          ctx_, resource_[i].var);
    }
  }
  void Seed(uint32_t global_seed) {
    for (size_t i = 0; i < gens_.size(); ++i) {
      Gen* g = gens_[i];
      const uint32_t seed = ParallelCopySeed(ctx_.dev_id, static_cast<int>(i), global_seed);
      Engine::Get()->PushSync([g, seed](RunContext rctx) { g->Seed(rctx.get_stream<cpu>(), seed); },
                              ctx_, {}, {resource_[i].var}, FnProperty::kNormal, 0,
                              "ResourceParallelRandomSetSeed");
    }
  }
  Resource GetNext() { return resource_[next_.fetch_add(1) % resource_.size()]; }

 private:
  Context ctx_;
  std::vector<Gen*> gens_;
  std::vector<Resource> resource_;
  std::atomic<size_t> next_{0};
};

/*!
 * \brief The kParallelRandom generator of one GPU: a seed and a call counter in host memory
 *        (Philox needs no device state). Ops that use it hold its variable, so the counter
 *        advances in engine order and reseeding waits for the calls pushed before it.
 */
class ResourceGPURandom {
 public:
  typedef common::random::RandGenerator<gpu> Gen;

  ResourceGPURandom(Context ctx, uint32_t global_seed) : ctx_(ctx), gen_(new Gen()) {
    gen_->Seed(ParallelCopySeed(ctx.dev_id, 0, global_seed));
    resource_.req = ResourceRequest(ResourceRequest::kParallelRandom);
    resource_.var = Engine::Get()->NewVariable();
    resource_.ptr_ = gen_;
  }
  ~ResourceGPURandom() {
    Gen* g = gen_;
    Engine::Get()->DeleteVariable([g](RunContext) { delete g; }, Context::CPU(), resource_.var);
  }
  void Seed(uint32_t global_seed) {
    Gen* g = gen_;
    const uint32_t seed = ParallelCopySeed(ctx_.dev_id, 0, global_seed);
    Engine::Get()->PushSync([g, seed](RunContext) { g->Seed(seed); }, Context::CPU(), {},
                            {resource_.var}, FnProperty::kNormal, 0, "ResourceGPURandomSetSeed");
  }
  const Resource& resource() const { return resource_; }

 private:
  Context ctx_;
  Gen* gen_;
  Resource resource_;
};

/*!
 * \brief CPU resources are made up front (one set serves every CPU context, as MXNet 1.x).
 *        GPU temp space (MXNET_GPU_TEMP_COPY copies, 1), the GPU's kParallelRandom generator
 *        and its kRandom (host) generator are made per device on first request.
 */
class ResourceManagerImpl final : public ResourceManager {
 public:
  ResourceManagerImpl()
      : engine_(Engine::_GetSharedRef()), storage_(Storage::_GetSharedRef()) {
    const Context cpu_ctx = Context::CPU();
    cpu_space_ = std::make_unique<ResourceTempSpace>(
        cpu_ctx, CopiesFromEnv("MXNET_CPU_TEMP_COPY", 4));
    cpu_rand_ = std::make_unique<ResourceRandom>(cpu_ctx, global_seed_);
    cpu_parallel_rand_ = std::make_unique<ResourceParallelRandom>(
        cpu_ctx, CopiesFromEnv("MXNET_CPU_PARALLEL_RAND_COPY", 1), global_seed_);
  }

  ~ResourceManagerImpl() override {
    for (auto& space : gpu_space_) space.reset();
    for (auto& rand : gpu_rand_) rand.reset();
    for (auto& rand : gpu_host_rand_) rand.reset();
    cpu_space_.reset();
    cpu_rand_.reset();
    cpu_parallel_rand_.reset();
    // Let the engine run the deferred releases while everything they touch is alive.
    try {
      engine_->WaitForAll();
    } catch (...) {
    }
  }

  Resource Request(Context ctx, const ResourceRequest& req) override {
    if (ctx.dev_mask() == gpu::kDevMask && req.type == ResourceRequest::kTempSpace) {
      return GPUSpace(ctx)->GetNext();
    }
    if (ctx.dev_mask() == gpu::kDevMask && req.type == ResourceRequest::kParallelRandom) {
      return GPURandom(ctx)->resource();
    }
    if (ctx.dev_mask() == gpu::kDevMask && req.type == ResourceRequest::kRandom) {
      return GPUHostRandom(ctx)->resource();
    }
    CheckCPU(ctx);
    switch (req.type) {
      case ResourceRequest::kRandom: return cpu_rand_->resource();
      case ResourceRequest::kTempSpace: return cpu_space_->GetNext();
      case ResourceRequest::kParallelRandom: return cpu_parallel_rand_->GetNext();
    }
    MX_THROW(ValueError) << "ResourceManager: unknown resource type "
                         << static_cast<int>(req.type);
    return Resource();
  }

  void SeedRandom(uint32_t seed) override {
    global_seed_ = seed;
    cpu_rand_->Seed(seed);
    cpu_parallel_rand_->Seed(seed);
    std::lock_guard<std::mutex> lock(gpu_mu_);
    for (auto& rand : gpu_rand_) {
      if (rand) rand->Seed(seed);
    }
    for (auto& rand : gpu_host_rand_) {
      if (rand) rand->Seed(seed);
    }
  }

  void SeedRandom(Context ctx, uint32_t seed) override {
    if (ctx.dev_mask() == gpu::kDevMask) {
      GPURandom(ctx)->Seed(seed);
      GPUHostRandom(ctx)->Seed(seed);
      return;
    }
    CheckCPU(ctx);
    cpu_rand_->Seed(seed);
    cpu_parallel_rand_->Seed(seed);
  }

 private:
  ResourceTempSpace* GPUSpace(Context ctx) {
    Context::CheckGPU(ctx, "temp space");
    std::lock_guard<std::mutex> lock(gpu_mu_);
    auto& slot = gpu_space_.at(ctx.dev_id);
    if (!slot) {
      slot = std::make_unique<ResourceTempSpace>(ctx, CopiesFromEnv("MXNET_GPU_TEMP_COPY", 1));
    }
    return slot.get();
  }

  ResourceGPURandom* GPURandom(Context ctx) {
    Context::CheckGPU(ctx, "random generator");
    std::lock_guard<std::mutex> lock(gpu_mu_);
    auto& slot = gpu_rand_.at(ctx.dev_id);
    if (!slot) slot = std::make_unique<ResourceGPURandom>(ctx, global_seed_);
    return slot.get();
  }

  ResourceRandom* GPUHostRandom(Context ctx) {
    Context::CheckGPU(ctx, "random generator");
    std::lock_guard<std::mutex> lock(gpu_mu_);
    auto& slot = gpu_host_rand_.at(ctx.dev_id);
    if (!slot) slot = std::make_unique<ResourceRandom>(ctx, global_seed_);
    return slot.get();
  }

  static void CheckCPU(Context ctx) {
    if (ctx.dev_mask() == cpu::kDevMask) return;
    Context::CheckGPU(ctx, "ResourceManager");  // no GPU support or no such device: throws
    MX_THROW(NotImplementedError) << "ResourceManager: resources on " << ctx
                                  << " are not implemented";
  }

  std::shared_ptr<Engine> engine_;    // outlives the deferred deletions pushed at exit
  std::shared_ptr<Storage> storage_;
  uint32_t global_seed_{0};
  std::unique_ptr<ResourceTempSpace> cpu_space_;
  std::unique_ptr<ResourceRandom> cpu_rand_;
  std::unique_ptr<ResourceParallelRandom> cpu_parallel_rand_;
  std::mutex gpu_mu_;
  std::array<std::unique_ptr<ResourceTempSpace>, Context::kMaxDevID> gpu_space_;
  std::array<std::unique_ptr<ResourceGPURandom>, Context::kMaxDevID> gpu_rand_;
  std::array<std::unique_ptr<ResourceRandom>, Context::kMaxDevID> gpu_host_rand_;
};

}  // namespace resource

ResourceManager* ResourceManager::Get() {
  static resource::ResourceManagerImpl inst;
  return &inst;
}

namespace resource {
void* CurrentTempSpace(const Resource& r) {
  if (r.req.type != ResourceRequest::kTempSpace || r.ptr_ == nullptr) return nullptr;
  return static_cast<SpaceAllocator*>(r.ptr_)->handle.dptr;
}
}  // namespace resource

void* Resource::get_space_internal(size_t size) const {
  CHECK_EQ(req.type, ResourceRequest::kTempSpace)
      << "Resource::get_space: not a kTempSpace resource";
  return static_cast<resource::SpaceAllocator*>(ptr_)->GetSpace(size);
}

void* Resource::get_host_space_internal(size_t size) const {
  CHECK_EQ(req.type, ResourceRequest::kTempSpace)
      << "Resource::get_host_space: not a kTempSpace resource";
  return static_cast<resource::SpaceAllocator*>(ptr_)->GetHostSpace(size);
}

}  // namespace mxnet
