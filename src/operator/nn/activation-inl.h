/*!
 * \file activation-inl.h
 * \brief The `Activation` operator (act_type relu | sigmoid | tanh | softrelu | softsign) and
 *        `_backward_Activation`, which reads the forward output (and, for softsign, the input).
 */
#ifndef MXNET_OPERATOR_NN_ACTIVATION_INL_H_
#define MXNET_OPERATOR_NN_ACTIVATION_INL_H_

#include <string>
#include <type_traits>
#include <vector>

#include "../tensor/elemwise_unary_op-inl.h"
#include "../tensor/relu_backward-inl.h"
#include "../tensor/unary_fast_compute-inl.h"

namespace mxnet {
namespace op {

namespace activation {
enum ActivationOpInputs { kData };
enum ActivationOpOutputs { kOut };
enum ActivationOpType { kReLU, kSigmoid, kTanh, kSoftReLU, kSoftSign };
}  // namespace activation

struct ActivationParam : public dmlc::Parameter<ActivationParam> {
  int act_type;
  DMLC_DECLARE_PARAMETER(ActivationParam) {
    DMLC_DECLARE_FIELD(act_type)
        .add_enum("relu", activation::kReLU)
        .add_enum("sigmoid", activation::kSigmoid)
        .add_enum("tanh", activation::kTanh)
        .add_enum("softrelu", activation::kSoftReLU)
        .add_enum("softsign", activation::kSoftSign)
        .describe("Activation function to be applied.");
  }
  bool operator==(const ActivationParam& other) const { return act_type == other.act_type; }
};

template <typename xpu>
void ActivationCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  switch (nnvm::get<ActivationParam>(attrs.parsed).act_type) {
    case activation::kReLU:
      UnaryOp::Compute<xpu, mshadow_op::relu>(attrs, ctx, inputs, req, outputs);
      break;
    case activation::kSigmoid:
      if constexpr (std::is_same<xpu, cpu>::value) {
        FastUnaryCompute<unary_fast::Fn::kSigmoid, mshadow_op::sigmoid>(attrs, ctx, inputs, req,
                                                                         outputs);
      } else {
        UnaryOp::Compute<xpu, mshadow_op::sigmoid>(attrs, ctx, inputs, req, outputs);
      }
      break;
    case activation::kTanh:
      if constexpr (std::is_same<xpu, cpu>::value) {
        FastUnaryCompute<unary_fast::Fn::kTanh, mshadow_op::tanh>(attrs, ctx, inputs, req,
                                                                   outputs);
      } else {
        UnaryOp::Compute<xpu, mshadow_op::tanh>(attrs, ctx, inputs, req, outputs);
      }
      break;
    case activation::kSoftReLU:
      UnaryOp::Compute<xpu, mshadow_op::softrelu>(attrs, ctx, inputs, req, outputs);
      break;
    case activation::kSoftSign:
      UnaryOp::Compute<xpu, mshadow_op::softsign>(attrs, ctx, inputs, req, outputs);
      break;
    default:
      MX_THROW(InternalError) << "Activation: unknown act_type (a bug)";
  }
}

/*! \brief inputs (ograd, output[, data for softsign]) -> data gradient. */
template <typename xpu>
void ActivationGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const std::vector<TBlob> on_out{inputs[0], inputs[1]};
  switch (nnvm::get<ActivationParam>(attrs.parsed).act_type) {
    case activation::kReLU:
      ReluBackwardCompute<xpu>(attrs, ctx, on_out, req, outputs);
      break;
    case activation::kSigmoid:
      UnaryOp::Backward<xpu, unary_grad::sigmoid>(attrs, ctx, on_out, req, outputs);
      break;
    case activation::kTanh:
      UnaryOp::Backward<xpu, unary_grad::tanh>(attrs, ctx, on_out, req, outputs);
      break;
    case activation::kSoftReLU:
      UnaryOp::Backward<xpu, unary_grad::softrelu>(attrs, ctx, on_out, req, outputs);
      break;
    case activation::kSoftSign:
      UnaryOp::Backward<xpu, unary_grad::softsign>(attrs, ctx, {inputs[0], inputs[2]}, req,
                                                    outputs);
      break;
    default:
      MX_THROW(InternalError) << "Activation: unknown act_type (a bug)";
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_ACTIVATION_INL_H_
