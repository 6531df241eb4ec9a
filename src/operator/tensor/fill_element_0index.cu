/*!
 * \file fill_element_0index.cu
 * \brief fill_element_0index on the GPU (fill_element_0index-inl.h).
 */
#include "./fill_element_0index-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(fill_element_0index)
.set_attr<FCompute>("FCompute<gpu>", FillElementCompute<gpu>);

}  // namespace op
}  // namespace mxnet
