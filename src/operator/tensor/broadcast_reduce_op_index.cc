/*!
 * \file broadcast_reduce_op_index.cc
 * \brief Index reductions: argmax, argmin, argmax_channel, and pick (with its gradient).
 *
 * An axis reduction views the input as (outer, K, inner) around the axis (axis=None views the
 * flattened input as (1, N, 1)). Indices are returned as values of the input dtype, as MXNet
 * 1.x does.
 */
#include "./broadcast_reduce_op_index-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ReduceAxisParam);
DMLC_REGISTER_PARAMETER(PickParam);

namespace {

/*! \brief argmax_channel's parameters: the last axis, no keepdims. */
void ArgmaxChannelParser(NodeAttrs* attrs) {
  ReduceAxisParam param;
  param.Init(std::map<std::string, std::string>{});
  param.axis = -1;
  param.keepdims = false;
  attrs->parsed = param;
}

// ---------------------------------------------------------------- pick

bool PickOpShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                 mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  const PickParam& param = nnvm::get<PickParam>(attrs.parsed);
  if (!param.axis.has_value()) {
    MX_THROW(ValueError) << "pick: axis=None is not supported, expected an int axis";
  }
  if (ishape.ndim() == 0) {
    MX_THROW(ValueError) << "pick: expected data with at least 1 dimension, got " << ishape;
  }
  const mxnet::TShape oshape = ReduceAxisShapeImpl("pick", ishape, param.axis, param.keepdims);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, oshape);
  const mxnet::TShape& ishape1 = (*in_attrs)[1];
  // With keepdims the index may also come without the picked axis (MXNet 1.9.1 accepts both,
  // e.g. class labels of shape (N,) for data (N, C)); the kernel reads it flat either way.
  if (param.keepdims && ndim_is_known(ishape1) && ishape1 != oshape) {
    const mxnet::TShape reduced = ReduceAxisShapeImpl("pick", ishape, param.axis, false);
    if (ishape1 == reduced) return shape_is_known(oshape);
  }
  if (ndim_is_known(ishape1) && ishape1 != oshape) {
    MX_THROW(ValueError) << "pick: expected index of shape " << oshape << " for data of shape "
                         << ishape << " and axis=" << param.axis << ", got index of shape "
                         << ishape1;
  }
  SHAPE_ASSIGN_CHECK(*in_attrs, 1, oshape);
  return shape_is_known(oshape);
}

bool PickOpType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                std::vector<int>* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
  TYPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  return (*out_attrs)[0] != -1 && (*in_attrs)[1] != -1;
}

}  // namespace

#define MXNET_OPERATOR_REGISTER_SEARCH(name)                                         \
  NNVM_REGISTER_OP(name)                                                             \
      .set_num_inputs(1)                                                             \
      .set_num_outputs(1)                                                            \
      .set_attr<mxnet::FInferShape>("FInferShape", ReduceAxisShape)                  \
      .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)                  \
      .set_attr<nnvm::FListInputNames>("FListInputNames",                            \
                                       [](const NodeAttrs& attrs) {                  \
                                         return std::vector<std::string>{"data"};    \
                                       })                                            \
      .set_attr<bool>("TNonDifferentiable", true)                                    \
      .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)                     \
      .add_argument("data", "NDArray-or-Symbol", "The input")

MXNET_OPERATOR_REGISTER_SEARCH(argmax)
    .describe(R"code(Returns indices of the maximum values along an axis.

In the case of multiple occurrences of maximum values, the indices corresponding to the first
occurrence are returned. The indices are returned as values of the input dtype.

Examples::

  x = [[ 0.,  1.,  2.],
       [ 3.,  4.,  5.]]

  // argmax along axis 0
  argmax(x, axis=0) = [ 1.,  1.,  1.]

  // argmax along axis 1
  argmax(x, axis=1) = [ 2.,  2.]

  // argmax along axis 1 keeping same dims as an input array
  argmax(x, axis=1, keepdims=True) = [[ 2.],
                                      [ 2.]]

)code")
    .set_attr_parser(ParamParser<ReduceAxisParam>)
    .set_attr<FCompute>("FCompute<cpu>", SearchAxisCompute<cpu, true>)
    .add_arguments(ReduceAxisParam::__FIELDS__());

MXNET_OPERATOR_REGISTER_SEARCH(argmin)
    .describe(R"code(Returns indices of the minimum values along an axis.

In the case of multiple occurrences of minimum values, the indices corresponding to the first
occurrence are returned. The indices are returned as values of the input dtype.

Examples::

  x = [[ 0.,  1.,  2.],
       [ 3.,  4.,  5.]]

  // argmin along axis 0
  argmin(x, axis=0) = [ 0.,  0.,  0.]

  // argmin along axis 1
  argmin(x, axis=1) = [ 0.,  0.]

  // argmin along axis 1 keeping same dims as an input array
  argmin(x, axis=1, keepdims=True) = [[ 0.],
                                      [ 0.]]

)code")
    .set_attr_parser(ParamParser<ReduceAxisParam>)
    .set_attr<FCompute>("FCompute<cpu>", SearchAxisCompute<cpu, false>)
    .add_arguments(ReduceAxisParam::__FIELDS__());

MXNET_OPERATOR_REGISTER_SEARCH(argmax_channel)
    .describe(R"code(Returns argmax indices of each channel from the input array.

The result will be an NDArray of shape (num_channel,).

In case of multiple occurrences of the maximum values, the indices corresponding to the first
occurrence are returned.

Examples::

  x = [[ 0.,  1.,  2.],
       [ 3.,  4.,  5.]]

  argmax_channel(x) = [ 2.,  2.]

)code")
    .set_attr_parser(ArgmaxChannelParser)
    .set_attr<FCompute>("FCompute<cpu>", SearchAxisCompute<cpu, true>);

NNVM_REGISTER_OP(pick)
    .add_alias("_npx_pick")
    .add_alias("choose_element_0index")
    .describe(R"code(Picks elements from an input array according to the input indices along the given axis.

Given an input array of shape ``(d0, d1)`` and indices of shape ``(i0,)``, the result will be
an output array of shape ``(i0,)`` with::

  output[i] = input[i, indices[i]]

By default, if any index mentioned is too large, it is replaced by the index that addresses
the last element along an axis (the `clip` mode).

This function supports n-dimensional input and (n-1)-dimensional indices arrays.

Examples::

  x = [[ 1.,  2.],
       [ 3.,  4.],
       [ 5.,  6.]]

  // picks elements with specified indices along axis 0
  pick(x, y=[0,1], 0) = [ 1.,  4.]

  // picks elements with specified indices along axis 1
  pick(x, y=[0,1,0], 1) = [ 1.,  4.,  5.]

  // picks elements with specified indices along axis 1 using 'wrap' mode
  // to place indicies that would normally be out of bounds
  pick(x, y=[2,-1,-2], 1, mode='wrap') = [ 1.,  4.,  5.]

  y = [[ 1.],
       [ 0.],
       [ 2.]]

  // picks elements with specified indices along axis 1 and dims are maintained
  pick(x, y, 1, keepdims=True) = [[ 2.],
                                  [ 3.],
                                  [ 6.]]

)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<PickParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs& attrs) {
                                       return std::vector<std::string>{"data", "index"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", PickOpShape)
    .set_attr<nnvm::FInferType>("FInferType", PickOpType)
    .set_attr<FCompute>("FCompute<cpu>", PickCompute<cpu>)
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[1]};
          auto ret = MakeGradNode("_backward_pick", n, heads, n->attrs.dict);
          ret.push_back(MakeZeroGradNodes(n, ograds)[1]);
          return ret;
        })
    .add_argument("data", "NDArray-or-Symbol", "The input array")
    .add_argument("index", "NDArray-or-Symbol", "The index array")
    .add_arguments(PickParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_pick)
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<PickParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", PickGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
