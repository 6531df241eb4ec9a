/*!
 * \file rmsprop_ftrl.cc
 * \brief rmsprop_update, rmspropalex_update and ftrl_update: updates scaled by running
 *        averages of squared gradients.
 */
#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(RMSPropParam);
DMLC_REGISTER_PARAMETER(RMSPropAlexParam);
DMLC_REGISTER_PARAMETER(FtrlParam);

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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "n"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<3, 3>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, RMSPropStep>))
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
                                 OptNames({"weight", "grad", "n", "g", "delta"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3, 4}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<5, 5>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, RMSPropAlexStep>))
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
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "z", "n"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, FtrlStep>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("z", "NDArray-or-Symbol", "z")
.add_argument("n", "NDArray-or-Symbol", "Square of grad")
.add_arguments(FtrlParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
