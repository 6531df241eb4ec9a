/*!
 * \file optimizer_op.cu
 * \brief FCompute<gpu> of the optimizer updates: the SGD family through SGDRun<gpu>, the others
 *        through UpdateCompute<gpu, Step> (optimizer_op-inl.h): the same step code as the CPU's
 *        loops, launched as kernels.
 */
#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(sgd_update).set_attr<FCompute>("FCompute<gpu>", SGDCompute<gpu, SGDParam>);
NNVM_REGISTER_OP(sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", SGDCompute<gpu, SGDMomParam>);
NNVM_REGISTER_OP(mp_sgd_update)
.set_attr<FCompute>("FCompute<gpu>", (SGDCompute<gpu, SGDParam, true>));
NNVM_REGISTER_OP(mp_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", (SGDCompute<gpu, SGDMomParam, true>));
NNVM_REGISTER_OP(multi_sgd_update)
.set_attr<FCompute>("FCompute<gpu>", SGDCompute<gpu, MultiSGDParam>);
NNVM_REGISTER_OP(multi_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", SGDCompute<gpu, MultiSGDMomParam>);
NNVM_REGISTER_OP(multi_mp_sgd_update)
.set_attr<FCompute>("FCompute<gpu>", (SGDCompute<gpu, MultiSGDParam, true>));
NNVM_REGISTER_OP(multi_mp_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", (SGDCompute<gpu, MultiSGDMomParam, true>));
// preloaded_*: the kernels read lrs and wds from their input arrays on the device.
NNVM_REGISTER_OP(preloaded_multi_sgd_update)
.set_attr<FCompute>("FCompute<gpu>", SGDCompute<gpu, PreloadedMultiSGDParam>);
NNVM_REGISTER_OP(preloaded_multi_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", SGDCompute<gpu, PreloadedMultiSGDMomParam>);
NNVM_REGISTER_OP(preloaded_multi_mp_sgd_update)
.set_attr<FCompute>("FCompute<gpu>", (SGDCompute<gpu, PreloadedMultiSGDParam, true>));
NNVM_REGISTER_OP(preloaded_multi_mp_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", (SGDCompute<gpu, PreloadedMultiSGDMomParam, true>));
NNVM_REGISTER_OP(nag_mom_update).set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, NAGStep>));
NNVM_REGISTER_OP(mp_nag_mom_update)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, NAGStep, true>));
NNVM_REGISTER_OP(signsgd_update)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, SignSGDStep>));
NNVM_REGISTER_OP(signum_update)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, SignumStep>));
NNVM_REGISTER_OP(adam_update).set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, AdamStep>));
NNVM_REGISTER_OP(ftml_update).set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, FTMLStep>));
NNVM_REGISTER_OP(rmsprop_update)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, RMSPropStep>));
NNVM_REGISTER_OP(rmspropalex_update)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, RMSPropAlexStep>));
NNVM_REGISTER_OP(ftrl_update).set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, FtrlStep>));
NNVM_REGISTER_OP(lamb_update_phase1)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, LambPhaseOneStep>));
NNVM_REGISTER_OP(lamb_update_phase2)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, LambPhaseTwoStep>));
NNVM_REGISTER_OP(mp_lamb_update_phase1)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, LambPhaseOneStep, true>));
NNVM_REGISTER_OP(mp_lamb_update_phase2)
.set_attr<FCompute>("FCompute<gpu>", (UpdateCompute<gpu, LambPhaseTwoStep, true>));

}  // namespace op
}  // namespace mxnet
