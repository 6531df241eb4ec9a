/*!
 * \file mshadow/expression.h
 * \brief A deliberately small set of element-wise tensor expressions, enough for operator code
 *        written in the classic MXNet style (SimpleOp functions, legacy operators):
 *
 *   using namespace mshadow::expr;
 *   Tensor<cpu, 2, float> out = ret->get<cpu, 2, float>(s), in = src.get<cpu, 2, float>(s);
 *   Assign(out, F<mshadow_op::smooth_l1_loss>(in, ScalarExp<float>(sigma2)));  // map
 *   AddAssign(out, ograd * F<mshadow_op::sigmoid>(in) + scalar<float>(1));     // + - * / mix
 *   ASSIGN_DISPATCH(out, req, in * in);        // by req: nothing, Assign or AddAssign
 *
 * Operands are tensors of the same number of elements (treated as flat and contiguous),
 * scalars (ScalarExp / scalar<T>(v) / plain numbers) and other expressions; F<OP> applies a
 * scalar functor with a static Map(a) or Map(a, b). Evaluation is one plain loop (OpenMP for
 * large tensors) over the destination, or one kernel for gpu tensors in a .cu. There is
 * nothing else: no broadcasting, reductions or lazy temporaries; write a loop or a Kernel for
 * anything more.
 */
#ifndef MSHADOW_EXPRESSION_H_
#define MSHADOW_EXPRESSION_H_

#include <mshadow/tensor.h>

#include <algorithm>
#include <type_traits>

namespace mshadow {
namespace expr {

/*! \brief Base of every expression (CRTP). */
template <typename SubType>
struct Exp {
  const SubType& self() const { return *static_cast<const SubType*>(this); }
};

/*! \brief A constant. */
template <typename DType>
struct ScalarExp : public Exp<ScalarExp<DType>> {
  DType scalar_;
  ScalarExp(DType scalar) : scalar_(scalar) {}  // NOLINT(runtime/explicit)
  MSHADOW_XINLINE DType Eval(index_t) const { return scalar_; }
  bool SizeMatches(index_t) const { return true; }
};

/*! \brief A constant of type DType. */
template <typename DType>
inline ScalarExp<DType> scalar(DType s) {
  return ScalarExp<DType>(s);
}

/*! \brief A tensor read as a flat array. */
template <typename DType>
struct TensorExp : public Exp<TensorExp<DType>> {
  const DType* dptr_;
  index_t size_;
  TensorExp(const DType* dptr, index_t size) : dptr_(dptr), size_(size) {}
  MSHADOW_XINLINE DType Eval(index_t i) const { return dptr_[i]; }
  bool SizeMatches(index_t n) const { return n == size_; }
};

/*! \brief OP::Map(a). */
template <typename OP, typename TA>
struct UnaryMapExp : public Exp<UnaryMapExp<OP, TA>> {
  TA a_;
  explicit UnaryMapExp(const TA& a) : a_(a) {}
  MSHADOW_XINLINE auto Eval(index_t i) const { return OP::Map(a_.Eval(i)); }
  bool SizeMatches(index_t n) const { return a_.SizeMatches(n); }
};

/*! \brief OP::Map(a, b) (both evaluated at the same element). */
template <typename OP, typename TA, typename TB>
struct BinaryMapExp : public Exp<BinaryMapExp<OP, TA, TB>> {
  TA a_;
  TB b_;
  BinaryMapExp(const TA& a, const TB& b) : a_(a), b_(b) {}
  MSHADOW_XINLINE auto Eval(index_t i) const {
    using T = decltype(a_.Eval(i));
    return OP::Map(static_cast<T>(a_.Eval(i)), static_cast<T>(b_.Eval(i)));
  }
  bool SizeMatches(index_t n) const { return a_.SizeMatches(n) && b_.SizeMatches(n); }
};

// ------------------------------------------------------------- operands -> expressions

/*! \brief What an operand becomes inside an expression (void: not an operand). */
template <typename T, typename Enable = void>
struct AsExp {
  using type = void;
};
template <typename E>
struct AsExp<E, typename std::enable_if<std::is_base_of<Exp<E>, E>::value>::type> {
  using type = E;
  static const E& Make(const E& e) { return e; }
};
template <typename Device, int dim, typename DType>
struct AsExp<Tensor<Device, dim, DType>, void> {
  using type = TensorExp<DType>;
  static TensorExp<DType> Make(const Tensor<Device, dim, DType>& t) {
    CHECK(t.CheckContiguous()) << "tensor expressions need contiguous tensors";
    return TensorExp<DType>(t.dptr_, t.shape_.Size());
  }
};
template <typename T>
struct AsExp<T, typename std::enable_if<std::is_arithmetic<T>::value>::type> {
  using type = ScalarExp<T>;
  static ScalarExp<T> Make(T v) { return ScalarExp<T>(v); }
};

template <typename T>
using ExpType = typename AsExp<typename std::decay<T>::type>::type;
template <typename T>
inline ExpType<T> MakeExp(const T& v) {
  return AsExp<typename std::decay<T>::type>::Make(v);
}

/*! \brief True if T is an expression or a tensor (not a plain scalar). */
template <typename T>
struct IsTensorLike {
  using D = typename std::decay<T>::type;
  static constexpr bool value = !std::is_void<ExpType<D>>::value && !std::is_arithmetic<D>::value;
};

/*! \brief F<OP>(a): apply OP element-wise. */
template <typename OP, typename TA>
inline UnaryMapExp<OP, ExpType<TA>> F(const TA& a) {
  return UnaryMapExp<OP, ExpType<TA>>(MakeExp(a));
}
/*! \brief F<OP>(a, b): apply the binary OP element-wise. */
template <typename OP, typename TA, typename TB>
inline BinaryMapExp<OP, ExpType<TA>, ExpType<TB>> F(const TA& a, const TB& b) {
  return BinaryMapExp<OP, ExpType<TA>, ExpType<TB>>(MakeExp(a), MakeExp(b));
}

namespace op {
struct plus {
  template <typename T>
  MSHADOW_XINLINE static T Map(T a, T b) { return a + b; }
};
struct minus {
  template <typename T>
  MSHADOW_XINLINE static T Map(T a, T b) { return a - b; }
};
struct mul {
  template <typename T>
  MSHADOW_XINLINE static T Map(T a, T b) { return a * b; }
};
struct div {
  template <typename T>
  MSHADOW_XINLINE static T Map(T a, T b) { return a / b; }
};
}  // namespace op

// Arithmetic: at least one side is a tensor or an expression.
#define MSHADOW_EXPR_BINARY_OPERATOR(sym, OP)                                                    \
  template <typename TA, typename TB,                                                          \
            typename = typename std::enable_if<(IsTensorLike<TA>::value ||                     \
                                                IsTensorLike<TB>::value) &&                    \
                                               !std::is_void<ExpType<TA>>::value &&            \
                                               !std::is_void<ExpType<TB>>::value>::type>       \
  inline BinaryMapExp<OP, ExpType<TA>, ExpType<TB>> operator sym(const TA& a, const TB& b) {   \
    return BinaryMapExp<OP, ExpType<TA>, ExpType<TB>>(MakeExp(a), MakeExp(b));                 \
  }
MSHADOW_EXPR_BINARY_OPERATOR(+, op::plus)
MSHADOW_EXPR_BINARY_OPERATOR(-, op::minus)
MSHADOW_EXPR_BINARY_OPERATOR(*, op::mul)
MSHADOW_EXPR_BINARY_OPERATOR(/, op::div)
#undef MSHADOW_EXPR_BINARY_OPERATOR

/*! \brief dst[i] (=, +=, -=, *=, /=) e(i) for every element of dst. */
template <typename DType, typename E, typename Store>
inline void EvalInto(DType* dst, index_t n, const E& e, Store store) {
  CHECK(e.SizeMatches(n)) << "tensor expression: operands have a different number of elements "
                             "than the destination (" << n << ")";
#if MXNET_USE_OPENMP
#pragma omp parallel for if (n >= 32768)
#endif
  for (index_t i = 0; i < n; ++i) store(dst[i], static_cast<DType>(e.Eval(i)));
}

}  // namespace expr

#ifdef __CUDACC__
/*! \brief dst[i] (= or +=) e(i), grid-stride over n elements. */
template <bool add, typename DType, typename E>
__global__ void EvalKernel(DType* dst, index_t n, E e) {
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<index_t>(blockDim.x) * gridDim.x) {
    const DType v = static_cast<DType>(e.Eval(i));
    if (add) {
      dst[i] += v;
    } else {
      dst[i] = v;
    }
  }
}
#endif

/*! \brief dst (= or +=) e on the CPU: one loop. */
template <bool add, typename DType, typename E>
inline void EvalOn(Stream<cpu>*, DType* dst, index_t n, const E& e) {
  if (add) {
    expr::EvalInto(dst, n, e, [](DType& d, DType v) { d += v; });
  } else {
    expr::EvalInto(dst, n, e, [](DType& d, DType v) { d = v; });
  }
}

/*! \brief dst (= or +=) e on the GPU: one kernel on the tensor's stream (CUDA compiles only;
 *         the expression travels to the kernel by value). */
template <bool add, typename DType, typename E>
inline void EvalOn(Stream<gpu>* s, DType* dst, index_t n, const E& e) {
#ifdef __CUDACC__
  CHECK(e.SizeMatches(n)) << "tensor expression: operands have a different number of elements "
                             "than the destination (" << n << ")";
  if (n == 0) return;
  const index_t threads = 256;
  const index_t blocks = std::min<index_t>((n + threads - 1) / threads, 65535);
  EvalKernel<add><<<static_cast<unsigned>(blocks), static_cast<unsigned>(threads), 0,
                    Stream<gpu>::GetStream(s)>>>(dst, n, e);
#else
  static_assert(sizeof(E) == 0, "tensor expressions on gpu tensors need a CUDA compile (.cu)");
#endif
}

namespace expr {

/*! \brief dst = e (e: an expression, a tensor or a scalar), on the tensor's device. */
template <typename Device, int dim, typename DType, typename E>
inline void Assign(Tensor<Device, dim, DType> dst, const E& e) {
  CHECK(dst.CheckContiguous()) << "tensor expressions need a contiguous destination";
  EvalOn<false>(dst.stream_, dst.dptr_, dst.shape_.Size(), MakeExp(e));
}

/*! \brief dst += e. */
template <typename Device, int dim, typename DType, typename E>
inline void AddAssign(Tensor<Device, dim, DType> dst, const E& e) {
  CHECK(dst.CheckContiguous()) << "tensor expressions need a contiguous destination";
  EvalOn<true>(dst.stream_, dst.dptr_, dst.shape_.Size(), MakeExp(e));
}

}  // namespace expr
}  // namespace mshadow

#endif  // MSHADOW_EXPRESSION_H_
