/*!
 * \file optimizer_op.cu
 * \brief GPU kernels of the optimizer updates: SGD (with momentum, mixed precision, multi_),
 *        NAG, Adam, RMSProp(Alex), FTRL, FTML, SignSGD and Signum: the step functors of
 *        optimizer_op-inl.h, the same code as the CPU's loops; and LAMB's two phases.
 */
#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {
namespace {

/*!
 * \brief inputs: weight, grad[, mom][, weight32]; outputs: weight. The momentum and master
 *        weight are updated in place (FMutateInputs).
 */
template <bool kMom, bool kMP>
void SGDUpdateGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& out) {
  float lr, wd, momentum = 0.f, rescale, clip;
  if constexpr (kMom) {
    const SGDMomParam& p = nnvm::get<SGDMomParam>(attrs.parsed);
    lr = p.lr, wd = p.wd, momentum = p.momentum, rescale = p.rescale_grad, clip = p.clip_gradient;
  } else {
    const SGDParam& p = nnvm::get<SGDParam>(attrs.parsed);
    lr = p.lr, wd = p.wd, rescale = p.rescale_grad, clip = p.clip_gradient;
  }
  MSHADOW_REAL_TYPE_SWITCH(out[0].type_flag_, DType, {
    typedef typename std::conditional<kMP, float, DType>::type MType;
    MType* mom = kMom ? in[2].dptr<MType>() : static_cast<MType*>(nullptr);
    MType* w32 = kMP ? in[kMom ? 3 : 2].dptr<MType>() : static_cast<MType*>(nullptr);
    mxnet_op::Kernel<sgd_step, gpu>::Launch(
        ctx.get_stream<gpu>(), static_cast<index_t>(in[0].Size()), out[0].dptr<DType>(),
        in[0].dptr<DType>(), in[1].dptr<DType>(), mom, w32, lr, wd, momentum, rescale, clip,
        req[0]);
  });
}

/*!
 * \brief multi_*: group k of `per` inputs is (weight, grad[, mom][, weight32]); one launch
 *        each.
 */
template <bool kMom, bool kMP>
void MultiSGDUpdateGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& out) {
  const int per = 2 + (kMom ? 1 : 0) + (kMP ? 1 : 0);
  float momentum = 0.f, rescale, clip;
  const mxnet::Tuple<float>* lrs;
  const mxnet::Tuple<float>* wds;
  int num;
  if constexpr (kMom) {
    const MultiSGDMomParam& p = nnvm::get<MultiSGDMomParam>(attrs.parsed);
    momentum = p.momentum, rescale = p.rescale_grad, clip = p.clip_gradient;
    lrs = &p.lrs, wds = &p.wds, num = p.num_weights;
  } else {
    const MultiSGDParam& p = nnvm::get<MultiSGDParam>(attrs.parsed);
    rescale = p.rescale_grad, clip = p.clip_gradient;
    lrs = &p.lrs, wds = &p.wds, num = p.num_weights;
  }
  for (int k = 0; k < num; ++k) {
    const TBlob& w = in[k * per];
    MSHADOW_REAL_TYPE_SWITCH(w.type_flag_, DType, {
      typedef typename std::conditional<kMP, float, DType>::type MType;
      MType* mom = kMom ? in[k * per + 2].dptr<MType>() : static_cast<MType*>(nullptr);
      MType* w32 = kMP ? in[k * per + per - 1].dptr<MType>() : static_cast<MType*>(nullptr);
      mxnet_op::Kernel<sgd_step, gpu>::Launch(
          ctx.get_stream<gpu>(), static_cast<index_t>(w.Size()), out[k].dptr<DType>(),
          w.dptr<DType>(), in[k * per + 1].dptr<DType>(), mom, w32, (*lrs)[k], (*wds)[k],
          momentum, rescale, clip, req[k]);
    });
  }
}

}  // namespace

NNVM_REGISTER_OP(multi_sgd_update)
.set_attr<FCompute>("FCompute<gpu>", MultiSGDUpdateGPU<false, false>);
NNVM_REGISTER_OP(multi_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", MultiSGDUpdateGPU<true, false>);
NNVM_REGISTER_OP(multi_mp_sgd_update)
.set_attr<FCompute>("FCompute<gpu>", MultiSGDUpdateGPU<false, true>);
NNVM_REGISTER_OP(multi_mp_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", MultiSGDUpdateGPU<true, true>);
NNVM_REGISTER_OP(nag_mom_update)
.set_attr<FCompute>("FCompute<gpu>", (NAGMomUpdateCompute<gpu, false>));
NNVM_REGISTER_OP(mp_nag_mom_update)
.set_attr<FCompute>("FCompute<gpu>", (NAGMomUpdateCompute<gpu, true>));
NNVM_REGISTER_OP(adam_update).set_attr<FCompute>("FCompute<gpu>", AdamUpdateCompute<gpu>);
NNVM_REGISTER_OP(rmsprop_update).set_attr<FCompute>("FCompute<gpu>", RMSPropUpdateCompute<gpu>);
NNVM_REGISTER_OP(rmspropalex_update)
.set_attr<FCompute>("FCompute<gpu>", RMSPropAlexUpdateCompute<gpu>);
NNVM_REGISTER_OP(ftrl_update).set_attr<FCompute>("FCompute<gpu>", FtrlUpdateCompute<gpu>);
NNVM_REGISTER_OP(ftml_update).set_attr<FCompute>("FCompute<gpu>", FTMLUpdateCompute<gpu>);
NNVM_REGISTER_OP(signsgd_update).set_attr<FCompute>("FCompute<gpu>", SignSGDUpdateCompute<gpu>);
NNVM_REGISTER_OP(signum_update).set_attr<FCompute>("FCompute<gpu>", SignumUpdateCompute<gpu>);
NNVM_REGISTER_OP(lamb_update_phase1)
.set_attr<FCompute>("FCompute<gpu>", (LambPhaseOneCompute<gpu, false>));
NNVM_REGISTER_OP(lamb_update_phase2)
.set_attr<FCompute>("FCompute<gpu>", (LambPhaseTwoCompute<gpu, false>));
NNVM_REGISTER_OP(mp_lamb_update_phase1)
.set_attr<FCompute>("FCompute<gpu>", (LambPhaseOneCompute<gpu, true>));
NNVM_REGISTER_OP(mp_lamb_update_phase2)
.set_attr<FCompute>("FCompute<gpu>", (LambPhaseTwoCompute<gpu, true>));
NNVM_REGISTER_OP(sgd_update).set_attr<FCompute>("FCompute<gpu>", SGDUpdateGPU<false, false>);
NNVM_REGISTER_OP(sgd_mom_update).set_attr<FCompute>("FCompute<gpu>", SGDUpdateGPU<true, false>);
NNVM_REGISTER_OP(mp_sgd_update).set_attr<FCompute>("FCompute<gpu>", SGDUpdateGPU<false, true>);
NNVM_REGISTER_OP(mp_sgd_mom_update)
.set_attr<FCompute>("FCompute<gpu>", SGDUpdateGPU<true, true>);

}  // namespace op
}  // namespace mxnet
