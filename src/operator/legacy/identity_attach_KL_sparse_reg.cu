/*!
 * \file identity_attach_KL_sparse_reg.cu
 * \brief IdentityAttachKLSparseReg on the GPU: the -inl.h kernels (one thread per unit for the
 *        moving average and penalty, one per element for the gradient).
 */
#include "./identity_attach_KL_sparse_reg-inl.h"

namespace mxnet {
namespace op {

Operator* CreateIdentityAttachKLSparseRegGPU(const IdentityAttachKLSparseRegParam& param) {
  return new IdentityAttachKLSparseRegOp<gpu>(param);
}

}  // namespace op
}  // namespace mxnet
