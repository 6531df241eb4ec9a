/*!
 * \file deformable_psroi_pooling.cc
 * \brief _contrib_DeformablePSROIPooling and its backward (see deformable_psroi_pooling-inl.h).
 *
 * The backward spreads out_grad / top_count over each sample's four corners into the data
 * gradient and, unless no_trans, adds to trans the sample's interpolation slope times
 * trans_std and the roi width (x) or height (y); as in MXNet 1.9.1 the slope comes from the
 * floor/ceil corners, so a sample on a grid line (or clamped to the border) adds nothing.
 */
#include <type_traits>

#include "./deformable_psroi_pooling-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(DeformablePSROIPoolingParam);

namespace {

constexpr char kOp[] = "_contrib_DeformablePSROIPooling";

template <typename DType>
using DPSGeomT =
    typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

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

/*! \brief Shape checks; fills `geom` when all shapes are known. */
bool DPSROIShapeImpl(const DeformablePSROIPoolingParam& p, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out, DPSROIGeom* geom) {
  const size_t nin = p.no_trans ? 2 : 3;
  if (in->size() != nin) {
    MX_THROW(ValueError) << kOp << ": expected " << nin << " inputs (data, rois"
                         << (p.no_trans ? "" : ", trans") << "), got " << in->size();
  }
  const mxnet::TShape &data = (*in)[0], &rois = (*in)[1];
  const dim_t D = p.output_dim, group = p.group_size, P = p.pooled_size;
  const dim_t part = p.part_size > 0 ? p.part_size : P;
  if (!shape_is_known(data) || !shape_is_known(rois)) return false;
  if (data.ndim() != 4) {
    MX_THROW(ValueError) << kOp << ": data must be 4-d (batch, channel, height, width), got "
                         << data;
  }
  if (data[1] != D * group * group) {
    MX_THROW(ValueError) << kOp << ": data must have output_dim * group_size^2 = " << D << " * "
                         << group << "^2 = " << D * group * group << " channels, got data "
                         << data;
  }
  if (rois.ndim() != 2 || rois[1] != 5) {
    MX_THROW(ValueError) << kOp << ": rois must be 2-d (num_rois, 5) with rows "
                         << "[batch_index, x1, y1, x2, y2], got " << rois;
  }
  dim_t classes = 1;
  if (!p.no_trans) {
    const mxnet::TShape& trans = (*in)[2];
    if (!shape_is_known(trans)) return false;
    if (trans.ndim() != 4 || trans[0] != rois[0] || trans[1] <= 0 || trans[1] % 2 != 0 ||
        trans[2] != part || trans[3] != part || D % (trans[1] / 2) != 0) {
      MX_THROW(ValueError) << kOp << ": trans must have shape (num_rois, 2*num_classes, "
                           << "part_size, part_size) = (" << rois[0] << ", 2*num_classes, "
                           << part << ", " << part << ") with output_dim=" << D
                           << " divisible by num_classes; got trans " << trans << " for rois "
                           << rois;
    }
    classes = trans[1] / 2;
  }
  const mxnet::TShape o({rois[0], D, P, P});
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  SHAPE_ASSIGN_CHECK(*out, 1, o);
  if (geom != nullptr) {
    geom->N = data[0];
    geom->C = data[1];
    geom->H = data[2];
    geom->W = data[3];
    geom->R = rois[0];
    geom->P = P;
    geom->group = group;
    geom->part = part;
    geom->samples = p.sample_per_part;
    geom->D = D;
    geom->classes = classes;
    geom->no_trans = p.no_trans;
  }
  return true;
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

DPSROIGeom GeomOf(const DeformablePSROIPoolingParam& p, const TBlob& data, const TBlob& rois,
                  const TBlob* trans) {
  mxnet::ShapeVector in{data.shape_, rois.shape_};
  if (!p.no_trans) in.push_back(trans->shape_);
  mxnet::ShapeVector out(2);
  DPSROIGeom g;
  DPSROIShapeImpl(p, &in, &out, &g);
  return g;
}

template <typename DType>
void DPSROIForward(const DeformablePSROIPoolingParam& p, const DPSROIGeom& g, const DType* data,
                   const DType* rois, const DType* trans, DType* out, DType* count) {
  using G = DPSGeomT<DType>;
  const index_t cells = g.D * g.P * g.P;
  #pragma omp parallel for
  for (index_t r = 0; r < g.R; ++r) {
    DType* o = out + r * cells;
    DType* cnt = count + r * cells;
    std::fill(o, o + cells, DType(0));
    std::fill(cnt, cnt + cells, DType(0));
    for (index_t co = 0; co < g.D; ++co) {
      G sum = 0;
      const bool ok = DPSROIVisit<G>(
          g, p.spatial_scale, rois + r * 5, trans, p.trans_std, r, co,
          [&](index_t, index_t plane, G y, G x, index_t, index_t, G, G) {
            const DPSCorners<G> c(y, x);
            const DType* d = data + plane;
            sum += (G(1) - c.ly) * (G(1) - c.lx) * static_cast<G>(d[c.y0 * g.W + c.x0]) +
                   (G(1) - c.ly) * c.lx * static_cast<G>(d[c.y0 * g.W + c.x1]) +
                   c.ly * (G(1) - c.lx) * static_cast<G>(d[c.y1 * g.W + c.x0]) +
                   c.ly * c.lx * static_cast<G>(d[c.y1 * g.W + c.x1]);
          },
          [&](index_t idx, index_t n) {
            o[idx] = static_cast<DType>(n > 0 ? sum / static_cast<G>(n) : G(0));
            cnt[idx] = static_cast<DType>(n);
            sum = 0;
          });
      if (!ok) break;
    }
  }
}

void DPSROICompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const DeformablePSROIPoolingParam& p = nnvm::get<DeformablePSROIPoolingParam>(attrs.parsed);
  const DPSROIGeom g = GeomOf(p, inputs[0], inputs[1], p.no_trans ? nullptr : &inputs[2]);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DPSROIForward<DType>(p, g, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                         p.no_trans ? nullptr : inputs[2].dptr<DType>(),
                         outputs[0].dptr<DType>(), outputs[1].dptr<DType>());
  });
}

// inputs: (out_grad, data, rois, [trans,] top_count); outputs: (data_grad, rois_grad
// [, trans_grad]).
template <typename DType>
void DPSROIBackward(const DeformablePSROIPoolingParam& p, const DPSROIGeom& g, const DType* og,
                    const DType* data, const DType* rois, const DType* trans,
                    const DType* count, DType* data_grad, DType* trans_grad) {
  using G = DPSGeomT<DType>;
  const index_t cells = g.D * g.P * g.P;
  const G tstd = p.trans_std;
  auto scale_of = [&](index_t r, index_t idx) -> G {
    const G n = static_cast<G>(count[r * cells + idx]);
    return n > 0 ? static_cast<G>(og[r * cells + idx]) / n : G(0);
  };
  if (data_grad != nullptr) {
    // Output channel co reads its own input channels: parallel over co, serial over rois.
    #pragma omp parallel for
    for (index_t co = 0; co < g.D; ++co) {
      for (index_t r = 0; r < g.R; ++r) {
        DPSROIVisit<G>(
            g, p.spatial_scale, rois + r * 5, trans, p.trans_std, r, co,
            [&](index_t idx, index_t plane, G y, G x, index_t, index_t, G, G) {
              const G v = scale_of(r, idx);
              const DPSCorners<G> c(y, x);
              DType* d = data_grad + plane;
              auto add = [&](index_t k, G w) {
                d[k] = static_cast<DType>(static_cast<G>(d[k]) + w * v);
              };
              add(c.y0 * g.W + c.x0, (G(1) - c.ly) * (G(1) - c.lx));
              add(c.y1 * g.W + c.x0, c.ly * (G(1) - c.lx));
              add(c.y0 * g.W + c.x1, (G(1) - c.ly) * c.lx);
              add(c.y1 * g.W + c.x1, c.ly * c.lx);
            },
            [](index_t, index_t) {});
      }
    }
  }
  if (trans_grad != nullptr) {
    // Each roi owns its trans row: parallel over rois.
    #pragma omp parallel for
    for (index_t r = 0; r < g.R; ++r) {
      for (index_t co = 0; co < g.D; ++co) {
        DPSROIVisit<G>(
            g, p.spatial_scale, rois + r * 5, trans, p.trans_std, r, co,
            [&](index_t idx, index_t plane, G y, G x, index_t tx, index_t ty, G rw, G rh) {
              const G v = scale_of(r, idx);
              const DPSCorners<G> c(y, x);
              const DType* d = data + plane;
              const G u00 = static_cast<G>(d[c.y0 * g.W + c.x0]);
              const G u01 = static_cast<G>(d[c.y1 * g.W + c.x0]);
              const G u10 = static_cast<G>(d[c.y0 * g.W + c.x1]);
              const G u11 = static_cast<G>(d[c.y1 * g.W + c.x1]);
              const G dx = (u11 * c.ly + u10 * (G(1) - c.ly) - u01 * c.ly -
                            u00 * (G(1) - c.ly)) * tstd * v * rw;
              const G dy = (u11 * c.lx + u01 * (G(1) - c.lx) - u10 * c.lx -
                            u00 * (G(1) - c.lx)) * tstd * v * rh;
              trans_grad[tx] = static_cast<DType>(static_cast<G>(trans_grad[tx]) + dx);
              trans_grad[ty] = static_cast<DType>(static_cast<G>(trans_grad[ty]) + dy);
            },
            [](index_t, index_t) {});
      }
    }
  }
}

void DPSROIGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const DeformablePSROIPoolingParam& p = nnvm::get<DeformablePSROIPoolingParam>(attrs.parsed);
  const TBlob* trans = p.no_trans ? nullptr : &inputs[3];
  const TBlob& count = inputs[p.no_trans ? 3 : 4];
  const DPSROIGeom g = GeomOf(p, inputs[1], inputs[2], trans);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    // Gradients accumulate in place: start from zero unless the request adds.
    std::vector<DType*> dst(outputs.size(), nullptr);
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (req[i] == kNullOp) continue;
      DType* ptr = outputs[i].dptr<DType>();
      if (req[i] != kAddTo) std::fill(ptr, ptr + outputs[i].Size(), DType(0));
      dst[i] = ptr;
    }
    DPSROIBackward<DType>(p, g, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                          inputs[2].dptr<DType>(), trans ? trans->dptr<DType>() : nullptr,
                          count.dptr<DType>(), dst[0], p.no_trans ? nullptr : dst[2]);
  });
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
.set_attr<FCompute>("FCompute<cpu>", DPSROICompute)
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
.set_attr<FCompute>("FCompute<cpu>", DPSROIGradCompute);

}  // namespace op
}  // namespace mxnet
