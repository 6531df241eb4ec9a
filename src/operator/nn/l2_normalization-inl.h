/*!
 * \file l2_normalization-inl.h
 * \brief L2Normalization: out = x / sqrt(sum(x^2) + eps), the sum taken per
 *          instance  over all axes but 0            (norm shape (N,)),
 *          channel   over axis 1                    (norm shape (N, spatial...)),
 *          spatial   over axes 2...                 (norm shape (N, C)).
 *        Outputs: output (visible), norm (hidden).
 *
 * _backward_L2Normalization inputs: (out_grad, output, norm); output: data_grad,
 *   dx = (og - y * sum(og * y)) / norm   over the same groups.
 */
#ifndef MXNET_OPERATOR_NN_L2_NORMALIZATION_INL_H_
#define MXNET_OPERATOR_NN_L2_NORMALIZATION_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./layer_norm-inl.h"

namespace mxnet {
namespace op {

namespace l2_normalization {
enum L2NormalizationOpInputs { kData };
enum L2NormalizationOpOutputs { kOut, kNorm };
enum L2NormalizationOpType { kInstance, kChannel, kSpatial };
}  // namespace l2_normalization

struct L2NormalizationParam : public dmlc::Parameter<L2NormalizationParam> {
  float eps;
  int mode;
  DMLC_DECLARE_PARAMETER(L2NormalizationParam) {
    DMLC_DECLARE_FIELD(eps).set_default(1e-10f).describe(
        "A small constant for numerical stability.");
    DMLC_DECLARE_FIELD(mode)
        .add_enum("instance", l2_normalization::kInstance)
        .add_enum("spatial", l2_normalization::kSpatial)
        .add_enum("channel", l2_normalization::kChannel)
        .set_default(l2_normalization::kInstance)
        .describe("Specify the dimension along which to compute L2 norm.");
  }
};

/*! \brief The groups each normalised on its own (rows of NormRows). */
inline NormRows L2NormRows(const mxnet::TShape& s, int mode) {
  NormRows g;
  const index_t n = s.ndim() > 0 ? s[0] : 1;
  index_t rest = 1;
  for (int i = 1; i < s.ndim(); ++i) rest *= s[i];
  if (mode == l2_normalization::kInstance) {
    g.rows = n;
    g.len = rest;
    g.inner = 1;
  } else if (mode == l2_normalization::kChannel) {
    index_t spatial = 1;
    for (int i = 2; i < s.ndim(); ++i) spatial *= s[i];
    g.rows = n * spatial;
    g.len = s[1];
    g.inner = spatial;
  } else {
    index_t spatial = 1;
    for (int i = 2; i < s.ndim(); ++i) spatial *= s[i];
    g.rows = n * s[1];
    g.len = spatial;
    g.inner = 1;
  }
  return g;
}

inline bool L2NormalizationShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                                 mxnet::ShapeVector* out_shape) {
  const L2NormalizationParam& param = nnvm::get<L2NormalizationParam>(attrs.parsed);
  CHECK_EQ(in_shape->size(), 1U) << "L2Normalization: expected one input (data)";
  const mxnet::TShape dshape = (*in_shape)[0];
  if (!ndim_is_known(dshape)) return false;
  mxnet::TShape norm;
  if (param.mode == l2_normalization::kInstance) {
    if (dshape.ndim() < 1) {
      MX_THROW(ValueError) << "L2Normalization: expected data with at least 1 dimension";
    }
    norm = mxnet::TShape(1, dshape[0]);
  } else {
    if (dshape.ndim() < 3) {
      MX_THROW(ValueError) << "L2Normalization: mode '"
                           << (param.mode == l2_normalization::kChannel ? "channel" : "spatial")
                           << "' expects data with at least 3 dimensions, got " << dshape;
    }
    if (param.mode == l2_normalization::kChannel) {
      norm = mxnet::TShape(dshape.ndim() - 1, -1);
      norm[0] = dshape[0];
      for (int i = 2; i < dshape.ndim(); ++i) norm[i - 1] = dshape[i];
    } else {
      norm = mxnet::TShape(2, -1);
      norm[0] = dshape[0];
      norm[1] = dshape[1];
    }
  }
  SHAPE_ASSIGN_CHECK(*out_shape, l2_normalization::kOut, dshape);
  SHAPE_ASSIGN_CHECK(*out_shape, l2_normalization::kNorm, norm);
  return shape_is_known(dshape);
}

template <typename DType>
void L2NormalizationForwardImpl(const L2NormalizationParam& param, const TBlob& data,
                                const TBlob& out, OpReqType req, const TBlob& norm_out) {
  const NormRows g = L2NormRows(data.shape_, param.mode);
  const DType* x = data.dptr<DType>();
  DType* y = out.dptr<DType>();
  DType* nrm = norm_out.dptr<DType>();
  const double eps = param.eps;
#pragma omp parallel for if (g.rows * g.len >= mxnet_op::kOmpThreshold)
  for (index_t r = 0; r < g.rows; ++r) {
    const index_t b = g.base(r);
    double sq = 0;
    for (index_t k = 0; k < g.len; ++k) {
      const double v = static_cast<double>(x[b + k * g.inner]);
      sq += v * v;
    }
    const double n = std::sqrt(sq + eps);
    nrm[r] = DType(n);
    if (req == kNullOp) continue;
    for (index_t k = 0; k < g.len; ++k) {
      const index_t i = b + k * g.inner;
      KERNEL_ASSIGN(y[i], req, DType(static_cast<double>(x[i]) / n));
    }
  }
}

template <typename xpu>
void L2NormalizationCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  const L2NormalizationParam& param = nnvm::get<L2NormalizationParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    L2NormalizationForwardImpl<DType>(param, inputs[0], outputs[0], req[0], outputs[1]);
  });
}

template <typename DType>
void L2NormalizationBackwardImpl(const L2NormalizationParam& param, const TBlob& ograd,
                                 const TBlob& out, const TBlob& norm, const TBlob& dx_blob,
                                 OpReqType req) {
  const NormRows g = L2NormRows(out.shape_, param.mode);
  const DType* og = ograd.dptr<DType>();
  const DType* y = out.dptr<DType>();
  const DType* nrm = norm.dptr<DType>();
  DType* dx = dx_blob.dptr<DType>();
#pragma omp parallel for if (g.rows * g.len >= mxnet_op::kOmpThreshold)
  for (index_t r = 0; r < g.rows; ++r) {
    const index_t b = g.base(r);
    double dot = 0;
    for (index_t k = 0; k < g.len; ++k) {
      const index_t i = b + k * g.inner;
      dot += static_cast<double>(og[i]) * static_cast<double>(y[i]);
    }
    const double inv = 1.0 / static_cast<double>(nrm[r]);
    for (index_t k = 0; k < g.len; ++k) {
      const index_t i = b + k * g.inner;
      const double v = (static_cast<double>(og[i]) - static_cast<double>(y[i]) * dot) * inv;
      KERNEL_ASSIGN(dx[i], req, DType(v));
    }
  }
}

template <typename xpu>
void L2NormalizationGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const L2NormalizationParam& param = nnvm::get<L2NormalizationParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    L2NormalizationBackwardImpl<DType>(param, inputs[0], inputs[1], inputs[2], outputs[0],
                                       req[0]);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_L2_NORMALIZATION_INL_H_
