/*!
 * \file leaky_relu.cc
 * \brief Registration of LeakyReLU and _backward_LeakyReLU.
 */
#include "./leaky_relu-inl.h"
#include "../tensor/higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(LeakyReLUParam);

NNVM_REGISTER_OP(LeakyReLU)
.add_alias("_npx_leaky_relu")
.describe(R"code(Rectifiers with a non-zero response to negative inputs, element-wise.

``act_type`` selects the function (``slope`` applies to leaky and elu):

- ``leaky`` (default): ``x > 0 ? x : slope * x``
- ``prelu``: ``x > 0 ? x : gamma * x`` with the learned second input ``gamma`` (one value, or
  one per channel of axis 1)
- ``elu``: ``x > 0 ? x : slope * (exp(x) - 1)``
- ``selu``: ``lambda * (x > 0 ? x : alpha * (exp(x) - 1))``, alpha = 1.6732632423543772,
  lambda = 1.0507009873554805
- ``gelu``: ``0.5 * x * (1 + erf(x / sqrt(2)))``
- ``rrelu``: ``x > 0 ? x : r * x``; in training r is drawn uniformly from
  ``[lower_bound, upper_bound)`` for every element, in predict mode it is
  ``(lower_bound + upper_bound) / 2``. The slopes are returned as a second output ``mask``.

)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) { return IsPReLU(attrs) ? 2 : 1; })
.set_num_outputs([](const NodeAttrs& attrs) { return IsRReLU(attrs) ? 2 : 1; })
.set_attr_parser(ParamParser<LeakyReLUParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return IsPReLU(attrs) ? std::vector<std::string>{"data", "gamma"}
                        : std::vector<std::string>{"data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return IsRReLU(attrs) ? std::vector<std::string>{"output", "mask"}
                        : std::vector<std::string>{"output"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LeakyReLUShape)
.set_attr<nnvm::FInferType>("FInferType", LeakyReLUType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return IsRReLU(attrs) ? std::vector<ResourceRequest>{ResourceRequest::kParallelRandom}
                        : std::vector<ResourceRequest>{};
})
.set_attr<FCompute>("FCompute<cpu>", LeakyReLUCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[leakyrelu::kOut], n->inputs[leakyrelu::kData],
                                       nnvm::NodeEntry{n, leakyrelu::kOut, 0}};
    if (IsPReLU(n->attrs)) heads.push_back(n->inputs[leakyrelu::kGamma]);
    if (IsRReLU(n->attrs)) heads.emplace_back(n, leakyrelu::kMask, 0);
    return MakeGradNode("_backward_LeakyReLU", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to activation function.")
.add_argument("gamma", "NDArray-or-Symbol", "Input data to activation function (prelu slopes).")
.add_arguments(LeakyReLUParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_LeakyReLU)
.describe("Backward of LeakyReLU: (out_grad, data, output[, gamma | mask]) -> "
          "(data_grad[, gamma_grad]).")
.set_num_inputs([](const NodeAttrs& attrs) {
  return IsPReLU(attrs) || IsRReLU(attrs) ? 4 : 3;
})
.set_num_outputs([](const NodeAttrs& attrs) { return IsPReLU(attrs) ? 2 : 1; })
.set_attr_parser(ParamParser<LeakyReLUParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*in, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  if (IsPReLU(attrs)) {
    if (shape_is_known((*in)[1]) && shape_is_known((*in)[3])) {
      PReLUGammaShape((*in)[3], (*in)[1]);
    }
    SHAPE_ASSIGN_CHECK(*out, 1, (*in)[3]);
  }
  for (const auto& s : *out) if (!shape_is_known(s)) return false;
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const int dtype = (*in)[1];
  if (dtype < 0) return false;
  for (size_t i = 0; i < in->size(); ++i) TYPE_ASSIGN_CHECK(*in, i, dtype);
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, dtype);
  return true;
})
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  // The GPU kernel sums prelu's gamma gradient in a double buffer (leaky_relu.cu).
  return IsPReLU(attrs) ? std::vector<ResourceRequest>{ResourceRequest::kTempSpace}
                        : std::vector<ResourceRequest>{};
})
.set_attr<FCompute>("FCompute<cpu>", LeakyReLUGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input of the forward LeakyReLU")
.add_argument("output", "NDArray-or-Symbol", "Output of the forward LeakyReLU")
.add_argument("extra", "NDArray-or-Symbol", "gamma (prelu) or mask (rrelu)")
.add_arguments(LeakyReLUParam::__FIELDS__());


// ------------------------------------------------------------------ second-order gradients
// FGradient of the backward ops (see tensor/higher_order_grad-inl.h), built from
// differentiable forward ops so that third order works too.
namespace {

using nnvm::NodeEntry;
using nnvm::ObjectPtr;

// ------------------------------------------------------------------ LeakyReLU

// _backward_LeakyReLU(ograd, x, y) = ograd * d with d = 1 for x > 0 and otherwise
//   leaky: slope;  elu: y + slope;  selu: y + lambda alpha;  gelu: Phi(x) + x phi(x).
// For elu / selu d depends on y (slope 1 where x <= 0), so the x-gradient flows through y.
std::vector<NodeEntry> BackwardLeakyReLUGrad(const ObjectPtr& n,
                                             const std::vector<NodeEntry>& g) {
  const LeakyReLUParam& param = nnvm::get<LeakyReLUParam>(n->attrs.parsed);
  GradGraphBuilder b(n);
  const NodeEntry &ograd = n->inputs[0], &x = n->inputs[1], &y = n->inputs[2];
  if (param.act_type == leakyrelu::kPReLU || param.act_type == leakyrelu::kRReLU) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator _backward_LeakyReLU (node " << n->attrs.name
        << ") has no higher-order gradient for act_type prelu / rrelu";
  }
  NodeEntry d_ograd(b.Again({g[0], x, y}), 0, 0);
  NodeEntry g_ograd = b.Mul(g[0], ograd);
  switch (param.act_type) {
    case leakyrelu::kELU:
    case leakyrelu::kSELU: {
      NodeEntry negative = b.Op("_lesser_equal_scalar", {x}, {{"scalar", "0"}});
      return {d_ograd, b.ZerosLike(x), b.Mul(g_ograd, negative)};
    }
    case leakyrelu::kGELU: {
      // d'(x) = phi(x) (2 - x^2), phi the standard normal density.
      NodeEntry x2 = b.Square(x);
      NodeEntry phi = b.Scale(b.Op("exp", {b.Scale(x2, -0.5)}), 1.0 / std::sqrt(2.0 * M_PI));
      NodeEntry d2 = b.Mul(phi, b.AddScalar(b.Scale(x2, -1), 2));
      return {d_ograd, b.Mul(g_ograd, d2), b.ZerosLike(y)};
    }
    default:  // leaky: d is piecewise constant
      return {d_ograd, b.ZerosLike(x), b.ZerosLike(y)};
  }
}

}  // namespace

NNVM_REGISTER_OP(_backward_LeakyReLU)
.set_attr<nnvm::FGradient>("FGradient", BackwardLeakyReLUGrad);

}  // namespace op
}  // namespace mxnet
