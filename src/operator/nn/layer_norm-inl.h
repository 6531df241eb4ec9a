/*!
 * \file layer_norm-inl.h
 * \brief LayerNorm: normalise along one axis,
 *          out = (x - mean) / std * gamma + beta,   std = sqrt(var + eps) (biased variance),
 *        with gamma, beta of shape (data.shape[axis],). Outputs: output, mean, std (mean and
 *        std have the data shape with size 1 on `axis`; visible only with output_mean_var).
 *
 * The data is viewed as (outer, C, inner) around `axis`; each of the outer * inner "rows" is
 * normalised over its C elements (stride inner). InstanceNorm (instance_norm-inl.h) reuses
 * the row kernels below with a per-row gamma.
 *
 * _backward_LayerNorm inputs: (out_grad, data, gamma, mean, std);
 * outputs: (data_grad, gamma_grad, beta_grad).
 */
#ifndef MXNET_OPERATOR_NN_LAYER_NORM_INL_H_
#define MXNET_OPERATOR_NN_LAYER_NORM_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace layernorm {
enum LayerNormOpInputs { kData, kGamma, kBeta };
enum LayerNormOpOutputs { kOut, kMean, kStd };
}  // namespace layernorm

struct LayerNormParam : public dmlc::Parameter<LayerNormParam> {
  int axis;
  float eps;
  bool output_mean_var;
  DMLC_DECLARE_PARAMETER(LayerNormParam) {
    DMLC_DECLARE_FIELD(axis).set_default(-1).describe(
        "The axis to perform layer normalization. Usually, this should be be axis of the "
        "channel dimension. Negative values means indexing from right to left.");
    DMLC_DECLARE_FIELD(eps).set_default(1e-5f).describe(
        "An `epsilon` parameter to prevent division by 0.");
    DMLC_DECLARE_FIELD(output_mean_var).set_default(false).describe(
        "Output the mean and std calculated along the given axis.");
  }
};

/*! \brief Rows of a normalisation: `rows` groups of `len` elements, element k of row r at
 *         base(r) + k * stride with base(r) = (r / inner) * len * inner + r % inner. */
struct NormRows {
  index_t rows{0}, len{1}, inner{1};
  index_t base(index_t r) const { return (r / inner) * len * inner + r % inner; }
};

/*! \brief Normalise every row: mean/std per row; out = xhat * gamma + beta, where
 *         gamma/beta are indexed by the element (per_element) or by the row's channel. */
template <typename DType, typename GammaIndex>
inline void NormRowsForward(const NormRows& g, double eps, const DType* x, const DType* gamma,
                            const DType* beta, GammaIndex gidx, DType* out, OpReqType req,
                            DType* mean_out, DType* std_out, bool std_is_var) {
  const index_t stride = g.inner;
#pragma omp parallel for if (g.rows * g.len >= mxnet_op::kOmpThreshold)
  for (index_t r = 0; r < g.rows; ++r) {
    const index_t b = g.base(r);
    double sum = 0;
    for (index_t k = 0; k < g.len; ++k) sum += static_cast<double>(x[b + k * stride]);
    const double mean = sum / static_cast<double>(g.len);
    double sq = 0;
    for (index_t k = 0; k < g.len; ++k) {
      const double d = static_cast<double>(x[b + k * stride]) - mean;
      sq += d * d;
    }
    const double var = sq / static_cast<double>(g.len);
    const double inv_std = 1.0 / std::sqrt(var + eps);
    mean_out[r] = DType(mean);
    std_out[r] = DType(std_is_var ? var : std::sqrt(var + eps));
    if (req == kNullOp) continue;
    for (index_t k = 0; k < g.len; ++k) {
      const index_t i = b + k * stride;
      const index_t c = gidx(r, k);
      const double v = (static_cast<double>(x[i]) - mean) * inv_std *
                           static_cast<double>(gamma[c]) + static_cast<double>(beta[c]);
      KERNEL_ASSIGN(out[i], req, DType(v));
    }
  }
}

/*!
 * \brief Data gradient of every row: with xhat = (x - mean) / std and dxhat = og * gamma,
 *        dx = (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) / std.
 *        inv_std(r) gives 1/std of row r.
 */
template <typename DType, typename GammaIndex, typename InvStd>
inline void NormRowsBackwardData(const NormRows& g, const DType* og, const DType* x,
                                 const DType* gamma, const DType* mean, InvStd inv_std_of,
                                 GammaIndex gidx, DType* dx, OpReqType req) {
  if (req == kNullOp) return;
  const index_t stride = g.inner;
  const double n = static_cast<double>(g.len);
#pragma omp parallel for if (g.rows * g.len >= mxnet_op::kOmpThreshold)
  for (index_t r = 0; r < g.rows; ++r) {
    const index_t b = g.base(r);
    const double mu = static_cast<double>(mean[r]);
    const double inv_std = inv_std_of(r);
    double sum_d = 0, sum_dx = 0;
    for (index_t k = 0; k < g.len; ++k) {
      const index_t i = b + k * stride;
      const double d = static_cast<double>(og[i]) * static_cast<double>(gamma[gidx(r, k)]);
      sum_d += d;
      sum_dx += d * (static_cast<double>(x[i]) - mu) * inv_std;
    }
    const double mean_d = sum_d / n, mean_dx = sum_dx / n;
    for (index_t k = 0; k < g.len; ++k) {
      const index_t i = b + k * stride;
      const double xhat = (static_cast<double>(x[i]) - mu) * inv_std;
      const double d = static_cast<double>(og[i]) * static_cast<double>(gamma[gidx(r, k)]);
      KERNEL_ASSIGN(dx[i], req, DType((d - mean_d - xhat * mean_dx) * inv_std));
    }
  }
}

/*! \brief (outer, C, inner) view of `shape` around `axis` (already normalised). */
inline NormRows LayerNormRows(const mxnet::TShape& shape, int axis) {
  NormRows g;
  index_t outer = 1;
  for (int i = 0; i < axis; ++i) outer *= shape[i];
  g.len = shape[axis];
  for (int i = axis + 1; i < shape.ndim(); ++i) g.inner *= shape[i];
  g.rows = outer * g.inner;
  return g;
}

/*! \brief `axis` in [0, ndim), or a ValueError naming the operator. */
inline int NormalizeNormAxis(const char* op, int axis, int ndim) {
  const int a = axis < 0 ? axis + ndim : axis;
  if (a < 0 || a >= ndim) {
    MX_THROW(ValueError) << op << ": axis " << axis << " is out of range for data with " << ndim
                         << " dimensions";
  }
  return a;
}

inline bool LayerNormShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                           mxnet::ShapeVector* out_shape) {
  const LayerNormParam& param = nnvm::get<LayerNormParam>(attrs.parsed);
  CHECK_EQ(in_shape->size(), 3U) << "LayerNorm: expected inputs [data, gamma, beta]";
  const mxnet::TShape dshape = (*in_shape)[layernorm::kData];
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() == 0) {
    MX_THROW(ValueError) << "LayerNorm: expected data with at least 1 dimension, got a scalar";
  }
  const int axis = NormalizeNormAxis("LayerNorm", param.axis, dshape.ndim());
  const int channels = dshape[axis];
  for (int i : {layernorm::kGamma, layernorm::kBeta}) {
    const mxnet::TShape& s = (*in_shape)[i];
    if (ndim_is_known(s) && channels >= 0 &&
        (s.ndim() != 1 || (s[0] >= 0 && s[0] != channels))) {
      MX_THROW(ValueError) << "LayerNorm: expected " << (i == layernorm::kGamma ? "gamma" : "beta")
                           << " of shape (" << channels << ",) for data of shape " << dshape
                           << " and axis " << param.axis << ", got " << s;
    }
    SHAPE_ASSIGN_CHECK(*in_shape, i, mxnet::TShape(1, channels));
  }
  mxnet::TShape moments = dshape;
  moments[axis] = 1;
  SHAPE_ASSIGN_CHECK(*out_shape, layernorm::kOut, dshape);
  SHAPE_ASSIGN_CHECK(*out_shape, layernorm::kMean, moments);
  SHAPE_ASSIGN_CHECK(*out_shape, layernorm::kStd, moments);
  return shape_is_known(dshape);
}

/*!
 * \brief Shapes of a normalization's backward, (out_grad, data, gamma, mean, std|var) ->
 *        (data_grad, gamma_grad, beta_grad), checked against what the forward `forward_shape`
 *        gives for (data, gamma): the kernels index every input by the data's shape, so a
 *        direct call with inconsistent inputs must be refused, not read out of bounds.
 */
template <typename ForwardShape>
inline bool NormBackwardShape(const char* op, ForwardShape forward_shape,
                              const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                              mxnet::ShapeVector* out) {
  // Only the data goes in: every other input is then checked here, under this op's name.
  mxnet::ShapeVector fin{(*in)[1], mxnet::TShape(), mxnet::TShape()};
  mxnet::ShapeVector fout(3, mxnet::TShape());
  if (!forward_shape(attrs, &fin, &fout)) return false;
  static const char* const kNames[] = {"out_grad", "data", "gamma", "mean", "std/var"};
  const mxnet::TShape expected[] = {fout[0], fin[0], fin[1], fout[1], fout[2]};
  for (int i = 0; i < 5; ++i) {
    if (ndim_is_known((*in)[i]) && (*in)[i] != expected[i]) {
      MX_THROW(ValueError) << op << ": expected " << kNames[i] << " of shape " << expected[i]
                           << " for data of shape " << fin[0] << ", got " << (*in)[i];
    }
    (*in)[i] = expected[i];
  }
  SHAPE_ASSIGN_CHECK(*out, 0, fin[0]);
  SHAPE_ASSIGN_CHECK(*out, 1, fin[1]);
  SHAPE_ASSIGN_CHECK(*out, 2, fin[1]);
  return true;
}

/*! \brief All inputs and outputs share the data dtype (a float type). */
inline bool NormUniformType(const char* op, std::vector<int>* in_type,
                            std::vector<int>* out_type) {
  int dtype = (*in_type)[0];
  if (dtype < 0) {
    for (int t : *in_type) if (t >= 0) { dtype = t; break; }
  }
  if (dtype < 0) return false;
  if (!mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << op << ": expected floating-point data "
                           "(float16, bfloat16, float32 or float64), got "
                        << mshadow::dtype_string(dtype);
  }
  for (size_t i = 0; i < in_type->size(); ++i) {
    if ((*in_type)[i] >= 0 && (*in_type)[i] != dtype) {
      MX_THROW(TypeError) << op << ": input " << i << " has dtype "
                          << mshadow::dtype_string((*in_type)[i]) << ", expected "
                          << mshadow::dtype_string(dtype) << " (the data dtype)";
    }
    (*in_type)[i] = dtype;
  }
  for (size_t i = 0; i < out_type->size(); ++i) TYPE_ASSIGN_CHECK(*out_type, i, dtype);
  return true;
}

/*!
 * \brief Per-channel sums of the gamma and beta gradients over all rows:
 *        dgamma[c] = sum og * xhat, dbeta[c] = sum og. Large inputs are split over threads,
 *        each with its own partial sums (added in thread order: deterministic for a given
 *        thread count).
 */
template <typename DType, typename Channel>
inline void NormAffineGrads(const NormRows& g, const DType* og, const DType* x,
                            const DType* mean, const std::vector<double>& inv_std,
                            Channel channel_of, index_t channels, DType* dgamma,
                            OpReqType req_gamma, DType* dbeta, OpReqType req_beta) {
  if (req_gamma == kNullOp && req_beta == kNullOp) return;
  const int nthreads =
      g.rows * g.len >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
  std::vector<double> part(2 * channels * nthreads, 0.0);
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (index_t r = 0; r < g.rows; ++r) {
#if MXNET_USE_OPENMP
    const int t = omp_get_thread_num();
#else
    const int t = 0;
#endif
    double* sg = &part[2 * channels * t];
    double* sb = sg + channels;
    const index_t b = g.base(r);
    const double mu = static_cast<double>(mean[r]);
    for (index_t k = 0; k < g.len; ++k) {
      const index_t i = b + k * g.inner;
      const index_t c = channel_of(r, k);
      const double o = static_cast<double>(og[i]);
      sg[c] += o * (static_cast<double>(x[i]) - mu) * inv_std[r];
      sb[c] += o;
    }
  }
  for (index_t c = 0; c < channels; ++c) {
    double sg = 0, sb = 0;
    for (int t = 0; t < nthreads; ++t) {
      sg += part[2 * channels * t + c];
      sb += part[2 * channels * t + channels + c];
    }
    if (req_gamma != kNullOp) KERNEL_ASSIGN(dgamma[c], req_gamma, DType(sg));
    if (req_beta != kNullOp) KERNEL_ASSIGN(dbeta[c], req_beta, DType(sb));
  }
}

template <typename DType>
void LayerNormForwardImpl(const LayerNormParam& param, const std::vector<TBlob>& inputs,
                          const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[layernorm::kData];
  const int axis = NormalizeNormAxis("LayerNorm", param.axis, data.ndim());
  const NormRows g = LayerNormRows(data.shape_, axis);
  NormRowsForward<DType>(g, param.eps, data.dptr<DType>(),
                         inputs[layernorm::kGamma].dptr<DType>(),
                         inputs[layernorm::kBeta].dptr<DType>(),
                         [](index_t, index_t k) { return k; },
                         outputs[layernorm::kOut].dptr<DType>(), req[layernorm::kOut],
                         outputs[layernorm::kMean].dptr<DType>(),
                         outputs[layernorm::kStd].dptr<DType>(), false);
}

template <typename xpu>
void LayerNormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const LayerNormParam& param = nnvm::get<LayerNormParam>(attrs.parsed);
  if (inputs[0].Size() == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LayerNormForwardImpl<DType>(param, inputs, req, outputs);
  });
}

template <typename DType>
void LayerNormBackwardImpl(const LayerNormParam& param, const std::vector<TBlob>& inputs,
                           const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const TBlob& og = inputs[0];
  const TBlob& data = inputs[1];
  const DType* gamma = inputs[2].dptr<DType>();
  const DType* mean = inputs[3].dptr<DType>();
  const DType* stdv = inputs[4].dptr<DType>();
  const int axis = NormalizeNormAxis("LayerNorm", param.axis, data.ndim());
  const NormRows g = LayerNormRows(data.shape_, axis);
  std::vector<double> inv_std(g.rows);
  for (index_t r = 0; r < g.rows; ++r) inv_std[r] = 1.0 / static_cast<double>(stdv[r]);
  auto channel_of = [](index_t, index_t k) { return k; };
  // Parameter gradients before the data gradient: an in-place data_grad may overwrite og.
  NormAffineGrads<DType>(g, og.dptr<DType>(), data.dptr<DType>(), mean, inv_std, channel_of,
                         g.len, outputs[1].dptr<DType>(), req[1], outputs[2].dptr<DType>(),
                         req[2]);
  NormRowsBackwardData<DType>(g, og.dptr<DType>(), data.dptr<DType>(), gamma, mean,
                              [&](index_t r) { return inv_std[r]; }, channel_of,
                              outputs[0].dptr<DType>(), req[0]);
}

template <typename xpu>
void LayerNormGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const LayerNormParam& param = nnvm::get<LayerNormParam>(attrs.parsed);
  if (inputs[1].Size() == 0) {
    // Empty data: the parameter gradients are zero sums.
    for (int i = 1; i < 3; ++i) {
      if ((req[i] == kWriteTo || req[i] == kWriteInplace) && outputs[i].Size() > 0) {
        std::memset(outputs[i].dptr_, 0,
                    outputs[i].Size() * mshadow::mshadow_sizeof(outputs[i].type_flag_));
      }
    }
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    LayerNormBackwardImpl<DType>(param, inputs, req, outputs);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_LAYER_NORM_INL_H_
