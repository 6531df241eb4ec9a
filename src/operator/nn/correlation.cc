/*!
 * \file correlation.cc
 * \brief Correlation (FlowNet's correlation layer): compares each patch of data1 with the patches
 *        of data2 around the same place.
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
 *        Both inputs are first copied to padded channels-last buffers, so that the innermost sum
 *        over channels reads contiguous memory.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"

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

DMLC_REGISTER_PARAMETER(CorrelationParam);

namespace {

/*! \brief Sizes of one call, derived from the parameters and the data shape. */
struct CorrDims {
  index_t N, C, H, W;      // data
  index_t PH, PW;          // padded data
  index_t out_h, out_w;    // output spatial size
  index_t radius, grid;    // displacement radius R (in stride2 steps) and grid width 2R + 1
};

CorrDims MakeCorrDims(const CorrelationParam& p, const mxnet::TShape& s) {
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
  return d;
}

bool CorrelationShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  const CorrelationParam& p = nnvm::get<CorrelationParam>(attrs.parsed);
  const mxnet::TShape& a = (*in)[0];
  const mxnet::TShape& b = (*in)[1];
  if (shape_is_known(a) && shape_is_known(b) && a != b) {
    MX_THROW(ValueError) << "Correlation: data1 and data2 must have the same shape, got " << a
                         << " and " << b;
  }
  if (shape_is_known(a)) SHAPE_ASSIGN_CHECK(*in, 1, a);
  if (shape_is_known(b)) SHAPE_ASSIGN_CHECK(*in, 0, b);
  if (!shape_is_known((*in)[0])) return false;
  const CorrDims d = MakeCorrDims(p, (*in)[0]);
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d.N, d.grid * d.grid, d.out_h, d.out_w}));
  return true;
}

/*! \brief (C, H, W) image n of x, zero-padded and channels-last: (PH, PW, C). */
template <typename DType>
std::vector<double> PaddedChannelsLast(const DType* x, const CorrDims& d, index_t n, int pad) {
  std::vector<double> buf(d.PH * d.PW * d.C, 0.0);
  const DType* img = x + n * d.C * d.H * d.W;
  for (index_t c = 0; c < d.C; ++c)
    for (index_t y = 0; y < d.H; ++y)
      for (index_t xx = 0; xx < d.W; ++xx)
        buf[((y + pad) * d.PW + xx + pad) * d.C + c] =
            static_cast<double>(img[(c * d.H + y) * d.W + xx]);
  return buf;
}

/*! \brief Walks every (output position, displacement, kernel offset) pair of image n, calling
 *         visit(out index, offset of the data1 pixel, offset of the data2 pixel) with offsets
 *         into the padded channels-last buffers. */
template <typename F>
void ForEachPair(const CorrelationParam& p, const CorrDims& d, F visit) {
  const index_t k = p.kernel_size;
  for (index_t i = 0; i < d.out_h; ++i) {
    for (index_t j = 0; j < d.out_w; ++j) {
      const index_t y1 = i * p.stride1 + p.max_displacement;
      const index_t x1 = j * p.stride1 + p.max_displacement;
      for (index_t dp = -d.radius; dp <= d.radius; ++dp) {
        for (index_t dq = -d.radius; dq <= d.radius; ++dq) {
          const index_t ch = (dp + d.radius) * d.grid + (dq + d.radius);
          const index_t out_index = (ch * d.out_h + i) * d.out_w + j;
          const index_t y2 = y1 + dp * p.stride2, x2 = x1 + dq * p.stride2;
          for (index_t dy = 0; dy < k; ++dy)
            for (index_t dx = 0; dx < k; ++dx)
              visit(out_index, ((y1 + dy) * d.PW + x1 + dx) * d.C,
                    ((y2 + dy) * d.PW + x2 + dx) * d.C);
        }
      }
    }
  }
}

template <typename DType>
void CorrelationForwardImpl(const CorrelationParam& p, const CorrDims& d, const DType* data1,
                            const DType* data2, DType* out, OpReqType req) {
  const double norm = 1.0 / (static_cast<double>(p.kernel_size) * p.kernel_size * d.C);
  const index_t per_image = d.grid * d.grid * d.out_h * d.out_w;
  #pragma omp parallel for
  for (index_t n = 0; n < d.N; ++n) {
    const std::vector<double> a = PaddedChannelsLast(data1, d, n, p.pad_size);
    const std::vector<double> b = PaddedChannelsLast(data2, d, n, p.pad_size);
    std::vector<double> acc(per_image, 0.0);
    ForEachPair(p, d, [&](index_t o, index_t ia, index_t ib) {
      double s = 0;
      if (p.is_multiply) {
        for (index_t c = 0; c < d.C; ++c) s += a[ia + c] * b[ib + c];
      } else {
        for (index_t c = 0; c < d.C; ++c) s += std::fabs(a[ia + c] - b[ib + c]);
      }
      acc[o] += s;
    });
    DType* o = out + n * per_image;
    for (index_t t = 0; t < per_image; ++t) {
      const double v = acc[t] * norm;
      o[t] = req == kAddTo ? static_cast<DType>(static_cast<double>(o[t]) + v)
                           : static_cast<DType>(v);
    }
  }
}

void CorrelationForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const CorrelationParam& p = nnvm::get<CorrelationParam>(attrs.parsed);
  const CorrDims d = MakeCorrDims(p, inputs[0].shape_);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    CorrelationForwardImpl<DType>(p, d, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                                  outputs[0].dptr<DType>(), req[0]);
  });
}

template <typename DType>
void CorrelationBackwardImpl(const CorrelationParam& p, const CorrDims& d, const DType* grad_out,
                             const DType* data1, const DType* data2, DType* grad1, DType* grad2,
                             const std::vector<OpReqType>& req) {
  const double norm = 1.0 / (static_cast<double>(p.kernel_size) * p.kernel_size * d.C);
  const index_t per_image = d.grid * d.grid * d.out_h * d.out_w;
  #pragma omp parallel for
  for (index_t n = 0; n < d.N; ++n) {
    const std::vector<double> a = PaddedChannelsLast(data1, d, n, p.pad_size);
    const std::vector<double> b = PaddedChannelsLast(data2, d, n, p.pad_size);
    std::vector<double> ga(a.size(), 0.0), gb(b.size(), 0.0);
    const DType* g = grad_out + n * per_image;
    ForEachPair(p, d, [&](index_t o, index_t ia, index_t ib) {
      const double go = static_cast<double>(g[o]) * norm;
      if (go == 0) return;
      if (p.is_multiply) {
        for (index_t c = 0; c < d.C; ++c) {
          ga[ia + c] += go * b[ib + c];
          gb[ib + c] += go * a[ia + c];
        }
      } else {
        for (index_t c = 0; c < d.C; ++c) {
          const double diff = a[ia + c] - b[ib + c];
          const double s = diff > 0 ? go : (diff < 0 ? -go : 0.0);
          ga[ia + c] += s;
          gb[ib + c] -= s;
        }
      }
    });
    // Back to (C, H, W), dropping the padding.
    const std::vector<double>* sources[2] = {&ga, &gb};
    DType* targets[2] = {grad1, grad2};
    for (int which = 0; which < 2; ++which) {
      if (req[which] == kNullOp) continue;
      DType* dst = targets[which] + n * d.C * d.H * d.W;
      const std::vector<double>& src = *sources[which];
      for (index_t c = 0; c < d.C; ++c) {
        for (index_t y = 0; y < d.H; ++y) {
          for (index_t x = 0; x < d.W; ++x) {
            const double v = src[((y + p.pad_size) * d.PW + x + p.pad_size) * d.C + c];
            DType& t = dst[(c * d.H + y) * d.W + x];
            t = req[which] == kAddTo ? static_cast<DType>(static_cast<double>(t) + v)
                                     : static_cast<DType>(v);
          }
        }
      }
    }
  }
}

/*! \brief inputs: out_grad, data1, data2; outputs: data1_grad, data2_grad. */
void CorrelationBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const CorrelationParam& p = nnvm::get<CorrelationParam>(attrs.parsed);
  const CorrDims d = MakeCorrDims(p, inputs[1].shape_);
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    CorrelationBackwardImpl<DType>(p, d, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                                   inputs[2].dptr<DType>(), outputs[0].dptr<DType>(),
                                   outputs[1].dptr<DType>(), req);
  });
}

}  // namespace

NNVM_REGISTER_OP(_backward_Correlation)
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<CorrelationParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (!shape_is_known((*in)[1])) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[1]);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<3, 2>)
.set_attr<FCompute>("FCompute<cpu>", CorrelationBackward);

NNVM_REGISTER_OP(Correlation)
.describe(R"code(Applies correlation to inputs.

The correlation layer of FlowNet compares every patch of data1 with the patches of data2 in a
neighbourhood of displacements around it. For a displacement (p, q) (in units of stride2, up to
max_displacement) and an output position, the value is the sum over channels and the kernel
window of data1 * data2 (is_multiply) or |data1 - data2|, divided by kernel_size^2 * channels.
The output has (2 * (max_displacement / stride2) + 1)^2 channels, one per displacement.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CorrelationParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data1", "data2"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CorrelationShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<FCompute>("FCompute<cpu>", CorrelationForward)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_Correlation"})
.add_argument("data1", "NDArray-or-Symbol", "Input data1 to the correlation.")
.add_argument("data2", "NDArray-or-Symbol", "Input data2 to the correlation.")
.add_arguments(CorrelationParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
