/*!
 * \file identity_attach_KL_sparse_reg-inl.h
 * \brief IdentityAttachKLSparseReg, written with the legacy Operator/OperatorProperty interface:
 *        forward is the identity; backward adds the gradient of a KL-divergence sparseness
 *        penalty between the target activation rho and the moving average rho_hat of the
 *        per-unit mean activation (aux state `moving_avg`, updated in place by backward):
 *
 *          rho_hat = momentum * rho_hat + (1 - momentum) * mean_over_batch(data)
 *          grad_in = grad_out + penalty * (-rho / rho_hat + (1 - rho) / (1 - rho_hat))
 *
 *        Data is (batch, units); moving_avg is (units,).
 */
#ifndef MXNET_OPERATOR_LEGACY_IDENTITY_ATTACH_KL_SPARSE_REG_INL_H_
#define MXNET_OPERATOR_LEGACY_IDENTITY_ATTACH_KL_SPARSE_REG_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/operator.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace sparsereg {
enum IdentityAttachKLSparseRegOpInputs { kData };
enum IdentityAttachKLSparseRegOpOutputs { kOut };
enum IdentityAttachKLSparseRegOpAuxiliary { kMovingAvg };
enum IdentityAttachKLSparseRegBackResource { kTempSpace };
}  // namespace sparsereg

struct IdentityAttachKLSparseRegParam : public dmlc::Parameter<IdentityAttachKLSparseRegParam> {
  float penalty;
  float sparseness_target;
  float momentum;
  DMLC_DECLARE_PARAMETER(IdentityAttachKLSparseRegParam) {
    DMLC_DECLARE_FIELD(sparseness_target).set_default(0.1).set_range(0, 1)
    .describe("The sparseness target");
    DMLC_DECLARE_FIELD(penalty).set_default(0.001)
    .describe("The tradeoff parameter for the sparseness penalty");
    DMLC_DECLARE_FIELD(momentum).set_default(0.9).set_range(0, 1)
    .describe("The momentum for running average");
  }
};

namespace sparsereg {
struct mshadow_identity {
  template <typename DType>
  MSHADOW_XINLINE static DType Map(DType a) { return a; }
};
/*! \brief Unit j: batch mean (summed in batch order), moving average update, penalty. */
struct kl_penalty {
  MSHADOW_XINLINE static void Map(index_t j, float* penalty, float* moving_avg,
                                  const float* data, index_t batch, index_t units, float rho,
                                  float weight, float momentum) {
    float sum = 0.f;
    for (index_t i = 0; i < batch; ++i) sum += data[i * units + j];
    const float avg = momentum * moving_avg[j] + (1.f - momentum) * (sum / batch);
    moving_avg[j] = avg;
    penalty[j] = weight * (-rho / avg + (1.f - rho) / (1.f - avg));
  }
};
/*! \brief grad_in (req) grad_out + penalty of the element's unit. */
struct add_unit_penalty {
  MSHADOW_XINLINE static void Map(index_t i, float* grad_in, const float* grad_out,
                                  const float* penalty, index_t units, int req) {
    KERNEL_ASSIGN(grad_in[i], req, grad_out[i] + penalty[i % units]);
  }
};
}  // namespace sparsereg

template <typename xpu>
class IdentityAttachKLSparseRegOp : public Operator {
 public:
  explicit IdentityAttachKLSparseRegOp(IdentityAttachKLSparseRegParam param) : param_(param) {}

  void Forward(const OpContext& ctx, const std::vector<TBlob>& in_data,
               const std::vector<OpReqType>& req, const std::vector<TBlob>& out_data,
               const std::vector<TBlob>& aux_states) override {
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    const TBlob& in = in_data[sparsereg::kData];
    const TBlob& out = out_data[sparsereg::kOut];
    if (req[sparsereg::kOut] == kNullOp || in.dptr_ == out.dptr_) return;  // in place: done
    MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
      MXNET_ASSIGN_REQ_SWITCH(req[sparsereg::kOut], Req, {
        mxnet_op::Kernel<mxnet_op::op_with_req<sparsereg::mshadow_identity, Req>, xpu>::Launch(
            s, out.Size(), out.dptr<DType>(), in.dptr<DType>());
      });
    });
  }

  void Backward(const OpContext& ctx, const std::vector<TBlob>& out_grad,
                const std::vector<TBlob>& in_data, const std::vector<TBlob>& out_data,
                const std::vector<OpReqType>& req, const std::vector<TBlob>& in_grad,
                const std::vector<TBlob>& aux_states) override {
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    const TBlob& data = in_data[sparsereg::kData];
    const index_t batch = data.shape_[0], units = data.shape_[1];
    // The per-unit penalty, in the requested temp space (the gradient may alias grad_out).
    float* penalty = ctx.requested[sparsereg::kTempSpace].get_space_typed_ptr<float>(units);
    mxnet_op::Kernel<sparsereg::kl_penalty, xpu>::Launch(
        s, units, penalty, aux_states[sparsereg::kMovingAvg].dptr<float>(), data.dptr<float>(),
        batch, units, param_.sparseness_target, param_.penalty, param_.momentum);
    mxnet_op::Kernel<sparsereg::add_unit_penalty, xpu>::Launch(
        s, batch * units, in_grad[sparsereg::kData].dptr<float>(),
        out_grad[sparsereg::kOut].dptr<float>(), static_cast<const float*>(penalty), units,
        static_cast<int>(req[sparsereg::kData]));
  }

 private:
  IdentityAttachKLSparseRegParam param_;
};

class IdentityAttachKLSparseRegProp : public OperatorProperty {
 public:
  void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) override {
    param_.Init(kwargs);
  }
  std::map<std::string, std::string> GetParams() const override { return param_.__DICT__(); }

  bool InferShape(mxnet::ShapeVector* in_shape, mxnet::ShapeVector* out_shape,
                  mxnet::ShapeVector* aux_shape) const override {
    CHECK_EQ(in_shape->size(), 1U) << "IdentityAttachKLSparseReg takes one input: data";
    const TShape& dshape = in_shape->at(sparsereg::kData);
    if (!ndim_is_known(dshape)) return false;
    if (dshape.ndim() != 2) {
      MX_THROW(ValueError) << "IdentityAttachKLSparseReg: data must be 2-D (batch, units), got "
                           << dshape;
    }
    SHAPE_ASSIGN_CHECK(*out_shape, sparsereg::kOut, dshape);
    SHAPE_ASSIGN_CHECK(*aux_shape, sparsereg::kMovingAvg, TShape({dshape[1]}));
    return shape_is_known(dshape);
  }

  OperatorProperty* Copy() const override {
    auto* p = new IdentityAttachKLSparseRegProp();
    p->param_ = this->param_;
    return p;
  }
  std::string TypeString() const override { return "IdentityAttachKLSparseReg"; }

  std::vector<int> DeclareBackwardDependency(const std::vector<int>& out_grad,
                                             const std::vector<int>& in_data,
                                             const std::vector<int>& out_data) const override {
    return {out_grad[sparsereg::kOut], in_data[sparsereg::kData]};
  }
  std::vector<std::pair<int, void*>> ForwardInplaceOption(
      const std::vector<int>& in_data, const std::vector<void*>& out_data) const override {
    return {{in_data[sparsereg::kData], out_data[sparsereg::kOut]}};
  }
  std::vector<std::pair<int, void*>> BackwardInplaceOption(
      const std::vector<int>& out_grad, const std::vector<int>& in_data,
      const std::vector<int>& out_data, const std::vector<void*>& in_grad) const override {
    return {{out_grad[sparsereg::kOut], in_grad[sparsereg::kData]}};
  }
  std::vector<std::string> ListAuxiliaryStates() const override { return {"moving_avg"}; }
  std::vector<ResourceRequest> BackwardResource(const mxnet::ShapeVector& in_shape) const override {
    return {ResourceRequest::kTempSpace};
  }
  Operator* CreateOperator(Context ctx) const override;

 private:
  IdentityAttachKLSparseRegParam param_;
};

/*! \brief The GPU operator (identity_attach_KL_sparse_reg.cu; CUDA builds only). */
Operator* CreateIdentityAttachKLSparseRegGPU(const IdentityAttachKLSparseRegParam& param);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_LEGACY_IDENTITY_ATTACH_KL_SPARSE_REG_INL_H_
