/*!
 * \file elemwise_binary_broadcast_op_basic.cc
 * \brief Broadcasting arithmetic: broadcast_add/sub/mul/div/mod and their backward ops
 *        (kernels in elemwise_binary_broadcast_op-inl.h).
 */
#include "./elemwise_binary_broadcast_op-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

namespace {
// Second-order gradients of the broadcast backward ops (see higher_order_grad-inl.h). g0 has
// the lhs shape and g1 the rhs shape; broadcasting them together gives the output shape.

// _backward_broadcast_add(ograd) = (sum_to_lhs(ograd), sum_to_rhs(ograd)).
std::vector<nnvm::NodeEntry> BackwardBroadcastAddGrad(const nnvm::ObjectPtr& n,
                                                      const std::vector<nnvm::NodeEntry>& g) {
  return {GradGraphBuilder(n).Op("broadcast_add", {g[0], g[1]})};
}

// _backward_broadcast_sub(ograd) = (sum_to_lhs(ograd), -sum_to_rhs(ograd)).
std::vector<nnvm::NodeEntry> BackwardBroadcastSubGrad(const nnvm::ObjectPtr& n,
                                                      const std::vector<nnvm::NodeEntry>& g) {
  return {GradGraphBuilder(n).Op("broadcast_sub", {g[0], g[1]})};
}

// _backward_broadcast_div(ograd, a, b) = (sum_to_a(ograd / b), sum_to_b(-ograd * a / b^2)).
std::vector<nnvm::NodeEntry> BackwardBroadcastDivGrad(const nnvm::ObjectPtr& n,
                                                      const std::vector<nnvm::NodeEntry>& g) {
  if (n->control_deps.empty()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator _backward_broadcast_div (node " << n->attrs.name
        << "): its gradient needs the forward broadcast_div node, which is not known";
  }
  GradGraphBuilder b(n);
  const nnvm::NodeEntry &ograd = n->inputs[0], &lhs = n->inputs[1], &rhs = n->inputs[2];
  nnvm::NodeEntry ratio = b.Op("broadcast_div", {lhs, rhs});
  nnvm::NodeEntry rhs_sq = b.Square(rhs);
  // d/dograd = (g0 - g1 * a / b) / b, in the output shape
  nnvm::NodeEntry d_ograd = b.Op(
      "broadcast_div", {b.Op("broadcast_sub", {g[0], b.Op("broadcast_mul", {g[1], ratio})}), rhs});
  // d/da = sum_to_a(-g1 * ograd / b^2); d/db = sum_to_b(ograd * (2 g1 a / b - g0) / b^2).
  nnvm::NodeEntry for_lhs = b.Scale(
      b.Op("broadcast_div", {b.Op("broadcast_mul", {ograd, g[1]}), rhs_sq}), -1);
  nnvm::NodeEntry inner = b.Op("broadcast_sub",
                               {b.Scale(b.Op("broadcast_mul", {g[1], ratio}), 2), g[0]});
  nnvm::NodeEntry for_rhs = b.Op("broadcast_div", {b.Op("broadcast_mul", {ograd, inner}), rhs_sq});
  // _backward_broadcast_add of the forward node sums an output-shaped array to lhs / rhs shape.
  std::vector<nnvm::NodeEntry> in_l{for_lhs}, in_r{for_rhs};
  nnvm::ObjectPtr sum_l = MakeNode("_backward_broadcast_add", n->attrs.name + "_hograd_sum_lhs",
                                   &in_l, nullptr, &n->control_deps[0]);
  nnvm::ObjectPtr sum_r = MakeNode("_backward_broadcast_add", n->attrs.name + "_hograd_sum_rhs",
                                   &in_r, nullptr, &n->control_deps[0]);
  return {d_ograd, nnvm::NodeEntry(sum_l, 0, 0), nnvm::NodeEntry(sum_r, 1, 0)};
}
}  // namespace

namespace {
const char* kBroadcastDoc = R"code(

Example::

   x = [[ 1.,  1.,  1.],
        [ 1.,  1.,  1.]]

   y = [[ 0.],
        [ 1.]]

)code";
}  // namespace

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_add)
.add_alias("broadcast_plus")
.add_alias("_sparse_broadcast_add")
.add_alias("_sparse_broadcast_plus")
.describe(std::string(R"code(Returns element-wise sum of the input arrays with broadcasting.

`broadcast_plus` is an alias to the function `broadcast_add`.)code") + kBroadcastDoc +
R"code(   broadcast_add(x, y) = [[ 1.,  1.,  1.],
                          [ 2.,  2.,  2.]]

   broadcast_plus(x, y) = [[ 1.,  1.,  1.],
                           [ 2.,  2.,  2.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::plus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_broadcast_add"});
MXNET_REGISTER_BROADCAST_BWD_USE_NONE(_backward_broadcast_add, mshadow_op::identity,
                                      mshadow_op::identity)
.set_attr<nnvm::FGradient>("FGradient", BackwardBroadcastAddGrad);

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_sub)
.add_alias("broadcast_minus")
.add_alias("_sparse_broadcast_sub")
.add_alias("_sparse_broadcast_minus")
.describe(std::string(R"code(Returns element-wise difference of the input arrays with broadcasting.

`broadcast_minus` is an alias to the function `broadcast_sub`.)code") + kBroadcastDoc +
R"code(   broadcast_sub(x, y) = [[ 1.,  1.,  1.],
                          [ 0.,  0.,  0.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::minus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_broadcast_sub"});
MXNET_REGISTER_BROADCAST_BWD_USE_NONE(_backward_broadcast_sub, mshadow_op::identity,
                                      mshadow_op::negation)
.set_attr<nnvm::FGradient>("FGradient", BackwardBroadcastSubGrad);

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_mul)
.add_alias("_sparse_broadcast_mul")
.describe(std::string("Returns element-wise product of the input arrays with broadcasting.") +
          kBroadcastDoc + R"code(   broadcast_mul(x, y) = [[ 0.,  0.,  0.],
                          [ 1.,  1.,  1.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::mul>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_broadcast_mul"});
MXNET_REGISTER_BROADCAST_BWD_USE_IN(_backward_broadcast_mul, binary_grad::mul_left,
                                    binary_grad::mul_right);

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_div)
.add_alias("_sparse_broadcast_div")
.describe(std::string("Returns element-wise division of the input arrays with broadcasting.") +
          R"code(

Example::

   x = [[ 6.,  6.,  6.],
        [ 6.,  6.,  6.]]

   y = [[ 2.],
        [ 3.]]

   broadcast_div(x, y) = [[ 3.,  3.,  3.],
                          [ 2.,  2.,  2.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::div>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_broadcast_div"});
MXNET_REGISTER_BROADCAST_BWD_USE_IN(_backward_broadcast_div, binary_grad::div_left,
                                    binary_grad::div_right)
.set_attr<nnvm::FGradient>("FGradient", BackwardBroadcastDivGrad);

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_mod)
.describe(R"code(Returns element-wise modulo of the input arrays with broadcasting.

Example::

   x = [[ 8.,  8.,  8.],
        [ 8.,  8.,  8.]]

   y = [[ 2.],
        [ 3.]]

   broadcast_mod(x, y) = [[ 0.,  0.,  0.],
                          [ 2.,  2.,  2.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::mod>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_broadcast_mod"});
MXNET_REGISTER_BROADCAST_BWD_USE_IN(_backward_broadcast_mod, binary_grad::one,
                                    binary_grad::mod_right);

}  // namespace op
}  // namespace mxnet
