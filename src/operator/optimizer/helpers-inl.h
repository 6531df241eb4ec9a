/*!
 * \file helpers-inl.h
 * \brief The parameters and the per-element math of reset_arrays, all_finite,
 *        multi_all_finite, multi_sum_sq and multi_lars, shared by the CPU loops (helpers.cc)
 *        and the GPU kernels (helpers.cu).
 */
#ifndef MXNET_OPERATOR_OPTIMIZER_HELPERS_INL_H_
#define MXNET_OPERATOR_OPTIMIZER_HELPERS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct ResetArraysParam : public dmlc::Parameter<ResetArraysParam> {
  int num_arrays;
  DMLC_DECLARE_PARAMETER(ResetArraysParam) {
    DMLC_DECLARE_FIELD(num_arrays).set_lower_bound(1).describe("number of input arrays.");
  }
};

struct AllFiniteParam : public dmlc::Parameter<AllFiniteParam> {
  bool init_output;
  DMLC_DECLARE_PARAMETER(AllFiniteParam) {
    DMLC_DECLARE_FIELD(init_output).set_default(true).describe("Initialize output to 1.");
  }
};

struct MultiAllFiniteParam : public dmlc::Parameter<MultiAllFiniteParam> {
  int num_arrays;
  bool init_output;
  DMLC_DECLARE_PARAMETER(MultiAllFiniteParam) {
    DMLC_DECLARE_FIELD(num_arrays).set_default(1).set_lower_bound(1).describe("Number of arrays.");
    DMLC_DECLARE_FIELD(init_output).set_default(true).describe("Initialize output to 1.");
  }
};

struct MultiSumSqParam : public dmlc::Parameter<MultiSumSqParam> {
  int num_arrays;
  DMLC_DECLARE_PARAMETER(MultiSumSqParam) {
    DMLC_DECLARE_FIELD(num_arrays).set_lower_bound(1).describe("number of input arrays.");
  }
};

struct LARSParam : public dmlc::Parameter<LARSParam> {
  float eta, eps, rescale_grad;
  DMLC_DECLARE_PARAMETER(LARSParam) {
    DMLC_DECLARE_FIELD(eta).describe("LARS eta");
    DMLC_DECLARE_FIELD(eps).describe("LARS eps");
    DMLC_DECLARE_FIELD(rescale_grad).set_default(1.0f).describe("Gradient rescaling factor");
  }
};

/*! \brief isfinite without the math library (device code too): inf - inf and nan are nan. */
MSHADOW_XINLINE bool HelperIsFinite(double v) {
  return v - v == 0.0;
}

/*!
 * \brief multi_lars for element i: lr * eta * |w| / (|g| + wd * |w| + eps) with
 *        |w| = sqrt(weights_sum_sq), |g| = sqrt(grads_sum_sq) * rescale_grad, or lr when either
 *        norm is 0.
 */
struct lars_rate {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, int req, const DType* lrs,
                                  const DType* wss, const DType* gss, const DType* wds,
                                  float eta, float eps, float rescale_grad) {
    const double w = sqrt(static_cast<double>(wss[i]));
    const double g = sqrt(static_cast<double>(gss[i])) * rescale_grad;
    const double lr = static_cast<double>(lrs[i]);
    const double v = (w > 0 && g > 0)
                         ? lr * eta * w / (g + static_cast<double>(wds[i]) * w + eps)
                         : lr;
    KERNEL_ASSIGN(out[i], req, DType(v));
  }
};

template <typename xpu>
void MultiLARSCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const LARSParam& p = nnvm::get<LARSParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mxnet_op::Kernel<lars_rate, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        static_cast<int>(req[0]), inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        inputs[2].dptr<DType>(), inputs[3].dptr<DType>(), p.eta, p.eps, p.rescale_grad);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_OPTIMIZER_HELPERS_INL_H_
