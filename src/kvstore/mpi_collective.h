/*!
 * \file mpi_collective.h
 * \brief Internal: the Collective of a 'dist_*' KVStore on MPI. Its collective store ops
 *        (init broadcast, sums, barrier, 2-bit compression; dense sums are asynchronous engine
 *        operations) are in mpi_collective.cc, the dist_async requests and server loop in
 *        mpi_server.cc, the job, the communication thread and the agreement step in
 *        mpi_job.cc. Built only with MPI.
 */
#ifndef MXNET_KVSTORE_MPI_COLLECTIVE_H_
#define MXNET_KVSTORE_MPI_COLLECTIVE_H_

#if MXNET_USE_MPI
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "./collective.h"
#include "./gpu_collective.h"
#include "./mpi_job.h"

namespace mxnet {
namespace kvstore {
namespace mpi {

class MpiCollective : public Collective {
 public:
  explicit MpiCollective(const std::string& type);

  int rank() const override { return job_.rank; }
  int size() const override { return job_.size; }

  // ---- collectives of the workers (mpi_collective.cc)
  void Broadcast(const std::string& key, NDArray* stored) override;
  NDArray Sum(const std::string& key, const NDArray& merged, const NDArray& into) override;
  void SumInto(const std::string& key, const NDArray& value, const NDArray& dst) override;
  void BroadcastInto(const std::string& key, const NDArray& value, const NDArray& dst) override;
  void Barrier() override;
  void SetGradientCompression(
      const std::vector<std::pair<std::string, std::string>>& params) override;

  // ---- dist_async: requests to the servers, and the server loop (mpi_server.cc)
  void SendCommandToServers(int head, const std::string& body) override;
  void ServerInit(const std::string& key, const NDArray& value) override;
  void ServerPush(const std::string& key, const NDArray& merged) override;
  void ServerPull(const std::string& key, const NDArray& dst) override;
  void ServerPullRows(const std::string& key, const TShape& shape,
                      const std::vector<int64_t>& rows, const NDArray& dst) override;
  void RunServer(const std::function<void(int, const std::string&)>& controller,
                 const ServerUpdater& apply) override;

  /*! \brief Elements per row (the product of shape[1:]). */
  static int64_t RowLength(const TShape& shape);
  /*! \brief sum[i] += the value of 2-bit code i (+t, -t or 0; 16 codes per word). */
  static void Dequantize(const uint32_t* codes, size_t n, float t, float* sum);

 private:
  /*! \brief value and dst: dense, of one shape, dtype and device (the CPU unless on_gpu_ok:
   *         a push's sum may be on a GPU, dist_device_sync). */
  void CheckDense(const char* op, const std::string& key, const NDArray& value,
                  const NDArray& dst, bool on_gpu_ok = false) const;
  void RequireWorker(const char* op) const;
  /*! \brief The MPI part of Broadcast (on the communication thread). */
  void BroadcastNow(const std::string& key, NDArray* stored);
  /*!
   * \brief Schedules dst := the sum over the workers of each worker's dense CPU `value` (dst
   *        may be value) as an engine operation reading value and writing dst; returns at once.
   */
  void ScheduleSum(const std::string& key, const NDArray& value, const NDArray& dst);
  /*! \brief The Call::place this worker states for a sum of a GPU value. */
  static int64_t GpuPlace(const NDArray& value);
  /*!
   * \brief The job's NCCL communicator, made now (collectively) if it is the first; null when
   *        some workers share a GPU. Every worker calls it at the same collective.
   */
  static gpu_collective::RankComm* JobNccl(Job& job, int dev, const std::string& store);
  /*!
   * \brief dst := the sum over the workers of the dense GPU `value` (on the communication
   *        thread, after Agree returned `place`): NCCL, or host memory and MPI.
   */
  static void SumOnGpu(Job& job, int64_t place, const std::string& store, const NDArray& value,
                       const NDArray& dst);
  NDArray SumRowSparse(const std::string& key, const NDArray& merged);
  NDArray SumCompressed(const std::string& key, const NDArray& merged);
  std::vector<uint32_t> Quantize(const std::string& key, const NDArray& merged);
  /*! \brief Worker side: one request to the key's server; returns the reply's payload. */
  std::vector<char> Request(int tag, const std::string& key, const std::vector<char>& msg);

  std::string type_;
  Job& job_;
  float compression_threshold_ = 0;  // 0: off
  std::unordered_map<std::string, std::vector<float>> residuals_;
};

}  // namespace mpi
}  // namespace kvstore
}  // namespace mxnet

#endif  // MXNET_USE_MPI
#endif  // MXNET_KVSTORE_MPI_COLLECTIVE_H_
