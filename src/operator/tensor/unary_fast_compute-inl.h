/*!
 * \file unary_fast_compute-inl.h
 * \brief FastUnaryCompute: the CPU FCompute of sigmoid and tanh (the operators and Activation's)
 *        that runs unary_fast.h's vectorized loop for float32 written outputs and the generic
 *        kernel for everything else (other dtypes, kAddTo).
 */
#ifndef MXNET_OPERATOR_TENSOR_UNARY_FAST_COMPUTE_INL_H_
#define MXNET_OPERATOR_TENSOR_UNARY_FAST_COMPUTE_INL_H_

#include <vector>

#include "./elemwise_unary_op-inl.h"
#include "./unary_fast.h"

namespace mxnet {
namespace op {

template <unary_fast::Fn fn, typename OP>
void FastUnaryCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if ((req[0] == kWriteTo || req[0] == kWriteInplace) &&
      inputs[0].type_flag_ == mshadow::kFloat32 && outputs[0].type_flag_ == mshadow::kFloat32) {
    unary_fast::Apply(fn, inputs[0].dptr<float>(), outputs[0].dptr<float>(),
                      static_cast<index_t>(outputs[0].Size()));
    return;
  }
  UnaryOp::Compute<mshadow::cpu, OP>(attrs, ctx, inputs, req, outputs);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_UNARY_FAST_COMPUTE_INL_H_
