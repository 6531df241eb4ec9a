/*!
 * \file dropout.cc
 * \brief Registration of Dropout and _backward_Dropout.
 */
#include "./dropout-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(DropoutParam);

NNVM_REGISTER_OP(Dropout)
.add_alias("_npx_dropout")
.describe(R"code(Randomly zeroes elements of the input during training.

- In training (``autograd.train_mode()``, ``is_train=True``) or with ``mode='always'``, each
  element is set to zero with probability ``p`` and the kept elements are multiplied by
  :math:`1/(1-p)`, so the expected value of every element is unchanged.
- Otherwise (predict mode with ``mode='training'``) the output is the input.
- ``axes`` lists axes along which one random decision is shared (variational dropout).

Example (training, p=0.5)::

  Dropout([[1, 2, 3, 4]], p=0.5) = [[2, 0, 0, 8]]     # one possible draw
  Dropout([[1, 2, 3, 4]], p=0.5) = [[1, 2, 3, 4]]     # predict mode

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs",
    [](const NodeAttrs& attrs) { return 1; })
.set_attr_parser(ParamParser<DropoutParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "mask"};
})
.set_attr<mxnet::FInferShape>("FInferShape", DropoutShape)
.set_attr<nnvm::FInferType>("FInferType", DropoutType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kParallelRandom};
})
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", DropoutCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[dropout::kOut],
                                       nnvm::NodeEntry{n, dropout::kMask, 0}};
    return MakeGradNode("_backward_Dropout", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array to which dropout will be applied.")
.add_arguments(DropoutParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Dropout)
.describe("Backward of Dropout: (out_grad, mask) -> data_grad = out_grad * mask.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<DropoutParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const mxnet::TShape& og = (*in)[0];
  const mxnet::TShape& mask = (*in)[1];
  if (shape_is_known(og) && shape_is_known(mask)) {
    bool ok = og.ndim() == mask.ndim();
    for (int d = 0; ok && d < og.ndim(); ++d) ok = mask[d] == og[d] || mask[d] == 1;
    if (!ok) {
      MX_THROW(ValueError) << "_backward_Dropout: mask of shape " << mask
                           << " does not broadcast to out_grad of shape " << og;
    }
  }
  SHAPE_ASSIGN_CHECK(*out, 0, og);
  return shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*in, 1, (*in)[0]);
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] >= 0;
})
.set_attr<FCompute>("FCompute<cpu>", DropoutGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("mask", "NDArray-or-Symbol", "The mask output of the forward Dropout")
.add_arguments(DropoutParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
