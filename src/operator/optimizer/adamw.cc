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

#include "./adamw-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(AdamWParam);

namespace {

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
.set_attr<FCompute>("FCompute<cpu>", AdamWCompute<cpu, false>)
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
.set_attr<FCompute>("FCompute<cpu>", AdamWCompute<cpu, true>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_argument("rescale_grad", "NDArray-or-Symbol", "Rescale gradient to rescale_grad * grad. If NaN, Inf, or 0, the update is skipped.")
.add_arguments(AdamWParam::__FIELDS__());

// ---- _multi_adamw_update, _multi_mp_adamw_update ----------------------------------------------

DMLC_REGISTER_PARAMETER(MultiAdamWParam);

namespace {

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
.set_attr<FCompute>("FCompute<cpu>", MultiAdamWCompute<cpu, false>)
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
.set_attr<FCompute>("FCompute<cpu>", MultiAdamWCompute<cpu, true>)
.add_argument("data", "NDArray-or-Symbol[]", "data")
.add_arguments(MultiAdamWParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
