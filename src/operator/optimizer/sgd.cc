/*!
 * \file sgd.cc
 * \brief The SGD family, all run by SGDRun (optimizer_op-inl.h): sgd_update, sgd_mom_update,
 *        their mixed-precision mp_* forms, multi_(mp_)sgd(_mom)_update (several weights, the
 *        learning rates and weight decays as attributes) and preloaded_multi_(mp_)sgd(_mom)_
 *        update (the same with lrs and wds as the last two input arrays, so they can change
 *        without re-parsing attributes).
 */
#include <string>
#include <vector>

#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SGDParam);
DMLC_REGISTER_PARAMETER(SGDMomParam);
DMLC_REGISTER_PARAMETER(MultiSGDParam);
DMLC_REGISTER_PARAMETER(MultiSGDMomParam);
DMLC_REGISTER_PARAMETER(PreloadedMultiSGDParam);
DMLC_REGISTER_PARAMETER(PreloadedMultiSGDMomParam);

namespace {

template <typename Param>
int NumWeights(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<Param>(attrs.parsed).num_weights;
}

/*!
 * \brief Shapes of multi_* (kShared = 0: lrs and wds are attributes, one per weight) and
 *        preloaded_multi_* (kShared = 2: the input arrays lrs and wds, of shape (num_weights,)).
 */
template <typename Param, int kShared>
bool MultiSGDShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  const Param& p = nnvm::get<Param>(attrs.parsed);
  const int num = p.num_weights;
  if constexpr (kShared == 0) {
    if (p.lrs.ndim() != num || p.wds.ndim() != num) {
      MX_THROW(ValueError) << attrs.op->name << ": expected lrs and wds with num_weights="
                           << num << " entries, got lrs " << p.lrs << " and wds " << p.wds;
    }
  }
  const int per = (static_cast<int>(in->size()) - kShared) / num;
  const bool all = GroupedUpdateShape(attrs, in, out, num, per);
  for (int i = 0; i < kShared; ++i) {
    const mxnet::TShape& s = (*in)[num * per + i];
    if (ndim_is_known(s) && s != mxnet::TShape(1, num)) {
      MX_THROW(ValueError) << attrs.op->name << ": expected " << (i == 0 ? "lrs" : "wds")
                           << " of shape [" << num << "] (num_weights), got " << s;
    }
    SHAPE_ASSIGN_CHECK(*in, num * per + i, mxnet::TShape(1, num));
  }
  return all;
}

/*! \brief Types of multi_* and preloaded_multi_* (whose lrs and wds are float32). */
template <typename Param, int kShared, bool kMP>
bool MultiSGDType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int num = NumWeights<Param>(attrs);
  const int per = (static_cast<int>(in->size()) - kShared) / num;
  const bool all = GroupedUpdateType(in, out, num, per, kMP);
  for (int i = 0; i < kShared; ++i) TYPE_ASSIGN_CHECK(*in, num * per + i, mshadow::kFloat32);
  return all;
}

}  // namespace

MXNET_REGISTER_UPDATE(sgd_update, SGDParam, 2)
MXNET_ADD_SPARSE_OP_ALIAS(sgd_update)
.describe(R"code(Update function for Stochastic Gradient Descent (SGD) optimizer.

It updates the weights using::

 weight = weight - learning_rate * (gradient + wd * weight)

where gradient is ``rescale_grad * grad`` clipped to ``[-clip_gradient, clip_gradient]``.
Pass ``out=weight`` to update in place.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad"}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<2, 2>)
.set_attr<FCompute>("FCompute<cpu>", SGDCompute<cpu, SGDParam>)
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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "mom"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", SGDCompute<cpu, SGDMomParam>)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_arguments(SGDMomParam::__FIELDS__());

MXNET_REGISTER_UPDATE(mp_sgd_update, SGDParam, 3)
.describe(R"code(Updater function for multi-precision sgd optimizer: the float32 copy
``weight32`` is updated (in place) and cast into ``weight``.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 2>)
.set_attr<FCompute>("FCompute<cpu>", (SGDCompute<cpu, SGDParam, true>))
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
                                 OptNames({"weight", "grad", "mom", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 2>)
.set_attr<FCompute>("FCompute<cpu>", (SGDCompute<cpu, SGDMomParam, true>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(SGDMomParam::__FIELDS__());


// multi_* (kShared = 0) and preloaded_multi_* (kShared = 2): `group` inputs per weight, then
// the kShared inputs named in `shared`.
#define MXNET_REGISTER_MULTI_SGD(name, Param, kShared, mp, group, shared, data_doc, doc)       \
  MXNET_REGISTER_GROUPED_UPDATE(name, NumWeights<Param>, std::vector<std::string> group,      \
                                std::vector<std::string> shared)                              \
  .describe(doc ADD_FILELINE)                                                                 \
  .set_attr_parser(ParamParser<Param>)                                                        \
  .set_attr<mxnet::FInferShape>("FInferShape", MultiSGDShape<Param, kShared>)                 \
  .set_attr<nnvm::FInferType>("FInferType", MultiSGDType<Param, kShared, mp>)                 \
  .set_attr<FCompute>("FCompute<cpu>", SGDCompute<cpu, Param, mp>)                            \
  .add_argument("data", "NDArray-or-Symbol[]", data_doc)                                      \
  .add_arguments(Param::__FIELDS__())

MXNET_REGISTER_MULTI_SGD(multi_sgd_update, MultiSGDParam, 0, false, ({"weight", "grad"}), (),
                         "Weights, gradients and states",
R"code(Update function for Stochastic Gradient Descent (SDG) optimizer.

It updates the weights using::

 weight = weight - learning_rate * (gradient + wd * weight)

Inputs are ``weight_0, grad_0, weight_1, grad_1, ...``; ``lrs`` and ``wds`` give one learning
rate and weight decay per weight; outputs are the ``num_weights`` updated weights (pass
``out=[weight_0, weight_1, ...]``).
)code");

MXNET_REGISTER_MULTI_SGD(multi_sgd_mom_update, MultiSGDMomParam, 0, false,
                         ({"weight", "grad", "mom"}), (), "Weights, gradients and states",
R"code(Momentum update function for Stochastic Gradient Descent (SGD) optimizer.

It updates the weights using::

  v = momentum * v - learning_rate * gradient
  weight += v

Inputs are ``weight_i, grad_i, mom_i`` for each weight; the momenta are updated in place.
)code");

MXNET_REGISTER_MULTI_SGD(multi_mp_sgd_update, MultiSGDParam, 0, true,
                         ({"weight", "grad", "weight32"}), (), "Weights, gradients and states",
R"code(Update function for multi-precision Stochastic Gradient Descent (SDG) optimizer.

Inputs are ``weight_i, grad_i, weight32_i`` for each weight; the float32 copies are updated in
place and cast into the outputs.
)code");

MXNET_REGISTER_MULTI_SGD(multi_mp_sgd_mom_update, MultiSGDMomParam, 0, true,
                         ({"weight", "grad", "mom", "weight32"}), (),
                         "Weights, gradients and states",
R"code(Momentum update function for multi-precision Stochastic Gradient Descent (SGD) optimizer.

Inputs are ``weight_i, grad_i, mom_i, weight32_i`` for each weight; momenta and float32 copies
are updated in place.
)code");


MXNET_REGISTER_MULTI_SGD(preloaded_multi_sgd_update, PreloadedMultiSGDParam, 2, false,
                         ({"weight", "grad"}), ({"lrs", "wds"}),
                         "Weights, gradients, states, lrs and wds",
R"code(Update function for Stochastic Gradient Descent (SDG) optimizer.

It updates the weights using::

 weight = weight - learning_rate * (gradient + wd * weight)

Inputs are ``weight_i, grad_i`` for each weight, then the float32 arrays ``lrs`` and ``wds``
of shape ``(num_weights,)``.
)code");

MXNET_REGISTER_MULTI_SGD(preloaded_multi_sgd_mom_update, PreloadedMultiSGDMomParam, 2, false,
                         ({"weight", "grad", "mom"}), ({"lrs", "wds"}),
                         "Weights, gradients, states, lrs and wds",
R"code(Momentum update function for Stochastic Gradient Descent (SGD) optimizer.

Inputs are ``weight_i, grad_i, mom_i`` for each weight, then ``lrs`` and ``wds``; the momenta
are updated in place.
)code");

MXNET_REGISTER_MULTI_SGD(preloaded_multi_mp_sgd_update, PreloadedMultiSGDParam, 2, true,
                         ({"weight", "grad", "weight32"}), ({"lrs", "wds"}),
                         "Weights, gradients, states, lrs and wds",
R"code(Update function for multi-precision Stochastic Gradient Descent (SDG) optimizer.

Inputs are ``weight_i, grad_i, weight32_i`` for each weight, then ``lrs`` and ``wds``.
)code");

MXNET_REGISTER_MULTI_SGD(preloaded_multi_mp_sgd_mom_update, PreloadedMultiSGDMomParam, 2, true,
                         ({"weight", "grad", "mom", "weight32"}), ({"lrs", "wds"}),
                         "Weights, gradients, states, lrs and wds",
R"code(Momentum update function for multi-precision Stochastic Gradient Descent (SGD) optimizer.

Inputs are ``weight_i, grad_i, mom_i, weight32_i`` for each weight, then ``lrs`` and ``wds``.
)code");

}  // namespace op
}  // namespace mxnet
