/*!
 * \file instance_norm-inl.h
 * \brief InstanceNorm: normalise each (sample, channel) over its spatial elements,
 *          out = (x - mean) / sqrt(var + eps) * gamma[c] + beta[c]   (biased variance),
 *        data (N, C, spatial...) with at least 3 dimensions, gamma/beta (C,).
 *        Outputs: output (visible), mean (N, C), var (N, C) (hidden).
 *
 * Uses the row kernels of layer_norm-inl.h with rows = (n, c), elements contiguous.
 * _backward_InstanceNorm inputs: (out_grad, data, gamma, mean, var);
 * outputs: (data_grad, gamma_grad, beta_grad).
 */
#ifndef MXNET_OPERATOR_NN_INSTANCE_NORM_INL_H_
#define MXNET_OPERATOR_NN_INSTANCE_NORM_INL_H_

#include <cmath>
#include <string>
#include <vector>

#include "./layer_norm-inl.h"

namespace mxnet {
namespace op {

namespace instance_norm {
enum InstanceNormInputs { kData, kGamma, kBeta };
enum InstanceNormOutputs { kOut, kMean, kVar };
}  // namespace instance_norm

struct InstanceNormParam : public dmlc::Parameter<InstanceNormParam> {
  float eps;
  DMLC_DECLARE_PARAMETER(InstanceNormParam) {
    DMLC_DECLARE_FIELD(eps).set_default(1e-3f).describe(
        "An `epsilon` parameter to prevent division by 0.");
  }
};

/*! \brief Rows (n, c) of S = prod(spatial) contiguous elements. */
inline NormRows InstanceNormRows(const mxnet::TShape& shape) {
  NormRows g;
  g.rows = static_cast<index_t>(shape[0]) * shape[1];
  g.len = 1;
  for (int i = 2; i < shape.ndim(); ++i) g.len *= shape[i];
  g.inner = 1;
  return g;
}

inline bool InstanceNormShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                              mxnet::ShapeVector* out_shape) {
  CHECK_EQ(in_shape->size(), 3U) << "InstanceNorm: expected inputs [data, gamma, beta]";
  const mxnet::TShape dshape = (*in_shape)[instance_norm::kData];
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() < 3) {
    MX_THROW(ValueError) << "InstanceNorm: expected data with at least 3 dimensions "
                         << "(batch, channel, spatial...), got " << dshape;
  }
  const int channels = dshape[1];
  for (int i : {instance_norm::kGamma, instance_norm::kBeta}) {
    const mxnet::TShape& s = (*in_shape)[i];
    if (ndim_is_known(s) && channels >= 0 &&
        (s.ndim() != 1 || (s[0] >= 0 && s[0] != channels))) {
      MX_THROW(ValueError) << "InstanceNorm: expected "
                           << (i == instance_norm::kGamma ? "gamma" : "beta") << " of shape ("
                           << channels << ",) for data of shape " << dshape << ", got " << s;
    }
    SHAPE_ASSIGN_CHECK(*in_shape, i, mxnet::TShape(1, channels));
  }
  mxnet::TShape moments(2, -1);
  moments[0] = dshape[0];
  moments[1] = dshape[1];
  SHAPE_ASSIGN_CHECK(*out_shape, instance_norm::kOut, dshape);
  SHAPE_ASSIGN_CHECK(*out_shape, instance_norm::kMean, moments);
  SHAPE_ASSIGN_CHECK(*out_shape, instance_norm::kVar, moments);
  return shape_is_known(dshape);
}

template <typename DType>
void InstanceNormForwardImpl(const InstanceNormParam& param, const std::vector<TBlob>& inputs,
                             const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[instance_norm::kData];
  const NormRows g = InstanceNormRows(data.shape_);
  const index_t channels = data.shape_[1];
  NormRowsForward<DType>(g, param.eps, data.dptr<DType>(),
                         inputs[instance_norm::kGamma].dptr<DType>(),
                         inputs[instance_norm::kBeta].dptr<DType>(),
                         [channels](index_t r, index_t) { return r % channels; },
                         outputs[instance_norm::kOut].dptr<DType>(), req[instance_norm::kOut],
                         outputs[instance_norm::kMean].dptr<DType>(),
                         outputs[instance_norm::kVar].dptr<DType>(), true);
}

template <typename xpu>
void InstanceNormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const InstanceNormParam& param = nnvm::get<InstanceNormParam>(attrs.parsed);
  if (inputs[0].Size() == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    InstanceNormForwardImpl<DType>(param, inputs, req, outputs);
  });
}

template <typename DType>
void InstanceNormBackwardImpl(const InstanceNormParam& param, const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const TBlob& og = inputs[0];
  const TBlob& data = inputs[1];
  const DType* gamma = inputs[2].dptr<DType>();
  const DType* mean = inputs[3].dptr<DType>();
  const DType* var = inputs[4].dptr<DType>();
  const NormRows g = InstanceNormRows(data.shape_);
  const index_t channels = data.shape_[1];
  std::vector<double> inv_std(g.rows);
  for (index_t r = 0; r < g.rows; ++r) {
    inv_std[r] = 1.0 / std::sqrt(static_cast<double>(var[r]) + param.eps);
  }
  auto channel_of = [channels](index_t r, index_t) { return r % channels; };
  NormAffineGrads<DType>(g, og.dptr<DType>(), data.dptr<DType>(), mean, inv_std, channel_of,
                         channels, outputs[1].dptr<DType>(), req[1], outputs[2].dptr<DType>(),
                         req[2]);
  NormRowsBackwardData<DType>(g, og.dptr<DType>(), data.dptr<DType>(), gamma, mean,
                              [&](index_t r) { return inv_std[r]; }, channel_of,
                              outputs[0].dptr<DType>(), req[0]);
}

template <typename xpu>
void InstanceNormGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const InstanceNormParam& param = nnvm::get<InstanceNormParam>(attrs.parsed);
  if (inputs[1].Size() == 0) {
    for (int i = 1; i < 3; ++i) {
      if ((req[i] == kWriteTo || req[i] == kWriteInplace) && outputs[i].Size() > 0) {
        std::memset(outputs[i].dptr_, 0,
                    outputs[i].Size() * mshadow::mshadow_sizeof(outputs[i].type_flag_));
      }
    }
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    InstanceNormBackwardImpl<DType>(param, inputs, req, outputs);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_INSTANCE_NORM_INL_H_
