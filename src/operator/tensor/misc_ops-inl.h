/*!
 * \file misc_ops-inl.h
 * \brief Kernels of the small operators of misc_ops.cc for both devices: hard_sigmoid,
 *        cumsum, shape_array / size_array, index_array, gradientmultiplier's gradient and
 *        _onehot_encode. Element math is done in double, as the CPU always did.
 */
#ifndef MXNET_OPERATOR_TENSOR_MISC_OPS_INL_H_
#define MXNET_OPERATOR_TENSOR_MISC_OPS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <vector>

#include "../host_copy.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct HardSigmoidParam : public dmlc::Parameter<HardSigmoidParam> {
  float alpha;
  float beta;
  DMLC_DECLARE_PARAMETER(HardSigmoidParam) {
    DMLC_DECLARE_FIELD(alpha).set_default(0.2).describe("Slope of hard sigmoid");
    DMLC_DECLARE_FIELD(beta).set_default(0.5).describe("Bias of hard sigmoid.");
  }
};

struct GradientMultiplierParam : public dmlc::Parameter<GradientMultiplierParam> {
  double scalar;
  bool is_int;
  DMLC_DECLARE_PARAMETER(GradientMultiplierParam) {
    DMLC_DECLARE_FIELD(scalar).set_default(1).describe("Scalar input value");
    DMLC_DECLARE_FIELD(is_int).set_default(true)
        .describe("Indicate whether scalar input is int type");
  }
};

struct CumsumParam : public dmlc::Parameter<CumsumParam> {
  dmlc::optional<int> axis;
  dmlc::optional<int> dtype;
  DMLC_DECLARE_PARAMETER(CumsumParam) {
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>())
        .describe("Axis along which the cumulative sum is computed. The default (None) is to "
                  "compute the cumsum over the flattened array.");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .add_enum("int8", mshadow::kInt8)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int64", mshadow::kInt64)
        .set_default(dmlc::optional<int>())
        .describe("Type of the returned array and of the accumulator in which the elements are "
                  "summed. If dtype is not specified, it defaults to the dtype of a, unless a "
                  "has an integer dtype with a precision less than that of the default platform "
                  "integer. In that case, the default platform integer is used.");
  }
};

struct IndexArrayParam : public dmlc::Parameter<IndexArrayParam> {
  dmlc::optional<mxnet::TShape> axes;
  DMLC_DECLARE_PARAMETER(IndexArrayParam) {
    DMLC_DECLARE_FIELD(axes).set_default(dmlc::optional<mxnet::TShape>())
        .describe("The axes to include in the index array. Supports negative values.");
  }
};

namespace misc_kernel {

template <typename DType>
MSHADOW_XINLINE void AssignDouble(DType* dst, int req, double v) {
  if (req == kNullOp) return;
  *dst = req == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v) : static_cast<DType>(v);
}

struct hard_sigmoid {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, double a, double b,
                                  int req) {
    const double z = a * static_cast<double>(x[i]) + b;
    AssignDouble(y + i, req, z < 0.0 ? 0.0 : (z > 1.0 ? 1.0 : z));
  }
};

struct hard_sigmoid_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* gx, const DType* g, const DType* x, double a,
                                  double b, int req) {
    const double z = a * static_cast<double>(x[i]) + b;
    AssignDouble(gx + i, req, z > 0 && z < 1 ? a * static_cast<double>(g[i]) : 0.0);
  }
};

/*! \brief y[i] (req) x[i] * s. */
struct scale {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, double s, int req) {
    AssignDouble(y + i, req, static_cast<double>(x[i]) * s);
  }
};

/*! \brief One running sum per (outer, inner) line, accumulated in the output dtype (NumPy's
 *         rule), from the first element or from the last. */
struct scan_line {
  template <typename SType, typename DType>
  MSHADOW_XINLINE static void Map(index_t line, DType* d, const SType* s, index_t len,
                                  index_t inner, bool reverse, int req) {
    const index_t o = line / inner, k = line % inner;
    DType acc = DType(0);
    for (index_t j = 0; j < len; ++j) {
      const index_t jj = reverse ? len - 1 - j : j;
      const index_t at = (o * len + jj) * inner + k;
      acc = static_cast<DType>(static_cast<double>(acc) + static_cast<double>(s[at]));
      AssignDouble(d + at, req, static_cast<double>(acc));
    }
  }
};

/*! \brief Up to kSize int64 values passed to a kernel by value. */
struct Int64Chunk {
  static constexpr int kSize = 8;
  int64_t v[kSize];
};

struct write_int64 {
  MSHADOW_XINLINE static void Map(index_t i, int64_t* out, Int64Chunk c, int req) {
    AssignDouble(out + i, req, static_cast<double>(c.v[i]));
  }
};

/*! \brief (stride, size) of each requested axis of index_array, by value. */
struct IndexAxes {
  static constexpr int kMax = 32;
  index_t stride[kMax];
  index_t size[kMax];
  int m;
};

/*! \brief out[flat * m + j] (req) coordinate axes[j] of the flat index. */
struct index_array {
  MSHADOW_XINLINE static void Map(index_t i, int64_t* out, IndexAxes ax, int req) {
    const index_t flat = i / ax.m;
    const int j = static_cast<int>(i % ax.m);
    AssignDouble(out + i, req, static_cast<double>((flat / ax.stride[j]) % ax.size[j]));
  }
};

/*! \brief out[i, j] (req) 1 where j is row i's index, else 0; indices checked before. */
struct onehot {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const IType* idx, index_t k, int req) {
    const index_t hot = static_cast<index_t>(static_cast<double>(idx[i / k]));
    AssignDouble(out + i, req, i % k == hot ? 1.0 : 0.0);
  }
};

}  // namespace misc_kernel

template <typename xpu>
void HardSigmoidCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const HardSigmoidParam& p = nnvm::get<HardSigmoidParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<misc_kernel::hard_sigmoid, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), static_cast<double>(p.alpha), static_cast<double>(p.beta),
        static_cast<int>(req[0]));
  });
}

template <typename xpu>
void HardSigmoidGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  const HardSigmoidParam& p = nnvm::get<HardSigmoidParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<misc_kernel::hard_sigmoid_grad, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), static_cast<double>(p.alpha),
        static_cast<double>(p.beta), static_cast<int>(req[0]));
  });
}

/*! \brief Gradient of gradientmultiplier: out_grad * scalar. */
template <typename xpu>
void GradientMultiplierGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& inputs,
                                   const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& outputs) {
  const double s = nnvm::get<GradientMultiplierParam>(attrs.parsed).scalar;
  if (req[0] == kNullOp) return;
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<misc_kernel::scale, xpu>::Launch(
        ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), s, static_cast<int>(req[0]));
  });
}

/*! \brief (outer, len, inner) of the summed axis (the flattened array without axis). */
struct ScanLayout {
  index_t outer = 1, len = 1, inner = 1;
};

inline ScanLayout CumsumLayout(const CumsumParam& p, const TShape& shape) {
  ScanLayout l;
  if (!p.axis.has_value()) {
    l.len = shape.Size();
    return l;
  }
  int axis = p.axis.value();
  if (axis < 0) axis += shape.ndim();
  if (axis < 0 || axis >= shape.ndim()) {
    MX_THROW(ValueError) << "cumsum: axis " << p.axis.value() << " is out of range for an "
                         << "array of shape " << shape;
  }
  for (int i = 0; i < axis; ++i) l.outer *= shape[i];
  l.len = shape[axis];
  for (int i = axis + 1; i < shape.ndim(); ++i) l.inner *= shape[i];
  return l;
}

/*! \brief cumsum (reverse=false) or its gradient, the running sum from the end (true). */
template <typename xpu, bool reverse>
void CumsumCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& src = inputs[0];
  const TBlob& dst = outputs[0];
  // The layout is the forward input's: the gradient's output has that shape.
  const ScanLayout l = CumsumLayout(nnvm::get<CumsumParam>(attrs.parsed),
                                    reverse ? dst.shape_ : src.shape_);
  if (l.len == 0) return;
  MSHADOW_TYPE_SWITCH(src.type_flag_, SType, {
    MSHADOW_TYPE_SWITCH(dst.type_flag_, DType, {
      mxnet_op::Kernel<misc_kernel::scan_line, xpu>::Launch(
          ctx.get_stream<xpu>(), l.outer * l.inner, dst.dptr<DType>(), src.dptr<SType>(),
          l.len, l.inner, reverse, static_cast<int>(req[0]));
    });
  });
}

/*! \brief out (int64, req) = values, written by kernels (no host access to out). */
template <typename xpu>
void WriteInt64Values(mshadow::Stream<xpu>* s, const TBlob& out,
                      const std::vector<int64_t>& values, OpReqType req) {
  if (req == kNullOp) return;
  using misc_kernel::Int64Chunk;
  for (size_t at = 0; at < values.size(); at += Int64Chunk::kSize) {
    Int64Chunk c{};
    const size_t n = std::min<size_t>(Int64Chunk::kSize, values.size() - at);
    std::copy(values.begin() + at, values.begin() + at + n, c.v);
    mxnet_op::Kernel<misc_kernel::write_int64, xpu>::Launch(s, n, out.dptr<int64_t>() + at, c,
                                                            static_cast<int>(req));
  }
}

template <typename xpu>
void ShapeArrayCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const TShape& s = inputs[0].shape_;
  WriteInt64Values(ctx.get_stream<xpu>(), outputs[0], std::vector<int64_t>(s.begin(), s.end()),
                   req[0]);
}

template <typename xpu>
void SizeArrayCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  WriteInt64Values(ctx.get_stream<xpu>(), outputs[0],
                   {static_cast<int64_t>(inputs[0].shape_.Size())}, req[0]);
}

inline std::vector<int> IndexArrayAxes(const IndexArrayParam& p, const TShape& shape) {
  std::vector<int> axes;
  if (!p.axes.has_value()) {
    for (int i = 0; i < shape.ndim(); ++i) axes.push_back(i);
    return axes;
  }
  for (dim_t a : p.axes.value()) {
    const dim_t axis = a < 0 ? a + shape.ndim() : a;
    if (axis < 0 || axis >= shape.ndim()) {
      MX_THROW(ValueError) << "index_array: axis " << a << " is out of range for data of shape "
                           << shape;
    }
    axes.push_back(static_cast<int>(axis));
  }
  if (axes.size() > static_cast<size_t>(misc_kernel::IndexAxes::kMax)) {
    MX_THROW(ValueError) << "index_array: at most " << misc_kernel::IndexAxes::kMax
                         << " axes are supported, got " << axes.size() << " for data of shape "
                         << shape;
  }
  return axes;
}

template <typename xpu>
void IndexArrayCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const TShape& s = inputs[0].shape_;
  const std::vector<int> axes = IndexArrayAxes(nnvm::get<IndexArrayParam>(attrs.parsed), s);
  if (req[0] == kNullOp || axes.empty() || s.Size() == 0) return;
  misc_kernel::IndexAxes ax{};
  ax.m = static_cast<int>(axes.size());
  for (size_t j = 0; j < axes.size(); ++j) {
    index_t stride = 1;
    for (int d = axes[j] + 1; d < s.ndim(); ++d) stride *= s[d];
    ax.stride[j] = stride;
    ax.size[j] = s[axes[j]];
  }
  mxnet_op::Kernel<misc_kernel::index_array, xpu>::Launch(
      ctx.get_stream<xpu>(), outputs[0].Size(), outputs[0].dptr<int64_t>(), ax,
      static_cast<int>(req[0]));
}

template <typename xpu>
void OnehotEncodeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const TShape& r = outputs[0].shape_;
  const index_t k = r[1];
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const std::vector<double> hot = BlobValuesOnHost(s, inputs[0]);
  for (size_t i = 0; i < hot.size(); ++i) {
    if (!(hot[i] >= 0 && hot[i] < k)) {
      MX_THROW(ValueError) << "_onehot_encode: index lhs[" << i << "] = " << hot[i]
                           << " is outside [0, " << k << ") (rhs shape " << r << ")";
    }
  }
  if (req[0] == kNullOp || k == 0) return;
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, IType, {
      mxnet_op::Kernel<misc_kernel::onehot, xpu>::Launch(s, outputs[0].Size(),
                                                         outputs[0].dptr<DType>(),
                                                         inputs[0].dptr<IType>(), k,
                                                         static_cast<int>(req[0]));
    });
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_MISC_OPS_INL_H_
