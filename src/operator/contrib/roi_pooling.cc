/*!
 * \file roi_pooling.cc
 * \brief ROIPooling and _contrib_ROIAlign (see roi_pooling-inl.h).
 *
 * ROIPooling: the roi corners are scaled and rounded to feature cells; the roi (at least 1x1
 * cell, ends inclusive) is split into pooled_size bins [floor(i*bin), ceil((i+1)*bin)) shifted
 * to the roi start and clipped to the map; each output is the max of its bin (0 for an empty
 * bin). A hidden second output keeps the argmax (flat h*W+w, -1 for none) for the backward.
 *
 * ROIAlign: bins of the continuous roi (x1*scale - offset, with offset 0.5 when aligned; without
 * aligned the roi is at least 1x1) are sampled on a grid of sample_ratio^2 points (adaptive
 * ceil(roi/pooled) when sample_ratio <= 0); each point is bilinearly interpolated (points more
 * than one cell outside the map count as 0) and the bin output is the average. With
 * position_sensitive the output has C / (ph*pw) channels and bin (i, j) of channel c reads input
 * channel (c*ph + i)*pw + j.
 *
 * _contrib_PSROIPooling (R-FCN): roi corners are rounded first, then scaled (the end inclusive:
 * (round(x2) + 1) * scale), the roi is at least 0.1 wide; bin (i, j) = [floor, ceil) of the
 * continuous bin clipped to the map, averaged over input channel
 * (c*group + gi)*group + gj with gi = floor(i*group/pooled) (0 for an empty bin). data must
 * have output_dim * group_size^2 channels (group_size 0 means pooled_size).
 */
#include "../elemwise_op_common.h"
#include "./roi_pooling-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ROIPoolingParam);
DMLC_REGISTER_PARAMETER(ROIAlignParam);
DMLC_REGISTER_PARAMETER(PSROIPoolingParam);

namespace {

bool RoiTwoInputTypes(const char* op, std::vector<int>* in, std::vector<int>* out) {
  int t = (*in)[0] != -1 ? (*in)[0] : (*in)[1];
  if (t == -1) return false;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] != -1 && (*in)[i] != t) {
      MX_THROW(TypeError) << op << ": data and rois must have the same dtype, got "
                          << (*in)[0] << " and " << (*in)[1];
    }
    (*in)[i] = t;
  }
  for (auto& v : *out) v = t;
  return true;
}

// ---- ROIPooling --------------------------------------------------------------------------

bool ROIPoolShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const ROIPoolingParam& p = nnvm::get<ROIPoolingParam>(attrs.parsed);
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  if (!CheckROIInputs("ROIPooling", data, rois, p.pooled_size)) return false;
  const mxnet::TShape o({rois[0], data[1], p.pooled_size[0], p.pooled_size[1]});
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  SHAPE_ASSIGN_CHECK(*out, 1, o);
  return true;
}

// ---- ROIAlign ----------------------------------------------------------------------------

bool ROIAlignShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  const ROIAlignParam& p = nnvm::get<ROIAlignParam>(attrs.parsed);
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  if (!CheckROIInputs("_contrib_ROIAlign", data, rois, p.pooled_size)) return false;
  dim_t channels = data[1];
  if (p.position_sensitive) {
    const dim_t bins = p.pooled_size[0] * p.pooled_size[1];
    if (channels % bins != 0) {
      MX_THROW(ValueError) << "_contrib_ROIAlign: with position_sensitive the data channels ("
                           << channels << ", data shape " << data << ") must be a multiple of "
                           << "pooled_size h*w = " << bins;
    }
    channels /= bins;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({rois[0], channels, p.pooled_size[0],
                                             p.pooled_size[1]}));
  return true;
}

// ---- PSROIPooling ------------------------------------------------------------------------

bool PSROIPoolShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const PSROIPoolingParam& p = nnvm::get<PSROIPoolingParam>(attrs.parsed);
  if (p.output_dim <= 0) {
    MX_THROW(ValueError) << "_contrib_PSROIPooling: output_dim must be positive, got "
                         << p.output_dim;
  }
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  if (!CheckROIInputs("_contrib_PSROIPooling", data, rois,
                      mxnet::TShape({p.pooled_size, p.pooled_size}))) {
    return false;
  }
  const dim_t group = PSGroup(p);
  if (data[1] != p.output_dim * group * group) {
    MX_THROW(ValueError) << "_contrib_PSROIPooling: data must have output_dim * group_size^2 = "
                         << p.output_dim << " * " << group << "^2 = "
                         << p.output_dim * group * group << " channels, got data " << data;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({rois[0], p.output_dim, p.pooled_size,
                                             p.pooled_size}));
  return true;
}

}  // namespace

NNVM_REGISTER_OP(ROIPooling)
.describe(R"code(Performs region of interest(ROI) pooling on the input array.

ROI pooling is a variant of a max pooling layer, in which the output size is fixed and
region of interest is a parameter. Its purpose is to perform max pooling on the inputs
of non-uniform sizes to obtain fixed-size feature maps. ROI pooling is a neural-net
layer mostly used in training a `Fast R-CNN` network for object detection.

This operator takes a 4D feature map as an input array and region proposals as `rois`,
then it pools over sub-regions of input and produces a fixed-sized output array
regardless of the ROI size.

The size of each region of interest doesn't have to be perfectly divisible by
the number of pooling sections(`pooled_size`).
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(2)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {
  return 1;
})
.set_attr_parser(ParamParser<ROIPoolingParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "rois"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "maxidx"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ROIPoolShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return RoiTwoInputTypes("ROIPooling", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", ROIPoolCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_ROIPooling", n,
                        {ograds[0], n->inputs[0], n->inputs[1], nnvm::NodeEntry{n, 1, 0}},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "The input array to the pooling operator,  a 4D "
              "Feature maps ")
.add_argument("rois", "NDArray-or-Symbol", "Bounding box coordinates, a 2D array of "
              "[[batch_index, x1, y1, x2, y2]], where (x1, y1) and (x2, y2) are top left and "
              "bottom right corners of designated region of interest. `batch_index` indicates "
              "the index of corresponding image in the input array")
.add_arguments(ROIPoolingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_ROIPooling)
.describe("Backward of ROIPooling: (out_grad, data, rois, argmax) -> (data_grad, rois_grad).")
.set_num_inputs(4)
.set_num_outputs(2)
.set_attr_parser(ParamParser<ROIPoolingParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", ROIPoolGradCompute<cpu>);

NNVM_REGISTER_OP(_contrib_ROIAlign)
.describe(R"code(
This operator takes a 4D feature map as an input array and region proposals as `rois`,
then align the feature map over sub-regions of input and produces a fixed-sized output array.
This operator is typically used in Faster R-CNN & Mask R-CNN networks. If roi batchid is less
than 0, it will be ignored, and the corresponding output will be set to 0.

Different from ROI pooling, ROI Align removes the harsh quantization, properly aligning
the extracted features with the input. RoIAlign computes the value of each sampling point
by bilinear interpolation from the nearby grid points on the feature map. No quantization is
performed on any coordinates involved in the RoI, its bins, or the sampling points.
Bilinear interpolation is used to compute the exact values of the
four regularly sampled locations in each RoI bin.
Then the feature map can be aggregated by avgpooling.


References
----------

He, Kaiming, et al. "Mask R-CNN." ICCV, 2017
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ROIAlignParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "rois"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ROIAlignShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return RoiTwoInputTypes("_contrib_ROIAlign", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", ROIAlignCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_ROIAlign", n, {ograds[0], n->inputs[0], n->inputs[1]},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to the pooling operator, a 4D Feature maps")
.add_argument("rois", "NDArray-or-Symbol", "Bounding box coordinates, a 2D array, if batchid is "
              "less than 0, it will be ignored.")
.add_arguments(ROIAlignParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_ROIAlign)
.describe("Backward of _contrib_ROIAlign: (out_grad, data, rois) -> (data_grad, rois_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<ROIAlignParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", ROIAlignGradCompute<cpu>);

NNVM_REGISTER_OP(_contrib_PSROIPooling)
.describe(R"code(Performs region-of-interest pooling on inputs. Resize bounding box coordinates
by spatial_scale and crop input feature maps accordingly. The cropped feature maps are pooled
by max pooling to a fixed size output indicated by pooled_size. batch_size will change to
the number of region bounding boxes after PSROIPooling
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<PSROIPoolingParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "rois"};
})
.set_attr<mxnet::FInferShape>("FInferShape", PSROIPoolShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return RoiTwoInputTypes("_contrib_PSROIPooling", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", PSROIPoolCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_PSROIPooling", n, {ograds[0], n->inputs[0], n->inputs[1]},
                        n->attrs.dict);
  })
.add_argument("data", "Symbol", "Input data to the pooling operator, a 4D Feature maps")
.add_argument("rois", "Symbol", "Bounding box coordinates, a 2D array of [[batch_index, x1, y1, "
              "x2, y2]]. (x1, y1) and (x2, y2) are top left and down right corners of designated "
              "region of interest. batch_index indicates the index of corresponding image in "
              "the input data")
.add_arguments(PSROIPoolingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_PSROIPooling)
.describe("Backward of _contrib_PSROIPooling: (out_grad, data, rois) -> (data_grad, rois_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<PSROIPoolingParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", PSROIPoolGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
