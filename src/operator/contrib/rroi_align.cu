/*!
 * \file rroi_align.cu
 * \brief _contrib_RROIAlign on the GPU: rroi_align-inl.h's kernel (forward only, as on the CPU).
 */
#include "./rroi_align-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_RROIAlign).set_attr<FCompute>("FCompute<gpu>", RROIAlignCompute<gpu>);

}  // namespace op
}  // namespace mxnet
