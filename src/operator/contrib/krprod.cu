/*!
 * \file krprod.cu
 * \brief khatri_rao on the GPU (krprod-inl.h).
 */
#include "./krprod-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(khatri_rao).set_attr<FCompute>("FCompute<gpu>", KhatriRaoCompute<gpu>);

}  // namespace op
}  // namespace mxnet
