/*!
 * \file elemwise_binary_op_basic.cc
 * \brief Same-shape arithmetic: elemwise_add/_sub/_mul/_div, _mod, _grad_add, their backward
 *        ops, and add_n (ElementWiseSum). Kernels in elemwise_binary_op-inl.h.
 */
#include "./elemwise_binary_op-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

// The same-shape kernels shared with the broadcasting ops (extern in elemwise_binary_op-inl.h).
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::plus);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::minus);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::mul);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::div);
MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::mod);
MXNET_BINARY_BWD_USE_NONE_CPU(mshadow_op::identity, mshadow_op::identity);
MXNET_BINARY_BWD_USE_NONE_CPU(mshadow_op::identity, mshadow_op::negation);
MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::mul_left, binary_grad::mul_right);
MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::div_left, binary_grad::div_right);
MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::one, binary_grad::mod_right);

namespace {
// Second-order gradients of the binary backward ops (see higher_order_grad-inl.h).

// _backward_add(ograd) = (ograd, ograd).
std::vector<nnvm::NodeEntry> BackwardAddGrad(const nnvm::ObjectPtr& n,
                                             const std::vector<nnvm::NodeEntry>& g) {
  return {GradGraphBuilder(n).Add(g[0], g[1])};
}

// _backward_sub(ograd) = (ograd, -ograd).
std::vector<nnvm::NodeEntry> BackwardSubGrad(const nnvm::ObjectPtr& n,
                                             const std::vector<nnvm::NodeEntry>& g) {
  return {GradGraphBuilder(n).Sub(g[0], g[1])};
}

// _backward_div(ograd, a, b) = (ograd / b, -ograd * a / b^2).
std::vector<nnvm::NodeEntry> BackwardDivGrad(const nnvm::ObjectPtr& n,
                                             const std::vector<nnvm::NodeEntry>& g) {
  GradGraphBuilder b(n);
  const nnvm::NodeEntry &ograd = n->inputs[0], &lhs = n->inputs[1], &rhs = n->inputs[2];
  nnvm::NodeEntry ratio = b.Op("elemwise_div", {lhs, rhs});
  nnvm::NodeEntry rhs_sq = b.Square(rhs);
  // d/dograd = (g0 - g1 * a / b) / b
  nnvm::NodeEntry d_ograd = b.Op("elemwise_div", {b.Sub(g[0], b.Mul(g[1], ratio)), rhs});
  // d/da = -g1 * ograd / b^2
  nnvm::NodeEntry d_lhs = b.Scale(b.Op("elemwise_div", {b.Mul(g[1], ograd), rhs_sq}), -1);
  // d/db = ograd * (2 g1 a / b - g0) / b^2
  nnvm::NodeEntry d_rhs = b.Op(
      "elemwise_div", {b.Mul(ograd, b.Sub(b.Scale(b.Mul(g[1], ratio), 2), g[0])), rhs_sq});
  return {d_ograd, d_lhs, d_rhs};
}
}  // namespace

DMLC_REGISTER_PARAMETER(ElementWiseSumParam);

MXNET_OPERATOR_REGISTER_BINARY(elemwise_add)
.add_alias("_add").add_alias("_plus").add_alias("_Plus").add_alias("_sparse_elemwise_add")
.describe(R"code(Adds arguments element-wise.

The storage type of ``elemwise_add`` output depends on storage types of inputs

   - elemwise_add(row_sparse, row_sparse) = row_sparse
   - elemwise_add(csr, csr) = csr
   - elemwise_add(default, csr) = default
   - elemwise_add(csr, default) = default
   - elemwise_add(default, rsp) = default
   - elemwise_add(rsp, default) = default
   - otherwise, ``elemwise_add`` generates output with default storage

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::plus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_add"});
MXNET_REGISTER_BINARY_BWD_USE_NONE(_backward_add, mshadow_op::identity, mshadow_op::identity)
.set_attr<nnvm::FGradient>("FGradient", BackwardAddGrad);

// _grad_add: elemwise_add used to accumulate gradients.
MXNET_OPERATOR_REGISTER_BINARY(_grad_add)
.describe("Adds arguments element-wise (used to sum gradients)." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::plus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_add"});

MXNET_OPERATOR_REGISTER_BINARY(elemwise_sub)
.add_alias("_sub").add_alias("_minus").add_alias("_Minus").add_alias("_sparse_elemwise_sub")
.describe(R"code(Subtracts arguments element-wise.

The storage type of ``elemwise_sub`` output depends on storage types of inputs

   - elemwise_sub(row_sparse, row_sparse) = row_sparse
   - elemwise_sub(csr, csr) = csr
   - elemwise_sub(default, csr) = default
   - elemwise_sub(csr, default) = default
   - elemwise_sub(default, rsp) = default
   - elemwise_sub(rsp, default) = default
   - otherwise, ``elemwise_sub`` generates output with default storage

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::minus>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_sub"});
MXNET_REGISTER_BINARY_BWD_USE_NONE(_backward_sub, mshadow_op::identity, mshadow_op::negation)
.set_attr<nnvm::FGradient>("FGradient", BackwardSubGrad);

MXNET_OPERATOR_REGISTER_BINARY(elemwise_mul)
.add_alias("_mul").add_alias("_Mul").add_alias("_sparse_elemwise_mul")
.describe(R"code(Multiplies arguments element-wise.

The storage type of ``elemwise_mul`` output depends on storage types of inputs

   - elemwise_mul(default, default) = default
   - elemwise_mul(row_sparse, row_sparse) = row_sparse
   - elemwise_mul(default, row_sparse) = row_sparse
   - elemwise_mul(row_sparse, default) = row_sparse
   - elemwise_mul(csr, csr) = csr
   - otherwise, ``elemwise_mul`` generates output with default storage

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::mul>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_mul"});
MXNET_REGISTER_BINARY_BWD_USE_IN(_backward_mul, binary_grad::mul_left, binary_grad::mul_right);

MXNET_OPERATOR_REGISTER_BINARY(elemwise_div)
.add_alias("_div").add_alias("_Div").add_alias("_sparse_elemwise_div")
.describe(R"code(Divides arguments element-wise.

The storage type of ``elemwise_div`` output is always dense

)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::div>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_div"});
MXNET_REGISTER_BINARY_BWD_USE_IN(_backward_div, binary_grad::div_left, binary_grad::div_right)
.set_attr<nnvm::FGradient>("FGradient", BackwardDivGrad);

MXNET_OPERATOR_REGISTER_BINARY(_mod)
.add_alias("_Mod")
.describe("Element-wise modulo (Python semantics: the result has the sign of rhs)." ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::mod>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_mod"});
MXNET_REGISTER_BINARY_BWD_USE_IN(_backward_mod, binary_grad::one, binary_grad::mod_right);

// ---------------------------------------------------------------------------- add_n

namespace {

bool ElementWiseSumShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                         mxnet::ShapeVector* out_attrs) {
  mxnet::TShape known = (*out_attrs)[0];
  int known_from = -1;  // -1: the output
  for (size_t i = 0; i < in_attrs->size(); ++i) {
    const mxnet::TShape& s = (*in_attrs)[i];
    if (!mxnet::ndim_is_known(s)) continue;
    if (!mxnet::ndim_is_known(known)) {
      known = s;
      known_from = static_cast<int>(i);
      continue;
    }
    bool ok = known.ndim() == s.ndim();
    for (int d = 0; ok && d < s.ndim(); ++d) {
      if (known[d] == -1) known[d] = s[d];
      else if (s[d] != -1 && s[d] != known[d]) ok = false;
    }
    if (!ok) {
      MX_THROW(ValueError) << "Operator " << attrs.op->name
                           << ": expected all inputs of the same shape, got " << s
                           << " for input " << i << " and " << known << " for "
                           << (known_from < 0 ? std::string("the output")
                                              : "input " + std::to_string(known_from));
    }
  }
  if (!mxnet::ndim_is_known(known)) return false;
  for (auto& s : *in_attrs) s = known;
  (*out_attrs)[0] = known;
  return mxnet::shape_is_known(known);
}

bool ElementWiseSumType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                        std::vector<int>* out_attrs) {
  int t = (*out_attrs)[0];
  for (size_t i = 0; i < in_attrs->size(); ++i) {
    const int v = (*in_attrs)[i];
    if (v == -1) continue;
    if (t == -1) {
      t = v;
    } else if (v != t) {
      MX_THROW(TypeError) << "Operator " << attrs.op->name
                          << ": expected all inputs of the same dtype, got "
                          << mshadow::dtype_string(v) << " for input " << i << " and "
                          << mshadow::dtype_string(t) << " elsewhere";
    }
  }
  if (t == -1) return false;
  for (auto& v : *in_attrs) v = t;
  (*out_attrs)[0] = t;
  return true;
}

std::vector<nnvm::NodeEntry> ElementWiseSumGrad(const nnvm::ObjectPtr& n,
                                                const std::vector<nnvm::NodeEntry>& ograds) {
  // Every input receives the output gradient (through identity nodes, as MXNet does).
  std::vector<nnvm::NodeEntry> ret;
  ret.reserve(n->inputs.size());
  for (size_t i = 0; i < n->inputs.size(); ++i) {
    nnvm::ObjectPtr node = nnvm::Node::Create();
    node->attrs.op = nnvm::Op::Get("_copy");
    node->attrs.name = n->attrs.name + "_backward_" + std::to_string(i);
    node->inputs = {ograds[0]};
    ret.emplace_back(node, 0, 0);
  }
  return ret;
}

}  // namespace

NNVM_REGISTER_OP(add_n)
.add_alias("ElementWiseSum")
.add_alias("_sparse_add_n")
.add_alias("_sparse_ElementWiseSum")
.describe(R"code(Adds all input arguments element-wise.

.. math::
   add\_n(a_1, a_2, ..., a_n) = a_1 + a_2 + ... + a_n

``add_n`` is potentially more efficient than calling ``add`` by `n` times.

The storage type of ``add_n`` output depends on storage types of inputs

- add_n(row_sparse, row_sparse, ..) = row_sparse
- add_n(default, csr, default) = default
- add_n(any input combinations longer than 4 (>4) with at least one default type) = default
- otherwise, ``add_n`` falls all inputs back to default storage and generates default storage

)code" ADD_FILELINE)
.set_attr_parser(ParamParser<ElementWiseSumParam>)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<ElementWiseSumParam>(attrs.parsed).num_args);
})
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames",
    [](const nnvm::NodeAttrs& attrs) {
      const int n = nnvm::get<ElementWiseSumParam>(attrs.parsed).num_args;
      std::vector<std::string> names;
      names.reserve(n);
      for (int i = 0; i < n; ++i) names.push_back("arg" + std::to_string(i));
      return names;
    })
.set_attr<mxnet::FInferShape>("FInferShape", ElementWiseSumShape)
.set_attr<nnvm::FInferType>("FInferType", ElementWiseSumType)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceIn0Out0)
.set_attr<FCompute>("FCompute<cpu>", ElementWiseSumCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElementWiseSumGrad)
.set_attr<std::string>("key_var_num_args", "num_args")
.add_argument("args", "NDArray-or-Symbol[]", "Positional input arguments")
.add_arguments(ElementWiseSumParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
