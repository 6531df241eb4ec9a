/*!
 * \file nnvm/graph.h
 * \brief A computation graph (output entries + named attributes computed by passes) and its
 *        indexed form (nodes numbered in topological order, entries numbered per node output).
 *
 *   nnvm::Graph g;
 *   g.outputs = symbol.outputs;
 *   const nnvm::IndexedGraph& idx = g.indexed_graph();
 *   for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
 *     const auto& node = idx[nid];                      // inputs before the node
 *     uint32_t eid = idx.entry_id(nid, 0);              // id of its first output
 *   }
 *   g.attrs["shape"] = std::make_shared<dmlc::any>(mxnet::ShapeVector(idx.num_node_entries()));
 *   const auto& shapes = g.GetAttr<mxnet::ShapeVector>("shape");
 *
 * Node order is the post-order DFS of the outputs (inputs in order, then control
 * dependencies), as MXNet's: variables appear in list_arguments order.
 */
#ifndef NNVM_GRAPH_H_
#define NNVM_GRAPH_H_

#include <dmlc/any.h>
#include <dmlc/logging.h>
#include <nnvm/node.h>

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace nnvm {

class IndexedGraph;

/*! \brief Output entries plus attributes (shapes, dtypes, memory plan, ...) of a graph. */
class Graph {
 public:
  std::vector<NodeEntry> outputs;
  std::unordered_map<std::string, std::shared_ptr<any>> attrs;

  /*! \brief The attribute `key` as a T; throws if missing. */
  template <typename T>
  const T& GetAttr(const std::string& key) const {
    auto it = attrs.find(key);
    CHECK(it != attrs.end()) << "Graph attribute " << key << " is not set";
    return dmlc::get<T>(*it->second);
  }
  bool HasAttr(const std::string& key) const { return attrs.count(key) != 0; }
  /*! \brief Store value under `key`. */
  template <typename T>
  void SetAttr(const std::string& key, T value) {
    attrs[key] = std::make_shared<any>(std::move(value));
  }
  /*! \brief The indexed form (built on first use; do not change outputs afterwards). */
  const IndexedGraph& indexed_graph() const;

 private:
  mutable std::shared_ptr<const IndexedGraph> indexed_graph_;
};

/*! \brief Nodes numbered topologically; entries numbered node by node. */
class IndexedGraph {
 public:
  struct NodeEntry {
    uint32_t node_id;
    uint32_t index;
    uint32_t version;
  };
  struct Node {
    const nnvm::Node* source;
    std::vector<NodeEntry> inputs;
    std::vector<uint32_t> control_deps;
    std::weak_ptr<nnvm::Node> weak_ref;
  };

  explicit IndexedGraph(const Graph& g);

  size_t num_nodes() const { return nodes_.size(); }
  size_t num_node_entries() const { return entry_rptr_.back(); }
  uint32_t entry_id(uint32_t node_id, uint32_t index) const { return entry_rptr_[node_id] + index; }
  uint32_t entry_id(const NodeEntry& e) const { return entry_rptr_[e.node_id] + e.index; }
  uint32_t entry_id(const nnvm::NodeEntry& e) const {
    return entry_rptr_[node_id(e.node.get())] + e.index;
  }
  /*! \brief Id of a node of this graph (throws if absent). */
  uint32_t node_id(const nnvm::Node* node) const {
    auto it = node2index_.find(node);
    CHECK(it != node2index_.end()) << "node " << node->attrs.name << " is not in the graph";
    return it->second;
  }
  bool exist(const nnvm::Node* node) const { return node2index_.count(node) != 0; }
  const Node& operator[](uint32_t node_id) const { return nodes_[node_id]; }
  const Node& operator[](const nnvm::Node* node) const { return nodes_[node_id(node)]; }
  /*! \brief Ids of the variable nodes, in order. */
  const std::vector<uint32_t>& input_nodes() const { return input_nodes_; }
  /*! \brief Variable nodes some op writes (FMutateInputs: auxiliary states). */
  const std::unordered_set<uint32_t>& mutable_input_nodes() const { return mutable_input_nodes_; }
  const std::vector<NodeEntry>& outputs() const { return outputs_; }

 private:
  std::vector<Node> nodes_;
  std::vector<uint32_t> input_nodes_;
  std::unordered_set<uint32_t> mutable_input_nodes_;
  std::vector<NodeEntry> outputs_;
  std::unordered_map<const nnvm::Node*, uint32_t> node2index_;
  std::vector<uint32_t> entry_rptr_;
};

/*!
 * \brief Call fvisit(const ObjectPtr&) on every node reachable from heads, each once, in
 *        post-order DFS (inputs in order, then control dependencies). Iterative.
 */
void DFSVisitNodes(const std::vector<NodeEntry>& heads,
                   const std::function<void(const ObjectPtr&)>& fvisit);

template <typename FVisit>
inline void DFSVisit(const std::vector<NodeEntry>& heads, FVisit fvisit) {
  DFSVisitNodes(heads, std::function<void(const ObjectPtr&)>(fvisit));
}

}  // namespace nnvm

#endif  // NNVM_GRAPH_H_
