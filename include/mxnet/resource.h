/*!
 * \file mxnet/resource.h
 * \brief Resources an operator asks for besides its inputs: scratch memory and random
 *        generators, handed out by the ResourceManager.
 *
 * An operator declares what it needs (FResourceRequest); the executor requests them once and
 * passes them in OpContext::requested, in declared order. Each resource has an engine variable
 * that the operator lists as **mutable**, so the users of one copy run one at a time.
 *
 *   Resource r = ResourceManager::Get()->Request(Context::CPU(), ResourceRequest::kTempSpace);
 *   // inside a function pushed with r.var among its mutable vars:
 *   float* tmp = r.get_space_typed_ptr<float>(n);           // >= n floats, not zeroed
 *
 *   Resource g = ResourceManager::Get()->Request(Context::CPU(), ResourceRequest::kRandom);
 *   g.get_random<cpu, float>(s)->SampleUniform(out, n, 0.f, 1.f);
 *
 * Copies: kTempSpace has MXNET_CPU_TEMP_COPY (default 4) copies, kParallelRandom
 * MXNET_CPU_PARALLEL_RAND_COPY (default 1), kRandom one per device; each Request returns the
 * next copy in rotation. The manager owns every resource: never free one. kRandom is a host
 * generator on every device (get_random<cpu>): a GPU operator draws its few host-side numbers
 * from it before launching kernels; bulk device sampling uses kParallelRandom.
 *
 * Seeding (mx.random.seed): SeedRandom(s) gives device dev_id's generator the seed
 * dev_id + s * 127 and parallel-random copy i the seed dev_id + i * 16 + s * 127 (s = 0 at
 * start), so a seed gives the same numbers on every run. Seeding is pushed to the engine as a
 * write of each generator's variable: it is ordered with the operators already using it.
 */
#ifndef MXNET_RESOURCE_H_
#define MXNET_RESOURCE_H_

#include <mshadow/random.h>
#include <mxnet/base.h>
#include <mxnet/engine.h>
#include <mxnet/random_generator.h>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace mxnet {

/*! \brief What kind of resource an operator needs. Implicitly built from a Type. */
struct ResourceRequest {
  enum Type {
    /*! \brief mshadow::Random<xpu> generator (one per device). */
    kRandom,
    /*! \brief Scratch memory of any size; contents are not kept between calls. */
    kTempSpace,
    /*! \brief common::random::RandGenerator<xpu>: per-thread states for parallel kernels. */
    kParallelRandom,
  };
  Type type{kTempSpace};

  ResourceRequest() = default;
  ResourceRequest(Type t) : type(t) {}  // NOLINT(runtime/explicit): MXNet code relies on it
};

/*! \brief A resource handed out by the ResourceManager (which keeps ownership). */
struct MXNET_DLL Resource {
  ResourceRequest req;
  /*! \brief Engine variable of this copy: list it as mutable when pushing a user. */
  engine::VarHandle var{nullptr};
  /*! \brief Index of the copy. */
  int32_t id{0};
  /*! \brief The object behind the resource (generator or space allocator). */
  void* ptr_{nullptr};

  /*! \brief The device's kRandom generator, bound to `stream`. */
  template <typename xpu, typename DType = real_t>
  mshadow::Random<xpu, DType>* get_random(mshadow::Stream<xpu>* stream) const {
    CHECK_EQ(req.type, ResourceRequest::kRandom) << "Resource::get_random: not a kRandom resource";
    auto* ret = static_cast<mshadow::Random<xpu, DType>*>(ptr_);
    ret->set_stream(stream);
    return ret;
  }

  /*! \brief The kParallelRandom generator (per-thread states). */
  template <typename xpu, typename DType = real_t>
  common::random::RandGenerator<xpu, DType>* get_parallel_random() const {
    CHECK_EQ(req.type, ResourceRequest::kParallelRandom)
        << "Resource::get_parallel_random: not a kParallelRandom resource";
    return static_cast<common::random::RandGenerator<xpu, DType>*>(ptr_);
  }

  /*!
   * \brief At least `size` bytes of kTempSpace memory on the resource's device (64-byte
   *        aligned on CPU). The block grows when a larger size is asked for; what it held
   *        before is not kept. Valid until the next call on this copy.
   */
  void* get_space_internal(size_t size) const;
  /*! \brief Like get_space_internal, but host memory whatever the device. */
  void* get_host_space_internal(size_t size) const;

  /*! \brief Scratch space for `count` values of DType. */
  template <typename DType>
  DType* get_space_typed_ptr(size_t count) const {
    return static_cast<DType*>(get_space_internal(BytesFor<DType>(count)));
  }
  /*! \brief Host scratch space for `count` values of DType. */
  template <typename DType>
  DType* get_host_space_typed_ptr(size_t count) const {
    return static_cast<DType*>(get_host_space_internal(BytesFor<DType>(count)));
  }
  // TODO(integration): get_space<xpu, ndim>, get_space_typed<xpu, ndim, DType>,
  // get_host_space<ndim>, get_host_space_typed<ndim, DType> returning mshadow::Tensor.

 private:
  template <typename DType>
  static size_t BytesFor(size_t count) {
    CHECK_LE(count, std::numeric_limits<size_t>::max() / sizeof(DType))
        << "Resource: temp space of " << count << " elements overflows size_t";
    return count * sizeof(DType);
  }
};

/*! \brief Hands out resources; one per process. */
class MXNET_DLL ResourceManager {
 public:
  /*! \brief A resource of `req`'s kind on ctx's device (the next copy in rotation). Throws
   *         for a GPU context in a build without CUDA. */
  virtual Resource Request(Context ctx, const ResourceRequest& req) = 0;
  /*! \brief Seed the generators of every device (see the file comment for the formula). */
  virtual void SeedRandom(uint32_t seed) = 0;
  /*! \brief Seed only ctx's device, with the same per-device formula. */
  virtual void SeedRandom(Context ctx, uint32_t seed) = 0;
  virtual ~ResourceManager() = default;

  static ResourceManager* Get();
};

}  // namespace mxnet

#endif  // MXNET_RESOURCE_H_
