/*!
 * \file bilinear_resize.cc
 * \brief _contrib_BilinearResize2D: bilinear resampling of (N, C, H, W) to (N, C, oh, ow).
 *        Output size by mode (1.9.1): size (height/width, or int(H * scale) when scales are
 *        given), odd_scale (odd H: int((H - 1) * scale) + 1, even H: int(H * scale)), like (the
 *        H, W of the second input), to_even_down/up, to_odd_down/up (nearest even/odd size).
 *        Source coordinate of output row i: align_corners: i * (H - 1) / (oh - 1); otherwise
 *        max((i + 0.5) * H / oh - 0.5, 0). Neighbours r0 = floor(src), r1 = min(r0 + 1, H - 1).
 *        _backward_contrib_BilinearResize2D: (out_grad, data[, like]) -> (data_grad[, 0]).
 *        The kernels, for both devices: bilinear_resize-inl.h.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cstring>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./bilinear_resize-inl.h"

namespace mxnet {
namespace op {


DMLC_REGISTER_PARAMETER(BilinearResizeParam);

namespace {

bool IsLike(const NodeAttrs& attrs) {
  return nnvm::get<BilinearResizeParam>(attrs.parsed).mode == bilinear_resize::kLike;
}

/*! \brief The output length of one axis of input length n. */
dim_t ResizedLength(const BilinearResizeParam& p, dim_t n, int fixed,
                    const dmlc::optional<float>& scale, const char* scale_name) {
  using namespace bilinear_resize;
  switch (p.mode) {
    case kSize:
      return scale.has_value() ? static_cast<dim_t>(static_cast<float>(n) * scale.value())
                               : fixed;
    case kOddScale:
      if (!scale.has_value()) {
        MX_THROW(ValueError) << "_contrib_BilinearResize2D: mode='odd_scale' needs "
                             << scale_name;
      }
      return n % 2 == 1 ? static_cast<dim_t>(static_cast<float>(n - 1) * scale.value()) + 1
                        : static_cast<dim_t>(static_cast<float>(n) * scale.value());
    case kToEvenDown: return n % 2 == 0 ? n : n - 1;
    case kToEvenUp: return n % 2 == 0 ? n : n + 1;
    case kToOddDown: return n % 2 == 1 ? n : n - 1;
    case kToOddUp: return n % 2 == 1 ? n : n + 1;
    default: return -1;
  }
}

bool BilinearResizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                         mxnet::ShapeVector* out) {
  const BilinearResizeParam& p = nnvm::get<BilinearResizeParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() != 4) {
    MX_THROW(ValueError) << "_contrib_BilinearResize2D: expected data of shape (batch, channel, "
                         << "height, width), got " << d;
  }
  dim_t h, w;
  if (p.mode == bilinear_resize::kLike) {
    const mxnet::TShape& like = (*in)[1];
    if (!shape_is_known(like)) return false;
    if (like.ndim() != 4) {
      MX_THROW(ValueError) << "_contrib_BilinearResize2D: expected like of shape (batch, "
                           << "channel, height, width), got " << like;
    }
    h = like[2];
    w = like[3];
  } else {
    h = ResizedLength(p, d[2], p.height, p.scale_height, "scale_height");
    w = ResizedLength(p, d[3], p.width, p.scale_width, "scale_width");
  }
  if (h <= 0 || w <= 0) {
    MX_THROW(ValueError) << "_contrib_BilinearResize2D: output size (" << h << ", " << w
                         << ") must be positive (data shape " << d << ")";
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1], h, w}));
  return true;
}

bool BilinearResizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                        std::vector<int>* out) {
  if ((*in)[0] < 0) return false;
  for (size_t i = 1; i < in->size(); ++i)
    if ((*in)[i] < 0) (*in)[i] = (*in)[0];
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_BilinearResize2D)
.describe(R"code(
Perform 2D resizing (upsampling or downsampling) for 4D input using bilinear interpolation.

Expected input is a 4 dimensional NDArray (NCHW) and the output
with the shape of (N x C x height x width).
The key idea of bilinear interpolation is to perform linear interpolation
first in one direction, and then again in the other direction. See the wikipedia of
`Bilinear interpolation  <https://en.wikipedia.org/wiki/Bilinear_interpolation>`_
for more details.
)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) { return IsLike(attrs) ? 2U : 1U; })
.set_num_outputs(1)
.set_attr_parser(ParamParser<BilinearResizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  if (IsLike(attrs)) return std::vector<std::string>{"data", "like"};
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BilinearResizeShape)
.set_attr<nnvm::FInferType>("FInferType", BilinearResizeType)
.set_attr<FCompute>("FCompute<cpu>", BilinearResizeCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    for (const auto& e : n->inputs) heads.push_back(e);
    return MakeGradNode("_backward_contrib_BilinearResize2D", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("like", "NDArray-or-Symbol", "Resize data to it's shape")
.add_arguments(BilinearResizeParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_contrib_BilinearResize2D)
.describe("Backward of _contrib_BilinearResize2D: (out_grad, data[, like]) -> "
          "(data_grad[, like_grad]).")
.set_num_inputs([](const NodeAttrs& attrs) { return IsLike(attrs) ? 3U : 2U; })
.set_num_outputs([](const NodeAttrs& attrs) { return IsLike(attrs) ? 2U : 1U; })
.set_attr_parser(ParamParser<BilinearResizeParam>)
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
.set_attr<FCompute>("FCompute<cpu>", BilinearResizeGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
