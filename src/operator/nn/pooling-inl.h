/*!
 * \file pooling-inl.h
 * \brief Pooling (max/avg/sum/lp, 1-D/2-D/3-D, global_pool, pooling_convention valid/full/same,
 *        count_include_pad): parameters, shape inference and CPU kernels (oneDNN for float32
 *        max/avg when enabled, else plain loops parallel over the N*C planes).
 *
 * _backward_Pooling: (out_grad, data, output) -> data_grad. Max pooling routes the gradient to
 * the first maximum of each window (recomputed from data).
 */
#ifndef MXNET_OPERATOR_NN_POOLING_INL_H_
#define MXNET_OPERATOR_NN_POOLING_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "../operator_common.h"
#include "./convolution-inl.h"
#include "./dnnl_conv.h"

namespace mxnet {
namespace op {

namespace pool_enum {
enum PoolType { kMax = 0, kAvg = 1, kSum = 2, kLp = 3 };
enum Convention { kValid = 0, kFull = 1, kSame = 2 };
}  // namespace pool_enum

struct PoolingParam : public dmlc::Parameter<PoolingParam> {
  mxnet::TShape kernel;
  int pool_type;
  bool global_pool;
  bool cudnn_off;
  int pooling_convention;
  mxnet::TShape stride;
  mxnet::TShape pad;
  dmlc::optional<int> p_value;
  dmlc::optional<bool> count_include_pad;
  dmlc::optional<int> layout;
  DMLC_DECLARE_PARAMETER(PoolingParam) {
    DMLC_DECLARE_FIELD(kernel).set_default(mxnet::TShape(0, 0))
        .describe("Pooling kernel size: (y, x) or (d, y, x)");
    DMLC_DECLARE_FIELD(pool_type).set_default(pool_enum::kMax)
        .add_enum("max", pool_enum::kMax)
        .add_enum("avg", pool_enum::kAvg)
        .add_enum("sum", pool_enum::kSum)
        .add_enum("lp", pool_enum::kLp)
        .describe("Pooling type to be applied.");
    DMLC_DECLARE_FIELD(global_pool).set_default(false)
        .describe("Ignore kernel size, do global pooling based on current input feature map. ");
    DMLC_DECLARE_FIELD(cudnn_off).set_default(false)
        .describe("Turn off cudnn pooling and use MXNet pooling operator. ");
    DMLC_DECLARE_FIELD(pooling_convention).set_default(pool_enum::kValid)
        .add_enum("full", pool_enum::kFull)
        .add_enum("valid", pool_enum::kValid)
        .add_enum("same", pool_enum::kSame)
        .describe("Pooling convention to be applied.");
    DMLC_DECLARE_FIELD(stride).set_default(mxnet::TShape(0, 0))
        .describe("Stride: for pooling (y, x) or (d, y, x). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(pad).set_default(mxnet::TShape(0, 0))
        .describe("Pad for pooling: (y, x) or (d, y, x). Defaults to no padding.");
    DMLC_DECLARE_FIELD(p_value).set_default(dmlc::optional<int>())
        .describe("Value of p for Lp pooling, can be 1 or 2, required for Lp Pooling.");
    DMLC_DECLARE_FIELD(count_include_pad).set_default(dmlc::optional<bool>())
        .describe("Only used for AvgPool, specify whether to count padding elements for "
                  "averagecalculation. For example, with a 5*5 kernel on a 3*3 corner of a "
                  "image,the sum of the 9 valid elements will be divided by 25 if this is set "
                  "to true,or it will be divided by 9 if this is set to false. Defaults to true.");
    DMLC_DECLARE_FIELD(layout)
        .add_enum("NCW", conv::kNCW)
        .add_enum("NCHW", conv::kNCHW)
        .add_enum("NCDHW", conv::kNCDHW)
        .add_enum("NWC", conv::kNWC)
        .add_enum("NHWC", conv::kNHWC)
        .add_enum("NDHWC", conv::kNDHWC)
        .set_default(dmlc::optional<int>())
        .describe("Set layout for input and output. Empty for default layout: NCW for 1d, "
                  "NCHW for 2d and NCDHW for 3d.");
  }
};

inline void PoolingParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<PoolingParam>(attrs);
  PoolingParam& p = nnvm::get<PoolingParam>(attrs->parsed);
  if (p.kernel.ndim() > 0 || !p.global_pool) {
    if (!p.global_pool && p.kernel.ndim() <= 0) {
      throw dmlc::ParamError("Pooling: kernel is required unless global_pool=True");
    }
    FillConvDefaults("Pooling", p.kernel, &p.stride, nullptr, &p.pad);
  }
  if (p.pool_type == pool_enum::kLp && p.p_value.has_value() && p.p_value.value() < 1) {
    throw dmlc::ParamError("Pooling: p_value must be >= 1 for lp pooling");
  }
}

/*! \brief The pooling geometry for data dshape (kernel/stride/pad resolved for global_pool). */
inline PoolGeom MakePoolGeom(const PoolingParam& p, const mxnet::TShape& dshape) {
  PoolGeom g;
  const int nsp = dshape.ndim() - 2;
  g.nsp = nsp;
  g.N = dshape[0];
  g.C = dshape[1];
  g.type = p.pool_type;
  g.count_include_pad = p.count_include_pad.has_value() ? p.count_include_pad.value() : true;
  for (int i = 0; i < nsp; ++i) {
    const int j = 3 - nsp + i;
    const index_t in = dshape[2 + i];
    g.in[j] = in;
    if (p.global_pool) {
      g.k[j] = in;
      g.s[j] = 1;
      g.p[j] = 0;
      g.out[j] = 1;
      continue;
    }
    g.k[j] = p.kernel[i];
    g.s[j] = p.stride[i];
    g.p[j] = p.pad[i];
    if (p.pooling_convention == pool_enum::kValid) {
      g.out[j] = 1 + (in + 2 * g.p[j] - g.k[j]) / g.s[j];
    } else if (p.pooling_convention == pool_enum::kFull) {
      const index_t span = in + 2 * g.p[j] - g.k[j];
      g.out[j] = 1 + (span + g.s[j] - 1) / g.s[j];
    } else {  // same: ceil(in / stride), padding split to keep the windows centred
      g.out[j] = (in + g.s[j] - 1) / g.s[j];
      const index_t total = std::max<index_t>(0, (g.out[j] - 1) * g.s[j] + g.k[j] - in);
      g.p[j] = total / 2;
    }
  }
  return g;
}

inline bool PoolingShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                         mxnet::ShapeVector* out_shape) {
  const PoolingParam& param = nnvm::get<PoolingParam>(attrs.parsed);
  if (in_shape->size() != 1U) {
    MX_THROW(ValueError) << "Pooling: expected 1 input (data), got " << in_shape->size();
  }
  const mxnet::TShape dshape = (*in_shape)[0];
  if (!ndim_is_known(dshape)) return false;
  const int nsp = dshape.ndim() - 2;
  if (nsp < 1 || nsp > 3) {
    MX_THROW(ValueError) << "Pooling: data must have 3, 4 or 5 dimensions (N, C, spatial...), got "
                         << dshape;
  }
  CheckChannelFirstLayout("Pooling", param.layout, nsp);
  if (!param.global_pool && param.kernel.ndim() != nsp) {
    MX_THROW(ValueError) << "Pooling: kernel " << param.kernel << " has " << param.kernel.ndim()
                         << " dimensions but data " << dshape << " has " << nsp
                         << " spatial dimensions";
  }
  if (param.pooling_convention == pool_enum::kSame &&
      !(nsp == 1 && param.pool_type == pool_enum::kMax)) {
    MX_THROW(NotImplementedError) << "Pooling: pooling_convention='same' is only supported for "
                                  << "1-D max pooling, got data " << dshape;
  }
  if (param.pool_type == pool_enum::kLp && !param.p_value.has_value()) {
    MX_THROW(ValueError) << "Pooling: pool_type='lp' needs p_value";
  }
  mxnet::TShape oshape = dshape;
  if (shape_is_known(dshape)) {
    if (!param.global_pool) {
      for (int i = 0; i < nsp; ++i) {
        if (param.pad[i] >= param.kernel[i]) {
          MX_THROW(ValueError) << "Pooling: pad " << param.pad << " must be smaller than kernel "
                               << param.kernel;
        }
        if (param.pooling_convention != pool_enum::kSame &&
            dshape[2 + i] + 2 * param.pad[i] < param.kernel[i]) {
          MX_THROW(ValueError) << "Pooling: kernel " << param.kernel
                               << " is larger than the padded input: data " << dshape
                               << ", pad " << param.pad;
        }
      }
    }
    const PoolGeom g = MakePoolGeom(param, dshape);
    for (int i = 0; i < nsp; ++i) oshape[2 + i] = g.out[3 - nsp + i];
  } else {
    for (int i = 0; i < nsp; ++i) oshape[2 + i] = -1;
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, oshape);
  return shape_is_known(dshape);
}

namespace pool_detail {

/*! \brief Window of output o along one dim: [start, end) clipped to input, and the
 *         divisor length for count_include_pad (clipped to in + pad only). */
struct Window {
  index_t lo, hi, padded_len;
};

inline Window MakeWindow(index_t o, index_t in, index_t k, index_t s, index_t p) {
  const index_t start = o * s - p;
  const index_t end_padded = std::min(start + k, in + p);
  Window w;
  w.padded_len = end_padded - start;
  w.lo = std::max<index_t>(start, 0);
  w.hi = std::min(start + k, in);
  if (w.hi < w.lo) w.hi = w.lo;
  return w;
}

template <typename AType>
inline AType LpPow(AType v, int p) {
  const AType a = std::abs(v);
  return p == 1 ? a : p == 2 ? a * a : std::pow(a, static_cast<AType>(p));
}

template <typename AType>
inline AType LpRoot(AType v, int p) {
  return p == 1 ? v : p == 2 ? std::sqrt(v) : std::pow(v, AType(1) / static_cast<AType>(p));
}

}  // namespace pool_detail

/*!
 * \brief The common non-overlapping 2x2/stride-2 max pooling without padding (LeNet, VGG,
 *        ResNet stems): rows pairwise, no window bookkeeping. Returns false when not applicable.
 */
template <typename DType>
bool MaxPool2x2Forward(const PoolGeom& g, const DType* x, DType* y, OpReqType req) {
  if (g.type != pool_enum::kMax || req == kAddTo || g.k[0] != 1 || g.in[0] != 1 ||
      g.k[1] != 2 || g.k[2] != 2 || g.s[1] != 2 || g.s[2] != 2 || g.p[1] != 0 || g.p[2] != 0 ||
      g.out[1] * 2 > g.in[1] || g.out[2] * 2 > g.in[2]) {
    return false;
  }
  const index_t IH = g.in[1], IW = g.in[2], OH = g.out[1], OW = g.out[2];
  const index_t rows = g.N * g.C * OH;
#pragma omp parallel for schedule(static) if (rows * OW > 16384)
  for (index_t r = 0; r < rows; ++r) {
    const index_t plane = r / OH, oh = r % OH;
    const DType* r0 = x + (plane * IH + 2 * oh) * IW;
    const DType* r1 = r0 + IW;
    DType* out = y + r * OW;
    for (index_t ow = 0; ow < OW; ++ow) {
      const DType a = r0[2 * ow] > r0[2 * ow + 1] ? r0[2 * ow] : r0[2 * ow + 1];
      const DType b = r1[2 * ow] > r1[2 * ow + 1] ? r1[2 * ow] : r1[2 * ow + 1];
      out[ow] = a > b ? a : b;
    }
  }
  return true;
}

/*! \brief Backward of MaxPool2x2Forward: the gradient goes to the first maximum. */
template <typename DType>
bool MaxPool2x2Backward(const PoolGeom& g, const DType* x, const DType* dy, DType* dx,
                        OpReqType req) {
  if (g.type != pool_enum::kMax || g.k[0] != 1 || g.in[0] != 1 || g.k[1] != 2 ||
      g.k[2] != 2 || g.s[1] != 2 || g.s[2] != 2 || g.p[1] != 0 || g.p[2] != 0 ||
      g.out[1] * 2 > g.in[1] || g.out[2] * 2 > g.in[2]) {
    return false;
  }
  const index_t IH = g.in[1], IW = g.in[2], OH = g.out[1], OW = g.out[2];
  const index_t planes = g.N * g.C;
  const bool add = req == kAddTo;
#pragma omp parallel for schedule(static) if (planes * IH * IW > 16384)
  for (index_t pl = 0; pl < planes; ++pl) {
    DType* dp = dx + pl * IH * IW;
    // Every element of the covered 2*OH x 2*OW block is written below; only the leftover
    // last row/column of odd sizes needs zeros.
    if (!add) {
      for (index_t ih = 0; ih < 2 * OH; ++ih)
        std::fill(dp + ih * IW + 2 * OW, dp + (ih + 1) * IW, DType(0));
      std::fill(dp + 2 * OH * IW, dp + IH * IW, DType(0));
    }
    for (index_t oh = 0; oh < OH; ++oh) {
      const DType* r0 = x + (pl * IH + 2 * oh) * IW;
      const DType* r1 = r0 + IW;
      const DType* gr = dy + (pl * OH + oh) * OW;
      DType* d0 = dp + 2 * oh * IW;
      DType* d1 = d0 + IW;
      for (index_t ow = 0; ow < OW; ++ow) {
        // Branch-free: the maximum, then masks picking its first occurrence (random data
        // makes compare-and-branch code mispredict on every other window).
        const index_t c = 2 * ow;
        const DType a0 = r0[c], a1 = r0[c + 1], a2 = r1[c], a3 = r1[c + 1];
        const DType m01 = a1 > a0 ? a1 : a0, m23 = a3 > a2 ? a3 : a2;
        const DType m = m23 > m01 ? m23 : m01;
        const bool e0 = a0 == m, e1 = !e0 && a1 == m, e2 = !e0 && !e1 && a2 == m;
        const bool e3 = !e0 && !e1 && !e2;
        const DType gv = gr[ow];
        const DType v0 = gv * DType(static_cast<float>(e0));
        const DType v1 = gv * DType(static_cast<float>(e1));
        const DType v2 = gv * DType(static_cast<float>(e2));
        const DType v3 = gv * DType(static_cast<float>(e3));
        if (add) {
          d0[c] += v0;
          d0[c + 1] += v1;
          d1[c] += v2;
          d1[c + 1] += v3;
        } else {
          d0[c] = v0;
          d0[c + 1] = v1;
          d1[c] = v2;
          d1[c + 1] = v3;
        }
      }
    }
  }
  return true;
}

/*! \brief Windows of every output position along the three dims (computed once per call). */
struct PoolWindows {
  std::vector<pool_detail::Window> w[3];
  explicit PoolWindows(const PoolGeom& g) {
    for (int d = 0; d < 3; ++d) {
      w[d].resize(g.out[d]);
      for (index_t o = 0; o < g.out[d]; ++o)
        w[d][o] = pool_detail::MakeWindow(o, g.in[d], g.k[d], g.s[d], g.p[d]);
    }
  }
};

/*! \brief Pooling forward on one dtype; planes (N*C) in parallel. AType accumulates. */
template <typename DType, typename AType>
void PoolForwardNative(const PoolGeom& g, int p_value, const DType* x, DType* y, OpReqType req) {
  using pool_detail::MakeWindow;
  using pool_detail::Window;
  const index_t isp = g.in[0] * g.in[1] * g.in[2], osp = g.out[0] * g.out[1] * g.out[2];
  if (MaxPool2x2Forward(g, x, y, req)) return;
  const PoolWindows win(g);
  const index_t planes = g.N * g.C;
#pragma omp parallel for schedule(static) if (planes * osp * g.k[0] * g.k[1] * g.k[2] > 32768)
  for (index_t pl = 0; pl < planes; ++pl) {
    const DType* xp = x + pl * isp;
    DType* yp = y + pl * osp;
    for (index_t od = 0; od < g.out[0]; ++od) {
      const Window& wd = win.w[0][od];
      for (index_t oh = 0; oh < g.out[1]; ++oh) {
        const Window& wh = win.w[1][oh];
        for (index_t ow = 0; ow < g.out[2]; ++ow) {
          const Window& ww = win.w[2][ow];
          AType acc;
          if (g.type == pool_enum::kMax) {
            acc = std::numeric_limits<AType>::lowest();
            for (index_t id = wd.lo; id < wd.hi; ++id)
              for (index_t ih = wh.lo; ih < wh.hi; ++ih) {
                const DType* row = xp + (id * g.in[1] + ih) * g.in[2];
                for (index_t iw = ww.lo; iw < ww.hi; ++iw) {
                  const AType v = static_cast<AType>(row[iw]);
                  acc = v > acc ? v : acc;
                }
              }
          } else {
            acc = 0;
            for (index_t id = wd.lo; id < wd.hi; ++id)
              for (index_t ih = wh.lo; ih < wh.hi; ++ih) {
                const DType* row = xp + (id * g.in[1] + ih) * g.in[2];
                if (g.type == pool_enum::kLp) {
                  for (index_t iw = ww.lo; iw < ww.hi; ++iw)
                    acc += pool_detail::LpPow(static_cast<AType>(row[iw]), p_value);
                } else {
                  for (index_t iw = ww.lo; iw < ww.hi; ++iw) acc += static_cast<AType>(row[iw]);
                }
              }
            if (g.type == pool_enum::kAvg) {
              const index_t count =
                  g.count_include_pad
                      ? wd.padded_len * wh.padded_len * ww.padded_len
                      : (wd.hi - wd.lo) * (wh.hi - wh.lo) * (ww.hi - ww.lo);
              acc = count > 0 ? acc / static_cast<AType>(count) : AType(0);
            } else if (g.type == pool_enum::kLp) {
              acc = pool_detail::LpRoot(acc, p_value);
            }
          }
          DType& out = yp[(od * g.out[1] + oh) * g.out[2] + ow];
          if (req == kAddTo) out = DType(static_cast<AType>(out) + acc);
          else out = DType(acc);
        }
      }
    }
  }
}

/*! \brief Pooling backward: dx (=|+=) gradient routed from dy through the windows. */
template <typename DType, typename AType>
void PoolBackwardNative(const PoolGeom& g, int p_value, const DType* x, const DType* y,
                        const DType* dy, DType* dx, OpReqType req) {
  using pool_detail::MakeWindow;
  using pool_detail::Window;
  if (req == kNullOp) return;
  if (MaxPool2x2Backward(g, x, dy, dx, req)) return;
  const PoolWindows win(g);
  const index_t isp = g.in[0] * g.in[1] * g.in[2], osp = g.out[0] * g.out[1] * g.out[2];
  const index_t planes = g.N * g.C;
#pragma omp parallel for schedule(static) if (planes * (isp + osp) > 32768)
  for (index_t pl = 0; pl < planes; ++pl) {
    const DType* xp = x + pl * isp;
    const DType* yp = y != nullptr ? y + pl * osp : nullptr;
    const DType* gp = dy + pl * osp;
    DType* dp = dx + pl * isp;
    if (req != kAddTo) std::fill(dp, dp + isp, DType(0));
    for (index_t od = 0; od < g.out[0]; ++od) {
      const Window& wd = win.w[0][od];
      for (index_t oh = 0; oh < g.out[1]; ++oh) {
        const Window& wh = win.w[1][oh];
        for (index_t ow = 0; ow < g.out[2]; ++ow) {
          const Window& ww = win.w[2][ow];
          const index_t oidx = (od * g.out[1] + oh) * g.out[2] + ow;
          const AType grad = static_cast<AType>(gp[oidx]);
          if (g.type == pool_enum::kMax) {
            AType best = std::numeric_limits<AType>::lowest();
            index_t best_idx = -1;
            for (index_t id = wd.lo; id < wd.hi; ++id)
              for (index_t ih = wh.lo; ih < wh.hi; ++ih)
                for (index_t iw = ww.lo; iw < ww.hi; ++iw) {
                  const index_t idx = (id * g.in[1] + ih) * g.in[2] + iw;
                  const AType v = static_cast<AType>(xp[idx]);
                  if (best_idx < 0 || v > best) {
                    best = v;
                    best_idx = idx;
                  }
                }
            if (best_idx >= 0) dp[best_idx] = DType(static_cast<AType>(dp[best_idx]) + grad);
            continue;
          }
          AType scale = 1;
          if (g.type == pool_enum::kAvg) {
            const index_t count =
                g.count_include_pad ? wd.padded_len * wh.padded_len * ww.padded_len
                                    : (wd.hi - wd.lo) * (wh.hi - wh.lo) * (ww.hi - ww.lo);
            scale = count > 0 ? AType(1) / static_cast<AType>(count) : AType(0);
          }
          const AType yv = yp != nullptr ? static_cast<AType>(yp[oidx]) : AType(0);
          for (index_t id = wd.lo; id < wd.hi; ++id)
            for (index_t ih = wh.lo; ih < wh.hi; ++ih)
              for (index_t iw = ww.lo; iw < ww.hi; ++iw) {
                const index_t idx = (id * g.in[1] + ih) * g.in[2] + iw;
                AType gi = grad * scale;
                if (g.type == pool_enum::kLp) {
                  // d/dx (sum |x|^p)^(1/p) = (x / y)^(p-1) (MXNet's formula)
                  const AType xv = static_cast<AType>(xp[idx]);
                  gi = yv == AType(0) ? AType(0)
                                      : grad * (p_value == 1 ? AType(1)
                                                             : std::pow(xv / yv, AType(p_value - 1)));
                }
                dp[idx] = DType(static_cast<AType>(dp[idx]) + gi);
              }
        }
      }
    }
  }
}

template <typename xpu>
void PoolingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const PoolingParam& param = nnvm::get<PoolingParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  const PoolGeom g = MakePoolGeom(param, inputs[0].shape_);
  const int p_value = param.p_value.has_value() ? param.p_value.value() : 2;
  const int dtype = inputs[0].type_flag_;
  // The native 2x2 max kernel beats oneDNN (no reorders); other cases go to oneDNN first.
  if (dtype == mshadow::kFloat32 && req[0] != kAddTo) {
    if (MaxPool2x2Forward(g, inputs[0].dptr<float>(), outputs[0].dptr<float>(), req[0])) return;
    if (DnnlPoolForward(g, inputs[0].dptr<float>(), outputs[0].dptr<float>())) return;
  }
  switch (dtype) {
    case mshadow::kFloat32:
      PoolForwardNative<float, float>(g, p_value, inputs[0].dptr<float>(),
                                      outputs[0].dptr<float>(), req[0]);
      break;
    case mshadow::kFloat64:
      PoolForwardNative<double, double>(g, p_value, inputs[0].dptr<double>(),
                                        outputs[0].dptr<double>(), req[0]);
      break;
    case mshadow::kFloat16:
      PoolForwardNative<mshadow::half::half_t, float>(
          g, p_value, inputs[0].dptr<mshadow::half::half_t>(),
          outputs[0].dptr<mshadow::half::half_t>(), req[0]);
      break;
    default:
      MX_THROW(TypeError) << "Pooling: unsupported dtype " << type_string(dtype);
  }
}

/*! \brief inputs: out_grad, data, output; outputs: data_grad. */
template <typename xpu>
void PoolingGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const PoolingParam& param = nnvm::get<PoolingParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  const PoolGeom g = MakePoolGeom(param, inputs[1].shape_);
  const int p_value = param.p_value.has_value() ? param.p_value.value() : 2;
  const int dtype = inputs[0].type_flag_;
  if (dtype == mshadow::kFloat32 && req[0] != kAddTo) {
    const float* x = inputs[1].dptr<float>();
    const float* dy = inputs[0].dptr<float>();
    float* dx = outputs[0].dptr<float>();
    if (MaxPool2x2Backward(g, x, dy, dx, req[0])) return;
    // oneDNN's max-pooling backward needs the forward's argmax workspace, which a separate
    // backward op has to recompute: the native kernel is faster there.
    if (g.type != pool_enum::kMax && DnnlPoolBackward(g, x, dy, dx)) return;
  }
  switch (dtype) {
    case mshadow::kFloat32:
      PoolBackwardNative<float, float>(g, p_value, inputs[1].dptr<float>(),
                                       inputs[2].dptr<float>(), inputs[0].dptr<float>(),
                                       outputs[0].dptr<float>(), req[0]);
      break;
    case mshadow::kFloat64:
      PoolBackwardNative<double, double>(g, p_value, inputs[1].dptr<double>(),
                                         inputs[2].dptr<double>(), inputs[0].dptr<double>(),
                                         outputs[0].dptr<double>(), req[0]);
      break;
    case mshadow::kFloat16: {
      using mshadow::half::half_t;
      PoolBackwardNative<half_t, float>(g, p_value, inputs[1].dptr<half_t>(),
                                        inputs[2].dptr<half_t>(), inputs[0].dptr<half_t>(),
                                        outputs[0].dptr<half_t>(), req[0]);
      break;
    }
    default:
      MX_THROW(TypeError) << "_backward_Pooling: unsupported dtype " << type_string(dtype);
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_POOLING_INL_H_
