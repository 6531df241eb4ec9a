/*!
 * \file optimizer_op-inl.h
 * \brief Optimizer update operators (this folder): parameter structs, the element-wise update
 *        kernels, the two FCompute drivers every update goes through (SGDRun for the SGD
 *        family, UpdateCompute for the other step kernels) and the inference helpers.
 *
 * Every update writes the new weight to output 0 (callers pass out=weight, so it is usually
 * in place) and updates its state inputs (momentum, mean, var, ...) in place; those inputs are
 * declared with FMutateInputs. `clip_gradient < 0` disables clipping. Arithmetic runs in float
 * (double for float64 weights); mp_* variants keep a float32 master copy of a float16 weight.
 *
 * Order of weight decay and clipping follows MXNet: sgd/signum clip the rescaled gradient and
 * add wd separately; adam/rmsprop/ftml/nag add wd * weight to the gradient before clipping.
 */
#ifndef MXNET_OPERATOR_OPTIMIZER_OPTIMIZER_OP_INL_H_
#define MXNET_OPERATOR_OPTIMIZER_OPTIMIZER_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

// ------------------------------------------------------------------------ parameter structs

#define MXNET_OPT_LR_FIELD DMLC_DECLARE_FIELD(lr).describe("Learning rate");
#define MXNET_OPT_WD_FIELD                                                                   \
  DMLC_DECLARE_FIELD(wd).set_default(0.0f).describe(                                         \
      "Weight decay augments the objective function with a "                                 \
      "regularization term that penalizes large weights. "                                   \
      "The penalty scales with the square of the magnitude of each weight.");
#define MXNET_OPT_RESCALE_FIELD                                                              \
  DMLC_DECLARE_FIELD(rescale_grad).set_default(1.0f).describe("Rescale gradient to grad = rescale_grad*grad.");
#define MXNET_OPT_CLIP_FIELD                                                                 \
  DMLC_DECLARE_FIELD(clip_gradient).set_default(-1.0f).describe(                             \
      "Clip gradient to the range of [-clip_gradient, clip_gradient] "                       \
      "If clip_gradient <= 0, gradient clipping is turned off. "                             \
      "grad = max(min(grad, clip_gradient), -clip_gradient).");
#define MXNET_OPT_LAZY_FIELD                                                                 \
  DMLC_DECLARE_FIELD(lazy_update).set_default(true).describe(                                \
      "If true, lazy updates are applied if gradient's stype is row_sparse.");
#define MXNET_OPT_MOMENTUM_FIELD                                                             \
  DMLC_DECLARE_FIELD(momentum).set_default(0.0f).describe(                                   \
      "The decay rate of momentum estimates at each epoch.");

struct SGDParam : public dmlc::Parameter<SGDParam> {
  float lr, wd, rescale_grad, clip_gradient;
  bool lazy_update;
  DMLC_DECLARE_PARAMETER(SGDParam) {
    MXNET_OPT_LR_FIELD
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    MXNET_OPT_LAZY_FIELD
  }
};

struct SGDMomParam : public dmlc::Parameter<SGDMomParam> {
  float lr, momentum, wd, rescale_grad, clip_gradient;
  bool lazy_update;
  DMLC_DECLARE_PARAMETER(SGDMomParam) {
    MXNET_OPT_LR_FIELD
    MXNET_OPT_MOMENTUM_FIELD
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    MXNET_OPT_LAZY_FIELD
  }
};

struct MultiSGDParam : public dmlc::Parameter<MultiSGDParam> {
  mxnet::Tuple<float> lrs, wds;
  float rescale_grad, clip_gradient;
  int num_weights;
  DMLC_DECLARE_PARAMETER(MultiSGDParam) {
    DMLC_DECLARE_FIELD(lrs).describe("Learning rates.");
    DMLC_DECLARE_FIELD(wds).describe(
        "Weight decay augments the objective function with a "
        "regularization term that penalizes large weights. "
        "The penalty scales with the square of the magnitude of each weight.");
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(num_weights).set_default(1).set_lower_bound(1).describe(
        "Number of updated weights.");
  }
};

struct MultiSGDMomParam : public dmlc::Parameter<MultiSGDMomParam> {
  mxnet::Tuple<float> lrs, wds;
  float momentum, rescale_grad, clip_gradient;
  int num_weights;
  DMLC_DECLARE_PARAMETER(MultiSGDMomParam) {
    DMLC_DECLARE_FIELD(lrs).describe("Learning rates.");
    DMLC_DECLARE_FIELD(wds).describe(
        "Weight decay augments the objective function with a "
        "regularization term that penalizes large weights. "
        "The penalty scales with the square of the magnitude of each weight.");
    MXNET_OPT_MOMENTUM_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(num_weights).set_default(1).set_lower_bound(1).describe(
        "Number of updated weights.");
  }
};

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

struct NAGMomParam : public dmlc::Parameter<NAGMomParam> {
  float lr, momentum, wd, rescale_grad, clip_gradient;
  DMLC_DECLARE_PARAMETER(NAGMomParam) {
    MXNET_OPT_LR_FIELD
    MXNET_OPT_MOMENTUM_FIELD
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
  }
};

struct AdamParam : public dmlc::Parameter<AdamParam> {
  float lr, beta1, beta2, epsilon, wd, rescale_grad, clip_gradient;
  bool lazy_update;
  DMLC_DECLARE_PARAMETER(AdamParam) {
    MXNET_OPT_LR_FIELD
    DMLC_DECLARE_FIELD(beta1).set_default(0.9f).describe("The decay rate for the 1st moment estimates.");
    DMLC_DECLARE_FIELD(beta2).set_default(0.999f).describe("The decay rate for the 2nd moment estimates.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-8f).describe("A small constant for numerical stability.");
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(lazy_update).set_default(true).describe(
        "If true, lazy updates are applied if gradient's stype is row_sparse and all of w, m and v have the same stype");
  }
};

struct RMSPropParam : public dmlc::Parameter<RMSPropParam> {
  float lr, gamma1, epsilon, wd, rescale_grad, clip_gradient, clip_weights;
  DMLC_DECLARE_PARAMETER(RMSPropParam) {
    MXNET_OPT_LR_FIELD
    DMLC_DECLARE_FIELD(gamma1).set_default(0.95f).describe("The decay rate of momentum estimates.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-8f).describe("A small constant for numerical stability.");
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(clip_weights).set_default(-1.0f).describe(
        "Clip weights to the range of [-clip_weights, clip_weights] "
        "If clip_weights <= 0, weight clipping is turned off. "
        "weights = max(min(weights, clip_weights), -clip_weights).");
  }
};

struct RMSPropAlexParam : public dmlc::Parameter<RMSPropAlexParam> {
  float lr, gamma1, gamma2, epsilon, wd, rescale_grad, clip_gradient, clip_weights;
  DMLC_DECLARE_PARAMETER(RMSPropAlexParam) {
    MXNET_OPT_LR_FIELD
    DMLC_DECLARE_FIELD(gamma1).set_default(0.95f).describe("Decay rate.");
    DMLC_DECLARE_FIELD(gamma2).set_default(0.9f).describe("Decay rate.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-8f).describe("A small constant for numerical stability.");
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(clip_weights).set_default(-1.0f).describe(
        "Clip weights to the range of [-clip_weights, clip_weights] "
        "If clip_weights <= 0, weight clipping is turned off. "
        "weights = max(min(weights, clip_weights), -clip_weights).");
  }
};

struct FtrlParam : public dmlc::Parameter<FtrlParam> {
  float lr, lamda1, beta, wd, rescale_grad, clip_gradient;
  DMLC_DECLARE_PARAMETER(FtrlParam) {
    MXNET_OPT_LR_FIELD
    DMLC_DECLARE_FIELD(lamda1).set_default(0.01f).describe("The L1 regularization coefficient.");
    DMLC_DECLARE_FIELD(beta).set_default(1.0f).describe("Per-Coordinate Learning Rate beta.");
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
  }
};

struct FTMLParam : public dmlc::Parameter<FTMLParam> {
  float lr, beta1, beta2;
  double epsilon;
  int t;
  float wd, rescale_grad, clip_grad;
  DMLC_DECLARE_PARAMETER(FTMLParam) {
    DMLC_DECLARE_FIELD(lr).describe("Learning rate.");
    DMLC_DECLARE_FIELD(beta1).set_default(0.6f).set_range(0.0f, 1.0f)
        .describe("Generally close to 0.5.");
    DMLC_DECLARE_FIELD(beta2).set_default(0.999f).set_range(0.0f, 1.0f)
        .describe("Generally close to 1.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-8f).describe("Epsilon to prevent div 0.");
    DMLC_DECLARE_FIELD(t).describe("Number of update.");
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    DMLC_DECLARE_FIELD(clip_grad).set_default(-1.0f).describe(
        "Clip gradient to the range of [-clip_gradient, clip_gradient] "
        "If clip_gradient <= 0, gradient clipping is turned off. "
        "grad = max(min(grad, clip_gradient), -clip_gradient).");
  }
};

struct SignSGDParam : public dmlc::Parameter<SignSGDParam> {
  float lr, wd, rescale_grad, clip_gradient;
  DMLC_DECLARE_PARAMETER(SignSGDParam) {
    MXNET_OPT_LR_FIELD
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
  }
};

struct SignumParam : public dmlc::Parameter<SignumParam> {
  float lr, momentum, wd, rescale_grad, clip_gradient, wd_lh;
  DMLC_DECLARE_PARAMETER(SignumParam) {
    MXNET_OPT_LR_FIELD
    MXNET_OPT_MOMENTUM_FIELD
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(wd_lh).set_default(0.0f).describe(
        "The amount of weight decay that does not go into gradient/momentum calculations"
        "otherwise do weight decay algorithmically only.");
  }
};

struct LambUpdatePhaseOneParam : public dmlc::Parameter<LambUpdatePhaseOneParam> {
  float beta1, beta2, epsilon;
  int t;
  bool bias_correction;
  float wd, rescale_grad, clip_gradient;
  DMLC_DECLARE_PARAMETER(LambUpdatePhaseOneParam) {
    DMLC_DECLARE_FIELD(beta1).set_default(0.9f).describe("The decay rate for the 1st moment estimates.");
    DMLC_DECLARE_FIELD(beta2).set_default(0.999f).describe("The decay rate for the 2nd moment estimates.");
    DMLC_DECLARE_FIELD(epsilon).set_default(1e-6f).describe("A small constant for numerical stability.");
    DMLC_DECLARE_FIELD(t).describe("Index update count.");
    DMLC_DECLARE_FIELD(bias_correction).set_default(true).describe("Whether to use bias correction.");
    DMLC_DECLARE_FIELD(wd).describe(
        "Weight decay augments the objective function with a "
        "regularization term that penalizes large weights. "
        "The penalty scales with the square of the magnitude of each weight.");
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
  }
};

struct LambUpdatePhaseTwoParam : public dmlc::Parameter<LambUpdatePhaseTwoParam> {
  float lr, lower_bound, upper_bound;
  DMLC_DECLARE_PARAMETER(LambUpdatePhaseTwoParam) {
    MXNET_OPT_LR_FIELD
    DMLC_DECLARE_FIELD(lower_bound).set_default(-1.0f).describe(
        "Lower limit of norm of weight. If lower_bound <= 0, Lower limit is not set");
    DMLC_DECLARE_FIELD(upper_bound).set_default(-1.0f).describe(
        "Upper limit of norm of weight. If upper_bound <= 0, Upper limit is not set");
  }
};

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

inline const MultiLAMBParam& CheckedMultiLAMBParam(const nnvm::NodeAttrs& attrs) {
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

// --------------------------------------------------------------------------------- helpers

/*! \brief clip(x) to [-c, c]; c < 0 disables clipping. */
template <typename A>
MSHADOW_XINLINE A OptClip(A x, A c) {
  if (c < A(0)) return x;
  return x > c ? c : (x < -c ? -c : x);
}

template <typename A>
MSHADOW_XINLINE A OptSign(A x) {
  return x > A(0) ? A(1) : (x < A(0) ? A(-1) : A(0));
}

template <typename A>
MSHADOW_XINLINE A OptAbs(A x) {
  return x < A(0) ? -x : x;
}

/*! \brief Arithmetic type of an update on DType weights: double for double, else float. */
template <typename DType>
using OptAcc = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

/*! \brief Run fn(i) for i in [0, n), with OpenMP for large n. */
template <typename Fn>
inline void OptLaunch(index_t n, Fn fn) {
#pragma omp parallel for if (n > 32768)
  for (index_t i = 0; i < n; ++i) fn(i);
}

/*! \brief Store v into out[i] according to req. */
template <typename DType, typename A>
MSHADOW_XINLINE void OptAssign(DType* out, index_t i, OpReqType req, A v) {
  if (req == kAddTo) out[i] = DType(static_cast<A>(out[i]) + v);
  else if (req != kNullOp) out[i] = DType(v);
}

// ------------------------------------------------------------------------------ SGD family

/*!
 * \brief One element of SGD (optionally with momentum) on weight w (DType) with master weight
 *        w32 (MType, == DType unless mixed precision) and momentum mom (MType, nullable): the
 *        math of every device. SGDStepDense is the CPU's vectorised form of its common case.
 */
struct sgd_step {
  template <typename DType, typename MType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* w, const DType* g,
                                  MType* mom, MType* w32, float lr, float wd, float momentum,
                                  float rescale, float clip, OpReqType req) {
    typedef OptAcc<MType> A;
    const A weight = w32 != nullptr ? static_cast<A>(w32[i]) : static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]), A(clip));
    A nw;
    if (mom != nullptr) {
      const A m = A(momentum) * static_cast<A>(mom[i]) - A(lr) * A(wd) * weight - A(lr) * grad;
      mom[i] = MType(m);
      nw = weight + m;
    } else {
      nw = (A(1) - A(lr) * A(wd)) * weight - A(lr) * grad;
    }
    if (w32 != nullptr) w32[i] = MType(nw);
    OptAssign(out, i, req, nw);
  }
};

/*! \brief The common SGD case as branch-free loops the compiler vectorizes: same-type
 *         weight and momentum (or none), no master copy, output written (not added). */
template <typename DType, bool kHasMom, bool kClip>
inline void SGDStepDense(index_t n, DType* out, const DType* w, const DType* g, DType* mom,
                         float lr, float wd, float momentum, float rescale, float clip) {
  typedef OptAcc<DType> A;
  const A a_lr = A(lr), a_wd = A(wd), a_mom = A(momentum), a_rs = A(rescale), a_c = A(clip);
  const A decay = A(1) - a_lr * a_wd;
#pragma omp parallel for simd if (n > 32768)
  for (index_t i = 0; i < n; ++i) {
    A grad = a_rs * static_cast<A>(g[i]);
    if (kClip) grad = grad > a_c ? a_c : (grad < -a_c ? -a_c : grad);
    const A weight = static_cast<A>(w[i]);
    if (kHasMom) {
      const A m = a_mom * static_cast<A>(mom[i]) - a_lr * a_wd * weight - a_lr * grad;
      mom[i] = DType(m);
      out[i] = DType(weight + m);
    } else {
      out[i] = DType(decay * weight - a_lr * grad);
    }
  }
}

/*! \brief SGD on n elements on the CPU (also a row of a row_sparse update). */
template <typename DType, typename MType>
inline void SGDStep(index_t n, DType* out, const DType* w, const DType* g, MType* mom, MType* w32,
             float lr, float wd, float momentum, float rescale, float clip, OpReqType req) {
  if (std::is_same<DType, MType>::value && w32 == nullptr &&
      (req == kWriteTo || req == kWriteInplace)) {
    DType* m = reinterpret_cast<DType*>(mom);
    const bool clipping = clip >= 0;
    if (m != nullptr && clipping) {
      SGDStepDense<DType, true, true>(n, out, w, g, m, lr, wd, momentum, rescale, clip);
    } else if (m != nullptr) {
      SGDStepDense<DType, true, false>(n, out, w, g, m, lr, wd, momentum, rescale, clip);
    } else if (clipping) {
      SGDStepDense<DType, false, true>(n, out, w, g, m, lr, wd, momentum, rescale, clip);
    } else {
      SGDStepDense<DType, false, false>(n, out, w, g, m, lr, wd, momentum, rescale, clip);
    }
    return;
  }
  mxnet_op::Kernel<sgd_step, mshadow::cpu>::Launch(nullptr, n, out, w, g, mom, w32, lr, wd,
                                                   momentum, rescale, clip, req);
}

/*!
 * \brief What one call of an SGD-family op updates: `num` groups of inputs
 *        (weight, grad[, mom][, weight32]) with a learning rate and weight decay each (host
 *        memory), and the shared momentum and gradient scaling. sgd_update and its mom/mp
 *        variants are one group; multi_* and preloaded_multi_* are `num_weights` groups.
 */
struct SGDGroups {
  int num;
  bool mom, mp;
  const float* lrs;
  const float* wds;
  float momentum, rescale, clip;
  // preloaded_*: lrs and wds point into input arrays, on the device of the op.
  bool rates_in_arrays = false;
  int per() const { return 2 + (mom ? 1 : 0) + (mp ? 1 : 0); }
};

// The SGDGroups of each parameter struct (preloaded_multi_* add theirs in sgd.cc).
inline SGDGroups SGDGroupsOf(const SGDParam& p, const std::vector<TBlob>&, bool mp) {
  return {1, false, mp, &p.lr, &p.wd, 0.f, p.rescale_grad, p.clip_gradient};
}
inline SGDGroups SGDGroupsOf(const SGDMomParam& p, const std::vector<TBlob>&, bool mp) {
  return {1, true, mp, &p.lr, &p.wd, p.momentum, p.rescale_grad, p.clip_gradient};
}
inline SGDGroups SGDGroupsOf(const MultiSGDParam& p, const std::vector<TBlob>&, bool mp) {
  return {p.num_weights, false, mp, p.lrs.begin(), p.wds.begin(), 0.f, p.rescale_grad,
          p.clip_gradient};
}
inline SGDGroups SGDGroupsOf(const MultiSGDMomParam& p, const std::vector<TBlob>&, bool mp) {
  return {p.num_weights, true, mp, p.lrs.begin(), p.wds.begin(), p.momentum, p.rescale_grad,
          p.clip_gradient};
}

/*! \brief preloaded_*: the learning rates and weight decays are the two inputs after the
 *         groups (float32, of shape (num_weights,)). */
inline SGDGroups WithPreloadedRates(SGDGroups g, const std::vector<TBlob>& in) {
  g.lrs = in[g.num * g.per()].dptr<float>();
  g.wds = in[g.num * g.per() + 1].dptr<float>();
  g.rates_in_arrays = true;
  return g;
}
inline SGDGroups SGDGroupsOf(const PreloadedMultiSGDParam& p, const std::vector<TBlob>& in,
                             bool mp) {
  return WithPreloadedRates({p.num_weights, false, mp, nullptr, nullptr, 0.f, p.rescale_grad,
                             p.clip_gradient}, in);
}
inline SGDGroups SGDGroupsOf(const PreloadedMultiSGDMomParam& p, const std::vector<TBlob>& in,
                             bool mp) {
  return WithPreloadedRates({p.num_weights, true, mp, nullptr, nullptr, p.momentum,
                             p.rescale_grad, p.clip_gradient}, in);
}

/*! \brief sgd_step with the learning rate and weight decay read from device memory. */
struct sgd_step_preloaded {
  template <typename DType, typename MType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* w, const DType* g,
                                  MType* mom, MType* w32, const float* lr, const float* wd,
                                  float momentum, float rescale, float clip, OpReqType req) {
    sgd_step::Map(i, out, w, g, mom, w32, *lr, *wd, momentum, rescale, clip, req);
  }
};

/*! \brief SGD on group k (its inputs from `group`) on the device of xpu. */
template <typename xpu, typename DType, typename MType>
void SGDGroup(mshadow::Stream<xpu>* s, const SGDGroups& g, int k, const TBlob* group,
              OpReqType req, const TBlob& out) {
  const index_t n = static_cast<index_t>(group[0].Size());
  MType* mom = g.mom ? group[2].dptr<MType>() : nullptr;
  MType* w32 = g.mp ? group[g.per() - 1].dptr<MType>() : nullptr;
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    SGDStep<DType, MType>(n, out.dptr<DType>(), group[0].dptr<DType>(), group[1].dptr<DType>(),
                          mom, w32, g.lrs[k], g.wds[k], g.momentum, g.rescale, g.clip, req);
  } else if (g.rates_in_arrays) {  // lrs and wds in device memory
    mxnet_op::Kernel<sgd_step_preloaded, xpu>::Launch(
        s, n, out.dptr<DType>(), group[0].dptr<DType>(), group[1].dptr<DType>(), mom, w32,
        g.lrs + k, g.wds + k, g.momentum, g.rescale, g.clip, req);
  } else {
    mxnet_op::Kernel<sgd_step, xpu>::Launch(s, n, out.dptr<DType>(), group[0].dptr<DType>(),
                                            group[1].dptr<DType>(), mom, w32, g.lrs[k],
                                            g.wds[k], g.momentum, g.rescale, g.clip, req);
  }
}

/*! \brief The one loop of the SGD family: every group's update on the device of xpu. */
template <typename xpu>
void SGDRun(const OpContext& ctx, const std::vector<TBlob>& in,
            const std::vector<OpReqType>& req, const std::vector<TBlob>& out,
            const SGDGroups& g) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  for (int k = 0; k < g.num; ++k) {
    const TBlob* group = &in[k * g.per()];
    MSHADOW_REAL_TYPE_SWITCH(group[0].type_flag_, DType, {
      if (g.mp) {
        SGDGroup<xpu, DType, float>(s, g, k, group, req[k], out[k]);
      } else {
        SGDGroup<xpu, DType, DType>(s, g, k, group, req[k], out[k]);
      }
    });
  }
}

/*! \brief The FCompute of every SGD-family op (kMP: the groups end with a float32 weight32). */
template <typename xpu, typename Param, bool kMP = false>
void SGDCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& out) {
  SGDRun<xpu>(ctx, in, req, out, SGDGroupsOf(nnvm::get<Param>(attrs.parsed), in, kMP));
}

// ------------------------------------------------------------------ the other optimizers
// Each update is a step object (pointers and scalars, copied into GPU kernels by value) whose
// operator()(i) updates element i: the same code runs in the CPU's loop and in a GPU kernel.
// A step is built on the host from its op's parameters and arrays (inputs in the order of
// FListInputNames; `mp`: the mp_* form, with float32 (MType) states and master weight).

/*! \brief Runs step(i) for i in [0, n) on the device of s. */
struct opt_apply {
  template <typename Step>
  MSHADOW_XINLINE static void Map(index_t i, Step step) {
    step(i);
  }
};
template <typename xpu, typename Step>
inline void OptRun(mshadow::Stream<xpu>* s, index_t n, const Step& step) {
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    OptLaunch(n, step);
  } else {
    mxnet_op::Kernel<opt_apply, xpu>::Launch(s, n, step);
  }
}

/*!
 * \brief The FCompute of every step-kernel update: builds Step<DType, MType> from the op's
 *        Param and arrays, then runs it over the weight's elements. kMP: MType is float32.
 */
template <typename xpu, template <typename, typename> class Step, bool kMP = false>
void UpdateCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& out) {
  MSHADOW_REAL_TYPE_SWITCH(in[0].type_flag_, DType, {
    typedef Step<DType, typename std::conditional<kMP, float, DType>::type> S;
    const S step(nnvm::get<typename S::Param>(attrs.parsed), in, req[0], out[0], kMP);
    OptRun(ctx.get_stream<xpu>(), static_cast<index_t>(in[0].Size()), step);
  });
}

/*!
 * \brief Nesterov momentum, MXNet 1.9.1's rule; the momentum holds -lr-scaled steps:
 *          m0 = momentum * mom; w' = w - m0 + (1 + momentum) * (m0 - lr * (g + wd * w));
 *          mom = m0 - lr * (g + wd * w_ref)
 *        MXNet writes the weight before the momentum, so w_ref is the new weight whenever the
 *        update is in place (out == weight, the optimizer's case) or on a float32 master copy.
 *        Inputs: weight, grad, mom[, weight32].
 */
template <typename DType, typename MType>
struct NAGStep {
  typedef NAGMomParam Param;
  DType* out;
  const DType* w;
  const DType* g;
  MType* mom;
  MType* w32;
  float lr, wd, momentum, rescale, clip;
  bool in_place;
  OpReqType req;
  NAGStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& o, bool mp)
      : out(o.dptr<DType>()), w(in[0].dptr<DType>()), g(in[1].dptr<DType>()),
        mom(in[2].dptr<MType>()), w32(mp ? in[3].dptr<MType>() : nullptr), lr(p.lr), wd(p.wd),
        momentum(p.momentum), rescale(p.rescale_grad), clip(p.clip_gradient),
        in_place(o.dptr_ == in[0].dptr_), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<MType> A;
    const A weight = w32 != nullptr ? static_cast<A>(w32[i]) : static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]), A(clip));
    const A m0 = A(momentum) * static_cast<A>(mom[i]);
    const A nw = weight - m0 + (A(momentum) + A(1)) * (m0 - A(lr) * (grad + A(wd) * weight));
    const A w_ref = (w32 != nullptr || in_place) ? nw : weight;
    mom[i] = MType(m0 - A(lr) * (grad + A(wd) * w_ref));
    if (w32 != nullptr) w32[i] = MType(nw);
    OptAssign(out, i, req, nw);
  }
};

/*! \brief signsgd_update: w' = (1 - lr * wd) * w - lr * sign(g). Inputs: weight, grad. */
template <typename DType, typename MType>
struct SignSGDStep {
  typedef SignSGDParam Param;
  const DType* w;
  const DType* g;
  DType* o;
  float lr, wd, rescale, clip;
  OpReqType req;
  SignSGDStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out, bool)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), o(out.dptr<DType>()), lr(p.lr),
        wd(p.wd), rescale(p.rescale_grad), clip(p.clip_gradient), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<DType> A;
    const A weight = static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]), A(clip));
    OptAssign(o, i, req, (A(1) - A(lr) * A(wd)) * weight - A(lr) * OptSign(grad));
  }
};

/*! \brief signum_update: a momentum of the sign steps. Inputs: weight, grad, mom. */
template <typename DType, typename MType>
struct SignumStep {
  typedef SignumParam Param;
  const DType* w;
  const DType* g;
  DType* mom;
  DType* o;
  float lr, wd, wd_lh, momentum, rescale, clip;
  OpReqType req;
  SignumStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out, bool)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), mom(in[2].dptr<DType>()),
        o(out.dptr<DType>()), lr(p.lr), wd(p.wd), wd_lh(p.wd_lh), momentum(p.momentum),
        rescale(p.rescale_grad), clip(p.clip_gradient), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<DType> A;
    const A weight = static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]), A(clip));
    const A m = A(momentum) * static_cast<A>(mom[i]) -
                (A(1) - A(momentum)) * (A(wd) * weight + grad);
    mom[i] = DType(m);
    OptAssign(o, i, req, (A(1) - A(lr) * A(wd_lh)) * weight + A(lr) * OptSign(m));
  }
};

/*! \brief adam_update (no bias correction). Inputs: weight, grad, mean, var. */
template <typename DType, typename MType>
struct AdamStep {
  typedef AdamParam Param;
  const DType* w;
  const DType* g;
  DType* mean;
  DType* var;
  DType* o;
  float lr, beta1, beta2, epsilon, wd, rescale, clip;
  OpReqType req;
  AdamStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out, bool)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), mean(in[2].dptr<DType>()),
        var(in[3].dptr<DType>()), o(out.dptr<DType>()), lr(p.lr), beta1(p.beta1),
        beta2(p.beta2), epsilon(p.epsilon), wd(p.wd), rescale(p.rescale_grad),
        clip(p.clip_gradient), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<DType> A;
    const A weight = static_cast<A>(w[i]);
    // Weight decay is added before clipping (unlike sgd).
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]) + A(wd) * weight, A(clip));
    const A m = A(beta1) * static_cast<A>(mean[i]) + (A(1) - A(beta1)) * grad;
    const A v = A(beta2) * static_cast<A>(var[i]) + (A(1) - A(beta2)) * grad * grad;
    mean[i] = DType(m);
    var[i] = DType(v);
    OptAssign(o, i, req, weight - A(lr) * m / (std::sqrt(v) + A(epsilon)));
  }
};

/*! \brief ftml_update. Inputs: weight, grad, d, v, z. */
template <typename DType, typename MType>
struct FTMLStep {
  typedef FTMLParam Param;
  typedef OptAcc<DType> A;
  const DType* w;
  const DType* g;
  DType* d;
  DType* v;
  DType* z;
  DType* o;
  A lr, b1, b2, b1t, b2t, epsilon, wd, rescale, clip;
  OpReqType req;
  FTMLStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out, bool)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), d(in[2].dptr<DType>()),
        v(in[3].dptr<DType>()), z(in[4].dptr<DType>()), o(out.dptr<DType>()), lr(A(p.lr)),
        b1(A(p.beta1)), b2(A(p.beta2)), b1t(std::pow(b1, A(p.t))), b2t(std::pow(b2, A(p.t))),
        epsilon(A(p.epsilon)), wd(A(p.wd)), rescale(A(p.rescale_grad)), clip(A(p.clip_grad)),
        req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    const A weight = static_cast<A>(w[i]);
    const A grad = OptClip(rescale * static_cast<A>(g[i]) + wd * weight, clip);
    const A vv = b2 * static_cast<A>(v[i]) + (A(1) - b2) * grad * grad;
    const A dt = (A(1) - b1t) / lr * (std::sqrt(vv / (A(1) - b2t)) + epsilon);
    const A zz = b1 * static_cast<A>(z[i]) + (A(1) - b1) * grad -
                 (dt - b1 * static_cast<A>(d[i])) * weight;
    v[i] = DType(vv);
    d[i] = DType(dt);
    z[i] = DType(zz);
    OptAssign(o, i, req, -zz / dt);
  }
};

/*! \brief rmsprop_update. Inputs: weight, grad, n. */
template <typename DType, typename MType>
struct RMSPropStep {
  typedef RMSPropParam Param;
  const DType* w;
  const DType* g;
  DType* st;
  DType* o;
  float lr, gamma1, epsilon, wd, rescale, clip, clip_weights;
  OpReqType req;
  RMSPropStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out, bool)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), st(in[2].dptr<DType>()),
        o(out.dptr<DType>()), lr(p.lr), gamma1(p.gamma1), epsilon(p.epsilon), wd(p.wd),
        rescale(p.rescale_grad), clip(p.clip_gradient), clip_weights(p.clip_weights),
        req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<DType> A;
    const A weight = static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]) + A(wd) * weight, A(clip));
    const A nn = (A(1) - A(gamma1)) * grad * grad + A(gamma1) * static_cast<A>(st[i]);
    st[i] = DType(nn);
    OptAssign(o, i, req,
              OptClip(weight - A(lr) * grad / std::sqrt(nn + A(epsilon)), A(clip_weights)));
  }
};

/*! \brief rmspropalex_update. Inputs: weight, grad, n, g, delta. */
template <typename DType, typename MType>
struct RMSPropAlexStep {
  typedef RMSPropAlexParam Param;
  const DType* w;
  const DType* g;
  DType* sn;
  DType* sg;
  DType* sd;
  DType* o;
  float lr, gamma1, gamma2, epsilon, wd, rescale, clip, clip_weights;
  OpReqType req;
  RMSPropAlexStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out,
                  bool)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), sn(in[2].dptr<DType>()),
        sg(in[3].dptr<DType>()), sd(in[4].dptr<DType>()), o(out.dptr<DType>()), lr(p.lr),
        gamma1(p.gamma1), gamma2(p.gamma2), epsilon(p.epsilon), wd(p.wd),
        rescale(p.rescale_grad), clip(p.clip_gradient), clip_weights(p.clip_weights),
        req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<DType> A;
    const A weight = static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]) + A(wd) * weight, A(clip));
    const A nn = (A(1) - A(gamma1)) * grad * grad + A(gamma1) * static_cast<A>(sn[i]);
    const A gg = (A(1) - A(gamma1)) * grad + A(gamma1) * static_cast<A>(sg[i]);
    const A dd = A(gamma2) * static_cast<A>(sd[i]) -
                 A(lr) * grad / std::sqrt(nn - gg * gg + A(epsilon));
    sn[i] = DType(nn);
    sg[i] = DType(gg);
    sd[i] = DType(dd);
    OptAssign(o, i, req, OptClip(weight + dd, A(clip_weights)));
  }
};

/*! \brief ftrl_update. Inputs: weight, grad, z, n. */
template <typename DType, typename MType>
struct FtrlStep {
  typedef FtrlParam Param;
  const DType* w;
  const DType* g;
  DType* z;
  DType* n;
  DType* o;
  float lr, lamda1, beta, wd, rescale, clip;
  OpReqType req;
  FtrlStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq, const TBlob& out, bool)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), z(in[2].dptr<DType>()),
        n(in[3].dptr<DType>()), o(out.dptr<DType>()), lr(p.lr), lamda1(p.lamda1), beta(p.beta),
        wd(p.wd), rescale(p.rescale_grad), clip(p.clip_gradient), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<DType> A;
    const A weight = static_cast<A>(w[i]);
    const A grad = OptClip(A(rescale) * static_cast<A>(g[i]), A(clip));
    const A n0 = static_cast<A>(n[i]);
    const A zz = static_cast<A>(z[i]) + grad -
                 (std::sqrt(n0 + grad * grad) - std::sqrt(n0)) * weight / A(lr);
    const A nn = n0 + grad * grad;
    z[i] = DType(zz);
    n[i] = DType(nn);
    const A denom = (A(beta) + std::sqrt(nn)) / A(lr) + A(wd);
    const A nw = OptAbs(zz) > A(lamda1) ? (OptSign(zz) * A(lamda1) - zz) / denom : A(0);
    OptAssign(o, i, req, nw);
  }
};

/*!
 * \brief LAMB phase one: the Adam-style direction g = m^ / (sqrt(v^) + eps) + wd * w, with the
 *        moments (MType) updated in place and written as MType. Inputs: weight, grad, mean,
 *        var[, weight32].
 */
template <typename DType, typename MType>
struct LambPhaseOneStep {
  typedef LambUpdatePhaseOneParam Param;
  typedef OptAcc<MType> A;
  const DType* w;
  const DType* g;
  MType* mean;
  MType* var;
  const MType* w32;
  MType* o;
  A b1, b2, c1, c2, epsilon, wd, rescale, clip;
  OpReqType req;
  LambPhaseOneStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq,
                   const TBlob& out, bool mp)
      : w(in[0].dptr<DType>()), g(in[1].dptr<DType>()), mean(in[2].dptr<MType>()),
        var(in[3].dptr<MType>()), w32(mp ? in[4].dptr<MType>() : nullptr),
        o(out.dptr<MType>()), b1(A(p.beta1)), b2(A(p.beta2)),
        c1(p.bias_correction ? A(1) - std::pow(b1, A(p.t)) : A(1)),
        c2(p.bias_correction ? A(1) - std::pow(b2, A(p.t)) : A(1)), epsilon(A(p.epsilon)),
        wd(A(p.wd)), rescale(A(p.rescale_grad)), clip(A(p.clip_gradient)), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    const A weight = w32 != nullptr ? static_cast<A>(w32[i]) : static_cast<A>(w[i]);
    const A grad = OptClip(rescale * static_cast<A>(g[i]), clip);
    const A m = b1 * static_cast<A>(mean[i]) + (A(1) - b1) * grad;
    const A v = b2 * static_cast<A>(var[i]) + (A(1) - b2) * grad * grad;
    mean[i] = MType(m);
    var[i] = MType(v);
    OptAssign(o, i, req, (m / c1) / (std::sqrt(v / c2) + epsilon) + wd * weight);
  }
};

/*!
 * \brief LAMB phase two: w' = w - lr * (r1 / r2) * g, r1 (clamped to the bounds) and r2 read
 *        from their one-element arrays by every element (they live on the device on a GPU).
 *        Inputs: weight, g, r1, r2[, weight32 (updated in place)].
 */
template <typename DType, typename MType>
struct LambPhaseTwoStep {
  typedef LambUpdatePhaseTwoParam Param;
  const DType* w;
  const MType* g;
  const MType* r1;
  const MType* r2;
  MType* w32;
  DType* o;
  float lr, lower, upper;
  OpReqType req;
  LambPhaseTwoStep(const Param& p, const std::vector<TBlob>& in, OpReqType rq,
                   const TBlob& out, bool mp)
      : w(in[0].dptr<DType>()), g(in[1].dptr<MType>()), r1(in[2].dptr<MType>()),
        r2(in[3].dptr<MType>()), w32(mp ? in[4].dptr<MType>() : nullptr),
        o(out.dptr<DType>()), lr(p.lr), lower(p.lower_bound), upper(p.upper_bound), req(rq) {}
  MSHADOW_XINLINE void operator()(index_t i) const {
    typedef OptAcc<MType> A;
    A a = static_cast<A>(r1[0]);
    const A b = static_cast<A>(r2[0]);
    if (lower >= 0 && a < A(lower)) a = A(lower);
    if (upper >= 0 && a > A(upper)) a = A(upper);
    const A ratio = (a == A(0) || b == A(0)) ? A(1) : a / b;
    const A weight = w32 != nullptr ? static_cast<A>(w32[i]) : static_cast<A>(w[i]);
    const A nw = weight - A(lr) * ratio * static_cast<A>(g[i]);
    if (w32 != nullptr) w32[i] = MType(nw);
    OptAssign(o, i, req, nw);
  }
};

// ------------------------------------------------------------------------------- inference

/*! \brief Throws ValueError unless every input of an update has the weight's shape. */
inline bool OptUpdateShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                           mxnet::ShapeVector* out_attrs) {
  mxnet::TShape shape;
  for (const auto& s : *in_attrs) {
    if (!ndim_is_known(s)) continue;
    if (!ndim_is_known(shape)) {
      shape = s;
    } else if (s != shape) {
      MX_THROW(ValueError) << attrs.op->name << ": expected every input to have the weight's "
                           << "shape " << (*in_attrs)[0] << ", got " << s;
    }
  }
  if (!ndim_is_known(shape)) return false;
  for (size_t i = 0; i < in_attrs->size(); ++i) SHAPE_ASSIGN_CHECK(*in_attrs, i, shape);
  for (size_t i = 0; i < out_attrs->size(); ++i) SHAPE_ASSIGN_CHECK(*out_attrs, i, shape);
  return shape_is_known(shape);
}

/*! \brief Types of an update: inputs [0, n_same) share the weight's dtype; the others are
 *         float32 master copies / states when mixed precision. */
template <int n_in, int n_same>
bool OptUpdateType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  int dtype = (*in)[0] >= 0 ? (*in)[0] : (*out)[0];
  if (dtype < 0) return false;
  for (int i = 0; i < n_same; ++i) TYPE_ASSIGN_CHECK(*in, i, dtype);
  for (int i = n_same; i < n_in; ++i) TYPE_ASSIGN_CHECK(*in, i, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
}

inline nnvm::FListInputNames OptNames(std::vector<std::string> names) {
  return [names](const NodeAttrs&) { return names; };
}

inline nnvm::FMutateInputs OptMutates(std::vector<uint32_t> idx) {
  return [idx](const NodeAttrs&) { return idx; };
}

// Common attributes of a single-weight update op with n inputs.
#define MXNET_REGISTER_UPDATE(name, Param, n)                                  \
  NNVM_REGISTER_OP(name)                                                       \
  .set_num_inputs(n)                                                           \
  .set_num_outputs(1)                                                          \
  .set_attr_parser(ParamParser<Param>)                                         \
  .set_attr<mxnet::FInferShape>("FInferShape", OptUpdateShape)                 \
  .set_attr<bool>("TNonDifferentiable", true)

// ------------------------------------------------------------------ multi-weight updates
// multi_*, preloaded_multi_*, _multi_(mp_)adamw_update and _multi_(mp_)lamb_update take `num`
// groups of `per` inputs (weight, grad, states...[, weight32]), then shared inputs (`extra`);
// output k is group k's new weight, and the states (group positions 2 and up) are updated in
// place.

/*! \brief Per group: shapes as OptUpdateShape; output k gets group k's shape. */
inline bool GroupedUpdateShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                               mxnet::ShapeVector* out, int num, int per) {
  bool all = true;
  for (int k = 0; k < num; ++k) {
    mxnet::ShapeVector gin(in->begin() + k * per, in->begin() + (k + 1) * per);
    mxnet::ShapeVector gout{(*out)[k]};
    all = OptUpdateShape(attrs, &gin, &gout) && all;
    std::copy(gin.begin(), gin.end(), in->begin() + k * per);
    (*out)[k] = gout[0];
  }
  return all;
}

/*! \brief Per group: weight and grad share a dtype, the states have it too, or are float32
 *         when mp (mixed precision); output k has group k's weight dtype. */
inline bool GroupedUpdateType(std::vector<int>* in, std::vector<int>* out, int num, int per,
                              bool mp) {
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
  return all;
}

/*!
 * \brief Sets what every multi-weight update shares on op: input and output counts, input
 *        names (group's suffixed _0, _1, ..., then `shared`), the mutated states and no
 *        gradient. num(attrs): the op's weight count.
 */
inline nnvm::Op& SetGroupedUpdate(nnvm::Op& op,  // NOLINT(runtime/references)
                                  int (*num)(const nnvm::NodeAttrs&),
                                  const std::vector<std::string>& group,
                                  const std::vector<std::string>& shared) {
  const int per = static_cast<int>(group.size());
  const int extra = static_cast<int>(shared.size());
  op.set_num_inputs([=](const NodeAttrs& a) { return static_cast<uint32_t>(num(a) * per + extra); })
      .set_num_outputs([=](const NodeAttrs& a) { return static_cast<uint32_t>(num(a)); })
      .set_attr<nnvm::FListInputNames>("FListInputNames", [=](const NodeAttrs& a) {
        std::vector<std::string> names;
        for (int k = 0; k < num(a); ++k)
          for (const std::string& g : group) names.push_back(g + "_" + std::to_string(k));
        names.insert(names.end(), shared.begin(), shared.end());
        return names;
      })
      .set_attr<bool>("TNonDifferentiable", true);
  if (per > 2) {
    op.set_attr<nnvm::FMutateInputs>("FMutateInputs", [=](const NodeAttrs& a) {
      std::vector<uint32_t> idx;
      for (int k = 0; k < num(a); ++k)
        for (int i = 2; i < per; ++i) idx.push_back(static_cast<uint32_t>(k * per + i));
      return idx;
    });
  }
  return op;
}

/*! \brief NNVM_REGISTER_OP(name) with SetGroupedUpdate's attributes; chain the rest. */
#define MXNET_REGISTER_GROUPED_UPDATE(name, num, group, shared)              \
  DMLC_STR_CONCAT(NNVM_REGISTER_VAR_DEF(name), __COUNTER__) =                \
      ::mxnet::op::SetGroupedUpdate(::nnvm::Op::Register(#name), num, group, shared)

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_OPTIMIZER_OPTIMIZER_OP_INL_H_
