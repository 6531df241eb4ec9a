/*!
 * \file simple_op_test.cc
 * \brief SimpleOp registration (include/mxnet/operator_util.h): every function and gradient
 *        type, scalar/kwargs/resources, shape functions and in-place options end up as the
 *        right nnvm attributes, and the ops compute through Imperative.
 */
#include <gtest/gtest.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <mxnet/operator_util.h>
#include <nnvm/node.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <string>
#include <utility>
#include <vector>

#include "operator/mshadow_op.h"
#include "operator/mxnet_op.h"

namespace mxnet {
namespace op {
namespace {

using mshadow::cpu;

// y = x * scalar; gradient needs only the output gradient (T0).
void ScaleFwd(const TBlob& src, const EnvArguments& env, TBlob* ret, OpReqType req,
              RunContext ctx) {
  using namespace mshadow::expr;
  auto out = ret->FlatTo1D<cpu, float>();
  auto in = src.FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(out, req, in * ScalarExp<float>(env.scalar));
}
void ScaleGrad(const OutputGrad& og, const EnvArguments& env, TBlob* in_grad, OpReqType req,
               RunContext ctx) {
  using namespace mshadow::expr;
  auto g = in_grad->FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(g, req, og.data.FlatTo1D<cpu, float>() * ScalarExp<float>(env.scalar));
}

// y = exp(x); gradient uses the output value (T1).
void ExpFwd(const TBlob& src, const EnvArguments& env, TBlob* ret, OpReqType req, RunContext) {
  using namespace mshadow::expr;
  auto out = ret->FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(out, req, F<mshadow_op::exp>(src.FlatTo1D<cpu, float>()));
}
void ExpGrad(const OutputGrad& og, const OutputValue& y, const EnvArguments&, TBlob* in_grad,
             OpReqType req, RunContext) {
  using namespace mshadow::expr;
  auto g = in_grad->FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(g, req, og.data.FlatTo1D<cpu, float>() * y.data.FlatTo1D<cpu, float>());
}

// y = lhs * rhs with a gradient needing both inputs (binary T1) and a temp-space resource.
int g_resources_seen = 0;
void MulFwd(const TBlob& lhs, const TBlob& rhs, const EnvArguments& env, TBlob* ret,
            OpReqType req, RunContext) {
  using namespace mshadow::expr;
  g_resources_seen = static_cast<int>(env.resource.size());
  auto out = ret->FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(out, req, lhs.FlatTo1D<cpu, float>() * rhs.FlatTo1D<cpu, float>());
}
void MulGrad(const OutputGrad& og, const Input0& lhs, const Input1& rhs, const EnvArguments&,
             TBlob* lhs_grad, TBlob* rhs_grad, OpReqType req_lhs, OpReqType req_rhs, RunContext) {
  using namespace mshadow::expr;
  auto gl = lhs_grad->FlatTo1D<cpu, float>();
  auto gr = rhs_grad->FlatTo1D<cpu, float>();
  auto o = og.data.FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(gl, req_lhs, o * rhs.data.FlatTo1D<cpu, float>());
  ASSIGN_DISPATCH(gr, req_rhs, o * lhs.data.FlatTo1D<cpu, float>());
}

// y = lhs - rhs, gradient from the output gradient alone (binary T0), in-place lhs -> out.
void SubFwd(const TBlob& lhs, const TBlob& rhs, const EnvArguments&, TBlob* ret, OpReqType req,
            RunContext) {
  using namespace mshadow::expr;
  auto out = ret->FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(out, req, lhs.FlatTo1D<cpu, float>() - rhs.FlatTo1D<cpu, float>());
}
void SubGrad(const OutputGrad& og, const EnvArguments&, TBlob* lhs_grad, TBlob* rhs_grad,
             OpReqType req_lhs, OpReqType req_rhs, RunContext) {
  using namespace mshadow::expr;
  auto gl = lhs_grad->FlatTo1D<cpu, float>();
  auto gr = rhs_grad->FlatTo1D<cpu, float>();
  ASSIGN_DISPATCH(gl, req_lhs, og.data.FlatTo1D<cpu, float>() * 1.f);
  ASSIGN_DISPATCH(gr, req_rhs, og.data.FlatTo1D<cpu, float>() * -1.f);
}

// Sum over the last axis: a shape function; kwargs carry "offset".
TShape RowSumShape(const TShape& src, const EnvArguments& env) {
  return TShape({src[0]});
}
void RowSumFwd(const TBlob& src, const EnvArguments& env, TBlob* ret, OpReqType req, RunContext) {
  float offset = 0;
  for (const auto& kv : env.kwargs) {
    if (kv.first == "offset") offset = std::stof(kv.second);
  }
  auto in = src.FlatTo2D<cpu, float>();
  float* out = ret->dptr<float>();
  for (index_t i = 0; i < in.size(0); ++i) {
    float s = offset;
    for (index_t j = 0; j < in.size(1); ++j) s += in[i][j];
    KERNEL_ASSIGN(out[i], req, s);
  }
}

// A source: fills with env.scalar, shape (2, 2).
TShape FillShape(const EnvArguments&) { return TShape({2, 2}); }
void FillFwd(const EnvArguments& env, TBlob* ret, OpReqType req, RunContext) {
  float* out = ret->dptr<float>();
  for (size_t i = 0; i < ret->Size(); ++i) KERNEL_ASSIGN(out[i], req, env.scalar);
}

MXNET_REGISTER_SIMPLE_OP(_test_simple_scale, cpu)
.set_function(cpu::kDevMask, ScaleFwd, kInplaceInOut)
.set_gradient(cpu::kDevMask, ScaleGrad, kInplaceOutIn)
.set_enable_scalar(true)
.describe("x * scalar");

MXNET_REGISTER_SIMPLE_OP(_test_simple_exp, cpu)
.set_function(cpu::kDevMask, ExpFwd, kNoInplace)
.set_gradient(cpu::kDevMask, ExpGrad, kNoInplace)
.describe("exp(x)");

MXNET_REGISTER_SIMPLE_OP(_test_simple_mul, cpu)
.set_function(cpu::kDevMask, MulFwd, kNoInplace)
.set_gradient(cpu::kDevMask, MulGrad, kNoInplace)
.set_resource_request(ResourceRequest::kTempSpace)
.describe("lhs * rhs");

MXNET_REGISTER_SIMPLE_OP(_test_simple_sub, cpu)
.set_function(cpu::kDevMask, SubFwd, kInplaceLhsOut)
.set_gradient(cpu::kDevMask, SubGrad, kInplaceOutLhs)
.describe("lhs - rhs");

MXNET_REGISTER_SIMPLE_OP(_test_simple_rowsum, cpu)
.set_function(cpu::kDevMask, RowSumFwd, kNoInplace)
.set_shape_function(RowSumShape)
.set_enable_kwargs(true)
.describe("row sums + offset");

MXNET_REGISTER_SIMPLE_OP(_test_simple_fill, cpu)
.set_function(cpu::kDevMask, FillFwd)
.set_shape_function(FillShape)
.set_enable_scalar(true)
.describe("constant fill");

NDArray Vec(std::vector<float> v, TShape s = TShape()) {
  if (!ndim_is_known(s)) s = TShape({static_cast<int64_t>(v.size())});
  NDArray a(s, Context::CPU());
  a.SyncCopyFromCPU(v.data(), v.size());
  return a;
}

std::vector<float> Host(const NDArray& a) {
  std::vector<float> buf(a.Size());
  a.SyncCopyToCPU(buf.data(), buf.size());
  return buf;
}

std::vector<NDArray> RunOp(const std::string& op, std::vector<NDArray> in,
                         std::vector<std::pair<std::string, std::string>> kw = {}) {
  std::vector<const char*> keys, vals;
  for (auto& kv : kw) keys.push_back(kv.first.c_str()), vals.push_back(kv.second.c_str());
  auto attrs = Imperative::Get()->ParseAttrs(nnvm::Op::Get(op), in.size(), keys.size(),
                                             keys.data(), vals.data());
  std::vector<NDArray*> ins;
  for (auto& a : in) ins.push_back(&a);
  std::vector<NDArray> outs(Imperative::NumOutputs(*attrs));
  std::vector<NDArray*> outp;
  for (auto& o : outs) outp.push_back(&o);
  Imperative::Get()->Invoke(attrs, ins, outp);
  return outs;
}

nnvm::ObjectPtr Forward(const std::string& op, size_t nin,
                        std::unordered_map<std::string, std::string> dict = {}) {
  nnvm::ObjectPtr n = nnvm::Node::Create();
  n->attrs.op = nnvm::Op::Get(op);
  n->attrs.name = op + "0";
  n->attrs.dict = std::move(dict);
  n->attrs.op->attr_parser(&n->attrs);
  for (size_t i = 0; i < nin; ++i) {
    nnvm::ObjectPtr v = nnvm::Node::Create();
    v->attrs.name = "x" + std::to_string(i);
    n->inputs.emplace_back(v, 0, 0);
  }
  return n;
}

std::vector<nnvm::NodeEntry> Grad(const nnvm::ObjectPtr& n, nnvm::ObjectPtr* head) {
  *head = nnvm::Node::Create();
  (*head)->attrs.name = "head";
  return nnvm::Op::GetAttr<nnvm::FGradient>("FGradient")[n->attrs.op](
      n, {nnvm::NodeEntry(*head, 0, 0)});
}

TEST(SimpleOp, UnaryScalarForwardBackwardAndInplace) {
  auto y = RunOp("_test_simple_scale", {Vec({1, -2, 3})}, {{"scalar", "2.5"}});
  EXPECT_EQ(Host(y[0]), (std::vector<float>{2.5f, -5.f, 7.5f}));
  const nnvm::Op* op = nnvm::Op::Get("_test_simple_scale");
  nnvm::NodeAttrs attrs;
  attrs.op = op;
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption")[op](attrs),
            (std::vector<std::pair<int, int>>{{0, 0}}));
  const nnvm::Op* bwd = nnvm::Op::Get("_backward__test_simple_scale");
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption")[bwd](attrs),
            (std::vector<std::pair<int, int>>{{0, 0}}));
  // T0: the backward node takes only the output gradient.
  nnvm::ObjectPtr head;
  auto n = Forward("_test_simple_scale", 1, {{"scalar", "2.5"}});
  auto g = Grad(n, &head);
  ASSERT_EQ(g.size(), 1U);
  EXPECT_EQ(g[0].node->attrs.op, bwd);
  ASSERT_EQ(g[0].node->inputs.size(), 1U);
  EXPECT_EQ(g[0].node->inputs[0].node, head);
  auto dx = RunOp("_backward__test_simple_scale", {Vec({1, 1, 2})}, {{"scalar", "2.5"}});
  EXPECT_EQ(Host(dx[0]), (std::vector<float>{2.5f, 2.5f, 5.f}));
  // Parameter errors name the operator.
  EXPECT_THROW(RunOp("_test_simple_scale", {Vec({1})}, {{"scalar", "x"}}), dmlc::ParamError);
  EXPECT_THROW(RunOp("_test_simple_scale", {Vec({1})}, {{"other", "1"}}), dmlc::ParamError);
}

TEST(SimpleOp, GradientKeepsOutputValueOrInputs) {
  nnvm::ObjectPtr head;
  auto n = Forward("_test_simple_exp", 1);
  auto g = Grad(n, &head);
  ASSERT_EQ(g[0].node->inputs.size(), 2U);      // T1: out_grad + the output itself
  EXPECT_EQ(g[0].node->inputs[1].node, n);
  auto y = RunOp("_test_simple_exp", {Vec({0, 1})});
  auto dx = RunOp("_backward__test_simple_exp", {Vec({2, 3}), y[0]});
  EXPECT_FLOAT_EQ(Host(dx[0])[0], 2.f);
  EXPECT_NEAR(Host(dx[0])[1], 3.f * std::exp(1.f), 1e-5);

  auto m = Forward("_test_simple_mul", 2);
  auto gm = Grad(m, &head);
  ASSERT_EQ(gm.size(), 2U);                      // binary: two gradients
  ASSERT_EQ(gm[0].node->inputs.size(), 3U);      // out_grad, lhs, rhs
  EXPECT_EQ(gm[0].node->inputs[1].node, m->inputs[0].node);
  EXPECT_EQ(gm[1].index, 1U);
  g_resources_seen = 0;
  auto p = RunOp("_test_simple_mul", {Vec({2, 3}), Vec({4, 5})});
  EXPECT_EQ(Host(p[0]), (std::vector<float>{8, 15}));
  EXPECT_EQ(g_resources_seen, 1) << "set_resource_request reaches env.resource";
  auto d = RunOp("_backward__test_simple_mul", {Vec({1, 2}), Vec({2, 3}), Vec({4, 5})});
  EXPECT_EQ(Host(d[0]), (std::vector<float>{4, 10}));
  EXPECT_EQ(Host(d[1]), (std::vector<float>{2, 6}));
}

TEST(SimpleOp, BinaryT0AndDefaultShapeCheck) {
  nnvm::ObjectPtr head;
  auto s = Forward("_test_simple_sub", 2);
  auto g = Grad(s, &head);
  ASSERT_EQ(g[0].node->inputs.size(), 1U);
  auto d = RunOp("_backward__test_simple_sub", {Vec({1, 2})});
  EXPECT_EQ(Host(d[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(Host(d[1]), (std::vector<float>{-1, -2}));
  EXPECT_THROW(RunOp("_test_simple_sub", {Vec({1, 2}), Vec({1, 2, 3})}), dmlc::Error);
  nnvm::NodeAttrs attrs;
  attrs.op = nnvm::Op::Get("_test_simple_sub");
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption")[attrs.op](attrs),
            (std::vector<std::pair<int, int>>{{0, 0}}));
}

TEST(SimpleOp, ShapeFunctionKwargsSourceAndDocs) {
  auto r = RunOp("_test_simple_rowsum", {Vec({1, 2, 3, 4, 5, 6}, TShape({2, 3}))},
               {{"offset", "0.5"}});
  EXPECT_EQ(r[0].shape(), TShape({2}));
  EXPECT_EQ(Host(r[0]), (std::vector<float>{6.5f, 15.5f}));
  auto f = RunOp("_test_simple_fill", {}, {{"scalar", "7"}});
  EXPECT_EQ(f[0].shape(), TShape({2, 2}));
  EXPECT_EQ(Host(f[0]), (std::vector<float>(4, 7.f)));
  const nnvm::Op* op = nnvm::Op::Get("_test_simple_scale");
  EXPECT_EQ(op->description, "x * scalar");
  ASSERT_EQ(op->arguments.size(), 2U);
  EXPECT_EQ(op->arguments[0].name, "data");
  EXPECT_EQ(op->arguments[1].name, "scalar");
  EXPECT_NE(SimpleOpRegistry::Get()->Find("_test_simple_mul"), nullptr);
  // Re-opening an entry (as a .cu file would) returns the same builder.
  EXPECT_EQ(&SimpleOpRegistry::Get()->__REGISTER_OR_FIND__("_test_simple_mul"),
            SimpleOpRegistry::Get()->Find("_test_simple_mul"));
}

TEST(SimpleOp, SmoothL1IsRegisteredWithItsGradient) {
  auto y = RunOp("smooth_l1", {Vec({1, 2, 0.1f, -0.3f})}, {{"scalar", "2"}});
  auto v = Host(y[0]);
  EXPECT_FLOAT_EQ(v[0], 0.875f);
  EXPECT_FLOAT_EQ(v[2], 0.02f);
  EXPECT_FLOAT_EQ(v[3], 0.175f);
  auto d = RunOp("_backward_smooth_l1", {Vec({1, 1, 1, 1}), Vec({1, 2, 0.1f, -0.3f})},
               {{"scalar", "2"}});
  auto dv = Host(d[0]);
  EXPECT_FLOAT_EQ(dv[0], 1.f);
  EXPECT_FLOAT_EQ(dv[2], 0.4f);
  EXPECT_FLOAT_EQ(dv[3], -1.f);
}

}  // namespace
}  // namespace op
}  // namespace mxnet
