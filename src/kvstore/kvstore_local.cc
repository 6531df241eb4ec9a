/*!
 * \file kvstore_local.cc
 * \brief KVStore 'local' / 'device': a single-process store. Values pushed under one key in one
 *        call are summed (an engine function reading every value and writing the sum), then the
 *        updater (or plain replacement) applies the sum to the stored copy.
 */
#include <dmlc/logging.h>
#include <mxnet/kvstore.h>

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
      [inputs, result](RunContext) {
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

}  // namespace

class KVStoreLocal : public KVStore {
 public:
  explicit KVStoreLocal(const std::string& type) { type_ = type; }

  // ---- int keys
  void Init(const std::vector<int>& keys, const std::vector<NDArray>& values) override {
    CheckSizes("init", keys.size(), values.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      const int key = keys[i];
      if (store_.count(key) != 0) {
        MX_THROW(dmlc::ValueError) << "KVStore init: duplicate init of key " << KeyName(key);
      }
      const NDArray& v = values[i];
      if (v.is_none()) MX_THROW(dmlc::ValueError) << "KVStore init: value of key " << KeyName(key) << " is empty";
      NDArray stored(v.shape(), Context::CPU(), false, v.dtype());
      CopyFromTo(v, stored);
      store_[key] = stored;
    }
  }

  void Push(const std::vector<int>& keys, const std::vector<NDArray>& values,
            int priority) override {
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
      const std::vector<NDArray>& vals = grouped[key];
      for (const NDArray& v : vals) {
        if (v.shape() != stored.shape()) {
          MX_THROW(dmlc::ValueError) << "KVStore push: key " << KeyName(key) << " got a value of shape "
                                     << ShapeStr(v.shape()) << " but the stored value has shape "
                                     << ShapeStr(stored.shape());
        }
      }
      NDArray merged;
      if (vals.size() == 1 && vals[0].dtype() == stored.dtype()) {
        merged = vals[0];
      } else {
        merged = NDArray(stored.shape(), Context::CPU(), false, stored.dtype());
        SumInto(vals, merged, priority);
      }
      if (updater_ || str_updater_) {
        RunUpdater(key, merged, &stored);
      } else {
        CopyFromTo(merged, stored, priority);
      }
    }
  }

  void Pull(const std::vector<int>& keys, const std::vector<NDArray*>& values, int priority,
            bool) override {
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
      CopyFromTo(stored, *out, priority);
    }
  }

  void PushPull(const std::vector<int>& vkeys, const std::vector<int>& okeys,
                const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                int priority) override {
    Push(vkeys, values, priority);
    Pull(okeys, outs, priority, true);
  }

  void Broadcast(const std::vector<int>& vkeys, const std::vector<int>& okeys,
                 const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                 int priority) override {
    Init(vkeys, values);
    Pull(okeys, outs, priority, true);
  }

  // ---- string keys: mapped to ints, the updater sees the original string
  void Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) override {
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
    Push(ToInt(keys, "push"), values, priority);
  }
  void Pull(const std::vector<std::string>& keys, const std::vector<NDArray*>& values,
            int priority, bool ignore_sparse) override {
    Pull(ToInt(keys, "pull"), values, priority, ignore_sparse);
  }
  void PushPull(const std::vector<std::string>& vkeys, const std::vector<std::string>& okeys,
                const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                int priority) override {
    Push(vkeys, values, priority);
    Pull(okeys, outs, priority, true);
  }
  void Broadcast(const std::vector<std::string>& vkeys, const std::vector<std::string>& okeys,
                 const std::vector<NDArray>& values, const std::vector<NDArray*>& outs,
                 int priority) override {
    Init(vkeys, values);
    Pull(okeys, outs, priority, true);
  }

 private:
  // The int-key store is shared by both key kinds; string keys live in a separate id space
  // (string id -> internal key kStrKeyBase + id) so they never collide with int keys.
  static constexpr int kStrKeyBase = -(1 << 30);

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

  std::unordered_map<int, NDArray> store_;
  std::unordered_map<std::string, int> str_to_int_;
  std::vector<std::string> int_to_str_;
};

}  // namespace kvstore

KVStore* KVStore::Create(const char* type_name) {
  std::string type(type_name == nullptr ? "local" : type_name);
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (type.find("dist") != std::string::npos) {
    MX_THROW(dmlc::NotImplementedError)
        << "KVStore type '" << type << "' needs the distributed parameter server, which this "
        << "build does not include; use 'local' or 'device'";
  }
  if (type.find("nccl") != std::string::npos) {
    MX_THROW(dmlc::NotImplementedError)
        << "KVStore type '" << type << "' needs NCCL (GPU), which this build does not include; "
        << "use 'local' or 'device'";
  }
  if (type != "local" && type.compare(0, 6, "local_") != 0 && type != "device" &&
      type.compare(0, 7, "device_") != 0) {
    MX_THROW(dmlc::ValueError) << "Unknown KVStore type '" << type_name
                               << "'; valid types here: 'local', 'device'";
  }
  return new kvstore::KVStoreLocal(type);
}

}  // namespace mxnet
