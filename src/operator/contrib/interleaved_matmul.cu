/*!
 * \file interleaved_matmul.cu
 * \brief The interleaved multi-head attention products and their gradients on the GPU:
 *        interleaved_matmul-inl.h's batched GEMMs on cuBLAS.
 */
#include "./interleaved_matmul-inl.h"

namespace mxnet {
namespace op {

using interleaved::Attention;
using interleaved::AttentionBackward;
using interleaved::AttentionForward;

#define MXNET_INTERLEAVED_MATMUL_GPU(NAME, KIND)                                           \
  NNVM_REGISTER_OP(_contrib_interleaved_matmul_##NAME)                                      \
  .set_attr<FCompute>("FCompute<gpu>", (AttentionForward<gpu, KIND>));                      \
  NNVM_REGISTER_OP(_backward_interleaved_matmul_##NAME)                                     \
  .set_attr<FCompute>("FCompute<gpu>", (AttentionBackward<gpu, KIND>))

MXNET_INTERLEAVED_MATMUL_GPU(selfatt_qk, Attention::kSelfQK);
MXNET_INTERLEAVED_MATMUL_GPU(selfatt_valatt, Attention::kSelfValAtt);
MXNET_INTERLEAVED_MATMUL_GPU(encdec_qk, Attention::kEncDecQK);
MXNET_INTERLEAVED_MATMUL_GPU(encdec_valatt, Attention::kEncDecValAtt);

}  // namespace op
}  // namespace mxnet
