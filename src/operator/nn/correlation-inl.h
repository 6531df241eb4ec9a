/*!
 * \file correlation-inl.h
 * \brief Correlation (FlowNet's correlation layer): parameters, sizes and the kernels for every
 *        device (correlation.cc registers the CPU, correlation.cu the GPU).
 *
 *   data1, data2: (N, C, H, W), both zero-padded by pad_size on each side. With r = kernel
 *   radius, R = max_displacement / stride2 and G = 2R + 1, the output is (N, G*G, out_h, out_w),
 *   out_h = ceil((H + 2 pad - 2 (max_displacement + r)) / stride1) (and out_w alike), and
 *
 *     out[n, (p+R)*G + (q+R), i, j] = 1/(k*k*C) * sum_{c, dy, dx < k}
 *         f(data1[n, c, y1 + dy, x1 + dx], data2[n, c, y1 + p*stride2 + dy, x1 + q*stride2 + dx])
 *
 *   in padded coordinates, y1 = i*stride1 + max_displacement, x1 = j*stride1 + max_displacement,
 *   p, q in [-R, R], f(a, b) = a*b (is_multiply) or |a - b|.
 *
 * Both inputs are first copied (in double) to padded channels-last buffers in temporary space,
 * so that the innermost sum over channels reads contiguous memory. The forward is one thread
 * per output element (a CPU thread interleaves the channel sums of 4 neighbouring elements, each
 * in its own order, so the bits are the same); the gradient one thread per input element (on the CPU one item per block
 * of channels of an input position), gathering over the output
 * positions and displacements that read it (in the order a scatter over them would add), so
 * no atomics.
 */
#ifndef MXNET_OPERATOR_NN_CORRELATION_INL_H_
#define MXNET_OPERATOR_NN_CORRELATION_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./spatial_kernel_util-inl.h"

namespace mxnet {
namespace op {

struct CorrelationParam : public dmlc::Parameter<CorrelationParam> {
  int kernel_size;
  int max_displacement;
  int stride1;
  int stride2;
  int pad_size;
  bool is_multiply;
  DMLC_DECLARE_PARAMETER(CorrelationParam) {
    DMLC_DECLARE_FIELD(kernel_size).set_default(1).set_lower_bound(0)
        .describe("kernel size for Correlation must be an odd number");
    DMLC_DECLARE_FIELD(max_displacement).set_default(1).set_lower_bound(0)
        .describe("Max displacement of Correlation ");
    DMLC_DECLARE_FIELD(stride1).set_default(1).set_lower_bound(0)
        .describe("stride1 quantize data1 globally");
    DMLC_DECLARE_FIELD(stride2).set_default(1).set_lower_bound(0)
        .describe("stride2 quantize data2 within the neighborhood centered around data1");
    DMLC_DECLARE_FIELD(pad_size).set_default(0).set_lower_bound(0)
        .describe("pad for Correlation");
    DMLC_DECLARE_FIELD(is_multiply).set_default(true)
        .describe("operation type is either multiplication or subduction");
  }
};

/*! \brief Sizes of one call, derived from the parameters and the data shape. */
struct CorrDims {
  index_t N, C, H, W;      // data
  index_t PH, PW;          // padded data
  index_t out_h, out_w;    // output spatial size
  index_t radius, grid;    // displacement radius R (in stride2 steps) and grid width 2R + 1
  index_t k, maxd, s1, s2, pad;
  bool mult;
  double norm;             // 1 / (k * k * C)
};

inline CorrDims MakeCorrDims(const CorrelationParam& p, const mxnet::TShape& s) {
  if (p.kernel_size % 2 == 0) {
    MX_THROW(ValueError) << "Correlation: kernel_size must be an odd number, got "
                         << p.kernel_size;
  }
  if (p.stride1 < 1 || p.stride2 < 1) {
    MX_THROW(ValueError) << "Correlation: stride1 and stride2 must be at least 1, got stride1="
                         << p.stride1 << " stride2=" << p.stride2;
  }
  if (s.ndim() != 4) {
    MX_THROW(ValueError) << "Correlation: expected data of shape (batch, channel, height, "
                         << "width), got " << s;
  }
  CorrDims d;
  d.N = s[0];
  d.C = s[1];
  d.H = s[2];
  d.W = s[3];
  d.PH = d.H + 2 * p.pad_size;
  d.PW = d.W + 2 * p.pad_size;
  const index_t border = p.max_displacement + (p.kernel_size - 1) / 2;
  const index_t span_h = d.PH - 2 * border, span_w = d.PW - 2 * border;
  if (span_h < 1 || span_w < 1) {
    MX_THROW(ValueError) << "Correlation: data " << s << " padded by " << p.pad_size
                         << " is too small for max_displacement=" << p.max_displacement
                         << " and kernel_size=" << p.kernel_size << " (each padded spatial "
                         << "size must exceed 2 * " << border << ")";
  }
  d.out_h = (span_h + p.stride1 - 1) / p.stride1;
  d.out_w = (span_w + p.stride1 - 1) / p.stride1;
  d.radius = p.max_displacement / p.stride2;
  d.grid = 2 * d.radius + 1;
  d.k = p.kernel_size;
  d.maxd = p.max_displacement;
  d.s1 = p.stride1;
  d.s2 = p.stride2;
  d.pad = p.pad_size;
  d.mult = p.is_multiply;
  d.norm = 1.0 / (static_cast<double>(p.kernel_size) * p.kernel_size * d.C);
  return d;
}

/*! \brief floor(a / b) and ceil(a / b) for b > 0. */
MSHADOW_XINLINE index_t CorrFloorDiv(index_t a, index_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
MSHADOW_XINLINE index_t CorrCeilDiv(index_t a, index_t b) { return -CorrFloorDiv(-a, b); }

/*! \brief Element i = (n, py, px, c) of the padded channels-last copy (PH, PW, C) of x. */
struct corr_pad_nhwc {
  /*! \brief Elements [start, start + length), the coordinates walked with counters. */
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, const DType* x, double* buf,
                                  CorrDims d) {
    index_t c = start % d.C, px = (start / d.C) % d.PW, py = (start / (d.C * d.PW)) % d.PH;
    index_t n = start / (d.C * d.PW * d.PH);
    for (index_t i = start; i < start + length; ++i) {
      const index_t y = py - d.pad, xx = px - d.pad;
      buf[i] = y >= 0 && y < d.H && xx >= 0 && xx < d.W
                   ? static_cast<double>(x[((n * d.C + c) * d.H + y) * d.W + xx])
                   : 0.0;
      if (++c == d.C) {
        c = 0;
        if (++px == d.PW) {
          px = 0;
          if (++py == d.PH) {
            py = 0;
            ++n;
          }
        }
      }
    }
  }
};

/*!
 * \brief Output element i = (n, displacement, oi, oj). The CPU's chunks take B = 4 neighbouring
 *        elements at a time, their channel sums interleaved (independent chains, each summed in
 *        the same order as alone); a GPU thread takes one.
 */
struct corr_forward {
  /*! \brief Offsets into the padded buffers of output element i's two kernel windows. */
  MSHADOW_XINLINE static void Origins(index_t i, const CorrDims& d, index_t* ia, index_t* ib) {
    const index_t oj = i % d.out_w, oi = (i / d.out_w) % d.out_h;
    const index_t ch = (i / (d.out_w * d.out_h)) % (d.grid * d.grid);
    const index_t n = i / (d.out_w * d.out_h * d.grid * d.grid);
    const index_t dp = ch / d.grid - d.radius, dq = ch % d.grid - d.radius;
    const index_t y1 = oi * d.s1 + d.maxd, x1 = oj * d.s1 + d.maxd;
    const index_t y2 = y1 + dp * d.s2, x2 = x1 + dq * d.s2;
    *ia = n * d.PH * d.PW * d.C + (y1 * d.PW + x1) * d.C;
    *ib = n * d.PH * d.PW * d.C + (y2 * d.PW + x2) * d.C;
  }
  template <int B, typename DType>
  MSHADOW_XINLINE static void Block(index_t i, const double* a, const double* b, DType* out,
                                    const CorrDims& d, int req) {
    index_t ia[B], ib[B];
    double acc[B];
    for (int j = 0; j < B; ++j) {
      Origins(i + j, d, &ia[j], &ib[j]);
      acc[j] = 0;
    }
    for (index_t dy = 0; dy < d.k; ++dy) {
      for (index_t dx = 0; dx < d.k; ++dx) {
        const index_t off = (dy * d.PW + dx) * d.C;
        const double* pa[B];
        const double* pb[B];
        double s[B];
        for (int j = 0; j < B; ++j) {
          pa[j] = a + ia[j] + off;
          pb[j] = b + ib[j] + off;
          s[j] = 0;
        }
        if (d.mult) {
          for (index_t c = 0; c < d.C; ++c)
            for (int j = 0; j < B; ++j) s[j] += pa[j][c] * pb[j][c];
        } else {
          for (index_t c = 0; c < d.C; ++c)
            for (int j = 0; j < B; ++j) s[j] += fabs(pa[j][c] - pb[j][c]);
        }
        for (int j = 0; j < B; ++j) acc[j] += s[j];
      }
    }
    for (int j = 0; j < B; ++j) SpAssignDouble(out + i + j, req, acc[j] * d.norm);
  }
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t start, index_t length, const double* a,
                                  const double* b, DType* out, CorrDims d, int req) {
    const index_t end = start + length;
    index_t i = start;
    for (; i + 4 <= end; i += 4) Block<4>(i, a, b, out, d, req);
    for (; i < end; ++i) Block<1>(i, a, b, out, d, req);
  }
};

/*!
 * \brief Gradient item i = (n, y, x, cb) (unpadded) of data1 (second = false) or data2
 *        (second = true), for the kBlock channels of block cb: each the sum over the (output
 *        position, displacement) pairs whose kernel window covers it, in output-position then
 *        displacement order (the order of a scatter over the pairs).
 */
template <int kBlock>
struct corr_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* ograd, const double* a,
                                  const double* b, DType* grad, CorrDims d, bool second,
                                  int req) {
    const index_t nb = (d.C + kBlock - 1) / kBlock;
    const index_t cb = i % nb, x = (i / nb) % d.W, y = (i / (nb * d.W)) % d.H;
    const index_t n = i / (nb * d.W * d.H);
    const index_t c0 = cb * kBlock, nc = SpMin<index_t>(kBlock, d.C - c0);
    const index_t Y = y + d.pad, X = x + d.pad;  // padded coordinates
    const double* an = a + n * d.PH * d.PW * d.C + c0;
    const double* bn = b + n * d.PH * d.PW * d.C + c0;
    const DType* g = ograd + n * d.grid * d.grid * d.out_h * d.out_w;
    // Output rows whose window can reach row Y: data1 is read at y1 + dy, data2 at
    // y1 + dp*stride2 + dy (dy < k, |dp| <= R).
    const index_t reach = second ? d.radius * d.s2 : 0;
    const index_t i_lo = SpMax<index_t>(CorrCeilDiv(Y - d.maxd - reach - (d.k - 1), d.s1), 0);
    const index_t i_hi = SpMin<index_t>(CorrFloorDiv(Y - d.maxd + reach, d.s1), d.out_h - 1);
    const index_t j_lo = SpMax<index_t>(CorrCeilDiv(X - d.maxd - reach - (d.k - 1), d.s1), 0);
    const index_t j_hi = SpMin<index_t>(CorrFloorDiv(X - d.maxd + reach, d.s1), d.out_w - 1);
    double acc[kBlock];
    for (index_t cc = 0; cc < nc; ++cc) acc[cc] = 0;
    for (index_t oi = i_lo; oi <= i_hi; ++oi) {
      const index_t y1 = oi * d.s1 + d.maxd;
      for (index_t oj = j_lo; oj <= j_hi; ++oj) {
        const index_t x1 = oj * d.s1 + d.maxd;
        for (index_t dp = -d.radius; dp <= d.radius; ++dp) {
          // The kernel row of this pair that lands on Y (data1: y1 + dy, data2: y2 + dy).
          const index_t dy = second ? Y - y1 - dp * d.s2 : Y - y1;
          if (dy < 0 || dy >= d.k) continue;
          for (index_t dq = -d.radius; dq <= d.radius; ++dq) {
            const index_t dx = second ? X - x1 - dq * d.s2 : X - x1;
            if (dx < 0 || dx >= d.k) continue;
            const index_t ch = (dp + d.radius) * d.grid + (dq + d.radius);
            const double go =
                static_cast<double>(g[(ch * d.out_h + oi) * d.out_w + oj]) * d.norm;
            if (go == 0) continue;
            const double* pa = an + ((y1 + dy) * d.PW + x1 + dx) * d.C;
            const double* pb = bn + ((y1 + dp * d.s2 + dy) * d.PW + x1 + dq * d.s2 + dx) * d.C;
            if (d.mult) {
              const double* other = second ? pa : pb;
              for (index_t cc = 0; cc < nc; ++cc) acc[cc] += go * other[cc];
            } else {
              for (index_t cc = 0; cc < nc; ++cc) {
                const double diff = pa[cc] - pb[cc];
                const double s = diff > 0 ? go : (diff < 0 ? -go : 0.0);
                if (second) {
                  acc[cc] -= s;
                } else {
                  acc[cc] += s;
                }
              }
            }
          }
        }
      }
    }
    for (index_t cc = 0; cc < nc; ++cc) {
      SpAssignDouble(grad + ((n * d.C + c0 + cc) * d.H + y) * d.W + x, req, acc[cc]);
    }
  }
};

/*! \brief The padded channels-last double copies of data1 and data2 in temporary space. */
template <typename xpu>
void CorrPadInputs(const OpContext& ctx, const TBlob& data1, const TBlob& data2,
                   const CorrDims& d, double** a, double** b) {
  const index_t n = d.N * d.PH * d.PW * d.C;
  double* ws = ctx.requested[0].get_space_typed_ptr<double>(2 * n);
  *a = ws;
  *b = ws + n;
  MSHADOW_REAL_TYPE_SWITCH(data1.type_flag_, DType, {
    mxnet_op::Kernel<corr_pad_nhwc, xpu>::LaunchEx(ctx.get_stream<xpu>(), n,
                                                   data1.dptr<DType>(), *a, d);
    mxnet_op::Kernel<corr_pad_nhwc, xpu>::LaunchEx(ctx.get_stream<xpu>(), n,
                                                   data2.dptr<DType>(), *b, d);
  });
}

template <typename xpu>
void CorrelationForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const CorrelationParam& p = nnvm::get<CorrelationParam>(attrs.parsed);
  const CorrDims d = MakeCorrDims(p, inputs[0].shape_);
  double *a, *b;
  CorrPadInputs<xpu>(ctx, inputs[0], inputs[1], d, &a, &b);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<corr_forward, xpu>::LaunchEx(ctx.get_stream<xpu>(), outputs[0].Size(), a,
                                                  b, outputs[0].dptr<DType>(), d,
                                                  static_cast<int>(req[0]));
  });
}

/*! \brief inputs: out_grad, data1, data2; outputs: data1_grad, data2_grad. */
template <typename xpu>
void CorrelationBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if ((req[0] == kNullOp && req[1] == kNullOp) || inputs[1].Size() == 0) return;
  const CorrelationParam& p = nnvm::get<CorrelationParam>(attrs.parsed);
  const CorrDims d = MakeCorrDims(p, inputs[1].shape_);
  double *a, *b;
  CorrPadInputs<xpu>(ctx, inputs[1], inputs[2], d, &a, &b);
  constexpr int kBlock = SpChannelBlock<xpu>::value;
  const index_t items = d.N * d.H * d.W * ((d.C + kBlock - 1) / kBlock);
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    for (int which = 0; which < 2; ++which) {
      if (req[which] == kNullOp) continue;
      LaunchGrouped<corr_backward<kBlock>>(
          ctx.get_stream<xpu>(), items, 1, inputs[0].dptr<DType>(),
          static_cast<const double*>(a), static_cast<const double*>(b),
          outputs[which].dptr<DType>(), d, which == 1, static_cast<int>(req[which]));
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_CORRELATION_INL_H_
