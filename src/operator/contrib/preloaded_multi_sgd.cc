/*!
 * \file preloaded_multi_sgd.cc
 * \brief preloaded_multi_(mp_)sgd(_mom)_update: like multi_sgd_update, but the learning rates
 *        and weight decays are arrays (the last two inputs), so they can change without
 *        re-parsing attributes. Inputs: [weight_i, grad_i(, mom_i)(, weight32_i)]..., lrs, wds.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../optimizer_op-inl.h"

namespace mxnet {
namespace op {

struct PreloadedMultiSGDParam : public dmlc::Parameter<PreloadedMultiSGDParam> {
  float rescale_grad, clip_gradient;
  int num_weights;
  DMLC_DECLARE_PARAMETER(PreloadedMultiSGDParam) {
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(num_weights).set_default(1).set_lower_bound(1).describe(
        "Number of updated weights.");
  }
};

struct PreloadedMultiSGDMomParam : public dmlc::Parameter<PreloadedMultiSGDMomParam> {
  float momentum, rescale_grad, clip_gradient;
  int num_weights;
  DMLC_DECLARE_PARAMETER(PreloadedMultiSGDMomParam) {
    MXNET_OPT_MOMENTUM_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(num_weights).set_default(1).set_lower_bound(1).describe(
        "Number of updated weights.");
  }
};

DMLC_REGISTER_PARAMETER(PreloadedMultiSGDParam);
DMLC_REGISTER_PARAMETER(PreloadedMultiSGDMomParam);

namespace {

template <typename Param, int per>
uint32_t PreloadedNumInputs(const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<Param>(attrs.parsed).num_weights * per + 2);
}

template <typename Param>
uint32_t PreloadedNumOutputs(const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<Param>(attrs.parsed).num_weights);
}

/*! \brief Per-group shapes as OptUpdateShape; lrs and wds are (num_weights,). */
template <typename Param, int per>
bool PreloadedShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const int num = nnvm::get<Param>(attrs.parsed).num_weights;
  bool all = true;
  for (int k = 0; k < num; ++k) {
    mxnet::ShapeVector gin(in->begin() + k * per, in->begin() + (k + 1) * per);
    mxnet::ShapeVector gout{(*out)[k]};
    all = OptUpdateShape(attrs, &gin, &gout) && all;
    std::copy(gin.begin(), gin.end(), in->begin() + k * per);
    (*out)[k] = gout[0];
  }
  for (int i = 0; i < 2; ++i) {
    const mxnet::TShape& s = (*in)[num * per + i];
    if (ndim_is_known(s) && s != mxnet::TShape(1, num)) {
      MX_THROW(ValueError) << attrs.op->name << ": expected " << (i == 0 ? "lrs" : "wds")
                           << " of shape [" << num << "] (num_weights), got " << s;
    }
    SHAPE_ASSIGN_CHECK(*in, num * per + i, mxnet::TShape(1, num));
  }
  return all;
}

template <typename Param, int per, bool mp>
bool PreloadedType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int num = nnvm::get<Param>(attrs.parsed).num_weights;
  bool all = true;
  for (int k = 0; k < num; ++k) {
    const int dtype = (*in)[k * per] >= 0 ? (*in)[k * per] : (*out)[k];
    if (dtype < 0) {
      all = false;
      continue;
    }
    for (int i = 0; i < per; ++i) {
      TYPE_ASSIGN_CHECK(*in, k * per + i, (i < 2 || !mp) ? dtype : mshadow::kFloat32);
    }
    TYPE_ASSIGN_CHECK(*out, k, dtype);
  }
  for (int i = 0; i < 2; ++i) TYPE_ASSIGN_CHECK(*in, num * per + i, mshadow::kFloat32);
  return all;
}

template <bool has_mom, bool mp>
void PreloadedCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& out) {
  const int per = 2 + (has_mom ? 1 : 0) + (mp ? 1 : 0);
  float momentum = 0.f, rescale, clip;
  int num;
  if (has_mom) {
    const auto& p = nnvm::get<PreloadedMultiSGDMomParam>(attrs.parsed);
    momentum = p.momentum, rescale = p.rescale_grad, clip = p.clip_gradient, num = p.num_weights;
  } else {
    const auto& p = nnvm::get<PreloadedMultiSGDParam>(attrs.parsed);
    rescale = p.rescale_grad, clip = p.clip_gradient, num = p.num_weights;
  }
  const float* lrs = in[num * per].dptr<float>();
  const float* wds = in[num * per + 1].dptr<float>();
  for (int k = 0; k < num; ++k) {
    const TBlob& w = in[k * per];
    const TBlob& g = in[k * per + 1];
    MSHADOW_REAL_TYPE_SWITCH(w.type_flag_, DType, {
      typedef typename std::conditional<mp, float, DType>::type MType;
      MType* mom = has_mom ? in[k * per + 2].dptr<MType>() : nullptr;
      MType* w32 = mp ? in[k * per + per - 1].dptr<MType>() : nullptr;
      SGDStep<DType, MType>(w.Size(), out[k].dptr<DType>(), w.dptr<DType>(), g.dptr<DType>(),
                            mom, w32, lrs[k], wds[k], momentum, rescale, clip, req[k]);
    });
  }
}

template <typename Param, int per>
nnvm::FMutateInputs PreloadedMutate(std::vector<uint32_t> idx) {
  return [idx](const NodeAttrs& attrs) {
    std::vector<uint32_t> m;
    const int num = nnvm::get<Param>(attrs.parsed).num_weights;
    for (int k = 0; k < num; ++k)
      for (uint32_t i : idx) m.push_back(static_cast<uint32_t>(k * per) + i);
    return m;
  };
}

}  // namespace

#define MXNET_REGISTER_PRELOADED_SGD(name, Param, per, mom, mp, doc)                    \
  NNVM_REGISTER_OP(name)                                                               \
  .describe(doc ADD_FILELINE)                                                          \
  .set_num_inputs(PreloadedNumInputs<Param, per>)                                      \
  .set_num_outputs(PreloadedNumOutputs<Param>)                                         \
  .set_attr_parser(ParamParser<Param>)                                                 \
  .set_attr<mxnet::FInferShape>("FInferShape", PreloadedShape<Param, per>)             \
  .set_attr<nnvm::FInferType>("FInferType", PreloadedType<Param, per, mp>)             \
  .set_attr<FCompute>("FCompute<cpu>", PreloadedCompute<mom, mp>)                      \
  .set_attr<bool>("TNonDifferentiable", true)                                          \
  .add_argument("data", "NDArray-or-Symbol[]", "Weights, gradients, states, lrs and wds") \
  .add_arguments(Param::__FIELDS__())

MXNET_REGISTER_PRELOADED_SGD(preloaded_multi_sgd_update, PreloadedMultiSGDParam, 2, false,
                             false,
R"code(Update function for Stochastic Gradient Descent (SDG) optimizer.

It updates the weights using::

 weight = weight - learning_rate * (gradient + wd * weight)

Inputs are ``weight_i, grad_i`` for each weight, then the float32 arrays ``lrs`` and ``wds``
of shape ``(num_weights,)``.
)code");

MXNET_REGISTER_PRELOADED_SGD(preloaded_multi_sgd_mom_update, PreloadedMultiSGDMomParam, 3,
                             true, false,
R"code(Momentum update function for Stochastic Gradient Descent (SGD) optimizer.

Inputs are ``weight_i, grad_i, mom_i`` for each weight, then ``lrs`` and ``wds``; the momenta
are updated in place.
)code")
.set_attr<nnvm::FMutateInputs>("FMutateInputs",
                               PreloadedMutate<PreloadedMultiSGDMomParam, 3>({2}));

MXNET_REGISTER_PRELOADED_SGD(preloaded_multi_mp_sgd_update, PreloadedMultiSGDParam, 3, false,
                             true,
R"code(Update function for multi-precision Stochastic Gradient Descent (SDG) optimizer.

Inputs are ``weight_i, grad_i, weight32_i`` for each weight, then ``lrs`` and ``wds``.
)code")
.set_attr<nnvm::FMutateInputs>("FMutateInputs", PreloadedMutate<PreloadedMultiSGDParam, 3>({2}));

MXNET_REGISTER_PRELOADED_SGD(preloaded_multi_mp_sgd_mom_update, PreloadedMultiSGDMomParam, 4,
                             true, true,
R"code(Momentum update function for multi-precision Stochastic Gradient Descent (SGD) optimizer.

Inputs are ``weight_i, grad_i, mom_i, weight32_i`` for each weight, then ``lrs`` and ``wds``.
)code")
.set_attr<nnvm::FMutateInputs>("FMutateInputs",
                               PreloadedMutate<PreloadedMultiSGDMomParam, 4>({2, 3}));

}  // namespace op
}  // namespace mxnet
