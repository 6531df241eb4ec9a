/*!
 * \file elemwise_unary_op_math.cc
 * \brief Element-wise exponential, logarithmic and trigonometric functions (exp, log*,
 *        sin..arctan, degrees, radians; hyperbolic and special ones are in
 *        elemwise_unary_op_hyperbolic.cc),
 *        each with its `_backward_<name>` op (dx = dy * f'(x), or f'(y) where noted).
 *
 * Integer inputs are accepted and computed in double, then cast back (MXNet 1.x behaviour).
 */
#include "./elemwise_unary_math-inl.h"

namespace mxnet {
namespace op {

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

}  // namespace op
}  // namespace mxnet
