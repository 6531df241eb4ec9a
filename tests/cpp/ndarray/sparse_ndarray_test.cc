// Sparse NDArrays: layout of the parts, storage casts, format checks, binary save/load, and
// that dense arrays carry no sparse state.
#include <gtest/gtest.h>
#include <mxnet/ndarray.h>

#include <sstream>
#include <vector>

using mxnet::Context;
using mxnet::NDArray;
using mxnet::TShape;

namespace {

NDArray Dense(const TShape& shape, const std::vector<float>& values) {
  NDArray arr(shape, Context::CPU(), false, mshadow::kFloat32);
  arr.SyncCopyFromCPU(values.data(), values.size());
  return arr;
}

std::vector<float> Values(const NDArray& arr) {
  std::vector<float> out(arr.Size());
  arr.SyncCopyToCPU(out.data(), out.size());  // densifies sparse arrays
  return out;
}

std::vector<int64_t> Aux(const NDArray& arr, size_t i) {
  NDArray a = arr.AuxNDArray(i);
  std::vector<int64_t> out(a.Size());
  if (!out.empty()) a.SyncCopyToCPU(out.data(), out.size());
  return out;
}

const std::vector<float> kMatrix = {0, 1, 0, 0,   // row 0
                                    0, 0, 0, 0,   // row 1 (empty)
                                    2, 0, 3, 0};  // row 2

}  // namespace

TEST(SparseNDArray, DenseArraysHaveNoSparseParts) {
  NDArray d = Dense(TShape({3, 4}), kMatrix);
  EXPECT_EQ(d.storage_type(), mxnet::kDefaultStorage);
  EXPECT_FALSE(d.is_sparse());
  EXPECT_EQ(d.num_aux(), 0u);
  EXPECT_EQ(d.storage_shape(), d.shape());
  EXPECT_EQ(NDArray().storage_type(), mxnet::kUndefinedStorage);
}

TEST(SparseNDArray, EmptyLayouts) {
  NDArray csr(mxnet::kCSRStorage, TShape({3, 4}), Context::CPU(), mshadow::kFloat32);
  EXPECT_EQ(csr.num_aux(), 2u);
  EXPECT_EQ(csr.aux_shape(0), TShape(1, 4));  // indptr: rows + 1 zeros
  EXPECT_EQ(csr.aux_shape(1), TShape(1, 0));
  EXPECT_EQ(csr.aux_type(0), mshadow::kInt64);
  EXPECT_EQ(csr.storage_shape(), TShape(1, 0));
  EXPECT_EQ(Values(csr), std::vector<float>(12, 0.f));
  NDArray rsp(mxnet::kRowSparseStorage, TShape({5, 2, 3}), Context::CPU(), mshadow::kFloat64);
  EXPECT_EQ(rsp.num_aux(), 1u);
  EXPECT_EQ(rsp.storage_shape(), TShape({0, 2, 3}));
  EXPECT_THROW(NDArray(mxnet::kCSRStorage, TShape({2, 2, 2}), Context::CPU(), 0),
               dmlc::Error);
}

TEST(SparseNDArray, CastDenseToCsrAndBack) {
  NDArray d = Dense(TShape({3, 4}), kMatrix);
  NDArray csr(mxnet::kCSRStorage, TShape({3, 4}), Context::CPU(), mshadow::kFloat32);
  mxnet::CopyFromTo(d, csr);
  EXPECT_EQ(Aux(csr, 0), (std::vector<int64_t>{0, 1, 1, 3}));
  EXPECT_EQ(Aux(csr, 1), (std::vector<int64_t>{1, 0, 2}));
  EXPECT_EQ(Values(csr.DataNDArray()), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(Values(csr), kMatrix);
  csr.SyncCheckFormat(true);
}

TEST(SparseNDArray, CastDenseToRowSparseKeepsNonZeroRows) {
  NDArray d = Dense(TShape({3, 4}), kMatrix);
  NDArray rsp(mxnet::kRowSparseStorage, TShape({3, 4}), Context::CPU(), mshadow::kFloat32);
  mxnet::CopyFromTo(d, rsp);
  EXPECT_EQ(Aux(rsp, 0), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(rsp.storage_shape(), TShape({2, 4}));
  EXPECT_EQ(Values(rsp), kMatrix);
  // row_sparse -> csr goes through dense
  NDArray csr(mxnet::kCSRStorage, TShape({3, 4}), Context::CPU(), mshadow::kFloat32);
  mxnet::CopyFromTo(rsp, csr);
  EXPECT_EQ(Values(csr), kMatrix);
}

TEST(SparseNDArray, CheckFormatReportsFaults) {
  NDArray csr(mxnet::kCSRStorage, TShape({2, 3}), Context::CPU(), mshadow::kFloat32);
  NDArray indptr(TShape(1, 3), Context::CPU(), false, mshadow::kInt64);
  const int64_t bad_ptr[] = {0, 2, 1};
  indptr.SyncCopyFromCPU(bad_ptr, 3);
  NDArray indices(TShape(1, 1), Context::CPU(), false, mshadow::kInt64);
  const int64_t idx[] = {0};
  indices.SyncCopyFromCPU(idx, 1);
  csr.SyncCopyFromNDArray(indptr, 0);
  csr.SyncCopyFromNDArray(indices, 1);
  csr.SyncCopyFromNDArray(Dense(TShape(1, 1), {5}), -1);
  try {
    csr.SyncCheckFormat(true);
    FAIL() << "expected an error";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("non-decreasing"), std::string::npos) << e.what();
  }
}

TEST(SparseNDArray, SaveLoadRoundTrip) {
  NDArray d = Dense(TShape({3, 4}), kMatrix);
  NDArray csr(mxnet::kCSRStorage, TShape({3, 4}), Context::CPU(), mshadow::kFloat32);
  NDArray rsp(mxnet::kRowSparseStorage, TShape({3, 4}), Context::CPU(), mshadow::kFloat32);
  mxnet::CopyFromTo(d, csr);
  mxnet::CopyFromTo(d, rsp);
  std::stringstream ss;
  NDArray::Save(&ss, {csr, rsp, d}, {});
  std::vector<NDArray> back;
  std::vector<std::string> names;
  NDArray::Load(&ss, &back, &names);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].storage_type(), mxnet::kCSRStorage);
  EXPECT_EQ(back[1].storage_type(), mxnet::kRowSparseStorage);
  EXPECT_EQ(back[2].storage_type(), mxnet::kDefaultStorage);
  for (const NDArray& a : back) EXPECT_EQ(Values(a), kMatrix);
  EXPECT_EQ(Aux(back[0], 0), Aux(csr, 0));
  // a truncated sparse record is a clear error, not a crash
  std::string bytes;
  {
    std::stringstream one;
    NDArray::Save(&one, {csr}, {});
    bytes = one.str();
  }
  std::stringstream cut(bytes.substr(0, bytes.size() - 12));
  EXPECT_THROW(NDArray::Load(&cut, &back, &names), dmlc::Error);
}
