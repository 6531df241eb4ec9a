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
        mxnet_op::Kernel<mxnet_op::op_with_req<mshadow_identity, Req>, xpu>::Launch(
            s, out.Size(), out.dptr<DType>(), in.dptr<DType>());
      });
    });
  }

  void Backward(const OpContext& ctx, const std::vector<TBlob>& out_grad,
                const std::vector<TBlob>& in_data, const std::vector<TBlob>& out_data,
                const std::vector<OpReqType>& req, const std::vector<TBlob>& in_grad,
                const std::vector<TBlob>& aux_states) override {
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    mshadow::Tensor<xpu, 2, float> data = in_data[sparsereg::kData].FlatTo2D<xpu, float>(s);
    mshadow::Tensor<xpu, 2, float> grad_out = out_grad[sparsereg::kOut].FlatTo2D<xpu, float>(s);
    mshadow::Tensor<xpu, 2, float> grad_in = in_grad[sparsereg::kData].FlatTo2D<xpu, float>(s);
    mshadow::Tensor<xpu, 1, float> moving_avg =
        aux_states[sparsereg::kMovingAvg].get<xpu, 1, float>(s);
    const index_t batch = data.size(0), units = data.size(1);
    // Batch mean per unit, in the requested temp space (the gradient may alias grad_out).
    float* avg = ctx.requested[sparsereg::kTempSpace].get_space_typed_ptr<float>(units);
    for (index_t j = 0; j < units; ++j) avg[j] = 0.f;
    for (index_t i = 0; i < batch; ++i) {
      for (index_t j = 0; j < units; ++j) avg[j] += data[i][j];
    }
    const float rho = param_.sparseness_target;
    for (index_t j = 0; j < units; ++j) {
      moving_avg[j] = param_.momentum * moving_avg[j] + (1.f - param_.momentum) * (avg[j] / batch);
      avg[j] = param_.penalty * (-rho / moving_avg[j] + (1.f - rho) / (1.f - moving_avg[j]));
    }
    for (index_t i = 0; i < batch; ++i) {
      for (index_t j = 0; j < units; ++j) {
        KERNEL_ASSIGN(grad_in[i][j], req[sparsereg::kData], grad_out[i][j] + avg[j]);
      }
    }
  }

 private:
  struct mshadow_identity {
    template <typename DType>
    MSHADOW_XINLINE static DType Map(DType a) { return a; }
  };
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

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_LEGACY_IDENTITY_ATTACH_KL_SPARSE_REG_INL_H_
