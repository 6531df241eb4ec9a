/*!
 * \file arange_like.cc
 * \brief _contrib_arange_like: start + step * floor(i / repeat) over the shape of data (or
 *        over data.shape[axis] when axis is given), in data's dtype. Only the shape of data is
 *        read, so its gradient is zero.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./arange_like-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ArangeLikeParam);

namespace {

bool ArangeLikeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out) {
  const ArangeLikeParam& p = nnvm::get<ArangeLikeParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (p.repeat < 1) {
    MX_THROW(ValueError) << "_contrib_arange_like: repeat must be positive, got " << p.repeat;
  }
  if (!shape_is_known(d)) return false;
  if (!p.axis.has_value()) {
    SHAPE_ASSIGN_CHECK(*out, 0, d);
    return true;
  }
  int axis = p.axis.value();
  if (axis < 0) axis += d.ndim();
  if (axis < 0 || axis >= d.ndim()) {
    MX_THROW(ValueError) << "_contrib_arange_like: axis " << p.axis.value()
                         << " is out of range for data of shape " << d;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape(1, d[axis]));
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_arange_like)
.add_alias("_npx_arange_like")
.describe(R"code(Return an array with evenly spaced values. If axis is not given, the output will
have the same shape as the input array. Otherwise, the output will be a 1-D array with size of
the specified axis in input shape.

Examples::

  x = [[0.14883883 0.7772398  0.94865847 0.7225052 ]
       [0.23729339 0.6112595  0.66538996 0.5132841 ]
       [0.30822644 0.9912457  0.15502319 0.7043658 ]]
       <NDArray 3x4 @cpu(0)>

  out = mx.nd.contrib.arange_like(x, start=0)

    [[ 0.  1.  2.  3.]
     [ 4.  5.  6.  7.]
     [ 8.  9. 10. 11.]]
     <NDArray 3x4 @cpu(0)>

  out = mx.nd.contrib.arange_like(x, start=0, axis=-1)

    [0. 1. 2. 3.]
    <NDArray 4 @cpu(0)>
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ArangeLikeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ArangeLikeShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", ArangeLikeCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "The input")
.add_arguments(ArangeLikeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
