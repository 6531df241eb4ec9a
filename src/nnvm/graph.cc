/*!
 * \file graph.cc
 * \brief Graph, IndexedGraph and the iterative post-order DFS every pass walks with.
 */
#include <nnvm/graph.h>
#include <nnvm/op_attr_types.h>

#include <unordered_set>

namespace nnvm {

void DFSVisitNodes(const std::vector<NodeEntry>& heads,
                   const std::function<void(const ObjectPtr&)>& fvisit) {
  // Explicit stack of (node, next child index): deep chains must not overflow the C stack.
  std::vector<std::pair<const ObjectPtr*, uint32_t>> stack;
  std::unordered_set<const Node*> visited;
  for (const NodeEntry& head : heads) {
    if (!head.node || visited.count(head.node.get())) continue;
    visited.insert(head.node.get());
    stack.emplace_back(&head.node, 0);
    while (!stack.empty()) {
      auto& top = stack.back();
      const Node* n = top.first->get();
      const uint32_t num_children = n->inputs.size() + n->control_deps.size();
      if (top.second == num_children) {
        fvisit(*top.first);
        stack.pop_back();
        continue;
      }
      const uint32_t i = top.second++;
      const ObjectPtr* child =
          i < n->inputs.size() ? &n->inputs[i].node : &n->control_deps[i - n->inputs.size()];
      if (*child && !visited.count(child->get())) {
        visited.insert(child->get());
        stack.emplace_back(child, 0);
      }
    }
  }
}

const IndexedGraph& Graph::indexed_graph() const {
  if (!indexed_graph_) indexed_graph_ = std::make_shared<const IndexedGraph>(*this);
  return *indexed_graph_;
}

IndexedGraph::IndexedGraph(const Graph& g) {
  static auto& fmutate = Op::GetAttr<FMutateInputs>("FMutateInputs");
  entry_rptr_.push_back(0);
  DFSVisit(g.outputs, [&](const ObjectPtr& n) {
    const uint32_t nid = static_cast<uint32_t>(nodes_.size());
    node2index_[n.get()] = nid;
    if (n->is_variable()) input_nodes_.push_back(nid);
    Node inode;
    inode.source = n.get();
    inode.weak_ref = n;
    inode.inputs.reserve(n->inputs.size());
    for (const nnvm::NodeEntry& e : n->inputs) {
      inode.inputs.push_back(NodeEntry{node2index_.at(e.node.get()), e.index, e.version});
    }
    for (const ObjectPtr& dep : n->control_deps) {
      if (dep) inode.control_deps.push_back(node2index_.at(dep.get()));
    }
    if (!n->is_variable() && fmutate.count(n->op())) {
      for (uint32_t i : fmutate[n->op()](n->attrs)) {
        if (i < inode.inputs.size()) mutable_input_nodes_.insert(inode.inputs[i].node_id);
      }
    }
    nodes_.push_back(std::move(inode));
    entry_rptr_.push_back(entry_rptr_.back() + n->num_outputs());
  });
  for (const nnvm::NodeEntry& e : g.outputs) {
    outputs_.push_back(NodeEntry{node2index_.at(e.node.get()), e.index, e.version});
  }
}

}  // namespace nnvm
