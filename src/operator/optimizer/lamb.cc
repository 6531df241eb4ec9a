/*!
 * \file lamb.cc
 * \brief LAMB (layer-wise adaptive moments, https://arxiv.org/pdf/1904.00962.pdf):
 *        lamb_update_phase1/2 and their mp_* forms (the caller computes the norms r1, r2
 *        between the phases), and _multi_(mp_)lamb_update, both phases for several tensors in
 *        one call. Inputs of the latter per tensor: weight, grad, mean, var[, weight32];
 *        outputs: the new weights; mean, var (and weight32) are updated in place. Per tensor i
 *        with step t_i:
 *
 *          g = clip(rescale_grad * grad); m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2
 *          r = m_hat / (sqrt(v_hat) + epsilon) + wd_i w   (hats: bias corrected when enabled)
 *          r1 = ||w|| bounded by lower_bound/upper_bound (when > 0), r2 = ||r||
 *          w -= lr_i * (r1 and r2 nonzero ? r1 / r2 : 1) * r
 *        The GPU kernels of the _multi_ forms are in lamb.cu.
 */
#include <string>
#include <vector>

#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(LambUpdatePhaseOneParam);
DMLC_REGISTER_PARAMETER(LambUpdatePhaseTwoParam);

MXNET_REGISTER_UPDATE(lamb_update_phase1, LambUpdatePhaseOneParam, 4)
.describe(R"code(Phase I of lamb update it performs the following operations and returns g:.

Link to paper: https://arxiv.org/pdf/1904.00962.pdf

.. math::
    \begin{gather*}
    grad = grad * rescale_grad
    if (grad < -clip_gradient)
    then
         grad = -clip_gradient
    if (grad > clip_gradient)
    then
         grad = clip_gradient

    mean = beta1 * mean + (1 - beta1) * grad;
    variance = beta2 * variance + (1. - beta2) * grad ^ 2;

    if (bias_correction)
    then
         mean_hat = mean / (1. - beta1^t);
         var_hat = var / (1 - beta2^t);
         g = mean_hat / (var_hat^(1/2) + epsilon) + wd * weight;
    else
         g = mean / (var_data^(1/2) + epsilon) + wd * weight;
    \end{gather*}

)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "grad", "mean", "var"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, LambPhaseOneStep>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_arguments(LambUpdatePhaseOneParam::__FIELDS__());

NNVM_REGISTER_OP(lamb_update_phase2)
.describe(R"code(Phase II of lamb update it performs the following operations and updates grad.

Link to paper: https://arxiv.org/pdf/1904.00962.pdf

.. math::
    \begin{gather*}
    if (lower_bound >= 0)
    then
         r1 = max(r1, lower_bound)
    if (upper_bound >= 0)
    then
         r1 = max(r1, upper_bound)

    if (r1 == 0 or r2 == 0)
    then
         lr = lr
    else
         lr = lr * (r1/r2)
    weight = weight - lr * g
    \end{gather*}

)code" ADD_FILELINE)
.set_num_inputs(4)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LambUpdatePhaseTwoParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", OptNames({"weight", "g", "r1", "r2"}))
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  mxnet::ShapeVector wg{(*in)[0], (*in)[1]};
  const bool ok = OptUpdateShape(attrs, &wg, out);
  (*in)[0] = wg[0];
  (*in)[1] = wg[1];
  SHAPE_ASSIGN_CHECK(*in, 2, mxnet::TShape(1, 1));
  SHAPE_ASSIGN_CHECK(*in, 3, mxnet::TShape(1, 1));
  return ok;
})
.set_attr<nnvm::FInferType>("FInferType", OptUpdateType<4, 4>)
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, LambPhaseTwoStep>))
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("g", "NDArray-or-Symbol", "Output of lamb_update_phase 1")
.add_argument("r1", "NDArray-or-Symbol", "r1")
.add_argument("r2", "NDArray-or-Symbol", "r2")
.add_arguments(LambUpdatePhaseTwoParam::__FIELDS__());

MXNET_REGISTER_UPDATE(mp_lamb_update_phase1, LambUpdatePhaseOneParam, 5)
.describe(R"code(Mixed Precision version of Phase I of lamb update: as lamb_update_phase1 on the
float32 master weight ``weight32``; ``mean`` and ``var`` (float32) are updated in place and the
float32 direction ``g`` is returned.
)code" ADD_FILELINE)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 OptNames({"weight", "grad", "mean", "var", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({2, 3}))
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  const int dtype = (*in)[0];
  if (dtype < 0) return false;
  TYPE_ASSIGN_CHECK(*in, 1, dtype);
  for (int i = 2; i < 5; ++i) TYPE_ASSIGN_CHECK(*in, i, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, LambPhaseOneStep, true>))
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("mean", "NDArray-or-Symbol", "Moving mean")
.add_argument("var", "NDArray-or-Symbol", "Moving variance")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(LambUpdatePhaseOneParam::__FIELDS__());

NNVM_REGISTER_OP(mp_lamb_update_phase2)
.describe(R"code(Mixed Precision version Phase II of lamb update: as lamb_update_phase2 on the
float32 master weight ``weight32`` (updated in place), cast into the returned weight.
)code" ADD_FILELINE)
.set_num_inputs(5)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LambUpdatePhaseTwoParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames",
                                 OptNames({"weight", "g", "r1", "r2", "weight32"}))
.set_attr<nnvm::FMutateInputs>("FMutateInputs", OptMutates({4}))
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  mxnet::ShapeVector wg{(*in)[0], (*in)[1], (*in)[4]};
  const bool ok = OptUpdateShape(attrs, &wg, out);
  (*in)[0] = wg[0];
  (*in)[1] = wg[1];
  (*in)[4] = wg[2];
  SHAPE_ASSIGN_CHECK(*in, 2, mxnet::TShape(1, 1));
  SHAPE_ASSIGN_CHECK(*in, 3, mxnet::TShape(1, 1));
  return ok;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  const int dtype = (*in)[0];
  if (dtype < 0) return false;
  for (int i = 1; i < 5; ++i) TYPE_ASSIGN_CHECK(*in, i, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", (UpdateCompute<cpu, LambPhaseTwoStep, true>))
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("g", "NDArray-or-Symbol", "Output of mp_lamb_update_phase 1")
.add_argument("r1", "NDArray-or-Symbol", "r1")
.add_argument("r2", "NDArray-or-Symbol", "r2")
.add_argument("weight32", "NDArray-or-Symbol", "Weight32")
.add_arguments(LambUpdatePhaseTwoParam::__FIELDS__());

// ---- _multi_lamb_update, _multi_mp_lamb_update ------------------------------------------------

DMLC_REGISTER_PARAMETER(MultiLAMBParam);

namespace {

template <typename DType, typename MType>
void UpdateTensor(const MultiLAMBParam& p, int i, const std::vector<TBlob>& in, int base,
                  bool mp, OpReqType req, const TBlob& out) {
  const index_t n = in[base].Size();
  const DType* w = in[base].dptr<DType>();
  const DType* g = in[base + 1].dptr<DType>();
  MType* mean = in[base + 2].dptr<MType>();
  MType* var = in[base + 3].dptr<MType>();
  MType* w32 = mp ? in[base + 4].dptr<MType>() : nullptr;
  const double t = static_cast<double>(p.step_count[i]);
  const double c1 = p.bias_correction ? 1 - std::pow(static_cast<double>(p.beta1), t) : 1.0;
  const double c2 = p.bias_correction ? 1 - std::pow(static_cast<double>(p.beta2), t) : 1.0;
  std::vector<double> r(n), weight(n);
  double w_sq = 0, r_sq = 0;
  for (index_t k = 0; k < n; ++k) {
    weight[k] = mp ? static_cast<double>(w32[k]) : static_cast<double>(w[k]);
    double grad = p.rescale_grad * static_cast<double>(g[k]);
    if (p.clip_gradient >= 0) grad = std::max(-p.clip_gradient * 1.0, std::min(grad, p.clip_gradient * 1.0));
    const MType m = static_cast<MType>(p.beta1 * static_cast<double>(mean[k]) + (1 - p.beta1) * grad);
    const MType v = static_cast<MType>(p.beta2 * static_cast<double>(var[k]) +
                                       (1 - p.beta2) * grad * grad);
    mean[k] = m;
    var[k] = v;
    r[k] = (static_cast<double>(m) / c1) / (std::sqrt(static_cast<double>(v) / c2) + p.epsilon) +
           p.wds[i] * weight[k];
    w_sq += weight[k] * weight[k];
    r_sq += r[k] * r[k];
  }
  double r1 = std::sqrt(w_sq);
  const double r2 = std::sqrt(r_sq);
  if (p.lower_bound > 0) r1 = std::max(r1, static_cast<double>(p.lower_bound));
  if (p.upper_bound > 0) r1 = std::min(r1, static_cast<double>(p.upper_bound));
  const double ratio = (r1 == 0 || r2 == 0) ? 1.0 : r1 / r2;
  DType* o = out.dptr<DType>();
  for (index_t k = 0; k < n; ++k) {
    const double nw = weight[k] - p.learning_rates[i] * ratio * r[k];
    if (mp) w32[k] = static_cast<MType>(nw);
    if (req == kAddTo) {
      o[k] = static_cast<DType>(static_cast<double>(o[k]) + nw);
    } else if (req != kNullOp) {
      o[k] = static_cast<DType>(nw);
    }
  }
}

template <bool mp>
void MultiLAMBCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& out) {
  const MultiLAMBParam& p = CheckedMultiLAMBParam(attrs);
  const int group = mp ? 5 : 4;
  for (int i = 0; i < p.num_tensors; ++i) {
    MSHADOW_REAL_TYPE_SWITCH(out[i].type_flag_, DType, {
      typedef typename std::conditional<mp, float, DType>::type MType;
      UpdateTensor<DType, MType>(p, i, in, i * group, mp, req[i], out[i]);
    });
  }
}

int NumTensors(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<MultiLAMBParam>(attrs.parsed).num_tensors;
}

template <bool mp>
bool MultiLAMBShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  return GroupedUpdateShape(attrs, in, out, CheckedMultiLAMBParam(attrs).num_tensors, mp ? 5 : 4);
}

template <bool mp>
bool MultiLAMBType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  return GroupedUpdateType(in, out, CheckedMultiLAMBParam(attrs).num_tensors, mp ? 5 : 4, mp);
}

}  // namespace

MXNET_REGISTER_GROUPED_UPDATE(_multi_lamb_update, NumTensors,
                              (std::vector<std::string>{"weight", "grad", "mean", "var"}), {})
.describe(R"code(Compute the LAMB coefficients of multiple weights and grads"
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<MultiLAMBParam>)
.set_attr<mxnet::FInferShape>("FInferShape", MultiLAMBShape<false>)
.set_attr<nnvm::FInferType>("FInferType", MultiLAMBType<false>)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the GPU's directions
})
.set_attr<FCompute>("FCompute<cpu>", MultiLAMBCompute<false>)
.add_argument("data", "NDArray-or-Symbol[]", "data")
.add_arguments(MultiLAMBParam::__FIELDS__());

MXNET_REGISTER_GROUPED_UPDATE(_multi_mp_lamb_update, NumTensors,
                              (std::vector<std::string>{"weight", "grad", "mean", "var",
                                                        "weight32"}), {})
.describe(R"code(Compute the LAMB coefficients of multiple weights and grads with Mix Precision"
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<MultiLAMBParam>)
.set_attr<mxnet::FInferShape>("FInferShape", MultiLAMBShape<true>)
.set_attr<nnvm::FInferType>("FInferType", MultiLAMBType<true>)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the GPU's directions
})
.set_attr<FCompute>("FCompute<cpu>", MultiLAMBCompute<true>)
.add_argument("data", "NDArray-or-Symbol[]", "data")
.add_arguments(MultiLAMBParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
