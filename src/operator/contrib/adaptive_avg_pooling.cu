/*!
 * \file adaptive_avg_pooling.cu
 * \brief _contrib_AdaptiveAvgPooling2D and its gradient on the GPU with the CPU's cells
 *        (adaptive_avg_pooling.cc): cell i of an axis of size `in` pooled to `out` covers
 *        [floor(i * in / out), ceil((i + 1) * in / out)). The forward is one thread per output
 *        element; the gradient one thread per input element, gathering from every cell that
 *        covers it (no atomics).
 */
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

#if MXNET_USE_CUDA
namespace mxnet {
namespace op {
namespace {

using mxnet_op::Kernel;

struct PoolDims {
  index_t h, w, oh, ow;
};

MSHADOW_XINLINE index_t CellStart(index_t i, index_t in, index_t out) { return (i * in) / out; }
MSHADOW_XINLINE index_t CellEnd(index_t i, index_t in, index_t out) {
  return ((i + 1) * in + out - 1) / out;
}

struct adaptive_pool_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* y, const DType* x, PoolDims d, int req) {
    const index_t j = e % d.ow, i = (e / d.ow) % d.oh, plane = e / (d.ow * d.oh);
    const index_t r0 = CellStart(i, d.h, d.oh), r1 = CellEnd(i, d.h, d.oh);
    const index_t c0 = CellStart(j, d.w, d.ow), c1 = CellEnd(j, d.w, d.ow);
    const DType* xp = x + plane * d.h * d.w;
    double sum = 0;
    for (index_t r = r0; r < r1; ++r)
      for (index_t k = c0; k < c1; ++k) sum += static_cast<double>(xp[r * d.w + k]);
    KERNEL_ASSIGN(y[e], req, DType(sum / static_cast<double>((r1 - r0) * (c1 - c0))));
  }
};

struct adaptive_pool_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* dx, const DType* og, PoolDims d, int req) {
    const index_t k = e % d.w, r = (e / d.w) % d.h, plane = e / (d.w * d.h);
    const DType* gp = og + plane * d.oh * d.ow;
    const index_t i_hi = ((r + 1) * d.oh) / d.h < d.oh - 1 ? ((r + 1) * d.oh) / d.h : d.oh - 1;
    const index_t j_hi = ((k + 1) * d.ow) / d.w < d.ow - 1 ? ((k + 1) * d.ow) / d.w : d.ow - 1;
    double acc = 0;
    for (index_t i = (r * d.oh) / d.h; i <= i_hi; ++i) {
      const index_t r0 = CellStart(i, d.h, d.oh), r1 = CellEnd(i, d.h, d.oh);
      if (r < r0 || r >= r1) continue;
      for (index_t j = (k * d.ow) / d.w; j <= j_hi; ++j) {
        const index_t c0 = CellStart(j, d.w, d.ow), c1 = CellEnd(j, d.w, d.ow);
        if (k < c0 || k >= c1) continue;
        acc += static_cast<double>(gp[i * d.ow + j]) / static_cast<double>((r1 - r0) * (c1 - c0));
      }
    }
    KERNEL_ASSIGN(dx[e], req, DType(acc));
  }
};

PoolDims DimsOf(const TBlob& big, const TBlob& small) {
  return PoolDims{big.shape_[2], big.shape_[3], small.shape_[2], small.shape_[3]};
}

void AdaptivePoolComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0 || inputs[0].Size() == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    Kernel<adaptive_pool_forward, gpu>::Launch(
        ctx.get_stream<gpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), DimsOf(inputs[0], outputs[0]), static_cast<int>(req[0]));
  });
}

void AdaptivePoolGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0 || inputs[0].Size() == 0) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    Kernel<adaptive_pool_backward, gpu>::Launch(
        ctx.get_stream<gpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), DimsOf(outputs[0], inputs[0]), static_cast<int>(req[0]));
  });
}

}  // namespace

NNVM_REGISTER_OP(_contrib_AdaptiveAvgPooling2D)
.set_attr<FCompute>("FCompute<gpu>", AdaptivePoolComputeGPU);
NNVM_REGISTER_OP(_backward_contrib_AdaptiveAvgPooling2D)
.set_attr<FCompute>("FCompute<gpu>", AdaptivePoolGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
