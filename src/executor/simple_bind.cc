/*!
 * \file simple_bind.cc
 * \brief simple_bind's planning (simple_bind.h): inference of what the caller did not give,
 *        allocation with reuse of shared arrays, then Executor::Bind.
 */
#include "./simple_bind.h"

#include <nnvm/graph_passes.h>

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace mxnet {
namespace exec {

TShape LegacyToShape(const TShape& s) {
  if (s.ndim() == 0) return TShape();  // legacy: ndim 0 = unknown
  TShape ret = s;
  for (int i = 0; i < ret.ndim(); ++i) {
    if (ret[i] == 0) ret[i] = -1;
  }
  return ret;
}

void ApplyVariableAttrs(const nnvm::IndexedGraph& idx, ShapeVector* shapes, std::vector<int>* dtypes) {
  for (uint32_t nid : idx.input_nodes()) {
    const nnvm::Node* n = idx[nid].source;
    const uint32_t eid = idx.entry_id(nid, 0);
    if (shapes != nullptr) {
      auto it = n->attrs.dict.find("__shape__");
      if (it != n->attrs.dict.end() && !mxnet::ndim_is_known((*shapes)[eid])) {
        TShape s;
        std::istringstream is(it->second);
        is >> s;
        if (is.fail()) {
          MX_THROW(ValueError) << "variable " << n->attrs.name << ": bad __shape__ " << it->second;
        }
        (*shapes)[eid] = LegacyToShape(s);
      }
    }
    if (dtypes != nullptr) {
      auto it = n->attrs.dict.find("__dtype__");
      if (it != n->attrs.dict.end() && (*dtypes)[eid] < 0) (*dtypes)[eid] = std::stoi(it->second);
    }
  }
}

namespace {

NDArray Zeros(const TShape& shape, const Context& ctx, int dtype) {
  NDArray a(shape, ctx, false, dtype);
  if (shape.Size() > 0) {
    TBlob b = a.data();
    std::memset(b.dptr_, 0, shape.Size() * mshadow::mshadow_sizeof(dtype));
  }
  return a;
}

/*! \brief Array of `shape` from the shared pool entry `name` when it is large enough. */
NDArray ReshapeOrCreate(const std::string& name, const TShape& shape, int dtype,
                        const Context& ctx,
                        std::unordered_map<std::string, NDArray>* shared_buffer) {
  if (shared_buffer != nullptr) {
    auto it = shared_buffer->find(name);
    if (it != shared_buffer->end() && it->second.dtype() == dtype &&
        it->second.shape().Size() >= shape.Size()) {
      if (it->second.shape() == shape) return it->second;
      return it->second.AsArray(shape, dtype);
    }
  }
  NDArray a = Zeros(shape, ctx, dtype);
  if (shared_buffer != nullptr) (*shared_buffer)[name] = a;
  return a;
}

/*!
 * \brief Infer shapes/dtypes from named shapes/dtypes; allocate arguments, gradients and aux
 *        states (reusing shared_exec's arrays for shared_arg_names and the shared buffer).
 */
void AllocateForBind(const nnvm::Symbol& sym, const Context& ctx, const SimpleBindSpec& spec,
                     std::vector<NDArray>* in_args, std::vector<NDArray>* arg_grads,
                     std::vector<NDArray>* aux_states) {
  const auto& arg_shapes = spec.arg_shapes;
  const auto& arg_dtypes = spec.arg_dtypes;
  const auto& given_stypes = spec.arg_stypes;
  const auto& reqs = spec.grad_reqs;
  const auto& shared_arg_names = spec.shared_arg_names;
  Executor* shared_exec = spec.shared_exec;
  auto* shared_buffer = spec.shared_buffer;
  nnvm::Graph g;
  g.outputs = sym.outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<nnvm::ObjectPtr> args = sym.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux = sym.ListInputs(nnvm::Symbol::kAuxiliaryStates);
  ShapeVector shapes(idx.num_node_entries());
  std::vector<int> dtypes(idx.num_node_entries(), -1);
  auto eid_of = [&](const nnvm::ObjectPtr& n) { return idx.entry_id(idx.node_id(n.get()), 0); };
  for (const auto* list : {&args, &aux}) {
    for (const nnvm::ObjectPtr& n : *list) {
      auto it = arg_shapes.find(n->attrs.name);
      if (it != arg_shapes.end()) shapes[eid_of(n)] = it->second;
      auto jt = arg_dtypes.find(n->attrs.name);
      if (jt != arg_dtypes.end()) dtypes[eid_of(n)] = jt->second;
    }
  }
  ApplyVariableAttrs(idx, &shapes, &dtypes);
  nnvm::pass::InferShape(idx, &shapes);
  nnvm::pass::InferType(idx, &dtypes);
  // Unknown dtypes default to float32 (MXNet's simple_bind passes float32 for every argument).
  for (const auto* list : {&args, &aux}) {
    for (const nnvm::ObjectPtr& n : *list) {
      if (dtypes[eid_of(n)] < 0) dtypes[eid_of(n)] = mshadow::kFloat32;
    }
  }
  nnvm::pass::InferType(idx, &dtypes);
  for (const auto* list : {&args, &aux}) {
    for (const nnvm::ObjectPtr& n : *list) {
      if (!shape_is_known(shapes[eid_of(n)])) {
        MX_THROW(dmlc::ValueError) << "simple_bind: cannot infer the shape of " << n->attrs.name
                                   << " (got " << shapes[eid_of(n)]
                                   << "); provide more input shapes";
      }
    }
  }
  // Storage types: stype_dict, else the variable's stype attribute, else dense; gradients
  // get the types the storage inference of the gradient graph gives them (MXNet 1.x).
  auto stype_of = [&](const nnvm::ObjectPtr& n) {
    auto it = given_stypes.find(n->attrs.name);
    if (it != given_stypes.end()) return it->second;
    auto jt = n->attrs.dict.find("__storage_type__");
    if (jt != n->attrs.dict.end()) {
      const int s = std::atoi(jt->second.c_str());
      if (s == kRowSparseStorage || s == kCSRStorage) return s;
    }
    return static_cast<int>(kDefaultStorage);
  };
  std::vector<int> arg_stypes;
  bool any_sparse = false;
  for (const nnvm::ObjectPtr& n : args) {
    arg_stypes.push_back(stype_of(n));
    any_sparse |= arg_stypes.back() != kDefaultStorage;
  }
  std::vector<int> grad_stypes(args.size(), kDefaultStorage);
  {
    // Only graphs with a sparse argument or an op that makes sparse values from dense
    // inputs (cast_storage, Embedding's sparse_grad) need the inference.
    bool sparse_grad_op = false;
    nnvm::DFSVisit(sym.outputs, [&](const nnvm::ObjectPtr& n) {
      if (n->is_variable()) return;
      if (n->op()->name == "cast_storage") sparse_grad_op = true;
      auto it = n->attrs.dict.find("sparse_grad");
      if (it != n->attrs.dict.end() && (it->second == "True" || it->second == "1" ||
                                        it->second == "true")) {
        sparse_grad_op = true;
      }
    });
    if (any_sparse || sparse_grad_op) {
      grad_stypes = Executor::InferGradStorageTypes(sym, arg_stypes, reqs);
    }
  }
  std::unordered_map<std::string, size_t> shared_index;
  if (shared_exec != nullptr) {
    std::vector<std::string> names =
        shared_exec->symbol().ListInputNames(nnvm::Symbol::kReadOnlyArgs);
    for (size_t i = 0; i < names.size(); ++i) shared_index[names[i]] = i;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i]->attrs.name;
    const TShape& shape = shapes[eid_of(args[i])];
    const int dtype = dtypes[eid_of(args[i])];
    NDArray arr, grad;
    const int stype = arg_stypes[i];
    const int gstype = grad_stypes[i] == kUndefinedStorage ? kDefaultStorage
                                                                  : grad_stypes[i];
    auto it = shared_index.find(name);
    if (stype != kDefaultStorage || gstype != kDefaultStorage) {
      // Sparse arrays are never taken from the shared buffer (their parts change size).
      if (shared_arg_names.count(name) && it != shared_index.end() &&
          shared_exec->arg_arrays()[it->second].storage_type() == stype &&
          shared_exec->arg_arrays()[it->second].shape() == shape) {
        arr = shared_exec->arg_arrays()[it->second];
        grad = shared_exec->grad_arrays()[it->second];
      }
      if (arr.is_none()) {
        arr = stype == kDefaultStorage ? ReshapeOrCreate(name, shape, dtype, ctx, shared_buffer)
                                             : NDArray(stype, shape, ctx, dtype);
      }
      if (reqs[i] != kNullOp && grad.is_none()) {
        grad = gstype == kDefaultStorage ? Zeros(shape, ctx, dtype)
                                                : NDArray(gstype, shape, ctx, dtype);
      }
      if (reqs[i] == kNullOp) grad = NDArray();
      in_args->push_back(arr);
      arg_grads->push_back(grad);
      continue;
    }
    if (shared_arg_names.count(name) && it != shared_index.end()) {
      const NDArray& sa = shared_exec->arg_arrays()[it->second];
      if (sa.shape() == shape && sa.dtype() == dtype) {
        arr = sa;
        grad = shared_exec->grad_arrays()[it->second];
      } else if (sa.dtype() == dtype && sa.shape().Size() >= shape.Size()) {
        arr = sa.AsArray(shape, dtype);
        const NDArray& sg = shared_exec->grad_arrays()[it->second];
        if (!sg.is_none()) grad = sg.AsArray(shape, dtype);
      }
    }
    if (arr.is_none()) arr = ReshapeOrCreate(name, shape, dtype, ctx, shared_buffer);
    if (reqs[i] != kNullOp && grad.is_none()) {
      grad = ReshapeOrCreate("grad of " + name, shape, dtype, ctx, nullptr);
    }
    if (reqs[i] == kNullOp) grad = NDArray();
    in_args->push_back(arr);
    arg_grads->push_back(grad);
  }
  for (const nnvm::ObjectPtr& n : aux) {
    aux_states->push_back(Zeros(shapes[eid_of(n)], ctx, dtypes[eid_of(n)]));
  }
}

}  // namespace

Executor* SimpleBind(const nnvm::Symbol& symbol, const Context& ctx, const SimpleBindSpec& spec) {
  std::vector<NDArray> args, grads, aux;
  AllocateForBind(symbol, ctx, spec, &args, &grads, &aux);
  return Executor::Bind(symbol, ctx, spec.group2ctx, args, grads, spec.grad_reqs, aux,
                        spec.shared_exec);
}

}  // namespace exec
}  // namespace mxnet
