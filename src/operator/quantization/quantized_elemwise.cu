/*!
 * \file quantized_elemwise.cu
 * \brief quantized flatten, act (relu), elemwise_add, elemwise_mul, concat and embedding on the
 *        GPU, and quantized batch_norm: the kernels of quantized_elemwise-inl.h.
 */
#include "./quantized_elemwise-inl.h"

#if MXNET_USE_CUDA
namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_quantized_flatten)
.set_attr<FCompute>("FCompute<gpu>", QuantizedFlattenCompute<gpu>);
NNVM_REGISTER_OP(_contrib_quantized_act)
.set_attr<FCompute>("FCompute<gpu>", QuantizedActCompute<gpu>);
NNVM_REGISTER_OP(_contrib_quantized_elemwise_add)
.set_attr<FCompute>("FCompute<gpu>", QuantizedAddCompute<gpu>);
NNVM_REGISTER_OP(_contrib_quantized_elemwise_mul)
.set_attr<FCompute>("FCompute<gpu>", QuantizedMulCompute<gpu>);
NNVM_REGISTER_OP(_contrib_quantized_concat)
.set_attr<FCompute>("FCompute<gpu>", QuantizedConcatCompute<gpu>);
NNVM_REGISTER_OP(_contrib_quantized_embedding)
.set_attr<FCompute>("FCompute<gpu>", QuantizedEmbeddingCompute<gpu>);
NNVM_REGISTER_OP(_contrib_quantized_batch_norm)
.set_attr<FCompute>("FCompute<gpu>", QuantizedBatchNormCompute<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
