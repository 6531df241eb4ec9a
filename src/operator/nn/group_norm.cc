/*!
 * \file group_norm.cc
 * \brief GroupNorm: data (N, C, spatial...) split into num_groups groups of C / num_groups
 *        channels; every (sample, group) is normalised over its channels and spatial elements
 *        (biased variance), then scaled and shifted per group:
 *          out = (x - mean) / sqrt(var + eps) * gamma[g] + beta[g],  gamma/beta (num_groups,)
 *        as in 1.9.1. Outputs: output, mean (N, G), std = sqrt(var + eps) (N, G); mean/std are
 *        visible with output_mean_var. Uses the row kernels of layer_norm-inl.h, one row per
 *        (n, g). _backward_GroupNorm inputs (out_grad, data, gamma, mean, std) -> (data_grad,
 *        gamma_grad, beta_grad); the mean/std outputs carry no gradient. GPU: group_norm.cu.
 */
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "./group_norm-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(GroupNormParam);

namespace {

bool GroupNormShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const GroupNormParam& p = nnvm::get<GroupNormParam>(attrs.parsed);
  const mxnet::TShape d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  if (d.ndim() < 3) {
    MX_THROW(ValueError) << "GroupNorm: expected data with at least 3 dimensions "
                         << "(batch, channel, spatial...), got " << d;
  }
  if (p.num_groups < 1 || (d[1] >= 0 && d[1] % p.num_groups != 0)) {
    MX_THROW(ValueError) << "GroupNorm: num_groups=" << p.num_groups
                         << " must be positive and divide the channel count of data " << d;
  }
  for (int i : {1, 2}) {
    const mxnet::TShape& s = (*in)[i];
    if (ndim_is_known(s) && (s.ndim() != 1 || (s[0] >= 0 && s[0] != p.num_groups))) {
      MX_THROW(ValueError) << "GroupNorm: expected " << (i == 1 ? "gamma" : "beta")
                           << " of shape (" << p.num_groups << ",) (one value per group), got "
                           << s;
    }
    SHAPE_ASSIGN_CHECK(*in, i, mxnet::TShape(1, p.num_groups));
  }
  SHAPE_ASSIGN_CHECK(*out, 0, d);
  SHAPE_ASSIGN_CHECK(*out, 1, mxnet::TShape({d[0], p.num_groups}));
  SHAPE_ASSIGN_CHECK(*out, 2, mxnet::TShape({d[0], p.num_groups}));
  return shape_is_known(d);
}

void GroupNormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const GroupNormParam& p = nnvm::get<GroupNormParam>(attrs.parsed);
  if (inputs[0].Size() == 0) return;
  const NormRows g = GroupNormRows(inputs[0].shape_, p.num_groups);
  const index_t groups = p.num_groups;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    NormRowsForward<DType>(g, p.eps, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                           inputs[2].dptr<DType>(),
                           [groups](index_t r, index_t) { return r % groups; },
                           outputs[0].dptr<DType>(), req[0], outputs[1].dptr<DType>(),
                           outputs[2].dptr<DType>(), false);
  });
}

template <typename DType>
void GroupNormBackwardImpl(const GroupNormParam& p, const std::vector<TBlob>& inputs,
                           const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[1];
  const DType* std_dev = inputs[4].dptr<DType>();
  const NormRows g = GroupNormRows(data.shape_, p.num_groups);
  const index_t groups = p.num_groups;
  std::vector<double> inv_std(g.rows);
  for (index_t r = 0; r < g.rows; ++r) inv_std[r] = 1.0 / static_cast<double>(std_dev[r]);
  auto group_of = [groups](index_t r, index_t) { return r % groups; };
  NormAffineGrads<DType>(g, inputs[0].dptr<DType>(), data.dptr<DType>(),
                         inputs[3].dptr<DType>(), inv_std, group_of, groups,
                         outputs[1].dptr<DType>(), req[1], outputs[2].dptr<DType>(), req[2]);
  NormRowsBackwardData<DType>(g, inputs[0].dptr<DType>(), data.dptr<DType>(),
                              inputs[2].dptr<DType>(), inputs[3].dptr<DType>(),
                              [&](index_t r) { return inv_std[r]; }, group_of,
                              outputs[0].dptr<DType>(), req[0]);
}

void GroupNormGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const GroupNormParam& p = nnvm::get<GroupNormParam>(attrs.parsed);
  if (inputs[1].Size() == 0) {
    for (int i = 1; i < 3; ++i) {
      if (req[i] == kWriteTo || req[i] == kWriteInplace) {
        std::memset(outputs[i].dptr_, 0,
                    outputs[i].Size() * mshadow::mshadow_sizeof(outputs[i].type_flag_));
      }
    }
    return;
  }
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    GroupNormBackwardImpl<DType>(p, inputs, req, outputs);
  });
}

}  // namespace

NNVM_REGISTER_OP(GroupNorm)
.describe(R"code(Group normalization.

The input channels are separated into ``num_groups`` groups, each containing ``num_channels / num_groups`` channels.
The mean and standard-deviation are calculated separately over the each group.

.. math::

  data = data.reshape((N, num_groups, C // num_groups, ...))
  out = \frac{data - mean(data, axis)}{\sqrt{var(data, axis) + \epsilon}} * gamma + beta

Both ``gamma`` and ``beta`` are learnable parameters of shape ``(num_groups,)``.

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {
  return nnvm::get<GroupNormParam>(attrs.parsed).output_mean_var ? 3 : 1;
})
.set_attr_parser(ParamParser<GroupNormParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "gamma", "beta"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"output", "mean", "std"};
})
.set_attr<mxnet::FInferShape>("FInferShape", GroupNormShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return NormUniformType("GroupNorm", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", GroupNormCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[0], n->inputs[1],
                                       nnvm::NodeEntry{n, 1, 0}, nnvm::NodeEntry{n, 2, 0}};
    return MakeGradNode("_backward_GroupNorm", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("gamma", "NDArray-or-Symbol", "gamma array")
.add_argument("beta", "NDArray-or-Symbol", "beta array")
.add_arguments(GroupNormParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_GroupNorm)
.describe("Backward of GroupNorm: (out_grad, data, gamma, mean, std) -> "
          "(data_grad, gamma_grad, beta_grad).")
.set_num_inputs(5)
.set_num_outputs(3)
.set_attr_parser(ParamParser<GroupNormParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[2]);
  SHAPE_ASSIGN_CHECK(*out, 2, (*in)[2]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return NormUniformType("_backward_GroupNorm", in, out);
})
.set_attr<FCompute>("FCompute<cpu>", GroupNormGradCompute);

}  // namespace op
}  // namespace mxnet
