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

namespace mxnet {
namespace op {

struct ArangeLikeParam : public dmlc::Parameter<ArangeLikeParam> {
  double start;
  double step;
  int repeat;
  std::string ctx;
  dmlc::optional<int> axis;
  DMLC_DECLARE_PARAMETER(ArangeLikeParam) {
    DMLC_DECLARE_FIELD(start).set_default(0)
        .describe("Start of interval. The interval includes this value. The default start "
                  "value is 0.");
    DMLC_DECLARE_FIELD(step).set_default(1).describe("Spacing between values.");
    DMLC_DECLARE_FIELD(repeat).set_default(1)
        .describe("The repeating time of all elements. E.g repeat=3, the element a will be "
                  "repeated three times --> a, a, a.");
    DMLC_DECLARE_FIELD(ctx).set_default("")
        .describe("Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for "
                  "imperative calls.");
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>())
        .describe("Arange elements according to the size of a certain axis of input array. The "
                  "negative numbers are interpreted counting from the backward. If not "
                  "provided, will arange elements according to the input shape.");
  }
};

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

void ArangeLikeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const ArangeLikeParam& p = nnvm::get<ArangeLikeParam>(attrs.parsed);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DType* o = outputs[0].dptr<DType>();
    const size_t n = outputs[0].Size();
    for (size_t i = 0; i < n; ++i) {
      const DType v = static_cast<DType>(p.start + p.step * static_cast<double>(i / p.repeat));
      o[i] = req[0] == kAddTo ? static_cast<DType>(o[i] + v) : v;
    }
  });
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
.set_attr<FCompute>("FCompute<cpu>", ArangeLikeCompute)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "The input")
.add_arguments(ArangeLikeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
