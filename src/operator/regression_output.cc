/*!
 * \file regression_output.cc
 * \brief Registration of LinearRegressionOutput, LogisticRegressionOutput, MAERegressionOutput
 *        and their backward operators (_backward_linear_reg_out, ...).
 */
#include "./regression_output-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(RegressionOutputParam);

namespace {

std::vector<nnvm::NodeEntry> RegressionGrad(const char* backward, const nnvm::ObjectPtr& n,
                                            const std::vector<nnvm::NodeEntry>& ograds) {
  // The head gradient is ignored: the gradient depends on the label and the output only.
  std::vector<nnvm::NodeEntry> heads{n->inputs[reg_enum::kLabel], nnvm::NodeEntry{n, 0, 0}};
  return MakeGradNode(backward, n, heads, n->attrs.dict);
}

bool RegressionBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                             mxnet::ShapeVector* out) {
  // The kernel reads one label per output element.
  const mxnet::TShape& label = (*in)[0];
  const mxnet::TShape& output = (*in)[1];
  if (shape_is_known(label) && shape_is_known(output) &&
      (label.ndim() == 0 || label.Size() != output.Size())) {
    MX_THROW(ValueError) << attrs.op->name << ": expected a label with as many elements as the "
                         << "output " << output << ", got " << label;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[0]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
}

bool RegressionBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                            std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  TYPE_ASSIGN_CHECK(*out, 1, (*in)[0]);
  return (*out)[0] >= 0 && (*out)[1] >= 0;
}

}  // namespace

#define MXNET_REGISTER_REGRESSION_OUTPUT(name, backward, Kind, doc)                  \
  NNVM_REGISTER_OP(name)                                                             \
  MXNET_ADD_SPARSE_OP_ALIAS(name)                                                    \
  .describe(doc ADD_FILELINE)                                                        \
  .set_num_inputs(2)                                                                 \
  .set_num_outputs(1)                                                                \
  .set_attr_parser(ParamParser<RegressionOutputParam>)                               \
  .set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {   \
    return std::vector<std::string>{"data", "label"};                                \
  })                                                                                 \
  .set_attr<mxnet::FInferShape>("FInferShape", RegressionOpShape<2>)                 \
  .set_attr<nnvm::FInferType>("FInferType", RegressionOpType)                        \
  .set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {     \
    return std::vector<std::pair<int, int>>{{0, 0}};                                 \
  })                                                                                 \
  .set_attr<FCompute>("FCompute<cpu>", RegressionForward<cpu, Kind>)                 \
  .set_attr<nnvm::FGradient>("FGradient",                                            \
    [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {       \
      return RegressionGrad(#backward, n, ograds);                                   \
    })                                                                               \
  .add_argument("data", "NDArray-or-Symbol", "Input data to the function.")          \
  .add_argument("label", "NDArray-or-Symbol", "Input label to the function.")        \
  .add_arguments(RegressionOutputParam::__FIELDS__());                               \
  NNVM_REGISTER_OP(backward)                                                         \
  .describe("Backward of " #name ": (label, output) -> (data_grad, label_grad).")    \
  .set_num_inputs(2)                                                                 \
  .set_num_outputs(2)                                                                \
  .set_attr_parser(ParamParser<RegressionOutputParam>)                               \
  .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                  \
  .set_attr<mxnet::FInferShape>("FInferShape", RegressionBackwardShape)              \
  .set_attr<nnvm::FInferType>("FInferType", RegressionBackwardType)                  \
  .set_attr<FCompute>("FCompute<cpu>", RegressionBackward<cpu, Kind>)                \
  .add_argument("label", "NDArray-or-Symbol", "Input label")                         \
  .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")     \
  .add_arguments(RegressionOutputParam::__FIELDS__())

MXNET_REGISTER_REGRESSION_OUTPUT(LinearRegressionOutput, _backward_linear_reg_out, LinearRegKind,
R"code(Computes and optimizes for squared loss during backward propagation.
Just outputs ``data`` during forward propagation.

If :math:`\hat{y}_i` is the predicted value of the i-th sample, and :math:`y_i` is the corresponding target value,
then the squared loss estimated over :math:`n` samples is defined as

:math:`\text{SquaredLoss}(\textbf{Y}, \hat{\textbf{Y}} ) = \frac{1}{n} \sum_{i=0}^{n-1} \lVert  \textbf{y}_i - \hat{\textbf{y}}_i  \rVert_2`

.. note::
   Use the LinearRegressionOutput as the final output layer of a net.

The storage type of ``label`` can be ``default`` or ``csr`` (only ``default`` is implemented).

By default, gradients of this loss function are scaled by factor `1/m`, where m is the number of regression outputs of a training example.
The parameter `grad_scale` can be used to change this scale to `grad_scale/m`.

)code");

MXNET_REGISTER_REGRESSION_OUTPUT(MAERegressionOutput, _backward_mae_reg_out, MAERegKind,
R"code(Computes mean absolute error of the input.

MAE is a risk metric corresponding to the expected value of the absolute error.

If :math:`\hat{y}_i` is the predicted value of the i-th sample, and :math:`y_i` is the corresponding target value,
then the mean absolute error (MAE) estimated over :math:`n` samples is defined as

:math:`\text{MAE}(\textbf{Y}, \hat{\textbf{Y}} ) = \frac{1}{n} \sum_{i=0}^{n-1} \lVert \textbf{y}_i - \hat{\textbf{y}}_i \rVert_1`

.. note::
   Use the MAERegressionOutput as the final output layer of a net.

By default, gradients of this loss function are scaled by factor `1/m`, where m is the number of regression outputs of a training example.
The parameter `grad_scale` can be used to change this scale to `grad_scale/m`.

)code");

MXNET_REGISTER_REGRESSION_OUTPUT(LogisticRegressionOutput, _backward_logistic_reg_out,
                                 LogisticRegKind,
R"code(Applies a logistic function to the input.

The logistic function, also known as the sigmoid function, is computed as
:math:`\frac{1}{1+exp(-\textbf{x})}`.

Commonly, the sigmoid is used to squash the real-valued output of a linear model
:math:`wTx+b` into the [0,1] range so that it can be interpreted as a probability.
It is suitable for binary classification or probability prediction tasks.

.. note::
   Use the LogisticRegressionOutput as the final output layer of a net.

By default, gradients of this loss function are scaled by factor `1/m`, where m is the number of regression outputs of a training example.
The parameter `grad_scale` can be used to change this scale to `grad_scale/m`.

)code");

}  // namespace op
}  // namespace mxnet
