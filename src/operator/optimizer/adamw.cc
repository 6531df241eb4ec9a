/*!
 * \file adamw.cc
 * \brief _adamw_update, _mp_adamw_update and _multi_(mp_)adamw_update: Adam with decoupled
 *        weight decay (Loshchilov & Hutter). rescale_grad is an input array (one element), so loss scaling
 *        can change without re-parsing attributes; a non-finite rescale_grad (an overflow under
 *        AMP) skips the update and leaves weight and states unchanged.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
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

DMLC_REGISTER_PARAMETER(AdamWParam);

namespace {

/*! \brief inputs: weight, grad, mean, var[, weight32], rescale_grad. */
template <bool mp>
void AdamWCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& out) {
  const AdamWParam& p = nnvm::get<AdamWParam>(attrs.parsed);
  const TBlob& scale_blob = in.back();
  double rescale = 0;
  MSHADOW_REAL_TYPE_SWITCH(scale_blob.type_flag_, SType, {
    rescale = static_cast<double>(scale_blob.dptr<SType>()[0]);
  });
  MSHADOW_REAL_TYPE_SWITCH(out[0].type_flag_, DType, {
    typedef typename std::conditional<mp, float, DType>::type MType;
    typedef OptAcc<MType> A;
    const DType* w = in[0].dptr<DType>();
    const DType* g = in[1].dptr<DType>();
    MType* mean = in[2].dptr<MType>();
    MType* var = in[3].dptr<MType>();
    MType* w32 = mp ? in[4].dptr<MType>() : nullptr;
    DType* o = out[0].dptr<DType>();
    const OpReqType rq = req[0];
    if (!std::isfinite(rescale) || rescale == 0) {  // skip: keep the weight
      if (o != w) OptLaunch(in[0].Size(), [=](index_t i) { OptAssign(o, i, rq, static_cast<A>(w[i])); });
      return;
    }
    const A rs = static_cast<A>(rescale);
    OptLaunch(in[0].Size(), [=](index_t i) {
      const A weight = w32 != nullptr ? static_cast<A>(w32[i]) : static_cast<A>(w[i]);
      const A grad = OptClip(rs * static_cast<A>(g[i]), A(p.clip_gradient));
      const A m = A(p.beta1) * static_cast<A>(mean[i]) + (A(1) - A(p.beta1)) * grad;
      const A v = A(p.beta2) * static_cast<A>(var[i]) + (A(1) - A(p.beta2)) * grad * grad;
      mean[i] = MType(m);
      var[i] = MType(v);
      const A nw = weight - A(p.eta) * (A(p.lr) * m / (std::sqrt(v) + A(p.epsilon)) +
                                        A(p.wd) * weight);
      if (w32 != nullptr) w32[i] = MType(nw);
      OptAssign(o, i, rq, nw);
    });
  });
}

template <bool mp>
bool AdamWShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  mxnet::ShapeVector states(in->begin(), in->end() - 1);
  const bool ok = OptUpdateShape(attrs, &states, out);
  std::copy(states.begin(), states.end(), in->begin());
  SHAPE_ASSIGN_CHECK(*in, in->size() - 1, mxnet::TShape(1, 1));
  return ok;
}

template <bool mp>
bool AdamWType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int dtype = (*in)[0] >= 0 ? (*in)[0] : (*out)[0];
  if (dtype < 0) return false;
  const size_t n = in->size() - 1;
  for (size_t i = 0; i < n; ++i) TYPE_ASSIGN_CHECK(*in, i, (i < 2 || !mp) ? dtype : mshadow::kFloat32);
  if ((*in)[n] < 0) (*in)[n] = mshadow::kFloat32;
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_adamw_update)
.describe(R"code(Update function for AdamW optimizer. AdamW is seen as a modification of
Adam by decoupling the weight decay from the optimization steps taken w.r.t. the loss function.

Adam update consists of the following steps, where g represents gradient and m, v
are 1st and 2nd order moment estimates (mean and variance).

.. math::

 g_t = \nabla J(W_{t-1})\\
 m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t\\
 v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t^2\\
 W_t = W_{t-1} - \eta_t (\alpha \frac{ m_t }{ \sqrt{ v_t } + \epsilon } + wd W_{t-1})

It updates the weights using::

 m = beta1*m + (1-beta1)*grad
 v = beta2*v + (1-beta2)*(grad**2)
 w -= eta * (learning_rate * m / (sqrt(v) + epsilon) + w * wd)

Note that gradient is rescaled to grad = rescale_grad * grad. If rescale_grad is NaN, Inf, or 0,
the update is skipped.
)code" ADD_FILELINE)
.set_num_inputs(5)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AdamWParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"weight", "grad", "mean", "var", "rescale_grad"};
})
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const NodeAttrs& attrs) {
  return std::vector<uint32_t>{2, 3};
})
.set_attr<mxnet::FInferShape>("FInferShape", AdamWShape<false>)
.set_attr<nnvm::FInferType>("FInferType", AdamWType<false>)
.set_attr<FCompute>("FCompute<cpu>", AdamWCompute<false>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_argument("rescale_grad", "NDArray-or-Symbol", "Rescale gradient to rescale_grad * grad. If NaN, Inf, or 0, the update is skipped.")
.add_arguments(AdamWParam::__FIELDS__());

NNVM_REGISTER_OP(_mp_adamw_update)
.describe(R"code(Update function for multi-precision AdamW optimizer: as _adamw_update, on the
float32 master copy ``weight32`` (updated in place) which is cast into ``weight``.
)code" ADD_FILELINE)
.set_num_inputs(6)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AdamWParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"weight", "grad", "mean", "var", "weight32", "rescale_grad"};
})
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const NodeAttrs& attrs) {
  return std::vector<uint32_t>{2, 3, 4};
})
.set_attr<mxnet::FInferShape>("FInferShape", AdamWShape<true>)
.set_attr<nnvm::FInferType>("FInferType", AdamWType<true>)
.set_attr<FCompute>("FCompute<cpu>", AdamWCompute<true>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_argument("rescale_grad", "NDArray-or-Symbol", "Rescale gradient to rescale_grad * grad. If NaN, Inf, or 0, the update is skipped.")
.add_arguments(AdamWParam::__FIELDS__());

// ---- _multi_adamw_update, _multi_mp_adamw_update ----------------------------------------------

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

DMLC_REGISTER_PARAMETER(MultiAdamWParam);

namespace {

const MultiAdamWParam& CheckedMultiAdamW(const char* op, const nnvm::NodeAttrs& attrs) {
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
nnvm::NodeAttrs WeightAttrs(const MultiAdamWParam& p, int i) {
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
template <bool mp>
void MultiAdamWCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& out) {
  const MultiAdamWParam& p = CheckedMultiAdamW(mp ? "_multi_mp_adamw_update"
                                                  : "_multi_adamw_update", attrs);
  const int group = mp ? 5 : 4;
  for (int i = 0; i < p.num_weights; ++i) {
    std::vector<TBlob> one(in.begin() + i * group, in.begin() + (i + 1) * group);
    one.push_back(in.back());
    AdamWCompute<mp>(WeightAttrs(p, i), ctx, one, {req[i]}, {out[i]});
  }
}

int NumWeights(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<MultiAdamWParam>(attrs.parsed).num_weights;
}

template <bool mp>
bool MultiAdamWShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out) {
  const MultiAdamWParam& p = CheckedMultiAdamW("_multi_adamw_update", attrs);
  const bool ok = GroupedUpdateShape(attrs, in, out, p.num_weights, mp ? 5 : 4);
  SHAPE_ASSIGN_CHECK(*in, in->size() - 1, mxnet::TShape(1, 1));
  return ok;
}

template <bool mp>
bool MultiAdamWType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const MultiAdamWParam& p = CheckedMultiAdamW("_multi_adamw_update", attrs);
  const bool ok = GroupedUpdateType(in, out, p.num_weights, mp ? 5 : 4, mp);
  if (in->back() < 0) in->back() = mshadow::kFloat32;
  return ok;
}

}  // namespace

MXNET_REGISTER_GROUPED_UPDATE(_multi_adamw_update, NumWeights,
                              (std::vector<std::string>{"weight", "grad", "mean", "var"}),
                              {"rescale_grad"})
.describe(R"code(Update function for AdamW optimizer, for several weights at once.

The inputs are ``weight_i, grad_i, mean_i, var_i`` for every weight, then one
``rescale_grad`` array shared by all of them; ``lrs``, ``wds`` and ``etas`` give one value per
weight. Each weight is updated as by _adamw_update::

 m = beta1*m + (1-beta1)*grad
 v = beta2*v + (1-beta2)*(grad**2)
 w -= eta * (learning_rate * m / (sqrt(v) + epsilon) + w * wd)

If rescale_grad is NaN, Inf, or 0, the update is skipped.
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<MultiAdamWParam>)
.set_attr<mxnet::FInferShape>("FInferShape", MultiAdamWShape<false>)
.set_attr<nnvm::FInferType>("FInferType", MultiAdamWType<false>)
.set_attr<FCompute>("FCompute<cpu>", MultiAdamWCompute<false>)
.add_argument("data", "NDArray-or-Symbol[]", "data")
.add_arguments(MultiAdamWParam::__FIELDS__());

MXNET_REGISTER_GROUPED_UPDATE(_multi_mp_adamw_update, NumWeights,
                              (std::vector<std::string>{"weight", "grad", "mean", "var",
                                                        "weight32"}),
                              {"rescale_grad"})
.describe(R"code(Update function for multi-precision AdamW optimizer, for several weights at
once: the inputs are ``weight_i, grad_i, mean_i, var_i, weight32_i`` for every weight, then
one ``rescale_grad`` array; each float32 master copy ``weight32_i`` is updated in place and
cast into ``weight_i``.
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<MultiAdamWParam>)
.set_attr<mxnet::FInferShape>("FInferShape", MultiAdamWShape<true>)
.set_attr<nnvm::FInferType>("FInferType", MultiAdamWType<true>)
.set_attr<FCompute>("FCompute<cpu>", MultiAdamWCompute<true>)
.add_argument("data", "NDArray-or-Symbol[]", "data")
.add_arguments(MultiAdamWParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
