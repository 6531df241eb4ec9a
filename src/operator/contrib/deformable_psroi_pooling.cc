/*!
 * \file deformable_psroi_pooling.cc
 * \brief _contrib_DeformablePSROIPooling and its backward (see deformable_psroi_pooling-inl.h).
 *
 * The backward spreads out_grad / top_count over each sample's four corners into the data
 * gradient and, unless no_trans, adds to trans the sample's interpolation slope times
 * trans_std and the roi width (x) or height (y); as in MXNet 1.9.1 the slope comes from the
 * floor/ceil corners, so a sample on a grid line (or clamped to the border) adds nothing.
 */
#include <string>
#include <vector>

#include "./deformable_psroi_pooling-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(DeformablePSROIPoolingParam);

namespace {

constexpr char kOp[] = "_contrib_DeformablePSROIPooling";

void DPSROIParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<DeformablePSROIPoolingParam>(attrs);
  const DeformablePSROIPoolingParam& p = nnvm::get<DeformablePSROIPoolingParam>(attrs->parsed);
  if (p.output_dim <= 0 || p.group_size <= 0 || p.pooled_size <= 0) {
    throw dmlc::ParamError(std::string(kOp) + ": output_dim, group_size and pooled_size must be "
                           "positive, got " + std::to_string(p.output_dim) + ", " +
                           std::to_string(p.group_size) + ", " + std::to_string(p.pooled_size));
  }
  if (p.part_size < 0 || p.sample_per_part <= 0) {
    throw dmlc::ParamError(std::string(kOp) + ": part_size must be >= 0 and sample_per_part "
                           "positive, got " + std::to_string(p.part_size) + " and " +
                           std::to_string(p.sample_per_part));
  }
}

uint32_t DPSNumInputs(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<DeformablePSROIPoolingParam>(attrs.parsed).no_trans ? 2 : 3;
}

bool DPSROIShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  return DPSROIShapeImpl(nnvm::get<DeformablePSROIPoolingParam>(attrs.parsed), in, out, nullptr);
}

bool DPSROIType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  int t = -1;
  for (int v : *in) {
    if (t == -1) t = v;
  }
  if (t == -1) return false;
  if (!mshadow::IsFloatingType(t)) {
    MX_THROW(TypeError) << kOp << ": only float16, float32 and float64 are supported, got "
                        << type_string(t);
  }
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] != -1 && (*in)[i] != t) {
      MX_THROW(TypeError) << kOp << ": data, rois and trans must have the same dtype, got "
                          << type_string((*in)[0]) << " and " << type_string((*in)[i])
                          << " (input " << i << ")";
    }
    (*in)[i] = t;
  }
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, t);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_DeformablePSROIPooling)
.describe(R"code(Performs deformable position-sensitive region-of-interest pooling on inputs.
The DeformablePSROIPooling operation is described in https://arxiv.org/abs/1703.06211 .
batch_size will change to the number of region bounding boxes after DeformablePSROIPooling

``data`` has ``output_dim * group_size^2`` channels; ``trans`` has shape
*(num_rois, 2 * num_classes, part_size, part_size)* (``part_size`` 0 means ``pooled_size``) and
shifts every bin by ``trans_std`` times the roi size; each bin averages
``sample_per_part^2`` bilinear samples. The output has shape
*(num_rois, output_dim, pooled_size, pooled_size)*.
)code" ADD_FILELINE)
.set_num_inputs(DPSNumInputs)
.set_num_outputs(2)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {
  return 1;
})
.set_attr_parser(DPSROIParamParser)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  if (nnvm::get<DeformablePSROIPoolingParam>(attrs.parsed).no_trans) {
    return std::vector<std::string>{"data", "rois"};
  }
  return std::vector<std::string>{"data", "rois", "trans"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "top_count"};
})
.set_attr<mxnet::FInferShape>("FInferShape", DPSROIShape)
.set_attr<nnvm::FInferType>("FInferType", DPSROIType)
.set_attr<FCompute>("FCompute<cpu>", DPSROICompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    for (const auto& e : n->inputs) heads.push_back(e);
    heads.emplace_back(n, 1, 0);
    return MakeGradNode("_backward_DeformablePSROIPooling", n, heads, n->attrs.dict);
  })
.add_argument("data", "Symbol", "Input data to the pooling operator, a 4D Feature maps")
.add_argument("rois", "Symbol", "Bounding box coordinates, a 2D array of [[batch_index, x1, y1, "
              "x2, y2]]. (x1, y1) and (x2, y2) are top left and down right corners of designated "
              "region of interest. batch_index indicates the index of corresponding image in "
              "the input data")
.add_argument("trans", "Symbol", "transition parameter")
.add_arguments(DeformablePSROIPoolingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_DeformablePSROIPooling)
.describe("Backward of _contrib_DeformablePSROIPooling: (out_grad, data, rois, [trans,] "
          "top_count) -> (data_grad, rois_grad[, trans_grad]).")
.set_num_inputs([](const nnvm::NodeAttrs& attrs) { return DPSNumInputs(attrs) + 2; })
.set_num_outputs(DPSNumInputs)
.set_attr_parser(DPSROIParamParser)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  for (size_t i = 0; i < out->size(); ++i) SHAPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
  for (const auto& s : *out) {
    if (!shape_is_known(s)) return false;
  }
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", DPSROIGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
