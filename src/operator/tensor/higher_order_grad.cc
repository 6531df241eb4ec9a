/*!
 * \file higher_order_grad.cc
 * \brief Gradients of some backward operators (second-order autograd, create_graph=True),
 *        written with differentiable forward operators:
 *          _backward_mul / _backward_broadcast_mul (products), _backward_sin, _backward_cos,
 *          _backward_power_scalar.
 *        Each FGradient receives the backward node n (inputs: ograd then the forward inputs)
 *        and the gradients of n's outputs.
 */
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {
namespace {

using nnvm::NodeEntry;
using nnvm::ObjectPtr;

std::string Number(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

NodeEntry Apply(const char* op_name, const ObjectPtr& n, const std::string& suffix,
                std::vector<NodeEntry> inputs,
                std::unordered_map<std::string, std::string> dict = {}) {
  ObjectPtr p = MakeNode(op_name, n->attrs.name + suffix, &inputs, &dict, nullptr);
  return NodeEntry(p, 0, 0);
}

// _backward_mul(ograd, lhs, rhs) = (ograd * rhs, ograd * lhs).
std::vector<NodeEntry> BackwardMulGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  const NodeEntry &ograd = n->inputs[0], &lhs = n->inputs[1], &rhs = n->inputs[2];
  NodeEntry d_ograd = Apply("elemwise_add", n, "_grad_ograd",
                            {Apply("elemwise_mul", n, "_grad_ograd_l", {g[0], rhs}),
                             Apply("elemwise_mul", n, "_grad_ograd_r", {g[1], lhs})});
  return {d_ograd, Apply("elemwise_mul", n, "_grad_lhs", {g[1], ograd}),
          Apply("elemwise_mul", n, "_grad_rhs", {g[0], ograd})};
}

// _backward_broadcast_mul(ograd, lhs, rhs) = (sum_to_lhs(ograd * rhs), sum_to_rhs(ograd * lhs)).
std::vector<NodeEntry> BackwardBroadcastMulGrad(const ObjectPtr& n,
                                                const std::vector<NodeEntry>& g) {
  const NodeEntry &ograd = n->inputs[0], &lhs = n->inputs[1], &rhs = n->inputs[2];
  NodeEntry d_ograd = Apply("elemwise_add", n, "_grad_ograd",
                            {Apply("broadcast_mul", n, "_grad_ograd_l", {g[0], rhs}),
                             Apply("broadcast_mul", n, "_grad_ograd_r", {g[1], lhs})});
  // d/dlhs = sum_to_lhs(ograd * g1) and d/drhs = sum_to_rhs(ograd * g0): the same backward op
  // with g1 (g0) in place of rhs (lhs); output shapes come from the forward product node.
  const ObjectPtr* fwd = n->control_deps.empty() ? nullptr : &n->control_deps[0];
  std::vector<NodeEntry> in_l{ograd, lhs, g[1]}, in_r{ograd, g[0], rhs};
  ObjectPtr for_lhs = MakeNode("_backward_broadcast_mul", n->attrs.name + "_grad_lhs", &in_l,
                               &n->attrs.dict, fwd);
  ObjectPtr for_rhs = MakeNode("_backward_broadcast_mul", n->attrs.name + "_grad_rhs", &in_r,
                               &n->attrs.dict, fwd);
  return {d_ograd, NodeEntry(for_lhs, 0, 0), NodeEntry(for_rhs, 1, 0)};
}

// _backward_sin(ograd, x) = ograd * cos(x).
std::vector<NodeEntry> BackwardSinGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  const NodeEntry &ograd = n->inputs[0], &x = n->inputs[1];
  NodeEntry cos_x = Apply("cos", n, "_grad_cos", {x});
  NodeEntry minus_sin_x = Apply("negative", n, "_grad_neg_sin", {Apply("sin", n, "_grad_sin", {x})});
  return {Apply("elemwise_mul", n, "_grad_ograd", {g[0], cos_x}),
          Apply("elemwise_mul", n, "_grad_x",
                {Apply("elemwise_mul", n, "_grad_g_ograd", {g[0], ograd}), minus_sin_x})};
}

// _backward_cos(ograd, x) = -ograd * sin(x).
std::vector<NodeEntry> BackwardCosGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  const NodeEntry &ograd = n->inputs[0], &x = n->inputs[1];
  NodeEntry minus_sin_x = Apply("negative", n, "_grad_neg_sin", {Apply("sin", n, "_grad_sin", {x})});
  NodeEntry minus_cos_x = Apply("negative", n, "_grad_neg_cos", {Apply("cos", n, "_grad_cos", {x})});
  return {Apply("elemwise_mul", n, "_grad_ograd", {g[0], minus_sin_x}),
          Apply("elemwise_mul", n, "_grad_x",
                {Apply("elemwise_mul", n, "_grad_g_ograd", {g[0], ograd}), minus_cos_x})};
}

// _backward_power_scalar(ograd, x; p) = ograd * p * x^(p-1).
std::vector<NodeEntry> BackwardPowerScalarGrad(const ObjectPtr& n,
                                               const std::vector<NodeEntry>& g) {
  const NodeEntry &ograd = n->inputs[0], &x = n->inputs[1];
  auto it = n->attrs.dict.find("scalar");
  const double p = it == n->attrs.dict.end() ? 1.0 : std::stod(it->second);
  // d/dograd: g * p * x^(p-1), i.e. the same backward op applied to g.
  std::vector<NodeEntry> in{g[0], x};
  ObjectPtr d_ograd = MakeNode("_backward_power_scalar", n->attrs.name + "_grad_ograd", &in,
                               &n->attrs.dict, nullptr);
  // d/dx: g * ograd * p * (p-1) * x^(p-2).
  NodeEntry pow_term = Apply("_power_scalar", n, "_grad_pow", {x},
                             {{"scalar", Number(p - 2.0)}});
  NodeEntry scaled = Apply("_mul_scalar", n, "_grad_scale", {pow_term},
                           {{"scalar", Number(p * (p - 1.0))}});
  return {NodeEntry(d_ograd, 0, 0),
          Apply("elemwise_mul", n, "_grad_x",
                {Apply("elemwise_mul", n, "_grad_g_ograd", {g[0], ograd}), scaled})};
}

}  // namespace

NNVM_REGISTER_OP(_backward_mul)
.set_attr<nnvm::FGradient>("FGradient", BackwardMulGrad);

NNVM_REGISTER_OP(_backward_broadcast_mul)
.set_attr<nnvm::FGradient>("FGradient", BackwardBroadcastMulGrad);

NNVM_REGISTER_OP(_backward_sin)
.set_attr<nnvm::FGradient>("FGradient", BackwardSinGrad);

NNVM_REGISTER_OP(_backward_cos)
.set_attr<nnvm::FGradient>("FGradient", BackwardCosGrad);

NNVM_REGISTER_OP(_backward_power_scalar)
.set_attr<nnvm::FGradient>("FGradient", BackwardPowerScalarGrad);

}  // namespace op
}  // namespace mxnet
