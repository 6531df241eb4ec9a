/*!
 * \file dot_test.cc
 * \brief dot / batch_dot / FullyConnected through their registered FCompute<cpu>, against a
 *        naive triple loop, for every transpose combination, req (write and add) and dtype.
 */
#include <gtest/gtest.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <mxnet/tensor_blob.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <cmath>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using mxnet::TBlob;
using mxnet::TShape;

nnvm::NodeAttrs MakeAttrs(const std::string& op,
                          const std::unordered_map<std::string, std::string>& dict) {
  nnvm::NodeAttrs attrs;
  attrs.op = nnvm::Op::Get(op);
  attrs.name = op;
  attrs.dict = dict;
  if (attrs.op->attr_parser) attrs.op->attr_parser(&attrs);
  return attrs;
}

void RunOp(const nnvm::NodeAttrs& attrs, const std::vector<TBlob>& in,
         const std::vector<TBlob>& out, mxnet::OpReqType req) {
  static auto& fcompute = nnvm::Op::GetAttr<mxnet::FCompute>("FCompute<cpu>");
  mxnet::OpContext ctx;
  std::vector<mxnet::OpReqType> reqs(out.size(), req);
  fcompute[attrs.op](attrs, ctx, in, reqs, out);
}

/*! \brief C = op(A) op(B) with A stored (ta ? K x M : M x K), B stored (tb ? N x K : K x N). */
template <typename T>
std::vector<double> NaiveDot(const std::vector<T>& a, const std::vector<T>& b, int M, int N,
                             int K, bool ta, bool tb) {
  std::vector<double> c(M * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) {
        const double x = static_cast<double>(ta ? a[k * M + i] : a[i * K + k]);
        const double y = static_cast<double>(tb ? b[j * K + k] : b[k * N + j]);
        s += x * y;
      }
      c[i * N + j] = s;
    }
  return c;
}

template <typename T>
std::vector<T> Random(size_t n, int seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(-4, 4);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(gen) * 0.5);
  return v;
}

template <typename T>
void CheckDot(bool ta, bool tb, mxnet::OpReqType req) {
  const int M = 37, N = 29, K = 53;
  std::vector<T> a = Random<T>(M * K, 1), b = Random<T>(K * N, 2);
  std::vector<T> c(M * N, T(1));
  TShape as = ta ? TShape({K, M}) : TShape({M, K});
  TShape bs = tb ? TShape({N, K}) : TShape({K, N});
  auto attrs = MakeAttrs("dot", {{"transpose_a", ta ? "True" : "False"},
                                 {"transpose_b", tb ? "True" : "False"}});
  RunOp(attrs, {TBlob(a.data(), as, mshadow::cpu::kDevMask), TBlob(b.data(), bs, mshadow::cpu::kDevMask)},
      {TBlob(c.data(), TShape({M, N}), mshadow::cpu::kDevMask)}, req);
  const std::vector<double> want = NaiveDot(a, b, M, N, K, ta, tb);
  for (int i = 0; i < M * N; ++i) {
    const double expected = want[i] + (req == mxnet::kAddTo ? 1.0 : 0.0);
    ASSERT_NEAR(static_cast<double>(c[i]), expected, 1e-4 * (1 + std::fabs(expected)))
        << "element " << i << " ta=" << ta << " tb=" << tb;
  }
}

TEST(Dot, Float32AllTransposes) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) CheckDot<float>(ta, tb, mxnet::kWriteTo);
}

TEST(Dot, Float64AndAddTo) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) CheckDot<double>(ta, tb, mxnet::kAddTo);
  CheckDot<float>(false, false, mxnet::kAddTo);
}

TEST(Dot, IntegerFallback) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) CheckDot<int32_t>(ta, tb, mxnet::kWriteTo);
  CheckDot<int64_t>(true, false, mxnet::kAddTo);
}

TEST(Dot, Float16ViaFloat) {
  const int M = 8, N = 6, K = 16;
  std::vector<float> af = Random<float>(M * K, 3), bf = Random<float>(K * N, 4);
  std::vector<mshadow::half::half_t> a(af.begin(), af.end()), b(bf.begin(), bf.end());
  std::vector<mshadow::half::half_t> c(M * N);
  auto attrs = MakeAttrs("dot", {});
  RunOp(attrs, {TBlob(a.data(), TShape({M, K}), mshadow::cpu::kDevMask),
              TBlob(b.data(), TShape({K, N}), mshadow::cpu::kDevMask)},
      {TBlob(c.data(), TShape({M, N}), mshadow::cpu::kDevMask)}, mxnet::kWriteTo);
  const std::vector<double> want = NaiveDot(af, bf, M, N, K, false, false);
  for (int i = 0; i < M * N; ++i) EXPECT_NEAR(static_cast<float>(c[i]), want[i], 1e-2);
}

TEST(Dot, NdTimesNdAndVectors) {
  // (2, 3, 4) x (4, 5) -> (2, 3, 5): lhs flattened to (6, 4).
  std::vector<float> a = Random<float>(24, 5), b = Random<float>(20, 6), c(30);
  auto attrs = MakeAttrs("dot", {});
  RunOp(attrs, {TBlob(a.data(), TShape({2, 3, 4}), mshadow::cpu::kDevMask),
              TBlob(b.data(), TShape({4, 5}), mshadow::cpu::kDevMask)},
      {TBlob(c.data(), TShape({2, 3, 5}), mshadow::cpu::kDevMask)}, mxnet::kWriteTo);
  auto want = NaiveDot(a, b, 6, 5, 4, false, false);
  for (int i = 0; i < 30; ++i) EXPECT_NEAR(c[i], want[i], 1e-5);
  // vector . vector -> (1,)
  std::vector<float> x = Random<float>(9, 7), y = Random<float>(9, 8), z(1);
  RunOp(attrs, {TBlob(x.data(), TShape({9}), mshadow::cpu::kDevMask),
              TBlob(y.data(), TShape({9}), mshadow::cpu::kDevMask)},
      {TBlob(z.data(), TShape({1}), mshadow::cpu::kDevMask)}, mxnet::kWriteTo);
  double s = 0;
  for (int i = 0; i < 9; ++i) s += x[i] * y[i];
  EXPECT_NEAR(z[0], s, 1e-5);
}

TEST(Dot, ShapeInference) {
  static auto& fshape = nnvm::Op::GetAttr<mxnet::FInferShape>("FInferShape");
  auto attrs = MakeAttrs("dot", {{"transpose_b", "True"}});
  mxnet::ShapeVector in{TShape({2, 3, 4}), TShape({5, 6, 4})}, out{TShape()};
  ASSERT_TRUE(fshape[attrs.op](attrs, &in, &out));
  EXPECT_EQ(out[0], TShape({2, 3, 5, 6}));
  mxnet::ShapeVector bad{TShape({2, 3}), TShape({4, 3})}, out2{TShape()};
  auto plain = MakeAttrs("dot", {});
  EXPECT_THROW(fshape[plain.op](plain, &bad, &out2), dmlc::Error);
}

TEST(BatchDot, MatchesPerBatchLoop) {
  const int B = 3, M = 5, N = 4, K = 7;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      std::vector<float> a = Random<float>(B * M * K, 9), b = Random<float>(B * K * N, 10);
      std::vector<float> c(B * M * N);
      auto attrs = MakeAttrs("batch_dot", {{"transpose_a", ta ? "1" : "0"},
                                           {"transpose_b", tb ? "1" : "0"}});
      RunOp(attrs, {TBlob(a.data(), ta ? TShape({B, K, M}) : TShape({B, M, K}), mshadow::cpu::kDevMask),
                  TBlob(b.data(), tb ? TShape({B, N, K}) : TShape({B, K, N}), mshadow::cpu::kDevMask)},
          {TBlob(c.data(), TShape({B, M, N}), mshadow::cpu::kDevMask)}, mxnet::kWriteTo);
      for (int i = 0; i < B; ++i) {
        std::vector<float> ai(a.begin() + i * M * K, a.begin() + (i + 1) * M * K);
        std::vector<float> bi(b.begin() + i * K * N, b.begin() + (i + 1) * K * N);
        auto want = NaiveDot(ai, bi, M, N, K, ta, tb);
        for (int j = 0; j < M * N; ++j) ASSERT_NEAR(c[i * M * N + j], want[j], 1e-4);
      }
    }
}

TEST(FullyConnected, ForwardIsDataTimesWeightTransposedPlusBias) {
  const int Nb = 6, K = 10, H = 4;
  std::vector<float> x = Random<float>(Nb * K, 11), w = Random<float>(H * K, 12);
  std::vector<float> bias = Random<float>(H, 13), out(Nb * H);
  auto attrs = MakeAttrs("FullyConnected", {{"num_hidden", std::to_string(H)}});
  RunOp(attrs, {TBlob(x.data(), TShape({Nb, 2, 5}), mshadow::cpu::kDevMask),
              TBlob(w.data(), TShape({H, K}), mshadow::cpu::kDevMask),
              TBlob(bias.data(), TShape({H}), mshadow::cpu::kDevMask)},
      {TBlob(out.data(), TShape({Nb, H}), mshadow::cpu::kDevMask)}, mxnet::kWriteTo);
  auto want = NaiveDot(x, w, Nb, H, K, false, true);
  for (int i = 0; i < Nb; ++i)
    for (int j = 0; j < H; ++j) EXPECT_NEAR(out[i * H + j], want[i * H + j] + bias[j], 1e-4);
}

}  // namespace
