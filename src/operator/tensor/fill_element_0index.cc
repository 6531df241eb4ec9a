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

void FillElementCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "fill_element_0index: req=add is not supported";
  }
  const index_t rows = inputs[0].shape_[0], cols = inputs[0].shape_[1];
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    const DType* lhs = inputs[0].dptr<DType>();
    const DType* mhs = inputs[1].dptr<DType>();
    const DType* rhs = inputs[2].dptr<DType>();
    DType* o = outputs[0].dptr<DType>();
    if (o != lhs) std::copy(lhs, lhs + rows * cols, o);
    for (index_t i = 0; i < rows; ++i) {
      const int64_t c = static_cast<int64_t>(rhs[i]);
      if (c < 0 || c >= cols) {
        MX_THROW(IndexError) << "fill_element_0index: rhs[" << i << "]=" << c
                             << " is out of range for lhs of shape " << inputs[0].shape_;
      }
      o[i * cols + c] = mhs[i];
    }
  });
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
.set_attr<FCompute>("FCompute<cpu>", FillElementCompute)
// 1.9.1 registers no gradient for it.
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("lhs", "NDArray-or-Symbol", "Left operand to the function.")
.add_argument("mhs", "NDArray-or-Symbol", "Middle operand to the function.")
.add_argument("rhs", "NDArray-or-Symbol", "Right operand to the function.");

}  // namespace op
}  // namespace mxnet
