/*!
 * \file higher_order_grad2.cc
 * \brief Second-order gradients (FGradient of backward ops, see higher_order_grad-inl.h) for:
 *        power / maximum / minimum / hypot (same-shape, broadcast and scalar forms), the max /
 *        min / prod / norm reductions, batch_dot, where, take / Embedding and the linear shape
 *        ops (Concat, stack, SliceChannel, squeeze, tile, repeat). Every gradient is built from
 *        differentiable forward ops (or from backward ops that have an FGradient themselves), so
 *        third order works too. The nn/ operators keep theirs beside them (softmax.cc,
 *        leaky_relu.cc).
 */
#include <cmath>
#include <string>
#include <vector>

#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {
namespace {

using nnvm::NodeEntry;
using nnvm::ObjectPtr;

// ------------------------------------------------------------------ binary elementwise ops

/*!
 * \brief Partial derivatives of f(a, b) as graph entries in the (broadcast) output shape.
 *        An empty `faa` means all second partials are zero (piecewise-linear f).
 */
struct BinaryPartials {
  NodeEntry fa, fb, faa, fab, fbb;
};

using PartialsFn = BinaryPartials (*)(const GradGraphBuilder& b, const NodeEntry& a,
                                      const NodeEntry& c);

NodeEntry BMul(const GradGraphBuilder& b, const NodeEntry& x, const NodeEntry& y) {
  return b.Op("broadcast_mul", {x, y});
}
NodeEntry BAdd(const GradGraphBuilder& b, const NodeEntry& x, const NodeEntry& y) {
  return b.Op("broadcast_add", {x, y});
}
NodeEntry BDiv(const GradGraphBuilder& b, const NodeEntry& x, const NodeEntry& y) {
  return b.Op("broadcast_div", {x, y});
}

// f = a^c: fa = c a^(c-1), fb = a^c ln a, faa = c (c-1) a^(c-2), fab = a^(c-1) (1 + c ln a),
// fbb = a^c (ln a)^2.
BinaryPartials PowerPartials(const GradGraphBuilder& b, const NodeEntry& a, const NodeEntry& c) {
  NodeEntry y = b.Op("broadcast_power", {a, c});
  NodeEntry a_pow_cm1 = b.Op("broadcast_power", {a, b.AddScalar(c, -1)});
  NodeEntry a_pow_cm2 = b.Op("broadcast_power", {a, b.AddScalar(c, -2)});
  NodeEntry ln_a = b.Op("log", {a});
  BinaryPartials p;
  p.fa = BMul(b, c, a_pow_cm1);
  p.fb = BMul(b, y, ln_a);
  p.faa = BMul(b, BMul(b, c, b.AddScalar(c, -1)), a_pow_cm2);
  p.fab = BMul(b, a_pow_cm1, b.AddScalar(BMul(b, c, ln_a), 1));
  p.fbb = BMul(b, p.fb, ln_a);
  return p;
}

// f = max(a, c): the lhs gets the gradient where a >= c, the rhs where a < c (MXNet's ties).
BinaryPartials MaximumPartials(const GradGraphBuilder& b, const NodeEntry& a,
                               const NodeEntry& c) {
  BinaryPartials p;
  p.fa = b.Op("broadcast_greater_equal", {a, c});
  p.fb = b.Op("broadcast_lesser", {a, c});
  return p;
}

// f = min(a, c): the lhs gets the gradient where a <= c, the rhs where a > c.
BinaryPartials MinimumPartials(const GradGraphBuilder& b, const NodeEntry& a,
                               const NodeEntry& c) {
  BinaryPartials p;
  p.fa = b.Op("broadcast_lesser_equal", {a, c});
  p.fb = b.Op("broadcast_greater", {a, c});
  return p;
}

// f = h = sqrt(a^2 + c^2): fa = a/h, fb = c/h, faa = c^2/h^3, fab = -a c/h^3, fbb = a^2/h^3.
BinaryPartials HypotPartials(const GradGraphBuilder& b, const NodeEntry& a, const NodeEntry& c) {
  NodeEntry h = b.Op("broadcast_hypot", {a, c});
  NodeEntry h3 = b.Pow(h, 3);
  BinaryPartials p;
  p.fa = BDiv(b, a, h);
  p.fb = BDiv(b, c, h);
  p.faa = BDiv(b, b.Square(c), h3);
  p.fab = b.Scale(BDiv(b, BMul(b, a, c), h3), -1);
  p.fbb = BDiv(b, b.Square(a), h3);
  return p;
}

/*!
 * \brief FGradient of a binary backward op n(ograd, a, c) = (sum_to_a(ograd fa),
 *        sum_to_c(ograd fb)). With g0, g1 the gradients at n's outputs:
 *          d/dograd = g0 fa + g1 fb
 *          d/da     = sum_to_a(ograd (g0 faa + g1 fab)),  d/dc = sum_to_c(ograd (g0 fab + g1 fbb))
 *        For broadcast ops the sums to the input shapes are _backward_broadcast_add of the
 *        forward node (which is linear and differentiable).
 */
template <PartialsFn partials, bool broadcast>
std::vector<NodeEntry> BinaryBackwardGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  if (broadcast && n->control_deps.empty()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator " << n->op()->name << " (node " << n->attrs.name
        << ") has no higher-order gradient here: its forward node is not known";
  }
  GradGraphBuilder b(n);
  const NodeEntry &ograd = n->inputs[0], &lhs = n->inputs[1], &rhs = n->inputs[2];
  BinaryPartials p = partials(b, lhs, rhs);
  NodeEntry d_ograd = BAdd(b, BMul(b, g[0], p.fa), BMul(b, g[1], p.fb));
  if (p.faa.node == nullptr) return {d_ograd, b.ZerosLike(lhs), b.ZerosLike(rhs)};
  NodeEntry for_lhs = BMul(b, ograd, BAdd(b, BMul(b, g[0], p.faa), BMul(b, g[1], p.fab)));
  NodeEntry for_rhs = BMul(b, ograd, BAdd(b, BMul(b, g[0], p.fab), BMul(b, g[1], p.fbb)));
  if (!broadcast) return {d_ograd, for_lhs, for_rhs};
  std::vector<NodeEntry> in_l{for_lhs}, in_r{for_rhs};
  ObjectPtr sum_l = MakeNode("_backward_broadcast_add", n->attrs.name + "_hograd_sum_lhs", &in_l,
                             nullptr, &n->control_deps[0]);
  ObjectPtr sum_r = MakeNode("_backward_broadcast_add", n->attrs.name + "_hograd_sum_rhs", &in_r,
                             nullptr, &n->control_deps[0]);
  return {d_ograd, NodeEntry(sum_l, 0, 0), NodeEntry(sum_r, 1, 0)};
}

// ------------------------------------------------------------------ max / min reductions

// _backward_max(ograd, x, y) = ograd (broadcast back) * [x == y]: linear in ograd, piecewise
// constant in x and y. d/dograd = sum(g * mask) over the reduced axes; the mask is the same
// backward op applied to ones (its own gradient is zero).
std::vector<NodeEntry> ReduceExtremumBackwardGrad(const ObjectPtr& n,
                                                  const std::vector<NodeEntry>& g) {
  if (n->control_deps.empty() || n->control_deps[0]->is_variable()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator " << n->op()->name << " (node " << n->attrs.name
        << ") has no higher-order gradient here: its forward node is not known";
  }
  GradGraphBuilder b(n);
  const NodeEntry &ograd = n->inputs[0], &x = n->inputs[1], &y = n->inputs[2];
  NodeEntry mask(b.Again({b.Op("ones_like", {ograd}), x, y}), 0, 0);
  NodeEntry d_ograd = b.Op("sum", {b.Mul(g[0], mask)}, n->control_deps[0]->attrs.dict);
  return {d_ograd, b.ZerosLike(x), b.ZerosLike(y)};
}

// prod / norm: r is the reduced shape, X the input shape. sum_r reduces X -> r like the forward
// op; bcast_x broadcasts r -> X (a _backward_sum node of the forward node, which is linear and
// differentiable).
struct ReduceTools {
  const GradGraphBuilder& b;
  const nnvm::ObjectPtr& n;
  std::unordered_map<std::string, std::string> reduce_attrs;  // axis / keepdims / exclude
  NodeEntry SumR(const NodeEntry& z) const { return b.Op("sum", {z}, reduce_attrs); }
  NodeEntry BcastX(const NodeEntry& r) const {
    std::vector<NodeEntry> in{r};
    auto dict = reduce_attrs;
    ObjectPtr p = MakeNode("_backward_sum", n->attrs.name + "_hograd_bcast", &in, &dict,
                           &n->control_deps[0]);
    return NodeEntry(p, 0, 0);
  }
};

ReduceTools MakeReduceTools(const GradGraphBuilder& b, const nnvm::ObjectPtr& n) {
  if (n->control_deps.empty() || n->control_deps[0]->is_variable()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator " << n->op()->name << " (node " << n->attrs.name
        << ") has no higher-order gradient here: its forward node is not known";
  }
  ReduceTools t{b, n, {}};
  for (const char* key : {"axis", "keepdims", "exclude"}) {
    auto it = n->attrs.dict.find(key);
    if (it != n->attrs.dict.end()) t.reduce_attrs[key] = it->second;
  }
  return t;
}

// _backward_prod(ograd, x, y) = bcast(ograd y) / x. With g at the output:
//   d/dograd = sum_r(g / x) y,  d/dx = -g bcast(ograd y) / x^2,  d/dy = sum_r(g / x) ograd.
std::vector<NodeEntry> BackwardProdGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  GradGraphBuilder b(n);
  ReduceTools t = MakeReduceTools(b, n);
  const NodeEntry &ograd = n->inputs[0], &x = n->inputs[1], &y = n->inputs[2];
  NodeEntry g_over_x = t.SumR(b.Op("elemwise_div", {g[0], x}));
  NodeEntry d_x = b.Scale(
      b.Op("elemwise_div", {b.Mul(g[0], t.BcastX(b.Mul(ograd, y))), b.Square(x)}), -1);
  return {b.Mul(g_over_x, y), d_x, b.Mul(g_over_x, ograd)};
}

// _backward_norm(ograd, x, y) = bcast(ograd / y) x for ord=2 and bcast(ograd) sign(x) for ord=1.
//   ord 2: d/dograd = sum_r(g x) / y,  d/dx = g bcast(ograd / y),  d/dy = -sum_r(g x) ograd / y^2
//   ord 1: d/dograd = sum_r(g sign(x)), no x / y gradient (piecewise linear).
std::vector<NodeEntry> BackwardNormGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  GradGraphBuilder b(n);
  ReduceTools t = MakeReduceTools(b, n);
  const NodeEntry &ograd = n->inputs[0], &x = n->inputs[1], &y = n->inputs[2];
  if (b.Attr("ord", 2) == 1) {
    return {t.SumR(b.Mul(g[0], b.Op("sign", {x}))), b.ZerosLike(x), b.ZerosLike(y)};
  }
  NodeEntry gx = t.SumR(b.Mul(g[0], x));
  NodeEntry d_ograd = b.Op("elemwise_div", {gx, y});
  NodeEntry d_x = b.Mul(g[0], t.BcastX(b.Op("elemwise_div", {ograd, y})));
  NodeEntry d_y = b.Scale(b.Op("elemwise_div", {b.Mul(gx, ograd), b.Square(y)}), -1);
  return {d_ograd, d_x, d_y};
}

// ------------------------------------------------------------------ batch_dot

// Same reasoning as _backward_dot (dot.cc): <g0, da> + <g1, db> = <ograd, bd(g0, b) + bd(a, g1)>.
std::vector<NodeEntry> BackwardBatchDotGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  GradGraphBuilder b(n);
  const NodeEntry &ograd = n->inputs[0], &lhs = n->inputs[1], &rhs = n->inputs[2];
  NodeEntry d_ograd = b.Add(b.Op("batch_dot", {g[0], rhs}, n->attrs.dict),
                            b.Op("batch_dot", {lhs, g[1]}, n->attrs.dict));
  ObjectPtr for_lhs = b.Again({ograd, lhs, g[1]});
  ObjectPtr for_rhs = b.Again({ograd, g[0], rhs});
  return {d_ograd, NodeEntry(for_lhs, 0, 0), NodeEntry(for_rhs, 1, 0)};
}

// ------------------------------------------------------------------ where, SliceChannel

// _backward_where(ograd, cond) = (ograd * [cond != 0], ograd * [cond == 0]), linear in ograd:
// d/dograd = where(cond, g0, g1); the condition gets no gradient.
std::vector<NodeEntry> BackwardWhereGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  GradGraphBuilder b(n);
  const NodeEntry& cond = n->inputs[1];
  return {b.Op("where", {cond, g[0], g[1]}), b.ZerosLike(cond)};
}

// _backward_SliceChannel(ograd_0 .. ograd_k-1) concatenates its inputs, the transpose of the
// split: its gradient is the forward split of g (all its outputs).
std::vector<NodeEntry> BackwardSliceChannelGrad(const ObjectPtr& n,
                                                const std::vector<NodeEntry>& g) {
  if (n->control_deps.empty() || n->control_deps[0]->is_variable()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator _backward_SliceChannel (node " << n->attrs.name
        << ") has no higher-order gradient here: its forward node is not known";
  }
  const ObjectPtr& fwd = n->control_deps[0];
  std::vector<NodeEntry> in{g[0]};
  auto dict = fwd->attrs.dict;
  ObjectPtr split = MakeNode(fwd->op()->name.c_str(), n->attrs.name + "_hograd_split", &in,
                             &dict, nullptr);
  std::vector<NodeEntry> ret;
  for (uint32_t i = 0; i < n->inputs.size(); ++i) ret.emplace_back(split, i, 0);
  return ret;
}

// ------------------------------------------------------------------ take, Embedding

// _backward_take(ograd, indices) = (scatter-add of ograd into a's shape, 0): linear in ograd
// and the transpose of the gather, so d/dograd = take(g0, indices) (same axis and mode).
std::vector<NodeEntry> BackwardTakeGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  GradGraphBuilder b(n);
  const NodeEntry& indices = n->inputs[1];
  return {b.Op("take", {g[0], indices}, n->attrs.dict), b.ZerosLike(indices)};
}

// _backward_Embedding(ograd, data) = (0, scatter-add of ograd rows into the weight):
// d/dograd = Embedding(data, g1) (the row gather).
std::vector<NodeEntry> BackwardEmbeddingGrad(const ObjectPtr& n,
                                             const std::vector<NodeEntry>& g) {
  GradGraphBuilder b(n);
  const NodeEntry& data = n->inputs[1];
  return {b.Op("Embedding", {data, g[1]}, n->attrs.dict), b.ZerosLike(data)};
}

// _backward_Concat / _backward_stack (ograd) -> one gradient per forward input: linear, the
// transpose of the forward op, so their gradient is the forward op applied to all of g.
std::vector<NodeEntry> LinearMultiOutputBackwardGrad(const ObjectPtr& n,
                                                     const std::vector<NodeEntry>& g) {
  if (n->control_deps.empty() || n->control_deps[0]->is_variable()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator " << n->op()->name << " (node " << n->attrs.name
        << ") has no higher-order gradient here: its forward node is not known";
  }
  const ObjectPtr& fwd = n->control_deps[0];
  return {GradGraphBuilder(n).Op(fwd->op()->name.c_str(), g, fwd->attrs.dict)};
}

}  // namespace

NNVM_REGISTER_OP(_backward_Concat)
.set_attr<nnvm::FGradient>("FGradient", LinearMultiOutputBackwardGrad);
NNVM_REGISTER_OP(_backward_stack)
.set_attr<nnvm::FGradient>("FGradient", LinearMultiOutputBackwardGrad);
// One-input linear ops whose backward takes only ograd: the gradient of the backward op is the
// forward op itself (higher_order_grad-inl.h).
NNVM_REGISTER_OP(_backward_squeeze)
.set_attr<nnvm::FGradient>("FGradient", LinearForwardAgainGrad);
NNVM_REGISTER_OP(_backward_tile)
.set_attr<nnvm::FGradient>("FGradient", LinearForwardAgainGrad);
NNVM_REGISTER_OP(_backward_repeat)
.set_attr<nnvm::FGradient>("FGradient", LinearForwardAgainGrad);

NNVM_REGISTER_OP(_backward_take)
.set_attr<nnvm::FGradient>("FGradient", BackwardTakeGrad);
NNVM_REGISTER_OP(_backward_Embedding)
.set_attr<nnvm::FGradient>("FGradient", BackwardEmbeddingGrad);

NNVM_REGISTER_OP(_backward_power)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<PowerPartials, false>);
NNVM_REGISTER_OP(_backward_broadcast_power)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<PowerPartials, true>);
NNVM_REGISTER_OP(_backward_maximum)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<MaximumPartials, false>);
NNVM_REGISTER_OP(_backward_broadcast_maximum)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<MaximumPartials, true>);
NNVM_REGISTER_OP(_backward_minimum)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<MinimumPartials, false>);
NNVM_REGISTER_OP(_backward_broadcast_minimum)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<MinimumPartials, true>);
NNVM_REGISTER_OP(_backward_hypot)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<HypotPartials, false>);
NNVM_REGISTER_OP(_backward_broadcast_hypot)
.set_attr<nnvm::FGradient>("FGradient", BinaryBackwardGrad<HypotPartials, true>);

// Scalar forms: n(ograd, v) = ograd * d(v).
// rpower: v = y = s^x, d(y) = y ln s, so d'(y) = ln s (the gradient then flows y -> x).
NNVM_REGISTER_OP(_backward_rpower_scalar)
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  return c.b.Scale(c.g_ograd, std::log(c.b.Attr("scalar", 1.0)));
}});
NNVM_REGISTER_OP(_backward_maximum_scalar)
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{ConstantFactorGrad});
NNVM_REGISTER_OP(_backward_minimum_scalar)
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{ConstantFactorGrad});
// hypot(x, s): d = x / h, d' = s^2 / h^3 = s^2 (x^2 + s^2)^-1.5.
NNVM_REGISTER_OP(_backward_hypot_scalar)
.set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const UnaryGradCtx& c) {
  const double s2 = c.b.Attr("scalar", 1.0) * c.b.Attr("scalar", 1.0);
  return c.b.Mul(c.g_ograd, c.b.Scale(c.b.Pow(c.b.AddScalar(c.b.Square(c.v), s2), -1.5), s2));
}});

NNVM_REGISTER_OP(_backward_max)
.set_attr<nnvm::FGradient>("FGradient", ReduceExtremumBackwardGrad);
NNVM_REGISTER_OP(_backward_min)
.set_attr<nnvm::FGradient>("FGradient", ReduceExtremumBackwardGrad);

NNVM_REGISTER_OP(_backward_prod)
.set_attr<nnvm::FGradient>("FGradient", BackwardProdGrad);
NNVM_REGISTER_OP(_backward_norm)
.set_attr<nnvm::FGradient>("FGradient", BackwardNormGrad);

NNVM_REGISTER_OP(_backward_batch_dot)
.set_attr<nnvm::FGradient>("FGradient", BackwardBatchDotGrad);

NNVM_REGISTER_OP(_backward_where)
.set_attr<nnvm::FGradient>("FGradient", BackwardWhereGrad);

NNVM_REGISTER_OP(_backward_SliceChannel)
.set_attr<nnvm::FGradient>("FGradient", BackwardSliceChannelGrad);

}  // namespace op
}  // namespace mxnet
