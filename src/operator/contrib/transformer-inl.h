/*!
 * \file transformer-inl.h
 * \brief _contrib_div_sqrt_dim's kernel for every device (transformer.cc registers the op,
 *        transformer.cu its GPU kernel).
 */
#ifndef MXNET_OPERATOR_CONTRIB_TRANSFORMER_INL_H_
#define MXNET_OPERATOR_CONTRIB_TRANSFORMER_INL_H_

#include <mxnet/op_attr_types.h>

#include <cmath>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

/*! \brief o[i] (req) x[i] * scale, computed in double. */
struct scale_elements {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* o, const DType* x, double scale, int req) {
    KERNEL_ASSIGN(o[i], req, DType(static_cast<double>(x[i]) * scale));
  }
};

template <typename xpu>
void DivSqrtDimCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[0].Size() == 0) return;
  const mxnet::TShape& s = inputs[0].shape_;
  const double scale = 1.0 / std::sqrt(static_cast<double>(s[s.ndim() - 1]));
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<scale_elements, xpu>::Launch(ctx.get_stream<xpu>(), inputs[0].Size(),
                                                  outputs[0].dptr<DType>(),
                                                  inputs[0].dptr<DType>(), scale,
                                                  static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_TRANSFORMER_INL_H_
