/*!
 * \file gpu_collective.h
 * \brief The GPU side of the KVStores: NCCL reductions and host staging copies.
 *          - the 'nccl' store (one process, several GPUs) sums a key's values with one
 *            ncclReduce over the GPUs holding them (ReduceOnDevices);
 *          - dist_device_sync all-reduces each worker's GPU sum across the workers with an
 *            NCCL communicator of one GPU per worker (RankComm), created from a unique id that
 *            the MPI job broadcasts; without NCCL, or with two workers on one GPU, the sum
 *            travels through host memory (CopyToHost / CopyToDevice) and MPI instead.
 *        NCCL comes from the system (the GPU machine) or the nvidia-nccl-cu13 wheel.
 */
#ifndef MXNET_KVSTORE_GPU_COLLECTIVE_H_
#define MXNET_KVSTORE_GPU_COLLECTIVE_H_

#include <mxnet/ndarray.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace mxnet {
namespace kvstore {
namespace gpu_collective {

/*! \brief Whether this build has NCCL. */
bool NcclBuilt();
/*! \brief Whether this build has NCCL and MXNET_KVSTORE_USE_NCCL is not 0. */
bool NcclEnabled();

/*! \brief Whether NCCL sums arrays of this dtype (float16/32/64, bfloat16, (u)int8, int32/64). */
bool NcclSupports(int dtype);

/*!
 * \brief Whether ReduceOnDevices can sum `values` into `out`: NCCL is enabled, every array is
 *        dense, on a GPU and of out's shape and a supported dtype (out's), each GPU holds one
 *        value, and out is on one of those GPUs.
 */
bool CanReduceOnDevices(const std::vector<NDArray>& values, const NDArray& out);

/*!
 * \brief out := sum(values) as one engine operation (reads the values, writes out): one
 *        ncclReduce over the values' GPUs, rooted at out's. Check CanReduceOnDevices first.
 */
void ReduceOnDevices(const std::vector<NDArray>& values, const NDArray& out, int priority);

/*!
 * \brief An NCCL communicator among the workers of a job, one GPU per worker. Its calls are
 *        collective: every worker makes the same ones in the same order.
 */
class RankComm {
 public:
  virtual ~RankComm() = default;
  /*! \brief The GPU this worker's side of the communicator is on. */
  virtual int device() const = 0;
  /*!
   * \brief recv := the sum over the workers of send (n elements of dtype, on device(); may be
   *        in place). Synchronous: returns once the sum is in recv. Raises on NCCL errors.
   */
  virtual void AllReduce(const void* send, void* recv, size_t n, int dtype) = 0;
};

/*! \brief A new NCCL unique id (rank 0 makes it, the job broadcasts it), as bytes. */
std::string NewUniqueId();

/*! \brief This worker's side of the communicator `unique_id` of `nranks` ranks, on GPU `dev`. */
std::unique_ptr<RankComm> JoinRankComm(const std::string& unique_id, int nranks, int rank,
                                       int dev);

/*! \brief The UUID of GPU `dev` (16 bytes): workers compare them to find a GPU used twice. */
std::string DeviceUuid(int dev);

/*! \brief host[0, bytes) := device memory at src on GPU dev (synchronous). */
void CopyToHost(void* host, const void* src, size_t bytes, int dev);
/*! \brief device memory at dst on GPU dev := host[0, bytes) (synchronous). */
void CopyToDevice(void* dst, const void* host, size_t bytes, int dev);

}  // namespace gpu_collective
}  // namespace kvstore
}  // namespace mxnet

#endif  // MXNET_KVSTORE_GPU_COLLECTIVE_H_
