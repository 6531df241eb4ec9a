/*!
 * \file c_api_cached_op.cc
 * \brief C API of CachedOp. A CachedOpHandle is a heap-allocated shared_ptr<CachedOp> (autograd
 *        nodes share the op, so it outlives MXFreeCachedOp while a recorded call needs it).
 *        Live handles are kept in a set so that a freed or bogus handle is an error, not a crash.
 */
#include <mxnet/c_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "../imperative/cached_op.h"
#include "./c_api_common.h"
#include "./c_api_invoke.h"

namespace {

using mxnet::CachedOp;
using mxnet::NDArray;
using CachedOpPtr = std::shared_ptr<CachedOp>;

std::mutex& HandleMutex() {
  static std::mutex m;
  return m;
}

std::unordered_set<void*>& LiveHandles() {
  static auto* live = new std::unordered_set<void*>();  // never destroyed (atexit order)
  return *live;
}

CachedOpPtr OpFromHandle(CachedOpHandle handle) {
  std::lock_guard<std::mutex> lock(HandleMutex());
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("CachedOp handle");
  if (LiveHandles().count(handle) == 0) {
    throw mxnet::ValueError("CachedOp handle is invalid (already freed with MXFreeCachedOp?)");
  }
  return *static_cast<CachedOpPtr*>(handle);
}

mxnet::c_api::InvokeScratch* GetScratch() {
  static thread_local mxnet::c_api::InvokeScratch s;
  return &s;
}

int CreateCachedOp(SymbolHandle handle, int num_flags, const char** keys, const char** vals,
                   CachedOpHandle* out) {
  API_BEGIN_HELPER();
  if (handle == nullptr) throw mxnet::ValueError("MXCreateCachedOp: symbol handle is NULL");
  if (out == nullptr) throw mxnet::ValueError("MXCreateCachedOp: out is NULL");
  if (num_flags < 0) throw mxnet::ValueError("MXCreateCachedOp: num_flags is negative");
  CachedOp::Flags flags;
  for (int i = 0; i < num_flags; ++i) {
    if (keys[i] == nullptr || vals[i] == nullptr) {
      throw mxnet::ValueError("MXCreateCachedOp: flag " + std::to_string(i) + " is NULL");
    }
    flags.emplace_back(keys[i], vals[i]);
  }
  const nnvm::Symbol& sym = *static_cast<nnvm::Symbol*>(handle);
  auto* ptr = new CachedOpPtr(std::make_shared<CachedOp>(sym, flags));
  {
    std::lock_guard<std::mutex> lock(HandleMutex());
    LiveHandles().insert(ptr);
  }
  *out = ptr;
  API_END();
}

}  // namespace

int MXCreateCachedOp(SymbolHandle handle, CachedOpHandle* out) {
  API_FUNCTION_SCOPE();
  return CreateCachedOp(handle, 0, nullptr, nullptr, out);
}

int MXCreateCachedOpEx(SymbolHandle handle, int num_flags, const char** keys, const char** vals,
                       CachedOpHandle* out) {
  API_FUNCTION_SCOPE();
  return CreateCachedOp(handle, num_flags, keys, vals, out);
}

int MXCreateCachedOpEX(SymbolHandle handle, int num_flags, const char** keys, const char** vals,
                       CachedOpHandle* out, bool thread_safe) {
  (void)thread_safe;  // the op's executor cache is locked in every case
  API_FUNCTION_SCOPE();
  return CreateCachedOp(handle, num_flags, keys, vals, out);
}

int MXFreeCachedOp(CachedOpHandle handle) {
  API_BEGIN();
  CachedOpPtr* ptr = nullptr;
  {
    std::lock_guard<std::mutex> lock(HandleMutex());
    if (handle == nullptr || LiveHandles().erase(handle) == 0) {
      throw mxnet::ValueError("MXFreeCachedOp: invalid CachedOp handle (freed twice?)");
    }
    ptr = static_cast<CachedOpPtr*>(handle);
  }
  delete ptr;
  API_END();
}

int MXInvokeCachedOpEx(CachedOpHandle handle, int num_inputs, NDArrayHandle* inputs,
                       int* num_outputs, NDArrayHandle** outputs, const int** out_stypes) {
  API_BEGIN();
  CachedOpPtr op = OpFromHandle(handle);
  API_NOT_NULL(num_outputs);
  API_NOT_NULL(outputs);
  mxnet::c_api::InvokeScratch* s = GetScratch();
  mxnet::c_api::GatherInputs(op->DisplayName(), num_inputs, inputs, s);
  const uint32_t total = op->num_outputs();
  const bool allocate =
      mxnet::c_api::PrepareOutputs(op->DisplayName(), total, total, num_outputs, *outputs, s);
  op->Forward(s->inputs, s->outputs);
  mxnet::c_api::ReturnOutputs(allocate, total, num_outputs, outputs, out_stypes, s);
  API_END();
}

int MXInvokeCachedOp(CachedOpHandle handle, int num_inputs, NDArrayHandle* inputs,
                     int* num_outputs, NDArrayHandle** outputs) {
  return MXInvokeCachedOpEx(handle, num_inputs, inputs, num_outputs, outputs, nullptr);
}

int MXCachedOpRegisterOpHook(CachedOpHandle handle, CachedOpMonitorCallback callback,
                             bool monitor_all) {
  API_BEGIN();
  CachedOpPtr op = OpFromHandle(handle);
  if (callback == nullptr) {
    op->RegisterOpHook(nullptr, monitor_all);
  } else {
    op->RegisterOpHook(
        [callback](const char* name, const char* op_name, const NDArray& arr) {
          // The callback owns the new handle (as with the executor monitor).
          callback(name, op_name, new NDArray(arr));
        },
        monitor_all);
  }
  API_END();
}
