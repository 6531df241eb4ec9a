/*!
 * \file transformer.cu
 * \brief _contrib_div_sqrt_dim on the GPU: transformer-inl.h's kernel.
 */
#include "./transformer-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_div_sqrt_dim)
.set_attr<FCompute>("FCompute<gpu>", DivSqrtDimCompute<gpu>);

}  // namespace op
}  // namespace mxnet
