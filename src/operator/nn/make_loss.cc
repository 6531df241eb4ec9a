/*!
 * \file make_loss.cc
 * \brief Registration of MakeLoss, _backward_MakeLoss and make_loss.
 */
#include "./make_loss-inl.h"

#include "../elemwise_op_common.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(MakeLossParam);

namespace {
std::vector<std::pair<int, int>> MakeLossInplace(const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
}
std::vector<bool> MakeLossInplaceIdentity(const NodeAttrs& attrs) {
  return std::vector<bool>{true};
}
}  // namespace

NNVM_REGISTER_OP(MakeLoss)
.describe(R"code(Makes its input a loss head: the forward returns the input unchanged, the
backward ignores the incoming gradient and gives the input the gradient ``grad_scale`` for
every element.

``normalization`` divides that gradient: ``'null'`` (default) by nothing, ``'batch'`` by the
batch size ``data.shape[0]``, ``'valid'`` by the number of output elements greater than
``valid_thresh`` (at least 1).

Typical use: a custom loss computed with other operators,

  cross_entropy = label * log(out) + (1 - label) * log(1 - out)
  loss = MakeLoss(cross_entropy)

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<MakeLossParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", MakeLossInplace)
.set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", MakeLossInplaceIdentity)
.set_attr<FCompute>("FCompute<cpu>", LossIdentityCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    // The head gradient is ignored: the gradient is a constant (the output gives the shape
    // and, for normalization='valid', the count).
    std::vector<nnvm::NodeEntry> heads{nnvm::NodeEntry{n, make_loss_enum::kOut, 0}};
    return MakeGradNode("_backward_MakeLoss", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array.")
.add_arguments(MakeLossParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_MakeLoss)
.describe("Backward of MakeLoss: (output) -> data_grad = grad_scale / normaliser.")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<MakeLossParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the 'valid' count
})
.set_attr<FCompute>("FCompute<cpu>", MakeLossGradCompute<cpu>)
.add_argument("output", "NDArray-or-Symbol", "Output of the forward MakeLoss")
.add_arguments(MakeLossParam::__FIELDS__());

NNVM_REGISTER_OP(make_loss)
MXNET_ADD_SPARSE_OP_ALIAS(make_loss)
.describe(R"code(Makes its input a loss head: forward identity; the backward ignores the
incoming gradient and gives the input a gradient of ones.

Example::

  cross_entropy = label * log(out) + (1 - label) * log(1 - out)
  loss = make_loss(cross_entropy)

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", MakeLossInplace)
.set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", MakeLossInplaceIdentity)
.set_attr<FCompute>("FCompute<cpu>", LossIdentityCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    auto p = MakeNode("ones_like", n->attrs.name + "_backward", &(n->inputs), nullptr, &n);
    return std::vector<nnvm::NodeEntry>{nnvm::NodeEntry{p, 0, 0}};
  })
.add_argument("data", "NDArray-or-Symbol", "The input array.");

}  // namespace op
}  // namespace mxnet
