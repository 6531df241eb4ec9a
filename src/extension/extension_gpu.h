/*!
 * \file extension_gpu.h
 * \brief The CUDA half of extension operator calls on a GPU (extension_gpu.cu, CUDA builds
 *        only): the call's stream, and the sum into a kAddTo output.
 */
#ifndef MXNET_EXTENSION_EXTENSION_GPU_H_
#define MXNET_EXTENSION_EXTENSION_GPU_H_

#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <mxnet/tensor_blob.h>

namespace mxnet {
namespace ext_loader {

/*! \brief The cudaStream_t the call's kernels go on (OpResource::get_cuda_stream). */
void* CallStream(const OpContext& ctx);

/*! \brief out += tmp (device memory of out's shape and dtype), queued on the call's stream. */
void AddIntoOnGpu(const OpContext& ctx, const TBlob& out, const void* tmp);

/*!
 * \brief MX_NUM_GPU_RANDOM_STATES curand Philox states (OpResource::get_gpu_rand_states),
 *        seeded afresh for this call on its stream from `rand` (a kParallelRandom resource:
 *        the states follow mx.random.seed); null when MXNet was built without curand's headers.
 */
void* GpuRandStates(const OpContext& ctx, const Resource& rand);

}  // namespace ext_loader
}  // namespace mxnet

#endif  // MXNET_EXTENSION_EXTENSION_GPU_H_
