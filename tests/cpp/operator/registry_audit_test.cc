// Registry audit (STYLE.md §4): every registered operator documents itself, infers shapes and
// types, and either has a gradient or says explicitly that it is not differentiable.
#include <gtest/gtest.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <set>
#include <string>

TEST(RegistryAudit, EveryOperatorIsComplete) {
  auto& finfer_shape = nnvm::Op::GetAttr<mxnet::FInferShape>("FInferShape");
  auto& finfer_type = nnvm::Op::GetAttr<nnvm::FInferType>("FInferType");
  auto& fgradient = nnvm::Op::GetAttr<nnvm::FGradient>("FGradient");
  auto& is_backward = nnvm::Op::GetAttr<nnvm::TIsBackward>("TIsBackward");
  auto& non_diff = nnvm::Op::GetAttr<bool>("TNonDifferentiable");
  auto& fcompute = nnvm::Op::GetAttr<mxnet::FCompute>("FCompute<cpu>");
  auto& fstateful = nnvm::Op::GetAttr<mxnet::FStatefulCompute>("FStatefulCompute<cpu>");
  // NDArray-level kernels count too (sparse ops, ops that run subgraphs).
  auto& fcompute_ex = nnvm::Op::GetAttr<mxnet::FComputeEx>("FComputeEx<cpu>");
  auto& fstateful_ex = nnvm::Op::GetAttr<mxnet::FStatefulComputeEx>("FStatefulComputeEx<cpu>");
  // Without a gradient on purpose, as in 1.9.1: backward through them raises naming the op
  // (TNonDifferentiable would instead give zero gradients silently).
  const std::set<std::string> no_gradient = {"_contrib_RROIAlign"};
  std::set<const nnvm::Op*> seen;
  std::vector<std::string> problems;
  for (const std::string& name : nnvm::Op::ListAllNames()) {
    const nnvm::Op* op = nnvm::Op::Get(name);
    if (!seen.insert(op).second) continue;
    const bool backward = is_backward.get(op, false);
    if (!fcompute.count(op) && !fstateful.count(op) && !fcompute_ex.count(op) &&
        !fstateful_ex.count(op)) {
      problems.push_back(op->name + ": no CPU kernel");
    }
    if (backward) continue;  // backward ops take shapes from their forward node
    if (op->description.empty()) problems.push_back(op->name + ": no description");
    if (!finfer_shape.count(op)) problems.push_back(op->name + ": no FInferShape");
    if (!finfer_type.count(op)) problems.push_back(op->name + ": no FInferType");
    if (!fgradient.count(op) && !non_diff.get(op, false) && !no_gradient.count(op->name)) {
      problems.push_back(op->name + ": no FGradient and not marked TNonDifferentiable");
    }
  }
  EXPECT_TRUE(problems.empty()) << [&] {
    std::string all;
    for (const auto& p : problems) all += "\n  " + p;
    return all;
  }();
}
