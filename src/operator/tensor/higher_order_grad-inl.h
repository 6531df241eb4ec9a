/*!
 * \file higher_order_grad-inl.h
 * \brief Helpers for the FGradient of backward operators (second and higher order autograd,
 *        `autograd.grad(..., create_graph=True)`): they build the gradient of a `_backward_*`
 *        node out of differentiable forward operators, so the result can be differentiated again.
 *
 * A unary backward node n has inputs (ograd, v) and computes ograd * d(v), where v is the
 * forward input x (ops registered with ElemwiseGradUseIn) or the forward output y
 * (ElemwiseGradUseOut). With g the gradient arriving at n's output:
 *   d/d ograd = g * d(v)          -- n's own op applied to (g, v), so it stays differentiable
 *   d/d v     = g * ograd * d'(v) -- built by the op's UnaryBackwardGrad::grad_of_factor
 * For v = y the gradient then flows on from y to x through the forward op's own FGradient.
 *
 *   MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_log, unary_grad::log)
 *   .set_attr<nnvm::FGradient>("FGradient", UnaryBackwardGrad{[](const GradCtx& c) {
 *     return c.Mul(c.g_ograd, c.Scale(c.Pow(c.v, -2), -1));   // d'(x) = -1/x^2
 *   }});
 */
#ifndef MXNET_OPERATOR_TENSOR_HIGHER_ORDER_GRAD_INL_H_
#define MXNET_OPERATOR_TENSOR_HIGHER_ORDER_GRAD_INL_H_

#include <nnvm/node.h>
#include <nnvm/op_attr_types.h>

#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {

/*! \brief Builds nodes named after a backward node n (names get a running suffix). */
class GradGraphBuilder {
 public:
  explicit GradGraphBuilder(const nnvm::ObjectPtr& n) : n_(n) {}

  /*! \brief Output 0 of a new op_name node on the inputs. */
  nnvm::NodeEntry Op(const char* op_name, std::vector<nnvm::NodeEntry> inputs,
                     std::unordered_map<std::string, std::string> dict = {}) const {
    std::ostringstream name;
    name << n_->attrs.name << "_hograd" << counter_++;
    nnvm::ObjectPtr p = MakeNode(op_name, name.str(), &inputs, &dict, nullptr);
    return nnvm::NodeEntry(p, 0, 0);
  }
  nnvm::NodeEntry Mul(const nnvm::NodeEntry& a, const nnvm::NodeEntry& b) const {
    return Op("elemwise_mul", {a, b});
  }
  nnvm::NodeEntry Add(const nnvm::NodeEntry& a, const nnvm::NodeEntry& b) const {
    return Op("elemwise_add", {a, b});
  }
  nnvm::NodeEntry Sub(const nnvm::NodeEntry& a, const nnvm::NodeEntry& b) const {
    return Op("elemwise_sub", {a, b});
  }
  nnvm::NodeEntry Scale(const nnvm::NodeEntry& a, double s) const {
    return Op("_mul_scalar", {a}, {{"scalar", Number(s)}});
  }
  nnvm::NodeEntry AddScalar(const nnvm::NodeEntry& a, double s) const {
    return Op("_plus_scalar", {a}, {{"scalar", Number(s)}});
  }
  nnvm::NodeEntry Pow(const nnvm::NodeEntry& a, double p) const {
    return Op("_power_scalar", {a}, {{"scalar", Number(p)}});
  }
  nnvm::NodeEntry Square(const nnvm::NodeEntry& a) const { return Op("square", {a}); }
  nnvm::NodeEntry ZerosLike(const nnvm::NodeEntry& a) const { return Op("zeros_like", {a}); }
  /*! \brief n's own op (and attributes) applied to new inputs, with n's forward node. */
  nnvm::ObjectPtr Again(std::vector<nnvm::NodeEntry> inputs) const {
    std::ostringstream name;
    name << n_->attrs.name << "_hograd" << counter_++;
    const nnvm::ObjectPtr* fwd = n_->control_deps.empty() ? nullptr : &n_->control_deps[0];
    return MakeNode(n_->op()->name.c_str(), name.str(), &inputs, &n_->attrs.dict, fwd);
  }
  /*! \brief The numeric attribute key of n (e.g. "scalar"), or fallback when absent. */
  double Attr(const char* key, double fallback) const {
    auto it = n_->attrs.dict.find(key);
    return it == n_->attrs.dict.end() ? fallback : std::stod(it->second);
  }

  static std::string Number(double v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
  }

 private:
  const nnvm::ObjectPtr& n_;
  mutable int counter_ = 0;
};

/*! \brief What UnaryBackwardGrad::grad_of_factor gets: the builder, v and g * ograd. */
struct UnaryGradCtx {
  const GradGraphBuilder& b;
  nnvm::NodeEntry v;        // n's second input: the forward input x or output y
  nnvm::NodeEntry g_ograd;  // gradient at n's output times n's ograd
};

/*! \brief FGradient of a unary backward op n(ograd, v) = ograd * d(v); grad_of_factor
 *         returns g * ograd * d'(v) (zeros_like(v) when d is constant). */
struct UnaryBackwardGrad {
  nnvm::NodeEntry (*grad_of_factor)(const UnaryGradCtx& c);
  std::vector<nnvm::NodeEntry> operator()(const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& g) const {
    GradGraphBuilder b(n);
    const nnvm::NodeEntry &ograd = n->inputs[0], &v = n->inputs[1];
    nnvm::NodeEntry d_ograd(b.Again({g[0], v}), 0, 0);
    UnaryGradCtx c{b, v, b.Mul(g[0], ograd)};
    return {d_ograd, grad_of_factor(c)};
  }
};

/*! \brief FGradient of the backward op of a linear one-input forward op (reshape, slice, ...):
 *         that backward op is the transpose of the forward op, so its gradient is the forward
 *         op itself (same attributes) applied to the incoming gradient. */
inline std::vector<nnvm::NodeEntry> LinearForwardAgainGrad(const nnvm::ObjectPtr& n,
                                                           const std::vector<nnvm::NodeEntry>& g) {
  if (n->control_deps.empty() || n->control_deps[0]->is_variable()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator " << n->op()->name << " (node " << n->attrs.name
        << ") has no higher-order gradient here: its forward node is not known";
  }
  const nnvm::ObjectPtr& fwd = n->control_deps[0];
  return {GradGraphBuilder(n).Op(fwd->op()->name.c_str(), {g[0]}, fwd->attrs.dict)};
}

/*! \brief grad_of_factor for backward ops whose factor does not depend on v (relu, abs, clip). */
inline nnvm::NodeEntry ConstantFactorGrad(const UnaryGradCtx& c) { return c.b.ZerosLike(c.v); }

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_HIGHER_ORDER_GRAD_INL_H_
