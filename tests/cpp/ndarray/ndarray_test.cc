// NDArray: views share memory, copies convert dtypes, save/load round-trips and rejects bad files.
#include <gtest/gtest.h>
#include <mxnet/c_api.h>
#include <mxnet/ndarray.h>

#include <cstring>
#include <numeric>
#include <sstream>

using mxnet::Context;
using mxnet::NDArray;
using mxnet::TShape;

namespace {

NDArray Iota(const TShape& shape, int dtype = mshadow::kFloat32) {
  NDArray arr(shape, Context::CPU(), false, dtype);
  std::vector<double> values(shape.Size());
  std::iota(values.begin(), values.end(), 0.0);
  NDArray src(shape, Context::CPU(), false, mshadow::kFloat64);
  src.SyncCopyFromCPU(values.data(), values.size());
  mxnet::CopyFromTo(src, arr);
  return arr;
}

std::vector<float> ToVector(const NDArray& arr) {
  std::vector<float> out(arr.Size());
  NDArray f(arr.shape(), Context::CPU(), false, mshadow::kFloat32);
  mxnet::CopyFromTo(arr, f);
  f.SyncCopyToCPU(out.data(), out.size());
  return out;
}

}  // namespace

TEST(NDArray, ViewsShareMemory) {
  NDArray a = Iota(TShape({4, 3}));
  NDArray row = a.At(2);
  EXPECT_EQ(row.shape(), TShape({3}));
  EXPECT_EQ(ToVector(row), (std::vector<float>{6, 7, 8}));
  NDArray rows = a.Slice(1, 3);
  EXPECT_EQ(rows.shape(), TShape({2, 3}));
  float ones[6] = {1, 1, 1, 1, 1, 1};
  rows.SyncCopyFromCPU(ones, 6);
  auto all = ToVector(a);
  EXPECT_EQ(all[3], 1);
  EXPECT_EQ(all[8], 1);
  EXPECT_EQ(all[9], 9);
  NDArray flat = a.Reshape(TShape({12}));
  EXPECT_EQ(ToVector(flat), all);
}

TEST(NDArray, BadViewsThrowTypedErrors) {
  NDArray a = Iota(TShape({4, 3}));
  EXPECT_THROW(a.At(4), mxnet::IndexError);
  EXPECT_THROW(a.Slice(3, 5), mxnet::IndexError);
  EXPECT_THROW(a.Reshape(TShape({5})), mxnet::ValueError);
  std::vector<float> buf(5);
  EXPECT_THROW(a.SyncCopyToCPU(buf.data(), buf.size()), mxnet::ValueError);
}

// A failed allocation (here: a GPU that does not exist) throws out of the constructor; nothing
// it made may be left behind (tools/sanitize.sh's LeakSanitizer checks the engine variable),
// and the next array works.
TEST(NDArray, FailedAllocationThrowsAndLeavesNothing) {
  const Context missing = Context::GPU(Context::GetGPUCount());
  for (int i = 0; i < 3; ++i) {
    EXPECT_THROW(NDArray(TShape({2, 3}), missing, false, mshadow::kFloat32), dmlc::Error);
  }
  EXPECT_EQ(ToVector(Iota(TShape({2}))), (std::vector<float>{0, 1}));
}

TEST(NDArray, CopyConvertsDtype) {
  NDArray a = Iota(TShape({5}), mshadow::kInt32);
  NDArray h(TShape({5}), Context::CPU(), false, mshadow::kFloat16);
  mxnet::CopyFromTo(a, h);
  EXPECT_EQ(ToVector(h), (std::vector<float>{0, 1, 2, 3, 4}));
}

TEST(NDArray, ReshapeCodes) {
  using mxnet::InferReshapeShape;
  EXPECT_EQ(InferReshapeShape(TShape({2, 3, 4}), TShape({0, -1}), false), TShape({2, 12}));
  EXPECT_EQ(InferReshapeShape(TShape({2, 3, 4}), TShape({-3, 4}), false), TShape({6, 4}));
  EXPECT_EQ(InferReshapeShape(TShape({2, 3, 4}), TShape({-2}), false), TShape({2, 3, 4}));
  EXPECT_EQ(InferReshapeShape(TShape({2, 12}), TShape({0, -4, 3, -1}), false), TShape({2, 3, 4}));
  EXPECT_EQ(InferReshapeShape(TShape({10, 5, 4}), TShape({-1, 0}), true), TShape({50, 4}));
  EXPECT_THROW(InferReshapeShape(TShape({2, 3}), TShape({4, 2}), false), mxnet::ValueError);
  EXPECT_THROW(InferReshapeShape(TShape({2, 3}), TShape({-1, -1}), false), mxnet::ValueError);
}

TEST(NDArray, SaveLoadRoundTripsEveryDtype) {
  std::vector<NDArray> arrays;
  std::vector<std::string> names;
  for (int dtype : {mshadow::kFloat32, mshadow::kFloat64, mshadow::kFloat16, mshadow::kUint8,
                    mshadow::kInt8, mshadow::kInt32, mshadow::kInt64}) {
    arrays.push_back(Iota(TShape({2, 3}), dtype));
    names.push_back(mshadow::dtype_string(dtype));
  }
  arrays.push_back(NDArray());
  names.push_back("none");
  std::stringstream buf;
  NDArray::Save(&buf, arrays, names);
  std::vector<NDArray> loaded;
  std::vector<std::string> loaded_names;
  NDArray::Load(&buf, &loaded, &loaded_names);
  ASSERT_EQ(loaded.size(), arrays.size());
  EXPECT_EQ(loaded_names, names);
  for (size_t i = 0; i + 1 < arrays.size(); ++i) {
    EXPECT_EQ(loaded[i].dtype(), arrays[i].dtype());
    EXPECT_EQ(loaded[i].shape(), arrays[i].shape());
    EXPECT_EQ(ToVector(loaded[i]), ToVector(arrays[i]));
  }
  EXPECT_TRUE(loaded.back().is_none());
}

TEST(NDArray, LoadRejectsTruncatedAndCorruptFiles) {
  std::stringstream good;
  NDArray::Save(&good, {Iota(TShape({8, 8}))}, {"w"});
  const std::string bytes = good.str();
  std::vector<NDArray> out;
  std::vector<std::string> names;
  // Every truncation point fails cleanly.
  for (size_t cut = 0; cut < bytes.size(); cut += 7) {
    std::stringstream s(bytes.substr(0, cut));
    EXPECT_THROW(NDArray::Load(&s, &out, &names), dmlc::Error) << "cut at " << cut;
  }
  // A header promising a huge array must not allocate it.
  std::string huge = bytes;
  const int64_t big = int64_t(1) << 40;
  std::memcpy(&huge[24 + 4 + 4 + 4], &big, sizeof(big));  // first dim of the first array
  std::stringstream s(huge);
  EXPECT_THROW(NDArray::Load(&s, &out, &names), dmlc::Error);
  std::stringstream garbage(std::string(64, '\x7f'));
  EXPECT_THROW(NDArray::Load(&garbage, &out, &names), dmlc::Error);
}

TEST(CApi, ErrorsComeBackAsMinusOneWithTypedMessage) {
  NDArrayHandle h = nullptr;
  int64_t shape[2] = {2, 3};
  ASSERT_EQ(MXNDArrayCreateEx64(shape, 2, 1, 0, 0, 0, &h), 0);
  NDArrayHandle row = nullptr;
  EXPECT_EQ(MXNDArrayAt64(h, 7, &row), -1);
  EXPECT_EQ(std::string(MXGetLastError()).rfind("IndexError: ", 0), 0u) << MXGetLastError();
  EXPECT_EQ(MXNDArrayCreateEx64(shape, 2, 9, 0, 0, 0, &row), -1);
  EXPECT_NE(std::string(MXGetLastError()).find("device type"), std::string::npos);
  int ndim = 0;
  const int64_t* dims = nullptr;
  ASSERT_EQ(MXNDArrayGetShapeEx64(h, &ndim, &dims), 0);
  EXPECT_EQ(ndim, 2);
  EXPECT_EQ(dims[1], 3);
  EXPECT_EQ(MXNDArrayFree(h), 0);
}
