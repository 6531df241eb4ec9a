/*!
 * \file rnn.cu
 * \brief RNN, _backward_RNN and _rnn_param_concat on the GPU: rnn_generic-inl.h's kernels and
 *        cuBLAS GEMMs (the CPU's algorithm and reserve layout), with the sequence lengths
 *        copied to the host, checked there and the checked integers copied back, and dropout masks from per-element
 *        Philox streams seeded by mx.random.seed. With cuDNN, the calls cudnn_rnn::Applies
 *        to run on cuDNN's fused RNN instead (cudnn/cudnn_rnn.h).
 */
#include "./dropout-inl.h"
#include "./rnn_generic-inl.h"
#include "./rnn_param_concat-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>
#include <mxnet/random_generator.h>

#include "../../common/cuda_utils.h"
#include "./cudnn/cudnn_rnn.h"

namespace mxnet {
namespace op {
namespace rnn_generic {

std::vector<index_t> CheckedLengths(mshadow::Stream<gpu>* s, const RNNParam& param,
                                    const RNNInputs& idx, const std::vector<TBlob>& in,
                                    const RNNDims& dm) {
  if (idx.seq_len < 0) return RNNLengths(param, idx, in, dm);
  const TBlob& dev = in[idx.seq_len];
  std::vector<char> copy(dev.Size() * mshadow::mshadow_sizeof(dev.type_flag_));
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  if (!copy.empty()) {
    CUDA_CALL(cudaMemcpyAsync(copy.data(), dev.dptr_, copy.size(), cudaMemcpyDeviceToHost,
                              stream));
    CUDA_CALL(cudaStreamSynchronize(stream));
  }
  std::vector<TBlob> host_in(in);
  host_in[idx.seq_len] =
      TBlob(static_cast<void*>(copy.data()), dev.shape_, cpu::kDevMask, dev.type_flag_);
  return RNNLengths(param, idx, host_in, dm);
}

const index_t* LengthsForKernels(mshadow::Stream<gpu>* s, const std::vector<index_t>& len,
                                 index_t* device) {
  // From pageable memory: staged before the call returns, so `len` may go away after.
  CUDA_CALL(cudaMemcpyAsync(device, len.data(), len.size() * sizeof(index_t),
                            cudaMemcpyHostToDevice, mshadow::Stream<gpu>::GetStream(s)));
  return device;
}

template <typename DType>
void DropoutMask(const OpContext& ctx, mshadow::Stream<gpu>* s, DType* mask, index_t n,
                 float keep) {
  auto* gen = ctx.requested[1].get_parallel_random<gpu, float>();
  Kernel<dropout_mask_philox, gpu>::Launch(s, n, mask, gen->seed(), gen->NextCall(), keep,
                                           DType(keep > 0 ? 1.0 / keep : 0.0));
}

}  // namespace rnn_generic

#if MXNET_USE_CUDNN
void cudnn_rnn::AssignOnGpu(mshadow::Stream<gpu>* s, int dtype, void* dst, const void* src,
                            index_t n, OpReqType req) {
  MSHADOW_REAL_TYPE_SWITCH(dtype, DType, {
    rnn_generic::AssignReq<gpu, DType>(s, static_cast<DType*>(dst),
                                       static_cast<const DType*>(src), n, req);
  });
}
#endif

namespace {

#if MXNET_USE_CUDNN
/*! \brief Runs run(lengths) when cuDNN covers the call (forward and backward decide alike from
 *         the forward's inputs `fwd_in`) and says whether it did. */
template <typename Run>
bool RanOnCudnn(const RNNParam& param, const OpContext& ctx, const std::vector<TBlob>& fwd_in,
                Run run) {
  if (!cudnn_rnn::Applies(param, fwd_in[0].type_flag_)) return false;
  const RNNInputs idx(param);
  const RNNDims dm(param, fwd_in[idx.data].shape_);
  const std::vector<index_t> len =
      rnn_generic::CheckedLengths(ctx.get_stream<gpu>(), param, idx, fwd_in, dm);
  if (!cudnn_rnn::LengthsApply(len)) return false;
  run(len);
  return true;
}
#endif

/*! \brief cuDNN's fused RNN for the calls it covers, the generic kernels for the others. */
void RNNComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
#if MXNET_USE_CUDNN
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  if (RanOnCudnn(param, ctx, inputs, [&](const std::vector<index_t>& len) {
        cudnn_rnn::Forward(param, ctx, len, inputs, req, outputs);
      })) {
    return;
  }
#endif
  rnn_generic::Compute<gpu>(attrs, ctx, inputs, req, outputs);
}

void RNNGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
#if MXNET_USE_CUDNN
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  const int nvis = RNNNumVisibleOutputs(param);
  const std::vector<TBlob> fwd_in(inputs.begin() + nvis, inputs.end() - 1);
  if (RanOnCudnn(param, ctx, fwd_in, [&](const std::vector<index_t>& len) {
        cudnn_rnn::Backward(param, ctx, len, inputs, req, outputs);
      })) {
    return;
  }
#endif
  rnn_generic::GradCompute<gpu>(attrs, ctx, inputs, req, outputs);
}

}  // namespace

NNVM_REGISTER_OP(RNN).set_attr<FCompute>("FCompute<gpu>", RNNComputeGPU);
NNVM_REGISTER_OP(_backward_RNN).set_attr<FCompute>("FCompute<gpu>", RNNGradComputeGPU);
NNVM_REGISTER_OP(_rnn_param_concat)
.set_attr<FCompute>("FCompute<gpu>", RNNParamConcatCompute<gpu>);
NNVM_REGISTER_OP(_backward_rnn_param_concat)
.set_attr<FCompute>("FCompute<gpu>", RNNParamConcatBackward<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
