/*!
 * \file relu_backward-inl.h
 * \brief The ReLU backward (`_backward_relu`, `_backward_Activation` relu) as a vectorisable
 *        float loop: a float compare + select stays a scalar branch under GCC's default
 *        -ftrapping-math and mispredicts on about half the elements of a hidden layer.
 */
#ifndef MXNET_OPERATOR_TENSOR_RELU_BACKWARD_INL_H_
#define MXNET_OPERATOR_TENSOR_RELU_BACKWARD_INL_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "./elemwise_unary_op-inl.h"

namespace mxnet {
namespace op {

/*! \brief out[i] = ograd[i] where y[i] > 0, else +0. y > 0 (and not NaN) <=> y's bits, read as
 *  int32, lie in [1, bits(+inf)]; the select is then an integer mask (vectorises). */
struct relu_bwd_f32 {
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, float* out, const float* ograd,
                                  const float* y) {
    for (index_t i = begin; i < begin + n; ++i) {
      int32_t y_bits, g_bits;
      std::memcpy(&y_bits, y + i, sizeof(y_bits));
      std::memcpy(&g_bits, ograd + i, sizeof(g_bits));
      const int32_t keep = -static_cast<int32_t>(static_cast<uint32_t>(y_bits - 1) < 0x7f800000u);
      const int32_t r = g_bits & keep;
      std::memcpy(out + i, &r, sizeof(r));
    }
  }
};

/*! \brief inputs: out_grad, y = relu(x); outputs: in_grad. float32 write/inplace take the fast
 *  loop, everything else the generic unary backward. */
template <typename xpu>
void ReluBackwardCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kWriteTo || req[0] == kWriteInplace) {
    if (outputs[0].type_flag_ == mshadow::kFloat32) {
      mxnet_op::Kernel<relu_bwd_f32, xpu>::LaunchEx(
          ctx.get_stream<xpu>(), static_cast<index_t>(outputs[0].Size()),
          outputs[0].dptr<float>(), inputs[0].dptr<float>(), inputs[1].dptr<float>());
      return;
    }
  }
  UnaryOp::Backward<xpu, unary_grad::relu>(attrs, ctx, inputs, req, outputs);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_RELU_BACKWARD_INL_H_
