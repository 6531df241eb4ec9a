// Marshalling shared by the invoke shims; see c_api_invoke.h.
#include "c_api_invoke.h"

#include <utility>

#include "c_api_common.h"

namespace mxnet {
namespace c_api {

void GatherInputs(const std::string& who, int num_inputs, NDArrayHandle* handles,
                  InvokeScratch* s) {
  if (num_inputs < 0) throw ValueError(who + ": negative number of inputs");
  if (num_inputs > 0 && handles == nullptr) {
    throw ValueError(who + ": the inputs array is NULL but " + std::to_string(num_inputs) +
                     " input(s) are given");
  }
  s->inputs.resize(num_inputs);
  for (int i = 0; i < num_inputs; ++i) {
    if (handles[i] == nullptr) ThrowNullHandle(who + ": input " + std::to_string(i) + " handle");
    s->inputs[i] = static_cast<NDArray*>(handles[i]);
  }
}

bool PrepareOutputs(const std::string& who, uint32_t total, uint32_t visible, int* num_outputs,
                    NDArrayHandle* outputs, InvokeScratch* s) {
  s->outputs.resize(total);
  s->hidden.assign(total, NDArray());
  if (outputs == nullptr) {
    for (uint32_t i = 0; i < total; ++i) s->outputs[i] = &s->hidden[i];
    return true;
  }
  if (*num_outputs != static_cast<int>(total) && *num_outputs != static_cast<int>(visible)) {
    const std::string counts = visible == total ? std::to_string(total) + " output(s)"
        : std::to_string(visible) + " visible output(s) (" + std::to_string(total) +
          " in total)";
    throw ValueError(who + " has " + counts + ", got " + std::to_string(*num_outputs) +
                     " output arrays");
  }
  for (uint32_t i = 0; i < total; ++i) {
    if (i >= static_cast<uint32_t>(*num_outputs)) {
      s->outputs[i] = &s->hidden[i];
      continue;
    }
    if (outputs[i] == nullptr) ThrowNullHandle(who + ": output " + std::to_string(i) + " handle");
    s->outputs[i] = static_cast<NDArray*>(outputs[i]);
  }
  return false;
}

void ReturnOutputs(bool allocated, uint32_t visible, int* num_outputs, NDArrayHandle** outputs,
                   const int** out_stypes, InvokeScratch* s) {
  if (allocated) {
    s->ret_handles.resize(visible);
    for (uint32_t i = 0; i < visible; ++i) s->ret_handles[i] = new NDArray(std::move(s->hidden[i]));
    *num_outputs = static_cast<int>(visible);
    *outputs = s->ret_handles.data();
  }
  s->hidden.clear();
  if (out_stypes == nullptr) return;
  s->ret_stypes.resize(*num_outputs);
  for (int i = 0; i < *num_outputs; ++i) {
    s->ret_stypes[i] = static_cast<NDArray*>((*outputs)[i])->storage_type();
  }
  *out_stypes = s->ret_stypes.data();
}

}  // namespace c_api
}  // namespace mxnet
