/*!
 * \file collective.h
 * \brief The cross-process half of a 'dist_*' KVStore. Each worker process keeps a full local
 *        store (kvstore_local.cc); a Collective makes the workers' stores agree:
 *          init  -> every worker takes rank 0's value (Broadcast),
 *          push  -> the per-worker sums are summed over the workers (Sum), then each worker
 *                   applies the same updater to the same stored value,
 *        so every worker holds what MXNet 1.x's servers would have held, and pulls are local.
 *        The processes, rendezvous and collectives are MPI's (mpi_job.cc, mpi_collective.cc;
 *        dist_async's servers: mpi_server.cc). Every collective of the workers runs on one
 *        communication thread, in the order the engine releases them (all write one engine
 *        variable, so that order is program order: the same on every worker).
 */
#ifndef MXNET_KVSTORE_COLLECTIVE_H_
#define MXNET_KVSTORE_COLLECTIVE_H_

#include <mxnet/kvstore.h>
#include <mxnet/ndarray.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {
namespace kvstore {

class Collective {
 public:
  virtual ~Collective() = default;
  /*! \brief This worker's rank among the workers, and their number. */
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /*! \brief stored := rank 0's `stored` on every worker (each already holds its own init). */
  virtual void Broadcast(const std::string& key, NDArray* stored) = 0;
  /*!
   * \brief The sum over the workers of each worker's `merged` (dense or row_sparse, never
   *        modified): written into `into` when given (not none) and it fits (a dense CPU
   *        array of merged's shape and dtype, uncompressed push), else a new CPU array, or
   *        `merged` itself when there is one worker. Returns the array holding the sum.
   *        A dense uncompressed sum is asynchronous: an engine operation that reads `merged`
   *        and writes the result, which readers of the result wait for (its errors, e.g. the
   *        workers disagreeing, raise there); row_sparse and compressed sums are synchronous.
   */
  virtual NDArray Sum(const std::string& key, const NDArray& merged,
                      const NDArray& into = NDArray()) = 0;
  /*!
   * \brief Writes the sum over the workers of each worker's dense `value` into `dst` (same
   *        shape and dtype; may be `value` itself). Uncompressed: the all-reduce of a
   *        Horovod-style store. Synchronous.
   */
  virtual void SumInto(const std::string& key, const NDArray& value, const NDArray& dst) = 0;
  /*! \brief dst := rank 0's dense `value` on every worker (dst may be `value`). */
  virtual void BroadcastInto(const std::string& key, const NDArray& value, const NDArray& dst) = 0;
  /*! \brief Returns once every worker has called Barrier. */
  virtual void Barrier() = 0;
  /*! \brief {'type': '2bit', 'threshold': t}: pushes of float32 values are quantized. */
  virtual void SetGradientCompression(
      const std::vector<std::pair<std::string, std::string>>& params) = 0;
  /*! \brief Deliver (head, body) to every server process's controller. */
  virtual void SendCommandToServers(int head, const std::string& body) = 0;

  // ---- dist_async: the values live on the server processes, which apply each push as it
  //      arrives with the updater the workers' optimizer command set there.
  /*!
   * \brief The key's value on its server := rank 0's `value` (dense or row_sparse, CPU); every
   *        worker returns after.
   */
  virtual void ServerInit(const std::string& key, const NDArray& value) = 0;
  /*!
   * \brief Sends this worker's sum (dense, or row_sparse: only its rows travel) to the key's
   *        server; returns once it is applied.
   */
  virtual void ServerPush(const std::string& key, const NDArray& merged) = 0;
  /*!
   * \brief dst (dense CPU, the key's shape and dtype) := the key's value on its server (a
   *        row_sparse value densely, absent rows zero).
   */
  virtual void ServerPull(const std::string& key, const NDArray& dst) = 0;
  /*!
   * \brief dst (dense CPU of shape (rows.size(), shape[1:]), the key's dtype) := the rows
   *        `rows` (sorted, unique) of the key's value (of `shape`) on its server; rows the
   *        value does not store are zero. row_sparse_pull of dist_async.
   */
  virtual void ServerPullRows(const std::string& key, const TShape& shape,
                              const std::vector<int64_t>& rows, const NDArray& dst) = 0;

  /*! \brief Applies a received push to a server's stored value (the store's updater). */
  typedef std::function<void(const std::string&, const NDArray&, NDArray*)> ServerUpdater;
  /*! \brief In a server process: serve commands and values until every worker has finished. */
  virtual void RunServer(const std::function<void(int, const std::string&)>& controller,
                         const ServerUpdater& apply) = 0;
};

/*!
 * \brief The Collective of this process's job (`type` names the store in messages). Raises
 *        NotImplementedError in a build without MPI.
 */
std::unique_ptr<Collective> CreateCollective(const std::string& type);

/*! \brief The role this process was started in (DMLC_ROLE: "worker" when unset). */
std::string ProcessRole();

/*! \brief out (row_sparse) := the row-wise sum of row_sparse `values` (engine function). */
void SumRowSparseInto(const std::vector<NDArray>& values, const NDArray& out, int priority);

}  // namespace kvstore
}  // namespace mxnet

#endif  // MXNET_KVSTORE_COLLECTIVE_H_
