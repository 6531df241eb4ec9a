/*!
 * \file nnvm/node.h
 * \brief Graph nodes: NodeAttrs (op, name, string attributes and their parsed form), Node
 *        (attrs + input entries + control dependencies) and NodeEntry (one output of a node).
 *
 *   nnvm::ObjectPtr n = nnvm::Node::Create();
 *   n->attrs.op = nnvm::Op::Get("quadratic");
 *   n->attrs.name = "quad0";
 *   n->attrs.dict = {{"a", "1"}};
 *   n->attrs.op->attr_parser(&n->attrs);          // fills n->attrs.parsed
 *   n->inputs.emplace_back(data_node, 0, 0);       // NodeEntry{node, output index, version}
 *   const QuadraticParam& p = nnvm::get<QuadraticParam>(n->attrs.parsed);
 *
 * A variable (graph input) is a node with op == nullptr. The symbol/graph machinery that builds
 * and walks nodes lives in src/nnvm.
 */
#ifndef NNVM_NODE_H_
#define NNVM_NODE_H_

#include <dmlc/any.h>
#include <nnvm/op.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nnvm {

using dmlc::any;
using dmlc::get;

class Node;
class Symbol;

/*! \brief Shared pointer to a node. */
using ObjectPtr = std::shared_ptr<Node>;
/*! \brief Older name of ObjectPtr. */
using NodePtr = ObjectPtr;

/*! \brief One output of a node. */
struct NodeEntry {
  NodeEntry(ObjectPtr node, uint32_t index, uint32_t version)
      : node(std::move(node)), index(index), version(version) {}
  explicit NodeEntry(ObjectPtr node) : node(std::move(node)), index(0), version(0) {}
  NodeEntry() : node(), index(0), version(0) {}
  /*! \brief The source node. */
  ObjectPtr node;
  /*! \brief Which output of the node. */
  uint32_t index;
  /*! \brief Version of a variable (bumped by each mutation); 0 for op outputs. */
  uint32_t version;
};

/*! \brief Hash of a NodeEntry by (node, index, version). */
struct NodeEntryHash {
  size_t operator()(const NodeEntry& e) const {
    return std::hash<Node*>()(e.node.get()) ^ (std::hash<size_t>()(e.index) << 1 >> 1) ^
           (std::hash<size_t>()(e.version) << 1);
  }
};
/*! \brief Equality of NodeEntries by (node, index, version). */
struct NodeEntryEqual {
  bool operator()(const NodeEntry& a, const NodeEntry& b) const {
    return a.node == b.node && a.index == b.index && a.version == b.version;
  }
};
template <typename ValueType>
using NodeEntryMap = std::unordered_map<NodeEntry, ValueType, NodeEntryHash, NodeEntryEqual>;

/*! \brief The attributes of a node. */
struct NodeAttrs {
  /*! \brief The operator; nullptr for a variable. */
  const Op* op{nullptr};
  /*! \brief Node name. */
  std::string name;
  /*! \brief Attributes as given (strings). */
  std::unordered_map<std::string, std::string> dict;
  /*! \brief What op->attr_parser made of dict (usually the op's parameter struct). */
  any parsed;
  /*! \brief Subgraphs of control-flow/subgraph ops. */
  std::vector<std::shared_ptr<Symbol>> subgraphs;
};

/*! \brief A node of a computation graph. */
class Node {
 public:
  Node() = default;
  Node(const Op* op, const std::string& name) {
    this->attrs.op = op;
    this->attrs.name = name;
  }
  /*! \brief Releases long input chains iteratively (no deep recursion). */
  ~Node();

  NodeAttrs attrs;
  /*! \brief Inputs: outputs of other nodes. */
  std::vector<NodeEntry> inputs;
  /*! \brief Nodes that must run before this one (for a backward op: the forward node first). */
  std::vector<ObjectPtr> control_deps;
  /*! \brief Scratch space for passes. */
  any info;

  const Op* op() const { return this->attrs.op; }
  /*! \brief True for a variable (no op). */
  bool is_variable() const { return this->op() == nullptr; }
  /*! \brief Number of outputs (1 for a variable). */
  uint32_t num_outputs() const {
    if (is_variable()) return 1;
    if (this->op()->get_num_outputs == nullptr) return this->op()->num_outputs;
    return this->op()->get_num_outputs(this->attrs);
  }
  /*! \brief Number of inputs (0 for a variable). */
  uint32_t num_inputs() const {
    if (is_variable()) return 0;
    if (this->op()->get_num_inputs == nullptr) return this->op()->num_inputs;
    return this->op()->get_num_inputs(this->attrs);
  }
  /*! \brief A new node; arguments are forwarded to a constructor. */
  template <class... Args>
  static ObjectPtr Create(Args&&... args) {
    return std::make_shared<Node>(std::forward<Args>(args)...);
  }
};

/*!
 * \brief Output 0 of a new node of op `op_name` named `node_name` with the given inputs and
 *        attributes; runs the op's attribute parser (which may throw).
 */
inline NodeEntry MakeNode(const char* op_name, std::string node_name,
                          std::vector<NodeEntry> inputs,
                          std::unordered_map<std::string, std::string> attrs =
                              std::unordered_map<std::string, std::string>()) {
  ObjectPtr p = Node::Create();
  p->attrs.op = Op::Get(op_name);
  p->attrs.name = std::move(node_name);
  p->attrs.dict = std::move(attrs);
  if (p->attrs.op->attr_parser) p->attrs.op->attr_parser(&(p->attrs));
  p->inputs = std::move(inputs);
  return NodeEntry(p, 0, 0);
}

}  // namespace nnvm

#endif  // NNVM_NODE_H_
