/*!
 * \file gradient.cc
 * \brief The gradient pass (see nnvm/gradient.h): a reverse topological walk over the nodes
 *        between the xs and the ys, calling each op's FGradient with the summed gradients of its
 *        outputs and collecting the contributions it returns for its inputs.
 */
#include <nnvm/gradient.h>
#include <nnvm/op_attr_types.h>

#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace nnvm {

std::vector<ObjectPtr> TopoSortNodes(const std::vector<NodeEntry>& heads) {
  std::vector<ObjectPtr> order;
  std::unordered_set<Node*> visited;
  // Explicit stack of (node, next predecessor to visit): predecessors are inputs then
  // control dependencies.
  std::vector<std::pair<ObjectPtr, size_t>> stack;
  auto predecessor = [](const ObjectPtr& n, size_t i) -> const ObjectPtr& {
    return i < n->inputs.size() ? n->inputs[i].node : n->control_deps[i - n->inputs.size()];
  };
  for (const NodeEntry& head : heads) {
    if (!head.node || visited.count(head.node.get())) continue;
    visited.insert(head.node.get());
    stack.emplace_back(head.node, 0);
    while (!stack.empty()) {
      auto& top = stack.back();
      const size_t num_pred = top.first->inputs.size() + top.first->control_deps.size();
      if (top.second == num_pred) {
        order.push_back(std::move(top.first));
        stack.pop_back();
        continue;
      }
      const ObjectPtr& pred = predecessor(top.first, top.second++);
      if (pred && !visited.count(pred.get())) {
        visited.insert(pred.get());
        stack.emplace_back(pred, 0);
      }
    }
  }
  return order;
}

namespace {

bool SameEntry(const NodeEntry& a, const NodeEntry& b) {
  return a.node == b.node && a.index == b.index && a.version == b.version;
}

/*! \brief Builds the nodes the pass adds itself (sums, zeros, copies). */
class GradNodeMaker {
 public:
  explicit GradNodeMaker(const GradientOptions& options) : options_(options) {
    aggregate_op_ = Op::Get(options.aggregate_op);
    zeros_op_ = Op::Get(options.zeros_op);
    copy_op_ = options.copy_op.empty() ? nullptr : Op::Get(options.copy_op);
  }

  NodeEntry Make(const Op* op, const std::string& name, std::vector<NodeEntry> inputs,
                 std::unordered_map<std::string, std::string> dict = {}) const {
    ObjectPtr n = Node::Create();
    n->attrs.op = op;
    n->attrs.name = name;
    n->attrs.dict = std::move(dict);
    if (op->attr_parser) op->attr_parser(&n->attrs);
    n->inputs = std::move(inputs);
    if (options_.on_new_node) options_.on_new_node(n);
    return NodeEntry(n, 0, 0);
  }

  /*! \brief One entry holding the sum of `parts` (the part itself when there is one). */
  NodeEntry Sum(const std::vector<NodeEntry>& parts, const std::string& name) const {
    if (parts.size() == 1) return parts[0];
    return Make(aggregate_op_, name, parts, {{"num_args", std::to_string(parts.size())}});
  }

  NodeEntry ZerosLike(const NodeEntry& like, const std::string& name) const {
    return Make(zeros_op_, name, {like});
  }

  NodeEntry Copy(const NodeEntry& src, const std::string& name) const {
    return Make(copy_op_, name, {src});
  }

  bool has_copy() const { return copy_op_ != nullptr; }

 private:
  const GradientOptions& options_;
  const Op* aggregate_op_;
  const Op* zeros_op_;
  const Op* copy_op_;
};

std::string EntryName(const NodeEntry& e) {
  std::ostringstream os;
  os << e.node->attrs.name;
  if (e.node->num_outputs() > 1) os << "_output" << e.index;
  return os.str();
}

}  // namespace

std::vector<NodeEntry> Gradient(const std::vector<NodeEntry>& ys, const std::vector<NodeEntry>& xs,
                                const std::vector<NodeEntry>& ys_out_grads,
                                const GradientOptions& options) {
  if (ys.size() != ys_out_grads.size()) {
    MX_THROW(dmlc::ValueError) << "Gradient: " << ys.size() << " heads but "
                               << ys_out_grads.size() << " head gradients";
  }
  for (size_t i = 0; i < ys.size(); ++i) {
    if (!ys[i].node || !ys_out_grads[i].node) {
      MX_THROW(dmlc::ValueError) << "Gradient: head " << i << " or its gradient is empty";
    }
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].node) MX_THROW(dmlc::ValueError) << "Gradient: variable " << i << " is empty";
  }
  static auto& fgradient = Op::GetAttr<FGradient>("FGradient");
  static auto& fnondiff = Op::GetAttr<bool>("TNonDifferentiable");
  static auto& fmutate = Op::GetAttr<FMutateInputs>("FMutateInputs");
  static auto& fis_backward = Op::GetAttr<TIsBackward>("TIsBackward");
  const GradNodeMaker maker(options);

  const std::vector<ObjectPtr> order = TopoSortNodes(ys);

  // Nodes whose value depends (through inputs) on some x: only those are differentiated.
  std::unordered_set<const Node*> x_nodes;
  for (const NodeEntry& x : xs) x_nodes.insert(x.node.get());
  std::unordered_set<const Node*> depends_on_x;
  for (const ObjectPtr& n : order) {
    bool dep = x_nodes.count(n.get()) != 0;
    for (size_t i = 0; i < n->inputs.size() && !dep; ++i) {
      dep = depends_on_x.count(n->inputs[i].node.get()) != 0;
    }
    if (dep) depends_on_x.insert(n.get());
  }

  // Gradient contributions per entry, summed once all consumers have contributed.
  NodeEntryMap<std::vector<NodeEntry>> contributions;
  NodeEntryMap<NodeEntry> summed;
  for (size_t i = 0; i < ys.size(); ++i) {
    if (depends_on_x.count(ys[i].node.get())) contributions[ys[i]].push_back(ys_out_grads[i]);
  }
  auto sum_of = [&](const NodeEntry& e) -> NodeEntry {
    auto done = summed.find(e);
    if (done != summed.end()) return done->second;
    auto it = contributions.find(e);
    if (it == contributions.end() || it->second.empty()) return NodeEntry();
    NodeEntry total = maker.Sum(it->second, EntryName(e) + "_grad_sum");
    summed.emplace(e, total);
    return total;
  };

  for (auto rit = order.rbegin(); rit != order.rend(); ++rit) {
    const ObjectPtr& node = *rit;
    if (node->is_variable() || !depends_on_x.count(node.get())) continue;
    bool input_depends = false;  // false for an x produced by an op: stop there
    for (const NodeEntry& in : node->inputs) {
      input_depends = input_depends || depends_on_x.count(in.node.get()) != 0;
    }
    if (!input_depends) continue;
    const uint32_t num_outputs = node->num_outputs();
    std::vector<NodeEntry> out_grads(num_outputs);
    bool any_grad = false;
    for (uint32_t i = 0; i < num_outputs; ++i) {
      out_grads[i] = sum_of(NodeEntry(node, i, 0));
      any_grad = any_grad || out_grads[i].node != nullptr;
    }
    if (!any_grad) continue;  // nothing flows back through this node
    const Op* op = node->op();
    if (fnondiff.get(op, false)) continue;
    if (!fgradient.count(op) && fis_backward.get(op, false)) {
      // Reached when a gradient computed with create_graph=True is differentiated again.
      MX_THROW(dmlc::NotImplementedError)
          << "Operator " << op->name << " (node " << node->attrs.name
          << ") has no higher-order gradient: differentiating a gradient through it "
             "(autograd.grad(..., create_graph=True) and then backward) is not supported";
    }
    if (!fgradient.count(op)) {
      MX_THROW(dmlc::NotImplementedError)
          << "Operator " << op->name << " (node " << node->attrs.name
          << ") is not differentiable: it has no FGradient, but a gradient flows through it";
    }
    for (uint32_t i = 0; i < num_outputs; ++i) {
      if (!out_grads[i].node) {
        out_grads[i] = maker.ZerosLike(NodeEntry(node, i, 0), EntryName(NodeEntry(node, i, 0)) +
                                                                    "_zero_grad");
      }
    }
    std::vector<NodeEntry> in_grads = fgradient[op](node, out_grads);
    if (in_grads.size() != node->inputs.size()) {
      MX_THROW(dmlc::InternalError)
          << "FGradient of operator " << op->name << " (node " << node->attrs.name
          << ") returned " << in_grads.size() << " gradients for " << node->inputs.size()
          << " inputs";
    }
    std::vector<bool> mutated(node->inputs.size(), false);
    if (fmutate.count(op)) {
      for (uint32_t idx : fmutate[op](node->attrs)) {
        if (idx < mutated.size()) mutated[idx] = true;
      }
    }
    std::unordered_set<const Node*> announced;
    for (size_t i = 0; i < in_grads.size(); ++i) {
      if (!in_grads[i].node) continue;
      if (options.on_new_node && announced.insert(in_grads[i].node.get()).second) {
        options.on_new_node(in_grads[i].node);
      }
      if (mutated[i] || !depends_on_x.count(node->inputs[i].node.get())) continue;
      contributions[node->inputs[i]].push_back(in_grads[i]);
    }
  }

  // One entry per x; distinct from each other and from variables (e.g. y = x makes the head
  // gradient itself the result; the caller writes results to their own buffers).
  std::vector<NodeEntry> result;
  result.reserve(xs.size());
  for (const NodeEntry& x : xs) {
    NodeEntry g = sum_of(x);
    if (!g.node) {
      g = maker.ZerosLike(x, EntryName(x) + "_zero_grad");
    } else if (maker.has_copy()) {
      bool alias = g.node->is_variable();
      for (const NodeEntry& prev : result) alias = alias || SameEntry(prev, g);
      if (alias) g = maker.Copy(g, EntryName(x) + "_grad_copy");
    }
    result.push_back(g);
  }
  return result;
}

std::vector<int> BackwardOutputToForwardInput(const Node& bwd, const ObjectPtr& fwd) {
  std::vector<int> ret(bwd.num_outputs(), -1);
  if (fwd->is_variable()) return ret;
  if (bwd.num_outputs() == fwd->inputs.size()) {
    for (size_t i = 0; i < ret.size(); ++i) ret[i] = static_cast<int>(i);
    return ret;
  }
  static auto& fgradient = Op::GetAttr<FGradient>("FGradient");
  if (!fgradient.count(fwd->op())) return ret;
  std::vector<NodeEntry> dummy_ograds;
  for (uint32_t i = 0; i < fwd->num_outputs(); ++i) {
    ObjectPtr v = Node::Create();
    v->attrs.name = "ograd" + std::to_string(i);
    dummy_ograds.emplace_back(v, 0, 0);
  }
  std::vector<NodeEntry> igrads = fgradient[fwd->op()](fwd, dummy_ograds);
  for (size_t i = 0; i < igrads.size() && i < fwd->inputs.size(); ++i) {
    const NodeEntry& g = igrads[i];
    if (g.node && g.node->op() == bwd.op() && g.index < ret.size()) {
      ret[g.index] = static_cast<int>(i);
    }
  }
  return ret;
}

}  // namespace nnvm
