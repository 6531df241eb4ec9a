// C API: the operator registry queries used for code generation, and MXImperativeInvoke.
#include <mxnet/c_api.h>
#include <mxnet/imperative.h>
#include <nnvm/op.h>

#include "c_api_common.h"
#include "c_api_invoke.h"
#include "../executor/exec_core.h"

using mxnet::Imperative;
using mxnet::NDArray;

namespace {

const nnvm::Op* OpFromHandle(AtomicSymbolCreator creator) {
  if (creator == nullptr) mxnet::c_api::ThrowNullHandle("operator handle");
  return static_cast<const nnvm::Op*>(creator);
}

mxnet::c_api::InvokeScratch* GetInvokeScratch() {
  static thread_local mxnet::c_api::InvokeScratch scratch;
  return &scratch;
}

}  // namespace

int MXImperativeInvokeEx(AtomicSymbolCreator creator, int num_inputs, NDArrayHandle* inputs,
                         int* num_outputs, NDArrayHandle** outputs, int num_params,
                         const char** param_keys, const char** param_vals,
                         const int** out_stypes) {
  API_BEGIN();
  const nnvm::Op* op = OpFromHandle(creator);
  API_NOT_NULL(num_outputs);
  API_NOT_NULL(outputs);
  if (num_params < 0) throw mxnet::ValueError("Operator " + op->name + ": negative num_params");
  API_NO_NULL_IN(param_keys, static_cast<size_t>(num_params));
  API_NO_NULL_IN(param_vals, static_cast<size_t>(num_params));
  const std::string who = "Operator " + op->name;
  mxnet::c_api::InvokeScratch* s = GetInvokeScratch();
  mxnet::c_api::GatherInputs(who, num_inputs, inputs, s);
  Imperative* imp = Imperative::Get();
  auto attrs = imp->ParseAttrs(op, num_inputs, num_params, param_keys, param_vals);
  const uint32_t visible = Imperative::NumVisibleOutputs(*attrs);
  const bool allocate = mxnet::c_api::PrepareOutputs(who, Imperative::NumOutputs(*attrs), visible,
                                                     num_outputs, *outputs, s);
  imp->Invoke(attrs, s->inputs, s->outputs);
  mxnet::c_api::ReturnOutputs(allocate, visible, num_outputs, outputs, out_stypes, s);
  API_END();
}

int MXImperativeInvoke(AtomicSymbolCreator creator, int num_inputs, NDArrayHandle* inputs,
                       int* num_outputs, NDArrayHandle** outputs, int num_params,
                       const char** param_keys, const char** param_vals) {
  return MXImperativeInvokeEx(creator, num_inputs, inputs, num_outputs, outputs, num_params,
                              param_keys, param_vals, nullptr);
}

int NNGetOpHandle(const char* op_name, OpHandle* op_out) {
  API_BEGIN();
  API_NOT_NULL(op_name);
  API_NOT_NULL(op_out);
  *op_out = const_cast<nnvm::Op*>(nnvm::Op::Get(op_name));
  API_END();
}

int NNListAllOpNames(nn_uint* out_size, const char*** out_array) {
  return MXListAllOpNames(out_size, out_array);
}

int MXListAllOpNames(uint32_t* out_size, const char*** out_array) {
  API_BEGIN();
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_array);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_vec_str = nnvm::Op::ListAllNames();
  ret->ret_vec_charp.clear();
  for (const std::string& name : ret->ret_vec_str) ret->ret_vec_charp.push_back(name.c_str());
  *out_size = static_cast<uint32_t>(ret->ret_vec_charp.size());
  *out_array = ret->ret_vec_charp.data();
  API_END();
}

int MXListOperatorsWithKernel(int dev_type, uint32_t* out_size, const char*** out_array) {
  API_BEGIN();
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_array);
  const int dev_mask =
      mxnet::Context::Create(static_cast<mxnet::Context::DeviceType>(dev_type), 0).dev_mask();
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_vec_str.clear();
  for (const std::string& name : nnvm::Op::ListAllNames()) {
    const nnvm::Op* op = nnvm::Op::Get(name);
    if (op->name == name && mxnet::exec::HasKernel(op, dev_mask)) ret->ret_vec_str.push_back(name);
  }
  ret->ret_vec_charp.clear();
  for (const std::string& name : ret->ret_vec_str) ret->ret_vec_charp.push_back(name.c_str());
  *out_size = static_cast<uint32_t>(ret->ret_vec_charp.size());
  *out_array = ret->ret_vec_charp.data();
  API_END();
}

int MXSymbolListAtomicSymbolCreators(uint32_t* out_size, AtomicSymbolCreator** out_array) {
  API_BEGIN();
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_array);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_handles.clear();
  for (const std::string& name : nnvm::Op::ListAllNames()) {
    const nnvm::Op* op = nnvm::Op::Get(name);
    if (op->name == name) ret->ret_handles.push_back(const_cast<nnvm::Op*>(op));
  }
  *out_size = static_cast<uint32_t>(ret->ret_handles.size());
  *out_array = ret->ret_handles.data();
  API_END();
}

int MXSymbolGetAtomicSymbolName(AtomicSymbolCreator creator, const char** name) {
  API_BEGIN();
  *name = OpFromHandle(creator)->name.c_str();
  API_END();
}

int MXSymbolGetAtomicSymbolInfo(AtomicSymbolCreator creator, const char** name,
                                const char** description, uint32_t* num_args,
                                const char*** arg_names, const char*** arg_type_infos,
                                const char*** arg_descriptions, const char** key_var_num_args,
                                const char** return_type) {
  API_BEGIN();
  const nnvm::Op* op = OpFromHandle(creator);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  *name = op->name.c_str();
  *description = op->description.c_str();
  *num_args = static_cast<uint32_t>(op->arguments.size());
  ret->ret_vec_charp.clear();
  for (const auto& arg : op->arguments) ret->ret_vec_charp.push_back(arg.name.c_str());
  for (const auto& arg : op->arguments) ret->ret_vec_charp.push_back(arg.type_info_str.c_str());
  for (const auto& arg : op->arguments) ret->ret_vec_charp.push_back(arg.description.c_str());
  *arg_names = ret->ret_vec_charp.data();
  *arg_type_infos = ret->ret_vec_charp.data() + op->arguments.size();
  *arg_descriptions = ret->ret_vec_charp.data() + 2 * op->arguments.size();
  *key_var_num_args = op->key_var_num_args.c_str();
  if (return_type != nullptr) *return_type = nullptr;
  API_END();
}

int MXAutogradSetIsRecording(int is_recording, int* prev) {
  API_BEGIN();
  API_NOT_NULL(prev);
  *prev = Imperative::Get()->set_is_recording(is_recording != 0);
  API_END();
}

int MXAutogradSetIsTraining(int is_training, int* prev) {
  API_BEGIN();
  API_NOT_NULL(prev);
  *prev = Imperative::Get()->set_is_training(is_training != 0);
  API_END();
}

int MXAutogradIsRecording(bool* curr) {
  API_BEGIN();
  API_NOT_NULL(curr);
  *curr = Imperative::Get()->is_recording();
  API_END();
}

int MXAutogradIsTraining(bool* curr) {
  API_BEGIN();
  API_NOT_NULL(curr);
  *curr = Imperative::Get()->is_training();
  API_END();
}
