// C API: executors (bind, simple_bind, forward, backward, outputs, reshape).
#include <mxnet/c_api.h>
#include <mxnet/executor.h>
#include <nnvm/graph_passes.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <unordered_set>
#include <unordered_map>

#include "c_api_common.h"
#include "c_api_symbolic_util.h"

using mxnet::Executor;
using mxnet::NDArray;
using mxnet::OpReqType;
using mxnet::c_api::GetThreadLocalReturn;
using mxnet::c_api::SymbolFromHandle;

namespace {

Executor* ExecFromHandle(ExecutorHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("executor handle");
  return static_cast<Executor*>(h);
}

mxnet::Context MakeContext(int dev_type, int dev_id) {
  return mxnet::Context::Create(static_cast<mxnet::Context::DeviceType>(dev_type), dev_id);
}

std::map<std::string, mxnet::Context> Group2Ctx(uint32_t n, const char** keys, const int* types,
                                                const int* ids) {
  std::map<std::string, mxnet::Context> ret;
  for (uint32_t i = 0; i < n; ++i) ret[keys[i]] = MakeContext(types[i], ids[i]);
  return ret;
}

OpReqType ReqFromCode(uint32_t code) {
  switch (code) {
    case 0: return mxnet::kNullOp;
    case 1: return mxnet::kWriteTo;
    case 2: return mxnet::kWriteInplace;
    case 3: return mxnet::kAddTo;
  }
  MX_THROW(dmlc::ValueError) << "bind: unknown grad_req code " << code;
  return mxnet::kNullOp;
}

OpReqType ReqFromString(const std::string& s) {
  if (s == "null") return mxnet::kNullOp;
  if (s == "write") return mxnet::kWriteTo;
  if (s == "add") return mxnet::kAddTo;
  if (s == "inplace") return mxnet::kWriteInplace;
  MX_THROW(dmlc::ValueError) << "grad_req must be 'null', 'write' or 'add', got '" << s << "'";
  return mxnet::kNullOp;
}

void* NewHandle(const NDArray& a) { return a.is_none() ? nullptr : new NDArray(a); }

/*! \brief Per-thread result lists of SimpleBind/Reshape. */
struct BindReturn {
  std::vector<void*> args, grads, aux, shared_handles;
  std::vector<std::string> shared_names;
  std::vector<const char*> shared_names_c;
};

BindReturn* GetBindReturn() {
  static thread_local BindReturn r;
  return &r;
}

NDArray Zeros(const mxnet::TShape& shape, const mxnet::Context& ctx, int dtype) {
  NDArray a(shape, ctx, false, dtype);
  if (shape.Size() > 0) {
    mxnet::TBlob b = a.data();
    std::memset(b.dptr_, 0, shape.Size() * mshadow::mshadow_sizeof(dtype));
  }
  return a;
}

/*! \brief Array of `shape` from the shared pool entry `name` when it is large enough. */
NDArray ReshapeOrCreate(const std::string& name, const mxnet::TShape& shape, int dtype,
                        const mxnet::Context& ctx,
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
void AllocateForBind(const nnvm::Symbol& sym, const mxnet::Context& ctx,
                     const std::unordered_map<std::string, mxnet::TShape>& arg_shapes,
                     const std::unordered_map<std::string, int>& arg_dtypes,
                     const std::unordered_map<std::string, int>& given_stypes,
                     const std::vector<OpReqType>& reqs,
                     const std::unordered_set<std::string>& shared_arg_names,
                     Executor* shared_exec,
                     std::unordered_map<std::string, NDArray>* shared_buffer,
                     std::vector<NDArray>* in_args, std::vector<NDArray>* arg_grads,
                     std::vector<NDArray>* aux_states, bool partial_shaping = true) {
  nnvm::Graph g;
  g.outputs = sym.outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<nnvm::ObjectPtr> args = sym.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux = sym.ListInputs(nnvm::Symbol::kAuxiliaryStates);
  mxnet::ShapeVector shapes(idx.num_node_entries());
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
  mxnet::c_api::ApplyVariableAttrs(idx, &shapes, &dtypes);
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
      if (!mxnet::shape_is_known(shapes[eid_of(n)])) {
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
      if (s == mxnet::kRowSparseStorage || s == mxnet::kCSRStorage) return s;
    }
    return static_cast<int>(mxnet::kDefaultStorage);
  };
  std::vector<int> arg_stypes;
  bool any_sparse = false;
  for (const nnvm::ObjectPtr& n : args) {
    arg_stypes.push_back(stype_of(n));
    any_sparse |= arg_stypes.back() != mxnet::kDefaultStorage;
  }
  std::vector<int> grad_stypes(args.size(), mxnet::kDefaultStorage);
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
    const mxnet::TShape& shape = shapes[eid_of(args[i])];
    const int dtype = dtypes[eid_of(args[i])];
    NDArray arr, grad;
    const int stype = arg_stypes[i];
    const int gstype = grad_stypes[i] == mxnet::kUndefinedStorage ? mxnet::kDefaultStorage
                                                                  : grad_stypes[i];
    auto it = shared_index.find(name);
    if (stype != mxnet::kDefaultStorage || gstype != mxnet::kDefaultStorage) {
      // Sparse arrays are never taken from the shared buffer (their parts change size).
      if (shared_arg_names.count(name) && it != shared_index.end() &&
          shared_exec->arg_arrays()[it->second].storage_type() == stype &&
          shared_exec->arg_arrays()[it->second].shape() == shape) {
        arr = shared_exec->arg_arrays()[it->second];
        grad = shared_exec->grad_arrays()[it->second];
      }
      if (arr.is_none()) {
        arr = stype == mxnet::kDefaultStorage ? ReshapeOrCreate(name, shape, dtype, ctx, shared_buffer)
                                             : NDArray(stype, shape, ctx, dtype);
      }
      if (reqs[i] != mxnet::kNullOp && grad.is_none()) {
        grad = gstype == mxnet::kDefaultStorage ? Zeros(shape, ctx, dtype)
                                                : NDArray(gstype, shape, ctx, dtype);
      }
      if (reqs[i] == mxnet::kNullOp) grad = NDArray();
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
    if (reqs[i] != mxnet::kNullOp && grad.is_none()) {
      grad = ReshapeOrCreate("grad of " + name, shape, dtype, ctx, nullptr);
    }
    if (reqs[i] == mxnet::kNullOp) grad = NDArray();
    in_args->push_back(arr);
    arg_grads->push_back(grad);
  }
  for (const nnvm::ObjectPtr& n : aux) {
    aux_states->push_back(Zeros(shapes[eid_of(n)], ctx, dtypes[eid_of(n)]));
  }
  (void)partial_shaping;
}

void ReturnBind(const Executor* ex, uint32_t* num_in_args, NDArrayHandle** in_args,
                NDArrayHandle** arg_grads, uint32_t* num_aux_states, NDArrayHandle** aux_states) {
  BindReturn* r = GetBindReturn();
  r->args.clear();
  r->grads.clear();
  r->aux.clear();
  for (const NDArray& a : ex->arg_arrays()) r->args.push_back(NewHandle(a));
  for (const NDArray& a : ex->grad_arrays()) r->grads.push_back(NewHandle(a));
  for (const NDArray& a : ex->aux_arrays()) r->aux.push_back(NewHandle(a));
  *num_in_args = static_cast<uint32_t>(r->args.size());
  *in_args = r->args.data();
  *arg_grads = r->grads.data();
  *num_aux_states = static_cast<uint32_t>(r->aux.size());
  *aux_states = r->aux.data();
}

template <typename DimT, typename IdxT>
int SimpleBindImpl(SymbolHandle symbol_handle, int dev_type, int dev_id, const uint32_t num_g2c_keys,
                   const char** g2c_keys, const int* g2c_dev_types, const int* g2c_dev_ids,
                   const uint32_t provided_grad_req_list_len, const char** provided_grad_req_names,
                   const char** provided_grad_req_types, const uint32_t num_provided_arg_shapes,
                   const char** provided_arg_shape_names, const DimT* provided_arg_shape_data,
                   const IdxT* provided_arg_shape_idx, const uint32_t num_provided_arg_dtypes,
                   const char** provided_arg_dtype_names, const int* provided_arg_dtypes,
                   const uint32_t num_provided_arg_stypes, const char** provided_arg_stype_names,
                   const int* provided_arg_stypes, const uint32_t num_shared_arg_names,
                   const char** shared_arg_name_list, int* shared_buffer_len,
                   const char** shared_buffer_name_list,
                   NDArrayHandle* shared_buffer_handle_list,
                   const char*** updated_shared_buffer_name_list,
                   NDArrayHandle** updated_shared_buffer_handle_list, uint32_t* num_in_args,
                   NDArrayHandle** in_args, NDArrayHandle** arg_grads, uint32_t* num_aux_states,
                   NDArrayHandle** aux_states, ExecutorHandle shared_exec_handle,
                   ExecutorHandle* out) {
  API_BEGIN_HELPER();
  nnvm::Symbol* sym = SymbolFromHandle(symbol_handle);
  const mxnet::Context ctx = MakeContext(dev_type, dev_id);
  auto group2ctx = Group2Ctx(num_g2c_keys, g2c_keys, g2c_dev_types, g2c_dev_ids);
  std::vector<std::string> arg_names = sym->ListInputNames(nnvm::Symbol::kReadOnlyArgs);
  std::vector<OpReqType> reqs(arg_names.size(), mxnet::kWriteTo);
  if (provided_grad_req_list_len == 0 && provided_grad_req_types != nullptr &&
      provided_grad_req_types[0] != nullptr) {
    reqs.assign(arg_names.size(), ReqFromString(provided_grad_req_types[0]));
  } else if (provided_grad_req_names == nullptr) {
    if (provided_grad_req_list_len != arg_names.size()) {
      MX_THROW(dmlc::ValueError) << "simple_bind: grad_req list has " << provided_grad_req_list_len
                                 << " entries for " << arg_names.size() << " arguments";
    }
    for (uint32_t i = 0; i < provided_grad_req_list_len; ++i) {
      reqs[i] = ReqFromString(provided_grad_req_types[i]);
    }
  } else {
    reqs.assign(arg_names.size(), mxnet::kNullOp);
    for (uint32_t i = 0; i < provided_grad_req_list_len; ++i) {
      auto it = std::find(arg_names.begin(), arg_names.end(), provided_grad_req_names[i]);
      if (it == arg_names.end()) {
        MX_THROW(dmlc::ValueError) << "simple_bind: grad_req given for "
                                   << provided_grad_req_names[i] << ", which is not an argument";
      }
      reqs[it - arg_names.begin()] = ReqFromString(provided_grad_req_types[i]);
    }
  }
  std::unordered_map<std::string, mxnet::TShape> arg_shapes;
  for (uint32_t i = 0; i < num_provided_arg_shapes; ++i) {
    mxnet::TShape s(provided_arg_shape_data + provided_arg_shape_idx[i],
                    provided_arg_shape_data + provided_arg_shape_idx[i + 1]);
    arg_shapes[provided_arg_shape_names[i]] = mxnet::c_api::LegacyToShape(s);
  }
  std::unordered_map<std::string, int> arg_dtypes;
  for (uint32_t i = 0; i < num_provided_arg_dtypes; ++i) {
    arg_dtypes[provided_arg_dtype_names[i]] = provided_arg_dtypes[i];
  }
  std::unordered_map<std::string, int> arg_stypes;
  for (uint32_t i = 0; i < num_provided_arg_stypes; ++i) {
    const int st = provided_arg_stypes[i];
    if (st != mxnet::kDefaultStorage && st != mxnet::kRowSparseStorage &&
        st != mxnet::kCSRStorage) {
      MX_THROW(dmlc::ValueError) << "simple_bind: unknown storage type code " << st << " for "
                                 << provided_arg_stype_names[i];
    }
    arg_stypes[provided_arg_stype_names[i]] = st;
  }
  std::unordered_set<std::string> shared_arg_names;
  for (uint32_t i = 0; i < num_shared_arg_names; ++i) shared_arg_names.insert(shared_arg_name_list[i]);
  std::unordered_map<std::string, NDArray> shared_buffer;
  const bool use_shared_buffer = shared_buffer_len != nullptr && *shared_buffer_len >= 0;
  if (use_shared_buffer) {
    for (int i = 0; i < *shared_buffer_len; ++i) {
      shared_buffer[shared_buffer_name_list[i]] =
          *static_cast<NDArray*>(shared_buffer_handle_list[i]);
    }
  }
  Executor* shared_exec = static_cast<Executor*>(shared_exec_handle);
  std::vector<NDArray> args, grads, aux;
  AllocateForBind(*sym, ctx, arg_shapes, arg_dtypes, arg_stypes, reqs, shared_arg_names, shared_exec,
                  use_shared_buffer ? &shared_buffer : nullptr, &args, &grads, &aux);
  Executor* ex = Executor::Bind(*sym, ctx, group2ctx, args, grads, reqs, aux, shared_exec);
  ReturnBind(ex, num_in_args, in_args, arg_grads, num_aux_states, aux_states);
  BindReturn* r = GetBindReturn();
  r->shared_names.clear();
  r->shared_names_c.clear();
  r->shared_handles.clear();
  if (use_shared_buffer) {
    for (auto& kv : shared_buffer) {
      r->shared_names.push_back(kv.first);
      r->shared_handles.push_back(new NDArray(kv.second));
    }
    for (const std::string& s : r->shared_names) r->shared_names_c.push_back(s.c_str());
    *shared_buffer_len = static_cast<int>(r->shared_names.size());
    *updated_shared_buffer_name_list = r->shared_names_c.data();
    *updated_shared_buffer_handle_list = r->shared_handles.data();
  }
  *out = ex;
  API_END();
}

}  // namespace

int MXExecutorBindEX(SymbolHandle symbol_handle, int dev_type, int dev_id, uint32_t num_map_keys,
                     const char** map_keys, const int* map_dev_types, const int* map_dev_ids,
                     uint32_t len, NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                     uint32_t* grad_req_type, uint32_t aux_states_len, NDArrayHandle* aux_states,
                     ExecutorHandle shared_exec, ExecutorHandle* out) {
  API_BEGIN();
  nnvm::Symbol* sym = SymbolFromHandle(symbol_handle);
  std::vector<NDArray> args, grads, aux;
  std::vector<OpReqType> reqs;
  for (uint32_t i = 0; i < len; ++i) {
    if (in_args[i] == nullptr) {
      MX_THROW(dmlc::ValueError) << "bind: argument " << i << " has a NULL array";
    }
    args.push_back(*static_cast<NDArray*>(in_args[i]));
    NDArray* g = arg_grad_store == nullptr ? nullptr : static_cast<NDArray*>(arg_grad_store[i]);
    grads.push_back(g == nullptr ? NDArray() : *g);
    OpReqType req = grad_req_type == nullptr ? mxnet::kNullOp : ReqFromCode(grad_req_type[i]);
    reqs.push_back(g == nullptr ? mxnet::kNullOp : req);
  }
  for (uint32_t i = 0; i < aux_states_len; ++i) {
    if (aux_states[i] == nullptr) {
      MX_THROW(dmlc::ValueError) << "bind: auxiliary state " << i << " has a NULL array";
    }
    aux.push_back(*static_cast<NDArray*>(aux_states[i]));
  }
  *out = Executor::Bind(*sym, MakeContext(dev_type, dev_id),
                        Group2Ctx(num_map_keys, map_keys, map_dev_types, map_dev_ids), args, grads,
                        reqs, aux, static_cast<Executor*>(shared_exec));
  API_END();
}

int MXExecutorBindX(SymbolHandle symbol_handle, int dev_type, int dev_id, uint32_t num_map_keys,
                    const char** map_keys, const int* map_dev_types, const int* map_dev_ids,
                    uint32_t len, NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                    uint32_t* grad_req_type, uint32_t aux_states_len, NDArrayHandle* aux_states,
                    ExecutorHandle* out) {
  return MXExecutorBindEX(symbol_handle, dev_type, dev_id, num_map_keys, map_keys, map_dev_types,
                          map_dev_ids, len, in_args, arg_grad_store, grad_req_type, aux_states_len,
                          aux_states, nullptr, out);
}

int MXExecutorBind(SymbolHandle symbol_handle, int dev_type, int dev_id, uint32_t len,
                   NDArrayHandle* in_args, NDArrayHandle* arg_grad_store, uint32_t* grad_req_type,
                   uint32_t aux_states_len, NDArrayHandle* aux_states, ExecutorHandle* out) {
  return MXExecutorBindEX(symbol_handle, dev_type, dev_id, 0, nullptr, nullptr, nullptr, len,
                          in_args, arg_grad_store, grad_req_type, aux_states_len, aux_states,
                          nullptr, out);
}

int MXExecutorSimpleBindEx(
    SymbolHandle symbol_handle, int dev_type, int dev_id, const uint32_t num_g2c_keys,
    const char** g2c_keys, const int* g2c_dev_types, const int* g2c_dev_ids,
    const uint32_t provided_grad_req_list_len, const char** provided_grad_req_names,
    const char** provided_grad_req_types, const uint32_t num_provided_arg_shapes,
    const char** provided_arg_shape_names, const int* provided_arg_shape_data,
    const uint32_t* provided_arg_shape_idx, const uint32_t num_provided_arg_dtypes,
    const char** provided_arg_dtype_names, const int* provided_arg_dtypes,
    const uint32_t num_provided_arg_stypes, const char** provided_arg_stype_names,
    const int* provided_arg_stypes, const uint32_t num_shared_arg_names,
    const char** shared_arg_name_list, int* shared_buffer_len,
    const char** shared_buffer_name_list, NDArrayHandle* shared_buffer_handle_list,
    const char*** updated_shared_buffer_name_list,
    NDArrayHandle** updated_shared_buffer_handle_list, uint32_t* num_in_args,
    NDArrayHandle** in_args, NDArrayHandle** arg_grads, uint32_t* num_aux_states,
    NDArrayHandle** aux_states, ExecutorHandle shared_exec_handle, ExecutorHandle* out) {
  API_FUNCTION_SCOPE();
  return SimpleBindImpl<int, uint32_t>(
      symbol_handle, dev_type, dev_id, num_g2c_keys, g2c_keys, g2c_dev_types, g2c_dev_ids,
      provided_grad_req_list_len, provided_grad_req_names, provided_grad_req_types,
      num_provided_arg_shapes, provided_arg_shape_names, provided_arg_shape_data,
      provided_arg_shape_idx, num_provided_arg_dtypes, provided_arg_dtype_names,
      provided_arg_dtypes, num_provided_arg_stypes, provided_arg_stype_names, provided_arg_stypes,
      num_shared_arg_names, shared_arg_name_list, shared_buffer_len, shared_buffer_name_list,
      shared_buffer_handle_list, updated_shared_buffer_name_list,
      updated_shared_buffer_handle_list, num_in_args, in_args, arg_grads, num_aux_states,
      aux_states, shared_exec_handle, out);
}

int MXExecutorSimpleBindEx64(
    SymbolHandle symbol_handle, int dev_type, int dev_id, const uint32_t num_g2c_keys,
    const char** g2c_keys, const int* g2c_dev_types, const int* g2c_dev_ids,
    const uint32_t provided_grad_req_list_len, const char** provided_grad_req_names,
    const char** provided_grad_req_types, const uint32_t num_provided_arg_shapes,
    const char** provided_arg_shape_names, const int64_t* provided_arg_shape_data,
    const uint32_t* provided_arg_shape_idx, const uint32_t num_provided_arg_dtypes,
    const char** provided_arg_dtype_names, const int* provided_arg_dtypes,
    const uint32_t num_provided_arg_stypes, const char** provided_arg_stype_names,
    const int* provided_arg_stypes, const uint32_t num_shared_arg_names,
    const char** shared_arg_name_list, int* shared_buffer_len,
    const char** shared_buffer_name_list, NDArrayHandle* shared_buffer_handle_list,
    const char*** updated_shared_buffer_name_list,
    NDArrayHandle** updated_shared_buffer_handle_list, uint32_t* num_in_args,
    NDArrayHandle** in_args, NDArrayHandle** arg_grads, uint32_t* num_aux_states,
    NDArrayHandle** aux_states, ExecutorHandle shared_exec_handle, ExecutorHandle* out) {
  API_FUNCTION_SCOPE();
  return SimpleBindImpl<int64_t, uint32_t>(
      symbol_handle, dev_type, dev_id, num_g2c_keys, g2c_keys, g2c_dev_types, g2c_dev_ids,
      provided_grad_req_list_len, provided_grad_req_names, provided_grad_req_types,
      num_provided_arg_shapes, provided_arg_shape_names, provided_arg_shape_data,
      provided_arg_shape_idx, num_provided_arg_dtypes, provided_arg_dtype_names,
      provided_arg_dtypes, num_provided_arg_stypes, provided_arg_stype_names, provided_arg_stypes,
      num_shared_arg_names, shared_arg_name_list, shared_buffer_len, shared_buffer_name_list,
      shared_buffer_handle_list, updated_shared_buffer_name_list,
      updated_shared_buffer_handle_list, num_in_args, in_args, arg_grads, num_aux_states,
      aux_states, shared_exec_handle, out);
}

int MXExecutorForward(ExecutorHandle handle, int is_train) {
  API_BEGIN();
  ExecFromHandle(handle)->Forward(is_train != 0);
  API_END();
}

int MXExecutorBackwardEx(ExecutorHandle handle, uint32_t len, NDArrayHandle* head_grads,
                         int is_train) {
  API_BEGIN();
  if (len > 0) API_NOT_NULL(head_grads);
  std::vector<NDArray> grads;
  for (uint32_t i = 0; i < len; ++i) {
    grads.push_back(head_grads[i] == nullptr ? NDArray() : *static_cast<NDArray*>(head_grads[i]));
  }
  ExecFromHandle(handle)->Backward(grads, is_train != 0);
  API_END();
}

int MXExecutorBackward(ExecutorHandle handle, uint32_t len, NDArrayHandle* head_grads) {
  return MXExecutorBackwardEx(handle, len, head_grads, 1);
}

int MXExecutorOutputs(ExecutorHandle handle, uint32_t* out_size, NDArrayHandle** out) {
  API_BEGIN();
  auto* ret = GetThreadLocalReturn();
  ret->ret_handles.clear();
  for (const NDArray& a : ExecFromHandle(handle)->outputs()) ret->ret_handles.push_back(new NDArray(a));
  *out_size = static_cast<uint32_t>(ret->ret_handles.size());
  *out = ret->ret_handles.data();
  API_END();
}

int MXExecutorFree(ExecutorHandle handle) {
  API_BEGIN();
  delete static_cast<Executor*>(handle);
  API_END();
}

int MXExecutorPrint(ExecutorHandle handle, const char** out_str) {
  API_BEGIN();
  std::ostringstream os;
  ExecFromHandle(handle)->Print(os);
  auto* ret = GetThreadLocalReturn();
  ret->ret_str = os.str();
  *out_str = ret->ret_str.c_str();
  API_END();
}

int MXExecutorGetOptimizedSymbol(ExecutorHandle handle, SymbolHandle* out) {
  API_BEGIN();
  *out = new nnvm::Symbol(ExecFromHandle(handle)->symbol().Copy());
  API_END();
}

int MXExecutorReshapeEx(int partial_shaping, int allow_up_sizing, int dev_type, int dev_id,
                        uint32_t num_map_keys, const char** map_keys, const int* map_dev_types,
                        const int* map_dev_ids, const uint32_t num_provided_arg_shapes,
                        const char** provided_arg_shape_names, const int* provided_arg_shape_data,
                        const uint32_t* provided_arg_shape_idx, uint32_t* num_in_args,
                        NDArrayHandle** in_args, NDArrayHandle** arg_grads,
                        uint32_t* num_aux_states, NDArrayHandle** aux_states,
                        ExecutorHandle shared_exec, ExecutorHandle* out) {
  API_BEGIN();
  Executor* old = ExecFromHandle(shared_exec);
  const nnvm::Symbol& sym = old->symbol();
  const mxnet::Context ctx = MakeContext(dev_type, dev_id);
  std::unordered_map<std::string, mxnet::TShape> arg_shapes;
  for (uint32_t i = 0; i < num_provided_arg_shapes; ++i) {
    mxnet::TShape s(provided_arg_shape_data + provided_arg_shape_idx[i],
                    provided_arg_shape_data + provided_arg_shape_idx[i + 1]);
    arg_shapes[provided_arg_shape_names[i]] = mxnet::c_api::LegacyToShape(s);
  }
  std::vector<std::string> arg_names = sym.ListInputNames(nnvm::Symbol::kReadOnlyArgs);
  std::vector<std::string> aux_names = sym.ListInputNames(nnvm::Symbol::kAuxiliaryStates);
  // Shapes of arguments not given stay as they are unless inference says otherwise.
  nnvm::Graph g;
  g.outputs = sym.outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  mxnet::ShapeVector shapes(idx.num_node_entries());
  std::vector<int> dtypes(idx.num_node_entries(), -1);
  std::vector<nnvm::ObjectPtr> arg_nodes = sym.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux_nodes = sym.ListInputs(nnvm::Symbol::kAuxiliaryStates);
  auto eid_of = [&](const nnvm::ObjectPtr& n) { return idx.entry_id(idx.node_id(n.get()), 0); };
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    auto it = arg_shapes.find(arg_names[i]);
    shapes[eid_of(arg_nodes[i])] = it != arg_shapes.end() ? it->second : mxnet::TShape();
    dtypes[eid_of(arg_nodes[i])] = old->arg_arrays()[i].dtype();
  }
  for (size_t i = 0; i < aux_nodes.size(); ++i) dtypes[eid_of(aux_nodes[i])] = old->aux_arrays()[i].dtype();
  nnvm::pass::InferShape(idx, &shapes);
  nnvm::pass::InferType(idx, &dtypes);
  auto reshape = [&](const NDArray& a, const mxnet::TShape& s, const std::string& name) {
    if (a.is_none()) return a;
    if (!mxnet::shape_is_known(s)) {
      if (partial_shaping) return a;
      MX_THROW(dmlc::ValueError) << "reshape: cannot infer the new shape of " << name;
    }
    if (a.shape() == s) return a;
    // A sparse array cannot be viewed with another shape: a new (empty) one of the same type.
    if (a.is_sparse()) return NDArray(a.storage_type(), s, ctx, a.dtype());
    if (s.Size() <= a.shape().Size()) return a.AsArray(s, a.dtype());
    if (!allow_up_sizing) {
      MX_THROW(dmlc::ValueError) << "reshape: new shape of " << name << " " << s
                                 << " is larger than the original " << a.shape()
                                 << "; set allow_up_sizing=True to allow it";
    }
    return NDArray(s, ctx, false, a.dtype());
  };
  std::vector<NDArray> args, grads, aux;
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    const mxnet::TShape& s = shapes[eid_of(arg_nodes[i])];
    if (!partial_shaping && !arg_shapes.count(arg_names[i]) && mxnet::shape_is_known(s) &&
        s != old->arg_arrays()[i].shape()) {
      MX_THROW(dmlc::ValueError) << "reshape: the shape of " << arg_names[i] << " changes from "
                                 << old->arg_arrays()[i].shape() << " to " << s
                                 << "; set partial_shaping=True to allow it";
    }
    args.push_back(reshape(old->arg_arrays()[i], s, arg_names[i]));
    grads.push_back(reshape(old->grad_arrays()[i], s, "grad of " + arg_names[i]));
  }
  for (size_t i = 0; i < aux_nodes.size(); ++i) {
    aux.push_back(reshape(old->aux_arrays()[i], shapes[eid_of(aux_nodes[i])], aux_names[i]));
  }
  Executor* ex = Executor::Bind(sym, ctx, Group2Ctx(num_map_keys, map_keys, map_dev_types, map_dev_ids),
                                args, grads, old->grad_reqs(), aux, old);
  ReturnBind(ex, num_in_args, in_args, arg_grads, num_aux_states, aux_states);
  *out = ex;
  API_END();
}

int MXExecutorSetMonitorCallbackEX(ExecutorHandle handle, ExecutorMonitorCallback callback,
                                   void* callback_handle, bool monitor_all) {
  API_BEGIN();
  Executor* ex = ExecFromHandle(handle);
  if (callback == nullptr) {
    ex->SetMonitorCallback(nullptr, false);
  } else {
    ex->SetMonitorCallback(
        [callback, callback_handle](const char* name, const NDArray& arr) {
          callback(name, new NDArray(arr), callback_handle);
        },
        monitor_all);
  }
  API_END();
}

int MXExecutorSetMonitorCallback(ExecutorHandle handle, ExecutorMonitorCallback callback,
                                 void* callback_handle) {
  return MXExecutorSetMonitorCallbackEX(handle, callback, callback_handle, false);
}
