// Copies involving a GPU: cudaMemcpyAsync on the function's stream (unified addressing lets
// the runtime tell host from device pointers); peer copies between two GPUs.
#include "./device_copy.h"

#include <dmlc/logging.h>

#include "../common/cuda_utils.h"

namespace mxnet {
namespace device_copy {

#if !MXNET_USE_CUDA
namespace {
/*! \brief A copy touching a GPU in a build without CUDA: the GPU side's standard error. */
void NoGPUCopy(Context dst_ctx, Context src_ctx) {
  Context::CheckGPU(dst_ctx.dev_mask() == gpu::kDevMask ? dst_ctx : src_ctx, "copy");
}
}  // namespace
#endif

void CopyBytesAsync(void* dst, Context dst_ctx, const void* src, Context src_ctx, size_t bytes,
                    const RunContext& rctx) {
  if (bytes == 0) return;
#if MXNET_USE_CUDA
  cudaStream_t stream = rctx.ctx.dev_mask() == gpu::kDevMask
                            ? mshadow::Stream<gpu>::GetStream(rctx.get_stream<gpu>())
                            : nullptr;
  if (dst_ctx.dev_mask() == gpu::kDevMask && src_ctx.dev_mask() == gpu::kDevMask &&
      dst_ctx.dev_id != src_ctx.dev_id) {
    CUDA_CALL(cudaMemcpyPeerAsync(dst, dst_ctx.dev_id, src, src_ctx.dev_id, bytes, stream));
  } else {
    CUDA_CALL(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
  }
#else
  (void)dst;
  (void)src;
  (void)rctx;
  NoGPUCopy(dst_ctx, src_ctx);
#endif
}

void CopyBytesSync(void* dst, Context dst_ctx, const void* src, Context src_ctx, size_t bytes) {
  if (bytes == 0) return;
#if MXNET_USE_CUDA
  const int dev = dst_ctx.dev_mask() == gpu::kDevMask ? dst_ctx.dev_id : src_ctx.dev_id;
  common::cuda::DeviceGuard guard(dev);
  // The engine's streams do not synchronise with the legacy stream cudaMemcpy runs on, and a
  // block the pool hands out may still be in use by kernels queued before it was freed (freed
  // blocks return to the pool once their last operation is queued): wait for the device first.
  CUDA_CALL(cudaDeviceSynchronize());
  CUDA_CALL(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
#else
  (void)dst;
  (void)src;
  NoGPUCopy(dst_ctx, src_ctx);
#endif
}

}  // namespace device_copy
}  // namespace mxnet
