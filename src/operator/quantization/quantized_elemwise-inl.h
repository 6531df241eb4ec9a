/*!
 * \file quantized_elemwise-inl.h
 * \brief Parameters and kernels of the element-wise quantized operators (semantics in
 *        quantized_elemwise.cc): flatten, act (relu), elemwise_add, elemwise_mul, concat,
 *        embedding,
 *        written once for the CPU (quantized_elemwise.cc) and the GPU (quantized_elemwise.cu).
 *
 * The input ranges are read where the data lives: the output range is set by a one-element
 * kernel, and the constants of the element kernels come from accessors (ScaleArg / ScaleOf in
 * quantization_utils-inl.h) that the CPU evaluates once and a GPU thread evaluates itself.
 */
#ifndef MXNET_OPERATOR_QUANTIZATION_QUANTIZED_ELEMWISE_INL_H_
#define MXNET_OPERATOR_QUANTIZATION_QUANTIZED_ELEMWISE_INL_H_

#include <mxnet/resource.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../mxnet_op.h"
#include "../nn/batch_norm-inl.h"
#include "../tensor/concat_split_op-inl.h"
#include "../tensor/indexing_op-inl.h"
#include "./quantize-inl.h"

namespace mxnet {
namespace op {

struct QuantizedElemwiseParam : public dmlc::Parameter<QuantizedElemwiseParam> {
  dmlc::optional<float> min_calib_range;
  dmlc::optional<float> max_calib_range;
  DMLC_DECLARE_PARAMETER(QuantizedElemwiseParam) {
    DMLC_DECLARE_FIELD(min_calib_range).set_default(dmlc::optional<float>())
        .describe("The minimum scalar value in the form of float32 obtained through calibration. "
                  "If present, it will be used to requantize the int8 output data.");
    DMLC_DECLARE_FIELD(max_calib_range).set_default(dmlc::optional<float>())
        .describe("The maximum scalar value in the form of float32 obtained through calibration. "
                  "If present, it will be used to requantize the int8 output data.");
  }
};

struct QuantizedElemwiseMulParam : public dmlc::Parameter<QuantizedElemwiseMulParam> {
  dmlc::optional<float> min_calib_range;
  dmlc::optional<float> max_calib_range;
  bool enable_float_output;
  DMLC_DECLARE_PARAMETER(QuantizedElemwiseMulParam) {
    DMLC_DECLARE_FIELD(min_calib_range).set_default(dmlc::optional<float>())
        .describe("The minimum scalar value in the form of float32 obtained through calibration. "
                  "If present, it will be used to requantize the int8 output data.");
    DMLC_DECLARE_FIELD(max_calib_range).set_default(dmlc::optional<float>())
        .describe("The maximum scalar value in the form of float32 obtained through calibration. "
                  "If present, it will be used to requantize the int8 output data.");
    DMLC_DECLARE_FIELD(enable_float_output).set_default(false)
        .describe("Whether to enable float32 output");
  }
};

namespace quant {

/*! \brief Switch over int8 / uint8 / int32 storage. */
#define MXNET_QUANT_INT_TYPE_SWITCH(type, QType, ...)                                     \
  switch (type) {                                                                         \
    case mshadow::kInt8: { typedef int8_t QType; { __VA_ARGS__ } break; }                 \
    case mshadow::kUint8: { typedef uint8_t QType; { __VA_ARGS__ } break; }               \
    case mshadow::kInt32: { typedef int32_t QType; { __VA_ARGS__ } break; }               \
    default:                                                                              \
      MX_THROW(TypeError) << "quantized operator: expected int8, uint8 or int32 data, got " \
                          << mxnet::op::type_string(type);                                \
  }

// ---- flatten / act -----------------------------------------------------------------------------

/*! \brief n bytes from in to out: memcpy on the CPU. */
inline void CopyBytes(mshadow::Stream<cpu>*, const void* in, void* out, size_t n) {
  if (out != in && n > 0) std::memcpy(out, in, n);
}
/*! \brief ... a byte kernel on a device. */
template <typename xpu>
void CopyBytes(mshadow::Stream<xpu>* s, const void* in, void* out, size_t n) {
  if (out == in || n == 0) return;
  mxnet_op::Kernel<copy_bytes, xpu>::Launch(s, static_cast<index_t>(n),
                                            static_cast<const char*>(in), static_cast<char*>(out));
}

/*! \brief _contrib_quantized_flatten: the bytes and the range pass through. */
template <typename xpu>
void QuantizedFlattenForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                             const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  CopyBytes(s, inputs[0].dptr_, outputs[0].dptr_,
            inputs[0].Size() * mshadow::mshadow_sizeof(inputs[0].type_flag_));
  mxnet_op::Kernel<copy_range, xpu>::Launch(s, 1, inputs[1].dptr<float>(),
                                            inputs[2].dptr<float>(), outputs[1].dptr<float>(),
                                            outputs[2].dptr<float>());
}

struct quantized_relu {
  template <typename Q>
  MSHADOW_XINLINE static void Map(index_t i, const Q* x, Q* y) {
    y[i] = x[i] > 0 ? x[i] : Q(0);
  }
};

/*! \brief _contrib_quantized_act (relu): y = max(q, 0), the range passes through. */
template <typename xpu>
void QuantizedActForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                         const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MXNET_QUANT_TYPE_SWITCH(inputs[0].type_flag_, Q, {
    mxnet_op::Kernel<quantized_relu, xpu>::Launch(s, inputs[0].Size(), inputs[0].dptr<Q>(),
                                                  outputs[0].dptr<Q>());
  });
  mxnet_op::Kernel<copy_range, xpu>::Launch(s, 1, inputs[1].dptr<float>(),
                                            inputs[2].dptr<float>(), outputs[1].dptr<float>(),
                                            outputs[2].dptr<float>());
}

// ---- elemwise add ------------------------------------------------------------------------------

/*! \brief The values of an elemwise_add: units of the inputs and the output's scale. */
struct AddValues {
  float u_l, u_r, s;
  MSHADOW_XINLINE AddValues get() const { return *this; }
};

/*!
 * \brief u = MaxAbs(range) / R of each input; s = R_out / MaxAbs(calib) with calibration, else
 *        2^31 / (m_l + m_r) (rounded to float from double).
 */
struct AddAccessor {
  const float *l_lo, *l_hi, *r_lo, *r_hi;
  float r_l, r_r;
  bool calib;
  float c_lo, c_hi, r_out;
  MSHADOW_XINLINE AddValues get() const {
    const float m_l = MaxAbsX(*l_lo, *l_hi), m_r = MaxAbsX(*r_lo, *r_hi);
    AddValues v;
    v.u_l = m_l / r_l;
    v.u_r = m_r / r_r;
    v.s = calib ? r_out / MaxAbsX(c_lo, c_hi) : static_cast<float>(kInt32Range / (m_l + m_r));
    return v;
  }
};

/*!
 * \brief out = round((q_l u_l + q_r u_r) * s): the product in float (calibrated int8/uint8) or
 *        in double (int32).
 */
struct quantized_add {
  template <typename L, typename R, typename O, typename A>
  MSHADOW_XINLINE static void Map(index_t i, const L* l, const R* r, O* y, A acc, bool calib) {
    const AddValues k = ScaleOf(acc);
    const float real = MulRn(static_cast<float>(l[i]), k.u_l) +
                       MulRn(static_cast<float>(r[i]), k.u_r);
    y[i] = calib ? SatRound<O>(MulRn(real, k.s)) : SatRound<O>(static_cast<double>(real) * k.s);
  }
};

/*! \brief The int32 output range +-(m_l + m_r) of an uncalibrated add. */
struct add_range {
  MSHADOW_XINLINE static void Map(index_t, const float* l_lo, const float* l_hi,
                                  const float* r_lo, const float* r_hi, float* lo, float* hi) {
    const float m = MaxAbsX(*l_lo, *l_hi) + MaxAbsX(*r_lo, *r_hi);
    *lo = -m;
    *hi = m;
  }
};

/*! \brief _contrib_quantized_elemwise_add, inputs lhs, rhs, lhs_min, lhs_max, rhs_min, rhs_max. */
template <typename xpu>
void QuantizedAddForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                         const std::vector<TBlob>& outputs, bool calib, float c_lo, float c_hi) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& out = outputs[0];
  const AddAccessor acc{inputs[2].dptr<float>(), inputs[3].dptr<float>(),
                        inputs[4].dptr<float>(), inputs[5].dptr<float>(),
                        OneDnnRange(inputs[0].type_flag_), OneDnnRange(inputs[1].type_flag_),
                        calib, c_lo, c_hi, calib ? OneDnnRange(out.type_flag_) : 0.f};
  MXNET_QUANT_TYPE_SWITCH(inputs[0].type_flag_, L, {
    MXNET_QUANT_TYPE_SWITCH(inputs[1].type_flag_, R, {
      MXNET_QUANT_INT_TYPE_SWITCH(out.type_flag_, O, {
        mxnet_op::Kernel<quantized_add, xpu>::Launch(s, inputs[0].Size(), inputs[0].dptr<L>(),
                                                     inputs[1].dptr<R>(), out.dptr<O>(),
                                                     ScaleArg(s, acc), calib);
      });
    });
  });
  if (calib) {
    mxnet_op::Kernel<set_range, xpu>::Launch(s, 1, outputs[1].dptr<float>(),
                                             outputs[2].dptr<float>(), c_lo, c_hi);
  } else {
    mxnet_op::Kernel<add_range, xpu>::Launch(s, 1, inputs[2].dptr<float>(),
                                             inputs[3].dptr<float>(), inputs[4].dptr<float>(),
                                             inputs[5].dptr<float>(), outputs[1].dptr<float>(),
                                             outputs[2].dptr<float>());
  }
}

// ---- elemwise mul (int8 x int8) ----------------------------------------------------------------

/*!
 * \brief The scale of a product: float output 1 / ((R_l / m_l)(R_r / m_r)); calibrated
 *        (m_l / R_l)(m_r / R_r)(127.5 / MaxAbs(calib)).
 */
struct MulAccessor {
  const float *l_lo, *l_hi, *r_lo, *r_hi;
  bool float_out;
  float c_lo, c_hi;
  MSHADOW_XINLINE float get() const {
    const float m_l = MaxAbsX(*l_lo, *l_hi), m_r = MaxAbsX(*r_lo, *r_hi);
    if (float_out) return 1.f / ((kInt8Range / m_l) * (kInt8Range / m_r));
    return (m_l / kInt8Range) * (m_r / kInt8Range) * (kInt8Range / MaxAbsX(c_lo, c_hi));
  }
};

/*! \brief mode 0: int32 product; 1: float32 product * scale; 2: int8 trunc(product * scale). */
struct quantized_mul {
  template <typename O, typename A>
  MSHADOW_XINLINE static void Map(index_t i, const int8_t* l, const int8_t* r, O* y, A acc,
                                  int mode) {
    const int32_t prod = static_cast<int32_t>(l[i]) * static_cast<int32_t>(r[i]);
    if (mode == 0) {
      y[i] = static_cast<O>(prod);
    } else if (mode == 1) {
      y[i] = static_cast<O>(static_cast<float>(prod) * ScaleOf(acc));
    } else {
      y[i] = static_cast<O>(SatTrunc<int8_t>(static_cast<float>(prod) * ScaleOf(acc)));
    }
  }
};

/*! \brief The int32 output range of an uncalibrated product (int8 inputs: L = 127). */
struct mul_range {
  MSHADOW_XINLINE static void Map(index_t, const float* l_lo, const float* l_hi,
                                  const float* r_lo, const float* r_hi, float* lo, float* hi) {
    const float m = Int32ProductRange(MaxAbsX(*l_lo, *l_hi), kInt8Limit, MaxAbsX(*r_lo, *r_hi),
                                      kInt8Limit);
    *lo = -m;
    *hi = m;
  }
};

/*! \brief _contrib_quantized_elemwise_mul of int8 lhs and rhs. */
template <typename xpu>
void QuantizedMulForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                         const std::vector<TBlob>& outputs, bool float_out, bool calib,
                         float c_lo, float c_hi) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& out = outputs[0];
  const index_t n = inputs[0].Size();
  const int8_t* l = inputs[0].dptr<int8_t>();
  const int8_t* r = inputs[1].dptr<int8_t>();
  const MulAccessor acc{inputs[2].dptr<float>(), inputs[3].dptr<float>(),
                        inputs[4].dptr<float>(), inputs[5].dptr<float>(), float_out, c_lo, c_hi};
  if (float_out) {
    mxnet_op::Kernel<quantized_mul, xpu>::Launch(s, n, l, r, out.dptr<float>(), ScaleArg(s, acc),
                                                 1);
    return;
  }
  if (calib) {
    mxnet_op::Kernel<quantized_mul, xpu>::Launch(s, n, l, r, out.dptr<int8_t>(),
                                                 ScaleArg(s, acc), 2);
    mxnet_op::Kernel<set_range, xpu>::Launch(s, 1, outputs[1].dptr<float>(),
                                             outputs[2].dptr<float>(), c_lo, c_hi);
    return;
  }
  mxnet_op::Kernel<quantized_mul, xpu>::Launch(s, n, l, r, out.dptr<int32_t>(), 0.f, 0);
  mxnet_op::Kernel<mul_range, xpu>::Launch(s, 1, inputs[2].dptr<float>(), inputs[3].dptr<float>(),
                                           inputs[4].dptr<float>(), inputs[5].dptr<float>(),
                                           outputs[1].dptr<float>(), outputs[2].dptr<float>());
}

// ---- concat ------------------------------------------------------------------------------------

/*! \brief (*lo, *hi) = (min(*lo, *a), max(*hi, *b)) (std::min / std::max). */
struct widen_range {
  MSHADOW_XINLINE static void Map(index_t, const float* a, const float* b, float* lo, float* hi) {
    *lo = *a < *lo ? *a : *lo;
    *hi = *hi < *b ? *b : *hi;
  }
};

/*! \brief How one concat input maps onto the output: as is, or rescaled by `scale`. */
struct ConcatValues {
  bool same;
  float scale;
  MSHADOW_XINLINE ConcatValues get() const { return *this; }
};

/*!
 * \brief An input whose range and dtype are the output's is copied; otherwise
 *        scale = (m_in / L_in) * (L_out / m_out) (in this float order).
 */
struct ConcatAccessor {
  const float *in_lo, *in_hi, *out_lo, *out_hi;
  float l_in, l_out;
  bool same_type;
  MSHADOW_XINLINE ConcatValues get() const {
    ConcatValues v;
    v.same = *in_lo == *out_lo && *in_hi == *out_hi && same_type;
    v.scale = MaxAbsX(*in_lo, *in_hi) / l_in * (l_out / MaxAbsX(*out_lo, *out_hi));
    return v;
  }
};

template <typename OQ, typename IQ>
MSHADOW_XINLINE OQ ConcatValue(IQ q, const ConcatValues& k) {
  return k.same ? static_cast<OQ>(q) : SatRound<OQ>(static_cast<float>(q) * k.scale);
}

/*! \brief Element k of input block (outer, row) to y[o * out_row + offset + j]. */
struct quantized_concat {
  template <typename IQ, typename OQ, typename A>
  MSHADOW_XINLINE static void Map(index_t k, const IQ* x, OQ* y, index_t row, index_t out_row,
                                  index_t offset, A acc) {
    const index_t o = k / row, j = k - o * row;
    y[o * out_row + offset + j] = ConcatValue<OQ>(x[k], ScaleOf(acc));
  }
};

/*! \brief One input's rows into the output, on the CPU. */
template <typename IQ, typename OQ, typename A>
inline void ConcatRows(mshadow::Stream<cpu>* s, const IQ* x, OQ* y, index_t outer, index_t row,
                       index_t out_row, index_t offset, const A& acc) {
  const ConcatValues k = acc.get();
  for (index_t o = 0; o < outer; ++o) {
    OQ* dst = y + o * out_row + offset;
    const IQ* src = x + o * row;
    for (index_t j = 0; j < row; ++j) dst[j] = ConcatValue<OQ>(src[j], k);
  }
}
/*! \brief ... one thread per element on a device. */
template <typename xpu, typename IQ, typename OQ, typename A>
void ConcatRows(mshadow::Stream<xpu>* s, const IQ* x, OQ* y, index_t outer, index_t row,
                index_t out_row, index_t offset, const A& acc) {
  mxnet_op::Kernel<quantized_concat, xpu>::Launch(s, outer * row, x, y, row, out_row, offset,
                                                  acc);
}

/*!
 * \brief _contrib_quantized_concat of n inputs along `axis` (normalized): inputs arg0..arg{n-1},
 *        then (min, max) of each.
 */
template <typename xpu>
void QuantizedConcatForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                            const std::vector<TBlob>& outputs, int n, int axis) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& out = outputs[0];
  float* lo = outputs[1].dptr<float>();
  float* hi = outputs[2].dptr<float>();
  mxnet_op::Kernel<copy_range, xpu>::Launch(s, 1, inputs[n].dptr<float>(),
                                            inputs[n + 1].dptr<float>(), lo, hi);
  for (int i = 1; i < n; ++i) {
    mxnet_op::Kernel<widen_range, xpu>::Launch(s, 1, inputs[n + 2 * i].dptr<float>(),
                                               inputs[n + 2 * i + 1].dptr<float>(), lo, hi);
  }
  index_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= out.shape_[d];
  for (int d = axis + 1; d < out.ndim(); ++d) inner *= out.shape_[d];
  const index_t out_row = out.shape_[axis] * inner;
  index_t offset = 0;
  MXNET_QUANT_TYPE_SWITCH(out.type_flag_, OQ, {
    for (int i = 0; i < n; ++i) {
      const TBlob& x = inputs[i];
      const ConcatAccessor acc{inputs[n + 2 * i].dptr<float>(),
                               inputs[n + 2 * i + 1].dptr<float>(), lo, hi,
                               IntLimit(x.type_flag_), IntLimit(out.type_flag_),
                               x.type_flag_ == out.type_flag_};
      const index_t row = x.shape_[axis] * inner;
      MXNET_QUANT_TYPE_SWITCH(x.type_flag_, IQ, {
        ConcatRows(s, x.dptr<IQ>(), out.dptr<OQ>(), outer, row, out_row, offset, acc);
      });
      offset += row;
    }
  });
}

// ---- embedding ---------------------------------------------------------------------------------

/*! \brief The weight row of index value v: clipped to [0, V), NaN -> 0. */
MSHADOW_XINLINE index_t EmbeddingRow(double v, index_t V) {
  if (v != v) return 0;
  const double c = v < 0.0 ? 0.0 : v;
  return static_cast<index_t>(c < static_cast<double>(V - 1) ? c : static_cast<double>(V - 1));
}

/*! \brief One int8 element of the output: y[i, j] = w[row(idx[i]), j]. */
struct quantized_embedding {
  template <typename IType>
  MSHADOW_XINLINE static void Map(index_t k, const IType* idx, const int8_t* w, int8_t* y,
                                  index_t D, index_t V) {
    const index_t i = k / D, j = k - i * D;
    y[k] = w[EmbeddingRow(static_cast<double>(idx[i]), V) * D + j];
  }
};

/*! \brief The rows, a memcpy each, on the CPU. */
template <typename IType>
inline void EmbeddingRows(mshadow::Stream<cpu>*, const IType* idx, index_t n, const int8_t* w,
                          int8_t* y, index_t D, index_t V) {
  for (index_t i = 0; i < n; ++i) {
    std::memcpy(y + i * D, w + EmbeddingRow(static_cast<double>(idx[i]), V) * D, D);
  }
}
/*! \brief ... an element kernel on a device. */
template <typename xpu, typename IType>
void EmbeddingRows(mshadow::Stream<xpu>* s, const IType* idx, index_t n, const int8_t* w,
                   int8_t* y, index_t D, index_t V) {
  mxnet_op::Kernel<quantized_embedding, xpu>::Launch(s, n * D, idx, w, y, D, V);
}

/*! \brief _contrib_quantized_embedding: inputs data, weight (int8), min_weight, max_weight. */
template <typename xpu>
void QuantizedEmbeddingForward(const OpContext& ctx, const std::vector<TBlob>& inputs,
                               const std::vector<TBlob>& outputs, index_t V, index_t D) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, IType, {
    EmbeddingRows(s, inputs[0].dptr<IType>(), inputs[0].Size(), inputs[1].dptr<int8_t>(),
                  outputs[0].dptr<int8_t>(), D, V);
  });
  mxnet_op::Kernel<copy_range, xpu>::Launch(s, 1, inputs[2].dptr<float>(),
                                            inputs[3].dptr<float>(), outputs[1].dptr<float>(),
                                            outputs[2].dptr<float>());
}

}  // namespace quant

// ---- FCompute ----------------------------------------------------------------------------------

template <typename xpu>
void QuantizedFlattenCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  quant::QuantizedFlattenForward<xpu>(ctx, inputs, outputs);
}

template <typename xpu>
void QuantizedActCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  quant::QuantizedActForward<xpu>(ctx, inputs, outputs);
}

template <typename xpu>
void QuantizedAddCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const QuantizedElemwiseParam& p = nnvm::get<QuantizedElemwiseParam>(attrs.parsed);
  const bool calib =
      quant::HasCalib("_contrib_quantized_elemwise_add", p.min_calib_range, p.max_calib_range);
  quant::QuantizedAddForward<xpu>(ctx, inputs, outputs, calib, p.min_calib_range.value_or(0.f),
                                  p.max_calib_range.value_or(0.f));
}

template <typename xpu>
void QuantizedMulCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const QuantizedElemwiseMulParam& p = nnvm::get<QuantizedElemwiseMulParam>(attrs.parsed);
  const bool calib =
      quant::HasCalib("_contrib_quantized_elemwise_mul", p.min_calib_range, p.max_calib_range);
  quant::QuantizedMulForward<xpu>(ctx, inputs, outputs, p.enable_float_output, calib,
                                  p.min_calib_range.value_or(0.f),
                                  p.max_calib_range.value_or(0.f));
}

template <typename xpu>
void QuantizedConcatCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  const ConcatParam& p = nnvm::get<ConcatParam>(attrs.parsed);
  const int ndim = outputs[0].ndim();
  const int axis = p.dim < 0 ? p.dim + ndim : p.dim;  // checked by the shape inference
  quant::QuantizedConcatForward<xpu>(ctx, inputs, outputs, p.num_args, axis);
}

template <typename xpu>
void QuantizedEmbeddingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  const EmbeddingParam& p = nnvm::get<EmbeddingParam>(attrs.parsed);
  quant::QuantizedEmbeddingForward<xpu>(ctx, inputs, outputs, p.input_dim, p.output_dim);
}

// ---- batch norm --------------------------------------------------------------------------------
// MXNet 1.9.1 (oneDNN) arithmetic, matched bit for bit by probing it: the scales fold into
// float32 per-channel weights, w = gamma * invstd * m_in / m_out (invstd = 1 / sqrt(var + eps)
// in double, stored as float) and b = (beta - mean * gamma * invstd) * 127.5 / m_out, left to
// right; its batch-norm primitive then runs with mean 0 and variance 1 but the same eps, so
// eps is applied a second time: y = q * (w / sqrt(1 + eps)) + b, two float32 roundings. Every
// product is rounded on its own (MulRn: nvcc would fuse it with the add into an FMA).

namespace quant {

/*! \brief Channel c's scale a[c] and shift b[c]; m_in from the device-side data range. */
struct quantized_bn_channel {
  MSHADOW_XINLINE static void Map(index_t c, const float* gamma, const float* beta,
                                  const float* mean, const float* var, const float* min_in,
                                  const float* max_in, float m_out, double eps, float* a,
                                  float* b) {
    const float m_in = MaxAbsX(min_in[0], max_in[0]);
    const float invstd = static_cast<float>(1.0 / sqrt(static_cast<double>(var[c]) + eps));
    const float renorm = sqrtf(1.0f + static_cast<float>(eps));
    const float w = MulRn(MulRn(gamma[c], invstd), m_in) / m_out;
    b[c] = MulRn(beta[c] - MulRn(MulRn(mean[c], gamma[c]), invstd), kInt8Range) / m_out;
    a[c] = w / renorm;
  }
};

/*!
 * \brief y = saturate_round(q * a[c] + b[c]) for element i (channel (i / inner) % C); uint8
 *        data enters oneDNN's s8 kernel re-quantized to int8 with the same range, which gives
 *        exactly q >> 1. NaN (a zero variance with eps = 0) converts to 0, as oneDNN's
 *        saturating cvt gives.
 */
struct quantized_bn_elem {
  template <typename QType>
  MSHADOW_XINLINE static void Map(index_t i, const QType* x, int8_t* y, const float* a,
                                  const float* b, index_t C, index_t inner) {
    const index_t c = (i / inner) % C;
    const int q = static_cast<int>(x[i]);
    const int qs = std::is_same<QType, uint8_t>::value ? (q >> 1) : q;
    const float v = MulRn(static_cast<float>(qs), a[c]) + b[c];
    y[i] = v != v ? int8_t(0) : SatRound<int8_t>(v);
  }
};

struct set_range_values {
  MSHADOW_XINLINE static void Map(index_t, float* lo_out, float* hi_out, float lo, float hi) {
    lo_out[0] = lo;
    hi_out[0] = hi;
  }
};

}  // namespace quant

/*!
 * \brief _contrib_quantized_batch_norm (inference with the moving statistics): inputs data
 *        (int8/uint8), gamma, beta, moving_mean, moving_var, min_data, max_data; the output
 *        range is the calibrated one. Scratch: 2 * C floats of kTempSpace.
 */
template <typename xpu>
void QuantizedBatchNormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  using mxnet_op::Kernel;
  const char* name = "_contrib_quantized_batch_norm";
  const BatchNormParam& p = nnvm::get<BatchNormParam>(attrs.parsed);
  if (!quant::HasCalib(name, p.min_calib_range, p.max_calib_range)) {
    MX_THROW(ValueError) << name << ": min_calib_range and max_calib_range are required (the "
                         << "output range comes from calibration), got none";
  }
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& x = inputs[0];
  const int axis = p.axis < 0 ? p.axis + x.ndim() : p.axis;
  const index_t C = x.shape_[axis];
  index_t inner = 1;
  for (int d = axis + 1; d < x.ndim(); ++d) inner *= x.shape_[d];
  const float lo = p.min_calib_range.value(), hi = p.max_calib_range.value();
  float* a = ctx.requested[0].get_space_typed_ptr<float>(2 * static_cast<size_t>(C));
  float* b = a + C;
  Kernel<quant::quantized_bn_channel, xpu>::Launch(
      s, C, inputs[1].dptr<float>(), inputs[2].dptr<float>(), inputs[3].dptr<float>(),
      inputs[4].dptr<float>(), inputs[5].dptr<float>(), inputs[6].dptr<float>(),
      quant::MaxAbs(lo, hi), static_cast<double>(p.eps), a, b);
  int8_t* y = outputs[0].dptr<int8_t>();
  if (x.type_flag_ == mshadow::kUint8) {
    Kernel<quant::quantized_bn_elem, xpu>::Launch(s, x.Size(), x.dptr<uint8_t>(), y,
                                                  static_cast<const float*>(a),
                                                  static_cast<const float*>(b), C, inner);
  } else {
    Kernel<quant::quantized_bn_elem, xpu>::Launch(s, x.Size(), x.dptr<int8_t>(), y,
                                                  static_cast<const float*>(a),
                                                  static_cast<const float*>(b), C, inner);
  }
  Kernel<quant::set_range_values, xpu>::Launch(s, 1, outputs[1].dptr<float>(),
                                               outputs[2].dptr<float>(), lo, hi);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_QUANTIZATION_QUANTIZED_ELEMWISE_INL_H_
