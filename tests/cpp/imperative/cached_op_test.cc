// CachedOp through the C API: forward against hand-computed values, autograd backward through a
// recorded call, shape changes, and the error paths (bad counts, unknown flags, freed handles).
#include <gtest/gtest.h>
#include <mxnet/c_api.h>
#include <mxnet/ndarray.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

// exp(a) * b, as saved by Symbol.tojson().
const char* kJson =
    R"({"nodes": [{"op": "null", "name": "a", "inputs": []}, )"
    R"({"op": "exp", "name": "e", "inputs": [[0, 0, 0]]}, )"
    R"({"op": "null", "name": "b", "inputs": []}, )"
    R"({"op": "elemwise_mul", "name": "_mul0", "inputs": [[1, 0, 0], [2, 0, 0]]}], )"
    R"("arg_nodes": [0, 2], "node_row_ptr": [0, 1, 2, 3, 4], "heads": [[3, 0, 0]], )"
    R"("attrs": {"mxnet_version": ["int", 10901]}})";

NDArrayHandle Array(const std::vector<float>& values) {
  NDArrayHandle h = nullptr;
  const uint32_t shape[1] = {static_cast<uint32_t>(values.size())};
  EXPECT_EQ(MXNDArrayCreateEx(shape, 1, 1, 0, 0, 0, &h), 0);
  EXPECT_EQ(MXNDArraySyncCopyFromCPU(h, values.data(), values.size()), 0);
  return h;
}

std::vector<float> Values(NDArrayHandle h, size_t n) {
  std::vector<float> out(n);
  EXPECT_EQ(MXNDArraySyncCopyToCPU(h, out.data(), n), 0) << MXGetLastError();
  return out;
}

class CachedOpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(MXSymbolCreateFromJSON(kJson, &sym_), 0) << MXGetLastError();
    const char* keys[] = {"static_alloc", "inline_limit"};
    const char* vals[] = {"True", "0"};
    ASSERT_EQ(MXCreateCachedOpEx(sym_, 2, keys, vals, &op_), 0) << MXGetLastError();
  }
  void TearDown() override {
    if (op_ != nullptr) MXFreeCachedOp(op_);
    MXSymbolFree(sym_);
  }
  SymbolHandle sym_ = nullptr;
  CachedOpHandle op_ = nullptr;
};

TEST_F(CachedOpTest, ForwardMatchesFormulaAcrossShapes) {
  for (size_t n : {3u, 5u, 3u}) {
    std::vector<float> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = 0.25f * static_cast<float>(i) - 0.5f;
      b[i] = 1.5f - static_cast<float>(i);
    }
    NDArrayHandle ins[2] = {Array(a), Array(b)};
    int nout = 0;
    NDArrayHandle* outs = nullptr;
    const int* stypes = nullptr;
    ASSERT_EQ(MXInvokeCachedOpEx(op_, 2, ins, &nout, &outs, &stypes), 0) << MXGetLastError();
    ASSERT_EQ(nout, 1);
    EXPECT_EQ(stypes[0], 0);
    NDArrayHandle out = outs[0];
    std::vector<float> got = Values(out, n);
    for (size_t i = 0; i < n; ++i) EXPECT_NEAR(got[i], std::exp(a[i]) * b[i], 1e-5);
    MXNDArrayFree(out);
    MXNDArrayFree(ins[0]);
    MXNDArrayFree(ins[1]);
  }
}

TEST_F(CachedOpTest, RecordedCallIsDifferentiable) {
  std::vector<float> a = {0.1f, -0.3f, 0.7f}, b = {2.0f, 1.0f, -1.0f};
  NDArrayHandle ins[2] = {Array(a), Array(b)};
  NDArrayHandle grads[2] = {Array({0, 0, 0}), Array({0, 0, 0})};
  uint32_t reqs[2] = {1, 1};
  ASSERT_EQ(MXAutogradMarkVariables(2, ins, reqs, grads), 0) << MXGetLastError();
  int prev = 0;
  ASSERT_EQ(MXAutogradSetIsRecording(1, &prev), 0);
  int nout = 0;
  NDArrayHandle* outs = nullptr;
  ASSERT_EQ(MXInvokeCachedOp(op_, 2, ins, &nout, &outs), 0) << MXGetLastError();
  NDArrayHandle out = outs[0];
  ASSERT_EQ(MXAutogradSetIsRecording(0, &prev), 0);
  ASSERT_EQ(MXAutogradBackward(1, &out, nullptr, 0), 0) << MXGetLastError();
  std::vector<float> ga = Values(grads[0], 3), gb = Values(grads[1], 3);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(ga[i], std::exp(a[i]) * b[i], 1e-5);  // d/da exp(a) b
    EXPECT_NEAR(gb[i], std::exp(a[i]), 1e-5);         // d/db exp(a) b
  }
  for (NDArrayHandle h : {out, ins[0], ins[1], grads[0], grads[1]}) MXNDArrayFree(h);
}

TEST_F(CachedOpTest, ErrorsAreReportedNotCrashes) {
  NDArrayHandle a = Array({1, 2}), b3 = Array({1, 2, 3});
  int nout = 0;
  NDArrayHandle* outs = nullptr;
  NDArrayHandle one[1] = {a};
  EXPECT_EQ(MXInvokeCachedOp(op_, 1, one, &nout, &outs), -1);
  EXPECT_NE(std::string(MXGetLastError()).find("expects 2 input(s) [a, b], got 1"),
            std::string::npos)
      << MXGetLastError();
  NDArrayHandle mismatched[2] = {a, b3};
  outs = nullptr;
  EXPECT_EQ(MXInvokeCachedOp(op_, 2, mismatched, &nout, &outs), -1);
  EXPECT_NE(std::string(MXGetLastError()).find("a[2] float32, b[3] float32"), std::string::npos)
      << MXGetLastError();

  CachedOpHandle bad = nullptr;
  const char* keys[] = {"static_alloc", "no_such_flag"};
  const char* vals[] = {"1", "1"};
  EXPECT_EQ(MXCreateCachedOpEx(sym_, 2, keys, vals, &bad), -1);
  EXPECT_NE(std::string(MXGetLastError()).find("unknown flag 'no_such_flag'"), std::string::npos);

  ASSERT_EQ(MXFreeCachedOp(op_), 0);
  NDArrayHandle ok[2] = {a, a};
  outs = nullptr;
  EXPECT_EQ(MXInvokeCachedOp(op_, 2, ok, &nout, &outs), -1);
  EXPECT_NE(std::string(MXGetLastError()).find("invalid"), std::string::npos);
  EXPECT_EQ(MXFreeCachedOp(op_), -1);
  op_ = nullptr;
  MXNDArrayFree(a);
  MXNDArrayFree(b3);
}

}  // namespace
