/*!
 * \file init_op-inl.h
 * \brief Creation operators (no tensor inputs): _zeros, _zeros_without_dtype, _ones, _full,
 *        _arange, _linspace, _eye; and zeros_like / ones_like.
 *
 *   _zeros(shape=(2, 3), dtype='int32')        _full(shape=(2,), value=7)
 *   _arange(start=5)            -> [0 1 2 3 4]  _arange(2, 8, 2, repeat=2) -> [2 2 4 4 6 6]
 *   _linspace(start=0, stop=1, num=5)            _eye(N=3, k=1)
 *
 * `ctx` is read by the imperative layer to place the output; kernels ignore it.
 */
#ifndef MXNET_OPERATOR_TENSOR_INIT_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_INIT_OP_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "./elemwise_unary_op-inl.h"

namespace mxnet {
namespace op {

struct InitOpParam : public dmlc::Parameter<InitOpParam> {
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(InitOpParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape(0, 1)).describe("The shape of the output");
    DMLC_DECLARE_FIELD(ctx).set_default("").describe(
        "Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for imperative calls.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(mshadow::kFloat32)
        MXNET_ADD_ALL_TYPES_WITH_BOOL
        .describe("Target data type.");
  }
};

struct InitOpWithoutDTypeParam : public dmlc::Parameter<InitOpWithoutDTypeParam> {
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(InitOpWithoutDTypeParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape()).describe("The shape of the output");
    DMLC_DECLARE_FIELD(ctx).set_default("").describe(
        "Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for imperative calls.");
    DMLC_DECLARE_FIELD(dtype).set_default(-1).describe("Target data type.");
  }
};

struct InitOpWithScalarParam : public dmlc::Parameter<InitOpWithScalarParam> {
  mxnet::TShape shape;
  std::string ctx;
  int dtype;
  double value;
  DMLC_DECLARE_PARAMETER(InitOpWithScalarParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape()).describe("The shape of the output");
    DMLC_DECLARE_FIELD(ctx).set_default("").describe(
        "Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for imperative calls.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(mshadow::kFloat32)
        MXNET_ADD_ALL_TYPES_WITH_BOOL
        .describe("Target data type.");
    DMLC_DECLARE_FIELD(value).describe("Value with which to fill newly created tensor");
  }
};

struct RangeParam : public dmlc::Parameter<RangeParam> {
  double start;
  dmlc::optional<double> stop;
  double step;
  int repeat;
  bool infer_range;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(RangeParam) {
    DMLC_DECLARE_FIELD(start).describe(
        "Start of interval. The interval includes this value. The default start value is 0.");
    DMLC_DECLARE_FIELD(stop)
        .set_default(dmlc::optional<double>())
        .describe(
            "End of interval. The interval does not include this value, except in some cases "
            "where step is not an integer and floating point round-off affects the length of "
            "out.");
    DMLC_DECLARE_FIELD(step).set_default(1).describe("Spacing between values.");
    DMLC_DECLARE_FIELD(repeat).set_default(1).describe(
        "The repeating time of all elements. E.g repeat=3, the element a will be repeated three "
        "times --> a, a, a.");
    DMLC_DECLARE_FIELD(infer_range).set_default(false).describe(
        "When set to True, infer the stop position from the start, step, repeat, and output "
        "tensor size.");
    DMLC_DECLARE_FIELD(ctx).set_default("").describe(
        "Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for imperative calls.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(mshadow::kFloat32)
        MXNET_ADD_ALL_TYPES
        .describe("Target data type.");
  }
};

struct LinspaceParam : public dmlc::Parameter<LinspaceParam> {
  double start;
  double stop;
  int num;
  bool endpoint;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(LinspaceParam) {
    DMLC_DECLARE_FIELD(start).describe("The starting value of the sequence.");
    DMLC_DECLARE_FIELD(stop).describe(
        "The ending value of the sequence, included when endpoint is true.");
    DMLC_DECLARE_FIELD(num).describe("Number of samples to generate. Must be non-negative.");
    DMLC_DECLARE_FIELD(endpoint).set_default(true).describe(
        "If True, stop is the last sample. Otherwise, it is not included.");
    DMLC_DECLARE_FIELD(ctx).set_default("").describe(
        "Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for imperative calls.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(mshadow::kFloat32)
        MXNET_ADD_ALL_TYPES
        .describe("Target data type.");
  }
};

struct EyeParam : public dmlc::Parameter<EyeParam> {
  dim_t N;
  dim_t M;
  dim_t k;
  std::string ctx;
  int dtype;
  DMLC_DECLARE_PARAMETER(EyeParam) {
    DMLC_DECLARE_FIELD(N).describe("Number of rows in the output.");
    DMLC_DECLARE_FIELD(M).set_default(0).describe(
        "Number of columns in the output. If 0, defaults to N");
    DMLC_DECLARE_FIELD(k).set_default(0).describe(
        "Index of the diagonal. 0 (the default) refers to the main diagonal.A positive value "
        "refers to an upper diagonal.A negative value to a lower diagonal.");
    DMLC_DECLARE_FIELD(ctx).set_default("").describe(
        "Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for imperative calls.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(mshadow::kFloat32)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("uint8", mshadow::kUint8)
        .add_enum("int8", mshadow::kInt8)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int64", mshadow::kInt64)
        .describe("Target data type.");
  }
};

// ------------------------------------------------------------------------------------------
// Shape and type inference
// ------------------------------------------------------------------------------------------

/*! \brief Output shape = param.shape (unknown when the parameter is None). */
template <typename ParamType>
inline bool InitShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                      mxnet::ShapeVector* out_attrs) {
  const ParamType& param = nnvm::get<ParamType>(attrs.parsed);
  const mxnet::TShape& s = param.shape;
  if (!mxnet::ndim_is_known(s)) return mxnet::shape_is_known((*out_attrs)[0]);
  // MXNet 1.x shape semantics: a 0 in a creation op's shape means "unknown, infer it", so
  // mx.sym.zeros((0, H)) takes its batch size from the graph (RNN begin states rely on it).
  mxnet::TShape wanted(s.ndim(), -1);
  for (int i = 0; i < s.ndim(); ++i) {
    if (s[i] < 0) {
      MX_THROW(ValueError) << attrs.op->name << ": expected a shape of non-negative dims, got "
                           << s;
    }
    if (s[i] > 0) wanted[i] = s[i];
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, wanted);
  return mxnet::shape_is_known((*out_attrs)[0]);
}

/*! \brief Output dtype = param.dtype (-1: keep the caller's, else float32). */
template <typename ParamType>
inline bool InitType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                     std::vector<int>* out_attrs) {
  const ParamType& param = nnvm::get<ParamType>(attrs.parsed);
  int dtype = param.dtype;
  if (dtype == -1) dtype = (*out_attrs)[0] != -1 ? (*out_attrs)[0] : mshadow::kFloat32;
  CheckComputableDType(attrs.op->name.c_str(), "output", dtype);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, dtype);
  return true;
}

/*! \brief Number of _arange elements (before repeat), or -1 when it cannot be inferred. */
inline double RangeCount(const RangeParam& p) {
  if (!p.stop.has_value()) return -1;
  const double n = std::ceil((p.stop.value() - p.start) / p.step);
  return n < 0 ? 0 : n;
}

inline bool RangeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                       mxnet::ShapeVector* out_attrs) {
  const RangeParam& param = nnvm::get<RangeParam>(attrs.parsed);
  if (param.step == 0) {
    MX_THROW(ValueError) << "_arange: expected a non-zero step, got step=0";
  }
  if (param.repeat <= 0) {
    MX_THROW(ValueError) << "_arange: expected repeat > 0, got repeat=" << param.repeat;
  }
  const double n = RangeCount(param);
  if (n < 0) return mxnet::shape_is_known((*out_attrs)[0]);  // infer_range without stop
  SHAPE_ASSIGN_CHECK(*out_attrs, 0,
                     mxnet::TShape({static_cast<dim_t>(n) * static_cast<dim_t>(param.repeat)}));
  return true;
}

inline bool LinspaceShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                          mxnet::ShapeVector* out_attrs) {
  const LinspaceParam& param = nnvm::get<LinspaceParam>(attrs.parsed);
  if (param.num < 0) {
    MX_THROW(ValueError) << "_linspace: expected num >= 0, got num=" << param.num;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape({static_cast<dim_t>(param.num)}));
  return true;
}

inline bool EyeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                     mxnet::ShapeVector* out_attrs) {
  const EyeParam& param = nnvm::get<EyeParam>(attrs.parsed);
  if (param.N < 0 || param.M < 0) {
    MX_THROW(ValueError) << "_eye: expected non-negative N and M, got N=" << param.N
                         << ", M=" << param.M;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape({param.N, param.M > 0 ? param.M : param.N}));
  return true;
}

// ------------------------------------------------------------------------------------------
// Kernels
// ------------------------------------------------------------------------------------------

/*! \brief Zero `bytes` at p: a parallel memset on the CPU, cudaMemsetAsync on a GPU. */
inline void ZeroBytes(mshadow::Stream<cpu>*, void* p, size_t bytes) {
  using namespace mxnet_op;
  char* c = static_cast<char*>(p);
  const int nthreads = bytes >= static_cast<size_t>(kOmpThreshold) * 4 ? MaxOmpThreads() : 1;
  if (nthreads > 1) {
    const size_t chunk = (bytes + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads)
    for (int t = 0; t < nthreads; ++t) {
      const size_t b = t * chunk;
      if (b < bytes) std::memset(c + b, 0, std::min(chunk, bytes - b));
    }
  } else {
    std::memset(c, 0, bytes);
  }
}
#ifdef __CUDACC__
inline void ZeroBytes(mshadow::Stream<gpu>* s, void* p, size_t bytes) {
  CUDA_CALL(cudaMemsetAsync(p, 0, bytes, mshadow::Stream<gpu>::GetStream(s)));
}
#endif

/*! \brief out (req) value on every element; a zero write is a memset. */
template <typename xpu>
void FillBlob(mshadow::Stream<xpu>* s, const TBlob& out, OpReqType req, double value) {
  using namespace mxnet_op;
  if (req == kNullOp) return;
  const index_t n = static_cast<index_t>(out.Size());
  if (n == 0) return;
  if (req == kAddTo && value == 0) return;
  if (value == 0 && req != kAddTo) {
    ZeroBytes(s, out.dptr_, static_cast<size_t>(n) * mshadow::mshadow_sizeof(out.type_flag_));
    return;
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out.type_flag_, DType, {
    const DType v = CastValue<DType>(value);
    LaunchWrite<elemwise_kernel::fill>(s, n, req, out.dptr<DType>(), v);
  });
}

template <typename xpu, int value>
void FillCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  FillBlob<xpu>(ctx.get_stream<xpu>(), outputs[0], req[0], value);
}

template <typename xpu>
void FullCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  FillBlob<xpu>(ctx.get_stream<xpu>(), outputs[0], req[0],
                nnvm::get<InitOpWithScalarParam>(attrs.parsed).value);
}

namespace init_kernel {

/*! \brief arange: start + (i / repeat) * step. */
struct RangeGen {
  double start, step;
  index_t repeat;
  MSHADOW_XINLINE double operator()(index_t i) const {
    return start + static_cast<double>(i / repeat) * step;
  }
};

/*! \brief linspace: start + i * step, the last element exactly `stop` with endpoint. */
struct LinspaceGen {
  double start, stop, step;
  index_t last;
  bool endpoint;
  MSHADOW_XINLINE double operator()(index_t i) const {
    return (endpoint && i == last && last > 0) ? stop : start + step * static_cast<double>(i);
  }
};

/*! \brief eye: 1 on the k-th diagonal of a rows x cols matrix. */
struct EyeGen {
  index_t cols, k;
  MSHADOW_XINLINE double operator()(index_t i) const {
    return (i % cols) - (i / cols) == k ? 1.0 : 0.0;
  }
};

/*! \brief out[i] (req) gen(i), computed in double. */
template <int req>
struct generate {
  template <typename DType, typename Gen>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, Gen gen) {
    if (req == kAddTo) {
      out[i] = CastValue<DType>(static_cast<double>(out[i]) + gen(i));
    } else {
      out[i] = CastValue<DType>(gen(i));
    }
  }
};

}  // namespace init_kernel

/*! \brief out[i] (req) gen(i) for a generator computed in double. */
template <typename xpu, typename Gen>
inline void GenerateBlob(mshadow::Stream<xpu>* s, const TBlob& out, OpReqType req, Gen gen) {
  using namespace mxnet_op;
  const index_t n = static_cast<index_t>(out.Size());
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    MXNET_ASSIGN_REQ_SWITCH(req, Req, {
      Kernel<init_kernel::generate<Req>, xpu>::Launch(s, n, out.dptr<DType>(), gen);
    });
  });
}

template <typename xpu>
void RangeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const RangeParam& p = nnvm::get<RangeParam>(attrs.parsed);
  GenerateBlob<xpu>(ctx.get_stream<xpu>(), outputs[0], req[0],
                    init_kernel::RangeGen{p.start, p.step, static_cast<index_t>(p.repeat)});
}

template <typename xpu>
void LinspaceCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const LinspaceParam& p = nnvm::get<LinspaceParam>(attrs.parsed);
  const int steps = p.endpoint ? p.num - 1 : p.num;
  const double step = steps > 0 ? (p.stop - p.start) / steps : 0.0;
  GenerateBlob<xpu>(ctx.get_stream<xpu>(), outputs[0], req[0],
                    init_kernel::LinspaceGen{p.start, p.stop, step,
                                             static_cast<index_t>(p.num - 1),
                                             static_cast<bool>(p.endpoint)});
}

template <typename xpu>
void EyeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  const EyeParam& p = nnvm::get<EyeParam>(attrs.parsed);
  GenerateBlob<xpu>(ctx.get_stream<xpu>(), outputs[0], req[0],
                    init_kernel::EyeGen{static_cast<index_t>(p.M > 0 ? p.M : p.N),
                                        static_cast<index_t>(p.k)});
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_INIT_OP_INL_H_
