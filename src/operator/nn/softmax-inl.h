/*!
 * \file softmax-inl.h
 * \brief softmax, log_softmax, softmin (along one axis, optional temperature, output dtype and
 *        valid lengths) and SoftmaxActivation: parameters, inference and kernels.
 *
 * An input of shape (d0, ..., dn) reduced along `axis` is seen as (outer, n, inner): element
 * (o, k, i) is at o * n * inner + k * inner + i. Each (o, i) row is independent; rows run in
 * parallel with OpenMP. Math is done in float (double for float64 data).
 */
#ifndef MXNET_OPERATOR_NN_SOFTMAX_INL_H_
#define MXNET_OPERATOR_NN_SOFTMAX_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/storage.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./softmax_fast.h"

namespace mxnet {
namespace op {

struct SoftmaxParam : public dmlc::Parameter<SoftmaxParam> {
  int axis;
  dmlc::optional<double> temperature;
  dmlc::optional<int> dtype;
  dmlc::optional<bool> use_length;
  DMLC_DECLARE_PARAMETER(SoftmaxParam) {
    DMLC_DECLARE_FIELD(axis).set_default(-1).describe("The axis along which to compute softmax.");
    DMLC_DECLARE_FIELD(temperature).set_default(dmlc::optional<double>())
        .describe("Temperature parameter in softmax");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .set_default(dmlc::optional<int>())
        .describe("DType of the output in case this can't be inferred. "
                  "Defaults to the same as input's dtype if not defined (dtype=None).");
    DMLC_DECLARE_FIELD(use_length)
        .set_default(dmlc::optional<bool>(false))
        .describe("Whether to use the length input as a mask over the data input.");
  }
  bool UseLength() const { return use_length.has_value() && use_length.value(); }
  double Temperature() const { return temperature.has_value() ? temperature.value() : 1.0; }
};

struct SoftmaxActivationParam : public dmlc::Parameter<SoftmaxActivationParam> {
  int mode;
  DMLC_DECLARE_PARAMETER(SoftmaxActivationParam) {
    DMLC_DECLARE_FIELD(mode)
        .add_enum("instance", 0)
        .add_enum("channel", 1)
        .set_default(0)
        .describe("Specifies how to compute the softmax. If set to ``instance``, it computes "
                  "softmax for each instance. If set to ``channel``, It computes cross channel "
                  "softmax for each position of each instance.");
  }
};

/*! \brief Which function of the softmax family. */
enum class SoftmaxKind { kSoftmax, kLogSoftmax, kSoftmin };

/*! \brief (outer, n, inner) of `shape` around axis `axis` (already normalised). */
struct SoftmaxGeom {
  index_t outer{1}, n{1}, inner{1};
  SoftmaxGeom() = default;
  SoftmaxGeom(const mxnet::TShape& shape, int axis) {
    for (int i = 0; i < axis; ++i) outer *= shape[i];
    n = shape[axis];
    for (int i = axis + 1; i < shape.ndim(); ++i) inner *= shape[i];
  }
};

/*! \brief Normalise `axis` for an array of `ndim` dims; throws ValueError when out of range. */
inline int SoftmaxAxis(const char* op, int axis, int ndim) {
  if (axis < -ndim || axis >= ndim || ndim == 0) {
    MX_THROW(ValueError) << op << ": expected axis in [" << -ndim << ", " << ndim - 1
                         << "], got " << axis;
  }
  return axis < 0 ? axis + ndim : axis;
}

/*! \brief Accumulation type: double for double, float otherwise. */
template <typename DType>
using SoftmaxAcc = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

/*! \brief Accumulation type of a (DType, OType) pair: double if either is double. */
template <typename DType, typename OType>
using SoftmaxPairAcc =
    typename std::conditional<std::is_same<DType, double>::value ||
                                  std::is_same<OType, double>::value,
                              double, float>::type;

/*!
 * \brief Forward of row r (one (outer, inner) position across the axis). `len` (nullable) holds
 *        the valid length of each row; positions at or past it get 0. One thread per row on
 *        the GPU, the same body in the CPU's loop.
 */
template <SoftmaxKind kind>
struct softmax_fwd_row {
  template <typename DType, typename OType>
  MSHADOW_XINLINE static void Map(index_t r, const DType* in, OType* out, const index_t* len,
                                  SoftmaxGeom g, double temperature, int req) {
    using A = SoftmaxPairAcc<DType, OType>;
    const A inv_t = A(1) / static_cast<A>(temperature);
    const A sign = kind == SoftmaxKind::kSoftmin ? A(-1) : A(1);
    const index_t o = r / g.inner, i = r % g.inner;
    const index_t base = o * g.n * g.inner + i;
    const index_t stride = g.inner;
    index_t valid = g.n;
    if (len != nullptr) valid = len[r] < 0 ? 0 : (len[r] < g.n ? len[r] : g.n);
    A mx = -std::numeric_limits<A>::infinity();
    for (index_t k = 0; k < valid; ++k) {
      const A z = sign * static_cast<A>(in[base + k * stride]) * inv_t;
      mx = z > mx ? z : mx;
    }
    A sum = 0;
    for (index_t k = 0; k < valid; ++k) {
      sum += std::exp(sign * static_cast<A>(in[base + k * stride]) * inv_t - mx);
    }
    const A log_sum = std::log(sum);
    for (index_t k = 0; k < g.n; ++k) {
      A v = 0;
      if (k < valid) {
        const A z = sign * static_cast<A>(in[base + k * stride]) * inv_t - mx;
        v = kind == SoftmaxKind::kLogSoftmax ? z - log_sum : std::exp(z) / sum;
      }
      OType& dst = out[base + k * stride];
      if (req == kAddTo) dst = OType(static_cast<A>(dst) + v);
      else dst = OType(v);
    }
  }
};

/*! \brief Backward of row r from out_grad `og` and output `y`, writing `dx`. */
template <SoftmaxKind kind>
struct softmax_bwd_row {
  template <typename OType, typename DType>
  MSHADOW_XINLINE static void Map(index_t r, const OType* og, const OType* y, DType* dx,
                                  const index_t* len, SoftmaxGeom g, double temperature,
                                  int req) {
    using A = SoftmaxPairAcc<DType, OType>;
    const A inv_t = A(1) / static_cast<A>(temperature);
    const index_t o = r / g.inner, i = r % g.inner;
    const index_t base = o * g.n * g.inner + i;
    const index_t stride = g.inner;
    index_t valid = g.n;
    if (len != nullptr) valid = len[r] < 0 ? 0 : (len[r] < g.n ? len[r] : g.n);
    A s = 0;
    for (index_t k = 0; k < valid; ++k) {
      const A gk = static_cast<A>(og[base + k * stride]);
      s += kind == SoftmaxKind::kLogSoftmax ? gk : gk * static_cast<A>(y[base + k * stride]);
    }
    for (index_t k = 0; k < g.n; ++k) {
      A v = 0;
      if (k < valid) {
        const A gk = static_cast<A>(og[base + k * stride]);
        const A yk = static_cast<A>(y[base + k * stride]);
        if (kind == SoftmaxKind::kLogSoftmax) v = (gk - std::exp(yk) * s) * inv_t;
        else if (kind == SoftmaxKind::kSoftmax) v = yk * (gk - s) * inv_t;
        else v = -yk * (gk - s) * inv_t;
      }
      DType& dst = dx[base + k * stride];
      if (req == kAddTo) dst = DType(static_cast<A>(dst) + v);
      else dst = DType(v);
    }
  }
};

/*! \brief OP::Map(r, args...) for every row; OpenMP on the CPU once rows x n is large. */
template <typename OP, typename... Args>
inline void SoftmaxLaunchRows(mshadow::Stream<mshadow::cpu>*, const SoftmaxGeom& g,
                              Args... args) {
  const index_t rows = g.outer * g.inner;
#pragma omp parallel for if (rows * g.n > 32768)
  for (index_t r = 0; r < rows; ++r) OP::Map(r, args...);
}
template <typename OP, typename... Args>
inline void SoftmaxLaunchRows(mshadow::Stream<mshadow::gpu>* s, const SoftmaxGeom& g,
                              Args... args) {
  mxnet_op::Kernel<OP, mshadow::gpu>::Launch(s, g.outer * g.inner, args...);
}

/*! \brief The forward rows: softmax_fast.h's vectorized rows for the float32 CPU case they
 *         cover, softmax_fwd_row for everything else. */
template <SoftmaxKind kind, typename xpu, typename DType, typename OType>
inline void SoftmaxForwardRows(mshadow::Stream<xpu>* s, const SoftmaxGeom& g, const DType* in,
                               OType* out, const index_t* len, double temperature, int req) {
  if constexpr (std::is_same<xpu, mshadow::cpu>::value && std::is_same<DType, float>::value &&
                std::is_same<OType, float>::value) {
    if (g.inner == 1 && len == nullptr && req != kAddTo) {
      const float scale = static_cast<float>((kind == SoftmaxKind::kSoftmin ? -1.0 : 1.0) /
                                             temperature);
      softmax_fast::SoftmaxRows(in, out, g.outer, g.n, scale, kind == SoftmaxKind::kLogSoftmax);
      return;
    }
  }
  SoftmaxLaunchRows<softmax_fwd_row<kind>>(s, g, in, out, len, g, temperature, req);
}

struct length_to_index {
  template <typename LType>
  MSHADOW_XINLINE static void Map(index_t i, const LType* in, index_t* out) {
    out[i] = static_cast<index_t>(in[i]);
  }
};

/*!
 * \brief The valid lengths of a length blob (any integer or float dtype) as index_t, on the
 *        blob's device (`buf` keeps device memory alive).
 */
template <typename xpu>
inline const index_t* SoftmaxLengths(const OpContext& ctx, const TBlob& len,
                                     std::vector<index_t>* host, Storage::Handle* buf) {
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    host->resize(len.Size());
    MSHADOW_TYPE_SWITCH(len.type_flag_, LType, {
      const LType* p = len.dptr<LType>();
      for (size_t i = 0; i < host->size(); ++i) (*host)[i] = static_cast<index_t>(p[i]);
    });
    return host->data();
  } else {
    *buf = Storage::Get()->Alloc(std::max<size_t>(len.Size(), 1) * sizeof(index_t),
                                 ctx.run_ctx.ctx);
    index_t* out = static_cast<index_t*>(buf->dptr);
    MSHADOW_TYPE_SWITCH(len.type_flag_, LType, {
      mxnet_op::Kernel<length_to_index, xpu>::Launch(ctx.get_stream<xpu>(), len.Size(),
                                                      len.dptr<LType>(), out);
    });
    return out;
  }
}

/*! \brief Returns SoftmaxLengths' device buffer (ordered after its users on the stream). */
inline void SoftmaxFreeLengths(Storage::Handle* buf) {
  if (buf->dptr != nullptr) Storage::Get()->Free(*buf);
}

inline bool SoftmaxOpShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                           mxnet::ShapeVector* out_attrs) {
  const SoftmaxParam& param = nnvm::get<SoftmaxParam>(attrs.parsed);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (param.UseLength()) {
    CHECK_EQ(in_attrs->size(), 2U);
    if (ndim_is_known(dshape)) {
      const int axis = SoftmaxAxis(attrs.op->name.c_str(), param.axis, dshape.ndim());
      mxnet::TShape lshape(dshape.ndim() - 1, -1);
      for (int i = 0, j = 0; i < dshape.ndim(); ++i)
        if (i != axis) lshape[j++] = dshape[i];
      SHAPE_ASSIGN_CHECK(*in_attrs, 1, lshape);
    }
  } else {
    CHECK_EQ(in_attrs->size(), 1U);
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, dshape);
  if (ndim_is_known((*out_attrs)[0])) SHAPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  if (ndim_is_known(dshape)) SoftmaxAxis(attrs.op->name.c_str(), param.axis, dshape.ndim());
  return shape_is_known((*in_attrs)[0]);
}

inline bool SoftmaxOpType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                          std::vector<int>* out_attrs) {
  const SoftmaxParam& param = nnvm::get<SoftmaxParam>(attrs.parsed);
  const int dtype = (*in_attrs)[0];
  if (dtype >= 0 && !mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << attrs.op->name << ": expected floating-point data "
                           "(float16, bfloat16, float32 or float64), got "
                        << mshadow::dtype_string(dtype);
  }
  if (param.UseLength() && (*in_attrs)[1] < 0) (*in_attrs)[1] = mshadow::kInt32;
  if (param.dtype.has_value()) {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, param.dtype.value());
  } else {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, dtype);
    if ((*out_attrs)[0] >= 0) TYPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  }
  return (*in_attrs)[0] >= 0 && (*out_attrs)[0] >= 0;
}

template <typename xpu, SoftmaxKind kind>
void SoftmaxCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[0].Size() == 0) return;
  const SoftmaxParam& param = nnvm::get<SoftmaxParam>(attrs.parsed);
  const int axis = SoftmaxAxis(attrs.op->name.c_str(), param.axis, inputs[0].ndim());
  const SoftmaxGeom g(inputs[0].shape_, axis);
  std::vector<index_t> host_len;
  Storage::Handle len_buf;
  const index_t* len = param.UseLength()
                           ? SoftmaxLengths<xpu>(ctx, inputs[1], &host_len, &len_buf)
                           : nullptr;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, OType, {
      SoftmaxForwardRows<kind>(ctx.get_stream<xpu>(), g,
                               static_cast<const DType*>(inputs[0].dptr<DType>()),
                               outputs[0].dptr<OType>(), len, param.Temperature(),
                               static_cast<int>(req[0]));
    });
  });
  SoftmaxFreeLengths(&len_buf);
}

/*! \brief inputs: out_grad, output[, length]; outputs: data_grad[, length_grad (zeros)]. */
template <typename xpu, SoftmaxKind kind>
void SoftmaxGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const SoftmaxParam& param = nnvm::get<SoftmaxParam>(attrs.parsed);
  if (param.UseLength() && outputs.size() > 1 && req[1] != kNullOp && req[1] != kAddTo) {
    MSHADOW_TYPE_SWITCH(outputs[1].type_flag_, LType, {
      mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(ctx.get_stream<xpu>(), outputs[1].Size(),
                                                        outputs[1].dptr<LType>());
    });
  }
  if (req[0] == kNullOp || inputs[1].Size() == 0) return;
  const int axis = SoftmaxAxis(attrs.op->name.c_str(), param.axis, inputs[1].ndim());
  const SoftmaxGeom g(inputs[1].shape_, axis);
  std::vector<index_t> host_len;
  Storage::Handle len_buf;
  const index_t* len = param.UseLength()
                           ? SoftmaxLengths<xpu>(ctx, inputs[2], &host_len, &len_buf)
                           : nullptr;
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, OType, {
    MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
      SoftmaxLaunchRows<softmax_bwd_row<kind>>(
          ctx.get_stream<xpu>(), g, static_cast<const OType*>(inputs[0].dptr<OType>()),
          static_cast<const OType*>(inputs[1].dptr<OType>()), outputs[0].dptr<DType>(), len, g,
          param.Temperature(), static_cast<int>(req[0]));
    });
  });
  SoftmaxFreeLengths(&len_buf);
}

/*! \brief SoftmaxActivation's (outer, n, inner) view: instance -> (N, rest, 1), channel ->
 *         (N, C, rest). */
inline SoftmaxGeom SoftmaxActivationGeom(const mxnet::TShape& s, int mode) {
  SoftmaxGeom g;
  g.outer = s[0];
  if (mode == 0) {
    g.n = 1;
    for (int i = 1; i < s.ndim(); ++i) g.n *= s[i];
    g.inner = 1;
  } else {
    g.n = s.ndim() > 1 ? s[1] : 1;
    g.inner = 1;
    for (int i = 2; i < s.ndim(); ++i) g.inner *= s[i];
  }
  return g;
}

template <typename xpu>
void SoftmaxActivationCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[0].Size() == 0) return;
  const SoftmaxActivationParam& param = nnvm::get<SoftmaxActivationParam>(attrs.parsed);
  const SoftmaxGeom g = SoftmaxActivationGeom(inputs[0].shape_, param.mode);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    SoftmaxForwardRows<SoftmaxKind::kSoftmax>(
        ctx.get_stream<xpu>(), g, static_cast<const DType*>(inputs[0].dptr<DType>()),
        outputs[0].dptr<DType>(), static_cast<const index_t*>(nullptr), 1.0,
        static_cast<int>(req[0]));
  });
}

/*! \brief inputs: out_grad, output; outputs: data_grad. */
template <typename xpu>
void SoftmaxActivationGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                  const std::vector<TBlob>& inputs,
                                  const std::vector<OpReqType>& req,
                                  const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[1].Size() == 0) return;
  const SoftmaxActivationParam& param = nnvm::get<SoftmaxActivationParam>(attrs.parsed);
  const SoftmaxGeom g = SoftmaxActivationGeom(inputs[1].shape_, param.mode);
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    SoftmaxLaunchRows<softmax_bwd_row<SoftmaxKind::kSoftmax>>(
        ctx.get_stream<xpu>(), g, static_cast<const DType*>(inputs[0].dptr<DType>()),
        static_cast<const DType*>(inputs[1].dptr<DType>()), outputs[0].dptr<DType>(),
        static_cast<const index_t*>(nullptr), g, 1.0, static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_SOFTMAX_INL_H_
