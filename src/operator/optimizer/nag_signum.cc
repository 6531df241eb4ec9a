/*!
 * \file nag_signum.cc
 * \brief Momentum variants of SGD: nag_mom_update, mp_nag_mom_update (Nesterov), signsgd_update
 *        and signum_update (steps along the sign of the gradient or of its momentum).
 */
#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(NAGMomParam);
DMLC_REGISTER_PARAMETER(SignSGDParam);
DMLC_REGISTER_PARAMETER(SignumParam);

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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "mom"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, NAGStep>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_arguments(NAGMomParam::__FIELDS__());

MXNET_REGISTER_UPDATE(mp_nag_mom_update, NAGMomParam, 4)
.describe(R"code(Update function for multi-precision Nesterov Accelerated Gradient( NAG) optimizer.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 OptNames({"weight", "grad", "mom", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 2>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, NAGStep, true>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(NAGMomParam::__FIELDS__());

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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad"}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<2, 2>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, SignSGDStep>))
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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "mom"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, SignumStep>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mom", "NDArray-or-Symbol", "Momentum")
.add_arguments(SignumParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
