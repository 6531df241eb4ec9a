/*!
 * \file pooling.cc
 * \brief Registration of Pooling and _backward_Pooling.
 */
#include "./pooling-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(PoolingParam);

namespace {

bool PoolingType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                 std::vector<int>* out_type) {
  return ConvLikeType("Pooling", in_type, out_type);
}

bool PoolingBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                          mxnet::ShapeVector* out_shape) {
  if (in_shape->size() != 3U) {
    MX_THROW(ValueError) << "_backward_Pooling: expected 3 inputs (out_grad, data, output), got "
                         << in_shape->size();
  }
  mxnet::ShapeVector fwd_in{(*in_shape)[1]}, fwd_out(1);
  const bool ok = PoolingShape(attrs, &fwd_in, &fwd_out);
  for (int i : {0, 2}) {
    if (ndim_is_known(fwd_out[0]) && ndim_is_known((*in_shape)[i]) &&
        (*in_shape)[i] != fwd_out[0]) {
      MX_THROW(ValueError) << "_backward_Pooling: " << (i == 0 ? "out_grad" : "output")
                           << " has shape " << (*in_shape)[i] << ", pooling data "
                           << (*in_shape)[1] << " gives " << fwd_out[0];
    }
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, (*in_shape)[1]);
  return ok;
}

bool PoolingBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                         std::vector<int>* out_type) {
  return ConvLikeType("_backward_Pooling", in_type, out_type);
}

}  // namespace

NNVM_REGISTER_OP(Pooling)
.describe(R"code(Performs pooling on the input.

The shapes for 1-D pooling are

- **data** and **out**: *(batch_size, channel, width)* (NCW layout).

The shapes for 2-D pooling are

- **data** and **out**: *(batch_size, channel, height, width)* (NCHW layout).

The definition of *f* depends on ``pooling_convention``, which has two options:

- **valid** (default)::

    f(x, k, p, s) = floor((x+2*p-k)/s)+1

- **full**, which is compatible with Caffe::

    f(x, k, p, s) = ceil((x+2*p-k)/s)+1

- **same** (1-D max pooling only)::

    f(x, k, p, s) = ceil(x/s)

When ``global_pool`` is set to be true, then global pooling is performed. It will reset
``kernel=(height, width)`` and set the appropiate padding to 0.

Four pooling options are supported by ``pool_type``:

- **avg**: average pooling
- **max**: max pooling
- **sum**: sum pooling
- **lp**: Lp pooling

For 3-D pooling, an additional *depth* dimension is added before
*height*. Namely the input data and output will have shape *(batch_size, channel, depth,
height, width)* (NCDHW layout).

Notes on Lp pooling:

Lp pooling was first introduced by this paper: https://arxiv.org/pdf/1204.3968.pdf.
L-1 pooling is simply sum pooling, while L-inf pooling is simply max pooling.
We can see that Lp pooling stands between those two, in practice the most common value for p is 2.

For each window ``X``, the mathematical expression for Lp pooling is:

:math:`f(X) = \sqrt[p]{\sum_{x}^{X} x^p}`
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(PoolingParamParser)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) { return std::vector<std::string>{"data"}; })
.set_attr<nnvm::FListOutputNames>("FListOutputNames",
  [](const NodeAttrs& attrs) { return std::vector<std::string>{"output"}; })
.set_attr<mxnet::FInferShape>("FInferShape", PoolingShape)
.set_attr<nnvm::FInferType>("FInferType", PoolingType)
.set_attr<FCompute>("FCompute<cpu>", PoolingCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[0], nnvm::NodeEntry(n, 0, 0)};
    return MakeGradNode("_backward_Pooling", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to the pooling operator.")
.add_arguments(PoolingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Pooling)
.describe("Backward of Pooling: (out_grad, data, output) -> data_grad.")
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(PoolingParamParser)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", PoolingBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", PoolingBackwardType)
.set_attr<FCompute>("FCompute<cpu>", PoolingGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("output", "NDArray-or-Symbol", "Output of the forward pass")
.add_arguments(PoolingParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
