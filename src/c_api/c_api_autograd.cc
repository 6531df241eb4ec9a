// C API of autograd: marking variables, backward, gradient buffers and their state.
#include <mxnet/c_api.h>
#include <mxnet/imperative.h>
#include <nnvm/symbolic.h>

#include <algorithm>
#include <vector>

#include "c_api_common.h"
#include "../imperative/custom_function.h"

using mxnet::Imperative;
using mxnet::NDArray;

namespace {

NDArray* ArrayArg(NDArrayHandle h, const char* what, size_t i) {
  if (h == nullptr) {
    mxnet::c_api::ThrowNullHandle(std::string(what) + " " + std::to_string(i) + " handle");
  }
  return static_cast<NDArray*>(h);
}

/*! \brief Per-thread return buffers of MXAutogradBackwardEx. */
struct BackwardReturn {
  std::vector<NDArrayHandle> handles;
  std::vector<int> stypes;
};

BackwardReturn* GetBackwardReturn() {
  static thread_local BackwardReturn ret;
  return &ret;
}

}  // namespace

int MXAutogradMarkVariables(uint32_t num_var, NDArrayHandle* var_handles, uint32_t* reqs_array,
                            NDArrayHandle* grad_handles) {
  API_BEGIN();
  API_NO_NULL_IN(var_handles, num_var);
  if (num_var > 0) API_NOT_NULL(reqs_array);
  API_NO_NULL_IN(grad_handles, num_var);
  std::vector<NDArray*> vars, grads;
  std::vector<uint32_t> reqs(reqs_array, reqs_array + num_var);
  for (uint32_t i = 0; i < num_var; ++i) {
    vars.push_back(ArrayArg(var_handles[i], "mark_variables: variable", i));
    grads.push_back(ArrayArg(grad_handles[i], "mark_variables: gradient", i));
  }
  Imperative::Get()->MarkVariables(vars, reqs, grads);
  API_END();
}

int MXAutogradBackwardEx(uint32_t num_output, NDArrayHandle* output_handles,
                         NDArrayHandle* ograd_handles, uint32_t num_variables,
                         NDArrayHandle* var_handles, int retain_graph, int create_graph,
                         int is_train, NDArrayHandle** grad_handles, int** grad_stypes) {
  API_BEGIN();
  if (num_output > 0) API_NOT_NULL(output_handles);
  if (num_variables > 0) API_NOT_NULL(var_handles);
  std::vector<NDArray*> outputs, ograds, variables;
  for (uint32_t i = 0; i < num_output; ++i) {
    outputs.push_back(ArrayArg(output_handles[i], "backward: head", i));
    ograds.push_back(ograd_handles == nullptr ? nullptr
                                              : static_cast<NDArray*>(ograd_handles[i]));
  }
  for (uint32_t i = 0; i < num_variables; ++i) {
    variables.push_back(ArrayArg(var_handles[i], "grad: variable", i));
  }
  std::vector<NDArray> grads = Imperative::Get()->Backward(
      outputs, ograds, variables, is_train != 0, retain_graph != 0, create_graph != 0);
  if (num_variables > 0) {
    BackwardReturn* ret = GetBackwardReturn();
    ret->handles.clear();
    ret->stypes.clear();
    for (NDArray& g : grads) {
      ret->handles.push_back(new NDArray(std::move(g)));
      ret->stypes.push_back(mxnet::kDefaultStorage);
    }
    if (grad_handles != nullptr) *grad_handles = ret->handles.data();
    if (grad_stypes != nullptr) *grad_stypes = ret->stypes.data();
  }
  API_END();
}

int MXAutogradBackward(uint32_t num_output, NDArrayHandle* output_handles,
                       NDArrayHandle* ograd_handles, int retain_graph) {
  return MXAutogradBackwardEx(num_output, output_handles, ograd_handles, 0, nullptr, retain_graph,
                              0, 1, nullptr, nullptr);
}

int MXAutogradComputeGradient(uint32_t num_output, NDArrayHandle* output_handles) {
  return MXAutogradBackward(num_output, output_handles, nullptr, 0);
}

int MXNDArraySetGradState(NDArrayHandle handle, int state) {
  API_BEGIN();
  Imperative::SetGradState(*ArrayArg(handle, "array", 0), state != 0);
  API_END();
}

int MXNDArrayGetGradState(NDArrayHandle handle, int* out) {
  API_BEGIN();
  *out = Imperative::GetGradState(*ArrayArg(handle, "array", 0)) ? 1 : 0;
  API_END();
}

int MXAutogradGetSymbol(NDArrayHandle handle, SymbolHandle* out) {
  API_BEGIN();
  NDArray* head = ArrayArg(handle, "get_symbol: array", 0);
  if (!Imperative::IsRecorded(*head)) {
    throw mxnet::ValueError(
        "get_symbol: the NDArray is not part of a computational graph. Did you forget to turn "
        "on recording (autograd.record()) or call attach_grad()?");
  }
  auto* sym = new nnvm::Symbol();
  sym->outputs.push_back(head->entry_);
  *out = sym;
  API_END();
}

int MXCustomFunctionRecord(int num_inputs, NDArrayHandle* inputs, int num_outputs,
                           NDArrayHandle* outputs, struct MXCallbackList* callbacks) {
  API_BEGIN();
  API_NOT_NULL(callbacks);
  if (num_inputs > 0) API_NO_NULL_IN(inputs, num_inputs);
  if (num_outputs > 0) API_NO_NULL_IN(outputs, num_outputs);
  const int num_callbacks = std::max(callbacks->num_callbacks, 0);
  if (num_callbacks > 0) {
    API_NOT_NULL(callbacks->callbacks);
    API_NOT_NULL(callbacks->contexts);
  }
  auto* in = reinterpret_cast<mxnet::NDArray**>(inputs);
  auto* out = reinterpret_cast<mxnet::NDArray**>(outputs);
  mxnet::custom_function::Record(
      std::vector<mxnet::NDArray*>(in, in + std::max(num_inputs, 0)),
      std::vector<mxnet::NDArray*>(out, out + std::max(num_outputs, 0)),
      std::vector<int (*)(void)>(callbacks->callbacks, callbacks->callbacks + num_callbacks),
      std::vector<void*>(callbacks->contexts, callbacks->contexts + num_callbacks));
  API_END();
}
