/*!
 * \file mshadow_op.h
 * \brief Scalar math functors used by element-wise kernels: `op::mshadow_op::exp::Map(x)`.
 *
 * Each functor has `template <typename DType> static DType Map(DType a[, DType b])`. Math runs
 * in float for float16 and in the type itself for float/double; integer inputs of
 * transcendental functions compute in double and cast back (as MXNet does).
 */
#ifndef MXNET_OPERATOR_MSHADOW_OP_H_
#define MXNET_OPERATOR_MSHADOW_OP_H_

#include <mshadow/base.h>

#include <cmath>
#include <type_traits>

#include "../common/float_convert.h"

namespace mxnet {
namespace op {
namespace mshadow_op {

using mshadow::half::half_t;

/*! \brief The type math is done in: float for half, double for integers, else itself. */
template <typename DType>
struct AccType {
  using type = typename std::conditional<std::is_floating_point<DType>::value, DType,
                                         double>::type;
};
template <>
struct AccType<half_t> {
  using type = float;
};

/*!
 * \brief The type exact arithmetic (+, -, *, comparisons) is done in: float for half, the type
 *        itself otherwise (int64 stays exact; integer overflow wraps as in NumPy).
 */
template <typename DType>
struct NativeType {
  using type = DType;
};
template <>
struct NativeType<half_t> {
  using type = float;
};

#define MXNET_UNARY_NATIVE_OP(name, expr)                       \
  struct name {                                                 \
    template <typename DType>                                   \
    MSHADOW_XINLINE static DType Map(DType a_) {                \
      using A = typename NativeType<DType>::type;               \
      const A a = static_cast<A>(a_);                           \
      return static_cast<DType>(expr);                          \
    }                                                           \
  };

#define MXNET_BINARY_NATIVE_OP(name, expr)                      \
  struct name {                                                 \
    template <typename DType>                                   \
    MSHADOW_XINLINE static DType Map(DType a_, DType b_) {      \
      using A = typename NativeType<DType>::type;               \
      const A a = static_cast<A>(a_);                           \
      const A b = static_cast<A>(b_);                           \
      return static_cast<DType>(expr);                          \
    }                                                           \
  };

#define MXNET_UNARY_MATH_OP(name, expr)                         \
  struct name {                                                 \
    template <typename DType>                                   \
    MSHADOW_XINLINE static DType Map(DType a_) {                \
      using A = typename AccType<DType>::type;                  \
      const A a = static_cast<A>(a_);                           \
      return common::FromFloat<DType>(A(expr));                 \
    }                                                           \
  };

#define MXNET_BINARY_MATH_OP(name, expr)                        \
  struct name {                                                 \
    template <typename DType>                                   \
    MSHADOW_XINLINE static DType Map(DType a_, DType b_) {      \
      using A = typename AccType<DType>::type;                  \
      const A a = static_cast<A>(a_);                           \
      const A b = static_cast<A>(b_);                           \
      return common::FromFloat<DType>(A(expr));                 \
    }                                                           \
  };

// ---- unary
MXNET_UNARY_NATIVE_OP(identity, a)
MXNET_UNARY_NATIVE_OP(negation, -a)
MXNET_UNARY_MATH_OP(reciprocal, A(1) / a)
MXNET_UNARY_NATIVE_OP(abs, a < A(0) ? -a : a)
MXNET_UNARY_NATIVE_OP(sign, a > A(0) ? A(1) : (a < A(0) ? A(-1) : A(0)))
MXNET_UNARY_NATIVE_OP(square, a * a)
MXNET_UNARY_MATH_OP(sqrt, std::sqrt(a))
MXNET_UNARY_MATH_OP(rsqrt, A(1) / std::sqrt(a))
MXNET_UNARY_MATH_OP(cbrt, std::cbrt(a))
MXNET_UNARY_MATH_OP(rcbrt, A(1) / std::cbrt(a))
MXNET_UNARY_MATH_OP(exp, std::exp(a))
MXNET_UNARY_MATH_OP(expm1, std::expm1(a))
MXNET_UNARY_MATH_OP(log, std::log(a))
MXNET_UNARY_MATH_OP(log10, std::log10(a))
MXNET_UNARY_MATH_OP(log2, std::log2(a))
MXNET_UNARY_MATH_OP(log1p, std::log1p(a))
MXNET_UNARY_MATH_OP(sin, std::sin(a))
MXNET_UNARY_MATH_OP(cos, std::cos(a))
MXNET_UNARY_MATH_OP(tan, std::tan(a))
MXNET_UNARY_MATH_OP(arcsin, std::asin(a))
MXNET_UNARY_MATH_OP(arccos, std::acos(a))
MXNET_UNARY_MATH_OP(arctan, std::atan(a))
MXNET_UNARY_MATH_OP(sinh, std::sinh(a))
MXNET_UNARY_MATH_OP(cosh, std::cosh(a))
MXNET_UNARY_MATH_OP(tanh, std::tanh(a))
MXNET_UNARY_MATH_OP(arcsinh, std::asinh(a))
MXNET_UNARY_MATH_OP(arccosh, std::acosh(a))
MXNET_UNARY_MATH_OP(arctanh, std::atanh(a))
MXNET_UNARY_MATH_OP(degrees, a * A(180.0 / M_PI))
MXNET_UNARY_MATH_OP(radians, a * A(M_PI / 180.0))
MXNET_UNARY_MATH_OP(floor, std::floor(a))
MXNET_UNARY_MATH_OP(ceil, std::ceil(a))
MXNET_UNARY_MATH_OP(round, std::round(a))
MXNET_UNARY_MATH_OP(rint, std::rint(a))
MXNET_UNARY_MATH_OP(trunc, std::trunc(a))
MXNET_UNARY_MATH_OP(fix, a > A(0) ? std::floor(a) : std::ceil(a))
MXNET_UNARY_MATH_OP(gamma, std::tgamma(a))
MXNET_UNARY_MATH_OP(gammaln, std::lgamma(a))
MXNET_UNARY_MATH_OP(erf, std::erf(a))
MXNET_UNARY_NATIVE_OP(relu, a > A(0) ? a : A(0))
MXNET_UNARY_MATH_OP(sigmoid, A(1) / (A(1) + std::exp(-a)))
MXNET_UNARY_MATH_OP(softsign, a / (A(1) + (a < A(0) ? -a : a)))
MXNET_UNARY_MATH_OP(softrelu, a > A(20) ? a : std::log1p(std::exp(a)))
MXNET_UNARY_NATIVE_OP(logical_not, a == A(0) ? A(1) : A(0))
// Gradients expressed on the forward output y (sigmoid', tanh', relu') or input x.
MXNET_UNARY_MATH_OP(sigmoid_grad, a * (A(1) - a))
MXNET_UNARY_MATH_OP(tanh_grad, A(1) - a * a)
MXNET_UNARY_MATH_OP(relu_grad, a > A(0) ? A(1) : A(0))
MXNET_UNARY_MATH_OP(softsign_grad, A(1) / ((A(1) + (a < A(0) ? -a : a)) * (A(1) + (a < A(0) ? -a : a))))
MXNET_UNARY_MATH_OP(softrelu_grad, -std::expm1(-a))  // on the output y: 1 - exp(-y)

// ---- binary
MXNET_BINARY_NATIVE_OP(plus, a + b)
MXNET_BINARY_NATIVE_OP(minus, a - b)
MXNET_BINARY_NATIVE_OP(mul, a * b)
MXNET_BINARY_MATH_OP(div, a / b)
MXNET_BINARY_NATIVE_OP(rminus, b - a)
MXNET_BINARY_MATH_OP(rdiv, b / a)
MXNET_BINARY_MATH_OP(power, std::pow(a, b))
MXNET_BINARY_MATH_OP(rpower, std::pow(b, a))
MXNET_BINARY_NATIVE_OP(maximum, a > b ? a : b)
MXNET_BINARY_NATIVE_OP(minimum, a < b ? a : b)
MXNET_BINARY_MATH_OP(hypot, std::hypot(a, b))
MXNET_BINARY_MATH_OP(arctan2, std::atan2(a, b))
MXNET_BINARY_NATIVE_OP(eq, a == b ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(ne, a != b ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(gt, a > b ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(ge, a >= b ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(lt, a < b ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(le, a <= b ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(logical_and, (a != A(0) && b != A(0)) ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(logical_or, (a != A(0) || b != A(0)) ? A(1) : A(0))
MXNET_BINARY_NATIVE_OP(logical_xor, ((a != A(0)) != (b != A(0))) ? A(1) : A(0))
// Python-style modulo: the result takes the sign of the divisor; x % 0 is 0.
MXNET_BINARY_MATH_OP(mod, b == A(0) ? A(0)
                              : (std::fmod(a, b) != A(0) && ((std::fmod(a, b) < A(0)) != (b < A(0)))
                                     ? std::fmod(a, b) + b
                                     : std::fmod(a, b)))
MXNET_BINARY_MATH_OP(rmod, a == A(0) ? A(0)
                               : (std::fmod(b, a) != A(0) && ((std::fmod(b, a) < A(0)) != (a < A(0)))
                                      ? std::fmod(b, a) + a
                                      : std::fmod(b, a)))

#undef MXNET_UNARY_MATH_OP
#undef MXNET_BINARY_MATH_OP
#undef MXNET_UNARY_NATIVE_OP
#undef MXNET_BINARY_NATIVE_OP

}  // namespace mshadow_op
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_MSHADOW_OP_H_
