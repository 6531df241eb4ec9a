/*!
 * \file index_copy.cu
 * \brief _contrib_index_copy and its gradient on the GPU (index_copy-inl.h).
 */
#include "./index_copy-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_index_copy).set_attr<FCompute>("FCompute<gpu>", IndexCopyCompute<gpu>);
NNVM_REGISTER_OP(_contrib_backward_index_copy)
.set_attr<FCompute>("FCompute<gpu>", IndexCopyGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
