/*!
 * \file identity_attach_KL_sparse_reg.cc
 * \brief Registration of IdentityAttachKLSparseReg (legacy OperatorProperty).
 */
#include "./identity_attach_KL_sparse_reg-inl.h"

namespace mxnet {
namespace op {

Operator* IdentityAttachKLSparseRegProp::CreateOperator(Context ctx) const {
#if MXNET_USE_CUDA
  if (ctx.dev_mask() == gpu::kDevMask) return CreateIdentityAttachKLSparseRegGPU(param_);
#endif
  if (ctx.dev_mask() != cpu::kDevMask) {
    MX_THROW(NotImplementedError) << "IdentityAttachKLSparseReg: no implementation for " << ctx;
  }
  return new IdentityAttachKLSparseRegOp<cpu>(param_);
}

DMLC_REGISTER_PARAMETER(IdentityAttachKLSparseRegParam);

MXNET_REGISTER_OP_PROPERTY(IdentityAttachKLSparseReg, IdentityAttachKLSparseRegProp)
.describe(R"code(Apply a sparse regularization to the output of a sigmoid activation function.

The output is the input; the gradient gets the derivative of a KL-divergence penalty between
``sparseness_target`` and a moving average of each unit's mean activation (aux state
``moving_avg``, updated by backward with ``momentum``).
)code" ADD_FILELINE)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("moving_avg", "NDArray-or-Symbol",
              "Auxiliary state: moving average of each unit's mean activation (updated by "
              "backward). Listed so that mx.nd can pass it; MXNet 1.9.1 only takes it "
              "through symbols.")
.add_arguments(IdentityAttachKLSparseRegParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
