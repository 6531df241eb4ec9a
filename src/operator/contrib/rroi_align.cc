/*!
 * \file rroi_align.cc
 * \brief Registration of _contrib_RROIAlign (see rroi_align-inl.h). Forward only: 1.9.1
 *        registers no gradient, so autograd through it raises.
 */
#include <string>
#include <vector>

#include "./rroi_align-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(RROIAlignParam);

namespace {

constexpr char kOp[] = "_contrib_RROIAlign";

void RROIAlignParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<RROIAlignParam>(attrs);
  const RROIAlignParam& p = nnvm::get<RROIAlignParam>(attrs->parsed);
  if (p.pooled_size.ndim() != 2 || p.pooled_size[0] <= 0 || p.pooled_size[1] <= 0) {
    throw dmlc::ParamError(std::string(kOp) + ": pooled_size must be two positive integers "
                           "(h, w), got " + shape_string(p.pooled_size));
  }
}

bool RROIAlignShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const RROIAlignParam& p = nnvm::get<RROIAlignParam>(attrs.parsed);
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  if (!shape_is_known(data) || !shape_is_known(rois)) return false;
  if (data.ndim() != 4) {
    MX_THROW(ValueError) << kOp << ": data must be 4-d (batch, channel, height, width), got "
                         << data;
  }
  if (rois.ndim() != 2 || rois[1] != 6) {
    MX_THROW(ValueError) << kOp << ": rois must be 2-d (num_rois, 6) with rows [batch_index, "
                         << "center_x, center_y, width, height, angle], got " << rois;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({rois[0], data[1], p.pooled_size[0],
                                             p.pooled_size[1]}));
  return true;
}

bool RROIAlignType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0] != -1 ? (*in)[0] : (*in)[1];
  if (t == -1) return false;
  if (!mshadow::IsFloatingType(t)) {
    MX_THROW(TypeError) << kOp << ": only float16, float32 and float64 are supported, got "
                        << type_string(t);
  }
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] != -1 && (*in)[i] != t) {
      MX_THROW(TypeError) << kOp << ": data and rois must have the same dtype, got "
                          << type_string((*in)[0]) << " and " << type_string((*in)[1]);
    }
    (*in)[i] = t;
  }
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_RROIAlign)
.describe(R"code(Performs Rotated ROI Align on the input array.

This operator takes a 4D feature map as an input array and region proposals as `rois`,
then align the feature map over sub-regions of input and produces a fixed-sized output array.

Different from ROI Align, RROI Align uses rotated rois, which is suitable for text detection.
RRoIAlign computes the value of each sampling point by bilinear interpolation from the nearby
grid points on the rotated feature map. No quantization is performed on any coordinates
involved in the RoI, its bins, or the sampling points. Bilinear interpolation is used to
compute the exact values of the input features at four regularly sampled locations in
each RoI bin. Then the feature map can be aggregated by avgpooling.

Each roi row is ``[batch_index, center_x, center_y, width, height, angle]`` with the angle in
degrees. The operator has no gradient.

References
----------

Ma, Jianqi, et al. "Arbitrary-Oriented Scene Text Detection via Rotation Proposals."
IEEE Transactions on Multimedia, 2018.

)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(RROIAlignParamParser)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "rois"};
})
.set_attr<mxnet::FInferShape>("FInferShape", RROIAlignShape)
.set_attr<nnvm::FInferType>("FInferType", RROIAlignType)
.set_attr<FCompute>("FCompute<cpu>", RROIAlignCompute<cpu>)
.add_argument("data", "NDArray-or-Symbol", "Input data to the pooling operator, a 4D Feature maps")
.add_argument("rois", "NDArray-or-Symbol", "Bounding box coordinates, a 2D array")
.add_arguments(RROIAlignParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
