/*!
 * \file indexing_op.cu
 * \brief GPU kernels of take, batch_take, Embedding (and the gradients) and one_hot.
 */
#include "./indexing_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(take).set_attr<FCompute>("FCompute<gpu>", TakeCompute<gpu>);
NNVM_REGISTER_OP(_backward_take).set_attr<FCompute>("FCompute<gpu>", TakeBackward<gpu>);
NNVM_REGISTER_OP(batch_take).set_attr<FCompute>("FCompute<gpu>", BatchTakeCompute<gpu>);
NNVM_REGISTER_OP(Embedding).set_attr<FCompute>("FCompute<gpu>", EmbeddingCompute<gpu>);
NNVM_REGISTER_OP(_backward_Embedding)
.set_attr<FCompute>("FCompute<gpu>", EmbeddingBackward<gpu>);
NNVM_REGISTER_OP(one_hot).set_attr<FCompute>("FCompute<gpu>", OneHotCompute<gpu>);

}  // namespace op
}  // namespace mxnet
