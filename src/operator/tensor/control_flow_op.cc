/*!
 * \file control_flow_op.cc
 * \brief Registration of `where` and `_backward_where`.
 */
#include "./control_flow_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(where)
.add_alias("_sparse_where")
.describe(R"code(Return the elements, either from x or y, depending on the condition.

Given three ndarrays, condition, x, and y, return an ndarray with the elements from x or y,
depending on the elements from condition are true or false. x and y must have the same shape.
If condition has the same shape as x, each element in the output array is from x if the
corresponding element in the condition is true, and from y if false.

If condition does not have the same shape as x, it must be a 1D array whose size is
the same as x's first dimension size. Each row of the output array is from x's row
if the corresponding element from condition is true, and from y's row if false.

Note that all non-zero values are interpreted as ``True`` in condition.

Examples::

  x = [[1, 2], [3, 4]]
  y = [[5, 6], [7, 8]]
  cond = [[0, 1], [-1, 0]]

  where(cond, x, y) = [[5, 2], [3, 8]]

  csr_cond = cast_storage(cond, 'csr')

  where(csr_cond, x, y) = [[5, 2], [3, 8]]

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames",
    [](const NodeAttrs& attrs) { return std::vector<std::string>{"condition", "x", "y"}; })
.set_attr<mxnet::FInferShape>("FInferShape", WhereOpShape)
.set_attr<nnvm::FInferType>("FInferType", WhereOpType)
.set_attr<FCompute>("FCompute<cpu>", WhereOpForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  // grad[condition] = 0; grad[x], grad[y] need only the condition.
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> ret;
    ret.push_back(nnvm::MakeNode("zeros_like", n->attrs.name + "_cond_backward",
                                 {n->inputs[0]}));
    std::vector<nnvm::NodeEntry> grads =
        MakeGradNode("_backward_where", n, {ograds[0], n->inputs[0]}, n->attrs.dict);
    ret.insert(ret.end(), grads.begin(), grads.end());
    return ret;
  })
.add_argument("condition", "NDArray-or-Symbol", "condition array")
.add_argument("x", "NDArray-or-Symbol", "")
.add_argument("y", "NDArray-or-Symbol", "");

NNVM_REGISTER_OP(_backward_where)
.set_num_inputs(2)
.set_num_outputs(2)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape",
  [](const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs, mxnet::ShapeVector* out_attrs) {
    const mxnet::TShape& og = (*in_attrs)[0];
    const mxnet::TShape& cond = (*in_attrs)[1];
    // As in the forward: condition has out_grad's shape, or is 1-D over its first axis.
    if (mxnet::shape_is_known(og) && mxnet::shape_is_known(cond) && cond != og &&
        !(cond.ndim() == 1 && og.ndim() >= 1 && cond[0] == og[0])) {
      MX_THROW(ValueError) << "_backward_where: condition has shape " << cond
                           << "; expected out_grad's shape " << og << " or (" << og[0] << ",)";
    }
    SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
    SHAPE_ASSIGN_CHECK(*out_attrs, 1, (*in_attrs)[0]);
    return mxnet::shape_is_known((*in_attrs)[0]) && mxnet::shape_is_known((*in_attrs)[1]);
  })
.set_attr<nnvm::FInferType>("FInferType",
  [](const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs, std::vector<int>* out_attrs) {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
    TYPE_ASSIGN_CHECK(*out_attrs, 1, (*in_attrs)[0]);
    return (*in_attrs)[0] != -1 && (*in_attrs)[1] != -1;
  })
.set_attr<nnvm::FInplaceOption>("FInplaceOption",
  [](const NodeAttrs& attrs) { return std::vector<std::pair<int, int>>{{0, 0}}; })
.set_attr<FCompute>("FCompute<cpu>", WhereOpBackward<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("condition", "NDArray-or-Symbol", "The condition of where");

}  // namespace op
}  // namespace mxnet
