/*!
 * \file boolean_mask.cc
 * \brief _contrib_boolean_mask(data, index, axis=0): the slices of data along `axis` whose
 *        index entry is non-zero, in order. The output shape depends on the index values, so
 *        it comes from FDataDependentShape (imperative only; the imperative call waits for
 *        index). _backward_contrib_boolean_mask inputs (out_grad, data, index) -> (data_grad:
 *        out_grad scattered back to the kept slices, zero elsewhere; index_grad = 0).
 */
#include <dmlc/parameter.h>
#include <mxnet/data_dependent_shape.h>
#include <mxnet/op_attr_types.h>

#include <cstring>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../host_fallback.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct BooleanMaskParam : public dmlc::Parameter<BooleanMaskParam> {
  int axis;
  DMLC_DECLARE_PARAMETER(BooleanMaskParam) {
    DMLC_DECLARE_FIELD(axis).set_default(0)
        .describe("An integer that represents the axis in NDArray to mask from.");
  }
};

DMLC_REGISTER_PARAMETER(BooleanMaskParam);

namespace {

int MaskAxis(const NodeAttrs& attrs, const mxnet::TShape& data) {
  const int given = nnvm::get<BooleanMaskParam>(attrs.parsed).axis;
  const int axis = given < 0 ? given + data.ndim() : given;
  if (axis < 0 || axis >= data.ndim()) {
    MX_THROW(ValueError) << "_contrib_boolean_mask: axis " << given
                         << " is out of range for data of shape " << data;
  }
  return axis;
}

void CheckIndexShape(const mxnet::TShape& data, const mxnet::TShape& index, int axis) {
  if (index.ndim() != 1 || index[0] != data[axis]) {
    MX_THROW(ValueError) << "_contrib_boolean_mask: expected index of shape (" << data[axis]
                         << ",) (the length of axis " << axis << " of data " << data
                         << "), got " << index;
  }
}

/*! \brief The positions along the axis whose index entry is non-zero. */
std::vector<index_t> KeptPositions(const TBlob& index) {
  std::vector<index_t> kept;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(index.type_flag_, IType, {
    const IType* p = index.dptr<IType>();
    for (size_t i = 0; i < index.Size(); ++i)
      if (p[i] != IType(0)) kept.push_back(i);
  });
  return kept;
}

void BooleanMaskDataShape(const NodeAttrs& attrs, const std::vector<TBlob>& inputs,
                          mxnet::ShapeVector* out_shapes) {
  const mxnet::TShape& data = inputs[0].shape_;
  const int axis = MaskAxis(attrs, data);
  CheckIndexShape(data, inputs[1].shape_, axis);
  mxnet::TShape out = data;
  out[axis] = KeptPositions(inputs[1]).size();
  (*out_shapes)[0] = out;
}

bool BooleanMaskShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  const mxnet::TShape& data = (*in)[0];
  if (!shape_is_known(data) || !shape_is_known((*in)[1])) return false;
  const int axis = MaskAxis(attrs, data);
  CheckIndexShape(data, (*in)[1], axis);
  // Only the axis length is data dependent; it is known once FDataDependentShape ran.
  return shape_is_known((*out)[0]);
}

bool BooleanMaskType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1 && (*in)[1] != -1;
}

/*! \brief (outer, axis length, inner) view of data around axis. */
struct AxisView {
  index_t outer = 1, len = 1, inner = 1;
};

AxisView ViewAround(const mxnet::TShape& s, int axis) {
  AxisView v;
  for (int i = 0; i < axis; ++i) v.outer *= s[i];
  v.len = s[axis];
  for (int i = axis + 1; i < s.ndim(); ++i) v.inner *= s[i];
  return v;
}

void BooleanMaskCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const int axis = MaskAxis(attrs, inputs[0].shape_);
  const AxisView v = ViewAround(inputs[0].shape_, axis);
  const std::vector<index_t> kept = KeptPositions(inputs[1]);
  const size_t esize = mshadow::mshadow_sizeof(inputs[0].type_flag_);
  const size_t slice = v.inner * esize;
  const char* x = static_cast<const char*>(inputs[0].dptr_);
  char* o = static_cast<char*>(outputs[0].dptr_);
  for (index_t a = 0; a < v.outer; ++a)
    for (size_t k = 0; k < kept.size(); ++k)
      std::memcpy(o + (a * kept.size() + k) * slice, x + (a * v.len + kept[k]) * slice, slice);
}

void BooleanMaskGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  const TBlob& og = inputs[0];
  const TBlob& data = inputs[1];
  const int axis = MaskAxis(attrs, data.shape_);
  const AxisView v = ViewAround(data.shape_, axis);
  const std::vector<index_t> kept = KeptPositions(inputs[2]);
  if (req[1] == kWriteTo || req[1] == kWriteInplace) {
    std::memset(outputs[1].dptr_, 0,
                outputs[1].Size() * mshadow::mshadow_sizeof(outputs[1].type_flag_));
  }
  if (req[0] == kNullOp) return;
  MSHADOW_TYPE_SWITCH(og.type_flag_, DType, {
    const DType* g = og.dptr<DType>();
    DType* dx = outputs[0].dptr<DType>();
    if (req[0] != kAddTo) std::fill(dx, dx + outputs[0].Size(), DType(0));
    for (index_t a = 0; a < v.outer; ++a) {
      for (size_t k = 0; k < kept.size(); ++k) {
        const DType* src = g + (a * kept.size() + k) * v.inner;
        DType* dst = dx + (a * v.len + kept[k]) * v.inner;
        for (index_t i = 0; i < v.inner; ++i) dst[i] += src[i];
      }
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(_contrib_boolean_mask)
.describe(R"code(
Given an n-d NDArray data, and a 1-d NDArray index,
the operator produces an un-predeterminable shaped n-d NDArray out,
which stands for the rows in x where the corresonding element in index is non-zero.

>>> data = mx.nd.array([[1, 2, 3],[4, 5, 6],[7, 8, 9]])
>>> index = mx.nd.array([0, 1, 0])
>>> out = mx.nd.contrib.boolean_mask(data, index)
>>> out

[[4. 5. 6.]]
<NDArray 1x3 @cpu(0)>

)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<BooleanMaskParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "index"};
})
.set_attr<FDataDependentShape>("FDataDependentShape", BooleanMaskDataShape)
.set_attr<mxnet::FInferShape>("FInferShape", BooleanMaskShape)
.set_attr<nnvm::FInferType>("FInferType", BooleanMaskType)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(BooleanMaskCompute))
#endif
.set_attr<FCompute>("FCompute<cpu>", BooleanMaskCompute)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_contrib_boolean_mask"})
.add_argument("data", "NDArray-or-Symbol", "Data")
.add_argument("index", "NDArray-or-Symbol", "Mask")
.add_arguments(BooleanMaskParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_contrib_boolean_mask)
.describe("Backward of _contrib_boolean_mask: (out_grad, data, index) -> "
          "(data_grad, index_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<BooleanMaskParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  TYPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return (*out)[0] != -1 && (*out)[1] != -1;
})
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(BooleanMaskGradCompute))
#endif
.set_attr<FCompute>("FCompute<cpu>", BooleanMaskGradCompute);

}  // namespace op
}  // namespace mxnet
