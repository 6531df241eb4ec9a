/*!
 * \file spatial_sampler.cc
 * \brief GridGenerator, BilinearSampler and SpatialTransformer (MXNet 1.9.1 semantics) and their
 *        backward ops: registration, shape and type inference and the CPU kernels of
 *        spatial_sampler-inl.h (which describes the maths).
 */
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./spatial_sampler-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(GridGeneratorParam);
DMLC_REGISTER_PARAMETER(BilinearSamplerParam);
DMLC_REGISTER_PARAMETER(SpatialTransformerParam);

namespace {

/*! \brief The (H, W) of an affine target, validated. */
void CheckTargetShape(const char* op, const mxnet::TShape& t) {
  if (t.ndim() != 2 || t[0] <= 0 || t[1] <= 0) {
    MX_THROW(dmlc::ValueError) << op << ": target_shape must be a positive (H, W), got " << t;
  }
}

// ---------------------------------------------------------------- GridGenerator

bool GridGeneratorShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                        mxnet::ShapeVector* out) {
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  if (p.transform_type == grid::kAffine) {
    CheckTargetShape("GridGenerator", p.target_shape);
    if (d.ndim() != 2 || (d[1] >= 0 && d[1] != 6)) {
      MX_THROW(dmlc::ValueError) << "GridGenerator: transform_type='affine' expects data of "
                                 << "shape (batch, 6), got " << d;
    }
    SHAPE_ASSIGN_CHECK(*out, 0,
                       mxnet::TShape({d[0], 2, p.target_shape[0], p.target_shape[1]}));
  } else {
    if (d.ndim() != 4 || (d[1] >= 0 && d[1] != 2)) {
      MX_THROW(dmlc::ValueError) << "GridGenerator: transform_type='warp' expects data (an "
                                 << "optical flow) of shape (batch, 2, height, width), got " << d;
    }
    SHAPE_ASSIGN_CHECK(*out, 0, d);
  }
  return shape_is_known(d);
}

// ---------------------------------------------------------------- BilinearSampler

bool BilinearSamplerShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                          mxnet::ShapeVector* out) {
  const mxnet::TShape& d = (*in)[0];
  const mxnet::TShape& g = (*in)[1];
  if (!ndim_is_known(d) || !ndim_is_known(g)) return false;
  if (d.ndim() != 4) {
    MX_THROW(dmlc::ValueError) << "BilinearSampler: data must have shape (batch, channel, "
                               << "height, width), got " << d;
  }
  if (g.ndim() != 4 || (g[1] >= 0 && g[1] != 2) || (g[0] >= 0 && d[0] >= 0 && g[0] != d[0])) {
    MX_THROW(dmlc::ValueError) << "BilinearSampler: grid must have shape (batch, 2, height, "
                               << "width) with the batch of data " << d << ", got " << g;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1], g[2], g[3]}));
  return shape_is_known(d) && shape_is_known(g);
}

// ---------------------------------------------------------------- SpatialTransformer

bool SpatialTransformerShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                             mxnet::ShapeVector* out) {
  const SpatialTransformerParam& p = nnvm::get<SpatialTransformerParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  CheckTargetShape("SpatialTransformer", p.target_shape);
  if (d.ndim() != 4) {
    MX_THROW(dmlc::ValueError) << "SpatialTransformer: data must have shape (batch, channel, "
                               << "height, width), got " << d;
  }
  SHAPE_ASSIGN_CHECK(*in, 1, mxnet::TShape({d[0], 6}));
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1], p.target_shape[0],
                                              p.target_shape[1]}));
  return shape_is_known(d);
}

bool BackwardShapeFromInputs(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                             mxnet::ShapeVector* out) {
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
    known &= shape_is_known((*out)[i]);
  }
  return known;
}

bool AllSameType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  int t = -1;
  for (int v : *in) if (v != -1) t = v;
  for (int v : *out) if (v != -1) t = v;
  if (t == -1) return false;
  for (size_t i = 0; i < in->size(); ++i) TYPE_ASSIGN_CHECK(*in, i, t);
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, t);
  return true;
}

nnvm::FGradient GradWithInputs(const char* backward) {
  return [backward](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    for (const auto& e : n->inputs) heads.push_back(e);
    return MakeGradNode(backward, n, heads, n->attrs.dict);
  };
}

}  // namespace

NNVM_REGISTER_OP(GridGenerator)
.describe(R"code(Generates 2D sampling grids for BilinearSampler: from affine matrices
(batch, 6) over target_shape, or from an optical flow (batch, 2, H, W) ('warp').
The grid's channel 0 holds normalised source x and channel 1 source y, in [-1, 1].
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GridGeneratorParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", GridGeneratorShape)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", GridGeneratorCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_GridGenerator"})
.add_argument("data", "NDArray-or-Symbol", "Input data to the function.")
.add_arguments(GridGeneratorParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_GridGenerator)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GridGeneratorParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const GridGeneratorParam& p = nnvm::get<GridGeneratorParam>(attrs.parsed);
  const mxnet::TShape& g = (*in)[0];
  if (!shape_is_known(g)) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, p.transform_type == grid::kAffine ? mxnet::TShape({g[0], 6}) : g);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", GridGeneratorGradCompute<cpu>);

NNVM_REGISTER_OP(BilinearSampler)
.describe(R"code(Samples data (batch, channel, H, W) at the points of grid (batch, 2, oh, ow)
(normalised x, y in [-1, 1]) with bilinear interpolation; points outside the image read 0.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<BilinearSamplerParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data", "grid"};
})
.set_attr<mxnet::FInferShape>("FInferShape", BilinearSamplerShape)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", BilinearSamplerCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", GradWithInputs("_backward_BilinearSampler"))
.add_argument("data", "NDArray-or-Symbol", "Input data to the BilinearsamplerOp.")
.add_argument("grid", "NDArray-or-Symbol",
              "Input grid to the BilinearsamplerOp.grid has two channels: x_src, y_src")
.add_arguments(BilinearSamplerParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_BilinearSampler)
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<BilinearSamplerParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", BackwardShapeFromInputs)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", BilinearSamplerGradCompute<cpu>);

NNVM_REGISTER_OP(SpatialTransformer)
.describe(R"code(Applies an affine spatial transformer: samples data (batch, channel, H, W)
bilinearly on the grid that loc (batch, 6) generates over target_shape.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SpatialTransformerParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data", "loc"};
})
.set_attr<mxnet::FInferShape>("FInferShape", SpatialTransformerShape)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FCompute>("FCompute<cpu>", SpatialTransformerCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", GradWithInputs("_backward_SpatialTransformer"))
.add_argument("data", "NDArray-or-Symbol", "Input data to the SpatialTransformerOp.")
.add_argument("loc", "NDArray-or-Symbol",
              "localisation net, the output dim should be 6 when transform_type is affine. You "
              "shold initialize the weight and bias with identity tranform.")
.add_arguments(SpatialTransformerParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SpatialTransformer)
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<SpatialTransformerParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", BackwardShapeFromInputs)
.set_attr<nnvm::FInferType>("FInferType", AllSameType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the grid gradient
})
.set_attr<FCompute>("FCompute<cpu>", SpatialTransformerGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
