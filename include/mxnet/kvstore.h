/*!
 * \file mxnet/kvstore.h
 * \brief Key-value store for data-parallel training: workers push gradients (summed per key)
 *        and pull the stored weights. Types 'local' and 'device' (both reduce on the CPU here),
 *        and 'dist_sync' / 'dist_device_sync' / 'dist_async' across processes (MPI builds).
 *
 *   std::unique_ptr<KVStore> kv(KVStore::Create("local"));
 *   kv->Init({3}, {w});                       // store a copy of w under key 3
 *   kv->set_updater([](int key, const NDArray& grad, NDArray* weight) { ... });
 *   kv->Push({3, 3}, {g0, g1});               // updater(3, g0 + g1, &stored)
 *   kv->Pull({3}, {&out});                    // out := stored
 *
 * Without an updater, Push replaces the stored value by the sum. String keys are mapped to
 * ints internally; an updater set for string keys receives the original string.
 */
#ifndef MXNET_KVSTORE_H_
#define MXNET_KVSTORE_H_

#include <mxnet/ndarray.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {

class MXNET_DLL KVStore {
 public:
  typedef std::function<void(int, const NDArray&, NDArray*)> Updater;
  typedef std::function<void(const std::string&, const NDArray&, NDArray*)> StrUpdater;

  virtual ~KVStore() = default;
  /*! \brief 'local', 'device' (and their aliases); ValueError for other types. */
  static KVStore* Create(const char* type = "local");
  const std::string& type() const { return type_; }

  virtual void Init(const std::vector<int>& keys, const std::vector<NDArray>& values) = 0;
  virtual void Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) = 0;
  virtual void Push(const std::vector<int>& keys, const std::vector<NDArray>& values,
                    int priority = 0) = 0;
  virtual void Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values,
                    int priority = 0) = 0;
  virtual void Pull(const std::vector<int>& keys, const std::vector<NDArray*>& values,
                    int priority = 0, bool ignore_sparse = true) = 0;
  virtual void Pull(const std::vector<std::string>& keys, const std::vector<NDArray*>& values,
                    int priority = 0, bool ignore_sparse = true) = 0;
  /*! \brief Push `values` under `vkeys`, then pull into `outs` under `okeys`. */
  virtual void PushPull(const std::vector<int>& vkeys, const std::vector<int>& okeys,
                        const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                        int priority = 0) = 0;
  virtual void PushPull(const std::vector<std::string>& vkeys,
                        const std::vector<std::string>& okeys,
                        const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                        int priority = 0) = 0;
  /*! \brief Init `values` under `vkeys`, then pull into `outs` under `okeys`. */
  virtual void Broadcast(const std::vector<int>& vkeys, const std::vector<int>& okeys,
                         const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                         int priority = 0) = 0;
  virtual void Broadcast(const std::vector<std::string>& vkeys,
                         const std::vector<std::string>& okeys,
                         const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                         int priority = 0) = 0;

  /*!
   * \brief Pull only some rows of row_sparse stored values: each pair is (row_sparse output,
   *        dense 1-D row ids); the output receives exactly the sorted unique requested rows
   *        (zeros for rows the store does not hold). The stored value must be row_sparse.
   */
  virtual void PullRowSparse(const std::vector<int>& keys,
                             const std::vector<std::pair<NDArray*, NDArray>>& outs_rows,
                             int priority = 0) = 0;
  virtual void PullRowSparse(const std::vector<std::string>& keys,
                             const std::vector<std::pair<NDArray*, NDArray>>& outs_rows,
                             int priority = 0) = 0;

  virtual void set_updater(const Updater& updater) { updater_ = updater; }
  virtual void set_updater(const StrUpdater& updater) { str_updater_ = updater; }

  virtual int get_rank() const { return 0; }
  virtual int get_group_size() const { return 1; }
  virtual void Barrier() {}

  /*! \brief {'type': '2bit', 'threshold': t} (dist_* stores); NotImplementedError otherwise. */
  virtual void SetGradientCompression(
      const std::vector<std::pair<std::string, std::string>>& params);
  /*! \brief Deliver (head, body) to the server processes' controllers (none: no-op). */
  virtual void SendCommandToServers(int head, const std::string& body) {}
  typedef std::function<void(int, const std::string&)> Controller;
  /*! \brief In a server process: serve until the workers finish (dist_* stores only). */
  virtual void RunServer(const Controller& controller);

 protected:
  std::string type_;
  Updater updater_;
  StrUpdater str_updater_;
};

}  // namespace mxnet

#endif  // MXNET_KVSTORE_H_
