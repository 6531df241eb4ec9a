// Tests of the storage-type inference pass (src/executor/infer_storage.h) on small graphs:
// sparse kernels chosen where the operator has one, fallback (dense) otherwise, presets kept,
// head gradients following their output.
#include <gtest/gtest.h>
#include <mxnet/ndarray.h>
#include <nnvm/graph.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "executor/infer_storage.h"

namespace {

using mxnet::DispatchMode;
using nnvm::NodeEntry;
using nnvm::ObjectPtr;

NodeEntry Var(const std::string& name, int stype = -1) {
  ObjectPtr n = nnvm::Node::Create();
  n->attrs.name = name;
  if (stype >= 0) n->attrs.dict["__storage_type__"] = std::to_string(stype);
  return NodeEntry(n, 0, 0);
}

NodeEntry Op(const std::string& op, const std::vector<NodeEntry>& inputs,
             const std::unordered_map<std::string, std::string>& params = {}) {
  ObjectPtr n = nnvm::Node::Create();
  n->attrs.op = nnvm::Op::Get(op);
  n->attrs.name = op + "_node";
  for (const auto& kv : params) n->attrs.dict[kv.first] = kv.second;
  if (n->attrs.op->attr_parser) n->attrs.op->attr_parser(&n->attrs);
  n->inputs = inputs;
  return NodeEntry(n, 0, 0);
}

struct Result {
  std::vector<int> stypes;
  std::vector<DispatchMode> modes;
  size_t fallbacks;
  int out_stype;
  DispatchMode out_mode;
};

Result Infer(const NodeEntry& out) {
  nnvm::Graph g;
  g.outputs = {out};
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  Result r;
  r.stypes.assign(idx.num_node_entries(), mxnet::kUndefinedStorage);
  r.fallbacks = mxnet::exec::InferStorageTypes(idx, mxnet::cpu::kDevMask, &r.stypes, &r.modes);
  r.out_stype = r.stypes[idx.entry_id(idx.outputs()[0])];
  r.out_mode = r.modes[idx.outputs()[0].node_id];
  return r;
}

TEST(InferStorage, DotOfCsrAndDenseUsesTheSparseKernel) {
  Result r = Infer(Op("dot", {Var("x", mxnet::kCSRStorage), Var("w")}));
  EXPECT_EQ(r.out_stype, mxnet::kDefaultStorage);
  EXPECT_EQ(r.out_mode, DispatchMode::kFComputeEx);
  EXPECT_EQ(r.fallbacks, 0u);
  Result t = Infer(Op("dot", {Var("x", mxnet::kCSRStorage), Var("w")}, {{"transpose_a", "True"}}));
  EXPECT_EQ(t.out_stype, mxnet::kRowSparseStorage);
}

TEST(InferStorage, OperatorWithoutSparseKernelFallsBackToDense) {
  Result r = Infer(Op("exp", {Var("x", mxnet::kCSRStorage)}));
  EXPECT_EQ(r.out_stype, mxnet::kDefaultStorage);
  EXPECT_EQ(r.out_mode, DispatchMode::kFComputeFallback);
  EXPECT_EQ(r.fallbacks, 1u);
}

TEST(InferStorage, DenseGraphsStayDense) {
  Result r = Infer(Op("exp", {Op("dot", {Var("a"), Var("b")})}));
  EXPECT_EQ(r.fallbacks, 0u);
  for (int s : r.stypes) EXPECT_EQ(s, mxnet::kDefaultStorage);
  for (DispatchMode m : r.modes) {
    EXPECT_TRUE(m == DispatchMode::kFCompute || m == DispatchMode::kVariable);
  }
}

TEST(InferStorage, ZeroPreservingChainKeepsCsr) {
  Result r = Infer(Op("_mul_scalar", {Op("relu", {Var("x", mxnet::kCSRStorage)})},
                      {{"scalar", "2"}}));
  EXPECT_EQ(r.out_stype, mxnet::kCSRStorage);
  EXPECT_EQ(r.out_mode, DispatchMode::kFComputeEx);
}

TEST(InferStorage, PresetOutputTypeWinsOrFallsBack) {
  // A dense output bound where the kernel would make row_sparse: the dense kernel runs.
  NodeEntry out = Op("dot", {Var("x", mxnet::kCSRStorage), Var("w")}, {{"transpose_a", "True"}});
  nnvm::Graph g;
  g.outputs = {out};
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<int> stypes(idx.num_node_entries(), mxnet::kUndefinedStorage);
  stypes[idx.entry_id(idx.outputs()[0])] = mxnet::kDefaultStorage;
  std::vector<DispatchMode> modes;
  mxnet::exec::InferStorageTypes(idx, mxnet::cpu::kDevMask, &stypes, &modes);
  EXPECT_EQ(stypes[idx.entry_id(idx.outputs()[0])], mxnet::kDefaultStorage);
  EXPECT_EQ(modes[idx.outputs()[0].node_id], DispatchMode::kFComputeEx);  // forward_stype-like
  // A csr output bound for dot(csr, dense): no kernel makes csr, so fallback + cast.
  NodeEntry out2 = Op("dot", {Var("x", mxnet::kCSRStorage), Var("w")});
  nnvm::Graph g2;
  g2.outputs = {out2};
  const nnvm::IndexedGraph& idx2 = g2.indexed_graph();
  std::vector<int> st2(idx2.num_node_entries(), mxnet::kUndefinedStorage);
  st2[idx2.entry_id(idx2.outputs()[0])] = mxnet::kCSRStorage;
  mxnet::exec::InferStorageTypes(idx2, mxnet::cpu::kDevMask, &st2, &modes);
  EXPECT_EQ(st2[idx2.entry_id(idx2.outputs()[0])], mxnet::kCSRStorage);
  EXPECT_EQ(modes[idx2.outputs()[0].node_id], DispatchMode::kFComputeFallback);
}

TEST(InferStorage, HeadGradientTakesItsOutputsType) {
  NodeEntry fwd = Op("relu", {Var("w", mxnet::kRowSparseStorage)});
  ObjectPtr head = nnvm::Node::Create();
  head->attrs.name = "head";
  NodeEntry bwd = Op("_backward_relu", {NodeEntry(head, 0, 0), fwd});
  nnvm::Graph g;
  g.outputs = {fwd, bwd};
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<int> stypes(idx.num_node_entries(), mxnet::kUndefinedStorage);
  std::vector<DispatchMode> modes;
  const std::vector<int> same_as = mxnet::exec::HeadGradStorageSources(idx, {head});
  mxnet::exec::InferStorageTypes(idx, mxnet::cpu::kDevMask, &stypes, &modes, &same_as);
  EXPECT_EQ(stypes[idx.entry_id(idx.node_id(head.get()), 0)], mxnet::kRowSparseStorage);
  EXPECT_EQ(stypes[idx.entry_id(idx.outputs()[1])], mxnet::kRowSparseStorage);
  EXPECT_EQ(modes[idx.outputs()[1].node_id], DispatchMode::kFComputeEx);
}

}  // namespace
