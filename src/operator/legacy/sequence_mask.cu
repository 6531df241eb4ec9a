/*!
 * \file sequence_mask.cu
 * \brief SequenceMask on the GPU: sequence_mask-inl.h's kernel (lengths are read on the
 *        device, as on the CPU they are only compared, never used as addresses).
 */
#include "./sequence_mask-inl.h"

namespace mxnet {
namespace op {

Operator* CreateSequenceMaskGPU(const SequenceMaskParam& param) {
  return new SequenceMaskOp<gpu>(param);
}

}  // namespace op
}  // namespace mxnet
