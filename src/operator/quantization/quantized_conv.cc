/*!
 * \file quantized_conv.cc
 * \brief _contrib_quantized_conv, _contrib_quantized_fully_connected and
 *        _contrib_quantized_pooling on int8/uint8 data (see quantization_utils-inl.h).
 *
 * quantized_conv / quantized_fully_connected accumulate int8 x int8 (or uint8 x int8) products
 * exactly in int32 (im2col into an int32 buffer, then an integer GEMM loop). The output range is
 * +-(m_d / L_d) (m_w / 127) 2^31 with m = MaxAbs(min, max): one int32 unit is the product of
 * one data and one weight unit. As in MXNet 1.9.1's CPU build:
 *  - FC: L_d = 127 for int8 data, 255 for uint8; the int8 bias is converted to int32 units as
 *    trunc(b * (R_d / m_d) * (127.5 / m_w) * m_b / 127.5) with R_d = 127.5 / 255.5;
 *  - conv: L_d = 127 whatever the data dtype, and the int8 bias is added to the int32 sums as is
 *    (1.9.1's oneDNN conv takes it unscaled).
 * Generalizations (1.9.1's CPU build refuses these): int8 data for conv (1.9.1: uint8 only),
 * num_group > 1, and 1-D / 3-D kernels for conv; 1-D (3-d data) pooling.
 *
 * quantized_pooling: max, or avg rounded half to even; with count_include_pad (the default) the
 * divisor is the kernel size even for the windows 'full' extends past the edge (as 1.9.1's
 * oneDNN kernel does). The range passes through. pool_type sum/lp and channel-last layouts are
 * refused, as in 1.9.1.
 *
 * GPU: quantized_conv.cu (FC: a tiled int32 GEMM; conv: a direct convolution) and
 * quantized_pooling.cu, with the shared pieces in quantized_conv-inl.h / quantized_pooling-inl.h.
 */
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "../nn/conv_kernels.h"
#include "../nn/convolution-inl.h"
#include "../nn/fully_connected-inl.h"
#include "../nn/pooling-inl.h"
#include "./quantized_conv-inl.h"
#include "./quantized_pooling-inl.h"

namespace mxnet {
namespace op {

using namespace quant;  // NOLINT

namespace {

const char* kConv = "_contrib_quantized_conv";
const char* kFC = "_contrib_quantized_fully_connected";
const char* kPool = "_contrib_quantized_pooling";

std::vector<std::string> OutNames3() { return {"output", "min_output", "max_output"}; }

std::vector<std::string> ConvLikeInNames(bool no_bias) {
  if (no_bias) return {"data", "weight", "min_data", "max_data", "min_weight", "max_weight"};
  return {"data", "weight", "bias", "min_data", "max_data", "min_weight", "max_weight",
          "min_bias", "max_bias"};
}

/*!
 * \brief Runs the float op's shape function on the first n inputs; its errors are re-raised
 *        naming `op`.
 */
template <typename F>
bool SubShape(const char* op, F fn, const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
              size_t n, mxnet::ShapeVector* out) {
  mxnet::ShapeVector sub_in(in->begin(), in->begin() + n);
  mxnet::ShapeVector sub_out(1, (*out)[0]);
  bool ok = false;
  try {
    ok = fn(attrs, &sub_in, &sub_out);
  } catch (const dmlc::Error& e) {
    MX_THROW(ValueError) << op << ": " << e.what();
  }
  for (size_t i = 0; i < n; ++i) (*in)[i] = sub_in[i];
  SHAPE_ASSIGN_CHECK(*out, 0, sub_out[0]);
  return ok;
}

/*! \brief Types of conv/FC: data int8/uint8 (conv: `data_types`), weight/bias int8, ranges f32. */
bool ConvLikeQType(const char* op, bool no_bias, std::vector<int>* in, std::vector<int>* out) {
  const auto names = ConvLikeInNames(no_bias);
  const size_t nd = no_bias ? 2 : 3;
  RangeTypes(op, in, nd, in->size(), names);
  CheckInType(op, in, 1, "weight", {mshadow::kInt8}, mshadow::kInt8);
  if (!no_bias) CheckInType(op, in, 2, "bias", {mshadow::kInt8}, mshadow::kInt8);
  if (!CheckInType(op, in, 0, "data", {mshadow::kInt8, mshadow::kUint8})) {
    QuantOutTypes(out, mshadow::kInt32);
    return false;
  }
  QuantOutTypes(out, mshadow::kInt32);
  return true;
}

/*! \brief y[f, j] = sum_r w[f, r] * col[r, j] in int32, rows f of F, K rows of col, J columns. */
void IntGemm(const int32_t* w, const int32_t* col, index_t F, index_t K, index_t J, int32_t* y) {
#pragma omp parallel for if (F * K * J > 65536)
  for (index_t f = 0; f < F; ++f) {
    int32_t* yf = y + f * J;
    std::fill(yf, yf + J, 0);
    for (index_t r = 0; r < K; ++r) {
      const int32_t a = w[f * K + r];
      if (a == 0) continue;
      const int32_t* c = col + r * J;
      for (index_t j = 0; j < J; ++j) yf[j] += a * c[j];
    }
  }
}

template <typename Q>
void ToInt32(const Q* x, index_t n, int32_t* y) {
  for (index_t i = 0; i < n; ++i) y[i] = x[i];
}

void ToInt32Blob(const TBlob& b, int32_t* y) {
  MXNET_QUANT_TYPE_SWITCH(b.type_flag_, Q, { ToInt32(b.dptr<Q>(), b.Size(), y); });
}

// ---- convolution -------------------------------------------------------------------------------

void QConvParamParser(nnvm::NodeAttrs* attrs) {
  ParamParser<ConvolutionParam>(attrs);
  ConvolutionParam& p = nnvm::get<ConvolutionParam>(attrs->parsed);
  FillConvDefaults(kConv, p.kernel, &p.stride, &p.dilate, &p.pad);
}

bool QConvShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const ConvolutionParam& p = nnvm::get<ConvolutionParam>(attrs.parsed);
  const size_t nd = p.no_bias ? 2 : 3;
  RangeShapes(kConv, in, nd, in->size(), ConvLikeInNames(p.no_bias));
  ScalarOutShapes(out, 1, 3);
  return SubShape(kConv, ConvolutionShape, attrs, in, nd, out);
}

void QConvCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const ConvolutionParam& p = nnvm::get<ConvolutionParam>(attrs.parsed);
  const size_t nd = p.no_bias ? 2 : 3;
  const TBlob& x = inputs[0];
  const ConvGeom g = MakeConvGeom(p, x.shape_);
  const index_t osp = g.OutSpatial(), K = g.KernelSize(), isp = g.InSpatial();
  const index_t Fg = g.F / g.G, rows_g = g.ColRowsPerGroup();
  std::vector<int32_t> w(inputs[1].Size());
  ToInt32Blob(inputs[1], w.data());
  std::vector<int32_t> img(g.C * isp), col(g.C * K * osp), acc(g.F * osp);
  int32_t* y = outputs[0].dptr<int32_t>();
  const int8_t* bias = p.no_bias ? nullptr : inputs[2].dptr<int8_t>();
  for (index_t n = 0; n < g.N; ++n) {
    MXNET_QUANT_TYPE_SWITCH(x.type_flag_, Q, {
      ToInt32(x.dptr<Q>() + n * g.C * isp, g.C * isp, img.data());
    });
    for (index_t c = 0; c < g.C; ++c) Im2ColChannel(g, img.data(), c, col.data(), osp);
    for (index_t grp = 0; grp < g.G; ++grp) {
      IntGemm(w.data() + grp * Fg * rows_g, col.data() + grp * rows_g * osp, Fg, rows_g, osp,
              acc.data() + grp * Fg * osp);
    }
    int32_t* yn = y + n * g.F * osp;
    for (index_t f = 0; f < g.F; ++f) {
      const int32_t b = bias != nullptr ? bias[f] : 0;
      for (index_t j = 0; j < osp; ++j) yn[f * osp + j] = acc[f * osp + j] + b;
    }
  }
  mxnet_op::Kernel<int32_product_range, cpu>::Launch(
      ctx.get_stream<cpu>(), 1, inputs[nd].dptr<float>(), inputs[nd + 1].dptr<float>(),
      inputs[nd + 2].dptr<float>(), inputs[nd + 3].dptr<float>(), kInt8Limit,
      outputs[1].dptr<float>(), outputs[2].dptr<float>());
}

// ---- fully connected ---------------------------------------------------------------------------

bool QFCShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const FullyConnectedParam& p = nnvm::get<FullyConnectedParam>(attrs.parsed);
  const size_t nd = p.no_bias ? 2 : 3;
  RangeShapes(kFC, in, nd, in->size(), ConvLikeInNames(p.no_bias));
  ScalarOutShapes(out, 1, 3);
  return SubShape(kFC, FullyConnectedShape, attrs, in, nd, out);
}

void QFCCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  const FullyConnectedParam& p = nnvm::get<FullyConnectedParam>(attrs.parsed);
  const size_t nd = p.no_bias ? 2 : 3;
  const TBlob& x = inputs[0];
  const index_t H = p.num_hidden, K = inputs[1].shape_[1];
  const index_t M = K > 0 ? x.Size() / K : 0;
  std::vector<int32_t> w(inputs[1].Size()), xt(x.Size());
  ToInt32Blob(inputs[1], w.data());
  ToInt32Blob(x, xt.data());
  std::vector<int32_t> bias(H, 0);
  if (!p.no_bias) {
    const float rescale =
        FCBiasAccessor{inputs[nd].dptr<float>(), inputs[nd + 1].dptr<float>(),
                       inputs[nd + 2].dptr<float>(), inputs[nd + 3].dptr<float>(),
                       inputs[nd + 4].dptr<float>(), inputs[nd + 5].dptr<float>(),
                       OneDnnRange(x.type_flag_)}.get();
    const int8_t* b = inputs[2].dptr<int8_t>();
    for (index_t h = 0; h < H; ++h) bias[h] = FCBias(b[h], rescale);
  }
  int32_t* y = outputs[0].dptr<int32_t>();
#pragma omp parallel for if (M * H * K > 65536)
  for (index_t i = 0; i < M; ++i) {
    const int32_t* xi = xt.data() + i * K;
    for (index_t h = 0; h < H; ++h) {
      const int32_t* wh = w.data() + h * K;
      int32_t s = 0;
      for (index_t k = 0; k < K; ++k) s += xi[k] * wh[k];
      y[i * H + h] = s + bias[h];
    }
  }
  mxnet_op::Kernel<int32_product_range, cpu>::Launch(
      ctx.get_stream<cpu>(), 1, inputs[nd].dptr<float>(), inputs[nd + 1].dptr<float>(),
      inputs[nd + 2].dptr<float>(), inputs[nd + 3].dptr<float>(), IntLimit(x.type_flag_),
      outputs[1].dptr<float>(), outputs[2].dptr<float>());
}

// ---- pooling -----------------------------------------------------------------------------------

void QPoolParamParser(nnvm::NodeAttrs* attrs) {
  PoolingParamParser(attrs);
  const PoolingParam& p = nnvm::get<PoolingParam>(attrs->parsed);
  if (p.pool_type != pool_enum::kMax && p.pool_type != pool_enum::kAvg) {
    throw dmlc::ParamError(std::string(kPool) + " only supports pool_type=max/avg for now");
  }
}

bool QPoolShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  RangeShapes(kPool, in, 1, 3, Names({"data", "min_data", "max_data"}));
  ScalarOutShapes(out, 1, 3);
  return SubShape(kPool, PoolingShape, attrs, in, 1, out);
}

}  // namespace

NNVM_REGISTER_OP(_contrib_quantized_conv)
.describe(R"code(Convolution operator for input, weight and bias data type of int8,
and accumulates in type int32 for the output. For each argument, two more arguments of type
float32 must be provided representing the thresholds of quantizing argument from data
type float32 to int8. The final outputs contain the convolution result in int32, and min
and max thresholds representing the threholds for quantizing the float32 output into int32.

The data is uint8 (as MXNet 1.9.1's CPU build requires) or int8, the weight and bias int8. The
int32 sums are exact; the output range is ``+-MaxAbs(min_data, max_data) / 127 *
MaxAbs(min_weight, max_weight) / 127 * 2^31``, and the int8 bias is added unscaled, as in 1.9.1's
CPU build. Groups and 1-D/3-D kernels are supported (1.9.1's CPU build refuses them).

.. Note::
    This operator only supports forward propogation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return nnvm::get<ConvolutionParam>(attrs.parsed).no_bias ? 6U : 9U;
})
.set_num_outputs(3)
.set_attr_parser(QConvParamParser)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return ConvLikeInNames(nnvm::get<ConvolutionParam>(attrs.parsed).no_bias);
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", QConvShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return ConvLikeQType(kConv, nnvm::get<ConvolutionParam>(attrs.parsed).no_bias, in, out);
})
.set_attr<FCompute>("FCompute<cpu>", QConvCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("weight", "NDArray-or-Symbol", "weight.")
.add_argument("bias", "NDArray-or-Symbol", "bias.")
.add_argument("min_data", "NDArray-or-Symbol", "Minimum value of data.")
.add_argument("max_data", "NDArray-or-Symbol", "Maximum value of data.")
.add_argument("min_weight", "NDArray-or-Symbol", "Minimum value of weight.")
.add_argument("max_weight", "NDArray-or-Symbol", "Maximum value of weight.")
.add_argument("min_bias", "NDArray-or-Symbol", "Minimum value of bias.")
.add_argument("max_bias", "NDArray-or-Symbol", "Maximum value of bias.")
.add_arguments(ConvolutionParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantized_fully_connected)
.describe(R"code(Fully Connected operator for input, weight and bias data type of int8,
and accumulates in type int32 for the output. For each argument, two more arguments of type
float32 must be provided representing the thresholds of quantizing argument from data
type float32 to int8. The final outputs contain the convolution result in int32, and min
and max thresholds representing the threholds for quantizing the float32 output into int32.

The data is int8 or uint8, the weight and bias int8. The int32 sums are exact; the output range is
``+-MaxAbs(min_data, max_data) / L * MaxAbs(min_weight, max_weight) / 127 * 2^31`` (L = 127 for
int8 data, 255 for uint8) and the bias is converted to that unit (truncated), as in MXNet 1.9.1.

.. Note::
    This operator only supports forward propogation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return nnvm::get<FullyConnectedParam>(attrs.parsed).no_bias ? 6U : 9U;
})
.set_num_outputs(3)
.set_attr_parser(ParamParser<FullyConnectedParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return ConvLikeInNames(nnvm::get<FullyConnectedParam>(attrs.parsed).no_bias);
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", QFCShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  return ConvLikeQType(kFC, nnvm::get<FullyConnectedParam>(attrs.parsed).no_bias, in, out);
})
.set_attr<FCompute>("FCompute<cpu>", QFCCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("weight", "NDArray-or-Symbol", "weight.")
.add_argument("bias", "NDArray-or-Symbol", "bias.")
.add_argument("min_data", "NDArray-or-Symbol", "Minimum value of data.")
.add_argument("max_data", "NDArray-or-Symbol", "Maximum value of data.")
.add_argument("min_weight", "NDArray-or-Symbol", "Minimum value of weight.")
.add_argument("max_weight", "NDArray-or-Symbol", "Maximum value of weight.")
.add_argument("min_bias", "NDArray-or-Symbol", "Minimum value of bias.")
.add_argument("max_bias", "NDArray-or-Symbol", "Maximum value of bias.")
.add_arguments(FullyConnectedParam::__FIELDS__());

NNVM_REGISTER_OP(_contrib_quantized_pooling)
.describe(R"code(Pooling operator for input and output data type of int8.
The input and output data comes with min and max thresholds for quantizing
the float32 data into int8. Average pooling rounds half to even; the range passes through.

.. Note::
    This operator only supports forward propogation. DO NOT use it in training.
    This operator only supports `pool_type` of `avg` or `max`.
)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr_parser(QPoolParamParser)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "min_data", "max_data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return OutNames3();
})
.set_attr<mxnet::FInferShape>("FInferShape", QPoolShape)
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  RangeTypes(kPool, in, 1, 3, Names({"data", "min_data", "max_data"}));
  if (!CheckInType(kPool, in, 0, "data", {mshadow::kInt8, mshadow::kUint8})) return false;
  QuantOutTypes(out, (*in)[0]);
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", QuantizedPoolingCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("min_data", "NDArray-or-Symbol", "Minimum value of data.")
.add_argument("max_data", "NDArray-or-Symbol", "Maximum value of data.")
.add_arguments(PoolingParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
