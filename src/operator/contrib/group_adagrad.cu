/*!
 * \file group_adagrad.cu
 * \brief _contrib_group_adagrad_update with a dense gradient on the GPU (group_adagrad-inl.h).
 */
#include "./group_adagrad-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_group_adagrad_update)
.set_attr<FCompute>("FCompute<gpu>", GroupAdagradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
