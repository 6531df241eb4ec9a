/*!
 * \file adaptive_avg_pooling-inl.h
 * \brief _contrib_AdaptiveAvgPooling2D's kernels for every device: cell i of an axis of size
 *        `in` pooled to `out` covers [floor(i * in / out), ceil((i + 1) * in / out)). The
 *        forward is one thread per output element; the gradient one thread per input element,
 *        gathering from every cell that covers it (no atomics).
 */
#ifndef MXNET_OPERATOR_CONTRIB_ADAPTIVE_AVG_POOLING_INL_H_
#define MXNET_OPERATOR_CONTRIB_ADAPTIVE_AVG_POOLING_INL_H_

#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct AdaptivePoolGeom {
  index_t h, w, oh, ow;
};

MSHADOW_XINLINE index_t AdaptiveCellStart(index_t i, index_t in, index_t out) {
  return (i * in) / out;
}
MSHADOW_XINLINE index_t AdaptiveCellEnd(index_t i, index_t in, index_t out) {
  return ((i + 1) * in + out - 1) / out;
}

struct adaptive_pool_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* y, const DType* x, AdaptivePoolGeom d,
                                  int req) {
    const index_t j = e % d.ow, i = (e / d.ow) % d.oh, plane = e / (d.ow * d.oh);
    const index_t r0 = AdaptiveCellStart(i, d.h, d.oh), r1 = AdaptiveCellEnd(i, d.h, d.oh);
    const index_t c0 = AdaptiveCellStart(j, d.w, d.ow), c1 = AdaptiveCellEnd(j, d.w, d.ow);
    const DType* xp = x + plane * d.h * d.w;
    double sum = 0;
    for (index_t r = r0; r < r1; ++r)
      for (index_t k = c0; k < c1; ++k) sum += static_cast<double>(xp[r * d.w + k]);
    KERNEL_ASSIGN(y[e], req, DType(sum / static_cast<double>((r1 - r0) * (c1 - c0))));
  }
};

struct adaptive_pool_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* dx, const DType* og, AdaptivePoolGeom d,
                                  int req) {
    const index_t k = e % d.w, r = (e / d.w) % d.h, plane = e / (d.w * d.h);
    const DType* gp = og + plane * d.oh * d.ow;
    const index_t i_hi = ((r + 1) * d.oh) / d.h < d.oh - 1 ? ((r + 1) * d.oh) / d.h : d.oh - 1;
    const index_t j_hi = ((k + 1) * d.ow) / d.w < d.ow - 1 ? ((k + 1) * d.ow) / d.w : d.ow - 1;
    double acc = 0;
    for (index_t i = (r * d.oh) / d.h; i <= i_hi; ++i) {
      const index_t r0 = AdaptiveCellStart(i, d.h, d.oh), r1 = AdaptiveCellEnd(i, d.h, d.oh);
      if (r < r0 || r >= r1) continue;
      for (index_t j = (k * d.ow) / d.w; j <= j_hi; ++j) {
        const index_t c0 = AdaptiveCellStart(j, d.w, d.ow), c1 = AdaptiveCellEnd(j, d.w, d.ow);
        if (k < c0 || k >= c1) continue;
        acc += static_cast<double>(gp[i * d.ow + j]) /
               static_cast<double>((r1 - r0) * (c1 - c0));
      }
    }
    KERNEL_ASSIGN(dx[e], req, DType(acc));
  }
};

inline AdaptivePoolGeom AdaptivePoolGeomOf(const TBlob& big, const TBlob& small) {
  return AdaptivePoolGeom{big.shape_[2], big.shape_[3], small.shape_[2], small.shape_[3]};
}

template <typename xpu>
void AdaptivePoolCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<adaptive_pool_forward, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), AdaptivePoolGeomOf(inputs[0], outputs[0]),
        static_cast<int>(req[0]));
  });
}

template <typename xpu>
void AdaptivePoolGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<adaptive_pool_backward, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), AdaptivePoolGeomOf(outputs[0], inputs[0]),
        static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_ADAPTIVE_AVG_POOLING_INL_H_
