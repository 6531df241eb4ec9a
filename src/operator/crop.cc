/*!
 * \file crop.cc
 * \brief Crop (legacy): crops the last two (H, W) axes of data (N, C, H, W) to h_w, or to the
 *        (H, W) of a second input crop_like when num_args = 2, starting at offset (y, x) or
 *        centred with center_crop ((H - h) / 2, (W - w) / 2, floored).
 *        _backward_Crop: out_grad -> (data_grad: out_grad placed at the crop window, zero
 *        elsewhere[, crop_like_grad = 0]).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "./crop-inl.h"
#include "./elemwise_op_common.h"
#include "./operator_common.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(CropParam);

namespace {

bool CropShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const CropParam& p = nnvm::get<CropParam>(attrs.parsed);
  if (p.num_args > 2) {
    MX_THROW(ValueError) << "Crop: num_args must be 1 or 2, got " << p.num_args;
  }
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() != 4) {
    MX_THROW(ValueError) << "Crop: expected data of shape (batch, channel, height, width), got "
                         << d;
  }
  dim_t h, w;
  if (p.num_args == 1) {
    if (p.h_w.ndim() != 2) MX_THROW(ValueError) << "Crop: h_w must be (h, w), got " << p.h_w;
    h = p.h_w[0];
    w = p.h_w[1];
  } else {
    const mxnet::TShape& like = (*in)[1];
    if (!shape_is_known(like)) return false;
    if (like.ndim() != 4) {
      MX_THROW(ValueError) << "Crop: expected crop_like of shape (batch, channel, height, "
                           << "width), got " << like;
    }
    h = like[2];
    w = like[3];
  }
  CropCorner(p, d, h, w);
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1], h, w}));
  return true;
}

bool CropType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  if ((*in)[0] < 0) return false;
  for (size_t i = 1; i < in->size(); ++i)
    if ((*in)[i] < 0) (*in)[i] = (*in)[0];
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(Crop)
.describe(R"code(

.. note:: `Crop` is deprecated. Use `slice` instead.

Crop the 2nd and 3rd dim of input data, with the corresponding size of h_w or
with width and height of the second input symbol, i.e., with one input, we need h_w to
specify the crop height and width, otherwise the second input symbol's size will be used
)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<CropParam>(attrs.parsed).num_args);
})
.set_num_outputs(1)
.set_attr_parser(ParamParser<CropParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  if (nnvm::get<CropParam>(attrs.parsed).num_args == 2)
    return std::vector<std::string>{"arg0", "arg1"};
  return std::vector<std::string>{"arg0"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CropShape)
.set_attr<nnvm::FInferType>("FInferType", CropType)
.set_attr<FCompute>("FCompute<cpu>", CropCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    for (const auto& e : n->inputs) heads.push_back(e);
    return MakeGradNode("_backward_Crop", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol[]", "Tensor or List of Tensors, the second input will "
              "be used as crop_like shape reference")
.add_arguments(CropParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Crop)
.describe("Backward of Crop: (out_grad, data[, crop_like]) -> (data_grad[, crop_like_grad]).")
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<CropParam>(attrs.parsed).num_args) + 1;
})
.set_num_outputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<CropParam>(attrs.parsed).num_args);
})
.set_attr_parser(ParamParser<CropParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
    known &= shape_is_known((*out)[i]);
  }
  return known;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    TYPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
    known &= (*out)[i] != -1;
  }
  return known;
})
.set_attr<FCompute>("FCompute<cpu>", CropGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
