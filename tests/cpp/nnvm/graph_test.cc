// Graph IR, symbol composition, JSON, inference and the memory planner.
#include <gtest/gtest.h>
#include <nnvm/graph.h>
#include <nnvm/graph_passes.h>
#include <nnvm/symbolic.h>

#include <string>
#include <vector>

using nnvm::Symbol;

namespace {

Symbol Op(const char* name, std::vector<const Symbol*> args, const std::string& node_name,
          std::unordered_map<std::string, std::string> attrs = {}) {
  Symbol s = Symbol::CreateFunctor(nnvm::Op::Get(name), std::move(attrs));
  s.Compose(args, {}, node_name);
  return s;
}

struct Planned {
  nnvm::Graph g;
  mxnet::ShapeVector shapes;
  std::vector<int> dtypes;
  nnvm::pass::MemoryPlan plan;
};

Planned Plan(const Symbol& s, const mxnet::TShape& data_shape) {
  Planned p;
  p.g.outputs = s.outputs;
  const auto& idx = p.g.indexed_graph();
  p.shapes.assign(idx.num_node_entries(), mxnet::TShape());
  p.dtypes.assign(idx.num_node_entries(), 0);
  std::vector<bool> external(idx.num_node_entries(), false), keep(idx.num_node_entries(), false);
  for (uint32_t nid : idx.input_nodes()) {
    external[idx.entry_id(nid, 0)] = true;
    if (idx[nid].source->attrs.name == "x") p.shapes[idx.entry_id(nid, 0)] = data_shape;
  }
  for (const auto& e : idx.outputs()) keep[idx.entry_id(e)] = true;
  EXPECT_EQ(nnvm::pass::InferShape(idx, &p.shapes), 0u);
  p.plan = nnvm::pass::PlanMemory(idx, p.shapes, p.dtypes, external, keep);
  return p;
}

uint32_t Eid(const Planned& p, const Symbol& s) {
  return p.g.indexed_graph().entry_id(s.outputs[0]);
}

}  // namespace

TEST(Symbol, ComposeCreatesNamedVariablesWithNodeAttrs) {
  Symbol x = Symbol::CreateVariable("x");
  Symbol fc = Op("FullyConnected", {&x}, "fc1", {{"num_hidden", "4"}});
  EXPECT_EQ(fc.ListInputNames(Symbol::kReadOnlyArgs),
            (std::vector<std::string>{"x", "fc1_weight", "fc1_bias"}));
  EXPECT_EQ(fc.ListOutputNames(), std::vector<std::string>{"fc1_output"});
  auto vars = fc.ListInputs(Symbol::kAll);
  EXPECT_EQ(vars[1]->attrs.dict.at("num_hidden"), "4");
  Symbol internals = fc.GetInternals();
  EXPECT_EQ(internals.outputs.size(), 4u);
  Symbol copy = fc.Copy();
  EXPECT_NE(copy.outputs[0].node.get(), fc.outputs[0].node.get());
  EXPECT_EQ(nnvm::SaveJSON(copy), nnvm::SaveJSON(fc));
}

TEST(Symbol, JSONRoundTrip) {
  Symbol x = Symbol::CreateVariable("x");
  Symbol a = Op("relu", {&x}, "r");
  Symbol b = Op("elemwise_add", {&a, &x}, "add");
  std::string js = nnvm::SaveJSON(b);
  Symbol back = nnvm::LoadJSON(js);
  EXPECT_EQ(nnvm::SaveJSON(back), js);
  EXPECT_EQ(back.ListInputNames(Symbol::kAll), std::vector<std::string>{"x"});
  EXPECT_THROW(nnvm::LoadJSON("{\"nodes\": [}"), dmlc::Error);
}

TEST(InferShape, PartialFixedPointAndConflicts) {
  // a=(2,?), c=(?,3), d = a*b + b*c: everything becomes (2,3).
  Symbol a = Symbol::CreateVariable("a"), b = Symbol::CreateVariable("b"),
         c = Symbol::CreateVariable("c");
  Symbol ab = Op("elemwise_mul", {&a, &b}, "m0");
  Symbol bc = Op("elemwise_mul", {&b, &c}, "m1");
  Symbol d = Op("elemwise_add", {&ab, &bc}, "p0");
  nnvm::Graph g;
  g.outputs = d.outputs;
  const auto& idx = g.indexed_graph();
  mxnet::ShapeVector shapes(idx.num_node_entries());
  auto vars = d.ListInputs(Symbol::kAll);
  shapes[idx.entry_id(idx.node_id(vars[0].get()), 0)] = mxnet::TShape({2, -1});
  shapes[idx.entry_id(idx.node_id(vars[2].get()), 0)] = mxnet::TShape({-1, 3});
  EXPECT_EQ(nnvm::pass::InferShape(idx, &shapes), 0u);
  EXPECT_EQ(shapes[idx.entry_id(d.outputs[0])], mxnet::TShape({2, 3}));
  EXPECT_EQ(shapes[idx.entry_id(idx.node_id(vars[1].get()), 0)], mxnet::TShape({2, 3}));

  mxnet::ShapeVector bad(idx.num_node_entries());
  bad[idx.entry_id(idx.node_id(vars[0].get()), 0)] = mxnet::TShape({2, 3});
  bad[idx.entry_id(idx.node_id(vars[1].get()), 0)] = mxnet::TShape({2, 4});
  try {
    nnvm::pass::InferShape(idx, &bad);
    FAIL() << "expected a shape conflict";
  } catch (const dmlc::Error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("m0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[2,3]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[2,4]"), std::string::npos) << msg;
  }
}

TEST(PlanMemory, ChainOfElementwiseOpsRunsInPlace) {
  Symbol x = Symbol::CreateVariable("x");
  Symbol a = Op("relu", {&x}, "a");
  Symbol b = Op("sigmoid", {&a}, "b");
  Symbol c = Op("tanh", {&b}, "c");
  Planned p = Plan(c, mxnet::TShape({8, 8}));
  // a cannot overwrite the variable x; b and c overwrite their inputs.
  EXPECT_GE(p.plan.storage_id[Eid(p, a)], 0);
  EXPECT_EQ(p.plan.inplace_input[Eid(p, a)], -1);
  EXPECT_EQ(p.plan.storage_id[Eid(p, b)], p.plan.storage_id[Eid(p, a)]);
  EXPECT_EQ(p.plan.inplace_input[Eid(p, b)], static_cast<int>(Eid(p, a)));
  EXPECT_EQ(p.plan.storage_id[Eid(p, c)], p.plan.storage_id[Eid(p, a)]);
  EXPECT_EQ(p.plan.storage_bytes.size(), 1u);
}

TEST(PlanMemory, NoInPlaceWhenTheInputHasAnotherReader) {
  Symbol x = Symbol::CreateVariable("x");
  Symbol a = Op("relu", {&x}, "a");
  Symbol b = Op("sigmoid", {&a}, "b");
  Symbol c = Op("elemwise_add", {&a, &b}, "c");   // a is still needed after b
  Planned p = Plan(c, mxnet::TShape({4, 4}));
  EXPECT_NE(p.plan.storage_id[Eid(p, b)], p.plan.storage_id[Eid(p, a)]);
  EXPECT_EQ(p.plan.inplace_input[Eid(p, b)], -1);
}

TEST(PlanMemory, BuffersAreReusedOnlyAfterTheLastReader) {
  // Three FullyConnected layers (no in-place): fc3 reuses fc1's block once fc2 has read it.
  Symbol x = Symbol::CreateVariable("x");
  Symbol f1 = Op("FullyConnected", {&x}, "f1", {{"num_hidden", "8"}});
  Symbol f2 = Op("FullyConnected", {&f1}, "f2", {{"num_hidden", "8"}});
  Symbol f3 = Op("FullyConnected", {&f2}, "f3", {{"num_hidden", "8"}});
  Symbol out = Op("relu", {&f3}, "out");
  Planned p = Plan(out, mxnet::TShape({4, 8}));
  EXPECT_EQ(p.plan.storage_id[Eid(p, f3)], p.plan.storage_id[Eid(p, f1)]);
  EXPECT_EQ(p.plan.storage_bytes.size(), 2u);

  // A later reader of f1 (as a backward op reading a forward output would be) keeps it alive.
  Symbol keep = Op("elemwise_add", {&f1, &f3}, "keep");
  Planned q = Plan(keep, mxnet::TShape({4, 8}));
  EXPECT_NE(q.plan.storage_id[Eid(q, f3)], q.plan.storage_id[Eid(q, f1)]);
  EXPECT_NE(q.plan.storage_id[Eid(q, f2)], q.plan.storage_id[Eid(q, f1)]);
}

#include <nnvm/gradient.h>

namespace {

/*! \brief Plan FC1 -> act -> FC2 together with its gradient graph (w.r.t. both weights). */
struct ForwardBackwardPlan {
  Planned p;
  Symbol fc1, act;
};

ForwardBackwardPlan PlanWithGradient(const char* act_op) {
  Symbol x = Symbol::CreateVariable("x");
  ForwardBackwardPlan r;
  r.fc1 = Op("FullyConnected", {&x}, "fc1", {{"num_hidden", "8"}, {"no_bias", "True"}});
  r.act = Op(act_op, {&r.fc1}, "act");
  Symbol fc2 = Op("FullyConnected", {&r.act}, "fc2", {{"num_hidden", "8"}, {"no_bias", "True"}});
  auto vars = fc2.ListInputs(Symbol::kAll);
  Symbol head_grad = Symbol::CreateVariable("head_grad");
  std::vector<nnvm::NodeEntry> xs{nnvm::NodeEntry(vars[1], 0, 0), nnvm::NodeEntry(vars[2], 0, 0)};
  std::vector<nnvm::NodeEntry> grads = nnvm::Gradient(fc2.outputs, xs, head_grad.outputs);
  Symbol all;
  all.outputs = fc2.outputs;
  all.outputs.insert(all.outputs.end(), grads.begin(), grads.end());
  // Plan with x, the weights and the head gradient bound; gradients are graph outputs (kept).
  r.p.g.outputs = all.outputs;
  const auto& idx = r.p.g.indexed_graph();
  r.p.shapes.assign(idx.num_node_entries(), mxnet::TShape());
  r.p.dtypes.assign(idx.num_node_entries(), 0);
  std::vector<bool> external(idx.num_node_entries(), false), keep(idx.num_node_entries(), false);
  for (uint32_t nid : idx.input_nodes()) {
    external[idx.entry_id(nid, 0)] = true;
    const std::string& name = idx[nid].source->attrs.name;
    mxnet::TShape s = name == "x" || name == "head_grad" ? mxnet::TShape({4, 8})
                                                         : mxnet::TShape({8, 8});
    r.p.shapes[idx.entry_id(nid, 0)] = s;
  }
  for (const auto& e : idx.outputs()) keep[idx.entry_id(e)] = true;
  EXPECT_EQ(nnvm::pass::InferShape(idx, &r.p.shapes), 0u);
  r.p.plan = nnvm::pass::PlanMemory(idx, r.p.shapes, r.p.dtypes, external, keep);
  return r;
}

}  // namespace

TEST(PlanMemory, OutputNotNeededByBackwardIsReused) {
  // FullyConnected's backward reads its inputs, not its output; sigmoid's backward reads its
  // output. So fc1's output is dead once sigmoid ran: sigmoid overwrites it in place.
  ForwardBackwardPlan r = PlanWithGradient("sigmoid");
  EXPECT_EQ(r.p.plan.storage_id[Eid(r.p, r.act)], r.p.plan.storage_id[Eid(r.p, r.fc1)]);
  EXPECT_EQ(r.p.plan.inplace_input[Eid(r.p, r.act)], static_cast<int>(Eid(r.p, r.fc1)));
}

TEST(PlanMemory, OutputNeededByBackwardIsKept) {
  // sin's backward reads sin's input (fc1's output): it must survive until backward.
  ForwardBackwardPlan r = PlanWithGradient("sin");
  EXPECT_NE(r.p.plan.storage_id[Eid(r.p, r.act)], r.p.plan.storage_id[Eid(r.p, r.fc1)]);
  EXPECT_EQ(r.p.plan.inplace_input[Eid(r.p, r.act)], -1);
}
