/*!
 * \file quantized_pooling.cu
 * \brief _contrib_quantized_pooling on the GPU: one thread per output element, the element
 *        function of quantized_pooling-inl.h.
 */
#include "./quantized_pooling-inl.h"

#if MXNET_USE_CUDA
namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_quantized_pooling)
.set_attr<FCompute>("FCompute<gpu>", QuantizedPoolingCompute<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
