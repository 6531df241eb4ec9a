/*!
 * \file sample_multinomial_op.cu
 * \brief _sample_multinomial, its gradient and _shuffle on the GPU
 *        (sample_multinomial_op-inl.h).
 */
#include "./sample_multinomial_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_sample_multinomial)
.set_attr<FCompute>("FCompute<gpu>", SampleMultinomialCompute<gpu>);
NNVM_REGISTER_OP(_backward_sample_multinomial)
.set_attr<FCompute>("FCompute<gpu>", SampleMultinomialBackward<gpu>);
NNVM_REGISTER_OP(_shuffle).set_attr<FCompute>("FCompute<gpu>", ShuffleCompute<gpu>);

}  // namespace op
}  // namespace mxnet
