/*!
 * \file lrn-inl.h
 * \brief LRN (local response normalisation across channels) of 4-D (N, C, H, W) data, or any
 *        data with at least 3 dimensions (channels on axis 1):
 *          norm[n,c,s] = knorm + alpha / nsize * sum_{|c'-c| <= (nsize-1)/2} x[n,c',s]^2
 *          out = x * norm^(-beta)
 *        Outputs: output (visible), tmp_norm (hidden, the `norm` above).
 *
 * _backward_LRN inputs: (out_grad, data, tmp_norm); output: data_grad,
 *   dx[c] = og[c] * norm[c]^-beta
 *           - 2 alpha beta / nsize * x[c] * sum_{c' in window(c)} og[c'] x[c'] norm[c']^(-beta-1)
 */
#ifndef MXNET_OPERATOR_NN_LRN_INL_H_
#define MXNET_OPERATOR_NN_LRN_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./layer_norm-inl.h"

namespace mxnet {
namespace op {

namespace lrn_enum {
enum LRNInputs { kData };
enum LRNOutputs { kOut, kTmpNorm };
}  // namespace lrn_enum

struct LRNParam : public dmlc::Parameter<LRNParam> {
  float alpha;
  float beta;
  float knorm;
  uint32_t nsize;
  DMLC_DECLARE_PARAMETER(LRNParam) {
    DMLC_DECLARE_FIELD(alpha).set_default(1e-4f).describe(
        "The variance scaling parameter :math:`\\alpha` in the LRN expression.");
    DMLC_DECLARE_FIELD(beta).set_default(0.75f).describe(
        "The power parameter :math:`\\beta` in the LRN expression.");
    DMLC_DECLARE_FIELD(knorm).set_default(2.0f).describe(
        "The parameter :math:`k` in the LRN expression.");
    DMLC_DECLARE_FIELD(nsize).describe("normalization window width in elements.");
  }
};

inline bool LRNShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                     mxnet::ShapeVector* out_shape) {
  const LRNParam& param = nnvm::get<LRNParam>(attrs.parsed);
  CHECK_EQ(in_shape->size(), 1U) << "LRN: expected one input (data)";
  const mxnet::TShape dshape = (*in_shape)[0];
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() < 3) {
    MX_THROW(ValueError) << "LRN: expected data of at least 3 dimensions (batch, channel, "
                         << "spatial...), got " << dshape;
  }
  if (param.nsize == 0) {
    MX_THROW(ValueError) << "LRN: nsize must be positive, got 0";
  }
  SHAPE_ASSIGN_CHECK(*out_shape, lrn_enum::kOut, dshape);
  SHAPE_ASSIGN_CHECK(*out_shape, lrn_enum::kTmpNorm, dshape);
  return shape_is_known(dshape);
}

/*! \brief (N, C, S) geometry of LRN data. */
struct LRNGeom {
  index_t n, c, s;
  explicit LRNGeom(const mxnet::TShape& shape) : n(shape[0]), c(shape[1]), s(1) {
    for (int i = 2; i < shape.ndim(); ++i) s *= shape[i];
  }
};

template <typename DType>
void LRNForwardImpl(const LRNParam& param, const TBlob& data, const TBlob& out, OpReqType req,
                    const TBlob& norm_out) {
  const LRNGeom g(data.shape_);
  const DType* x = data.dptr<DType>();
  DType* y = out.dptr<DType>();
  DType* nrm = norm_out.dptr<DType>();
  // MXNet's window: (nsize - 1) / 2 channels on each side (an even nsize acts as nsize - 1).
  const index_t half = (param.nsize - 1) / 2;
  const double salpha = static_cast<double>(param.alpha) / param.nsize;
  const double beta = param.beta, knorm = param.knorm;
  // One (sample, position) column of C channels per iteration.
#pragma omp parallel for if (g.n * g.c * g.s >= mxnet_op::kOmpThreshold)
  for (index_t col = 0; col < g.n * g.s; ++col) {
    const index_t base = (col / g.s) * g.c * g.s + col % g.s;
    for (index_t c = 0; c < g.c; ++c) {
      const index_t lo = std::max<index_t>(0, c - half);
      const index_t hi = std::min<index_t>(g.c - 1, c + half);
      double sq = 0;
      for (index_t k = lo; k <= hi; ++k) {
        const double v = static_cast<double>(x[base + k * g.s]);
        sq += v * v;
      }
      const index_t i = base + c * g.s;
      const double norm = knorm + salpha * sq;
      nrm[i] = DType(norm);
      KERNEL_ASSIGN(y[i], req, DType(static_cast<double>(x[i]) * std::pow(norm, -beta)));
    }
  }
}

template <typename xpu>
void LRNCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  const LRNParam& param = nnvm::get<LRNParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LRNForwardImpl<DType>(param, inputs[0], outputs[0], req[0], outputs[1]);
  });
}

template <typename DType>
void LRNBackwardImpl(const LRNParam& param, const TBlob& ograd, const TBlob& data,
                     const TBlob& norm, const TBlob& dx_blob, OpReqType req) {
  const LRNGeom g(data.shape_);
  const DType* og = ograd.dptr<DType>();
  const DType* x = data.dptr<DType>();
  const DType* nrm = norm.dptr<DType>();
  DType* dx = dx_blob.dptr<DType>();
  // MXNet's window: (nsize - 1) / 2 channels on each side (an even nsize acts as nsize - 1).
  const index_t half = (param.nsize - 1) / 2;
  const double coef = 2.0 * param.alpha * param.beta / param.nsize;
  const double beta = param.beta;
#pragma omp parallel for if (g.n * g.c * g.s >= mxnet_op::kOmpThreshold)
  for (index_t col = 0; col < g.n * g.s; ++col) {
    const index_t base = (col / g.s) * g.c * g.s + col % g.s;
    // t[c] = og[c] * x[c] * norm[c]^(-beta-1), then windowed sums of t.
    std::vector<double> t(g.c), direct(g.c);
    for (index_t c = 0; c < g.c; ++c) {
      const index_t i = base + c * g.s;
      const double nv = static_cast<double>(nrm[i]);
      const double p = std::pow(nv, -beta);
      direct[c] = static_cast<double>(og[i]) * p;
      t[c] = static_cast<double>(og[i]) * static_cast<double>(x[i]) * p / nv;
    }
    for (index_t c = 0; c < g.c; ++c) {
      const index_t lo = std::max<index_t>(0, c - half);
      const index_t hi = std::min<index_t>(g.c - 1, c + half);
      double acc = 0;
      for (index_t k = lo; k <= hi; ++k) acc += t[k];
      const index_t i = base + c * g.s;
      KERNEL_ASSIGN(dx[i], req, DType(direct[c] - coef * static_cast<double>(x[i]) * acc));
    }
  }
}

template <typename xpu>
void LRNGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const LRNParam& param = nnvm::get<LRNParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LRNBackwardImpl<DType>(param, inputs[0], inputs[1], inputs[2], outputs[0], req[0]);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_LRN_INL_H_
