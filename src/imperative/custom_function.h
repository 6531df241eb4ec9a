/*!
 * \file custom_function.h
 * \brief Recording a call of a frontend mx.autograd.Function (the C API's
 *        MXCustomFunctionRecord converts handles and calls this).
 */
#ifndef MXNET_IMPERATIVE_CUSTOM_FUNCTION_H_
#define MXNET_IMPERATIVE_CUSTOM_FUNCTION_H_

#include <mxnet/ndarray.h>

#include <vector>

namespace mxnet {
namespace custom_function {

/*!
 * \brief Record one `_CustomFunction` node from `inputs` to `outputs` (autograd must be
 *        recording). callbacks[0] is the frontend backward, callbacks[1] the delete callback
 *        run when the last node using them dies; contexts[i] is passed to callbacks[i].
 */
void Record(const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs,
            std::vector<int (*)(void)> callbacks, std::vector<void*> contexts);

}  // namespace custom_function
}  // namespace mxnet

#endif  // MXNET_IMPERATIVE_CUSTOM_FUNCTION_H_
