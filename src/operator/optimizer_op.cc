/*!
 * \file optimizer_op.cc
 * \brief Optimizer update operators: sgd(_mom)_update, mp_sgd(_mom)_update, multi_(mp_)sgd(_mom)_
 *        update, nag_mom_update, mp_nag_mom_update, adam_update, rmsprop_update,
 *        rmspropalex_update, ftrl_update, ftml_update, signsgd_update, signum_update,
 *        lamb_update_phase1/2. See optimizer_op-inl.h for conventions.
 */
#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SGDParam);
DMLC_REGISTER_PARAMETER(SGDMomParam);
DMLC_REGISTER_PARAMETER(MultiSGDParam);
DMLC_REGISTER_PARAMETER(MultiSGDMomParam);
DMLC_REGISTER_PARAMETER(NAGMomParam);
DMLC_REGISTER_PARAMETER(AdamParam);
DMLC_REGISTER_PARAMETER(RMSPropParam);
DMLC_REGISTER_PARAMETER(RMSPropAlexParam);
DMLC_REGISTER_PARAMETER(FtrlParam);
DMLC_REGISTER_PARAMETER(FTMLParam);
DMLC_REGISTER_PARAMETER(SignSGDParam);
DMLC_REGISTER_PARAMETER(SignumParam);
DMLC_REGISTER_PARAMETER(LambUpdatePhaseOneParam);
DMLC_REGISTER_PARAMETER(LambUpdatePhaseTwoParam);

namespace {

// ------------------------------------------------------------------------ FCompute bodies

void SGDUpdateCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& out) {
  const SGDParam& p = nnvm::get<SGDParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(out[0].type_flag_, DType, {
    SGDStep<DType, DType>(in[0].Size(), out[0].dptr<DType>(), in[0].dptr<DType>(),
                          in[1].dptr<DType>(), nullptr, nullptr, p.lr, p.wd, 0.f,
                          p.rescale_grad, p.clip_gradient, req[0]);
  });
}

void SGDMomUpdateCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& out) {
  const SGDMomParam& p = nnvm::get<SGDMomParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(out[0].type_flag_, DType, {
    SGDStep<DType, DType>(in[0].Size(), out[0].dptr<DType>(), in[0].dptr<DType>(),
                          in[1].dptr<DType>(), in[2].dptr<DType>(), nullptr, p.lr, p.wd,
                          p.momentum, p.rescale_grad, p.clip_gradient, req[0]);
  });
}

void MPSGDUpdateCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& out) {
  const SGDParam& p = nnvm::get<SGDParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(out[0].type_flag_, DType, {
    SGDStep<DType, float>(in[0].Size(), out[0].dptr<DType>(), in[0].dptr<DType>(),
                          in[1].dptr<DType>(), nullptr, in[2].dptr<float>(), p.lr, p.wd, 0.f,
                          p.rescale_grad, p.clip_gradient, req[0]);
  });
}

void MPSGDMomUpdateCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& out) {
  const SGDMomParam& p = nnvm::get<SGDMomParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(out[0].type_flag_, DType, {
    SGDStep<DType, float>(in[0].Size(), out[0].dptr<DType>(), in[0].dptr<DType>(),
                          in[1].dptr<DType>(), in[2].dptr<float>(), in[3].dptr<float>(), p.lr,
                          p.wd, p.momentum, p.rescale_grad, p.clip_gradient, req[0]);
  });
}

/*! \brief multi_*: group k of `per` inputs is (weight, grad[, mom][, weight32]). */
template <bool has_mom, bool mp>
void MultiSGDCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& out) {
  const int per = 2 + (has_mom ? 1 : 0) + (mp ? 1 : 0);
  float momentum = 0.f, rescale, clip;
  const mxnet::Tuple<float>* lrs;
  const mxnet::Tuple<float>* wds;
  int num;
  if (has_mom) {
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
    const TBlob& g = in[k * per + 1];
    const float lr = (*lrs)[k], wd = (*wds)[k];
    MSHADOW_REAL_TYPE_SWITCH(w.type_flag_, DType, {
      typedef typename std::conditional<mp, float, DType>::type MType;
      MType* mom = has_mom ? in[k * per + 2].dptr<MType>() : nullptr;
      MType* w32 = mp ? in[k * per + per - 1].dptr<MType>() : nullptr;
      SGDStep<DType, MType>(w.Size(), out[k].dptr<DType>(), w.dptr<DType>(), g.dptr<DType>(),
                            mom, w32, lr, wd, momentum, rescale, clip, req[k]);
    });
  }
}

// -------------------------------------------------------------------------------- inference

/*! \brief Types of an update: inputs [0, n_same) share the weight's dtype; the others are
 *         float32 master copies / states when mixed precision. */
template <int n_in, int n_same>
bool OptUpdateType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  int dtype = (*in)[0] >= 0 ? (*in)[0] : (*out)[0];
  if (dtype < 0) return false;
  for (int i = 0; i < n_same; ++i) TYPE_ASSIGN_CHECK(*in, i, dtype);
  for (int i = n_same; i < n_in; ++i) TYPE_ASSIGN_CHECK(*in, i, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
}

/*! \brief multi_*: per group of `per` inputs, shapes equal, output k has group k's shape. */
template <int per>
bool MultiUpdateShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  bool all = true;
  for (size_t k = 0; k < out->size(); ++k) {
    mxnet::ShapeVector gin(in->begin() + k * per, in->begin() + (k + 1) * per);
    mxnet::ShapeVector gout{(*out)[k]};
    all = OptUpdateShape(attrs, &gin, &gout) && all;
    std::copy(gin.begin(), gin.end(), in->begin() + k * per);
    (*out)[k] = gout[0];
  }
  return all;
}

/*! \brief multi_*: per group, the first 2 inputs share the weight dtype, the rest are the
 *         weight dtype (mp == false) or float32 (mp == true). */
template <int per, bool mp>
bool MultiUpdateType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  bool all = true;
  for (size_t k = 0; k < out->size(); ++k) {
    int dtype = (*in)[k * per] >= 0 ? (*in)[k * per] : (*out)[k];
    if (dtype < 0) {
      all = false;
      continue;
    }
    for (int i = 0; i < per; ++i) {
      TYPE_ASSIGN_CHECK(*in, k * per + i, (i < 2 || !mp) ? dtype : mshadow::kFloat32);
    }
    TYPE_ASSIGN_CHECK(*out, k, dtype);
  }
  return all;
}

template <typename Param, int per>
uint32_t MultiNumInputs(const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<Param>(attrs.parsed).num_weights * per);
}

template <typename Param>
uint32_t MultiNumOutputs(const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<Param>(attrs.parsed).num_weights);
}

/*! \brief Input names of multi_*: weight_0, grad_0, mom_0, weight32_0, weight_1, ... */
template <typename Param>
nnvm::FListInputNames MultiInputNames(std::vector<std::string> group) {
  return [group](const NodeAttrs& attrs) {
    std::vector<std::string> names;
    const int num = nnvm::get<Param>(attrs.parsed).num_weights;
    for (int k = 0; k < num; ++k)
      for (const std::string& g : group) names.push_back(g + "_" + std::to_string(k));
    return names;
  };
}

/*! \brief Mutated inputs of multi_*: indices `idx` within every group. */
template <typename Param, int per>
nnvm::FMutateInputs MultiMutate(std::vector<uint32_t> idx) {
  return [idx](const NodeAttrs& attrs) {
    std::vector<uint32_t> m;
    const int num = nnvm::get<Param>(attrs.parsed).num_weights;
    for (int k = 0; k < num; ++k)
      for (uint32_t i : idx) m.push_back(static_cast<uint32_t>(k * per) + i);
    return m;
  };
}

/*! \brief Checks lrs/wds have num_weights entries, then runs the shape function. */
template <typename Param, int per>
bool MultiShapeChecked(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                       mxnet::ShapeVector* out) {
  const Param& p = nnvm::get<Param>(attrs.parsed);
  if (p.lrs.ndim() != p.num_weights || p.wds.ndim() != p.num_weights) {
    MX_THROW(ValueError) << attrs.op->name << ": expected lrs and wds with num_weights="
                         << p.num_weights << " entries, got lrs " << p.lrs << " and wds "
                         << p.wds;
  }
  return MultiUpdateShape<per>(attrs, in, out);
}

nnvm::FListInputNames Names(std::vector<std::string> names) {
  return [names](const NodeAttrs&) { return names; };
}

nnvm::FMutateInputs Mutates(std::vector<uint32_t> idx) {
  return [idx](const NodeAttrs&) { return idx; };
}

}  // namespace

// Common attributes of a single-weight update op with n inputs.
#define MXNET_REGISTER_UPDATE(name, Param, n)                                  \
  NNVM_REGISTER_OP(name)                                                       \
  .set_num_inputs(n)                                                           \
  .set_num_outputs(1)                                                          \
  .set_attr_parser(ParamParser<Param>)                                         \
  .set_attr<mxnet::FInferShape>("FInferShape", OptUpdateShape)                 \
  .set_attr<bool>("TNonDifferentiable", true)

MXNET_REGISTER_UPDATE(sgd_update, SGDParam, 2)
MXNET_ADD_SPARSE_OP_ALIAS(sgd_update)
.describe(R"code(Update function for Stochastic Gradient Descent (SGD) optimizer.

It updates the weights using::

 weight = weight - learning_rate * (gradient + wd * weight)

where gradient is ``rescale_grad * grad`` clipped to ``[-clip_gradient, clip_gradient]``.
Pass ``out=weight`` to update in place.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad"}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<2, 2>)
.set_attr<FCompute>("FCompute<cpu>", SGDUpdateCompute)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_arguments(SGDParam::__FIELDS__());

MXNET_REGISTER_UPDATE(sgd_mom_update, SGDMomParam, 3)
MXNET_ADD_SPARSE_OP_ALIAS(sgd_mom_update)
.describe(R"code(Momentum update function for Stochastic Gradient Descent (SGD) optimizer.

Momentum update has better convergence rates on neural networks. Mathematically it looks
like below:

.. math::

  v_1 = \alpha * \nabla J(W_0)\\
  v_t = \gamma v_{t-1} - \alpha * \nabla J(W_{t-1})\\
  W_t = W_{t-1} + v_t

It updates the weights using::

  v = momentum * v - learning_rate * gradient
  weight += v

Where the parameter ``momentum`` is the decay rate of momentum estimates at each epoch.
``mom`` is updated in place.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "mom"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", SGDMomUpdateCompute)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_arguments(SGDMomParam::__FIELDS__());

MXNET_REGISTER_UPDATE(mp_sgd_update, SGDParam, 3)
.describe(R"code(Updater function for multi-precision sgd optimizer: the float32 copy
``weight32`` is updated (in place) and cast into ``weight``.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 2>)
.set_attr<FCompute>("FCompute<cpu>", MPSGDUpdateCompute)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "gradient")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(SGDParam::__FIELDS__());

MXNET_REGISTER_UPDATE(mp_sgd_mom_update, SGDMomParam, 4)
.describe(R"code(Updater function for multi-precision sgd optimizer with momentum: ``mom``
and the float32 copy ``weight32`` are updated in place, and ``weight32`` is cast into
``weight``.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 Names({"weight", "grad", "mom", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 2>)
.set_attr<FCompute>("FCompute<cpu>", MPSGDMomUpdateCompute)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(SGDMomParam::__FIELDS__());

#define MXNET_REGISTER_MULTI_SGD(name, Param, per, mom, mp, group, doc)           \
  NNVM_REGISTER_OP(name)                                                                  \
  .describe(doc ADD_FILELINE)                                                             \
  .set_num_inputs(MultiNumInputs<Param, per>)                                             \
  .set_num_outputs(MultiNumOutputs<Param>)                                                \
  .set_attr_parser(ParamParser<Param>)                                                    \
  .set_attr<nnvm::FListInputNames>("FListInputNames", MultiInputNames<Param>(group))      \
  .set_attr<mxnet::FInferShape>("FInferShape", MultiShapeChecked<Param, per>)             \
  .set_attr<nnvm::FInferType>("FInferType", MultiUpdateType<per, mp>)                     \
  .set_attr<FCompute>("FCompute<cpu>", MultiSGDCompute<mom, mp>)                          \
  .set_attr<bool>("TNonDifferentiable", true)                                             \
  .add_argument("data", "NDArray-or-Symbol[]", "Weights, gradients and states")           \
  .add_arguments(Param::__FIELDS__())

MXNET_REGISTER_MULTI_SGD(multi_sgd_update, MultiSGDParam, 2, false, false,
                         (std::vector<std::string>{"weight", "grad"}),
R"code(Update function for Stochastic Gradient Descent (SDG) optimizer.

It updates the weights using::

 weight = weight - learning_rate * (gradient + wd * weight)

Inputs are ``weight_0, grad_0, weight_1, grad_1, ...``; ``lrs`` and ``wds`` give one learning
rate and weight decay per weight; outputs are the ``num_weights`` updated weights (pass
``out=[weight_0, weight_1, ...]``).
)code");

MXNET_REGISTER_MULTI_SGD(multi_sgd_mom_update, MultiSGDMomParam, 3, true, false,
                         (std::vector<std::string>{"weight", "grad", "mom"}),
R"code(Momentum update function for Stochastic Gradient Descent (SGD) optimizer.

It updates the weights using::

  v = momentum * v - learning_rate * gradient
  weight += v

Inputs are ``weight_i, grad_i, mom_i`` for each weight; the momenta are updated in place.
)code")
.set_attr<nnvm::FMutateInputs>("FMutateInputs", MultiMutate<MultiSGDMomParam, 3>({2}));

MXNET_REGISTER_MULTI_SGD(multi_mp_sgd_update, MultiSGDParam, 3, false, true,
                         (std::vector<std::string>{"weight", "grad", "weight32"}),
R"code(Update function for multi-precision Stochastic Gradient Descent (SDG) optimizer.

Inputs are ``weight_i, grad_i, weight32_i`` for each weight; the float32 copies are updated in
place and cast into the outputs.
)code")
.set_attr<nnvm::FMutateInputs>("FMutateInputs", MultiMutate<MultiSGDParam, 3>({2}));

MXNET_REGISTER_MULTI_SGD(multi_mp_sgd_mom_update, MultiSGDMomParam, 4, true, true,
                         (std::vector<std::string>{"weight", "grad", "mom", "weight32"}),
R"code(Momentum update function for multi-precision Stochastic Gradient Descent (SGD) optimizer.

Inputs are ``weight_i, grad_i, mom_i, weight32_i`` for each weight; momenta and float32 copies
are updated in place.
)code")
.set_attr<nnvm::FMutateInputs>("FMutateInputs", MultiMutate<MultiSGDMomParam, 4>({2, 3}));

MXNET_REGISTER_UPDATE(nag_mom_update, NAGMomParam, 3)
.describe(R"code(Update function for Nesterov Accelerated Gradient( NAG) optimizer.
It updates the weights using the following formula,

.. math::
  v_t = \gamma v_{t-1} + \eta * \nabla J(W_{t-1} - \gamma v_{t-1})\\
  W_t = W_{t-1} - v_t

Where
:math:`\eta` is the learning rate of the optimizer
:math:`\gamma` is the decay rate of the momentum estimate
:math:`\v_t` is the update vector at time step `t`
:math:`\W_t` is the weight vector at time step `t`

Computed as ``g = clip(rescale_grad * grad); m0 = momentum * mom;
weight' = weight - m0 + (1 + momentum) * (m0 - lr * (g + wd * weight));
mom = m0 - lr * (g + wd * weight')`` (``weight`` instead of ``weight'`` in the last term when
the output is not the weight array itself).
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "mom"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", (NAGMomUpdateCompute<cpu, false>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_arguments(NAGMomParam::__FIELDS__());

MXNET_REGISTER_UPDATE(mp_nag_mom_update, NAGMomParam, 4)
.describe(R"code(Update function for multi-precision Nesterov Accelerated Gradient( NAG) optimizer.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 Names({"weight", "grad", "mom", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 2>)
.set_attr<FCompute>("FCompute<cpu>", (NAGMomUpdateCompute<cpu, true>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(NAGMomParam::__FIELDS__());

MXNET_REGISTER_UPDATE(adam_update, AdamParam, 4)
MXNET_ADD_SPARSE_OP_ALIAS(adam_update)
.describe(R"code(Update function for Adam optimizer. Adam is seen as a generalization
of AdaGrad.

Adam update consists of the following steps, where g represents gradient and m, v
are 1st and 2nd order moment estimates (mean and variance).

.. math::

 g_t = \nabla J(W_{t-1})\\
 m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t\\
 v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t^2\\
 W_t = W_{t-1} - \alpha \frac{ m_t }{ \sqrt{ v_t } + \epsilon }

It updates the weights using::

 m = beta1*m + (1-beta1)*grad
 v = beta2*v + (1-beta2)*(grad**2)
 w += - learning_rate * m / (sqrt(v) + epsilon)

Here ``grad = clip(rescale_grad * grad + wd * weight)`` (weight decay is added before
clipping). There is no bias correction inside the operator. ``mean`` and ``var`` are updated
in place.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "mean", "var"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", AdamUpdateCompute<cpu>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_arguments(AdamParam::__FIELDS__());

MXNET_REGISTER_UPDATE(rmsprop_update, RMSPropParam, 3)
.describe(R"code(Update function for `RMSProp` optimizer.

`RMSprop` is a variant of stochastic gradient descent where the gradients are
divided by a cache which grows with the sum of squares of recent gradients?

Define the Root Mean Square (RMS) error criterion of the gradient as
:math:`RMS[g]_t = \sqrt{E[g^2]_t + \epsilon}`, where :math:`g` represents
gradient and :math:`E[g^2]_t` is the decaying average over past squared gradient.

The :math:`E[g^2]_t` is given by:

.. math::
  E[g^2]_t = \gamma * E[g^2]_{t-1} + (1-\gamma) * g_t^2

The update step is

.. math::
  \theta_{t+1} = \theta_t - \frac{\eta}{RMS[g]_t} g_t

The RMSProp code follows the version in
http://www.cs.toronto.edu/~tijmen/csc321/slides/lecture_slides_lec6.pdf
Tieleman & Hinton, 2012.

Hinton suggests the momentum term :math:`\gamma` to be 0.9 and the learning rate
:math:`\eta` to be 0.001.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "n"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", RMSPropUpdateCompute<cpu>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("n", "NDArray-or-Symbol", "n")
.add_arguments(RMSPropParam::__FIELDS__());

MXNET_REGISTER_UPDATE(rmspropalex_update, RMSPropAlexParam, 5)
.describe(R"code(Update function for RMSPropAlex optimizer.

`RMSPropAlex` is non-centered version of `RMSProp`.

Define :math:`E[g^2]_t` is the decaying average over past squared gradient and
:math:`E[g]_t` is the decaying average over past gradient.

.. math::
  E[g^2]_t = \gamma_1 * E[g^2]_{t-1} + (1 - \gamma_1) * g_t^2\\
  E[g]_t = \gamma_1 * E[g]_{t-1} + (1 - \gamma_1) * g_t\\
  \Delta_t = \gamma_2 * \Delta_{t-1} - \frac{\eta}{\sqrt{E[g^2]_t - E[g]_t^2 + \epsilon}} g_t\\

The update step is

.. math::
  \theta_{t+1} = \theta_t + \Delta_t

The RMSPropAlex code follows the version in
http://arxiv.org/pdf/1308.0850v5.pdf Eq(38) - Eq(45) by Alex Graves, 2013.

Graves suggests the momentum term :math:`\gamma_1` to be 0.95, :math:`\gamma_2`
to be 0.9 and the learning rate :math:`\eta` to be 0.0001.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 Names({"weight", "grad", "n", "g", "delta"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3, 4}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<5, 5>)
.set_attr<FCompute>("FCompute<cpu>", RMSPropAlexUpdateCompute<cpu>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("n", "NDArray-or-Symbol", "n")
.add_argument("g", "NDArray-or-Symbol", "g")
.add_argument("delta", "NDArray-or-Symbol", "delta")
.add_arguments(RMSPropAlexParam::__FIELDS__());

MXNET_REGISTER_UPDATE(ftrl_update, FtrlParam, 4)
MXNET_ADD_SPARSE_OP_ALIAS(ftrl_update)
.describe(R"code(Update function for Ftrl optimizer.
Referenced from *Ad Click Prediction: a View from the Trenches*, available at
http://dl.acm.org/citation.cfm?id=2488200.

It updates the weights using::

 rescaled_grad = clip(grad * rescale_grad, clip_gradient)
 z += rescaled_grad - (sqrt(n + rescaled_grad**2) - sqrt(n)) * weight / learning_rate
 n += rescaled_grad**2
 w = (sign(z) * lamda1 - z) / ((beta + sqrt(n)) / learning_rate + wd) * (abs(z) > lamda1)

``z`` and ``n`` are updated in place.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "z", "n"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", FtrlUpdateCompute<cpu>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("z", "NDArray-or-Symbol", "z")
.add_argument("n", "NDArray-or-Symbol", "Square of grad")
.add_arguments(FtrlParam::__FIELDS__());

MXNET_REGISTER_UPDATE(ftml_update, FTMLParam, 5)
.describe(R"code(The FTML optimizer described in
*FTML - Follow the Moving Leader in Deep Learning*,
available at http://proceedings.mlr.press/v70/zheng17a/zheng17a.pdf.

.. math::

 g_t = \nabla J(W_{t-1})\\
 v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t^2\\
 d_t = \frac{ 1 - \beta_1^t }{ \eta_t } (\sqrt{ \frac{ v_t }{ 1 - \beta_2^t } } + \epsilon)
 \sigma_t = d_t - \beta_1 d_{t-1}
 z_t = \beta_1 z_{ t-1 } + (1 - \beta_1^t) g_t - \sigma_t W_{t-1}
 W_t = - \frac{ z_t }{ d_t }

``d``, ``v`` and ``z`` are updated in place.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "d", "v", "z"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3, 4}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<5, 5>)
.set_attr<FCompute>("FCompute<cpu>", FTMLUpdateCompute<cpu>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("d", "NDArray-or-Symbol", "Internal state ``d_t``")
.add_argument("v", "NDArray-or-Symbol", "Internal state ``v_t``")
.add_argument("z", "NDArray-or-Symbol", "Internal state ``z_t``")
.add_arguments(FTMLParam::__FIELDS__());

MXNET_REGISTER_UPDATE(signsgd_update, SignSGDParam, 2)
.describe(R"code(Update function for SignSGD optimizer.

.. math::

 g_t = \nabla J(W_{t-1})\\
 W_t = W_{t-1} - \eta_t \text{sign}(g_t)

It updates the weights using::

 weight = weight - learning_rate * sign(gradient)

.. note::
   - sparse ndarray not supported for this optimizer yet.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad"}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<2, 2>)
.set_attr<FCompute>("FCompute<cpu>", SignSGDUpdateCompute<cpu>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_arguments(SignSGDParam::__FIELDS__());

MXNET_REGISTER_UPDATE(signum_update, SignumParam, 3)
.describe(R"code(SIGN momentUM (Signum) optimizer.

.. math::

 g_t = \nabla J(W_{t-1})\\
 m_t = \beta m_{t-1} + (1 - \beta) g_t\\
 W_t = W_{t-1} - \eta_t \text{sign}(m_t)

It updates the weights using::
 state = momentum * state + (1-momentum) * gradient
 weight = weight - learning_rate * sign(state)

Where the parameter ``momentum`` is the decay rate of momentum estimates at each epoch.

.. note::
   - sparse ndarray not supported for this optimizer yet.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "mom"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", SignumUpdateCompute<cpu>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_arguments(SignumParam::__FIELDS__());

MXNET_REGISTER_UPDATE(lamb_update_phase1, LambUpdatePhaseOneParam, 4)
.describe(R"code(Phase I of lamb update it performs the following operations and returns g:.

Link to paper: https://arxiv.org/pdf/1904.00962.pdf

.. math::
    \begin{gather*}
    grad = grad * rescale_grad
    if (grad < -clip_gradient)
    then
         grad = -clip_gradient
    if (grad > clip_gradient)
    then
         grad = clip_gradient

    mean = beta1 * mean + (1 - beta1) * grad;
    variance = beta2 * variance + (1. - beta2) * grad ^ 2;

    if (bias_correction)
    then
         mean_hat = mean / (1. - beta1^t);
         var_hat = var / (1 - beta2^t);
         g = mean_hat / (var_hat^(1/2) + epsilon) + wd * weight;
    else
         g = mean / (var_data^(1/2) + epsilon) + wd * weight;
    \end{gather*}

)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "grad", "mean", "var"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", (LambPhaseOneCompute<cpu, false>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_arguments(LambUpdatePhaseOneParam::__FIELDS__());

NNVM_REGISTER_OP(lamb_update_phase2)
.describe(R"code(Phase II of lamb update it performs the following operations and updates grad.

Link to paper: https://arxiv.org/pdf/1904.00962.pdf

.. math::
    \begin{gather*}
    if (lower_bound >= 0)
    then
         r1 = max(r1, lower_bound)
    if (upper_bound >= 0)
    then
         r1 = max(r1, upper_bound)

    if (r1 == 0 or r2 == 0)
    then
         lr = lr
    else
         lr = lr * (r1/r2)
    weight = weight - lr * g
    \end{gather*}

)code" ADD_FILELINE)
.set_num_inputs(4)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LambUpdatePhaseTwoParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", Names({"weight", "g", "r1", "r2"}))
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  mxnet::ShapeVector wg{(*in)[0], (*in)[1]};
  const bool ok = OptUpdateShape(attrs, &wg, out);
  (*in)[0] = wg[0];
  (*in)[1] = wg[1];
  SHAPE_ASSIGN_CHECK(*in, 2, mxnet::TShape(1, 1));
  SHAPE_ASSIGN_CHECK(*in, 3, mxnet::TShape(1, 1));
  return ok;
})
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", (LambPhaseTwoCompute<cpu, false>))
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("g", "NDArray-or-Symbol", "Output of lamb_update_phase 1")
.add_argument("r1", "NDArray-or-Symbol", "r1")
.add_argument("r2", "NDArray-or-Symbol", "r2")
.add_arguments(LambUpdatePhaseTwoParam::__FIELDS__());

MXNET_REGISTER_UPDATE(mp_lamb_update_phase1, LambUpdatePhaseOneParam, 5)
.describe(R"code(Mixed Precision version of Phase I of lamb update: as lamb_update_phase1 on the
float32 master weight ``weight32``; ``mean`` and ``var`` (float32) are updated in place and the
float32 direction ``g`` is returned.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 Names({"weight", "grad", "mean", "var", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  const int dtype = (*in)[0];
  if (dtype < 0) return false;
  TYPE_ASSIGN_CHECK(*in, 1, dtype);
  for (int i = 2; i < 5; ++i) TYPE_ASSIGN_CHECK(*in, i, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", (LambPhaseOneCompute<cpu, true>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(LambUpdatePhaseOneParam::__FIELDS__());

NNVM_REGISTER_OP(mp_lamb_update_phase2)
.describe(R"code(Mixed Precision version Phase II of lamb update: as lamb_update_phase2 on the
float32 master weight ``weight32`` (updated in place), cast into the returned weight.
)code" ADD_FILELINE)
.set_num_inputs(5)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LambUpdatePhaseTwoParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 Names({"weight", "g", "r1", "r2", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", Mutates({4}))
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  mxnet::ShapeVector wg{(*in)[0], (*in)[1], (*in)[4]};
  const bool ok = OptUpdateShape(attrs, &wg, out);
  (*in)[0] = wg[0];
  (*in)[1] = wg[1];
  (*in)[4] = wg[2];
  SHAPE_ASSIGN_CHECK(*in, 2, mxnet::TShape(1, 1));
  SHAPE_ASSIGN_CHECK(*in, 3, mxnet::TShape(1, 1));
  return ok;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  const int dtype = (*in)[0];
  if (dtype < 0) return false;
  for (int i = 1; i < 5; ++i) TYPE_ASSIGN_CHECK(*in, i, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", (LambPhaseTwoCompute<cpu, true>))
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("g", "NDArray-or-Symbol", "Output of mp_lamb_update_phase 1")
.add_argument("r1", "NDArray-or-Symbol", "r1")
.add_argument("r2", "NDArray-or-Symbol", "r2")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(LambUpdatePhaseTwoParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
