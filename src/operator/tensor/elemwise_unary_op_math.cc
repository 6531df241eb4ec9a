/*!
 * \file elemwise_unary_op_math.cc
 * \brief Element-wise exponential, logarithmic, trigonometric, hyperbolic and special
 *        functions (exp, log*, sin..arctanh, degrees, radians, gamma, gammaln, erf, erfinv),
 *        each with its `_backward_<name>` op (dx = dy * f'(x), or f'(y) where noted).
 *
 * Integer inputs are accepted and computed in double, then cast back (MXNet 1.x behaviour).
 */
#include "./elemwise_unary_op-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

/*! \brief A unary math op whose gradient op reads the forward input x. */
#define MXNET_UNARY_MATH_USE_IN(name, functor, doc)                                     \
  MXNET_OPERATOR_REGISTER_UNARY(name)                                                   \
  .describe(doc ADD_FILELINE)                                                           \
  .set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, functor>)                  \
  .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_" #name})

/*! \brief A unary math op whose gradient op reads the forward output y. */
#define MXNET_UNARY_MATH_USE_OUT(name, functor, doc)                                    \
  MXNET_OPERATOR_REGISTER_UNARY(name)                                                   \
  .describe(doc ADD_FILELINE)                                                           \
  .set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, functor>)                  \
  .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_" #name})

// ---------------------------------------------------------------------------- exp & log

MXNET_OPERATOR_REGISTER_UNARY(exp)
.add_alias("_sparse_exp")
.describe(R"code(Returns element-wise exponential value of the input.

.. math::
   exp(x) = e^x \approx 2.718^x

Example::

   exp([0, 1, 2]) = [1., 2.71828175, 7.38905621]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::exp>)
// d/dx e^x = e^x = y: the gradient is ograd * y (MXNet builds it with _mul).
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_mul"});

MXNET_UNARY_MATH_USE_IN(expm1, mshadow_op::expm1, R"code(Returns ``exp(x) - 1`` computed element-wise on the input.

This function provides greater precision than ``exp(x) - 1`` for small values of ``x``.

)code")
.add_alias("_sparse_expm1");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_expm1, unary_grad::expm1)
// Second order: d = exp(x): d' = exp(x).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Op("exp", {c.v}));
}});

MXNET_UNARY_MATH_USE_IN(log, mshadow_op::log, R"code(Returns element-wise Natural logarithmic value of the input.

The natural logarithm is logarithm in base *e*, so that ``log(exp(x)) = x``

)code")
.add_alias("_sparse_log");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_log, unary_grad::log)
// Second order: d = 1/x: d' = -1/x^2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -2), -1));
}});

MXNET_UNARY_MATH_USE_IN(log10, mshadow_op::log10, R"code(Returns element-wise Base-10 logarithmic value of the input.

``10**log10(x) = x``

)code")
.add_alias("_sparse_log10");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_log10, unary_grad::log10)
// Second order: d = 1/(x ln 10): d' = -1/(x^2 ln 10).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -2), -1 / std::log(10.0)));
}});

MXNET_UNARY_MATH_USE_IN(log2, mshadow_op::log2, R"code(Returns element-wise Base-2 logarithmic value of the input.

``2**log2(x) = x``

)code")
.add_alias("_sparse_log2");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_log2, unary_grad::log2)
// Second order: d = 1/(x ln 2): d' = -1/(x^2 ln 2).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -2), -1 / std::log(2.0)));
}});

MXNET_UNARY_MATH_USE_IN(log1p, mshadow_op::log1p, R"code(Returns element-wise ``log(1 + x)`` value of the input.

This function is more accurate than ``log(1 + x)``  for small ``x`` so that
:math:`1+x\approx 1`

)code")
.add_alias("_sparse_log1p");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_log1p, unary_grad::log1p)
// Second order: d = 1/(1+x): d' = -1/(1+x)^2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.b.AddScalar(c.v, 1), -2), -1));
}});

// ---------------------------------------------------------------------------- trigonometric

MXNET_UNARY_MATH_USE_IN(sin, mshadow_op::sin, R"code(Computes the element-wise sine of the input array.

The input should be in radians (:math:`2\pi` rad equals 360 degrees).

.. math::
   sin([0, \pi/4, \pi/2]) = [0, 0.707, 1]

)code")
.add_alias("_sparse_sin");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_sin, unary_grad::sin);

MXNET_UNARY_MATH_USE_IN(cos, mshadow_op::cos, R"code(Computes the element-wise cosine of the input array.

The input should be in radians (:math:`2\pi` rad equals 360 degrees).

.. math::
   cos([0, \pi/4, \pi/2]) = [1, 0.707, 0]

)code")
.add_alias("_sparse_cos");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_cos, unary_grad::cos);

MXNET_UNARY_MATH_USE_OUT(tan, mshadow_op::tan, R"code(Computes the element-wise tangent of the input array.

The input should be in radians (:math:`2\pi` rad equals 360 degrees).

.. math::
   tan([0, \pi/4, \pi/2]) = [0, 1, -inf]

)code")
.add_alias("_sparse_tan");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_tan, unary_grad::tan)
// Second order: v = y, d = 1 + y^2: d' = 2y.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.v, 2));
}});

MXNET_UNARY_MATH_USE_IN(arcsin, mshadow_op::arcsin, R"code(Returns element-wise inverse sine of the input array.

The input should be in the range `[-1, 1]`.
The output is in the closed interval of [:math:`-\pi/2`, :math:`\pi/2`].

.. math::
   arcsin([-1, -.707, 0, .707, 1]) = [-\pi/2, -\pi/4, 0, \pi/4, \pi/2]

)code")
.add_alias("_sparse_arcsin");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_arcsin, unary_grad::arcsin)
// Second order: d = (1-x^2)^-1/2: d' = x (1-x^2)^-3/2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.v, c.b.Pow(c.b.AddScalar(c.b.Scale(c.b.Square(c.v), -1), 1), -1.5)));
}});

MXNET_UNARY_MATH_USE_IN(arccos, mshadow_op::arccos, R"code(Returns element-wise inverse cosine of the input array.

The input should be in range `[-1, 1]`.
The output is in the closed interval :math:`[0, \pi]`

.. math::
   arccos([-1, -.707, 0, .707, 1]) = [\pi, 3\pi/4, \pi/2, \pi/4, 0]

)code")
.add_alias("_sparse_arccos");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_arccos, unary_grad::arccos)
// Second order: d = -(1-x^2)^-1/2: d' = -x (1-x^2)^-3/2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.b.Scale(c.v, -1), c.b.Pow(c.b.AddScalar(c.b.Scale(c.b.Square(c.v), -1), 1), -1.5)));
}});

MXNET_UNARY_MATH_USE_IN(arctan, mshadow_op::arctan, R"code(Returns element-wise inverse tangent of the input array.

The output is in the closed interval :math:`[-\pi/2, \pi/2]`

.. math::
   arctan([-1, 0, 1]) = [-\pi/4, 0, \pi/4]

)code")
.add_alias("_sparse_arctan");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_arctan, unary_grad::arctan)
// Second order: d = 1/(1+x^2): d' = -2x/(1+x^2)^2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.b.Scale(c.v, -2), c.b.Pow(c.b.AddScalar(c.b.Square(c.v), 1), -2)));
}});

MXNET_UNARY_MATH_USE_IN(degrees, mshadow_op::degrees, R"code(Converts each element of the input array from radians to degrees.

.. math::
   degrees([0, \pi/2, \pi, 3\pi/2, 2\pi]) = [0, 90, 180, 270, 360]

)code")
.add_alias("_sparse_degrees");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_degrees, unary_grad::degrees)
// d = 180/pi is constant: second order through ConstantFactorGrad (d' = 0).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{ConstantFactorGrad});

MXNET_UNARY_MATH_USE_IN(radians, mshadow_op::radians, R"code(Converts each element of the input array from degrees to radians.

.. math::
   radians([0, 90, 180, 270, 360]) = [0, \pi/2, \pi, 3\pi/2, 2\pi]

)code")
.add_alias("_sparse_radians");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_radians, unary_grad::radians)
// d = pi/180 is constant: second order through ConstantFactorGrad (d' = 0).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{ConstantFactorGrad});

// ---------------------------------------------------------------------------- hyperbolic

MXNET_UNARY_MATH_USE_IN(sinh, mshadow_op::sinh, R"code(Returns the hyperbolic sine of the input array, computed element-wise.

.. math::
   sinh(x) = 0.5\times(exp(x) - exp(-x))

)code")
.add_alias("_sparse_sinh");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_sinh, unary_grad::sinh)
// Second order: d = cosh(x): d' = sinh(x).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Op("sinh", {c.v}));
}});

MXNET_UNARY_MATH_USE_IN(cosh, mshadow_op::cosh, R"code(Returns the hyperbolic cosine  of the input array, computed element-wise.

.. math::
   cosh(x) = 0.5\times(exp(x) + exp(-x))

)code")
.add_alias("_sparse_cosh");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_cosh, unary_grad::cosh)
// Second order: d = sinh(x): d' = cosh(x).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Op("cosh", {c.v}));
}});

MXNET_UNARY_MATH_USE_OUT(tanh, mshadow_op::tanh, R"code(Returns the hyperbolic tangent of the input array, computed element-wise.

.. math::
   tanh(x) = sinh(x) / cosh(x)

)code")
.add_alias("_sparse_tanh");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_tanh, unary_grad::tanh)
// Second order: v = y, d = 1 - y^2: d' = -2y.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.v, -2));
}});

MXNET_UNARY_MATH_USE_IN(arcsinh, mshadow_op::arcsinh, R"code(Returns the element-wise inverse hyperbolic sine of the input array, \
computed element-wise.

)code")
.add_alias("_sparse_arcsinh");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_arcsinh, unary_grad::arcsinh)
// Second order: d = (x^2+1)^-1/2: d' = -x (x^2+1)^-3/2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.b.Scale(c.v, -1), c.b.Pow(c.b.AddScalar(c.b.Square(c.v), 1), -1.5)));
}});

MXNET_UNARY_MATH_USE_IN(arccosh, mshadow_op::arccosh, R"code(Returns the element-wise inverse hyperbolic cosine of the input array, \
computed element-wise.

)code")
.add_alias("_sparse_arccosh");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_arccosh, unary_grad::arccosh)
// Second order: d = (x^2-1)^-1/2: d' = -x (x^2-1)^-3/2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.b.Scale(c.v, -1), c.b.Pow(c.b.AddScalar(c.b.Square(c.v), -1), -1.5)));
}});

MXNET_UNARY_MATH_USE_IN(arctanh, mshadow_op::arctanh, R"code(Returns the element-wise inverse hyperbolic tangent of the input array, \
computed element-wise.

)code")
.add_alias("_sparse_arctanh");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_arctanh, unary_grad::arctanh)
// Second order: d = 1/(1-x^2): d' = 2x/(1-x^2)^2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.b.Scale(c.v, 2), c.b.Pow(c.b.AddScalar(c.b.Scale(c.b.Square(c.v), -1), 1), -2)));
}});

// ---------------------------------------------------------------------------- special functions

MXNET_UNARY_MATH_USE_IN(gamma, mshadow_op::gamma, R"code(Returns the gamma function (extension of the factorial function \
to the reals), computed element-wise on the input array.

)code")
.add_alias("_npx_gamma")
.add_alias("_sparse_gamma");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_gamma, unary_grad::gamma);

MXNET_UNARY_MATH_USE_IN(gammaln, mshadow_op::gammaln, R"code(Returns element-wise log of the absolute value of the gamma function \
of the input.

)code")
.add_alias("_npx_gammaln")
.add_alias("_sparse_gammaln");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_gammaln, unary_grad::gammaln);

MXNET_UNARY_MATH_USE_IN(erf, mshadow_op::erf, R"code(Returns element-wise gauss error function of the input.

Example::

   erf([0, -1., 10.]) = [0., -0.8427, 1.]

)code")
.add_alias("_npx_erf");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_erf, unary_grad::erf)
// Second order: d = 2/sqrt(pi) exp(-x^2): d' = -4x/sqrt(pi) exp(-x^2).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.b.Scale(c.v, -4 / std::sqrt(M_PI)), c.b.Op("exp", {c.b.Scale(c.b.Square(c.v), -1)})));
}});

MXNET_UNARY_MATH_USE_IN(erfinv, mshadow_op_ext::erfinv, R"code(Returns element-wise inverse gauss error function of the input.

Example::

   erfinv([0, 0.5., -1.]) = [0., 0.4769, -inf]

)code")
.add_alias("_npx_erfinv");
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_erfinv, unary_grad::erfinv);

}  // namespace op
}  // namespace mxnet
