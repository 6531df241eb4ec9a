// Tests of the gradient pass (nnvm/gradient.h): gradient graphs built for small expressions are
// executed op by op through Imperative::Invoke and compared with hand-derived derivatives;
// structural rules (sums, zeros, copies, mutated inputs, errors) are checked on the graph.
#include <gtest/gtest.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <nnvm/gradient.h>
#include <nnvm/node.h>
#include <nnvm/op_attr_types.h>

#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "operator/elemwise_op_common.h"
#include "operator/operator_common.h"

namespace {

using mxnet::NDArray;
using mxnet::TShape;
using nnvm::NodeEntry;
using nnvm::ObjectPtr;

NodeEntry Var(const std::string& name) {
  ObjectPtr n = nnvm::Node::Create();
  n->attrs.name = name;
  return NodeEntry(n, 0, 0);
}

NodeEntry Op1(const char* op, const std::string& name, std::vector<NodeEntry> inputs,
              std::unordered_map<std::string, std::string> dict = {}) {
  return nnvm::MakeNode(op, name, std::move(inputs), std::move(dict));
}

NDArray FromVector(const std::vector<float>& v) {
  NDArray a(TShape({static_cast<int64_t>(v.size())}), mxnet::Context::CPU());
  a.SyncCopyFromCPU(v.data(), v.size());
  return a;
}

std::vector<float> ToVector(const NDArray& a) {
  std::vector<float> v(a.Size());
  a.SyncCopyToCPU(v.data(), v.size());
  return v;
}

/*! \brief Evaluates `heads` by invoking every node in topological order (variables from `vars`). */
std::vector<NDArray> Evaluate(const std::vector<NodeEntry>& heads,
                              const std::unordered_map<const nnvm::Node*, NDArray>& vars) {
  std::unordered_map<const nnvm::Node*, std::vector<NDArray>> values;
  for (const ObjectPtr& n : nnvm::TopoSortNodes(heads)) {
    if (n->is_variable()) {
      values[n.get()] = {vars.at(n.get())};
      continue;
    }
    std::vector<NDArray> ins;
    for (const NodeEntry& e : n->inputs) ins.push_back(values.at(e.node.get()).at(e.index));
    std::vector<NDArray> outs(n->num_outputs());
    std::vector<NDArray*> in_ptrs, out_ptrs;
    for (auto& a : ins) in_ptrs.push_back(&a);
    for (auto& a : outs) out_ptrs.push_back(&a);
    auto attrs = std::make_shared<nnvm::NodeAttrs>(n->attrs);
    mxnet::Imperative::Get()->Invoke(attrs, in_ptrs, out_ptrs);
    values[n.get()] = outs;
  }
  std::vector<NDArray> ret;
  for (const NodeEntry& h : heads) ret.push_back(values.at(h.node.get()).at(h.index));
  return ret;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "element " << i;
}

TEST(Gradient, ProductRuleThroughBackwardOp) {
  NodeEntry x = Var("x"), w = Var("w"), dy = Var("dy");
  NodeEntry y = Op1("elemwise_mul", "mul0", {x, w});
  auto grads = nnvm::Gradient({y}, {x, w}, {dy});
  ASSERT_EQ(grads.size(), 2U);
  auto vals = Evaluate(grads, {{x.node.get(), FromVector({1, 2, 3})},
                               {w.node.get(), FromVector({4, 5, 6})},
                               {dy.node.get(), FromVector({1, 10, 100})}});
  ExpectNear(ToVector(vals[0]), {4, 50, 600});  // dy * w
  ExpectNear(ToVector(vals[1]), {1, 20, 300});  // dy * x
  EXPECT_EQ(grads[0].node->control_deps.at(0), y.node) << "backward node depends on forward";
}

TEST(Gradient, SeveralConsumersAreSummed) {
  // y = x*x + x  ->  dy/dx = 2x + 1
  NodeEntry x = Var("x"), dy = Var("dy");
  NodeEntry sq = Op1("elemwise_mul", "sq", {x, x});
  NodeEntry y = Op1("elemwise_add", "add", {sq, x});
  auto grads = nnvm::Gradient({y}, {x}, {dy});
  EXPECT_EQ(grads[0].node->op(), nnvm::Op::Get("add_n"));
  EXPECT_EQ(grads[0].node->inputs.size(), 3U);
  auto vals = Evaluate(grads, {{x.node.get(), FromVector({1, -2, 0.5})},
                               {dy.node.get(), FromVector({1, 1, 2})}});
  ExpectNear(ToVector(vals[0]), {3, -3, 4});
}

TEST(Gradient, SeveralHeadsAndRepeatedHead) {
  // heads y1 = 2x (via x+x) and y1 again and y2 = x*x: sum of head-gradient-weighted grads.
  NodeEntry x = Var("x"), g1 = Var("g1"), g2 = Var("g2"), g3 = Var("g3");
  NodeEntry y1 = Op1("elemwise_add", "twice", {x, x});
  NodeEntry y2 = Op1("elemwise_mul", "sq", {x, x});
  auto grads = nnvm::Gradient({y1, y1, y2}, {x}, {g1, g2, g3});
  auto vals = Evaluate(grads, {{x.node.get(), FromVector({3})},
                               {g1.node.get(), FromVector({1})},
                               {g2.node.get(), FromVector({10})},
                               {g3.node.get(), FromVector({100})}});
  // 2*1 + 2*10 + 2*3*100
  ExpectNear(ToVector(vals[0]), {622});
}

TEST(Gradient, UnusedVariableGetsZerosLike) {
  NodeEntry x = Var("x"), u = Var("unused"), dy = Var("dy");
  NodeEntry y = Op1("sin", "sin0", {x});
  auto grads = nnvm::Gradient({y}, {x, u}, {dy});
  EXPECT_EQ(grads[1].node->op(), nnvm::Op::Get("zeros_like"));
  auto vals = Evaluate(grads, {{x.node.get(), FromVector({0.5, 1})},
                               {u.node.get(), FromVector({7, 7, 7})},
                               {dy.node.get(), FromVector({1, 2})}});
  ExpectNear(ToVector(vals[0]), {std::cos(0.5f), 2 * std::cos(1.0f)});
  ExpectNear(ToVector(vals[1]), {0, 0, 0});
}

TEST(Gradient, IdentityAndDuplicateResultsAreCopies) {
  // y = x: the gradient is the head gradient itself; returned as a copy, not the variable.
  NodeEntry x = Var("x"), dy = Var("dy");
  auto grads = nnvm::Gradient({x}, {x, x}, {dy});
  ASSERT_EQ(grads.size(), 2U);
  EXPECT_EQ(grads[0].node->op(), nnvm::Op::Get("_copy"));
  EXPECT_NE(grads[0].node, grads[1].node);
  auto vals = Evaluate(grads, {{x.node.get(), FromVector({1, 2})},
                               {dy.node.get(), FromVector({5, 6})}});
  ExpectNear(ToVector(vals[0]), {5, 6});
  ExpectNear(ToVector(vals[1]), {5, 6});
}

TEST(Gradient, StopsAtNonDifferentiableAndZeroGradOps) {
  // BlockGrad passes zeros: x's gradient only comes from the other path.
  NodeEntry x = Var("x"), dy = Var("dy");
  NodeEntry blocked = Op1("BlockGrad", "block", {x});
  NodeEntry y = Op1("elemwise_mul", "mul", {blocked, x});  // d/dx (c * x) with c = x held
  auto grads = nnvm::Gradient({y}, {x}, {dy});
  auto vals = Evaluate(grads, {{x.node.get(), FromVector({3, 4})},
                               {dy.node.get(), FromVector({1, 1})}});
  ExpectNear(ToVector(vals[0]), {3, 4});
}

TEST(Gradient, MissingFGradientNamesTheOperator) {
  static auto& fgrad = nnvm::Op::GetAttr<nnvm::FGradient>("FGradient");
  ASSERT_EQ(fgrad.count(nnvm::Op::Get("_backward_copy")), 0);
  NodeEntry x = Var("x"), dy = Var("dy");
  NodeEntry y = Op1("_backward_copy", "bwd_node", {x});
  try {
    nnvm::Gradient({y}, {x}, {dy});
    FAIL() << "expected an error";
  } catch (const dmlc::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("_backward_copy"), std::string::npos) << msg;
    EXPECT_NE(msg.find("bwd_node"), std::string::npos) << msg;
    EXPECT_STREQ(e.type_name(), "NotImplementedError");
  }
  // ... but no error when nothing flows through it.
  NodeEntry z = Op1("sin", "sin", {x});
  NodeEntry other = Op1("_backward_copy", "bwd_unused", {z});
  EXPECT_NO_THROW(nnvm::Gradient({z}, {x}, {dy}));
  (void)other;
}

TEST(Gradient, SizeMismatchIsValueError) {
  NodeEntry x = Var("x");
  EXPECT_THROW(nnvm::Gradient({x}, {x}, {}), dmlc::ValueError);
}

// An op that reads `data` and updates `aux` in place: aux must get no gradient.
NNVM_REGISTER_OP(_test_gradient_scale_with_aux)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr<nnvm::FMutateInputs>("FMutateInputs",
                               [](const nnvm::NodeAttrs&) { return std::vector<uint32_t>{1}; })
.set_attr<nnvm::FGradient>("FGradient", [](const nnvm::ObjectPtr& n,
                                           const std::vector<nnvm::NodeEntry>& ograds) {
  // d/d data = ograd * 1 (as a copy); the aux slot gets an entry the pass must ignore.
  std::vector<nnvm::NodeEntry> ret;
  ret.push_back(nnvm::MakeNode("_copy", n->attrs.name + "_bwd", {ograds[0]}));
  ret.push_back(nnvm::MakeNode("_copy", n->attrs.name + "_bwd_aux", {ograds[0]}));
  return ret;
});

TEST(Gradient, MutatedInputsGetNoGradient) {
  NodeEntry x = Var("x"), aux = Var("aux"), dy = Var("dy");
  NodeEntry y = Op1("_test_gradient_scale_with_aux", "op", {x, aux});
  auto grads = nnvm::Gradient({y}, {x, aux}, {dy});
  EXPECT_EQ(grads[0].node->attrs.name, "op_bwd");
  EXPECT_EQ(grads[1].node->op(), nnvm::Op::Get("zeros_like"));
}

TEST(Gradient, DeepChainDoesNotRecurse) {
  NodeEntry x = Var("x"), dy = Var("dy");
  NodeEntry h = x;
  for (int i = 0; i < 20000; ++i) h = Op1("_copy", "c" + std::to_string(i), {h});
  auto grads = nnvm::Gradient({h}, {x}, {dy});
  // 20000 gradient copies + dy, and (through control dependencies) 20000 forward copies + x.
  EXPECT_EQ(nnvm::TopoSortNodes(grads).size(), 2 * 20000U + 2U);
}

TEST(Gradient, OnNewNodeSeesCreatedNodes) {
  NodeEntry x = Var("x"), dy = Var("dy");
  NodeEntry y = Op1("elemwise_add", "add", {x, x});
  int seen = 0;
  nnvm::GradientOptions opts;
  opts.on_new_node = [&seen](const nnvm::ObjectPtr&) { ++seen; };
  nnvm::Gradient({y}, {x}, {dy}, opts);
  EXPECT_GE(seen, 2);  // the backward node and the sum
}

}  // namespace
