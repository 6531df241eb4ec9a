/*!
 * \file node.cc
 * \brief Node destruction without recursion: a long chain of nodes owned only through their
 *        inputs would otherwise overflow the stack when its head is released.
 */
#include <nnvm/node.h>

namespace nnvm {

Node::~Node() {
  if (inputs.empty() && control_deps.empty()) return;
  std::vector<Node*> stack{this};
  std::vector<ObjectPtr> to_delete;  // released (recursion-free) when this function returns
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (NodeEntry& e : n->inputs) {
      if (e.node && e.node.use_count() == 1) {
        stack.push_back(e.node.get());
        to_delete.emplace_back(std::move(e.node));
      } else {
        e.node.reset();
      }
    }
    for (ObjectPtr& dep : n->control_deps) {
      if (dep && dep.use_count() == 1) {
        stack.push_back(dep.get());
        to_delete.emplace_back(std::move(dep));
      } else {
        dep.reset();
      }
    }
    n->inputs.clear();
    n->control_deps.clear();
  }
}

}  // namespace nnvm
