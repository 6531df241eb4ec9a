// Tests of src/kvstore: push sums the values of a key, pull broadcasts, updaters for int and
// string keys, and the errors for unknown / duplicate keys and unsupported store types.
#include <gtest/gtest.h>
#include <dmlc/logging.h>
#include <mxnet/kvstore.h>
#include <mxnet/ndarray.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using mxnet::Context;
using mxnet::KVStore;
using mxnet::NDArray;
using mxnet::TShape;
using IntKeys = std::vector<int>;

NDArray Filled(const std::vector<float>& values) {
  NDArray a(TShape({static_cast<int64_t>(values.size())}), Context::CPU());
  a.SyncCopyFromCPU(values.data(), values.size());
  return a;
}

std::vector<float> Values(const NDArray& a) {
  std::vector<float> out(a.Size());
  a.SyncCopyToCPU(out.data(), out.size());
  return out;
}

TEST(KVStore, PushSumsAndPullBroadcasts) {
  std::unique_ptr<KVStore> kv(KVStore::Create("local"));
  EXPECT_EQ(kv->type(), "local");
  kv->Init(IntKeys{3}, {Filled({0, 0, 0})});
  kv->Push(IntKeys{3, 3, 3}, {Filled({1, 2, 3}), Filled({10, 20, 30}), Filled({100, 200, 300})});
  NDArray a = Filled({0, 0, 0}), b = Filled({0, 0, 0});
  kv->Pull(IntKeys{3, 3}, {&a, &b});
  EXPECT_EQ(Values(a), (std::vector<float>{111, 222, 333}));
  EXPECT_EQ(Values(b), (std::vector<float>{111, 222, 333}));
}

TEST(KVStore, UpdatersSeeIntAndStringKeys) {
  std::unique_ptr<KVStore> kv(KVStore::Create("device"));
  std::vector<std::string> seen;
  kv->set_updater(KVStore::Updater([&](int key, const NDArray& recv, NDArray* local) {
    seen.push_back(std::to_string(key));
    std::vector<float> r = Values(recv), l = Values(*local);
    for (size_t i = 0; i < l.size(); ++i) l[i] -= 0.5f * r[i];
    local->SyncCopyFromCPU(l.data(), l.size());
  }));
  kv->set_updater(KVStore::StrUpdater(
      [&](const std::string& key, const NDArray& recv, NDArray* local) {
        seen.push_back(key);
        std::vector<float> r = Values(recv), l = Values(*local);
        for (size_t i = 0; i < l.size(); ++i) l[i] += r[i];
        local->SyncCopyFromCPU(l.data(), l.size());
      }));
  kv->Init(IntKeys{7}, {Filled({1, 1})});
  kv->Init(std::vector<std::string>{"w"}, {Filled({1, 1})});
  kv->Push(IntKeys{7}, {Filled({2, 4})});
  kv->Push(std::vector<std::string>{"w", "w"}, {Filled({2, 4}), Filled({1, 1})});
  NDArray out = Filled({0, 0});
  kv->Pull(IntKeys{7}, {&out});
  EXPECT_EQ(Values(out), (std::vector<float>{0, -1}));
  kv->Pull(std::vector<std::string>{"w"}, {&out});
  EXPECT_EQ(Values(out), (std::vector<float>{4, 6}));
  EXPECT_EQ(seen, (std::vector<std::string>{"7", "w"}));
}

TEST(KVStore, Errors) {
  std::unique_ptr<KVStore> kv(KVStore::Create("local"));
  kv->Init(IntKeys{1}, {Filled({1})});
  EXPECT_THROW(kv->Init(IntKeys{1}, {Filled({1})}), dmlc::ValueError);
  EXPECT_THROW(kv->Push(IntKeys{2}, {Filled({1})}), dmlc::ValueError);
  NDArray out = Filled({0});
  EXPECT_THROW(kv->Pull(std::vector<std::string>{"missing"}, {&out}), dmlc::ValueError);
  EXPECT_THROW(kv->Push(IntKeys{1}, {Filled({1, 2})}), dmlc::ValueError);
  EXPECT_THROW(KVStore::Create("dist_nonsense"), dmlc::ValueError);  // dist_* parse first
  EXPECT_THROW(KVStore::Create("nonsense"), dmlc::ValueError);
}

}  // namespace
