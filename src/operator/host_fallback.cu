/*!
 * \file host_fallback.cu
 * \brief RunOnHostForGPU / RunOnHostForGPUEx: a CPU kernel run on host copies of a GPU call's
 *        arrays (dense TBlobs, or NDArrays with csr / row_sparse parts).
 */
#include "./host_fallback.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>
#include <mxnet/ndarray.h>

#include <utility>
#include <vector>

#include "../common/cuda_utils.h"

namespace mxnet {
namespace op {

namespace {

size_t BlobBytes(const TBlob& b) { return b.Size() * mshadow::mshadow_sizeof(b.type_flag_); }

size_t ArrayBytes(const NDArray& a) {
  return a.shape().Size() * mshadow::mshadow_sizeof(a.dtype());
}

/*!
 * \brief Queues a copy of `bytes` (none: nothing) on `stream`. A copy from pageable host memory
 *        is staged before the call returns, so the host buffer may go then.
 */
void CopyBytes(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
  if (bytes) CUDA_CALL(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
}

/*! \brief The CPU kernel's op context: the GPU call's, on the CPU and without a stream. */
OpContext HostContext(const OpContext& ctx) {
  OpContext host_ctx = ctx;
  host_ctx.run_ctx.ctx = Context::CPU();
  host_ctx.run_ctx.stream = nullptr;
  return host_ctx;
}

/*! \brief A dense array on `ctx` with a copy of `src` (queued on `stream`). */
NDArray DenseCopy(const NDArray& src, Context ctx, cudaStream_t stream) {
  NDArray out(src.shape(), ctx, false, src.dtype());
  CopyBytes(out.data().dptr_, src.data().dptr_, ArrayBytes(src), stream);
  return out;
}

/*! \brief An empty CPU array with the storage type, shape, dtype and aux dtypes of `a`. */
NDArray HostLike(const NDArray& a) {
  if (!a.is_sparse()) return NDArray(a.shape(), Context::CPU(), false, a.dtype());
  std::vector<int> aux_types;
  for (size_t i = 0; i < a.num_aux(); ++i) aux_types.push_back(a.aux_type(i));
  return NDArray(a.storage_type(), a.shape(), Context::CPU(), a.dtype(), aux_types);
}

/*! \brief A CPU copy of `a` (its parts when sparse), queued on `stream`. */
NDArray HostCopy(const NDArray& a, cudaStream_t stream) {
  if (!a.is_sparse()) return DenseCopy(a, Context::CPU(), stream);
  NDArray host = HostLike(a);
  std::vector<NDArray> aux;
  for (size_t i = 0; i < a.num_aux(); ++i) {
    aux.push_back(DenseCopy(a.sparse_aux(i), Context::CPU(), stream));
  }
  host.SetSparseParts(DenseCopy(a.sparse_data(), Context::CPU(), stream), aux);
  return host;
}

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
      CopyBytes(hin[i].data(), inputs[i].dptr_, hin[i].size(), stream);
      in_blobs.push_back(TBlob(static_cast<void*>(hin[i].data()), inputs[i].shape_,
                               cpu::kDevMask, inputs[i].type_flag_));
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      hout[i].resize(BlobBytes(outputs[i]));
      if (req[i] == kAddTo) CopyBytes(hout[i].data(), outputs[i].dptr_, hout[i].size(), stream);
      out_blobs.push_back(TBlob(static_cast<void*>(hout[i].data()), outputs[i].shape_,
                                cpu::kDevMask, outputs[i].type_flag_));
    }
    CUDA_CALL(cudaStreamSynchronize(stream));
    cpu_fn(attrs, HostContext(ctx), in_blobs, req, out_blobs);
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (req[i] != kNullOp) CopyBytes(outputs[i].dptr_, hout[i].data(), hout[i].size(), stream);
    }
  };
}

FComputeEx RunOnHostForGPUEx(FComputeEx cpu_fn) {
  return [cpu_fn](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<NDArray>& outputs) {
    for (const Resource& r : ctx.requested) {
      CHECK(r.req.type == ResourceRequest::kRandom)
          << attrs.op->name << ": a host fallback can pass on kRandom resources only";
    }
    cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
    std::vector<NDArray> hin, hout;
    for (const NDArray& a : inputs) hin.push_back(HostCopy(a, stream));
    for (size_t i = 0; i < outputs.size(); ++i) {
      const bool keep = req[i] == kAddTo || req[i] == kWriteInplace;
      hout.push_back(keep ? HostCopy(outputs[i], stream) : HostLike(outputs[i]));
    }
    CUDA_CALL(cudaStreamSynchronize(stream));
    cpu_fn(attrs, HostContext(ctx), hin, req, hout);
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (req[i] == kNullOp) continue;
      const NDArray& out = outputs[i];
      if (!out.is_sparse()) {
        CopyBytes(out.data().dptr_, hout[i].data().dptr_, ArrayBytes(out), stream);
        continue;
      }
      std::vector<NDArray> aux;
      for (size_t k = 0; k < hout[i].num_aux(); ++k) {
        aux.push_back(DenseCopy(hout[i].sparse_aux(k), out.ctx(), stream));
      }
      out.SetSparseParts(DenseCopy(hout[i].sparse_data(), out.ctx(), stream), aux);
    }
  };
}

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
