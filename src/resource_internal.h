/*!
 * \file resource_internal.h
 * \brief Seed derivation of the resource manager (MXNet 1.x formulas), shared with its tests,
 *        and the runtime's hooks for the executor's CUDA graphs.
 */
#ifndef MXNET_RESOURCE_INTERNAL_H_
#define MXNET_RESOURCE_INTERNAL_H_

#include <cstddef>
#include <cstdint>

namespace mxnet {
namespace resource {

/*! \brief Multiplier of the global seed. */
constexpr uint32_t kRandMagic = 127;
/*! \brief Spacing of parallel-random copies' seeds (MXNet's kMaxNumGPUs). */
constexpr uint32_t kCopySeedStride = 16;

/*! \brief Seed of device dev_id's kRandom generator for global seed `global_seed`. */
inline uint32_t DeviceSeed(int dev_id, uint32_t global_seed) {
  return static_cast<uint32_t>(dev_id) + global_seed * kRandMagic;
}

/*! \brief Seed of copy `copy` of device dev_id's kParallelRandom generators. */
inline uint32_t ParallelCopySeed(int dev_id, int copy, uint32_t global_seed) {
  return static_cast<uint32_t>(dev_id) + static_cast<uint32_t>(copy) * kCopySeedStride +
         global_seed * kRandMagic;
}

}  // namespace resource

// ---- what the executor's CUDA graphs (src/executor/cuda_graphs.cc) ask of the runtime

struct Resource;
namespace resource {
/*!
 * \brief The memory a kTempSpace resource holds now (null before its first use), without
 *        growing it: a CUDA graph captured with it is valid while it stays (resource.cc).
 */
void* CurrentTempSpace(const Resource& r);
}  // namespace resource

namespace storage {
/*!
 * \brief Starts (on) or stops counting this thread's device and pinned-host allocations
 *        (storage.cc): memory a captured kernel used would go back to the pool after the
 *        capture, so a capture that allocates is dropped.
 */
void WatchAllocations(bool on);
/*! \brief How many this thread made since WatchAllocations(true). */
size_t WatchedAllocations();
}  // namespace storage
}  // namespace mxnet

#endif  // MXNET_RESOURCE_INTERNAL_H_
