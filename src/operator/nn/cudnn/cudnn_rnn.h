/*!
 * \file cudnn_rnn.h
 * \brief The fused RNN operator on cuDNN's v8 RNN API (CUDA builds with cuDNN only), the GPU's
 *        path for the calls it covers (Applies); rnn.cu runs rnn_generic-inl.h for the others.
 *
 *   if (cudnn_rnn::Applies(param, dtype) && cudnn_rnn::LengthsApply(len))
 *     cudnn_rnn::Forward(param, ctx, len, inputs, req, outputs);
 *
 * Weights: MXNet's flat vector (rnn-inl.h) is mapped onto cuDNN's weight space once per layer
 * geometry, matrix by matrix (cudnnGetRNNWeightParams); when the layouts agree the vector is
 * used in place, otherwise it is gathered into temp space and the weight gradient scattered
 * back.
 *
 * Reserve: the operator is stateless, so what the backward needs travels in the hidden
 * `reserve` output sized by shape inference for the generic path. When cuDNN's reserve fits
 * there (behind the forward output y, which cuDNN's backward also reads), a training forward
 * (is_train or need_grad) writes it and the backward uses a copy of it. Otherwise the forward
 * runs in inference mode and the backward re-runs the training forward into temp space. Both
 * sides take the same decision from the same sizes.
 *
 * LSTMP (projection_size) runs here only: the CPU and the generic kernels refuse it, as MXNet
 * 1.9.1 ran it on cuDNN only. cuDNN's extra linear layer 2G is the h2r matrix, without a bias.
 *
 * Not covered (the generic path runs them): dropout between layers (the masks come from
 * mx.random's generators), lstm_state_clip_nan, zero-length sequences, dtypes other than
 * float16/32/64, and MXNET_RNN_CUDNN=0.
 */
#ifndef MXNET_OPERATOR_NN_CUDNN_CUDNN_RNN_H_
#define MXNET_OPERATOR_NN_CUDNN_CUDNN_RNN_H_

#if MXNET_USE_CUDA && MXNET_USE_CUDNN
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../rnn-inl.h"

namespace mxnet {
namespace op {
namespace cudnn_rnn {

/*! \brief Whether a call with these parameters and dtype runs on cuDNN (file comment). */
bool Applies(const RNNParam& param, int dtype);

/*! \brief Whether cuDNN takes these checked sequence lengths (every one at least 1). */
bool LengthsApply(const std::vector<index_t>& len);

/*! \brief RNN's forward; `len` are the checked lengths (rnn_generic::CheckedLengths). */
void Forward(const RNNParam& param, const OpContext& ctx, const std::vector<index_t>& len,
             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
             const std::vector<TBlob>& outputs);

/*! \brief _backward_RNN: inputs are (output gradients, forward inputs, reserve). */
void Backward(const RNNParam& param, const OpContext& ctx, const std::vector<index_t>& len,
              const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
              const std::vector<TBlob>& outputs);

/*! \brief dst = src, or dst += src for kAddTo, over n elements of `dtype` on s's stream
 *         (kNullOp: nothing). A kernel, so it lives in rnn.cu. */
void AssignOnGpu(mshadow::Stream<gpu>* s, int dtype, void* dst, const void* src, index_t n,
                 OpReqType req);

}  // namespace cudnn_rnn
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_USE_CUDA && MXNET_USE_CUDNN
#endif  // MXNET_OPERATOR_NN_CUDNN_CUDNN_RNN_H_
