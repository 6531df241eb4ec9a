/*!
 * \file fully_connected.cc
 * \brief Registration of FullyConnected and _backward_FullyConnected.
 */
#include "./fully_connected-inl.h"
#include "../tensor/higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(FullyConnectedParam);

namespace {

uint32_t FCNumInputs(const NodeAttrs& attrs) {
  return nnvm::get<FullyConnectedParam>(attrs.parsed).no_bias ? 2 : 3;
}

bool FullyConnectedType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                        std::vector<int>* out_type) {
  const uint32_t n = FCNumInputs(attrs);
  CHECK_EQ(in_type->size(), n);
  int dtype = (*out_type)[0];
  for (int t : *in_type) {
    if (dtype < 0) dtype = t;
  }
  if (dtype < 0) return false;
  for (uint32_t i = 0; i < n; ++i) TYPE_ASSIGN_CHECK(*in_type, i, dtype);
  TYPE_ASSIGN_CHECK(*out_type, 0, dtype);
  return true;
}

bool FullyConnectedBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                                 mxnet::ShapeVector* out_shape) {
  const FullyConnectedParam& param = nnvm::get<FullyConnectedParam>(attrs.parsed);
  CHECK_EQ(in_shape->size(), 3U);
  SHAPE_ASSIGN_CHECK(*out_shape, 0, (*in_shape)[1]);
  SHAPE_ASSIGN_CHECK(*out_shape, 1, (*in_shape)[2]);
  if (!param.no_bias) SHAPE_ASSIGN_CHECK(*out_shape, 2, mxnet::TShape(1, param.num_hidden));
  return shape_is_known((*in_shape)[1]) && shape_is_known((*in_shape)[2]);
}

bool FullyConnectedBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                                std::vector<int>* out_type) {
  int dtype = (*in_type)[1] >= 0 ? (*in_type)[1] : (*in_type)[0];
  if (dtype < 0) return false;
  for (size_t i = 0; i < in_type->size(); ++i) TYPE_ASSIGN_CHECK(*in_type, i, dtype);
  for (size_t i = 0; i < out_type->size(); ++i) TYPE_ASSIGN_CHECK(*out_type, i, dtype);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(FullyConnected)
MXNET_ADD_SPARSE_OP_ALIAS(FullyConnected)
.describe(R"code(Applies a linear transformation: :math:`Y = XW^T + b`.

If ``flatten`` is set to be true, then the shapes are:

- **data**: `(batch_size, x1, x2, ..., xn)`
- **weight**: `(num_hidden, x1 * x2 * ... * xn)`
- **bias**: `(num_hidden,)`
- **out**: `(batch_size, num_hidden)`

If ``flatten`` is set to be false, then the shapes are:

- **data**: `(x1, x2, ..., xn, input_dim)`
- **weight**: `(num_hidden, input_dim)`
- **bias**: `(num_hidden,)`
- **out**: `(x1, x2, ..., xn, num_hidden)`

The learnable parameters include both ``weight`` and ``bias``.

If ``no_bias`` is set to be true, then the ``bias`` term is ignored.

The shapes of ``weight`` and ``bias`` are inferred from ``data`` and ``num_hidden`` when a
symbol is composed, so they can be left to the variables created for them.
)code" ADD_FILELINE)
.set_num_inputs(FCNumInputs)
.set_num_outputs(1)
.set_attr_parser(ParamParser<FullyConnectedParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) {
    if (nnvm::get<FullyConnectedParam>(attrs.parsed).no_bias) {
      return std::vector<std::string>{"data", "weight"};
    }
    return std::vector<std::string>{"data", "weight", "bias"};
  })
.set_attr<nnvm::FListOutputNames>("FListOutputNames",
  [](const NodeAttrs& attrs) {
    return std::vector<std::string>{"output"};
  })
.set_attr<mxnet::FInferShape>("FInferShape", FullyConnectedShape)
.set_attr<nnvm::FInferType>("FInferType", FullyConnectedType)
.set_attr<FCompute>("FCompute<cpu>", FullyConnectedCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[fullc::kData],
                                       n->inputs[fullc::kWeight]};
    return MakeGradNode("_backward_FullyConnected", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("weight", "NDArray-or-Symbol", "Weight matrix.")
.add_argument("bias", "NDArray-or-Symbol", "Bias parameter.")
.add_arguments(FullyConnectedParam::__FIELDS__());

namespace {
// Second order (see tensor/higher_order_grad-inl.h). _backward_FullyConnected(ograd, data, W)
// = (ddata, dW[, dbias]) with <g0, ddata> + <g1, dW> + <g2, dbias> =
// <ograd, FC(g0, W, g2) + FC(data, g1, no bias)>. Hence
//   d/dograd = FC(g0, W[, g2]) + FC(data, g1),  d/ddata = _backward_FullyConnected(ograd, data,
//   g1)[0],  d/dW = _backward_FullyConnected(ograd, g0, W)[1].
std::vector<nnvm::NodeEntry> BackwardFullyConnectedGrad(const nnvm::ObjectPtr& n,
                                                        const std::vector<nnvm::NodeEntry>& g) {
  GradGraphBuilder b(n);
  const nnvm::NodeEntry &ograd = n->inputs[0], &data = n->inputs[1], &weight = n->inputs[2];
  const bool no_bias = nnvm::get<FullyConnectedParam>(n->attrs.parsed).no_bias;
  std::unordered_map<std::string, std::string> without_bias = n->attrs.dict;
  without_bias["no_bias"] = "True";
  std::vector<nnvm::NodeEntry> through_weight{g[0], weight};
  if (!no_bias) through_weight.push_back(g[2]);
  nnvm::NodeEntry d_ograd =
      b.Add(b.Op("FullyConnected", through_weight, n->attrs.dict),
            b.Op("FullyConnected", {data, g[1]}, without_bias));
  nnvm::ObjectPtr for_data = b.Again({ograd, data, g[1]});
  nnvm::ObjectPtr for_weight = b.Again({ograd, g[0], weight});
  return {d_ograd, nnvm::NodeEntry(for_data, 0, 0), nnvm::NodeEntry(for_weight, 1, 0)};
}
}  // namespace

NNVM_REGISTER_OP(_backward_FullyConnected)
.set_attr<nnvm::FGradient>("FGradient", BackwardFullyConnectedGrad)
.describe("Backward of FullyConnected: (out_grad, data, weight) -> (data_grad, weight_grad"
          "[, bias_grad]).")
.set_num_inputs(3)
.set_num_outputs([](const NodeAttrs& attrs) {
  return nnvm::get<FullyConnectedParam>(attrs.parsed).no_bias ? 2 : 3;
})
.set_attr_parser(ParamParser<FullyConnectedParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", FullyConnectedBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", FullyConnectedBackwardType)
.set_attr<FCompute>("FCompute<cpu>", FullyConnectedGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("weight", "NDArray-or-Symbol", "Weight matrix")
.add_arguments(FullyConnectedParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
