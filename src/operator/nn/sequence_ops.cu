/*!
 * \file sequence_ops.cu
 * \brief SequenceLast, SequenceReverse and their gradients on the GPU: sequence_ops-inl.h's
 *        kernels, with the sequence lengths checked on the host (a copy of the (batch,)
 *        lengths there and the checked integers back) so that a bad length is an error, not an
 *        access outside the data.
 */
#include "./sequence_ops-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {

const index_t* SequenceLengthsForKernels(const OpContext& ctx, const char* op,
                                         const SequenceOpParam& p, const TBlob* lengths,
                                         const TShape& data_shape, const SequenceLayout& l,
                                         index_t min_len, mshadow::Stream<gpu>* s,
                                         std::vector<index_t>* host) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  std::vector<char> copy;
  TBlob host_lengths;
  if (p.use_sequence_length) {
    const size_t bytes = lengths->Size() * mshadow::mshadow_sizeof(lengths->type_flag_);
    copy.resize(bytes);
    if (bytes > 0) {
      CUDA_CALL(cudaMemcpyAsync(copy.data(), lengths->dptr_, bytes, cudaMemcpyDeviceToHost,
                                stream));
      CUDA_CALL(cudaStreamSynchronize(stream));
    }
    host_lengths = TBlob(static_cast<void*>(copy.data()), lengths->shape_, cpu::kDevMask,
                         lengths->type_flag_);
  }
  *host = CheckedSequenceLengths(op, p, &host_lengths, data_shape, l, min_len);
  index_t* dev = static_cast<index_t*>(
      ctx.requested[0].get_space_internal(std::max<size_t>(host->size(), 1) * sizeof(index_t)));
  // From pageable memory: staged before the call returns, so `host` may go away after.
  CUDA_CALL(cudaMemcpyAsync(dev, host->data(), host->size() * sizeof(index_t),
                            cudaMemcpyHostToDevice, stream));
  return dev;
}

NNVM_REGISTER_OP(SequenceLast).set_attr<FCompute>("FCompute<gpu>", SequenceLastCompute<gpu>);
NNVM_REGISTER_OP(_backward_SequenceLast)
.set_attr<FCompute>("FCompute<gpu>", SequenceLastGradCompute<gpu>);
NNVM_REGISTER_OP(SequenceReverse)
.set_attr<FCompute>("FCompute<gpu>", SequenceReverseCompute<gpu>);
NNVM_REGISTER_OP(_backward_SequenceReverse)
.set_attr<FCompute>("FCompute<gpu>", SequenceReverseGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
