/*!
 * \file elemwise_unary_op_basic.cc
 * \brief Basic element-wise unary operators: copies (_copy/identity, BlockGrad, _copyto, Cast),
 *        sign/rounding, powers and roots, relu/sigmoid/softsign, logical_not, clip.
 *        Exponential, logarithmic, trigonometric and special functions are in
 *        elemwise_unary_op_math.cc.
 */
#include "./elemwise_unary_op-inl.h"
#include "./higher_order_grad-inl.h"
#include "./relu_backward-inl.h"
#include "./unary_fast_compute-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(CastParam);
DMLC_REGISTER_PARAMETER(ClipParam);

namespace {
std::vector<bool> InplaceIdentityTrue(const nnvm::NodeAttrs&) { return std::vector<bool>{true}; }
}  // namespace

// ---------------------------------------------------------------------------- copies

MXNET_OPERATOR_REGISTER_UNARY(_copy)
.describe("Returns a copy of the input." ADD_FILELINE)
.add_alias("identity")
.set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::IdentityCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_copy"});

NNVM_REGISTER_OP(_backward_copy)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceIn0Out0)
.set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::IdentityCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output");

MXNET_OPERATOR_REGISTER_UNARY(BlockGrad)
.add_alias("stop_gradient")
.add_alias("_sparse_stop_gradient")
.describe(R"code(Stops gradient computation.

Stops the accumulated gradient of the inputs from flowing through this operator
in the backward direction. In other words, this operator prevents the contribution
of its inputs to be taken into account for computing gradients.

Example::

  v1 = [1, 2]
  v2 = [0, 1]
  a = Variable('a')
  b = Variable('b')
  b_stop_grad = stop_gradient(3 * b)
  loss = MakeLoss(b_stop_grad + a)

  executor = loss.simple_bind(ctx=cpu(), a=(1,2), b=(1,2))
  executor.forward(is_train=True, a=v1, b=v2)
  executor.outputs
  [ 1.  5.]

  executor.backward()
  executor.grad_arrays
  [ 0.  0.]
  [ 1.  1.]

)code" ADD_FILELINE)
.set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::IdentityCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes);

// _copyto: what NDArray.copyto / astype call; input and output may differ in dtype.
NNVM_REGISTER_OP(_copyto)
.add_alias("_npi_copyto")
.describe("Copies the input into the output array, converting the dtype when they differ." ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames",
    [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"data"}; })
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType",
    [](const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs, std::vector<int>* out_attrs) {
      // The output dtype is the destination's; without a destination it is the input's.
      if ((*out_attrs)[0] == -1) (*out_attrs)[0] = (*in_attrs)[0];
      if ((*out_attrs)[0] != -1) CheckComputableDType("_copyto", "output", (*out_attrs)[0]);
      return (*in_attrs)[0] != -1 && (*out_attrs)[0] != -1;
    })
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_copyto"})
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", CastCompute<cpu>)
.set_attr<bool>("TBFloat16Native", true)  // converts bfloat16 itself (common/cast.h)
.add_argument("data", "NDArray", "input data");

MXNET_OPERATOR_REGISTER_UNARY(Cast)
.add_alias("cast")
.add_alias("_npi_cast")
.add_alias("_npx_cast")
.describe(R"code(Casts all elements of the input to a new type.

.. note:: ``Cast`` is deprecated. Use ``cast`` instead.

Example::

   cast([0.9, 1.3], dtype='int32') = [0, 1]
   cast([1e20, 11.1], dtype='float16') = [inf, 11.09375]
   cast([300, 11.1, 10.9, -1, -3], dtype='uint8') = [44, 11, 10, 255, 253]

)code" ADD_FILELINE)
.set_attr_parser(ParamParser<CastParam>)
.set_attr<nnvm::FInferType>("FInferType", CastType, 11)
.set_attr<FCompute>("FCompute<cpu>", CastCompute<cpu>)
.set_attr<bool>("TBFloat16Native", true)  // converts bfloat16 itself (common/cast.h)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_cast"})
.add_arguments(CastParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_cast)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType",
    [](const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs, std::vector<int>* out_attrs) {
      // The gradient takes the forward input's dtype (known from the graph or the caller).
      return (*in_attrs)[0] != -1 && (*out_attrs)[0] != -1;
    })
.set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceIn0Out0)
.set_attr<FCompute>("FCompute<cpu>", CastCompute<cpu>)
.set_attr<bool>("TBFloat16Native", true)  // converts bfloat16 itself (common/cast.h)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output");

// ---------------------------------------------------------------------------- sign & rounding

MXNET_OPERATOR_REGISTER_UNARY(negative)
.add_alias("_sparse_negative")
.describe(R"code(Numerical negative of the argument, element-wise.

The storage type of ``negative`` output depends upon the input storage type:

   - negative(default) = default
   - negative(row_sparse) = row_sparse
   - negative(csr) = csr

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::negation>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"negative"});

MXNET_OPERATOR_REGISTER_UNARY(reciprocal)
.describe(R"code(Returns the reciprocal of the argument, element-wise.

Calculates 1/x.

Example::

    reciprocal([-2, 1, 3, 1.6, 0.2]) = [-0.5, 1.0, 0.33333334, 0.625, 5.0]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::reciprocal>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_reciprocal"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_reciprocal, unary_grad::reciprocal)
// Second order: d = -1/x^2: d' = 2/x^3.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -3), 2));
}});

MXNET_OPERATOR_REGISTER_UNARY(abs)
.add_alias("_sparse_abs")
.describe(R"code(Returns element-wise absolute value of the input.

Example::

   abs([-2, 0, 3]) = [2, 0, 3]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::abs>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_abs"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_abs, unary_grad::abs)
// d = sign(x) is piecewise constant: second order through ConstantFactorGrad (d' = 0).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{ConstantFactorGrad});

MXNET_OPERATOR_REGISTER_UNARY(sign)
.add_alias("_sparse_sign")
.describe(R"code(Returns element-wise sign of the input.

Example::

   sign([-2, 0, 3]) = [-1, 0, 1]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::sign>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_sign"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_sign, unary_grad::sign);

#define MXNET_REGISTER_ROUNDING_OP(name, functor, sparse_alias, doc)              \
  MXNET_OPERATOR_REGISTER_UNARY(name)                                             \
  .add_alias(sparse_alias)                                                        \
  .describe(doc ADD_FILELINE)                                                     \
  .set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::functor>) \
  .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)

MXNET_REGISTER_ROUNDING_OP(round, round, "_sparse_round", R"code(Returns element-wise rounded value to the nearest integer of the input.

Example::

   round([-1.5, 1.5, -1.9, 1.9, 2.1]) = [-2.,  2., -2.,  2.,  2.]

)code");
MXNET_REGISTER_ROUNDING_OP(rint, rint, "_sparse_rint", R"code(Returns element-wise rounded value to the nearest integer of the input.

.. note::
   - For input ``n.5`` ``rint`` returns ``n`` while ``round`` returns ``n+1``.
   - For input ``-n.5`` both ``rint`` and ``round`` returns ``-n-1``.

Example::

   rint([-1.5, 1.5, -1.9, 1.9, 2.1]) = [-2.,  1., -2.,  2.,  2.]

)code");
MXNET_REGISTER_ROUNDING_OP(ceil, ceil, "_sparse_ceil", R"code(Returns element-wise ceiling of the input.

The ceil of the scalar x is the smallest integer i, such that i >= x.

Example::

   ceil([-2.1, -1.9, 1.5, 1.9, 2.1]) = [-2., -1.,  2.,  2.,  3.]

)code");
MXNET_REGISTER_ROUNDING_OP(floor, floor, "_sparse_floor", R"code(Returns element-wise floor of the input.

The floor of the scalar x is the largest integer i, such that i <= x.

Example::

   floor([-2.1, -1.9, 1.5, 1.9, 2.1]) = [-3., -2.,  1.,  1.,  2.]

)code");
MXNET_REGISTER_ROUNDING_OP(trunc, trunc, "_sparse_trunc", R"code(Return the element-wise truncated value of the input.

The truncated value of the scalar x is the nearest integer i which is closer to
zero than x is. In short, the fractional part of the signed number x is discarded.

Example::

   trunc([-2.1, -1.9, 1.5, 1.9, 2.1]) = [-2., -1.,  1.,  1.,  2.]

)code");
MXNET_REGISTER_ROUNDING_OP(fix, fix, "_sparse_fix", R"code(Returns element-wise rounded value to the nearest \
integer towards zero of the input.

Example::

   fix([-2.1, -1.9, 1.9, 2.1]) = [-2., -1.,  1., 2.]

)code");

// ---------------------------------------------------------------------------- powers & roots

MXNET_OPERATOR_REGISTER_UNARY(square)
.add_alias("_sparse_square")
.describe(R"code(Returns element-wise squared value of the input.

.. math::
   square(x) = x^2

Example::

   square([2, 3, 4]) = [4, 9, 16]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::square>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_square"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_square, unary_grad::square)
// Second order: d = 2x: d' = 2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Scale(c.g_ograd, 2);
}});

MXNET_OPERATOR_REGISTER_UNARY(sqrt)
.add_alias("_sparse_sqrt")
.describe(R"code(Returns element-wise square-root value of the input.

.. math::
   \textrm{sqrt}(x) = \sqrt{x}

Example::

   sqrt([4, 9, 16]) = [2, 3, 4]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::sqrt>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_sqrt"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_sqrt, unary_grad::sqrt)
// Second order: v = y, d = 1/(2y): d' = -1/(2y^2).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -2), -0.5));
}});

MXNET_OPERATOR_REGISTER_UNARY(rsqrt)
.add_alias("_sparse_rsqrt")
.describe(R"code(Returns element-wise inverse square-root value of the input.

.. math::
   rsqrt(x) = 1/\sqrt{x}

Example::

   rsqrt([4,9,16]) = [0.5, 0.33333334, 0.25]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::rsqrt>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_rsqrt"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_rsqrt, unary_grad::rsqrt)
// Second order: d = -x^-3/2 / 2: d' = 3/4 x^-5/2.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -2.5), 0.75));
}});

MXNET_OPERATOR_REGISTER_UNARY(cbrt)
.add_alias("_sparse_cbrt")
.describe(R"code(Returns element-wise cube-root value of the input.

.. math::
   cbrt(x) = \sqrt[3]{x}

Example::

   cbrt([1, 8, -125]) = [1, 2, -5]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::cbrt>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_cbrt"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_cbrt, unary_grad::cbrt)
// Second order: v = y, d = 1/(3y^2): d' = -2/(3y^3).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.v, -3), -2.0 / 3));
}});

MXNET_OPERATOR_REGISTER_UNARY(rcbrt)
.describe(R"code(Returns element-wise inverse cube-root value of the input.

.. math::
   rcbrt(x) = 1/\sqrt[3]{x}

Example::

   rcbrt([1,8,-125]) = [1.0, 0.5, -0.2]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::rcbrt>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_rcbrt"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_rcbrt, unary_grad::rcbrt)
// Second order: d = -x^-4/3 / 3: d' = 4/9 x^-7/3 = 4/9 rcbrt(x)^7 (also for x < 0).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.b.Op("rcbrt", {c.v}), 7), 4.0 / 9));
}});

// ---------------------------------------------------------------------------- activations

MXNET_OPERATOR_REGISTER_UNARY(relu)
.add_alias("_sparse_relu")
.describe(R"code(Computes rectified linear activation.

.. math::
   max(features, 0)

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::relu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_relu"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_relu, unary_grad::relu)
// the vectorised float loop overrides the macro's generic kernel (higher plevel)
.set_attr<FCompute>("FCompute<cpu>", ReluBackwardCompute<cpu>, 11)
// v = y, d = (y > 0) is piecewise constant: second order through ConstantFactorGrad (d' = 0).
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{ConstantFactorGrad});

MXNET_OPERATOR_REGISTER_UNARY(sigmoid)
.add_alias("_sparse_sigmoid")
.describe(R"code(Computes sigmoid of x element-wise.

.. math::
   y = 1 / (1 + exp(-x))

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>",
                    FastUnaryCompute<unary_fast::Fn::kSigmoid, mshadow_op::sigmoid>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_sigmoid"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_sigmoid, unary_grad::sigmoid)
// Second order: v = y, d = y(1-y): d' = 1 - 2y.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.AddScalar(c.b.Scale(c.v, -2), 1));
}});

MXNET_OPERATOR_REGISTER_UNARY(softsign)
.describe(R"code(Computes softsign of x element-wise.

.. math::
   y = x / (1 + abs(x))

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::softsign>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_softsign"});
MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_softsign, unary_grad::softsign)
// Second order: d = (1+|x|)^-2: d' = -2 sign(x) (1+|x|)^-3.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Mul(c.g_ograd, c.b.Mul(c.b.Scale(c.b.Op("sign", {c.v}), -2), c.b.Pow(c.b.AddScalar(c.b.Op("abs", {c.v}), 1), -3)));
}});

MXNET_OPERATOR_REGISTER_UNARY(logical_not)
.describe(R"code(Returns the result of logical NOT (!) function

Example:
  logical_not([-2., 0., 1.]) = [0., 1., 0.]

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::logical_not>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes);

// ---------------------------------------------------------------------------- clip

NNVM_REGISTER_OP(clip)
.add_alias("_sparse_clip")
.add_alias("_npi_clip")
.describe(R"code(Clips (limits) the values in an array.

Given an interval, values outside the interval are clipped to the interval edges.
Clipping ``x`` between `a_min` and `a_max` would be::

.. math::

   clip(x, a_min, a_max) = \max(\min(x, a_max), a_min))

Example::

    x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]

    clip(x,1,8) = [ 1.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  8.]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ClipParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames",
    [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"data"}; })
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceIn0Out0)
.set_attr<FCompute>("FCompute<cpu>", ClipCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_clip"})
.add_argument("data", "NDArray-or-Symbol", "Input array.")
.add_arguments(ClipParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_clip)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ClipParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<2, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceIn0Out0)
.set_attr<FCompute>("FCompute<cpu>", ClipGradCompute<cpu>)
// Second order: the factor (a_min < x < a_max) is piecewise constant.
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{ConstantFactorGrad})
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "The input of clip")
.add_arguments(ClipParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
