/*!
 * \file host_fallback.h
 * \brief GPU calls of operators whose work is a sequential walk over values the host must see
 *        anyway (those with data-dependent output shapes, whose call already waited for its
 *        inputs): RunOnHostForGPU(cpu_fn) copies the inputs (and outputs accumulated into) to
 *        the host on the operator's stream, runs the CPU kernel there, and copies the outputs
 *        back. The wrapped kernel must not use requested resources. RunOnHostForGPUEx does the
 *        same for FComputeEx kernels (sparse arrays).
 */
#ifndef MXNET_OPERATOR_HOST_FALLBACK_H_
#define MXNET_OPERATOR_HOST_FALLBACK_H_

#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

namespace mxnet {
namespace op {

/*! \brief An FCompute<gpu> running `cpu_fn` on host copies (host_fallback.cu, CUDA builds). */
FCompute RunOnHostForGPU(FCompute cpu_fn);

/*!
 * \brief An FComputeEx<gpu> running `cpu_fn` on host copies of its NDArrays, sparse (csr,
 *        row_sparse) ones included: the parts of a sparse input are copied to a CPU array of the
 *        same storage type; a sparse output is filled on the host and gets device copies of the
 *        parts the CPU kernel set. Requested kRandom resources pass through (a GPU context's
 *        kRandom is a host generator); other resources are refused.
 */
FComputeEx RunOnHostForGPUEx(FComputeEx cpu_fn);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_HOST_FALLBACK_H_
