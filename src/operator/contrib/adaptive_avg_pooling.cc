/*!
 * \file adaptive_avg_pooling.cc
 * \brief _contrib_AdaptiveAvgPooling2D: average pooling of (N, C, H, W) onto a fixed output
 *        grid (oh, ow); output cell (i, j) averages rows [floor(i*H/oh), ceil((i+1)*H/oh)) and
 *        columns [floor(j*W/ow), ceil((j+1)*W/ow)). output_size: () -> (1, 1), (s,) -> (s, s),
 *        (h, w). _backward_contrib_AdaptiveAvgPooling2D spreads each output gradient evenly
 *        over its cell. The kernels, for both devices: adaptive_avg_pooling-inl.h.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./adaptive_avg_pooling-inl.h"

namespace mxnet {
namespace op {

struct AdaptiveAvgPoolParam : public dmlc::Parameter<AdaptiveAvgPoolParam> {
  mxnet::TShape output_size;
  DMLC_DECLARE_PARAMETER(AdaptiveAvgPoolParam) {
    DMLC_DECLARE_FIELD(output_size).set_default(mxnet::TShape(0, 0))
        .describe("int (output size) or a tuple of int for output (height, width).");
  }
};

DMLC_REGISTER_PARAMETER(AdaptiveAvgPoolParam);

namespace {

std::pair<dim_t, dim_t> PoolOutputSize(const AdaptiveAvgPoolParam& p) {
  const mxnet::TShape& s = p.output_size;
  if (!ndim_is_known(s) || s.ndim() == 0) return {1, 1};
  if (s.ndim() == 1) return {s[0], s[0]};
  if (s.ndim() == 2) return {s[0], s[1]};
  MX_THROW(ValueError) << "_contrib_AdaptiveAvgPooling2D: output_size must be (), (size,) or "
                       << "(height, width), got " << s;
  return {0, 0};  // not reached: MX_THROW throws
}

bool AdaptivePoolShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                       mxnet::ShapeVector* out) {
  const auto hw = PoolOutputSize(nnvm::get<AdaptiveAvgPoolParam>(attrs.parsed));
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() != 4) {
    MX_THROW(ValueError) << "_contrib_AdaptiveAvgPooling2D: expected data of shape (batch, "
                         << "channel, height, width), got " << d;
  }
  if (hw.first <= 0 || hw.second <= 0) {
    MX_THROW(ValueError) << "_contrib_AdaptiveAvgPooling2D: output_size must be positive, got ("
                         << hw.first << ", " << hw.second << ")";
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1], hw.first, hw.second}));
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_AdaptiveAvgPooling2D)
.describe(R"code(
Applies a 2D adaptive average pooling over a 4D input with the shape of (NCHW).
The pooling kernel and stride sizes are automatically chosen for desired output sizes.

- If a single integer is provided for output_size, the output size is \
  (N x C x output_size x output_size) for any input (NCHW).

- If a tuple of integers (height, width) are provided for output_size, the output size is \
  (N x C x height x width) for any input (NCHW).

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AdaptiveAvgPoolParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", AdaptivePoolShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", AdaptivePoolCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_contrib_AdaptiveAvgPooling2D", n, {ograds[0], n->inputs[0]},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_arguments(AdaptiveAvgPoolParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_contrib_AdaptiveAvgPooling2D)
.describe("Backward of _contrib_AdaptiveAvgPooling2D: (out_grad, data) -> data_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AdaptiveAvgPoolParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", AdaptivePoolGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
