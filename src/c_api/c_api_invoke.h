/*!
 * \file c_api_invoke.h
 * \brief Marshalling shared by the invoke shims (MXImperativeInvokeEx, MXInvokeCachedOpEx):
 *        input handles to arrays, the caller's output handles (or placeholders for outputs to
 *        allocate), and the results handed back.
 */
#ifndef MXNET_C_API_C_API_INVOKE_H_
#define MXNET_C_API_C_API_INVOKE_H_

#include <mxnet/c_api.h>
#include <mxnet/ndarray.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mxnet {
namespace c_api {

/*! \brief Per-thread scratch for one invoke: no heap traffic on the hot path after warm-up.
 *  Each shim keeps its own: a custom operator's Python code may invoke operators on the thread
 *  of a cached op that is still using its scratch. */
struct InvokeScratch {
  std::vector<NDArray*> inputs;
  std::vector<NDArray*> outputs;
  std::vector<NDArray> hidden;  // placeholders for the outputs the caller did not pass
  std::vector<void*> ret_handles;
  std::vector<int> ret_stypes;
};

/*! \brief s->inputs = the arrays behind `handles`; `who` ("Operator relu") names the caller in
 *  errors (a NULL list or handle, a negative count). */
void GatherInputs(const std::string& who, int num_inputs, NDArrayHandle* handles,
                  InvokeScratch* s);

/*! \brief s->outputs = the caller's arrays, or placeholders where the caller passes none
 *  (`*outputs == nullptr`: all are allocated) or passes only the `visible` ones of `total`.
 *  Returns whether the outputs are allocated here. */
bool PrepareOutputs(const std::string& who, uint32_t total, uint32_t visible, int* num_outputs,
                    NDArrayHandle* outputs, InvokeScratch* s);

/*! \brief After the call: hands the allocated visible outputs back as new handles (owned by the
 *  caller; the handle array is the scratch's, valid until the next invoke on this thread), and
 *  their storage types when `out_stypes` is given. */
void ReturnOutputs(bool allocated, uint32_t visible, int* num_outputs, NDArrayHandle** outputs,
                   const int** out_stypes, InvokeScratch* s);

}  // namespace c_api
}  // namespace mxnet

#endif  // MXNET_C_API_C_API_INVOKE_H_
