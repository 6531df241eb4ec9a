/*!
 * \file kvstore_local.cc
 * \brief KVStore 'local' / 'device': a single-process store. Values pushed under one key in one
 *        call are summed (an engine function reading every value and writing the sum), then the
 *        updater (or plain replacement) applies the sum to the stored copy. 'local' keeps the
 *        stored copies and sums on the CPU; 'device' keeps a dense key's copy on the device of
 *        the first value it was initialised with and sums there (copies from the other devices,
 *        then add_n on that device), so GPU gradients are reduced, and updated with
 *        update_on_kvstore, on a GPU. 'nccl' is 'device' with the values on several GPUs
 *        summed by one NCCL reduction (gpu_collective.h).
 *        A 'dist_*' store is the same store in every worker process plus a Collective that
 *        makes inits take rank 0's value and pushes sum over the workers (collective.h);
 *        dist_device_sync keeps dense keys on their GPU like 'device', and the workers' sums
 *        of GPU values are all-reduced there (with NCCL when the build has it).
 */
#include <dmlc/logging.h>
#include <mxnet/imperative.h>
#include <mxnet/kvstore.h>

#include "./collective.h"
#include "./gpu_collective.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mxnet {
namespace kvstore {

namespace {

std::string ShapeStr(const TShape& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

/*! \brief out = sum(values), computed on the engine (values must all have out's shape). */
void SumInto(const std::vector<NDArray>& values, const NDArray& out, int priority) {
  std::vector<engine::VarHandle> reads;
  for (const NDArray& v : values) {
    if (!v.SharesChunk(out)) reads.push_back(v.var());
  }
  std::sort(reads.begin(), reads.end());
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  std::vector<NDArray> inputs = values;
  NDArray result = out;
  Engine::Get()->PushSync(
      [inputs, result](RunContext) mutable {
        // A row_sparse value in a mixed push is added through a dense copy of itself.
        for (NDArray& in : inputs) {
          if (!in.is_sparse()) continue;
          NDArray dense(in.shape(), Context::CPU(), false, in.dtype());
          CastStorageInto(in, dense);
          in = dense;
        }
        const TBlob dst = result.data();
        const size_t n = dst.Size();
        MSHADOW_TYPE_SWITCH(dst.type_flag_, DType, {
          // Accumulate in double for float types would change MXNet's float32 sums; keep DType.
          std::vector<DType> acc(n);
          MSHADOW_TYPE_SWITCH(inputs[0].dtype(), SType, {
            const SType* src = inputs[0].data().dptr<SType>();
            for (size_t i = 0; i < n; ++i) acc[i] = static_cast<DType>(src[i]);
          });
          for (size_t k = 1; k < inputs.size(); ++k) {
            MSHADOW_TYPE_SWITCH(inputs[k].dtype(), SType, {
              const SType* src = inputs[k].data().dptr<SType>();
              for (size_t i = 0; i < n; ++i) {
                acc[i] = static_cast<DType>(acc[i] + static_cast<DType>(src[i]));
              }
            });
          }
          std::copy(acc.begin(), acc.end(), dst.dptr<DType>());
        });
      },
      Context::CPU(), reads, {out.var()}, FnProperty::kNormal, priority, "KVStoreReduce");
}

/*!
 * \brief out = sum(values) on out's device ('device' stores): values on other devices are
 *        copied there first, then add_n sums them (all dense, of out's dtype).
 */
void SumOnDevice(const std::vector<NDArray>& values, NDArray* out, int priority) {
  std::vector<NDArray> local;
  for (const NDArray& v : values) {
    if (v.ctx() == out->ctx()) {
      local.push_back(v);
      continue;
    }
    NDArray copy(v.shape(), out->ctx(), false, v.dtype());
    CopyFromTo(v, copy, priority);
    local.push_back(copy);
  }
  if (local.size() == 1) {
    CopyFromTo(local[0], *out, priority);
    return;
  }
  static const nnvm::Op* add_n = nnvm::Op::Get("add_n");
  const std::string num = std::to_string(local.size());
  const char* keys[] = {"num_args"};
  const char* vals[] = {num.c_str()};
  auto attrs = Imperative::Get()->ParseAttrs(add_n, static_cast<int>(local.size()), 1, keys, vals);
  std::vector<NDArray*> inputs;
  for (NDArray& v : local) inputs.push_back(&v);
  Imperative::Get()->Invoke(attrs, inputs, {out});
}

/*! \brief `values`, each on the CPU (device values copied there: the sums run on the CPU). */
std::vector<NDArray> OnCPU(const std::vector<NDArray>& values, int priority) {
  std::vector<NDArray> out;
  for (const NDArray& v : values) {
    if (v.is_none() || v.ctx().dev_mask() == cpu::kDevMask) {
      out.push_back(v);
      continue;
    }
    NDArray host = v.is_sparse() ? NDArray(v.storage_type(), v.shape(), Context::CPU(), v.dtype())
                                 : NDArray(v.shape(), Context::CPU(), false, v.dtype());
    CopyFromTo(v, host, priority);
    out.push_back(host);
  }
  return out;
}

/*! \brief A dense CPU int64 1-D array holding `rows`. */
NDArray Int64Array(const std::vector<int64_t>& rows) {
  NDArray arr(TShape(1, static_cast<int64_t>(rows.size())), Context::CPU(), false,
              mshadow::kInt64);
  if (!rows.empty()) std::copy(rows.begin(), rows.end(), arr.data().dptr<int64_t>());
  return arr;
}

/*! \brief The element count of one row (product of shape[1:]). */
size_t RowLength(const TShape& shape) {
  size_t n = 1;
  for (int i = 1; i < shape.ndim(); ++i) n *= static_cast<size_t>(shape[i]);
  return n;
}

/*!
 * \brief Inside an engine function: give the row_sparse `out` the rows `rows` (sorted, unique),
 *        each row copied from `src` (row_sparse, same dtype) if src stores it, else zero.
 */
void FillRowsFrom(const NDArray& src, const std::vector<int64_t>& rows, const NDArray& out) {
  const std::vector<int64_t> src_rows = SparseAuxAsInt64(src, 0);
  const size_t row_len = RowLength(out.shape());
  TShape data_shape = out.shape();
  data_shape[0] = static_cast<int64_t>(rows.size());
  NDArray data(data_shape, Context::CPU(), false, out.dtype());
  if (data.Size() != 0) {
    MSHADOW_TYPE_SWITCH(out.dtype(), DType, {
      DType* dst = data.data().dptr<DType>();
      const DType* from = src.sparse_data().Size() ? src.sparse_data().data().dptr<DType>()
                                                   : nullptr;
      for (size_t i = 0; i < rows.size(); ++i) {
        auto it = std::lower_bound(src_rows.begin(), src_rows.end(), rows[i]);
        DType* row = dst + i * row_len;
        if (it != src_rows.end() && *it == rows[i]) {
          std::copy(from + (it - src_rows.begin()) * row_len,
                    from + (it - src_rows.begin() + 1) * row_len, row);
        } else {
          std::fill(row, row + row_len, DType(0));
        }
      }
    });
  }
  // The output keeps its own index dtype (converted here: no nested engine work).
  NDArray aux(TShape(1, static_cast<int64_t>(rows.size())), Context::CPU(), false,
              out.aux_type(0));
  if (!rows.empty()) {
    MSHADOW_TYPE_SWITCH(out.aux_type(0), IType, {
      IType* p = aux.data().dptr<IType>();
      for (size_t i = 0; i < rows.size(); ++i) p[i] = static_cast<IType>(rows[i]);
    });
  }
  out.SetSparseParts(data, {aux});
}

const char* StypeName(int stype) {
  return stype == kDefaultStorage ? "default" : stype == kRowSparseStorage ? "row_sparse"
                                  : stype == kCSRStorage ? "csr" : "undefined";
}

}  // namespace

/*!
 * \brief out (row_sparse) = sum of the row_sparse `values`: the stored rows are the union of
 *        the values' rows, so rows no value stores stay absent. Runs on the engine.
 */
void SumRowSparseInto(const std::vector<NDArray>& values, const NDArray& out, int priority) {
  std::vector<engine::VarHandle> reads;
  for (const NDArray& v : values) reads.push_back(v.var());
  std::sort(reads.begin(), reads.end());
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  std::vector<NDArray> inputs = values;
  NDArray result = out;
  Engine::Get()->PushSync(
      [inputs, result](RunContext) {
        std::vector<std::vector<int64_t>> input_rows;
        std::vector<int64_t> rows;
        for (const NDArray& in : inputs) {
          in.CheckSparseFormat(false);
          input_rows.push_back(SparseAuxAsInt64(in, 0));
          rows.insert(rows.end(), input_rows.back().begin(), input_rows.back().end());
        }
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        const size_t row_len = RowLength(result.shape());
        TShape data_shape = result.shape();
        data_shape[0] = static_cast<int64_t>(rows.size());
        NDArray data(data_shape, Context::CPU(), false, result.dtype());
        if (data.Size() != 0) {
          MSHADOW_TYPE_SWITCH(result.dtype(), DType, {
            DType* dst = data.data().dptr<DType>();
            std::fill(dst, dst + data.Size(), DType(0));
            for (size_t k = 0; k < inputs.size(); ++k) {
              if (inputs[k].sparse_data().Size() == 0) continue;
              MSHADOW_TYPE_SWITCH(inputs[k].dtype(), SType, {
                const SType* src = inputs[k].sparse_data().data().dptr<SType>();
                for (size_t r = 0; r < input_rows[k].size(); ++r) {
                  const size_t pos =
                      std::lower_bound(rows.begin(), rows.end(), input_rows[k][r]) - rows.begin();
                  DType* row = dst + pos * row_len;
                  for (size_t j = 0; j < row_len; ++j) {
                    row[j] = static_cast<DType>(row[j] + static_cast<DType>(src[r * row_len + j]));
                  }
                }
              });
            }
          });
        }
        result.SetSparseParts(data, {Int64Array(rows)});
      },
      Context::CPU(), reads, {out.var()}, FnProperty::kNormal, priority, "KVStoreReduceRowSparse");
}

class KVStoreLocal : public KVStore {
 public:
  KVStoreLocal(const std::string& type, std::unique_ptr<Collective> collective)
      : collective_(std::move(collective)),
        stateless_(type == "horovod"),
        async_(type.find("async") != std::string::npos),
        nccl_(type.find("nccl") != std::string::npos),
        on_device_(type == "device" || type.compare(0, 7, "device_") == 0 || nccl_ ||
                   (collective_ && !async_ && type.find("device") != std::string::npos)) {
    type_ = type;
  }

  int get_rank() const override { return collective_ ? collective_->rank() : 0; }
  int get_group_size() const override { return collective_ ? collective_->size() : 1; }
  void Barrier() override {
    if (collective_) collective_->Barrier();
  }
  void SetGradientCompression(
      const std::vector<std::pair<std::string, std::string>>& params) override {
    if (!collective_) {
      KVStore::SetGradientCompression(params);
      return;
    }
    collective_->SetGradientCompression(params);
  }
  void SendCommandToServers(int head, const std::string& body) override {
    if (collective_) collective_->SendCommandToServers(head, body);
  }
  void RunServer(const Controller& controller) override {
    if (!collective_) {
      KVStore::RunServer(controller);
      return;
    }
    // A server applies the workers' pushes with this store's updater (set by the optimizer
    // command); keys arrive as KeyName wrote them: 3 or 'name'.
    collective_->RunServer(controller, [this](const std::string& key, const NDArray& recved,
                                              NDArray* stored) {
      if (!updater_ && !str_updater_) {
        MX_THROW(dmlc::ValueError)
            << "push of key " << key << ": the servers have no optimizer (dist_async applies "
            << "each push with it: call kv.set_optimizer, which Trainer does with "
            << "update_on_kvstore=True)";
      }
      if (key.size() >= 2 && key.front() == '\'' && key.back() == '\'') {
        if (!str_updater_) {
          MX_THROW(dmlc::ValueError) << "push of string key " << key << ": no updater for "
                                     << "string keys is set";
        }
        str_updater_(key.substr(1, key.size() - 2), recved, stored);
      } else {
        if (!updater_) {
          MX_THROW(dmlc::ValueError) << "push of int key " << key << ": no updater for int "
                                     << "keys is set";
        }
        updater_(std::stoi(key), recved, stored);
      }
    });
  }

  // ---- int keys
  void Init(const std::vector<int>& keys, const std::vector<NDArray>& values) override {
    RequireStateful("init");
    CheckSizes("init", keys.size(), values.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      const int key = keys[i];
      if (store_.count(key) != 0) {
        MX_THROW(dmlc::ValueError) << "KVStore init: duplicate init of key " << KeyName(key);
      }
      const NDArray& v = values[i];
      if (v.is_none()) MX_THROW(dmlc::ValueError) << "KVStore init: value of key " << KeyName(key) << " is empty";
      CheckStype("init", key, v);
      // 'device': a dense key lives (and is reduced and updated) on its first value's device.
      const Context home = on_device_ && !v.is_sparse() ? v.ctx() : Context::CPU();
      NDArray stored = v.is_sparse() ? NDArray(v.storage_type(), v.shape(), Context::CPU(), v.dtype())
                                     : NDArray(v.shape(), home, false, v.dtype());
      CopyFromTo(v, stored);
      if (async_) {
        collective_->ServerInit(KeyName(key), stored);
      } else if (collective_ && stored.ctx().dev_mask() == cpu::kDevMask) {
        collective_->Broadcast(KeyName(key), &stored);
      } else if (collective_) {  // a GPU value: broadcast through host memory
        NDArray host(stored.shape(), Context::CPU(), false, stored.dtype());
        CopyFromTo(stored, host);
        collective_->Broadcast(KeyName(key), &host);
        CopyFromTo(host, stored);
      }
      store_[key] = stored;
    }
  }

  void Push(const std::vector<int>& keys, const std::vector<NDArray>& values,
            int priority) override {
    RequireStateful("push");
    CheckSizes("push", keys.size(), values.size());
    // Group the values by key, keeping the keys' first-appearance order.
    std::vector<int> order;
    std::map<int, std::vector<NDArray>> grouped;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (grouped.count(keys[i]) == 0) order.push_back(keys[i]);
      grouped[keys[i]].push_back(values[i]);
    }
    for (int key : order) {
      NDArray& stored = Stored(key, "push");
      if (on_device_ && PushOnDevice(key, grouped[key], &stored, priority)) continue;
      const std::vector<NDArray> vals = OnCPU(grouped[key], priority);
      bool all_row_sparse = true;
      for (const NDArray& v : vals) {
        CheckStype("push", key, v);
        all_row_sparse = all_row_sparse && v.storage_type() == kRowSparseStorage;
        if (v.shape() != stored.shape()) {
          MX_THROW(dmlc::ValueError) << "KVStore push: key " << KeyName(key) << " got a value of shape "
                                     << ShapeStr(v.shape()) << " but the stored value has shape "
                                     << ShapeStr(stored.shape());
        }
      }
      NDArray merged;
      if (vals.size() == 1 && vals[0].dtype() == stored.dtype()) {
        merged = vals[0];
      } else if (all_row_sparse) {
        merged = NDArray(kRowSparseStorage, stored.shape(), Context::CPU(), stored.dtype());
        SumRowSparseInto(vals, merged, priority);
      } else {
        merged = NDArray(stored.shape(), Context::CPU(), false, stored.dtype());
        SumInto(vals, merged, priority);
      }
      if (async_) {
        collective_->ServerPush(KeyName(key), merged);  // the server applies it
        continue;
      }
      if (collective_) {
        // Without an updater the sum replaces the stored value: reduce straight into it.
        const bool replaces = !updater_ && !str_updater_;
        merged = collective_->Sum(KeyName(key), merged, replaces ? stored : NDArray());
        if (merged.SharesChunk(stored)) continue;
      }
      if (updater_ || str_updater_) {
        RunUpdater(key, merged, &stored);
      } else {
        // Without an updater the stored value becomes the sum, storage type included
        // (a dense key pushed row_sparse values holds a row_sparse value afterwards).
        bool fresh = merged.dtype() == stored.dtype() && merged.ctx() == Context::CPU();
        for (const NDArray& v : vals) fresh = fresh && !merged.SharesChunk(v);
        if (fresh) {
          stored = merged;  // a sum this store allocated: keep it instead of copying it
        } else {
          if (merged.storage_type() != stored.storage_type()) {
            stored = merged.is_sparse() ? NDArray(merged.storage_type(), stored.shape(),
                                                  Context::CPU(), stored.dtype())
                                        : NDArray(stored.shape(), Context::CPU(), false,
                                                  stored.dtype());
          }
          CopyFromTo(merged, stored, priority);
        }
      }
    }
  }

  void Pull(const std::vector<int>& keys, const std::vector<NDArray*>& values, int priority,
            bool ignore_sparse) override {
    RequireStateful("pull");
    CheckSizes("pull", keys.size(), values.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      NDArray& stored = Stored(keys[i], "pull");
      NDArray* out = values[i];
      CHECK(out != nullptr && !out->is_none())
          << "KVStore pull: output for key " << KeyName(keys[i]) << " is empty";
      if (out->shape() != stored.shape()) {
        MX_THROW(dmlc::ValueError) << "KVStore pull: key " << KeyName(keys[i]) << " has shape "
                                   << ShapeStr(stored.shape()) << " but the output has shape "
                                   << ShapeStr(out->shape());
      }
      if (out->is_sparse() && ignore_sparse) {
        LOG(WARNING) << "KVStore pull: the output for key " << KeyName(keys[i]) << " has "
                     << StypeName(out->storage_type()) << " storage; the pull is ignored (use "
                     << "row_sparse_pull, or pull with ignore_sparse=False)";
        continue;
      }
      if (async_ && stored.storage_type() == kRowSparseStorage) {
        // The server sends a row_sparse value densely; the output takes it as it is stored.
        NDArray dense(stored.shape(), Context::CPU(), false, stored.dtype());
        collective_->ServerPull(KeyName(keys[i]), dense);
        CopyFromTo(dense, *out, priority);
        continue;
      }
      if (async_) collective_->ServerPull(KeyName(keys[i]), stored);
      CopyFromTo(stored, *out, priority);
    }
  }

  void PushPull(const std::vector<int>& vkeys, const std::vector<int>& okeys,
                const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                int priority) override {
    if (stateless_) {
      AllreduceStateless(Names(vkeys), Names(okeys), values, outs, priority, false);
      return;
    }
    Push(vkeys, values, priority);
    Pull(okeys, outs, priority, true);
  }

  void Broadcast(const std::vector<int>& vkeys, const std::vector<int>& okeys,
                 const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                 int priority) override {
    if (stateless_) {
      AllreduceStateless(Names(vkeys), Names(okeys), values, outs, priority, true);
      return;
    }
    Init(vkeys, values);
    Pull(okeys, outs, priority, true);
  }


  void PullRowSparse(const std::vector<int>& keys,
                     const std::vector<std::pair<NDArray*, NDArray>>& outs_rows,
                     int priority) override {
    RequireStateful("row_sparse_pull");
    CheckSizes("row_sparse_pull", keys.size(), outs_rows.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      NDArray& stored = Stored(keys[i], "row_sparse_pull");
      NDArray* out = outs_rows[i].first;
      const NDArray& row_ids = outs_rows[i].second;
      if (stored.storage_type() != kRowSparseStorage) {
        MX_THROW(dmlc::ValueError)
            << "KVStore row_sparse_pull: key " << KeyName(keys[i]) << " holds a "
            << StypeName(stored.storage_type()) << " value; row_sparse_pull expects a row_sparse "
            << "stored value (init the key with a RowSparseNDArray), use pull for dense values";
      }
      if (out == nullptr || out->storage_type() != kRowSparseStorage) {
        MX_THROW(dmlc::ValueError)
            << "KVStore row_sparse_pull: the output for key " << KeyName(keys[i]) << " has "
            << StypeName(out == nullptr ? kUndefinedStorage : out->storage_type())
            << " storage; expected a RowSparseNDArray";
      }
      if (out->shape() != stored.shape()) {
        MX_THROW(dmlc::ValueError) << "KVStore row_sparse_pull: key " << KeyName(keys[i])
                                   << " has shape " << ShapeStr(stored.shape())
                                   << " but the output has shape " << ShapeStr(out->shape());
      }
      if (out->dtype() != stored.dtype()) {
        MX_THROW(dmlc::TypeError) << "KVStore row_sparse_pull: key " << KeyName(keys[i])
                                  << " has dtype " << stored.dtype() << " but the output has dtype "
                                  << out->dtype();
      }
      const std::vector<int64_t> rows = RequestedRows(keys[i], row_ids, stored.shape()[0]);
      NDArray src = stored, dst = *out;
      if (async_) {
        // The value lives on its server: fetch just these rows, then fill the output as below.
        TShape rows_shape = stored.shape();
        rows_shape[0] = static_cast<int64_t>(rows.size());
        NDArray fetched(rows_shape, Context::CPU(), false, stored.dtype());
        collective_->ServerPullRows(KeyName(keys[i]), stored.shape(), rows, fetched);
        src = NDArray(kRowSparseStorage, stored.shape(), Context::CPU(), stored.dtype());
        src.SetSparseParts(fetched, {Int64Array(rows)});
      }
      std::vector<engine::VarHandle> reads;
      if (!src.SharesChunk(dst)) reads.push_back(src.var());
      Engine::Get()->PushSync([src, dst, rows](RunContext) { FillRowsFrom(src, rows, dst); },
                              Context::CPU(), reads, {dst.var()}, FnProperty::kNormal, priority,
                              "KVStoreRowSparsePull");
    }
  }
  void PullRowSparse(const std::vector<std::string>& keys,
                     const std::vector<std::pair<NDArray*, NDArray>>& outs_rows,
                     int priority) override {
    RequireStateful("row_sparse_pull");
    PullRowSparse(ToInt(keys, "row_sparse_pull"), outs_rows, priority);
  }

  // ---- string keys: mapped to ints, the updater sees the original string
  void Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) override {
    RequireStateful("init");
    std::vector<int> ikeys;
    for (const std::string& k : keys) {
      if (str_to_int_.count(k) == 0) {
        const int id = static_cast<int>(int_to_str_.size());
        str_to_int_[k] = id;
        int_to_str_.push_back(k);
      } else {
        MX_THROW(dmlc::ValueError) << "KVStore init: duplicate init of key '" << k << "'";
      }
      ikeys.push_back(str_to_int_[k]);
    }
    InitStr(ikeys, values);
  }
  void Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values,
            int priority) override {
    RequireStateful("push");
    Push(ToInt(keys, "push"), values, priority);
  }
  void Pull(const std::vector<std::string>& keys, const std::vector<NDArray*>& values,
            int priority, bool ignore_sparse) override {
    RequireStateful("pull");
    Pull(ToInt(keys, "pull"), values, priority, ignore_sparse);
  }
  void PushPull(const std::vector<std::string>& vkeys, const std::vector<std::string>& okeys,
                const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                int priority) override {
    if (stateless_) {
      AllreduceStateless(Quoted(vkeys), Quoted(okeys), values, outs, priority, false);
      return;
    }
    Push(vkeys, values, priority);
    Pull(okeys, outs, priority, true);
  }
  void Broadcast(const std::vector<std::string>& vkeys, const std::vector<std::string>& okeys,
                 const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                 int priority) override {
    if (stateless_) {
      AllreduceStateless(Quoted(vkeys), Quoted(okeys), values, outs, priority, true);
      return;
    }
    Init(vkeys, values);
    Pull(okeys, outs, priority, true);
  }

 private:
  static std::vector<std::string> Names(const std::vector<int>& keys) {
    std::vector<std::string> names;
    for (int k : keys) names.push_back(std::to_string(k));
    return names;
  }
  static std::vector<std::string> Quoted(const std::vector<std::string>& keys) {
    std::vector<std::string> names;
    for (const std::string& k : keys) names.push_back("'" + k + "'");
    return names;
  }

  /*!
   * \brief The 'horovod' store keeps nothing: pushpull all-reduces each key's values (summed
   *        over this worker's devices first) straight into its outputs, broadcast sends rank
   *        0's value to them. Outputs that are the values themselves are reduced in place.
   */
  void AllreduceStateless(const std::vector<std::string>& vnames,
                          const std::vector<std::string>& onames,
                          const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                          int priority, bool broadcast) {
    const char* op = broadcast ? "broadcast" : "pushpull";
    CheckSizes(op, vnames.size(), values.size());
    CheckSizes(op, onames.size(), outs.size());
    std::vector<std::string> order;
    std::map<std::string, std::vector<NDArray>> grouped_values;
    std::map<std::string, std::vector<NDArray*>> grouped_outs;
    for (size_t i = 0; i < vnames.size(); ++i) {
      if (grouped_values.count(vnames[i]) == 0) order.push_back(vnames[i]);
      grouped_values[vnames[i]].push_back(values[i]);
    }
    for (size_t i = 0; i < onames.size(); ++i) {
      if (grouped_values.count(onames[i]) == 0) {
        MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " " << op << ": output key "
                                   << onames[i] << " has no value in this call";
      }
      grouped_outs[onames[i]].push_back(outs[i]);
    }
    for (const std::string& name : order) {
      const std::vector<NDArray> vals = OnCPU(grouped_values[name], priority);
      const NDArray& first = vals[0];
      for (const NDArray& v : vals) {
        if (v.is_none() || v.is_sparse() || v.shape() != first.shape()) {
          MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " " << op << " of key " << name
                                     << ": values must be dense arrays of one shape";
        }
      }
      // This worker's contribution, on the CPU.
      NDArray mine = first;
      if (!broadcast && vals.size() > 1) {
        mine = NDArray(first.shape(), Context::CPU(), false, first.dtype());
        SumInto(vals, mine, priority);
      }
      std::vector<NDArray*>& dsts = grouped_outs[name];
      for (NDArray* d : dsts) {
        if (d == nullptr || d->is_none() || d->shape() != first.shape()) {
          MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " " << op << " of key " << name
                                     << ": outputs must have the values' shape "
                                     << ShapeStr(first.shape());
        }
      }
      // Reduce into the first output when it can take the result directly, else into a
      // CPU buffer copied to every output.
      const bool direct = !dsts.empty() && !dsts[0]->is_sparse() &&
                          dsts[0]->ctx().dev_mask() == cpu::kDevMask &&
                          dsts[0]->dtype() == mine.dtype();
      NDArray result = direct ? *dsts[0] : NDArray(first.shape(), Context::CPU(), false,
                                                   mine.dtype());
      if (broadcast) {
        collective_->BroadcastInto(name, mine, result);
      } else {
        collective_->SumInto(name, mine, result);
      }
      for (size_t i = direct ? 1 : 0; i < dsts.size(); ++i) CopyFromTo(result, *dsts[i], priority);
    }
  }

  void RequireStateful(const char* op) const {
    if (stateless_) {
      MX_THROW(dmlc::NotImplementedError)
          << "KVStore " << type_ << ": " << op << " is not supported; a Horovod-style store "
          << "keeps no values (use pushpull and broadcast)";
    }
  }

  // The int-key store is shared by both key kinds; string keys live in a separate id space
  // (string id -> internal key kStrKeyBase + id) so they never collide with int keys.
  static constexpr int kStrKeyBase = -(1 << 30);

  /*! \brief The sorted unique row ids in `row_ids` (any dtype), each checked to be < num_rows. */
  std::vector<int64_t> RequestedRows(int key, const NDArray& row_ids, int64_t num_rows) const {
    if (row_ids.is_none() || row_ids.is_sparse() || row_ids.shape().ndim() != 1) {
      MX_THROW(dmlc::ValueError) << "KVStore row_sparse_pull: row_ids for key " << KeyName(key)
                                 << " must be a dense 1-D NDArray";
    }
    row_ids.WaitToRead();
    std::vector<int64_t> rows(row_ids.Size());
    if (!rows.empty()) {
      MSHADOW_TYPE_SWITCH(row_ids.dtype(), IType, {
        const IType* p = row_ids.data().dptr<IType>();
        for (size_t k = 0; k < rows.size(); ++k) rows[k] = static_cast<int64_t>(p[k]);
      });
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    if (!rows.empty() && (rows.front() < 0 || rows.back() >= num_rows)) {
      MX_THROW(dmlc::ValueError) << "KVStore row_sparse_pull: key " << KeyName(key) << " has "
                                 << num_rows << " rows but row_ids contains "
                                 << (rows.front() < 0 ? rows.front() : rows.back());
    }
    return rows;
  }

  /*! \brief Values may be dense or row_sparse (csr is not a kvstore storage type, as in 1.9.1). */
  void CheckStype(const char* op, int key, const NDArray& v) const {
    if (v.storage_type() != kDefaultStorage && v.storage_type() != kRowSparseStorage) {
      MX_THROW(dmlc::ValueError) << "KVStore " << op << ": key " << KeyName(key) << " got a "
                                 << StypeName(v.storage_type()) << " value; only default and "
                                 << "row_sparse storage are supported";
    }
  }

  void InitStr(const std::vector<int>& ids, const std::vector<NDArray>& values) {
    std::vector<int> internal;
    for (int id : ids) internal.push_back(kStrKeyBase + id);
    Init(internal, values);
  }

  std::vector<int> ToInt(const std::vector<std::string>& keys, const char* op) {
    std::vector<int> ret;
    for (const std::string& k : keys) {
      auto it = str_to_int_.find(k);
      if (it == str_to_int_.end()) {
        MX_THROW(dmlc::ValueError) << "KVStore " << op << ": key '" << k
                                   << "' has not been initialized (call init first)";
      }
      ret.push_back(kStrKeyBase + it->second);
    }
    return ret;
  }

  bool IsStrKey(int key) const {
    return key >= kStrKeyBase && key < kStrKeyBase + static_cast<int>(int_to_str_.size());
  }

  std::string KeyName(int key) const {
    if (IsStrKey(key)) {
      return "'" + int_to_str_[key - kStrKeyBase] + "'";
    }
    return std::to_string(key);
  }

  void RunUpdater(int key, const NDArray& merged, NDArray* stored) {
    if (IsStrKey(key)) {
      const std::string& skey = int_to_str_[key - kStrKeyBase];
      if (str_updater_) {
        str_updater_(skey, merged, stored);
        return;
      }
      MX_THROW(dmlc::ValueError) << "KVStore push: key '" << skey
                                 << "' is a string key but only an int-key updater is set";
    }
    if (!updater_) {
      MX_THROW(dmlc::ValueError) << "KVStore push: key " << key
                                 << " is an int key but only a string-key updater is set";
    }
    updater_(key, merged, stored);
  }

  NDArray& Stored(int key, const char* op) {
    auto it = store_.find(key);
    if (it == store_.end()) {
      MX_THROW(dmlc::ValueError) << "KVStore " << op << ": key " << KeyName(key)
                                 << " has not been initialized (call init first)";
    }
    return it->second;
  }

  static void CheckSizes(const char* op, size_t nkeys, size_t nvals) {
    if (nkeys != nvals) {
      MX_THROW(dmlc::ValueError) << "KVStore " << op << ": " << nkeys << " keys but " << nvals
                                 << " values";
    }
  }

  /*!
   * \brief A 'device' store's push of dense values of the stored dtype: summed on the stored
   *        copy's device, then applied there. False (nothing done) for other pushes, which take
   *        the CPU path.
   */
  bool PushOnDevice(int key, const std::vector<NDArray>& vals, NDArray* stored, int priority) {
    if (stored->is_sparse() || stored->ctx() == Context::CPU()) return false;
    for (const NDArray& v : vals) {
      if (v.is_sparse() || v.dtype() != stored->dtype()) return false;
      CheckStype("push", key, v);
      if (v.shape() != stored->shape()) {
        MX_THROW(dmlc::ValueError) << "KVStore push: key " << KeyName(key) << " got a value of "
                                   << "shape " << ShapeStr(v.shape()) << " but the stored value "
                                   << "has shape " << ShapeStr(stored->shape());
      }
    }
    const bool replaces = !updater_ && !str_updater_;  // the sum replaces the stored value
    if (replaces && !collective_) {
      ReduceOnDevice(vals, stored, priority);
      return true;
    }
    NDArray merged;
    if (vals.size() == 1 && vals[0].ctx() == stored->ctx()) {
      merged = vals[0];
    } else {
      merged = NDArray(stored->shape(), stored->ctx(), false, stored->dtype());
      ReduceOnDevice(vals, &merged, priority);
    }
    if (collective_) {  // dist_device_sync: the sum over the workers, on this GPU
      merged = collective_->Sum(KeyName(key), merged, replaces ? *stored : NDArray());
      if (merged.SharesChunk(*stored)) return true;
      if (replaces || merged.ctx() != stored->ctx()) {
        // A compressed sum comes back on the CPU.
        NDArray back = replaces ? *stored : NDArray(stored->shape(), stored->ctx(), false,
                                                    stored->dtype());
        CopyFromTo(merged, back, priority);
        if (replaces) return true;
        merged = back;
      }
    }
    RunUpdater(key, merged, stored);
    return true;
  }

  /*! \brief out := sum(vals) on out's GPU: one NCCL reduction for 'nccl' where it can. */
  void ReduceOnDevice(const std::vector<NDArray>& vals, NDArray* out, int priority) {
    if (nccl_ && gpu_collective::CanReduceOnDevices(vals, *out)) {
      gpu_collective::ReduceOnDevices(vals, *out, priority);
      return;
    }
    SumOnDevice(vals, out, priority);
  }

  std::unique_ptr<Collective> collective_;  // set for dist_* stores
  bool stateless_;                           // 'horovod': pushpull and broadcast only
  bool async_;                               // dist_async: values on the servers
  bool nccl_;                                // 'nccl': sums over GPUs with NCCL
  bool on_device_;                           // 'device': dense keys stored on a device
  std::unordered_map<int, NDArray> store_;
  std::unordered_map<std::string, int> str_to_int_;
  std::vector<std::string> int_to_str_;
};

}  // namespace kvstore

void KVStore::SetGradientCompression(const std::vector<std::pair<std::string, std::string>>&) {
  MX_THROW(dmlc::NotImplementedError)
      << "Gradient compression is only supported by distributed KVStores ('dist_*'), not by '"
      << type_ << "'";
}

void KVStore::RunServer(const Controller&) {
  MX_THROW(dmlc::NotImplementedError) << "KVStore '" << type_
                                      << "' has no server: only dist_* stores run servers";
}

KVStore* KVStore::Create(const char* type_name) {
  std::string type(type_name == nullptr ? "local" : type_name);
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (type.compare(0, 4, "dist") == 0) {
    // MXNet 1.x's names: dist_sync, dist_device_sync / dist_sync_device, dist_async(_device);
    // plain 'dist' is synchronous.
    static const char* const kDistTypes[] = {"dist", "dist_sync", "dist_device_sync",
                                             "dist_sync_device", "dist_async",
                                             "dist_device_async", "dist_async_device"};
    if (std::find(std::begin(kDistTypes), std::end(kDistTypes), type) == std::end(kDistTypes)) {
      MX_THROW(dmlc::ValueError) << "Unknown KVStore type '" << type_name << "'; distributed "
                                 << "types: 'dist_sync', 'dist_device_sync', 'dist_async'";
    }
    return new kvstore::KVStoreLocal(type, kvstore::CreateCollective(type));
  }
  if (type == "horovod") {
    // Horovod's all-reduce store (MXNet 1.x delegates it to the horovod package) on MPI.
    return new kvstore::KVStoreLocal(type, kvstore::CreateCollective(type));
  }
  if (type.find("nccl") != std::string::npos) {
    if (!kvstore::gpu_collective::NcclBuilt()) {
      MX_THROW(dmlc::NotImplementedError)
          << "KVStore type '" << type << "' needs NCCL (GPU), which this build does not "
          << "include (build with CUDA and NCCL: MXNET_CUDA=1 tools/setup.sh); use 'local' or "
          << "'device'";
    }
    return new kvstore::KVStoreLocal(type, nullptr);
  }
  if (type != "local" && type.compare(0, 6, "local_") != 0 && type != "device" &&
      type.compare(0, 7, "device_") != 0) {
    MX_THROW(dmlc::ValueError) << "Unknown KVStore type '" << type_name
                               << "'; valid types here: 'local', 'device', 'nccl', "
                               << "'dist_sync', 'dist_device_sync', 'dist_async', 'horovod'";
  }
  return new kvstore::KVStoreLocal(type, nullptr);
}

}  // namespace mxnet
