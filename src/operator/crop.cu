/*!
 * \file crop.cu
 * \brief Crop and its gradient on the GPU: crop-inl.h's strided gather and scatter.
 */
#include "./crop-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(Crop).set_attr<FCompute>("FCompute<gpu>", CropCompute<gpu>);
NNVM_REGISTER_OP(_backward_Crop).set_attr<FCompute>("FCompute<gpu>", CropGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
