/*!
 * \file elemwise_unary_op-inl.h
 * \brief Element-wise unary operators: kernels, gradient functors and the registration macros
 *        shared by elemwise_unary_op_basic.cc and elemwise_unary_op_math.cc.
 *
 *   MXNET_OPERATOR_REGISTER_UNARY(sin)
 *   .describe("Computes the element-wise sine of the input array.")
 *   .set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, mshadow_op::sin>)
 *   .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_sin"});
 *
 *   MXNET_OPERATOR_REGISTER_UNARY_BWD(_backward_sin, unary_grad::sin);   // dx = dy * cos(x)
 *
 * Kernels take the req (null/write/inplace/add) as a template argument, run over contiguous
 * chunks (vectorisable loop bodies) and use OpenMP only for large arrays.
 */
#ifndef MXNET_OPERATOR_TENSOR_ELEMWISE_UNARY_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_ELEMWISE_UNARY_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mshadow_op.h"
#include "../../common/cast.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

// ------------------------------------------------------------------------------------------
// Write kernels for mxnet_op::LaunchWrite: Map(begin, n, dst, ...) writes the values of
// elements [begin, begin + n) to dst[0, n); LaunchWrite applies the req (plain, vectorisable
// loops, compiled once per functor and dtype).
// ------------------------------------------------------------------------------------------
namespace elemwise_kernel {

/*! \brief OP(in[i]). */
template <typename OP>
struct unary {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* dst, const DType* in) {
    const DType* x = in + begin;
    for (index_t i = 0; i < n; ++i) dst[i] = OP::Map(x[i]);
  }
};

/*! \brief ograd[i] * GRAD(in[i]): the backward of a unary op. */
template <typename GRAD>
struct unary_bwd {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* dst, const DType* ograd,
                                  const DType* in) {
    const DType* g = ograd + begin;
    const DType* x = in + begin;
    for (index_t i = 0; i < n; ++i) dst[i] = static_cast<DType>(g[i] * GRAD::Map(x[i]));
  }
};

/*! \brief value. */
struct fill {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t, index_t n, DType* dst, DType value) {
    for (index_t i = 0; i < n; ++i) dst[i] = value;
  }
};

}  // namespace elemwise_kernel

using common::CastValue;

using mxnet_op::ParallelRanges;

// ------------------------------------------------------------------------------------------
// Gradient functors: GRAD::Map(v) is df/dx expressed on the forward input x (UseIn ops) or
// the forward output y (UseOut ops, noted). dx = dy * GRAD::Map(v).
// ------------------------------------------------------------------------------------------
namespace unary_grad {

using mshadow_op::AccType;

/*! \brief Digamma psi(x) for x > 0: recurrence up to 6, then the asymptotic series. */
MSHADOW_XINLINE double digamma_positive(double x) {
  double r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const double f = 1 / (x * x);
  const double t =
      f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (-1.0 / 132)))));
  return r + std::log(x) - 0.5 / x + t;
}

/*! \brief Digamma function psi(x) = d/dx log(Gamma(x)) (reflection below 0). */
MSHADOW_XINLINE double digamma(double x) {
  if (x <= 0 && std::floor(x) == x) return std::numeric_limits<double>::quiet_NaN();
  if (x < 0) return digamma_positive(1.0 - x) - M_PI / std::tan(M_PI * x);
  return digamma_positive(x);
}

/*! \brief Inverse error function (Giles' approximation refined by Newton steps). */
MSHADOW_XINLINE double erfinv_impl(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return std::numeric_limits<double>::infinity();
  if (y == -1) return -std::numeric_limits<double>::infinity();
  double w = -std::log((1.0 - y) * (1.0 + y)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double x = p * y;
  const double k = 2.0 / std::sqrt(M_PI);
  for (int it = 0; it < 2; ++it) {  // Newton refinement to double precision
    const double err = std::erf(x) - y;
    x -= err / (k * std::exp(-x * x));
  }
  return x;
}

#define MXNET_UNARY_GRAD_OP(name, expr)            \
  struct name {                                    \
    template <typename DType>                      \
    MSHADOW_XINLINE static DType Map(DType a_) {   \
      using A = typename AccType<DType>::type;     \
      const A a = static_cast<A>(a_);              \
      (void)a;                                     \
      return common::FromFloat<DType>(A(expr));    \
    }                                              \
  };

MXNET_UNARY_GRAD_OP(abs, a > A(0) ? A(1) : (a < A(0) ? A(-1) : A(0)))
MXNET_UNARY_GRAD_OP(sign, A(0))
MXNET_UNARY_GRAD_OP(square, A(2) * a)
MXNET_UNARY_GRAD_OP(sqrt, A(0.5) / a)                    // on y = sqrt(x)
MXNET_UNARY_GRAD_OP(rsqrt, A(-0.5) / (a * std::sqrt(a)))
MXNET_UNARY_GRAD_OP(cbrt, A(1) / (A(3) * a * a))         // on y = cbrt(x)
MXNET_UNARY_GRAD_OP(rcbrt, A(-1) / (A(3) * a * std::cbrt(a)))
MXNET_UNARY_GRAD_OP(reciprocal, A(-1) / (a * a))
MXNET_UNARY_GRAD_OP(expm1, std::exp(a))
MXNET_UNARY_GRAD_OP(log, A(1) / a)
MXNET_UNARY_GRAD_OP(log10, A(1) / (a * A(M_LN10)))
MXNET_UNARY_GRAD_OP(log2, A(1) / (a * A(M_LN2)))
MXNET_UNARY_GRAD_OP(log1p, A(1) / (A(1) + a))
MXNET_UNARY_GRAD_OP(sin, std::cos(a))
MXNET_UNARY_GRAD_OP(cos, -std::sin(a))
MXNET_UNARY_GRAD_OP(tan, A(1) + a * a)                   // on y = tan(x)
MXNET_UNARY_GRAD_OP(arcsin, A(1) / std::sqrt(A(1) - a * a))
MXNET_UNARY_GRAD_OP(arccos, A(-1) / std::sqrt(A(1) - a * a))
MXNET_UNARY_GRAD_OP(arctan, A(1) / (A(1) + a * a))
MXNET_UNARY_GRAD_OP(degrees, A(180.0 / M_PI))
MXNET_UNARY_GRAD_OP(radians, A(M_PI / 180.0))
MXNET_UNARY_GRAD_OP(sinh, std::cosh(a))
MXNET_UNARY_GRAD_OP(cosh, std::sinh(a))
MXNET_UNARY_GRAD_OP(tanh, A(1) - a * a)                  // on y = tanh(x)
MXNET_UNARY_GRAD_OP(arcsinh, A(1) / std::sqrt(a * a + A(1)))
MXNET_UNARY_GRAD_OP(arccosh, A(1) / std::sqrt(a * a - A(1)))
MXNET_UNARY_GRAD_OP(arctanh, A(1) / (A(1) - a * a))
MXNET_UNARY_GRAD_OP(gamma, std::tgamma(a) * A(digamma(static_cast<double>(a))))
MXNET_UNARY_GRAD_OP(gammaln, A(digamma(static_cast<double>(a))))
MXNET_UNARY_GRAD_OP(erf, A(2.0 / std::sqrt(M_PI)) * std::exp(-a * a))
MXNET_UNARY_GRAD_OP(erfinv, A(0.5 * std::sqrt(M_PI)) *
                                std::exp(A(erfinv_impl(static_cast<double>(a))) *
                                         A(erfinv_impl(static_cast<double>(a)))))
MXNET_UNARY_GRAD_OP(relu, a > A(0) ? A(1) : A(0))        // on y = relu(x)
MXNET_UNARY_GRAD_OP(sigmoid, a * (A(1) - a))             // on y = sigmoid(x)
MXNET_UNARY_GRAD_OP(softsign, A(1) / ((A(1) + (a < A(0) ? -a : a)) * (A(1) + (a < A(0) ? -a : a))))
MXNET_UNARY_GRAD_OP(softrelu, -std::expm1(-a))           // on y = softrelu(x)

#undef MXNET_UNARY_GRAD_OP

}  // namespace unary_grad

/*! \brief Forward functor for erfinv (not in mshadow_op.h). */
namespace mshadow_op_ext {
struct erfinv {
  template <typename DType>
  MSHADOW_XINLINE static DType Map(DType a) {
    return static_cast<DType>(unary_grad::erfinv_impl(static_cast<double>(static_cast<float>(a))));
  }
  MSHADOW_XINLINE static double Map(double a) { return unary_grad::erfinv_impl(a); }
};
}  // namespace mshadow_op_ext

// ------------------------------------------------------------------------------------------
// FCompute implementations
// ------------------------------------------------------------------------------------------
struct UnaryOp {
  /*! \brief outputs[0] = OP(inputs[0]). */
  template <typename xpu, typename OP>
  static void Compute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
    using namespace mxnet_op;
    if (req[0] == kNullOp) return;
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    const index_t n = static_cast<index_t>(outputs[0].Size());
    MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
      LaunchWrite<elemwise_kernel::unary<OP>>(s, n, req[0], outputs[0].dptr<DType>(),
                                              inputs[0].dptr<DType>());
    });
  }

  /*! \brief outputs[0] = inputs[0] (identity, copy elided when in place). */
  template <typename xpu>
  static void IdentityCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
    using namespace mxnet_op;
    if (req[0] == kNullOp) return;
    if (req[0] != kAddTo && inputs[0].dptr_ == outputs[0].dptr_) return;
    UnaryOp::Compute<xpu, mshadow_op::identity>(attrs, ctx, inputs, req, outputs);
  }

  /*! \brief outputs[0] = inputs[0] * GRAD(inputs[1]) (the backward of a unary op). */
  template <typename xpu, typename GRAD>
  static void Backward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
    using namespace mxnet_op;
    if (req[0] == kNullOp) return;
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    const index_t n = static_cast<index_t>(outputs[0].Size());
    MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
      LaunchWrite<elemwise_kernel::unary_bwd<GRAD>>(s, n, req[0], outputs[0].dptr<DType>(),
                                                    inputs[0].dptr<DType>(),
                                                    inputs[1].dptr<DType>());
    });
  }

  /*! \brief Every output set to `value` (zeros_like, ones_like, zero gradients). */
  template <typename xpu, int value>
  static void FillCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
    using namespace mxnet_op;
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (req[i] == kNullOp) continue;
      if (req[i] == kAddTo && value == 0) continue;
      const index_t n = static_cast<index_t>(outputs[i].Size());
      MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[i].type_flag_, DType, {
        LaunchWrite<elemwise_kernel::fill>(s, n, req[i], outputs[i].dptr<DType>(),
                                           static_cast<DType>(value));
      });
    }
  }
};

/*! \brief FInplaceOption (input 0 -> output 0). */
inline std::vector<std::pair<int, int>> InplaceIn0Out0(const nnvm::NodeAttrs&) {
  return std::vector<std::pair<int, int>>{{0, 0}};
}

/*! \brief Type inference that accepts floating-point inputs only (names the op). */
inline bool ElemwiseFloatType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                              std::vector<int>* out_attrs) {
  if (!ElemwiseType<1, 1>(attrs, in_attrs, out_attrs)) return false;
  const int t = (*out_attrs)[0];
  if (!mshadow::IsFloatingType(t)) {
    MX_THROW(TypeError) << "Operator " << attrs.op->name
                        << ": expected a floating-point dtype for data, got "
                        << mshadow::dtype_string(t);
  }
  return true;
}

// ------------------------------------------------------------------------------------------
// Cast and clip
// ------------------------------------------------------------------------------------------

#ifndef MXNET_ADD_ALL_TYPES
#define MXNET_ADD_ALL_TYPES                       \
  .add_enum("float32", mshadow::kFloat32)         \
      .add_enum("float64", mshadow::kFloat64)     \
      .add_enum("float16", mshadow::kFloat16)     \
      .add_enum("bfloat16", mshadow::kBfloat16)   \
      .add_enum("uint8", mshadow::kUint8)         \
      .add_enum("int8", mshadow::kInt8)           \
      .add_enum("int32", mshadow::kInt32)         \
      .add_enum("int64", mshadow::kInt64)
#endif
#ifndef MXNET_ADD_ALL_TYPES_WITH_BOOL
#define MXNET_ADD_ALL_TYPES_WITH_BOOL             \
  .add_enum("float32", mshadow::kFloat32)         \
      .add_enum("float64", mshadow::kFloat64)     \
      .add_enum("float16", mshadow::kFloat16)     \
      .add_enum("bfloat16", mshadow::kBfloat16)   \
      .add_enum("uint8", mshadow::kUint8)         \
      .add_enum("int8", mshadow::kInt8)           \
      .add_enum("int32", mshadow::kInt32)         \
      .add_enum("int64", mshadow::kInt64)         \
      .add_enum("bool", mshadow::kBool)
#endif

/*! \brief Throws TypeError when `dtype` has no kernel in this build (bfloat16 runs through the float32 fallback of the execution core). */
inline void CheckComputableDType(const char* op, const char* what, int dtype) {
  if (mshadow::mshadow_sizeof(dtype) == 0 ||
      dtype == mshadow::kInt16 || dtype == mshadow::kUint16 || dtype == mshadow::kUint32 ||
      dtype == mshadow::kUint64) {
    MX_THROW(TypeError) << "Operator " << op << ": " << what << " dtype "
                        << mshadow::dtype_string(dtype) << " is not supported";
  }
}

struct CastParam : public dmlc::Parameter<CastParam> {
  int dtype;
  DMLC_DECLARE_PARAMETER(CastParam) {
    DMLC_DECLARE_FIELD(dtype)
    MXNET_ADD_ALL_TYPES_WITH_BOOL
    .describe("Output data type.");
  }
};

inline bool CastType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                     std::vector<int>* out_attrs) {
  const CastParam& param = nnvm::get<CastParam>(attrs.parsed);
  CheckComputableDType(attrs.op->name.c_str(), "output", param.dtype);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, param.dtype);
  return (*in_attrs)[0] != -1;
}

/*! \brief Cast and _copyto: a dtype-converting copy. */
template <typename xpu>
void CastCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    common::CastCopy(inputs[0], req[0], outputs[0]);
  } else {
    if (req[0] == kNullOp) return;
    MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[0].type_flag_, OType, {
      MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, IType, {
        mxnet_op::Kernel<common::cast_element, xpu>::Launch(
            ctx.get_stream<xpu>(), static_cast<index_t>(outputs[0].Size()),
            static_cast<const IType*>(inputs[0].dptr<IType>()), outputs[0].dptr<OType>(),
            static_cast<int>(req[0]));
      });
    });
  }
}

/*!
 * \brief Output i = input i converted to output i's dtype, for every output (amp_cast,
 *        amp_multicast, their gradients, identity-forward ops); in place it is a no-op.
 */
template <typename xpu>
void CastEachCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (req[i] == kNullOp) continue;
    if (req[i] != kAddTo && inputs[i].dptr_ == outputs[i].dptr_ &&
        inputs[i].type_flag_ == outputs[i].type_flag_) {
      continue;
    }
    CastCompute<xpu>(attrs, ctx, {inputs[i]}, {req[i]}, {outputs[i]});
  }
}

struct ClipParam : public dmlc::Parameter<ClipParam> {
  float a_min, a_max;
  DMLC_DECLARE_PARAMETER(ClipParam) {
    DMLC_DECLARE_FIELD(a_min).describe("Minimum value");
    DMLC_DECLARE_FIELD(a_max).describe("Maximum value");
  }
};

namespace elemwise_kernel {
struct clip {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* dst, const DType* in,
                                  DType lo, DType hi) {
    const DType* x = in + begin;
    for (index_t i = 0; i < n; ++i) {
      const DType v = x[i];
      dst[i] = v > hi ? hi : (v < lo ? lo : v);
    }
  }
};
struct clip_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* dst, const DType* ograd,
                                  const DType* in, DType lo, DType hi) {
    const DType* g = ograd + begin;
    const DType* x = in + begin;
    for (index_t i = 0; i < n; ++i) {
      const DType v = x[i];
      dst[i] = (v > hi || v < lo) ? DType(0) : g[i];
    }
  }
};
}  // namespace elemwise_kernel

/*! \brief The clip bound in DType (integer bounds round toward zero like MXNet's cast). */
template <typename DType>
inline DType ClipBound(float v) {
  if (std::is_integral<DType>::value) {
    const double lo = static_cast<double>(std::numeric_limits<DType>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<DType>::max());
    return static_cast<DType>(std::min(hi, std::max(lo, static_cast<double>(v))));
  }
  return static_cast<DType>(v);
}

template <typename xpu>
void ClipCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  using namespace mxnet_op;
  const ClipParam& param = nnvm::get<ClipParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    LaunchWrite<elemwise_kernel::clip>(
        ctx.get_stream<xpu>(), static_cast<index_t>(outputs[0].Size()), req[0],
        outputs[0].dptr<DType>(), inputs[0].dptr<DType>(), ClipBound<DType>(param.a_min),
        ClipBound<DType>(param.a_max));
  });
}

template <typename xpu>
void ClipGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  using namespace mxnet_op;
  const ClipParam& param = nnvm::get<ClipParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    LaunchWrite<elemwise_kernel::clip_grad>(
        ctx.get_stream<xpu>(), static_cast<index_t>(outputs[0].Size()), req[0],
        outputs[0].dptr<DType>(), inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        ClipBound<DType>(param.a_min), ClipBound<DType>(param.a_max));
  });
}

}  // namespace op
}  // namespace mxnet

// ------------------------------------------------------------------------------------------
// Registration macros
// ------------------------------------------------------------------------------------------

/*! \brief A unary op (data) -> output of the same shape and dtype, in-place capable. */
#define MXNET_OPERATOR_REGISTER_UNARY(name)                                                 \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(1)                                                                    \
      .set_num_outputs(1)                                                                   \
      .set_attr<nnvm::FListInputNames>(                                                     \
          "FListInputNames",                                                                \
          [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"data"}; })          \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::ElemwiseShape<1, 1>)        \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<1, 1>)            \
      .set_attr<nnvm::FInplaceOption>("FInplaceOption", ::mxnet::op::InplaceIn0Out0)        \
      .add_argument("data", "NDArray-or-Symbol", "The input array.")

/*! \brief The backward of a unary op: (ograd, x or y) -> dx = ograd * GRAD(x or y). */
#define MXNET_OPERATOR_REGISTER_UNARY_BWD(name, GRAD)                                       \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(2)                                                                    \
      .set_num_outputs(1)                                                                   \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::ElemwiseShape<2, 1>)        \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<2, 1>)            \
      .set_attr<nnvm::FInplaceOption>(                                                      \
          "FInplaceOption",                                                                 \
          [](const nnvm::NodeAttrs&) {                                                      \
            return std::vector<std::pair<int, int>>{{0, 0}, {1, 0}};                        \
          })                                                                                \
      .set_attr<mxnet::FCompute>("FCompute<cpu>",                                           \
                                 ::mxnet::op::UnaryOp::Backward<::mxnet::cpu, GRAD>)        \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")              \
      .add_argument("data", "NDArray-or-Symbol",                                            \
                    "The forward input (or output, for ops differentiated on the output)")

#endif  // MXNET_OPERATOR_TENSOR_ELEMWISE_UNARY_OP_INL_H_
