// Shape, reduction and indexing operators invoked through mxnet::Imperative (the mx.nd path):
// values, shapes, dtypes, and the errors for bad parameters.
#include <gtest/gtest.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <nnvm/op.h>

#include <map>
#include <numeric>
#include <string>
#include <vector>

using mxnet::Context;
using mxnet::Imperative;
using mxnet::NDArray;
using mxnet::TShape;

namespace {

NDArray FromVector(const TShape& shape, const std::vector<float>& v) {
  NDArray a(shape, Context::CPU());
  a.SyncCopyFromCPU(v.data(), v.size());
  return a;
}

NDArray Iota(const TShape& shape) {
  std::vector<float> v(shape.Size());
  std::iota(v.begin(), v.end(), 0.f);
  return FromVector(shape, v);
}

std::vector<float> ToVector(const NDArray& a) {
  std::vector<float> v(a.shape().Size());
  a.SyncCopyToCPU(v.data(), v.size());
  return v;
}

/*! \brief Runs op on inputs with string kwargs; returns the visible outputs. */
std::vector<NDArray> RunOp(const std::string& op, std::vector<NDArray> inputs,
                         const std::map<std::string, std::string>& kwargs = {}) {
  std::vector<const char*> keys, vals;
  for (const auto& kv : kwargs) {
    keys.push_back(kv.first.c_str());
    vals.push_back(kv.second.c_str());
  }
  auto attrs = Imperative::Get()->ParseAttrs(nnvm::Op::Get(op), static_cast<int>(inputs.size()),
                                             static_cast<int>(keys.size()), keys.data(),
                                             vals.data());
  std::vector<NDArray> outs(Imperative::NumOutputs(*attrs));
  std::vector<NDArray*> in_ptrs, out_ptrs;
  for (auto& a : inputs) in_ptrs.push_back(&a);
  for (auto& a : outs) out_ptrs.push_back(&a);
  Imperative::Get()->Invoke(attrs, in_ptrs, out_ptrs);
  outs.resize(Imperative::NumVisibleOutputs(*attrs));
  for (auto& a : outs) a.WaitToRead();
  return outs;
}

}  // namespace

TEST(MatrixOps, ReshapeUsesSpecialCodes) {
  NDArray out = RunOp("Reshape", {Iota(TShape{2, 3, 4})}, {{"shape", "(-4, 1, 2, -2)"}})[0];
  EXPECT_EQ(out.shape(), TShape({1, 2, 3, 4}));
  EXPECT_EQ(ToVector(out)[23], 23.f);
  out = RunOp("reshape", {Iota(TShape{10, 5, 4})}, {{"shape", "(-1, 0)"}, {"reverse", "True"}})[0];
  EXPECT_EQ(out.shape(), TShape({50, 4}));
}

TEST(MatrixOps, ReshapeRejectsElementCountMismatch) {
  try {
    RunOp("Reshape", {Iota(TShape{2, 3})}, {{"shape", "(7,)"}});
    FAIL() << "Reshape to a different size did not throw";
  } catch (const mxnet::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Reshape"), std::string::npos) << e.what();
  }
}

TEST(MatrixOps, TransposeAndSwapAxis) {
  NDArray out = RunOp("transpose", {Iota(TShape{2, 3})})[0];
  EXPECT_EQ(out.shape(), TShape({3, 2}));
  EXPECT_EQ(ToVector(out), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  out = RunOp("SwapAxis", {Iota(TShape{2, 3, 4})}, {{"dim1", "0"}, {"dim2", "2"}})[0];
  EXPECT_EQ(out.shape(), TShape({4, 3, 2}));
  EXPECT_EQ(ToVector(out)[1], 12.f);  // out[0,0,1] = in[1,0,0]
}

TEST(MatrixOps, SumOverAxesKeepdimsExclude) {
  NDArray x = Iota(TShape{2, 3, 4});
  NDArray out = RunOp("sum", {x}, {{"axis", "(0, 2)"}})[0];
  EXPECT_EQ(out.shape(), TShape({3}));
  EXPECT_EQ(ToVector(out), (std::vector<float>{60, 92, 124}));
  out = RunOp("sum", {x}, {{"axis", "1"}, {"exclude", "True"}, {"keepdims", "True"}})[0];
  EXPECT_EQ(out.shape(), TShape({1, 3, 1}));
  EXPECT_EQ(ToVector(out), (std::vector<float>{60, 92, 124}));
  out = RunOp("max", {x})[0];
  EXPECT_EQ(out.shape(), TShape({1}));
  EXPECT_EQ(ToVector(out)[0], 23.f);
}

TEST(MatrixOps, ReductionBadAxisNamesOpAndAxis) {
  try {
    RunOp("sum", {Iota(TShape{2, 3})}, {{"axis", "5"}});
    FAIL() << "sum with axis=5 of a 2-D array did not throw";
  } catch (const dmlc::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("sum"), std::string::npos) << msg;
    EXPECT_NE(msg.find("axis 5"), std::string::npos) << msg;
  }
}

TEST(MatrixOps, SliceConcatSplit) {
  NDArray x = Iota(TShape{3, 4});
  NDArray s = RunOp("slice", {x}, {{"begin", "(None, 0)"}, {"end", "(None, 3)"},
                                 {"step", "(-1, 2)"}})[0];
  EXPECT_EQ(s.shape(), TShape({3, 2}));
  EXPECT_EQ(ToVector(s), (std::vector<float>{8, 10, 4, 6, 0, 2}));
  NDArray c = RunOp("Concat", {x, x}, {{"dim", "0"}})[0];
  EXPECT_EQ(c.shape(), TShape({6, 4}));
  std::vector<NDArray> parts = RunOp("split", {c}, {{"num_outputs", "2"}, {"axis", "0"}});
  ASSERT_EQ(parts.size(), 2U);
  EXPECT_EQ(ToVector(parts[1]), ToVector(x));
  EXPECT_THROW(RunOp("slice", {x}, {{"begin", "(0,)"}, {"end", "(9,)"}}), mxnet::IndexError);
}

TEST(MatrixOps, TakeAndOneHot) {
  NDArray a = Iota(TShape{3, 2});
  NDArray idx = FromVector(TShape{2}, {2, 0});
  NDArray out = RunOp("take", {a, idx})[0];
  EXPECT_EQ(out.shape(), TShape({2, 2}));
  EXPECT_EQ(ToVector(out), (std::vector<float>{4, 5, 0, 1}));
  NDArray oh = RunOp("one_hot", {idx}, {{"depth", "3"}})[0];
  EXPECT_EQ(oh.shape(), TShape({2, 3}));
  EXPECT_EQ(ToVector(oh), (std::vector<float>{0, 0, 1, 1, 0, 0}));
}
