/*!
 * \file quantized_pooling-inl.h
 * \brief The output element of _contrib_quantized_pooling (semantics in quantized_conv.cc),
 *        written once for the CPU loop over planes (quantized_conv.cc) and the GPU kernel of one
 *        thread per output element (quantized_pooling.cu).
 */
#ifndef MXNET_OPERATOR_QUANTIZATION_QUANTIZED_POOLING_INL_H_
#define MXNET_OPERATOR_QUANTIZATION_QUANTIZED_POOLING_INL_H_

#include <vector>

#include "../mxnet_op.h"
#include "../nn/pooling-inl.h"
#include "./quantize-inl.h"

namespace mxnet {
namespace op {
namespace quant {

/*! \brief The input span [lo, hi) of output position o (pool_detail::MakeWindow's clipping). */
struct QPoolSpan {
  index_t lo, hi;
  MSHADOW_XINLINE QPoolSpan(index_t o, index_t in, index_t k, index_t s, index_t p) {
    const index_t start = o * s - p;
    lo = start > 0 ? start : 0;
    hi = start + k < in ? start + k : in;
    if (hi < lo) hi = lo;
  }
};

/*!
 * \brief Output (od, oh, ow) of the plane at xp: the max, or the average rounded half to even
 *        (divisor the whole kernel with count_include_pad, else the clipped window); an empty
 *        window gives 0.
 */
template <typename Q>
MSHADOW_XINLINE Q QPoolAt(const PoolGeom& g, const Q* xp, index_t od, index_t oh, index_t ow) {
  const QPoolSpan wd(od, g.in[0], g.k[0], g.s[0], g.p[0]);
  const QPoolSpan wh(oh, g.in[1], g.k[1], g.s[1], g.p[1]);
  const QPoolSpan ww(ow, g.in[2], g.k[2], g.s[2], g.p[2]);
  constexpr int kNone = -2147483647 - 1;
  int64_t sum = 0;
  int best = kNone;
  for (index_t d = wd.lo; d < wd.hi; ++d)
    for (index_t h = wh.lo; h < wh.hi; ++h)
      for (index_t w = ww.lo; w < ww.hi; ++w) {
        const int v = xp[(d * g.in[1] + h) * g.in[2] + w];
        sum += v;
        best = best < v ? v : best;
      }
  if (g.type == pool_enum::kMax) return best == kNone ? Q(0) : static_cast<Q>(best);
  // With padding counted, every window counts the whole kernel: oneDNN pads the right edge of
  // 'full' windows too (1.9.1's divisor there).
  const index_t count = g.count_include_pad ? g.k[0] * g.k[1] * g.k[2]
                                            : (wd.hi - wd.lo) * (wh.hi - wh.lo) * (ww.hi - ww.lo);
  return count > 0 ? SatRound<Q>(static_cast<double>(sum) / count) : Q(0);
}

/*! \brief One output element i of the (N*C, out[0], out[1], out[2]) output. */
struct quantized_pool {
  template <typename Q>
  MSHADOW_XINLINE static void Map(index_t i, PoolGeom g, const Q* x, Q* y) {
    index_t r = i;
    const index_t ow = r % g.out[2];
    r /= g.out[2];
    const index_t oh = r % g.out[1];
    r /= g.out[1];
    const index_t od = r % g.out[0];
    const index_t pl = r / g.out[0];
    y[i] = QPoolAt(g, x + pl * g.in[0] * g.in[1] * g.in[2], od, oh, ow);
  }
};

/*! \brief The CPU: planes in parallel, the positions of a plane in order. */
template <typename Q>
void QPoolPlanes(mshadow::Stream<cpu>*, const PoolGeom& g, const Q* x, Q* y) {
  const index_t isp = g.in[0] * g.in[1] * g.in[2], osp = g.out[0] * g.out[1] * g.out[2];
#pragma omp parallel for if (g.N * g.C * osp > 16384)
  for (index_t nc = 0; nc < g.N * g.C; ++nc) {
    const Q* xp = x + nc * isp;
    Q* yp = y + nc * osp;
    for (index_t od = 0; od < g.out[0]; ++od)
      for (index_t oh = 0; oh < g.out[1]; ++oh)
        for (index_t ow = 0; ow < g.out[2]; ++ow)
          yp[(od * g.out[1] + oh) * g.out[2] + ow] = QPoolAt(g, xp, od, oh, ow);
  }
}

/*! \brief A device: one thread per output element. */
template <typename xpu, typename Q>
void QPoolPlanes(mshadow::Stream<xpu>* s, const PoolGeom& g, const Q* x, Q* y) {
  const index_t n = g.N * g.C * g.out[0] * g.out[1] * g.out[2];
  mxnet_op::Kernel<quantized_pool, xpu>::Launch(s, n, g, x, y);
}

}  // namespace quant

/*! \brief _contrib_quantized_pooling: inputs data, min_data, max_data; the range passes. */
template <typename xpu>
void QuantizedPoolingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const PoolingParam& p = nnvm::get<PoolingParam>(attrs.parsed);
  const PoolGeom g = MakePoolGeom(p, inputs[0].shape_);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MXNET_QUANT_TYPE_SWITCH(inputs[0].type_flag_, Q, {
    quant::QPoolPlanes(s, g, inputs[0].dptr<Q>(), outputs[0].dptr<Q>());
  });
  mxnet_op::Kernel<quant::copy_range, xpu>::Launch(s, 1, inputs[1].dptr<float>(),
                                                   inputs[2].dptr<float>(),
                                                   outputs[1].dptr<float>(),
                                                   outputs[2].dptr<float>());
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_QUANTIZATION_QUANTIZED_POOLING_INL_H_
