// Executor.reshape's planning; see reshape.h.
#include "reshape.h"

#include <nnvm/graph.h>
#include <nnvm/graph_passes.h>

#include <string>
#include <vector>

namespace mxnet {
namespace exec {

namespace {

/*! \brief `a` with shape `s`: itself, a view when it shrinks, or a new array when it grows. */
NDArray ReshapeArray(const NDArray& a, const TShape& s, const std::string& name,
                     const ReshapeSpec& spec) {
  if (a.is_none()) return a;
  if (!shape_is_known(s)) {
    if (spec.partial_shaping) return a;
    MX_THROW(dmlc::ValueError) << "reshape: cannot infer the new shape of " << name;
  }
  if (a.shape() == s) return a;
  // A sparse array cannot be viewed with another shape: a new (empty) one of the same type.
  if (a.is_sparse()) return NDArray(a.storage_type(), s, spec.ctx, a.dtype());
  if (s.Size() <= a.shape().Size()) return a.AsArray(s, a.dtype());
  if (!spec.allow_up_sizing) {
    MX_THROW(dmlc::ValueError) << "reshape: new shape of " << name << " " << s
                               << " is larger than the original " << a.shape()
                               << "; set allow_up_sizing=True to allow it";
  }
  return NDArray(s, spec.ctx, false, a.dtype());
}

}  // namespace

Executor* Reshape(Executor* old, const ReshapeSpec& spec) {
  const nnvm::Symbol& sym = old->symbol();
  const std::vector<std::string> arg_names = sym.ListInputNames(nnvm::Symbol::kReadOnlyArgs);
  const std::vector<std::string> aux_names = sym.ListInputNames(nnvm::Symbol::kAuxiliaryStates);
  // Shapes of arguments not given stay as they are unless inference says otherwise.
  nnvm::Graph g;
  g.outputs = sym.outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  ShapeVector shapes(idx.num_node_entries());
  std::vector<int> dtypes(idx.num_node_entries(), -1);
  const std::vector<nnvm::ObjectPtr> arg_nodes = sym.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  const std::vector<nnvm::ObjectPtr> aux_nodes = sym.ListInputs(nnvm::Symbol::kAuxiliaryStates);
  auto eid_of = [&](const nnvm::ObjectPtr& n) { return idx.entry_id(idx.node_id(n.get()), 0); };
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    auto it = spec.arg_shapes.find(arg_names[i]);
    shapes[eid_of(arg_nodes[i])] = it != spec.arg_shapes.end() ? it->second : TShape();
    dtypes[eid_of(arg_nodes[i])] = old->arg_arrays()[i].dtype();
  }
  for (size_t i = 0; i < aux_nodes.size(); ++i) {
    dtypes[eid_of(aux_nodes[i])] = old->aux_arrays()[i].dtype();
  }
  nnvm::pass::InferShape(idx, &shapes);
  nnvm::pass::InferType(idx, &dtypes);
  std::vector<NDArray> args, grads, aux;
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    const TShape& s = shapes[eid_of(arg_nodes[i])];
    const TShape& was = old->arg_arrays()[i].shape();
    if (!spec.partial_shaping && !spec.arg_shapes.count(arg_names[i]) && shape_is_known(s) &&
        s != was) {
      MX_THROW(dmlc::ValueError) << "reshape: the shape of " << arg_names[i] << " changes from "
                                 << was << " to " << s
                                 << "; set partial_shaping=True to allow it";
    }
    args.push_back(ReshapeArray(old->arg_arrays()[i], s, arg_names[i], spec));
    grads.push_back(ReshapeArray(old->grad_arrays()[i], s, "grad of " + arg_names[i], spec));
  }
  for (size_t i = 0; i < aux_nodes.size(); ++i) {
    aux.push_back(ReshapeArray(old->aux_arrays()[i], shapes[eid_of(aux_nodes[i])], aux_names[i],
                               spec));
  }
  return Executor::Bind(sym, spec.ctx, spec.group2ctx, args, grads, old->grad_reqs(), aux, old);
}

}  // namespace exec
}  // namespace mxnet
