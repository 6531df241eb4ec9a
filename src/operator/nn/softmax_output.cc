/*!
 * \file softmax_output.cc
 * \brief Registration of SoftmaxOutput (alias Softmax), softmax_cross_entropy and their
 *        backward operators.
 */
#include "./softmax_output-inl.h"

#include <mxnet/resource.h>

#include <cstring>

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SoftmaxOutputParam);

NNVM_REGISTER_OP(SoftmaxOutput)
.add_alias("Softmax")
.describe(R"code(Computes the gradient of cross entropy loss with respect to softmax output.

- This operator computes the gradient in two steps.
  The cross entropy loss does not actually need to be computed.

  - Applies softmax function on the input array.
  - Computes and returns the gradient of cross entropy loss w.r.t. the softmax output.

- The softmax function, cross entropy loss and gradient is given by:

  - Softmax Function:

    .. math:: \text{softmax}(x)_i = \frac{exp(x_i)}{\sum_j exp(x_j)}

  - Cross Entropy Function:

    .. math:: \text{CE(label, output)} = - \sum_i \text{label}_i \log(\text{output}_i)

  - The gradient of cross entropy loss w.r.t softmax output:

    .. math:: \text{gradient} = \text{output} - \text{label}

- During forward propagation, the softmax function is computed for each instance in the input array.

  For general *N*-D input arrays with shape :math:`(d_1, d_2, ..., d_n)`. The size is
  :math:`s=d_1 \cdot d_2 \cdot \cdot \cdot d_n`. We can use the parameters `preserve_shape`
  and `multi_output` to specify the way to compute softmax:

  - By default, `preserve_shape` is ``false``. This operator will reshape the input array
    into a 2-D array with shape :math:`(d_1, \frac{s}{d_1})` and then compute the softmax function for
    each row in the reshaped array, and afterwards reshape it back to the original shape
    :math:`(d_1, d_2, ..., d_n)`.
  - If `preserve_shape` is ``true``, the softmax function will be computed along
    the last axis (`axis` = ``-1``).
  - If `multi_output` is ``true``, the softmax function will be computed along
    the second axis (`axis` = ``1``).

- During backward propagation, the gradient of cross-entropy loss w.r.t softmax output array is computed.
  The provided label can be a one-hot label array or a probability label array. The incoming
  head gradient is ignored unless `out_grad` is ``true``.

  - If the parameter `use_ignore` is ``true``, `ignore_label` can specify input instances
    with a particular label to be ignored during backward propagation. **This has no effect when
    softmax `output` has same shape as `label`**.

  - The parameter `grad_scale` can be used to rescale the gradient, which is often used to
    give each loss function different weights.

  - This operator also supports various ways to normalize the gradient by `normalization`,
    The `normalization` is applied if softmax output has different shape than the labels.
    The `normalization` mode can be set to the followings:

    - ``'null'``: do nothing.
    - ``'batch'``: divide the gradient by the batch size.
    - ``'valid'``: divide the gradient by the number of instances which are not ignored.

  - `smooth_alpha` gives label smoothing: the target is ``1 - smooth_alpha`` for the label and
    ``smooth_alpha / (classes - 1)`` elsewhere.

)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SoftmaxOutputParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "label"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output"};
})
.set_attr<mxnet::FInferShape>("FInferShape", SoftmaxOutputShape)
.set_attr<nnvm::FInferType>("FInferType", SoftmaxOutputType)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", SoftmaxOutputCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[softmaxout_enum::kLabel],
                                       nnvm::NodeEntry{n, 0, 0}};
    return MakeGradNode("_backward_SoftmaxOutput", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array.")
.add_argument("label", "NDArray-or-Symbol", "Ground truth label.")
.add_arguments(SoftmaxOutputParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SoftmaxOutput)
.describe("Backward of SoftmaxOutput: (out_grad, label, output) -> (data_grad, label_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<SoftmaxOutputParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{2, 0}};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[2]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[1]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[2]);
  TYPE_ASSIGN_CHECK(*out, 1, (*in)[1]);
  return (*out)[0] >= 0 && (*out)[1] >= 0;
})
.set_attr<FCompute>("FCompute<cpu>", SoftmaxOutputGradCompute<cpu>)
// The GPU kernel counts the 'valid' labels into temp space (the CPU counts on the host).
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
// Named ograd: `out_grad` is also a parameter of this op.
.add_argument("ograd", "NDArray-or-Symbol",
              "Gradient of the output (used only with the out_grad=True parameter)")
.add_argument("label", "NDArray-or-Symbol", "Ground truth label")
.add_argument("output", "NDArray-or-Symbol", "Output of SoftmaxOutput")
.add_arguments(SoftmaxOutputParam::__FIELDS__());

NNVM_REGISTER_OP(softmax_cross_entropy)
.describe(R"code(Calculate cross entropy of softmax output and one-hot label.

- This operator computes the cross entropy in two steps:
  - Applies softmax function on the input array.
  - Computes and returns the cross entropy loss between the softmax output and the labels.

- The softmax function and cross entropy loss is given by:

  - Softmax Function:

  .. math:: \text{softmax}(x)_i = \frac{exp(x_i)}{\sum_j exp(x_j)}

  - Cross Entropy Function:

  .. math:: \text{CE(label, output)} = - \sum_i \text{label}_i \log(\text{output}_i)

Example::

  x = [[1, 2, 3],
       [11, 7, 5]]

  label = [2, 0]

  softmax(x) = [[0.09003057, 0.24472848, 0.66524094],
                [0.97962922, 0.01794253, 0.00242826]]

  softmax_cross_entropy(data, label) = - log(0.66524084) - log(0.97962922) = 0.4281871

)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "label"};
})
.set_attr<mxnet::FInferShape>("FInferShape", SoftmaxCrossEntropyShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const int dtype = (*in)[0];
  if (dtype < 0) return false;
  if ((*in)[1] < 0) (*in)[1] = dtype;
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
})
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the GPU's row losses
})
.set_attr<FCompute>("FCompute<cpu>", SoftmaxCrossEntropyCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[0], n->inputs[1]};
    return MakeGradNode("_backward_softmax_cross_entropy", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("label", "NDArray-or-Symbol", "Input label");

NNVM_REGISTER_OP(_backward_softmax_cross_entropy)
.describe("Backward of softmax_cross_entropy: (out_grad, data, label) -> (data_grad, "
          "label_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const mxnet::TShape &og = (*in)[0], &data = (*in)[1], &label = (*in)[2];
  if (shape_is_known(og) && shape_is_known(data) && shape_is_known(label) &&
      (og.Size() != 1 || data.ndim() != 2 || label.ndim() != 1 || label[0] != data[0])) {
    MX_THROW(ValueError) << "_backward_softmax_cross_entropy: expected out_grad (1,), data "
                         << "(batch, classes) and label (batch,); got " << og << ", " << data
                         << ", " << label;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  TYPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return (*out)[0] >= 0 && (*out)[1] >= 0;
})
.set_attr<FCompute>("FCompute<cpu>", SoftmaxCrossEntropyGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the loss")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("label", "NDArray-or-Symbol", "Input label");

}  // namespace op
}  // namespace mxnet
