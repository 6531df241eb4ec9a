/*!
 * \file arange_like.cu
 * \brief _contrib_arange_like on the GPU (arange_like-inl.h).
 */
#include "./arange_like-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_arange_like)
.set_attr<FCompute>("FCompute<gpu>", ArangeLikeCompute<gpu>);

}  // namespace op
}  // namespace mxnet
