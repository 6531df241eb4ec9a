/*!
 * \file indexing_op_nd.cu
 * \brief GPU kernels of gather_nd (and its gradient), scatter_nd and _scatter_set_nd. The index
 *        tuples are read on the host once, checked and turned into row offsets by the CPU's
 *        NDIndexOffsets (an out-of-range index is an IndexError naming the operator), then the
 *        rows are moved by kernels. Duplicate tuples: gather_nd's gradient adds them up
 *        (atomics); scatter_nd keeps one of them, as 1.9.1 documents.
 */
#include <vector>

#include "./broadcast_reduce_op-inl.h"
#include "./indexing_op-inl.h"

namespace mxnet {
namespace op {
namespace {

/*! \brief The offsets of the N index tuples on the device (checked on the host). */
template <typename IType>
const index_t* DeviceOffsets(mshadow::Stream<gpu>* s, const TBlob& indices, index_t M, index_t N,
                             const mxnet::TShape& dshape, const char* op,
                             reduce_gpu::Scratch* buf) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  std::vector<IType> host(indices.Size());
  CUDA_CALL(cudaMemcpyAsync(host.data(), indices.dptr_, host.size() * sizeof(IType),
                            cudaMemcpyDeviceToHost, stream));
  CUDA_CALL(cudaStreamSynchronize(stream));
  const std::vector<index_t> off = NDIndexOffsets(host.data(), M, N, dshape, op);
  *buf = reduce_gpu::Scratch(off.size() * sizeof(index_t));
  CUDA_CALL(cudaMemcpyAsync(buf->get<index_t>(), off.data(), off.size() * sizeof(index_t),
                            cudaMemcpyHostToDevice, stream));
  CUDA_CALL(cudaStreamSynchronize(stream));  // `off` is a host vector about to go away
  return buf->get<index_t>();
}

/*! \brief out[y, i] (req) = data[off[y] + i]. */
struct gather_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* data, const index_t* off, index_t K,
                                  DType* out, int req) {
    KERNEL_ASSIGN(out[t], req, data[off[t / K] + t % K]);
  }
};

/*! \brief out[off[y] + i] = in[y, i] (or += with atomics for the gradient). */
struct scatter_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t t, const DType* in, const index_t* off, index_t K,
                                  DType* out) {
    out[off[t / K] + t % K] = in[t];
  }
};
struct scatter_add_rows {
  template <typename DType>
  __device__ static void Map(index_t t, const DType* in, const index_t* off, index_t K,
                             DType* out) {
    indexing_gpu::AtomicAddTo(out + off[t / K] + t % K, in[t]);
  }
};

void GatherNDComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  index_t M, N, K;
  NDSplit(inputs[0].shape_, inputs[1].shape_, &M, &N, &K);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
    reduce_gpu::Scratch buf(0);
    const index_t* off =
        DeviceOffsets<IType>(s, inputs[1], M, N, inputs[0].shape_, "gather_nd", &buf);
    MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
      mxnet_op::Kernel<gather_rows, gpu>::Launch(s, N * K,
                                                 static_cast<const DType*>(inputs[0].dptr<DType>()),
                                                 off, K, outputs[0].dptr<DType>(),
                                                 static_cast<int>(req[0]));
    });
  });
}

/*! \brief inputs: ograd, indices; output: grad of data (scatter-add). */
void GatherNDBackwardGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  index_t M, N, K;
  NDSplit(outputs[0].shape_, inputs[1].shape_, &M, &N, &K);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  ZeroIfWrite(s, outputs[0], req[0]);
  MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
    reduce_gpu::Scratch buf(0);
    const index_t* off =
        DeviceOffsets<IType>(s, inputs[1], M, N, outputs[0].shape_, "gather_nd", &buf);
    MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
      mxnet_op::Kernel<scatter_add_rows, gpu>::Launch(
          s, N * K, static_cast<const DType*>(inputs[0].dptr<DType>()), off, K,
          outputs[0].dptr<DType>());
    });
  });
}

void ScatterNDComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  index_t M, N, K;
  NDSplit(outputs[0].shape_, inputs[1].shape_, &M, &N, &K);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
    reduce_gpu::Scratch buf(0);
    const index_t* off =
        DeviceOffsets<IType>(s, inputs[1], M, N, outputs[0].shape_, "scatter_nd", &buf);
    if (req[0] == kAddTo) {
      MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
        mxnet_op::Kernel<scatter_add_rows, gpu>::Launch(
            s, N * K, static_cast<const DType*>(inputs[0].dptr<DType>()), off, K,
            outputs[0].dptr<DType>());
      });
    } else {
      ZeroIfWrite(s, outputs[0], kWriteTo);
      MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[0].type_flag_, DType, {
        mxnet_op::Kernel<scatter_rows, gpu>::Launch(
            s, N * K, static_cast<const DType*>(inputs[0].dptr<DType>()), off, K,
            outputs[0].dptr<DType>());
      });
    }
  });
}

/*! \brief out = lhs (copied unless in place) with out[indices] = rhs. */
void ScatterSetNDComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "_scatter_set_nd: req kAddTo is not supported";
  }
  index_t M, N, K;
  NDSplit(outputs[0].shape_, inputs[2].shape_, &M, &N, &K);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  if (inputs[0].dptr_ != outputs[0].dptr_ && outputs[0].Size() > 0) {
    CUDA_CALL(cudaMemcpyAsync(outputs[0].dptr_, inputs[0].dptr_,
                              outputs[0].Size() * mshadow::mshadow_sizeof(outputs[0].type_flag_),
                              cudaMemcpyDeviceToDevice, mshadow::Stream<gpu>::GetStream(s)));
  }
  MSHADOW_TYPE_SWITCH(inputs[2].type_flag_, IType, {
    reduce_gpu::Scratch buf(0);
    const index_t* off =
        DeviceOffsets<IType>(s, inputs[2], M, N, outputs[0].shape_, "_scatter_set_nd", &buf);
    MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[0].type_flag_, DType, {
      mxnet_op::Kernel<scatter_rows, gpu>::Launch(
          s, N * K, static_cast<const DType*>(inputs[1].dptr<DType>()), off, K,
          outputs[0].dptr<DType>());
    });
  });
}

}  // namespace

NNVM_REGISTER_OP(gather_nd).set_attr<FCompute>("FCompute<gpu>", GatherNDComputeGPU);
NNVM_REGISTER_OP(_backward_gather_nd).set_attr<FCompute>("FCompute<gpu>", GatherNDBackwardGPU);
NNVM_REGISTER_OP(scatter_nd).set_attr<FCompute>("FCompute<gpu>", ScatterNDComputeGPU);
NNVM_REGISTER_OP(_scatter_set_nd).set_attr<FCompute>("FCompute<gpu>", ScatterSetNDComputeGPU);

}  // namespace op
}  // namespace mxnet
