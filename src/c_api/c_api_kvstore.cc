/*!
 * \file c_api_kvstore.cc
 * \brief C API shims for KVStore ('local' / 'device').
 */
#include <mxnet/c_api.h>
#include <mxnet/kvstore.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "./c_api_common.h"

using mxnet::KVStore;
using mxnet::NDArray;

namespace {

KVStore* KV(KVStoreHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("KVStoreHandle");
  return static_cast<KVStore*>(h);
}

template <typename K>
std::vector<K> Keys(uint32_t num, const K* keys);

template <>
std::vector<int> Keys<int>(uint32_t num, const int* keys) {
  return std::vector<int>(keys, keys + num);
}

std::vector<std::string> StrKeys(uint32_t num, const char** keys) {
  std::vector<std::string> ret;
  for (uint32_t i = 0; i < num; ++i) ret.emplace_back(keys[i]);
  return ret;
}

std::vector<NDArray> Values(uint32_t num, NDArrayHandle* vals) {
  std::vector<NDArray> ret;
  for (uint32_t i = 0; i < num; ++i) {
    if (vals[i] == nullptr) mxnet::c_api::ThrowNullHandle("NDArrayHandle " + std::to_string(i));
    ret.push_back(*static_cast<NDArray*>(vals[i]));
  }
  return ret;
}

std::vector<NDArray*> Outputs(uint32_t num, NDArrayHandle* vals) {
  std::vector<NDArray*> ret;
  for (uint32_t i = 0; i < num; ++i) {
    if (vals[i] == nullptr) mxnet::c_api::ThrowNullHandle("NDArrayHandle " + std::to_string(i));
    ret.push_back(static_cast<NDArray*>(vals[i]));
  }
  return ret;
}

}  // namespace

int MXKVStoreCreate(const char* type, KVStoreHandle* out) {
  API_BEGIN();
  API_NOT_NULL(type);
  API_NOT_NULL(out);
  *out = KVStore::Create(type);
  API_END();
}

int MXKVStoreFree(KVStoreHandle handle) {
  API_BEGIN();
  delete static_cast<KVStore*>(handle);
  API_END();
}

int MXKVStoreInit(KVStoreHandle handle, uint32_t num, const int* keys, NDArrayHandle* vals) {
  API_BEGIN();
  KV(handle)->Init(Keys(num, keys), Values(num, vals));
  API_END();
}

int MXKVStoreInitEx(KVStoreHandle handle, uint32_t num, const char** keys, NDArrayHandle* vals) {
  API_BEGIN();
  KV(handle)->Init(StrKeys(num, keys), Values(num, vals));
  API_END();
}

int MXKVStorePush(KVStoreHandle handle, uint32_t num, const int* keys, NDArrayHandle* vals,
                  int priority) {
  API_BEGIN();
  KV(handle)->Push(Keys(num, keys), Values(num, vals), priority);
  API_END();
}

int MXKVStorePushEx(KVStoreHandle handle, uint32_t num, const char** keys, NDArrayHandle* vals,
                    int priority) {
  API_BEGIN();
  KV(handle)->Push(StrKeys(num, keys), Values(num, vals), priority);
  API_END();
}

int MXKVStorePullWithSparse(KVStoreHandle handle, uint32_t num, const int* keys,
                            NDArrayHandle* vals, int priority, bool ignore_sparse) {
  API_BEGIN();
  KV(handle)->Pull(Keys(num, keys), Outputs(num, vals), priority, ignore_sparse);
  API_END();
}

int MXKVStorePullWithSparseEx(KVStoreHandle handle, uint32_t num, const char** keys,
                              NDArrayHandle* vals, int priority, bool ignore_sparse) {
  API_BEGIN();
  KV(handle)->Pull(StrKeys(num, keys), Outputs(num, vals), priority, ignore_sparse);
  API_END();
}

int MXKVStorePull(KVStoreHandle handle, uint32_t num, const int* keys, NDArrayHandle* vals,
                  int priority) {
  return MXKVStorePullWithSparse(handle, num, keys, vals, priority, true);
}

int MXKVStorePullEx(KVStoreHandle handle, uint32_t num, const char** keys, NDArrayHandle* vals,
                    int priority) {
  return MXKVStorePullWithSparseEx(handle, num, keys, vals, priority, true);
}

static std::vector<std::pair<NDArray*, NDArray>> OutsWithRows(uint32_t num, NDArrayHandle* vals,
                                                       const NDArrayHandle* row_ids) {
  CHECK(num == 0 || (vals != nullptr && row_ids != nullptr))
      << "KVStore row_sparse_pull: null output or row_ids array";
  std::vector<std::pair<NDArray*, NDArray>> ret;
  for (uint32_t i = 0; i < num; ++i) {
    CHECK(vals[i] != nullptr) << "KVStore row_sparse_pull: output handle " << i << " is null";
    CHECK(row_ids[i] != nullptr) << "KVStore row_sparse_pull: row_ids handle " << i << " is null";
    ret.emplace_back(static_cast<NDArray*>(vals[i]), *static_cast<NDArray*>(row_ids[i]));
  }
  return ret;
}

int MXKVStorePullRowSparse(KVStoreHandle handle, uint32_t num, const int* keys,
                           NDArrayHandle* vals, const NDArrayHandle* row_ids, int priority) {
  API_BEGIN();
  KV(handle)->PullRowSparse(Keys(num, keys), OutsWithRows(num, vals, row_ids), priority);
  API_END();
}

int MXKVStorePullRowSparseEx(KVStoreHandle handle, uint32_t num, const char** keys,
                             NDArrayHandle* vals, const NDArrayHandle* row_ids, int priority) {
  API_BEGIN();
  KV(handle)->PullRowSparse(StrKeys(num, keys), OutsWithRows(num, vals, row_ids), priority);
  API_END();
}

int MXKVStorePushPull(KVStoreHandle handle, mx_uint vnum, const int* vkeys, mx_uint onum,
                      const int* okeys, NDArrayHandle* vals, NDArrayHandle* outs, int priority) {
  API_BEGIN();
  KV(handle)->PushPull(Keys(vnum, vkeys), Keys(onum, okeys), Values(vnum, vals),
                       Outputs(onum, outs), priority);
  API_END();
}

int MXKVStorePushPullEx(KVStoreHandle handle, mx_uint vnum, const char** vkeys, mx_uint onum,
                        const char** okeys, NDArrayHandle* vals, NDArrayHandle* outs,
                        int priority) {
  API_BEGIN();
  KV(handle)->PushPull(StrKeys(vnum, vkeys), StrKeys(onum, okeys), Values(vnum, vals),
                       Outputs(onum, outs), priority);
  API_END();
}

int MXKVStoreBroadcast(KVStoreHandle handle, mx_uint vnum, const int* vkeys, mx_uint onum,
                       const int* okeys, NDArrayHandle* vals, NDArrayHandle* outs, int priority) {
  API_BEGIN();
  KV(handle)->Broadcast(Keys(vnum, vkeys), Keys(onum, okeys), Values(vnum, vals),
                        Outputs(onum, outs), priority);
  API_END();
}

int MXKVStoreBroadcastEx(KVStoreHandle handle, mx_uint vnum, const char** vkeys, mx_uint onum,
                         const char** okeys, NDArrayHandle* vals, NDArrayHandle* outs,
                         int priority) {
  API_BEGIN();
  KV(handle)->Broadcast(StrKeys(vnum, vkeys), StrKeys(onum, okeys), Values(vnum, vals),
                        Outputs(onum, outs), priority);
  API_END();
}

int MXKVStoreSetUpdaterEx(KVStoreHandle handle, MXKVStoreUpdater updater,
                          MXKVStoreStrUpdater str_updater, void* updater_handle) {
  API_BEGIN();
  KVStore* kv = KV(handle);
  // The callbacks own the handles they receive (the frontend wraps and frees them).
  if (updater != nullptr) {
    kv->set_updater(KVStore::Updater(
        [updater, updater_handle](int key, const NDArray& recv, NDArray* local) {
          updater(key, new NDArray(recv), new NDArray(*local), updater_handle);
        }));
  }
  if (str_updater != nullptr) {
    kv->set_updater(KVStore::StrUpdater(
        [str_updater, updater_handle](const std::string& key, const NDArray& recv,
                                      NDArray* local) {
          str_updater(key.c_str(), new NDArray(recv), new NDArray(*local), updater_handle);
        }));
  }
  API_END();
}

int MXKVStoreSetUpdater(KVStoreHandle handle, MXKVStoreUpdater updater, void* updater_handle) {
  return MXKVStoreSetUpdaterEx(handle, updater, nullptr, updater_handle);
}

int MXKVStoreGetType(KVStoreHandle handle, const char** type) {
  API_BEGIN();
  *type = KV(handle)->type().c_str();
  API_END();
}

int MXKVStoreGetRank(KVStoreHandle handle, int* ret) {
  API_BEGIN();
  *ret = KV(handle)->get_rank();
  API_END();
}

int MXKVStoreGetGroupSize(KVStoreHandle handle, int* ret) {
  API_BEGIN();
  *ret = KV(handle)->get_group_size();
  API_END();
}

namespace {
/*! \brief The DMLC_ROLE of this process ("worker" when unset). */
std::string Role() {
  const char* role = std::getenv("DMLC_ROLE");
  return role == nullptr ? "worker" : role;
}
}  // namespace

// MXKVStoreIsWorkerNode lives in c_api.cc (called at import).

int MXKVStoreIsServerNode(int* ret) {
  API_BEGIN();
  API_NOT_NULL(ret);
  *ret = Role() == "server" ? 1 : 0;
  API_END();
}

int MXKVStoreIsSchedulerNode(int* ret) {
  API_BEGIN();
  API_NOT_NULL(ret);
  *ret = Role() == "scheduler" ? 1 : 0;
  API_END();
}

int MXKVStoreBarrier(KVStoreHandle handle) {
  API_BEGIN();
  KV(handle)->Barrier();
  API_END();
}

int MXKVStoreSetBarrierBeforeExit(KVStoreHandle handle, const int) {
  API_BEGIN();
  KV(handle);
  API_END();
}

int MXKVStoreGetNumDeadNode(KVStoreHandle handle, const int, int* number, const int) {
  API_BEGIN();
  KV(handle);
  *number = 0;  // a single-process store has no remote nodes
  API_END();
}

int MXKVStoreSetGradientCompression(KVStoreHandle handle, uint32_t num_params,
                                    const char** keys, const char** vals) {
  API_BEGIN();
  KVStore* kv = KV(handle);
  std::vector<std::pair<std::string, std::string>> params;
  for (uint32_t i = 0; i < num_params; ++i) params.emplace_back(keys[i], vals[i]);
  if (!params.empty()) kv->SetGradientCompression(params);
  API_END();
}

int MXKVStoreRunServer(KVStoreHandle handle, MXKVStoreServerController controller,
                       void* controller_handle) {
  API_BEGIN();
  KV(handle)->RunServer([controller, controller_handle](int head, const std::string& body) {
    if (controller != nullptr) controller(head, body.c_str(), controller_handle);
  });
  API_END();
}

int MXKVStoreSendCommmandToServers(KVStoreHandle handle, int cmd_id, const char* cmd_body) {
  API_BEGIN();
  KV(handle)->SendCommandToServers(cmd_id, cmd_body == nullptr ? "" : cmd_body);
  API_END();
}

int MXInitPSEnv(uint32_t num_vars, const char** keys, const char** vals) {
  API_BEGIN();
  API_NO_NULL_IN(keys, num_vars);
  API_NO_NULL_IN(vals, num_vars);
  for (uint32_t i = 0; i < num_vars; ++i) ::setenv(keys[i], vals[i], 1);
  API_END();
}
