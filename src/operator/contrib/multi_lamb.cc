/*!
 * \file multi_lamb.cc
 * \brief _multi_lamb_update and _multi_mp_lamb_update: the two LAMB phases for several tensors
 *        in one call. Inputs per tensor: weight, grad, mean, var[, weight32]; outputs: the new
 *        weights; mean, var (and weight32) are updated in place. Per tensor i with step t_i:
 *
 *          g = clip(rescale_grad * grad); m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2
 *          r = m_hat / (sqrt(v_hat) + epsilon) + wd_i w   (hats: bias corrected when enabled)
 *          r1 = ||w|| bounded by lower_bound/upper_bound (when > 0), r2 = ||r||
 *          w -= lr_i * (r1 and r2 nonzero ? r1 / r2 : 1) * r
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../optimizer_op-inl.h"

namespace mxnet {
namespace op {

struct MultiLAMBParam : public dmlc::Parameter<MultiLAMBParam> {
  mxnet::Tuple<float> learning_rates, wds;
  float beta1, beta2, epsilon, rescale_grad, lower_bound, upper_bound, clip_gradient;
  bool bias_correction;
  mxnet::TShape step_count;
  int num_tensors;
  DMLC_DECLARE_PARAMETER(MultiLAMBParam) {
    DMLC_DECLARE_FIELD(learning_rates).describe("List of learning rates");
    DMLC_DECLARE_FIELD(beta1).set_default(0.9f)
        .describe("Exponential decay rate for the first moment estimates.");
    DMLC_DECLARE_FIELD(beta2).set_default(0.999f)
        .describe("Exponential decay rate for the second moment estimates.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-6f).describe("Small value to avoid division by 0.");
    DMLC_DECLARE_FIELD(wds).describe(
        "List of Weight decays.Weight decay augments the objective function with a "
        "regularization term that penalizes large weights. The penalty scales with the square "
        "of the magnitude of each weight.");
    DMLC_DECLARE_FIELD(rescale_grad).set_default(1.0f).describe("Gradient rescaling factor");
    DMLC_DECLARE_FIELD(lower_bound).set_default(-1.0f)
        .describe("Lower limit of norm of weight. If lower_bound <= 0, Lower limit is not set");
    DMLC_DECLARE_FIELD(upper_bound).set_default(-1.0f)
        .describe("Upper limit of norm of weight. If upper_bound <= 0, Upper limit is not set");
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(bias_correction).set_default(true)
        .describe("Whether to use bias correction.");
    DMLC_DECLARE_FIELD(step_count).describe("Step count for each tensor");
    DMLC_DECLARE_FIELD(num_tensors).set_default(1).describe("Number of tensors");
  }
};

DMLC_REGISTER_PARAMETER(MultiLAMBParam);

namespace {

const MultiLAMBParam& CheckedParam(const nnvm::NodeAttrs& attrs) {
  const MultiLAMBParam& p = nnvm::get<MultiLAMBParam>(attrs.parsed);
  if (p.num_tensors < 1 || p.learning_rates.ndim() != p.num_tensors ||
      p.wds.ndim() != p.num_tensors || p.step_count.ndim() != p.num_tensors) {
    MX_THROW(ValueError) << attrs.op->name << ": learning_rates, wds and step_count need "
                         << "num_tensors = " << p.num_tensors << " values each, got "
                         << p.learning_rates.ndim() << ", " << p.wds.ndim() << " and "
                         << p.step_count.ndim();
  }
  return p;
}

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
  const MultiLAMBParam& p = CheckedParam(attrs);
  const int group = mp ? 5 : 4;
  for (int i = 0; i < p.num_tensors; ++i) {
    MSHADOW_REAL_TYPE_SWITCH(out[i].type_flag_, DType, {
      typedef typename std::conditional<mp, float, DType>::type MType;
      UpdateTensor<DType, MType>(p, i, in, i * group, mp, req[i], out[i]);
    });
  }
}

template <bool mp>
bool MultiLAMBShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const MultiLAMBParam& p = CheckedParam(attrs);
  const int group = mp ? 5 : 4;
  bool ok = true;
  for (int i = 0; i < p.num_tensors; ++i) {
    for (int j = 0; j < group; ++j) SHAPE_ASSIGN_CHECK(*out, i, (*in)[i * group + j]);
    for (int j = 0; j < group; ++j) SHAPE_ASSIGN_CHECK(*in, i * group + j, (*out)[i]);
    ok &= shape_is_known((*out)[i]);
  }
  return ok;
}

template <bool mp>
bool MultiLAMBType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const MultiLAMBParam& p = CheckedParam(attrs);
  const int group = mp ? 5 : 4;
  bool ok = true;
  for (int i = 0; i < p.num_tensors; ++i) {
    const int dtype = (*in)[i * group] >= 0 ? (*in)[i * group] : (*out)[i];
    if (dtype < 0) {
      ok = false;
      continue;
    }
    for (int j = 0; j < group; ++j) {
      TYPE_ASSIGN_CHECK(*in, i * group + j, (j < 2 || !mp) ? dtype : mshadow::kFloat32);
    }
    TYPE_ASSIGN_CHECK(*out, i, dtype);
  }
  return ok;
}

nnvm::Op& RegisterMultiLAMB(nnvm::Op& op, bool mp) {  // NOLINT(runtime/references)
  const int group = mp ? 5 : 4;
  return op.set_num_inputs([group](const NodeAttrs& attrs) {
        return static_cast<uint32_t>(nnvm::get<MultiLAMBParam>(attrs.parsed).num_tensors * group);
      })
      .set_num_outputs([](const NodeAttrs& attrs) {
        return static_cast<uint32_t>(nnvm::get<MultiLAMBParam>(attrs.parsed).num_tensors);
      })
      .set_attr_parser(ParamParser<MultiLAMBParam>)
      .set_attr<nnvm::FListInputNames>("FListInputNames", [group](const NodeAttrs& attrs) {
        const char* names[5] = {"weight", "grad", "mean", "var", "weight32"};
        std::vector<std::string> out;
        for (int i = 0; i < nnvm::get<MultiLAMBParam>(attrs.parsed).num_tensors; ++i) {
          for (int j = 0; j < group; ++j) out.push_back(names[j] + std::string("_") + std::to_string(i));
        }
        return out;
      })
      .set_attr<nnvm::FMutateInputs>("FMutateInputs", [group](const NodeAttrs& attrs) {
        std::vector<uint32_t> idx;
        for (int i = 0; i < nnvm::get<MultiLAMBParam>(attrs.parsed).num_tensors; ++i) {
          for (int j = 2; j < group; ++j) idx.push_back(i * group + j);
        }
        return idx;
      })
      .set_attr<mxnet::FInferShape>("FInferShape",
                                    mp ? MultiLAMBShape<true> : MultiLAMBShape<false>)
      .set_attr<nnvm::FInferType>("FInferType", mp ? MultiLAMBType<true> : MultiLAMBType<false>)
      .set_attr<FCompute>("FCompute<cpu>",
                          mp ? MultiLAMBCompute<true> : MultiLAMBCompute<false>)
      .set_attr<bool>("TNonDifferentiable", true)
      .add_argument("data", "NDArray-or-Symbol[]", "data")
      .add_arguments(MultiLAMBParam::__FIELDS__());
}

}  // namespace

NNVM_REGISTER_OP(_multi_lamb_update)
.describe(R"code(Compute the LAMB coefficients of multiple weights and grads"
)code" ADD_FILELINE);

NNVM_REGISTER_OP(_multi_mp_lamb_update)
.describe(R"code(Compute the LAMB coefficients of multiple weights and grads with Mix Precision"
)code" ADD_FILELINE);

namespace {
DMLC_ATTRIBUTE_UNUSED nnvm::Op& multi_lamb_op =
    RegisterMultiLAMB(nnvm::Op::Register("_multi_lamb_update"), false);
DMLC_ATTRIBUTE_UNUSED nnvm::Op& multi_mp_lamb_op =
    RegisterMultiLAMB(nnvm::Op::Register("_multi_mp_lamb_update"), true);
}  // namespace

}  // namespace op
}  // namespace mxnet
