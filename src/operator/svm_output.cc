/*!
 * \file svm_output.cc
 * \brief SVMOutput: a loss head. Forward is the identity on data (N, K...) viewed as (N, K);
 *        backward ignores the head gradient and returns the gradient of the one-vs-rest hinge
 *        loss (label[i] is the class index of row i):
 *          L2 (default): reg * sum_i [max(0, m - x[i, y_i])^2 + sum_{k != y_i} max(0, m + x[i, k])^2]
 *          L1 (use_linear): the same without the squares.
 *        _backward_SVMOutput inputs (label, data) -> (data_grad, label_grad = 0).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "./elemwise_op_common.h"
#include "./svm_output-inl.h"
#include "./operator_common.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SVMOutputParam);

namespace {

bool SVMOutputShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() < 2) {
    MX_THROW(ValueError) << "SVMOutput: expected data of shape (batch, classes...), got " << d;
  }
  const mxnet::TShape& label = (*in)[1];
  if (ndim_is_known(label) && (label.ndim() != 1 || (label[0] >= 0 && label[0] != d[0]))) {
    MX_THROW(ValueError) << "SVMOutput: expected label of shape (" << d[0]
                         << ",) for data of shape " << d << ", got " << label;
  }
  SHAPE_ASSIGN_CHECK(*in, 1, mxnet::TShape(1, d[0]));
  SHAPE_ASSIGN_CHECK(*out, 0, d);
  return true;
}

bool SVMOutputType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  if ((*in)[0] < 0) return false;
  if ((*in)[1] < 0) (*in)[1] = (*in)[0];
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(SVMOutput)
.describe(R"code(Computes support vector machine based transformation of the input.

This tutorial demonstrates using SVM as output layer for classification instead of softmax:
https://github.com/apache/mxnet/tree/v1.x/example/svm_mnist.

)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SVMOutputParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "label"};
})
.set_attr<mxnet::FInferShape>("FInferShape", SVMOutputShape)
.set_attr<nnvm::FInferType>("FInferType", SVMOutputType)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", SVMOutputCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_SVMOutput", n, {n->inputs[1], n->inputs[0]},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data for SVM transformation.")
.add_argument("label", "NDArray-or-Symbol", "Class label for the input data.")
.add_arguments(SVMOutputParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SVMOutput)
.describe("Backward of SVMOutput: (label, data) -> (data_grad, label_grad).")
.set_num_inputs(2)
.set_num_outputs(2)
.set_attr_parser(ParamParser<SVMOutputParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[0]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  TYPE_ASSIGN_CHECK(*out, 1, (*in)[0]);
  return (*out)[0] != -1 && (*out)[1] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", SVMOutputGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
