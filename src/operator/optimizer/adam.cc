/*!
 * \file adam.cc
 * \brief adam_update and ftml_update (moment-based updates; see adamw.cc for decoupled
 *        weight decay and lamb.cc for layer-wise trust ratios).
 */
#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(AdamParam);
DMLC_REGISTER_PARAMETER(FTMLParam);

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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "mean", "var"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, AdamStep>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_arguments(AdamParam::__FIELDS__());

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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "d", "v", "z"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3, 4}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<5, 5>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, FTMLStep>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("d", "NDArray-or-Symbol", "Internal state ``d_t``")
.add_argument("v", "NDArray-or-Symbol", "Internal state ``v_t``")
.add_argument("z", "NDArray-or-Symbol", "Internal state ``z_t``")
.add_arguments(FTMLParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
