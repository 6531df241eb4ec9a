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
 *
 * One element per kernel thread on either device (lrn.cu registers the GPU's).
 */
#ifndef MXNET_OPERATOR_NN_LRN_INL_H_
#define MXNET_OPERATOR_NN_LRN_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

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

/*! \brief MXNet's window: (nsize - 1) / 2 channels on each side (an even nsize acts as
 *         nsize - 1). */
inline index_t LRNHalfWindow(const LRNParam& param) {
  return static_cast<index_t>((param.nsize - 1) / 2);
}

/*! \brief Element i = (n, c, s) of the forward: norm from the window of channels around c. */
struct lrn_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* x, DType* y, int req, DType* nrm,
                                  index_t channels, index_t inner, index_t half, double salpha,
                                  double knorm, double beta) {
    const index_t c = (i / inner) % channels;
    const index_t base = i - c * inner;  // channel 0 of this (sample, position) column
    const index_t lo = c > half ? c - half : 0;
    const index_t hi = c + half < channels - 1 ? c + half : channels - 1;
    double sq = 0;
    for (index_t k = lo; k <= hi; ++k) {
      const double v = static_cast<double>(x[base + k * inner]);
      sq += v * v;
    }
    const double norm = knorm + salpha * sq;
    nrm[i] = DType(norm);
    KERNEL_ASSIGN(y[i], req, DType(static_cast<double>(x[i]) * pow(norm, -beta)));
  }
};

/*! \brief t[i] = og[i] * x[i] * norm[i]^(-beta-1): the terms the backward window sums. */
struct lrn_backward_terms {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* og, const DType* x, const DType* nrm,
                                  double beta, double* t) {
    const double nv = static_cast<double>(nrm[i]);
    t[i] = static_cast<double>(og[i]) * static_cast<double>(x[i]) * pow(nv, -beta) / nv;
  }
};

/*! \brief dx[i] = og[i] * norm[i]^-beta - coef * x[i] * (sum of t over the window of i). */
struct lrn_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* og, const DType* x, const DType* nrm,
                                  const double* t, DType* dx, int req, index_t channels,
                                  index_t inner, index_t half, double coef, double beta) {
    const index_t c = (i / inner) % channels;
    const index_t base = i - c * inner;
    const index_t lo = c > half ? c - half : 0;
    const index_t hi = c + half < channels - 1 ? c + half : channels - 1;
    double acc = 0;
    for (index_t k = lo; k <= hi; ++k) acc += t[base + k * inner];
    const double direct = static_cast<double>(og[i]) * pow(static_cast<double>(nrm[i]), -beta);
    KERNEL_ASSIGN(dx[i], req, DType(direct - coef * static_cast<double>(x[i]) * acc));
  }
};

template <typename xpu>
void LRNCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  const LRNParam& param = nnvm::get<LRNParam>(attrs.parsed);
  const TBlob& data = inputs[lrn_enum::kData];
  const LRNGeom g(data.shape_);
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    mxnet_op::Kernel<lrn_forward, xpu>::Launch(
        ctx.get_stream<xpu>(), data.Size(), data.dptr<DType>(),
        outputs[lrn_enum::kOut].dptr<DType>(), static_cast<int>(req[lrn_enum::kOut]),
        outputs[lrn_enum::kTmpNorm].dptr<DType>(), g.c, g.s, LRNHalfWindow(param),
        static_cast<double>(param.alpha) / param.nsize, static_cast<double>(param.knorm),
        static_cast<double>(param.beta));
  });
}

/*! \brief inputs: out_grad, data, tmp_norm; output: data_grad. Temp space: one double per
 *          element for the window terms. */
template <typename xpu>
void LRNGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[1].Size() == 0) return;
  const LRNParam& param = nnvm::get<LRNParam>(attrs.parsed);
  const TBlob& data = inputs[1];
  const LRNGeom g(data.shape_);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  double* t = static_cast<double*>(
      ctx.requested[0].get_space_internal(data.Size() * sizeof(double)));
  const double beta = param.beta;
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* nrm = inputs[2].dptr<DType>();
    mxnet_op::Kernel<lrn_backward_terms, xpu>::Launch(s, data.Size(), og, data.dptr<DType>(),
                                                      nrm, beta, t);
    // dx may share out_grad's memory: each element reads its own og[i] before writing dx[i],
    // and the window reads only t.
    mxnet_op::Kernel<lrn_backward, xpu>::Launch(
        s, data.Size(), og, data.dptr<DType>(), nrm, t, outputs[0].dptr<DType>(),
        static_cast<int>(req[0]), g.c, g.s, LRNHalfWindow(param),
        2.0 * param.alpha * param.beta / param.nsize, beta);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_LRN_INL_H_
