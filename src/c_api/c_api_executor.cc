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
#include "../executor/reshape.h"
#include "../executor/simple_bind.h"
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

/*! \brief One request per argument from simple_bind's grad_req arguments (a single type for
 *  all, a list in argument order, or a name -> type map; arguments not named get null). */
std::vector<OpReqType> GradReqsFromC(const std::vector<std::string>& arg_names, uint32_t len,
                                     const char** names, const char** types) {
  std::vector<OpReqType> reqs(arg_names.size(), mxnet::kWriteTo);
  if (len == 0 && types != nullptr && types[0] != nullptr) {
    reqs.assign(arg_names.size(), ReqFromString(types[0]));
  } else if (names == nullptr) {
    if (len != arg_names.size()) {
      MX_THROW(dmlc::ValueError) << "simple_bind: grad_req list has " << len << " entries for "
                                 << arg_names.size() << " arguments";
    }
    for (uint32_t i = 0; i < len; ++i) reqs[i] = ReqFromString(types[i]);
  } else {
    reqs.assign(arg_names.size(), mxnet::kNullOp);
    for (uint32_t i = 0; i < len; ++i) {
      auto it = std::find(arg_names.begin(), arg_names.end(), names[i]);
      if (it == arg_names.end()) {
        MX_THROW(dmlc::ValueError) << "simple_bind: grad_req given for " << names[i]
                                   << ", which is not an argument";
      }
      reqs[it - arg_names.begin()] = ReqFromString(types[i]);
    }
  }
  return reqs;
}

std::unordered_map<std::string, int> StypesFromC(uint32_t n, const char** names,
                                                 const int* stypes) {
  std::unordered_map<std::string, int> ret;
  for (uint32_t i = 0; i < n; ++i) {
    const int st = stypes[i];
    if (st != mxnet::kDefaultStorage && st != mxnet::kRowSparseStorage &&
        st != mxnet::kCSRStorage) {
      MX_THROW(dmlc::ValueError) << "simple_bind: unknown storage type code " << st << " for "
                                 << names[i];
    }
    ret[names[i]] = st;
  }
  return ret;
}

/*! \brief The shared buffer after binding (extended with the arrays simple_bind made). */
void ReturnSharedBuffer(const std::unordered_map<std::string, NDArray>& shared_buffer,
                        int* len, const char*** names, NDArrayHandle** handles) {
  BindReturn* r = GetBindReturn();
  r->shared_names.clear();
  r->shared_names_c.clear();
  r->shared_handles.clear();
  for (const auto& kv : shared_buffer) {
    r->shared_names.push_back(kv.first);
    r->shared_handles.push_back(new NDArray(kv.second));
  }
  for (const std::string& name : r->shared_names) r->shared_names_c.push_back(name.c_str());
  *len = static_cast<int>(r->shared_names.size());
  *names = r->shared_names_c.data();
  *handles = r->shared_handles.data();
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
  mxnet::exec::SimpleBindSpec spec;
  spec.group2ctx = Group2Ctx(num_g2c_keys, g2c_keys, g2c_dev_types, g2c_dev_ids);
  spec.grad_reqs = GradReqsFromC(sym->ListInputNames(nnvm::Symbol::kReadOnlyArgs),
                                 provided_grad_req_list_len, provided_grad_req_names,
                                 provided_grad_req_types);
  for (uint32_t i = 0; i < num_provided_arg_shapes; ++i) {
    mxnet::TShape s(provided_arg_shape_data + provided_arg_shape_idx[i],
                    provided_arg_shape_data + provided_arg_shape_idx[i + 1]);
    spec.arg_shapes[provided_arg_shape_names[i]] = mxnet::exec::LegacyToShape(s);
  }
  for (uint32_t i = 0; i < num_provided_arg_dtypes; ++i) {
    spec.arg_dtypes[provided_arg_dtype_names[i]] = provided_arg_dtypes[i];
  }
  spec.arg_stypes = StypesFromC(num_provided_arg_stypes, provided_arg_stype_names,
                                provided_arg_stypes);
  for (uint32_t i = 0; i < num_shared_arg_names; ++i) {
    spec.shared_arg_names.insert(shared_arg_name_list[i]);
  }
  std::unordered_map<std::string, NDArray> shared_buffer;
  const bool use_shared_buffer = shared_buffer_len != nullptr && *shared_buffer_len >= 0;
  if (use_shared_buffer) {
    for (int i = 0; i < *shared_buffer_len; ++i) {
      shared_buffer[shared_buffer_name_list[i]] =
          *static_cast<NDArray*>(shared_buffer_handle_list[i]);
    }
    spec.shared_buffer = &shared_buffer;
  }
  spec.shared_exec = static_cast<Executor*>(shared_exec_handle);
  Executor* ex = mxnet::exec::SimpleBind(*sym, MakeContext(dev_type, dev_id), spec);
  ReturnBind(ex, num_in_args, in_args, arg_grads, num_aux_states, aux_states);
  if (use_shared_buffer) {
    ReturnSharedBuffer(shared_buffer, shared_buffer_len, updated_shared_buffer_name_list,
                       updated_shared_buffer_handle_list);
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
  if (num_provided_arg_shapes > 0) {
    API_NO_NULL_IN(provided_arg_shape_names, num_provided_arg_shapes);
    API_NOT_NULL(provided_arg_shape_data);
    API_NOT_NULL(provided_arg_shape_idx);
  }
  mxnet::exec::ReshapeSpec spec;
  spec.ctx = MakeContext(dev_type, dev_id);
  spec.group2ctx = Group2Ctx(num_map_keys, map_keys, map_dev_types, map_dev_ids);
  for (uint32_t i = 0; i < num_provided_arg_shapes; ++i) {
    mxnet::TShape s(provided_arg_shape_data + provided_arg_shape_idx[i],
                    provided_arg_shape_data + provided_arg_shape_idx[i + 1]);
    spec.arg_shapes[provided_arg_shape_names[i]] = mxnet::exec::LegacyToShape(s);
  }
  spec.partial_shaping = partial_shaping != 0;
  spec.allow_up_sizing = allow_up_sizing != 0;
  Executor* ex = mxnet::exec::Reshape(old, spec);
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
