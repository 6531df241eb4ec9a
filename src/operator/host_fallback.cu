/*!
 * \file host_fallback.cu
 * \brief RunOnHostForGPU: a CPU kernel run on host copies of a GPU call's arrays.
 */
#include "./host_fallback.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <utility>
#include <vector>

#include "../common/cuda_utils.h"

namespace mxnet {
namespace op {

namespace {

size_t BlobBytes(const TBlob& b) { return b.Size() * mshadow::mshadow_sizeof(b.type_flag_); }

}  // namespace

FCompute RunOnHostForGPU(FCompute cpu_fn) {
  return [cpu_fn](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
    CHECK(ctx.requested.empty()) << attrs.op->name
                                 << ": a host fallback cannot pass on requested resources";
    cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
    // Host buffers (operator new: aligned for every dtype) and blobs over them.
    std::vector<std::vector<char>> hin(inputs.size()), hout(outputs.size());
    std::vector<TBlob> in_blobs, out_blobs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      hin[i].resize(BlobBytes(inputs[i]));
      if (!hin[i].empty()) {
        CUDA_CALL(cudaMemcpyAsync(hin[i].data(), inputs[i].dptr_, hin[i].size(),
                                  cudaMemcpyDeviceToHost, stream));
      }
      in_blobs.push_back(TBlob(static_cast<void*>(hin[i].data()), inputs[i].shape_,
                               cpu::kDevMask, inputs[i].type_flag_));
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      hout[i].resize(BlobBytes(outputs[i]));
      if (!hout[i].empty() && req[i] == kAddTo) {
        CUDA_CALL(cudaMemcpyAsync(hout[i].data(), outputs[i].dptr_, hout[i].size(),
                                  cudaMemcpyDeviceToHost, stream));
      }
      out_blobs.push_back(TBlob(static_cast<void*>(hout[i].data()), outputs[i].shape_,
                                cpu::kDevMask, outputs[i].type_flag_));
    }
    CUDA_CALL(cudaStreamSynchronize(stream));
    OpContext host_ctx = ctx;
    host_ctx.run_ctx.ctx = Context::CPU();
    host_ctx.run_ctx.stream = nullptr;
    cpu_fn(attrs, host_ctx, in_blobs, req, out_blobs);
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (req[i] == kNullOp || hout[i].empty()) continue;
      // From pageable memory: staged before the call returns, so the buffers may go.
      CUDA_CALL(cudaMemcpyAsync(outputs[i].dptr_, hout[i].data(), hout[i].size(),
                                cudaMemcpyHostToDevice, stream));
    }
  };
}

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
