/*!
 * \file activation.cc
 * \brief Registration of `Activation` and `_backward_Activation`.
 */
#include "./activation-inl.h"
#include "../tensor/higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ActivationParam);

namespace {

uint32_t ActivationGradNumInputs(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<ActivationParam>(attrs.parsed).act_type == activation::kSoftSign ? 3 : 2;
}

std::vector<nnvm::NodeEntry> ActivationGrad(const nnvm::ObjectPtr& n,
                                            const std::vector<nnvm::NodeEntry>& ograds) {
  std::vector<nnvm::NodeEntry> heads(ograds.begin(), ograds.end());
  heads.emplace_back(n, activation::kOut, 0);
  // softsign's derivative is expressed on the input; the others on the output, which lets
  // the forward run in place.
  if (nnvm::get<ActivationParam>(n->attrs.parsed).act_type == activation::kSoftSign) {
    heads.push_back(n->inputs[activation::kData]);
  }
  return MakeGradNode("_backward_Activation", n, heads, n->attrs.dict);
}

// Second order (see tensor/higher_order_grad-inl.h). _backward_Activation(ograd, y[, x]) =
// ograd * d(.), with d written on y (relu, sigmoid, tanh, softrelu) or on x (softsign).
std::vector<nnvm::NodeEntry> BackwardActivationGrad(const nnvm::ObjectPtr& n,
                                                    const std::vector<nnvm::NodeEntry>& g) {
  GradGraphBuilder b(n);
  const int act = nnvm::get<ActivationParam>(n->attrs.parsed).act_type;
  const nnvm::NodeEntry &ograd = n->inputs[0], &y = n->inputs[1];
  std::vector<nnvm::NodeEntry> again_inputs(n->inputs.begin(), n->inputs.end());
  again_inputs[0] = g[0];
  nnvm::NodeEntry d_ograd(b.Again(again_inputs), 0, 0);
  nnvm::NodeEntry g_ograd = b.Mul(g[0], ograd);
  switch (act) {
    case activation::kReLU:  // d = (y > 0): d' = 0
      return {d_ograd, b.ZerosLike(y)};
    case activation::kSigmoid:  // d = y(1-y): d' = 1 - 2y
      return {d_ograd, b.Mul(g_ograd, b.AddScalar(b.Scale(y, -2), 1))};
    case activation::kTanh:  // d = 1 - y^2: d' = -2y
      return {d_ograd, b.Mul(g_ograd, b.Scale(y, -2))};
    case activation::kSoftReLU:  // y = log(1 + e^x), d = 1 - e^-y: d' = e^-y
      return {d_ograd, b.Mul(g_ograd, b.Op("exp", {b.Scale(y, -1)}))};
    default: {  // softsign, d = (1+|x|)^-2 on x: d' = -2 sign(x) (1+|x|)^-3
      const nnvm::NodeEntry& x = n->inputs[2];
      nnvm::NodeEntry d2 = b.Mul(b.Scale(b.Op("sign", {x}), -2),
                                 b.Pow(b.AddScalar(b.Op("abs", {x}), 1), -3));
      return {d_ograd, b.ZerosLike(y), b.Mul(g_ograd, d2)};
    }
  }
}

}  // namespace

MXNET_OPERATOR_REGISTER_UNARY(Activation)
.add_alias("_npx_activation")
.describe(R"code(Applies an activation function element-wise to the input.

The following activation functions are supported:

- `relu`: Rectified Linear Unit, :math:`y = max(x, 0)`
- `sigmoid`: :math:`y = \frac{1}{1 + exp(-x)}`
- `tanh`: Hyperbolic tangent, :math:`y = \frac{exp(x) - exp(-x)}{exp(x) + exp(-x)}`
- `softrelu`: Soft ReLU, or SoftPlus, :math:`y = log(1 + exp(x))`
- `softsign`: :math:`y = \frac{x}{1 + abs(x)}`

)code" ADD_FILELINE)
.set_attr_parser(ParamParser<ActivationParam>)
.set_attr<nnvm::FListOutputNames>("FListOutputNames",
    [](const NodeAttrs& attrs) { return std::vector<std::string>{"output"}; })
.set_attr<nnvm::FInferType>("FInferType", ElemwiseFloatType, 11)
.set_attr<FCompute>("FCompute<cpu>", ActivationCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ActivationGrad)
.add_arguments(ActivationParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Activation)
.set_num_inputs(ActivationGradNumInputs)
.set_attr<nnvm::FGradient>("FGradient", BackwardActivationGrad)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ActivationParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape",
  [](const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs, mxnet::ShapeVector* out_attrs) {
    mxnet::TShape s = (*out_attrs)[0];
    for (const auto& in : *in_attrs) {
      if (!shape_assign(&s, in)) {
        MX_THROW(ValueError) << "_backward_Activation: expected inputs of the same shape, got "
                             << in << " and " << s;
      }
    }
    for (auto& in : *in_attrs) in = s;
    (*out_attrs)[0] = s;
    return mxnet::shape_is_known(s);
  })
.set_attr<nnvm::FInferType>("FInferType",
  [](const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs, std::vector<int>* out_attrs) {
    int t = (*in_attrs)[0];
    for (int v : *in_attrs) {
      if (v != -1 && t != -1 && v != t) {
        MX_THROW(TypeError) << "_backward_Activation: expected inputs of the same dtype, got "
                            << mshadow::dtype_string(v) << " and " << mshadow::dtype_string(t);
      }
      if (t == -1) t = v;
    }
    if (t == -1) return false;
    for (auto& v : *in_attrs) v = t;
    TYPE_ASSIGN_CHECK(*out_attrs, 0, t);
    return true;
  })
.set_attr<nnvm::FInplaceOption>("FInplaceOption",
  [](const NodeAttrs& attrs) { return std::vector<std::pair<int, int>>{{0, 0}}; })
.set_attr<FCompute>("FCompute<cpu>", ActivationGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("output", "NDArray-or-Symbol", "Output of Activation")
.add_argument("data", "NDArray-or-Symbol", "Input of Activation (softsign only)")
.add_arguments(ActivationParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
