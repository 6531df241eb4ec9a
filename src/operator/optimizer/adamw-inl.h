/*!
 * \file adamw-inl.h
 * \brief AdamW (decoupled weight decay) for every device: the parameters, the step of one
 *        element and the FCompute of _adamw_update, _mp_adamw_update and their _multi_ forms.
 *        rescale_grad is a one-element input array; on the GPU every element reads it on the
 *        device, so a loss scale that overflowed (non-finite or 0) skips the update there
 *        without a copy to the host.
 */
#ifndef MXNET_OPERATOR_OPTIMIZER_ADAMW_INL_H_
#define MXNET_OPERATOR_OPTIMIZER_ADAMW_INL_H_

#include <cmath>
#include <vector>

#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

struct AdamWParam : public dmlc::Parameter<AdamWParam> {
  float lr, beta1, beta2, epsilon, wd, eta, clip_gradient;
  DMLC_DECLARE_PARAMETER(AdamWParam) {
    MXNET_OPT_LR_FIELD
    DMLC_DECLARE_FIELD(beta1).set_default(0.9f).describe("The decay rate for the 1st moment estimates.");
    DMLC_DECLARE_FIELD(beta2).set_default(0.999f).describe("The decay rate for the 2nd moment estimates.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-8f).describe("A small constant for numerical stability.");
    MXNET_OPT_WD_FIELD
    DMLC_DECLARE_FIELD(eta).describe("Learning rate schedule multiplier");
    MXNET_OPT_CLIP_FIELD
  }
};

struct MultiAdamWParam : public dmlc::Parameter<MultiAdamWParam> {
  mxnet::Tuple<float> lrs, wds, etas;
  float beta1, beta2, epsilon, clip_gradient;
  int num_weights;
  DMLC_DECLARE_PARAMETER(MultiAdamWParam) {
    DMLC_DECLARE_FIELD(lrs).describe("Learning rates");
    DMLC_DECLARE_FIELD(beta1).set_default(0.9f).describe("The decay rate for the 1st moment estimates.");
    DMLC_DECLARE_FIELD(beta2).set_default(0.999f).describe("The decay rate for the 2nd moment estimates.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-8f).describe("A small constant for numerical stability.");
    DMLC_DECLARE_FIELD(wds).describe(
        "Weight decay augments the objective function with a regularization term that penalizes "
        "large weights. The penalty scales with the square of the magnitude of each weight.");
    DMLC_DECLARE_FIELD(etas).describe("Learning rates schedule multiplier");
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(num_weights).set_default(1).describe("Number of updated weights.");
  }
};

/*! \brief Element i of a one-element array of any real dtype, on either device. */
MSHADOW_XINLINE double AdamWScale(const void* p, int dtype) {
  switch (dtype) {
    case mshadow::kFloat64: return *static_cast<const double*>(p);
    case mshadow::kFloat16:
      return static_cast<double>(static_cast<float>(*static_cast<const mshadow::half::half_t*>(p)));
    default: return static_cast<double>(*static_cast<const float*>(p));
  }
}

/*!
 * \brief One element of AdamW: weight w (DType), master copy w32 (MType, mixed precision
 *        only), moments mean and var (MType) updated in place. Inputs: weight, grad, mean,
 *        var[, weight32], rescale_grad.
 */
template <typename DType, typename MType>
struct AdamWStep {
  typedef OptAcc<MType> A;
  const DType* w;
  const DType* g;
  MType* mean;
  MType* var;
  MType* w32;
  DType* o;
  const void* scale;
  int scale_dtype;
  float lr, beta1, beta2, epsilon, wd, eta, clip;
  OpReqType req;
  AdamWStep(const AdamWParam& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out,
            bool mp)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), mean(in[2].dptr<MType>()),
        var(in[3].dptr<MType>()), w32(mp ? in[4].dptr<MType>() : nullptr),
        o(out.dptr<DType>()), scale(in.back().dptr_), scale_dtype(in.back().type_flag_),
        lr(p.lr), beta1(p.beta1), beta2(p.beta2), epsilon(p.epsilon), wd(p.wd), eta(p.eta),
        clip(p.clip_gradient), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    const double rescale = AdamWScale(scale, scale_dtype);
    if (!(rescale - rescale == 0.0) || rescale == 0) {  // skipped: the weight stays
      if (o != w) OptAssign(o, i, req, static_cast<A>(w[i]));
      return;
    }
    const A weight = w32 != nullptr ? static_cast<A>(w32[i]) : static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]), A(clip));
    const A m = A(beta1) * static_cast<A>(mean[i]) + (A(1) - A(beta1)) * grad;
    const A v = A(beta2) * static_cast<A>(var[i]) + (A(1) - A(beta2)) * grad * grad;
    mean[i] = MType(m);
    var[i] = MType(v);
    const A nw = weight - A(eta) * (A(lr) * m / (sqrt(v) + A(epsilon)) + A(wd) * weight);
    if (w32 != nullptr) w32[i] = MType(nw);
    OptAssign(o, i, req, nw);
  }
};

/*! \brief inputs: weight, grad, mean, var[, weight32], rescale_grad. */
template <typename xpu, bool mp>
void AdamWCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& out) {
  const AdamWParam& p = nnvm::get<AdamWParam>(attrs.parsed);
  const int scale_dtype = in.back().type_flag_;
  if (scale_dtype != mshadow::kFloat32 && scale_dtype != mshadow::kFloat64 &&
      scale_dtype != mshadow::kFloat16) {
    MX_THROW(::dmlc::TypeError) << (attrs.op != nullptr ? attrs.op->name : "_adamw_update")
                                << ": expected a floating-point rescale_grad, "
                                << "got " << mshadow::dtype_string(scale_dtype);
  }
  MSHADOW_REAL_TYPE_SWITCH(out[0].type_flag_, DType, {
    typedef AdamWStep<DType, typename std::conditional<mp, float, DType>::type> Step;
    OptRun(ctx.get_stream<xpu>(), static_cast<index_t>(in[0].Size()),
           Step(p, in, req[0], out[0], mp));
  });
}

inline const MultiAdamWParam& CheckedMultiAdamW(const char* op, const nnvm::NodeAttrs& attrs) {
  const MultiAdamWParam& p = nnvm::get<MultiAdamWParam>(attrs.parsed);
  if (p.num_weights < 1 || p.lrs.ndim() != p.num_weights || p.wds.ndim() != p.num_weights ||
      p.etas.ndim() != p.num_weights) {
    MX_THROW(ValueError) << op << ": lrs, wds and etas need num_weights = " << p.num_weights
                         << " values each, got " << p.lrs.ndim() << ", " << p.wds.ndim()
                         << " and " << p.etas.ndim();
  }
  return p;
}

/*! \brief The per-weight AdamW attributes of weight i. */
inline nnvm::NodeAttrs WeightAttrs(const MultiAdamWParam& p, int i) {
  AdamWParam one;
  one.lr = p.lrs[i];
  one.wd = p.wds[i];
  one.eta = p.etas[i];
  one.beta1 = p.beta1;
  one.beta2 = p.beta2;
  one.epsilon = p.epsilon;
  one.clip_gradient = p.clip_gradient;
  nnvm::NodeAttrs attrs;
  attrs.parsed = one;
  return attrs;
}

/*! \brief inputs: (weight, grad, mean, var[, weight32]) per weight, then rescale_grad. */
template <typename xpu, bool mp>
void MultiAdamWCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& out) {
  const MultiAdamWParam& p = CheckedMultiAdamW(mp ? "_multi_mp_adamw_update"
                                                  : "_multi_adamw_update", attrs);
  const int group = mp ? 5 : 4;
  for (int i = 0; i < p.num_weights; ++i) {
    std::vector<TBlob> one(in.begin() + i * group, in.begin() + (i + 1) * group);
    one.push_back(in.back());
    nnvm::NodeAttrs one_attrs = WeightAttrs(p, i);
    one_attrs.op = attrs.op;
    AdamWCompute<xpu, mp>(one_attrs, ctx, one, {req[i]}, {out[i]});
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_OPTIMIZER_ADAMW_INL_H_
