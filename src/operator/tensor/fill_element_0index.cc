/*!
 * \file fill_element_0index.cc
 * \brief fill_element_0index(lhs, mhs, rhs): a copy of the matrix lhs with
 *        out[i, rhs[i]] = mhs[i] for every row i. Not differentiable (as in 1.9.1).
 */
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./fill_element_0index-inl.h"

namespace mxnet {
namespace op {

namespace {

bool FillElementShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  const mxnet::TShape& lhs = (*in)[0];
  if (!shape_is_known(lhs)) return false;
  if (lhs.ndim() != 2) {
    MX_THROW(ValueError) << "fill_element_0index: expected lhs to be a matrix, got shape " << lhs;
  }
  for (int i : {1, 2}) {
    const mxnet::TShape& s = (*in)[i];
    if (shape_is_known(s) && (s.ndim() != 1 || s[0] != lhs[0])) {
      MX_THROW(ValueError) << "fill_element_0index: expected " << (i == 1 ? "mhs" : "rhs")
                           << " of shape (" << lhs[0] << ",) for lhs of shape " << lhs
                           << ", got " << s;
    }
    SHAPE_ASSIGN_CHECK(*in, i, mxnet::TShape(1, lhs[0]));
  }
  SHAPE_ASSIGN_CHECK(*out, 0, lhs);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(fill_element_0index)
.describe(R"code(Fill one element of each line(row for python, column for R/Julia) in lhs
according to index indicated by rhs and values indicated by mhs. This function assume rhs uses
0-based index.)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"lhs", "mhs", "rhs"};
})
.set_attr<mxnet::FInferShape>("FInferShape", FillElementShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<3, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", FillElementCompute<cpu>)
// 1.9.1 registers no gradient for it.
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("lhs", "NDArray-or-Symbol", "Left operand to the function.")
.add_argument("mhs", "NDArray-or-Symbol", "Middle operand to the function.")
.add_argument("rhs", "NDArray-or-Symbol", "Right operand to the function.");

}  // namespace op
}  // namespace mxnet
