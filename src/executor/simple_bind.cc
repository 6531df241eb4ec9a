/*!
 * \file simple_bind.cc
 * \brief simple_bind's planning (simple_bind.h): one inference of what the caller did not
 *        give (GraphExecutor::Plan), allocation with reuse of shared arrays, then
 *        GraphExecutor::Finish.
 */
#include "./simple_bind.h"

#include "./graph_executor.h"

#include <nnvm/graph_passes.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <utility>

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

/*! \brief The named shapes/dtypes and the variables' __shape__/__dtype__ on the graph. */
void SeedNamedAttrs(const SimpleBindSpec& spec, const std::vector<nnvm::ObjectPtr>& vars,
                    const nnvm::IndexedGraph& idx, ShapeVector* shapes,
                    std::vector<int>* dtypes) {
  for (const nnvm::ObjectPtr& n : vars) {
    const uint32_t eid = idx.entry_id(idx.node_id(n.get()), 0);
    auto it = spec.arg_shapes.find(n->attrs.name);
    if (it != spec.arg_shapes.end()) (*shapes)[eid] = it->second;
    auto jt = spec.arg_dtypes.find(n->attrs.name);
    if (jt != spec.arg_dtypes.end()) (*dtypes)[eid] = jt->second;
  }
  ApplyVariableAttrs(idx, shapes, dtypes);
}

/*!
 * \brief Allocate arguments, gradients and aux states of the shapes/dtypes `ex` planned
 *        (reusing shared_exec's arrays for shared_arg_names and the shared buffer).
 */
void AllocateForBind(const nnvm::Symbol& sym, const Context& ctx, const SimpleBindSpec& spec,
                     const GraphExecutor& ex, std::vector<NDArray>* in_args,
                     std::vector<NDArray>* arg_grads, std::vector<NDArray>* aux_states) {
  const auto& given_stypes = spec.arg_stypes;
  const auto& reqs = spec.grad_reqs;
  const auto& shared_arg_names = spec.shared_arg_names;
  Executor* shared_exec = spec.shared_exec;
  auto* shared_buffer = spec.shared_buffer;
  std::vector<nnvm::ObjectPtr> args = sym.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux = sym.ListInputs(nnvm::Symbol::kAuxiliaryStates);
  std::vector<std::pair<TShape, int>> arg_attrs, aux_attrs;
  for (size_t i = 0; i < args.size(); ++i) arg_attrs.push_back(ex.arg_attrs(i));
  for (size_t i = 0; i < aux.size(); ++i) aux_attrs.push_back(ex.aux_attrs(i));
  for (const auto& [list, attrs] : {std::make_pair(&args, &arg_attrs),
                                    std::make_pair(&aux, &aux_attrs)}) {
    for (size_t i = 0; i < list->size(); ++i) {
      if (!shape_is_known((*attrs)[i].first)) {
        MX_THROW(dmlc::ValueError) << "simple_bind: cannot infer the shape of "
                                   << (*list)[i]->attrs.name << " (got " << (*attrs)[i].first
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
    const TShape& shape = arg_attrs[i].first;
    const int dtype = arg_attrs[i].second;
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
  for (const auto& [shape, dtype] : aux_attrs) aux_states->push_back(Zeros(shape, ctx, dtype));
}

}  // namespace

Executor* SimpleBind(const nnvm::Symbol& symbol, const Context& ctx, const SimpleBindSpec& spec) {
  // Shapes and dtypes are inferred once, on the graph the executor runs (with its gradient
  // nodes); the arrays are allocated from that and bound without inferring again.
  auto ex = std::make_unique<GraphExecutor>();
  std::vector<nnvm::ObjectPtr> vars = symbol.ListInputs(nnvm::Symbol::kAll);
  ex->Plan(symbol, ctx, spec.grad_reqs,
           [&](const nnvm::IndexedGraph& idx, ShapeVector* shapes, std::vector<int>* dtypes) {
             SeedNamedAttrs(spec, vars, idx, shapes, dtypes);
           });
  std::vector<NDArray> args, grads, aux;
  AllocateForBind(symbol, ctx, spec, *ex, &args, &grads, &aux);
  CheckBindDevice(ctx, spec.group2ctx);
  ex->Finish(args, grads, aux, dynamic_cast<GraphExecutor*>(spec.shared_exec));
  return ex.release();
}

}  // namespace exec
}  // namespace mxnet
