/*!
 * \file extension_gpu.cu
 * \brief The CUDA half of extension operator calls on a GPU (extension_gpu.h).
 */
#include "./extension_gpu.h"

#include "../common/cuda_launch.h"

namespace mxnet {
namespace ext_loader {
namespace {

struct AddIntoKernel {
  template <typename DType>
  __device__ static void Map(index_t i, DType* out, const DType* tmp) {
    out[i] = out[i] + tmp[i];
  }
};

}  // namespace

void* CallStream(const OpContext& ctx) {
  return mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
}

void AddIntoOnGpu(const OpContext& ctx, const TBlob& out, const void* tmp) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    common::cuda::LaunchMap<AddIntoKernel>(stream, static_cast<index_t>(out.shape_.Size()),
                                           static_cast<DType*>(out.dptr_),
                                           static_cast<const DType*>(tmp));
  });
}

}  // namespace ext_loader
}  // namespace mxnet
