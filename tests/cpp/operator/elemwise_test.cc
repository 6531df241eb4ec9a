// Element-wise, broadcast and scalar operators invoked through mxnet::Imperative, and their
// backward ops checked against central finite differences of the forward ops (float64).
#include <gtest/gtest.h>
#include <mxnet/resource.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/op.h>

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using mxnet::Context;
using mxnet::Imperative;
using mxnet::NDArray;
using mxnet::TShape;
using KWArgs = std::vector<std::pair<std::string, std::string>>;

NDArray Make(const std::vector<double>& v, const TShape& shape) {
  NDArray a(shape, Context::CPU(), false, mshadow::kFloat64);
  a.SyncCopyFromCPU(v.data(), v.size());
  return a;
}

NDArray MakeF(const std::vector<float>& v, const TShape& shape) {
  NDArray a(shape, Context::CPU(), false, mshadow::kFloat32);
  a.SyncCopyFromCPU(v.data(), v.size());
  return a;
}

std::vector<double> Get(const NDArray& a) {
  a.WaitToRead();
  std::vector<double> v(a.Size());
  a.SyncCopyToCPU(v.data(), v.size());
  return v;
}

std::vector<float> GetF(const NDArray& a) {
  a.WaitToRead();
  std::vector<float> v(a.Size());
  a.SyncCopyToCPU(v.data(), v.size());
  return v;
}

std::shared_ptr<const nnvm::NodeAttrs> Attrs(const std::string& op, size_t num_inputs,
                                             const KWArgs& kwargs) {
  std::vector<const char*> keys, vals;
  for (const auto& kv : kwargs) {
    keys.push_back(kv.first.c_str());
    vals.push_back(kv.second.c_str());
  }
  return Imperative::Get()->ParseAttrs(nnvm::Op::Get(op), static_cast<int>(num_inputs),
                                       static_cast<int>(keys.size()), keys.data(), vals.data());
}

/*! \brief Invoke `op`; `outs` (optional) gives preallocated outputs. */
std::vector<NDArray> RunOp(const std::string& op, std::vector<NDArray> inputs,
                         const KWArgs& kwargs = {}, std::vector<NDArray> outs = {}) {
  auto attrs = Attrs(op, inputs.size(), kwargs);
  if (outs.empty()) outs.resize(Imperative::NumOutputs(*attrs));
  std::vector<NDArray*> in_ptrs, out_ptrs;
  for (auto& a : inputs) in_ptrs.push_back(&a);
  for (auto& a : outs) out_ptrs.push_back(&a);
  Imperative::Get()->Invoke(attrs, in_ptrs, out_ptrs);
  for (auto& a : outs) a.WaitToRead();
  return outs;
}

void ExpectNear(const std::vector<double>& got, const std::vector<double>& want, double rtol,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], rtol * (1.0 + std::fabs(want[i]))) << what << " at " << i;
  }
}

/*! \brief d/dx_i of sum(ograd * f(x)) by central differences, perturbing input `which`. */
std::vector<double> NumericGrad(const std::function<std::vector<double>(std::vector<std::vector<double>>)>& f,
                                std::vector<std::vector<double>> inputs, size_t which,
                                const std::vector<double>& ograd, double h = 1e-6) {
  std::vector<double> grad(inputs[which].size());
  for (size_t i = 0; i < grad.size(); ++i) {
    const double x0 = inputs[which][i];
    inputs[which][i] = x0 + h;
    std::vector<double> fp = f(inputs);
    inputs[which][i] = x0 - h;
    std::vector<double> fm = f(inputs);
    inputs[which][i] = x0;
    double s = 0;
    for (size_t j = 0; j < fp.size(); ++j) s += ograd[j] * (fp[j] - fm[j]) / (2 * h);
    grad[i] = s;
  }
  return grad;
}

// ------------------------------------------------------------------------------ forward

TEST(ElemwiseOp, AddThroughImperative) {
  NDArray a = MakeF({1, 2, 3}, TShape({3}));
  NDArray b = MakeF({10, 20, 30}, TShape({3}));
  EXPECT_EQ(GetF(RunOp("elemwise_add", {a, b})[0]), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(GetF(RunOp("_Plus", {a, b})[0]), (std::vector<float>{11, 22, 33}));  // alias
  EXPECT_EQ(GetF(RunOp("broadcast_add", {a, b})[0]), (std::vector<float>{11, 22, 33}));
}

TEST(ElemwiseOp, BroadcastShapesAndValues) {
  NDArray a = MakeF({0, 1, 2, 3, 4, 5}, TShape({2, 3}));
  NDArray row = MakeF({10, 20, 30}, TShape({3}));
  NDArray col = MakeF({100, 200}, TShape({2, 1}));
  NDArray r1 = RunOp("broadcast_add", {a, row})[0];
  EXPECT_EQ(r1.shape(), TShape({2, 3}));
  EXPECT_EQ(GetF(r1), (std::vector<float>{10, 21, 32, 13, 24, 35}));
  NDArray r2 = RunOp("broadcast_mul", {col, row})[0];
  EXPECT_EQ(r2.shape(), TShape({2, 3}));
  EXPECT_EQ(GetF(r2), (std::vector<float>{1000, 2000, 3000, 2000, 4000, 6000}));
  EXPECT_THROW(RunOp("broadcast_add", {a, MakeF({1, 2}, TShape({2}))}), mxnet::ValueError);
}

TEST(ElemwiseOp, ScalarCastAndCreation) {
  NDArray a = MakeF({1.5f, -2.5f, 3.0f}, TShape({3}));
  EXPECT_EQ(GetF(RunOp("_rminus_scalar", {a}, {{"scalar", "1"}})[0]),
            (std::vector<float>{-0.5f, 3.5f, -2.0f}));
  NDArray c = RunOp("Cast", {a}, {{"dtype", "int32"}})[0];
  EXPECT_EQ(c.dtype(), mshadow::kInt32);
  std::vector<int32_t> ci(3);
  c.SyncCopyToCPU(ci.data(), 3);
  EXPECT_EQ(ci, (std::vector<int32_t>{1, -2, 3}));
  NDArray r = RunOp("_arange", {}, {{"start", "2"}, {"stop", "8"}, {"step", "2"}, {"repeat", "2"}})[0];
  EXPECT_EQ(GetF(r), (std::vector<float>{2, 2, 4, 4, 6, 6}));
  NDArray s = RunOp("add_n", {a, a, a})[0];
  EXPECT_EQ(GetF(s), (std::vector<float>{4.5f, -7.5f, 9.0f}));
}

// ------------------------------------------------------------------------------ gradients

struct UnaryCase {
  const char* op;
  bool use_out;  // the backward op reads the forward output instead of the input
  std::vector<double> x;
};

TEST(ElemwiseOp, UnaryBackwardMatchesFiniteDifferences) {
  const std::vector<double> base = {-0.7, -0.2, 0.3, 0.9};
  const std::vector<double> pos = {0.3, 0.8, 1.7, 2.9};
  const std::vector<UnaryCase> cases = {
      {"sin", false, base},      {"cos", false, base},       {"tan", true, base},
      {"arcsin", false, base},   {"arccos", false, base},    {"arctan", false, base},
      {"sinh", false, base},     {"cosh", false, base},      {"tanh", true, base},
      {"arcsinh", false, base},  {"arccosh", false, {1.2, 1.5, 2.0, 3.0}},
      {"arctanh", false, base},  {"expm1", false, base},     {"log", false, pos},
      {"log10", false, pos},     {"log2", false, pos},       {"log1p", false, base},
      {"sqrt", true, pos},       {"rsqrt", false, pos},      {"cbrt", true, pos},
      {"rcbrt", false, pos},     {"square", false, base},    {"reciprocal", false, pos},
      {"abs", false, base},      {"relu", true, base},       {"sigmoid", true, base},
      {"softsign", false, base}, {"gamma", false, pos},      {"gammaln", false, pos},
      {"erf", false, base},      {"erfinv", false, base},    {"degrees", false, base},
      {"radians", false, base},  {"sign", false, base},
  };
  const std::vector<double> ograd = {1.0, -2.0, 0.5, 3.0};
  const TShape shape({4});
  for (const UnaryCase& c : cases) {
    auto f = [&](std::vector<std::vector<double>> in) {
      return Get(RunOp(c.op, {Make(in[0], shape)})[0]);
    };
    NDArray x = Make(c.x, shape);
    NDArray y = RunOp(c.op, {x})[0];
    const std::string bwd = std::string("_backward_") + c.op;
    NDArray dx = RunOp(bwd, {Make(ograd, shape), c.use_out ? y : x})[0];
    ExpectNear(Get(dx), NumericGrad(f, {c.x}, 0, ograd), 1e-5, bwd);
  }
}

struct BinaryCase {
  const char* op;
  const char* bwd;
  bool use_in;
};

TEST(ElemwiseOp, BroadcastBackwardMatchesFiniteDifferences) {
  const std::vector<BinaryCase> cases = {
      {"broadcast_add", "_backward_broadcast_add", false},
      {"broadcast_sub", "_backward_broadcast_sub", false},
      {"broadcast_mul", "_backward_broadcast_mul", true},
      {"broadcast_div", "_backward_broadcast_div", true},
      {"broadcast_power", "_backward_broadcast_power", true},
      {"broadcast_hypot", "_backward_broadcast_hypot", true},
      {"broadcast_maximum", "_backward_broadcast_maximum", true},
      {"broadcast_minimum", "_backward_broadcast_minimum", true},
      {"broadcast_mod", "_backward_broadcast_mod", true},
      {"elemwise_mul", "_backward_mul", true},
      {"elemwise_div", "_backward_div", true},
      {"_power", "_backward_power", true},
      {"_hypot", "_backward_hypot", true},
  };
  // Shapes: lhs (2, 3) against rhs (3,) for broadcast ops, (2, 3) for the same-shape ones.
  const std::vector<double> a = {0.5, 1.3, 2.2, 0.9, 1.7, 2.6};
  const std::vector<double> b_row = {1.1, 0.6, 2.4};
  const std::vector<double> b_full = {1.1, 0.6, 2.4, 0.7, 2.3, 1.9};
  const std::vector<double> ograd = {1.0, -1.0, 2.0, 0.5, 0.25, -3.0};
  const TShape sa({2, 3});
  for (const BinaryCase& c : cases) {
    const bool bcast = std::string(c.op).rfind("broadcast_", 0) == 0;
    const std::vector<double>& b = bcast ? b_row : b_full;
    const TShape sb = bcast ? TShape({3}) : TShape({2, 3});
    auto f = [&](std::vector<std::vector<double>> in) {
      return Get(RunOp(c.op, {Make(in[0], sa), Make(in[1], sb)})[0]);
    };
    std::vector<NDArray> grads = {NDArray(sa, Context::CPU(), false, mshadow::kFloat64),
                                  NDArray(sb, Context::CPU(), false, mshadow::kFloat64)};
    std::vector<NDArray> bwd_in = {Make(ograd, sa)};
    if (c.use_in) {
      bwd_in.push_back(Make(a, sa));
      bwd_in.push_back(Make(b, sb));
    }
    grads = RunOp(c.bwd, bwd_in, {}, grads);
    ExpectNear(Get(grads[0]), NumericGrad(f, {a, b}, 0, ograd), 1e-5, std::string(c.bwd) + " lhs");
    ExpectNear(Get(grads[1]), NumericGrad(f, {a, b}, 1, ograd), 1e-5, std::string(c.bwd) + " rhs");
  }
}

TEST(ElemwiseOp, ScalarBackwardMatchesFiniteDifferences) {
  struct Case {
    const char* op;
    bool use_out;
  };
  const std::vector<Case> cases = {{"_rdiv_scalar", false},    {"_power_scalar", false},
                                   {"_rpower_scalar", true},   {"_hypot_scalar", false},
                                   {"_maximum_scalar", false}, {"_minimum_scalar", false},
                                   {"_mod_scalar", false},     {"_rmod_scalar", false}};
  const std::vector<double> x = {0.4, 0.9, 1.6, 2.3};
  const std::vector<double> ograd = {1.0, 2.0, -1.0, 0.5};
  const TShape shape({4});
  const KWArgs kw = {{"scalar", "1.25"}, {"is_int", "False"}};
  for (const Case& c : cases) {
    auto f = [&](std::vector<std::vector<double>> in) {
      return Get(RunOp(c.op, {Make(in[0], shape)}, kw)[0]);
    };
    NDArray xa = Make(x, shape);
    NDArray y = RunOp(c.op, {xa}, kw)[0];
    const std::string bwd = std::string("_backward") + c.op;
    NDArray dx = RunOp(bwd, {Make(ograd, shape), c.use_out ? y : xa}, kw)[0];
    ExpectNear(Get(dx), NumericGrad(f, {x}, 0, ograd), 1e-5, bwd);
  }
}

TEST(ElemwiseOp, ActivationAndClipBackward) {
  const std::vector<double> x = {-1.5, -0.3, 0.4, 1.1, 2.5};
  const std::vector<double> ograd = {1.0, 2.0, -1.0, 0.5, 1.5};
  const TShape shape({5});
  for (const char* act : {"relu", "sigmoid", "tanh", "softrelu", "softsign"}) {
    const KWArgs kw = {{"act_type", act}};
    auto f = [&](std::vector<std::vector<double>> in) {
      return Get(RunOp("Activation", {Make(in[0], shape)}, kw)[0]);
    };
    NDArray xa = Make(x, shape);
    NDArray y = RunOp("Activation", {xa}, kw)[0];
    std::vector<NDArray> in = {Make(ograd, shape), y};
    if (std::string(act) == "softsign") in.push_back(xa);
    NDArray dx = RunOp("_backward_Activation", in, kw)[0];
    ExpectNear(Get(dx), NumericGrad(f, {x}, 0, ograd), 1e-5, std::string("Activation ") + act);
  }
  const KWArgs clip = {{"a_min", "-0.5"}, {"a_max", "1.0"}};
  NDArray dx = RunOp("_backward_clip", {Make(ograd, shape), Make(x, shape)}, clip)[0];
  EXPECT_EQ(Get(dx), (std::vector<double>{0.0, 2.0, -1.0, 0.0, 0.0}));
}

// ------------------------------------------------------------------------------ req = kAddTo

TEST(ElemwiseOp, BackwardOpsAccumulateWithAddTo) {
  using mxnet::OpReqType;
  using mxnet::TBlob;
  mxnet::OpContext ctx;
  ctx.run_ctx.ctx = Context::CPU();
  const int cpu = mshadow::cpu::kDevMask;

  // _backward_broadcast_mul: lhs (2, 2), rhs (2,); gradients accumulate into existing values.
  std::vector<float> og = {1, 2, 3, 4}, a = {1, 1, 2, 2}, b = {10, 100};
  std::vector<float> lg = {1, 1, 1, 1}, rg = {5, 5};
  TBlob t_og(og.data(), TShape({2, 2}), cpu), t_a(a.data(), TShape({2, 2}), cpu);
  TBlob t_b(b.data(), TShape({2}), cpu);
  TBlob t_lg(lg.data(), TShape({2, 2}), cpu), t_rg(rg.data(), TShape({2}), cpu);
  static auto& fcompute = nnvm::Op::GetAttr<mxnet::FCompute>("FCompute<cpu>");
  auto attrs = Attrs("_backward_broadcast_mul", 3, {});
  fcompute[attrs->op](*attrs, ctx, {t_og, t_a, t_b}, {mxnet::kAddTo, mxnet::kAddTo}, {t_lg, t_rg});
  EXPECT_EQ(lg, (std::vector<float>{11, 201, 31, 401}));
  EXPECT_EQ(rg, (std::vector<float>{5 + 1 + 6, 5 + 2 + 8}));

  // A unary backward op with kAddTo, and kNullOp leaving the output untouched.
  std::vector<float> g = {1, 2}, x = {3, 4}, dx = {100, 100};
  TBlob t_g(g.data(), TShape({2}), cpu), t_x(x.data(), TShape({2}), cpu);
  TBlob t_dx(dx.data(), TShape({2}), cpu);
  auto sq = Attrs("_backward_square", 2, {});
  fcompute[sq->op](*sq, ctx, {t_g, t_x}, {mxnet::kAddTo}, {t_dx});
  EXPECT_EQ(dx, (std::vector<float>{106, 116}));
  fcompute[sq->op](*sq, ctx, {t_g, t_x}, {mxnet::kNullOp}, {t_dx});
  EXPECT_EQ(dx, (std::vector<float>{106, 116}));

  // Forward elemwise op with kAddTo.
  std::vector<float> out = {1, 1};
  TBlob t_out(out.data(), TShape({2}), cpu);
  auto add = Attrs("elemwise_add", 2, {});
  fcompute[add->op](*add, ctx, {t_g, t_x}, {mxnet::kAddTo}, {t_out});
  EXPECT_EQ(out, (std::vector<float>{5, 7}));
}

}  // namespace
