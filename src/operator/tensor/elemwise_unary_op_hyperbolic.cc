/*!
 * \file elemwise_unary_op_hyperbolic.cc
 * \brief Element-wise hyperbolic and special functions (sinh..arctanh, gamma, gammaln, erf,
 *        erfinv), each with its `_backward_<name>` op (dx = dy * f'(x), or f'(y) where noted).
 *        Apart from elemwise_unary_op_math.cc to keep each unit's compile time short.
 *
 * Integer inputs are accepted and computed in double, then cast back (MXNet 1.x behaviour).
 */
#include "./elemwise_unary_math-inl.h"
#include "./unary_fast_compute-inl.h"

namespace mxnet {
namespace op {

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
.add_alias("_sparse_tanh")
// float32: the vectorized loop (unary_fast.h) over the macro's generic kernel (higher plevel)
.set_attr<FCompute>("FCompute<cpu>", FastUnaryCompute<unary_fast::Fn::kTanh, mshadow_op::tanh>,
                    11);
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
