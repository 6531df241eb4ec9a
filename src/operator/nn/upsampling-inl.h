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

/*! \brief Nearest forward: out (req) the repeated / stacked / summed inputs. */
template <typename DType>
void UpSamplingNearestForward(const UpSamplingParam& param, const std::vector<TBlob>& inputs,
                              const TBlob& out, OpReqType req) {
  const index_t N = out.shape_[0], OC = out.shape_[1], OH = out.shape_[2], OW = out.shape_[3];
  DType* y = out.dptr<DType>();
  const bool sum = param.multi_input_mode == up_enum::kSum;
  // Which input (and channel within it) feeds each output channel, for concat.
  std::vector<int> src_input(OC, 0);
  std::vector<index_t> src_channel(OC, 0);
  if (!sum) {
    index_t c = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      for (index_t k = 0; k < inputs[i].shape_[1]; ++k, ++c) {
        src_input[c] = static_cast<int>(i);
        src_channel[c] = k;
      }
    }
  }
#pragma omp parallel for if (N * OC * OH * OW >= mxnet_op::kOmpThreshold)
  for (index_t nc = 0; nc < N * OC; ++nc) {
    const index_t n = nc / OC, c = nc % OC;
    for (index_t oy = 0; oy < OH; ++oy) {
      for (index_t ox = 0; ox < OW; ++ox) {
        double v = 0;
        for (size_t i = 0; i < inputs.size(); ++i) {
          if (!sum && static_cast<int>(i) != src_input[c]) continue;
          const TBlob& in = inputs[i];
          const index_t C = in.shape_[1], H = in.shape_[2], W = in.shape_[3];
          const index_t s = OH / H;
          const index_t ic = sum ? c : src_channel[c];
          v += static_cast<double>(in.dptr<DType>()[((n * C + ic) * H + oy / s) * W + ox / s]);
        }
        KERNEL_ASSIGN(y[(nc * OH + oy) * OW + ox], req, DType(v));
      }
    }
  }
}

/*! \brief Nearest backward: grad of input i = block sums of its part of out_grad. */
template <typename DType>
void UpSamplingNearestBackward(const UpSamplingParam& param, const TBlob& ograd,
                               const std::vector<TBlob>& grads,
                               const std::vector<OpReqType>& req) {
  const index_t N = ograd.shape_[0], OC = ograd.shape_[1], OH = ograd.shape_[2],
                OW = ograd.shape_[3];
  const DType* og = ograd.dptr<DType>();
  const bool sum = param.multi_input_mode == up_enum::kSum;
  index_t offset = 0;
  for (size_t i = 0; i < grads.size(); ++i) {
    const TBlob& g = grads[i];
    const index_t C = g.shape_[1], H = g.shape_[2], W = g.shape_[3];
    const index_t s = OH / H;
    const index_t c0 = sum ? 0 : offset;
    offset += C;
    if (req[i] == kNullOp) continue;
    DType* dx = g.dptr<DType>();
    const OpReqType rq = req[i];
#pragma omp parallel for if (N * C * H * W * s * s >= mxnet_op::kOmpThreshold)
    for (index_t nc = 0; nc < N * C; ++nc) {
      const index_t n = nc / C, c = nc % C;
      const DType* plane = og + ((n * OC + c0 + c) * OH) * OW;
      for (index_t iy = 0; iy < H; ++iy) {
        for (index_t ix = 0; ix < W; ++ix) {
          double acc = 0;
          for (index_t dy = 0; dy < s; ++dy) {
            for (index_t dx2 = 0; dx2 < s; ++dx2) {
              acc += static_cast<double>(plane[(iy * s + dy) * OW + ix * s + dx2]);
            }
          }
          KERNEL_ASSIGN(dx[(nc * H + iy) * W + ix], rq, DType(acc));
        }
      }
    }
  }
}

/*!
 * \brief Bilinear forward: per-channel transposed convolution,
 *        out[n,c,oy,ox] = sum_{iy,ix} x[n,c,iy,ix] * w[c, oy + p - iy*s, ox + p - ix*s].
 */
template <typename DType>
void UpSamplingBilinearForward(const UpSamplingParam& param, const TBlob& data,
                               const TBlob& weight, const TBlob& out, OpReqType req) {
  const index_t N = data.shape_[0], C = data.shape_[1], H = data.shape_[2], W = data.shape_[3];
  const index_t OH = out.shape_[2], OW = out.shape_[3];
  const index_t s = param.scale, k = BilinearKernel(param.scale), p = BilinearPad(param.scale);
  const DType* x = data.dptr<DType>();
  const DType* w = weight.dptr<DType>();
  DType* y = out.dptr<DType>();
#pragma omp parallel for if (N * C * OH * OW * 4 >= mxnet_op::kOmpThreshold)
  for (index_t nc = 0; nc < N * C; ++nc) {
    const index_t c = nc % C;
    const DType* xp = x + nc * H * W;
    const DType* wp = w + c * k * k;
    for (index_t oy = 0; oy < OH; ++oy) {
      // iy with 0 <= oy + p - iy*s < k
      const index_t iy_hi = std::min<index_t>(H - 1, (oy + p) / s);
      for (index_t ox = 0; ox < OW; ++ox) {
        const index_t ix_hi = std::min<index_t>(W - 1, (ox + p) / s);
        double v = 0;
        for (index_t iy = iy_hi; iy >= 0; --iy) {
          const index_t ky = oy + p - iy * s;
          if (ky >= k) break;
          for (index_t ix = ix_hi; ix >= 0; --ix) {
            const index_t kx = ox + p - ix * s;
            if (kx >= k) break;
            v += static_cast<double>(xp[iy * W + ix]) * static_cast<double>(wp[ky * k + kx]);
          }
        }
        KERNEL_ASSIGN(y[(nc * OH + oy) * OW + ox], req, DType(v));
      }
    }
  }
}

/*! \brief Bilinear backward: data_grad (a strided correlation) and weight_grad. */
template <typename DType>
void UpSamplingBilinearBackward(const UpSamplingParam& param, const TBlob& ograd,
                                const TBlob& data, const TBlob& weight, const TBlob& ddata,
                                const TBlob& dweight, OpReqType req_data,
                                OpReqType req_weight) {
  const index_t N = data.shape_[0], C = data.shape_[1], H = data.shape_[2], W = data.shape_[3];
  const index_t OH = ograd.shape_[2], OW = ograd.shape_[3];
  const index_t s = param.scale, k = BilinearKernel(param.scale), p = BilinearPad(param.scale);
  const DType* og = ograd.dptr<DType>();
  const DType* x = data.dptr<DType>();
  const DType* w = weight.dptr<DType>();
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
  if (req_data != kNullOp) {
    DType* dx = ddata.dptr<DType>();
#pragma omp parallel for if (N * C * H * W * k * k >= mxnet_op::kOmpThreshold)
    for (index_t nc = 0; nc < N * C; ++nc) {
      const index_t c = nc % C;
      const DType* gp = og + nc * OH * OW;
      const DType* wp = w + c * k * k;
      for (index_t iy = 0; iy < H; ++iy) {
        for (index_t ix = 0; ix < W; ++ix) {
          double acc = 0;
          for (index_t ky = 0; ky < k; ++ky) {
            const index_t oy = iy * s - p + ky;
            if (oy < 0 || oy >= OH) continue;
            for (index_t kx = 0; kx < k; ++kx) {
              const index_t ox = ix * s - p + kx;
              if (ox < 0 || ox >= OW) continue;
              acc += static_cast<double>(gp[oy * OW + ox]) * static_cast<double>(wp[ky * k + kx]);
            }
          }
          KERNEL_ASSIGN(dx[(nc * H + iy) * W + ix], req_data, DType(acc));
        }
      }
    }
  }
}

template <typename xpu>
void UpSamplingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (param.sample_type == up_enum::kNearest) {
      UpSamplingNearestForward<DType>(param, inputs, outputs[0], req[0]);
    } else {
      UpSamplingBilinearForward<DType>(param, inputs[0], inputs[1], outputs[0], req[0]);
    }
  });
}

/*! \brief inputs: out_grad, forward inputs...; outputs: one gradient per forward input. */
template <typename xpu>
void UpSamplingGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    if (param.sample_type == up_enum::kNearest) {
      UpSamplingNearestBackward<DType>(param, inputs[0], outputs, req);
    } else {
      UpSamplingBilinearBackward<DType>(param, inputs[0], inputs[1], inputs[2], outputs[0],
                                        outputs[1], req[0], req[1]);
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_UPSAMPLING_INL_H_
