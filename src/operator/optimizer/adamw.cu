/*!
 * \file adamw.cu
 * \brief FCompute<gpu> of _adamw_update, _mp_adamw_update and their _multi_ forms: AdamWStep
 *        (adamw-inl.h) launched as a kernel, reading rescale_grad on the device.
 */
#include "./adamw-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_adamw_update).set_attr<FCompute>("FCompute<gpu>", (AdamWCompute<gpu, false>));
NNVM_REGISTER_OP(_mp_adamw_update)
.set_attr<FCompute>("FCompute<gpu>", (AdamWCompute<gpu, true>));
NNVM_REGISTER_OP(_multi_adamw_update)
.set_attr<FCompute>("FCompute<gpu>", (MultiAdamWCompute<gpu, false>));
NNVM_REGISTER_OP(_multi_mp_adamw_update)
.set_attr<FCompute>("FCompute<gpu>", (MultiAdamWCompute<gpu, true>));

}  // namespace op
}  // namespace mxnet
