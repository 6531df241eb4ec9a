/*!
 * \file upsampling-inl.h
 * \brief UpSampling of NCHW data.
 *
 * nearest: inputs arg0..arg{num_args-1}; the output is (N, C, scale*H0, scale*W0) and input i
 *   is repeated s_i = scale*H0/H_i times along H and W (s_i must be a whole number, the same
 *   for H and W). multi_input_mode 'concat' stacks the inputs' channels, 'sum' adds them
 *   (same channel count). Backward: each input gets the sum of its s_i x s_i output block.
 * bilinear: inputs (data, weight), weight (C, 1, k, k) with k = 2*scale - scale%2, C the data
 *   channels = num_filter: a per-channel transposed convolution with stride `scale` and pad
 *   ceil((scale-1)/2), output (N, C, scale*H, scale*W) (the weight usually holds the bilinear
 *   kernel from mx.init.Bilinear).
 *
 * _backward_UpSampling inputs: (out_grad, the forward inputs...); outputs: one gradient per
 * forward input (the forward inputs give the gradient shapes).
 *
 * The kernels serve both devices: one thread per output element for the forward passes and
 * per input element for the data gradients (gathers, no atomics); upsampling.cu registers the
 * GPU's and its bilinear weight gradient.
 */
#ifndef MXNET_OPERATOR_NN_UPSAMPLING_INL_H_
#define MXNET_OPERATOR_NN_UPSAMPLING_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace up_enum {
enum UpSamplingType { kNearest, kBilinear };
enum UpSamplingMultiInputMode { kConcat, kSum };
}  // namespace up_enum

struct UpSamplingParam : public dmlc::Parameter<UpSamplingParam> {
  int scale;
  int num_filter;
  int sample_type;
  int num_args;
  int multi_input_mode;
  uint64_t workspace;
  DMLC_DECLARE_PARAMETER(UpSamplingParam) {
    DMLC_DECLARE_FIELD(scale).set_lower_bound(1).describe("Up sampling scale");
    DMLC_DECLARE_FIELD(num_filter).set_default(0).describe(
        "Input filter. Only used by bilinear sample_type. Since bilinear upsampling uses "
        "deconvolution, num_filters is set to the number of channels.");
    DMLC_DECLARE_FIELD(sample_type)
        .add_enum("nearest", up_enum::kNearest)
        .add_enum("bilinear", up_enum::kBilinear)
        .describe("upsampling method");
    DMLC_DECLARE_FIELD(multi_input_mode)
        .add_enum("concat", up_enum::kConcat)
        .add_enum("sum", up_enum::kSum)
        .set_default(up_enum::kConcat)
        .describe("How to handle multiple input. concat means concatenate upsampled images "
                  "along the channel dimension. sum means add all images together, only "
                  "available for nearest neighbor upsampling.");
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1).describe(
        "Number of inputs to be upsampled. For nearest neighbor upsampling, this can be 1-N; "
        "the size of output will be(scale*h_0,scale*w_0) and all other inputs will be "
        "upsampled to the same size. For bilinear upsampling this must be 2; 1 input and 1 "
        "weight.");
    DMLC_DECLARE_FIELD(workspace).set_default(512).describe(
        "Tmp workspace for deconvolution (MB)");
  }
};

inline int UpSamplingNumInputs(const UpSamplingParam& p) {
  return p.sample_type == up_enum::kNearest ? p.num_args : 2;
}

/*! \brief Bilinear kernel size and padding for `scale`. */
inline int BilinearKernel(int scale) { return 2 * scale - scale % 2; }
inline int BilinearPad(int scale) { return scale / 2; }  // = ceil((scale - 1) / 2)

inline bool UpSamplingShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                            mxnet::ShapeVector* out_shape) {
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  const int nin = UpSamplingNumInputs(param);
  if (static_cast<int>(in_shape->size()) != nin) {
    MX_THROW(ValueError) << "UpSampling: expected " << nin << " inputs, got " << in_shape->size();
  }
  const mxnet::TShape d0 = (*in_shape)[0];
  if (!ndim_is_known(d0)) return false;
  if (d0.ndim() != 4) {
    MX_THROW(ValueError) << "UpSampling: expected 4-D input (batch, channel, y, x), got " << d0;
  }
  if (!shape_is_known(d0)) return false;
  const int64_t oh = d0[2] * param.scale, ow = d0[3] * param.scale;
  mxnet::TShape oshape(4, -1);
  oshape[0] = d0[0];
  oshape[2] = oh;
  oshape[3] = ow;
  if (param.sample_type == up_enum::kBilinear) {
    const int k = BilinearKernel(param.scale);
    if (param.num_filter != 0 && param.num_filter != d0[1]) {
      MX_THROW(ValueError) << "UpSampling(bilinear): num_filter=" << param.num_filter
                           << " must equal the data channels " << d0[1] << " (data " << d0
                           << ")";
    }
    mxnet::TShape wshape(4, 1);
    wshape[0] = d0[1];
    wshape[2] = k;
    wshape[3] = k;
    const mxnet::TShape& given = (*in_shape)[1];
    if (ndim_is_known(given) && shape_is_known(given) && given != wshape) {
      MX_THROW(ValueError) << "UpSampling(bilinear): expected weight of shape " << wshape
                           << " for data " << d0 << " and scale " << param.scale << ", got "
                           << given;
    }
    SHAPE_ASSIGN_CHECK(*in_shape, 1, wshape);
    oshape[1] = d0[1];
  } else {
    int64_t channels = 0;
    for (int i = 0; i < nin; ++i) {
      const mxnet::TShape& s = (*in_shape)[i];
      if (!shape_is_known(s)) return false;
      if (s.ndim() != 4 || s[0] != d0[0]) {
        MX_THROW(ValueError) << "UpSampling: input " << i << " has shape " << s
                             << ", expected 4-D with batch size " << d0[0];
      }
      if (s[2] == 0 || s[3] == 0 || oh % s[2] != 0 || ow % s[3] != 0 ||
          oh / s[2] != ow / s[3]) {
        MX_THROW(ValueError) << "UpSampling: input " << i << " of shape " << s
                             << " cannot be upsampled by a whole factor to the output size ("
                             << oh << ", " << ow << ") (same factor on y and x)";
      }
      if (param.multi_input_mode == up_enum::kSum) {
        if (channels != 0 && channels != s[1]) {
          MX_THROW(ValueError) << "UpSampling: multi_input_mode='sum' needs the same channel "
                               << "count in every input, got " << channels << " and " << s[1];
        }
        channels = s[1];
      } else {
        channels += s[1];
      }
    }
    oshape[1] = channels;
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, oshape);
  return true;
}

inline bool UpSamplingType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                           std::vector<int>* out_type) {
  int dtype = (*in_type)[0];
  if (dtype < 0) return false;
  if (!mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << "UpSampling: expected floating-point data "
                           "(float16, bfloat16, float32 or float64), got "
                        << mshadow::dtype_string(dtype);
  }
  for (size_t i = 0; i < in_type->size(); ++i) TYPE_ASSIGN_CHECK(*in_type, i, dtype);
  TYPE_ASSIGN_CHECK(*out_type, 0, dtype);
  return true;
}

/*! \brief NCHW extents of one tensor. */
struct UpDims {
  index_t n, c, h, w;
};

inline UpDims UpDimsOf(const TBlob& b) {
  return UpDims{b.shape_[0], b.shape_[1], b.shape_[2], b.shape_[3]};
}

/*!
 * \brief Output element (n, c0 + c, oy, ox) for every element of input x (channels C): writes
 *        (req) or adds the repeated value. `o` is the output's extent.
 */
struct up_nearest_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, UpDims o, const DType* x, UpDims in,
                                  index_t c0, index_t scale, int req) {
    const index_t ox = i % o.w, oy = (i / o.w) % o.h;
    const index_t c = (i / (o.w * o.h)) % in.c, n = i / (o.w * o.h * in.c);
    const DType v = x[((n * in.c + c) * in.h + oy / scale) * in.w + ox / scale];
    KERNEL_ASSIGN(y[((n * o.c + c0 + c) * o.h + oy) * o.w + ox], req, v);
  }
};

/*! \brief Input element (n, c, iy, ix): the sum of its scale x scale block of out_grad. */
struct up_nearest_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, UpDims in, const DType* og, UpDims o,
                                  index_t c0, index_t scale, int req) {
    const index_t ix = i % in.w, iy = (i / in.w) % in.h;
    const index_t c = (i / (in.w * in.h)) % in.c, n = i / (in.w * in.h * in.c);
    const DType* plane = og + (n * o.c + c0 + c) * o.h * o.w;
    double acc = 0;
    for (index_t dy = 0; dy < scale; ++dy) {
      for (index_t dxx = 0; dxx < scale; ++dxx) {
        acc += static_cast<double>(plane[(iy * scale + dy) * o.w + ix * scale + dxx]);
      }
    }
    KERNEL_ASSIGN(dx[i], req, DType(acc));
  }
};

/*! \brief out[n,c,oy,ox] = sum x[n,c,iy,ix] * w[c, oy + p - iy*s, ox + p - ix*s]. */
struct up_bilinear_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, UpDims o, const DType* x, UpDims in,
                                  const DType* w, index_t s, index_t k, index_t p, int req) {
    const index_t ox = i % o.w, oy = (i / o.w) % o.h, nc = i / (o.w * o.h);
    const index_t c = nc % in.c;
    const DType* xp = x + nc * in.h * in.w;
    const DType* wp = w + c * k * k;
    const index_t iy_hi = (oy + p) / s < in.h - 1 ? (oy + p) / s : in.h - 1;
    const index_t ix_hi = (ox + p) / s < in.w - 1 ? (ox + p) / s : in.w - 1;
    double v = 0;
    for (index_t iy = iy_hi; iy >= 0; --iy) {
      const index_t ky = oy + p - iy * s;
      if (ky >= k) break;
      for (index_t ix = ix_hi; ix >= 0; --ix) {
        const index_t kx = ox + p - ix * s;
        if (kx >= k) break;
        v += static_cast<double>(xp[iy * in.w + ix]) * static_cast<double>(wp[ky * k + kx]);
      }
    }
    KERNEL_ASSIGN(y[i], req, DType(v));
  }
};

/*! \brief dx[n,c,iy,ix] = sum over the kernel of og[n,c,iy*s-p+ky,ix*s-p+kx] * w[c,ky,kx]. */
struct up_bilinear_backward_data {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, UpDims in, const DType* og, UpDims o,
                                  const DType* w, index_t s, index_t k, index_t p, int req) {
    const index_t ix = i % in.w, iy = (i / in.w) % in.h, nc = i / (in.w * in.h);
    const DType* gp = og + nc * o.h * o.w;
    const DType* wp = w + (nc % in.c) * k * k;
    double acc = 0;
    for (index_t ky = 0; ky < k; ++ky) {
      const index_t oy = iy * s - p + ky;
      if (oy < 0 || oy >= o.h) continue;
      for (index_t kx = 0; kx < k; ++kx) {
        const index_t ox = ix * s - p + kx;
        if (ox < 0 || ox >= o.w) continue;
        acc += static_cast<double>(gp[oy * o.w + ox]) * static_cast<double>(wp[ky * k + kx]);
      }
    }
    KERNEL_ASSIGN(dx[i], req, DType(acc));
  }
};

/*! \brief Bilinear weight gradient, dw[c, ky, kx] = sum over n, iy, ix of
 *         og[n, c, iy*s - p + ky, ix*s - p + kx] * x[n, c, iy, ix]: loops on the CPU, one block
 *         per weight element on a GPU (upsampling.cu). */
template <typename DType>
void UpSamplingBilinearWeightGrad(mshadow::Stream<cpu>*, const UpSamplingParam& param,
                                  const TBlob& ograd, const TBlob& data, const TBlob& dweight,
                                  OpReqType req_weight) {
  const index_t N = data.shape_[0], C = data.shape_[1], H = data.shape_[2], W = data.shape_[3];
  const index_t OH = ograd.shape_[2], OW = ograd.shape_[3];
  const index_t s = param.scale, k = BilinearKernel(param.scale), p = BilinearPad(param.scale);
  const DType* og = ograd.dptr<DType>();
  const DType* x = data.dptr<DType>();
  if (req_weight != kNullOp) {
    DType* dw = dweight.dptr<DType>();
#pragma omp parallel for if (N * C * H * W * k * k >= mxnet_op::kOmpThreshold)
    for (index_t c = 0; c < C; ++c) {
      for (index_t ky = 0; ky < k; ++ky) {
        for (index_t kx = 0; kx < k; ++kx) {
          double acc = 0;
          for (index_t n = 0; n < N; ++n) {
            const DType* xp = x + (n * C + c) * H * W;
            const DType* gp = og + (n * C + c) * OH * OW;
            for (index_t iy = 0; iy < H; ++iy) {
              const index_t oy = iy * s - p + ky;
              if (oy < 0 || oy >= OH) continue;
              for (index_t ix = 0; ix < W; ++ix) {
                const index_t ox = ix * s - p + kx;
                if (ox < 0 || ox >= OW) continue;
                acc += static_cast<double>(gp[oy * OW + ox]) * static_cast<double>(xp[iy * W + ix]);
              }
            }
          }
          KERNEL_ASSIGN(dw[(c * k + ky) * k + kx], req_weight, DType(acc));
        }
      }
    }
  }
}
#if MXNET_USE_CUDA
template <typename DType>
void UpSamplingBilinearWeightGrad(mshadow::Stream<gpu>* s, const UpSamplingParam& param,
                                  const TBlob& ograd, const TBlob& data, const TBlob& dweight,
                                  OpReqType req_weight);
#endif

template <typename xpu>
void UpSamplingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  using mxnet_op::Kernel;
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const UpDims o = UpDimsOf(outputs[0]);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* y = outputs[0].dptr<DType>();
    if (param.sample_type == up_enum::kBilinear) {
      Kernel<up_bilinear_forward, xpu>::Launch(
          s, outputs[0].Size(), y, o, inputs[0].dptr<DType>(), UpDimsOf(inputs[0]),
          inputs[1].dptr<DType>(), static_cast<index_t>(param.scale),
          static_cast<index_t>(BilinearKernel(param.scale)),
          static_cast<index_t>(BilinearPad(param.scale)), static_cast<int>(req[0]));
    } else {
      // concat: input i fills its channel range; sum: the first input writes (req), the
      // others add.
      const bool sum = param.multi_input_mode == up_enum::kSum;
      index_t c0 = 0;
      for (size_t i = 0; i < inputs.size(); ++i) {
        const UpDims in = UpDimsOf(inputs[i]);
        const int rq = (sum && i > 0) ? static_cast<int>(kAddTo) : static_cast<int>(req[0]);
        if (in.h > 0) {
          Kernel<up_nearest_forward, xpu>::Launch(s, in.n * in.c * o.h * o.w, y, o,
                                                  inputs[i].dptr<DType>(), in, c0, o.h / in.h,
                                                  rq);
        }
        if (!sum) c0 += in.c;
      }
    }
  });
}

/*! \brief inputs: out_grad, forward inputs...; outputs: one gradient per forward input. */
template <typename xpu>
void UpSamplingGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  using mxnet_op::Kernel;
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& og = inputs[0];
  const UpDims o = UpDimsOf(og);
  MSHADOW_REAL_TYPE_SWITCH(og.type_flag_, DType, {
    if (param.sample_type == up_enum::kBilinear) {
      if (req[1] != kNullOp && outputs[1].Size() > 0) {
        UpSamplingBilinearWeightGrad<DType>(s, param, og, inputs[1], outputs[1], req[1]);
      }
      if (req[0] != kNullOp && outputs[0].Size() > 0) {
        Kernel<up_bilinear_backward_data, xpu>::Launch(
            s, outputs[0].Size(), outputs[0].dptr<DType>(), UpDimsOf(inputs[1]),
            og.dptr<DType>(), o, inputs[2].dptr<DType>(), static_cast<index_t>(param.scale),
            static_cast<index_t>(BilinearKernel(param.scale)),
            static_cast<index_t>(BilinearPad(param.scale)), static_cast<int>(req[0]));
      }
    } else {
      const bool sum = param.multi_input_mode == up_enum::kSum;
      index_t c0 = 0;
      for (size_t i = 0; i < outputs.size(); ++i) {
        const UpDims in = UpDimsOf(outputs[i]);
        if (req[i] != kNullOp && in.h > 0 && outputs[i].Size() > 0) {
          Kernel<up_nearest_backward, xpu>::Launch(s, outputs[i].Size(),
                                                   outputs[i].dptr<DType>(), in,
                                                   og.dptr<DType>(), o, c0, o.h / in.h,
                                                   static_cast<int>(req[i]));
        }
        if (!sum) c0 += in.c;
      }
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_UPSAMPLING_INL_H_
