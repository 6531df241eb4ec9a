/*!
 * \file host_fallback.h
 * \brief GPU calls of operators whose work is a sequential walk over values the host must see
 *        anyway (those with data-dependent output shapes, whose call already waited for its
 *        inputs): RunOnHostForGPU(cpu_fn) copies the inputs (and outputs accumulated into) to
 *        the host on the operator's stream, runs the CPU kernel there, and copies the outputs
 *        back. The wrapped kernel must not use requested resources.
 */
#ifndef MXNET_OPERATOR_HOST_FALLBACK_H_
#define MXNET_OPERATOR_HOST_FALLBACK_H_

#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

namespace mxnet {
namespace op {

/*! \brief An FCompute<gpu> running `cpu_fn` on host copies (host_fallback.cu, CUDA builds). */
FCompute RunOnHostForGPU(FCompute cpu_fn);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_HOST_FALLBACK_H_
