/*!
 * \file elemwise_binary_op-inl.h
 * \brief Element-wise binary operators on same-shape inputs (elemwise_add, _maximum, _equal,
 *        ...), their backward ops, and add_n. The kernels here are also the same-shape fast
 *        path of the broadcasting ops (elemwise_binary_broadcast_op-inl.h).
 *
 *   MXNET_OPERATOR_REGISTER_BINARY(elemwise_mul)
 *   .set_attr<FCompute>("FCompute<cpu>", ElemwiseBinaryOp::Compute<cpu, mshadow_op::mul>)
 *   .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_mul"});
 *
 * The forward loop is `out[i] = OP(lhs[i], rhs[i])` over one contiguous range per thread (no
 * index arithmetic), so it vectorises and runs at memory bandwidth; small arrays run on the
 * calling thread without touching OpenMP.
 *
 * Registration: elemwise_binary_op_basic.cc (add, sub, mul, div, mod, add_n), _extended.cc
 * (power, maximum, minimum, hypot) and _logic.cc (comparisons, logical ops).
 */
#ifndef MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_OP_INL_H_

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "./elemwise_unary_op-inl.h"

namespace mxnet {
namespace op {

namespace elemwise_kernel {

/*! \brief OP(lhs[i], rhs[i]) (a write kernel for mxnet_op::LaunchWrite). */
template <typename OP>
struct binary {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* dst, const DType* lhs,
                                  const DType* rhs) {
    const DType* a = lhs + begin;
    const DType* b = rhs + begin;
    for (index_t i = 0; i < n; ++i) dst[i] = OP::Map(a[i], b[i]);
  }
};

/*! \brief The two gradients of a binary op, same shapes: lgrad = og * LOP(a, b), rgrad = og * ROP(a, b) (LaunchWrite2). */
template <typename LOP, typename ROP>
struct binary_bwd_use_in {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* lgrad, DType* rgrad,
                                  const DType* ograd, const DType* lhs, const DType* rhs) {
    const DType* og = ograd + begin;
    const DType* x = lhs + begin;
    const DType* y = rhs + begin;
    for (index_t i = 0; i < n; ++i) {
      // Read everything first: the gradients may share memory with ograd (in place).
      const DType g = og[i], a = x[i], b = y[i];
      lgrad[i] = static_cast<DType>(g * LOP::Map(a, b));
      rgrad[i] = static_cast<DType>(g * ROP::Map(a, b));
    }
  }
};

}  // namespace elemwise_kernel

/*!
 * \brief Partial derivatives of binary functions: GRAD::Map(a, b) is d OP(a, b) / da (the
 *        `_left` functors) or / db (`_right`).
 */
namespace binary_grad {
using mshadow_op::AccType;

#define MXNET_BINARY_GRAD_OP(name, expr)                      \
  struct name {                                               \
    template <typename DType>                                 \
    MSHADOW_XINLINE static DType Map(DType a_, DType b_) {    \
      using A = typename AccType<DType>::type;                \
      const A a = static_cast<A>(a_);                         \
      const A b = static_cast<A>(b_);                         \
      (void)a;                                                \
      (void)b;                                                \
      return common::FromFloat<DType>(A(expr));               \
    }                                                         \
  };

MXNET_BINARY_GRAD_OP(one, A(1))
MXNET_BINARY_GRAD_OP(neg_one, A(-1))
MXNET_BINARY_GRAD_OP(mul_left, b)
MXNET_BINARY_GRAD_OP(mul_right, a)
MXNET_BINARY_GRAD_OP(div_left, A(1) / b)
MXNET_BINARY_GRAD_OP(div_right, -a / (b * b))
MXNET_BINARY_GRAD_OP(mod_right, -std::floor(a / b))
MXNET_BINARY_GRAD_OP(power_left, b * std::pow(a, b - A(1)))
MXNET_BINARY_GRAD_OP(power_right, std::pow(a, b) * std::log(a))
MXNET_BINARY_GRAD_OP(ge, a >= b ? A(1) : A(0))
MXNET_BINARY_GRAD_OP(gt, a > b ? A(1) : A(0))
MXNET_BINARY_GRAD_OP(le, a <= b ? A(1) : A(0))
MXNET_BINARY_GRAD_OP(lt, a < b ? A(1) : A(0))
MXNET_BINARY_GRAD_OP(hypot_left, a / std::hypot(a, b))
MXNET_BINARY_GRAD_OP(hypot_right, b / std::hypot(a, b))
// Scalar-op gradients where the scalar is the left operand (rdiv, rmod, rpower): a is x.
MXNET_BINARY_GRAD_OP(rdiv_x, -b / (a * a))              // d(s/x)/dx with b = s
MXNET_BINARY_GRAD_OP(rmod_x, -std::floor(b / a))        // d(s mod x)/dx
MXNET_BINARY_GRAD_OP(rpower_y, a * std::log(b))         // d(s^x)/dx on y = s^x (a = y)

#undef MXNET_BINARY_GRAD_OP
}  // namespace binary_grad

/*! \brief Shape inference of same-shape binary ops; errors name the op and both shapes. */
inline bool BinarySameShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                            mxnet::ShapeVector* out_attrs) {
  mxnet::TShape& lhs = (*in_attrs)[0];
  mxnet::TShape& rhs = (*in_attrs)[1];
  mxnet::TShape& out = (*out_attrs)[0];
  mxnet::TShape known = lhs;
  for (const mxnet::TShape* s : {&rhs, &out}) {
    if (!mxnet::ndim_is_known(*s)) continue;
    if (!mxnet::ndim_is_known(known)) {
      known = *s;
      continue;
    }
    bool ok = known.ndim() == s->ndim();
    for (int i = 0; ok && i < known.ndim(); ++i) {
      if (known[i] == -1) {
        known[i] = (*s)[i];
      } else if ((*s)[i] != -1 && (*s)[i] != known[i]) {
        ok = false;
      }
    }
    if (!ok) {
      std::ostringstream os;
      if (mxnet::ndim_is_known(out)) os << " and output " << out;
      MX_THROW(ValueError) << "Operator " << attrs.op->name
                           << ": expected inputs of the same shape, got lhs " << lhs << ", rhs "
                           << rhs << os.str();
    }
  }
  if (!mxnet::ndim_is_known(known)) return false;
  lhs = known;
  rhs = known;
  out = known;
  return mxnet::shape_is_known(known);
}

/*! \brief Type inference of binary ops: lhs, rhs and output share one dtype. */
inline bool BinarySameType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                           std::vector<int>* out_attrs) {
  int t = -1;
  for (int v : {(*in_attrs)[0], (*in_attrs)[1], (*out_attrs)[0]}) {
    if (v == -1) continue;
    if (t == -1) {
      t = v;
    } else if (v != t) {
      MX_THROW(TypeError) << "Operator " << attrs.op->name
                          << ": expected lhs, rhs and output of the same dtype, got lhs "
                          << mshadow::dtype_string((*in_attrs)[0]) << ", rhs "
                          << mshadow::dtype_string((*in_attrs)[1]) << ", output "
                          << mshadow::dtype_string((*out_attrs)[0]);
    }
  }
  if (t == -1) return false;
  (*in_attrs)[0] = (*in_attrs)[1] = (*out_attrs)[0] = t;
  return true;
}

/*!
 * \brief The same-shape FCompute functions. ComputeSameShape, BackwardUseNone and BackwardUseIn
 *        are defined out of line (not inline) below so that the broadcasting ops, which fall
 *        back to them, can use the copies compiled once in elemwise_binary_op_*.cc (see the
 *        extern declarations below).
 */
struct ElemwiseBinaryOp {
  /*! \brief out (req) OP(lhs, rhs) on blobs of equal size. */
  template <typename xpu, typename OP>
  static void ComputeSameShape(mshadow::Stream<xpu>* s, const TBlob& lhs, const TBlob& rhs,
                               OpReqType req, const TBlob& out);

  template <typename xpu, typename OP>
  static void Compute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
    if (req[0] == kNullOp) return;
    ComputeSameShape<xpu, OP>(ctx.get_stream<xpu>(), inputs[0], inputs[1], req[0], outputs[0]);
  }

  /*! \brief out (req) OP(in); an identity in place is a no-op. */
  template <typename xpu, typename OP>
  static void ApplyUnary(mshadow::Stream<xpu>* s, const TBlob& in, OpReqType req,
                         const TBlob& out) {
    using namespace mxnet_op;
    if (req == kNullOp) return;
    if (std::is_same<OP, mshadow_op::identity>::value && req != kAddTo &&
        in.dptr_ == out.dptr_) {
      return;
    }
    const index_t n = static_cast<index_t>(out.Size());
    MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
      LaunchWrite<elemwise_kernel::unary<OP>>(s, n, req, out.dptr<DType>(), in.dptr<DType>());
    });
  }

  /*! \brief Backward of ops whose gradients need only ograd: lgrad = LOP(og), rgrad = ROP(og). */
  template <typename xpu, typename LOP, typename ROP>
  static void BackwardUseNone(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs);

  /*! \brief Backward from (ograd, lhs, rhs): lgrad = og * LOP(a, b), rgrad = og * ROP(a, b). */
  template <typename xpu, typename LOP, typename ROP>
  static void BackwardUseIn(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs);
};

template <typename xpu, typename OP>
void ElemwiseBinaryOp::ComputeSameShape(mshadow::Stream<xpu>* s, const TBlob& lhs,
                                        const TBlob& rhs, OpReqType req, const TBlob& out) {
  using namespace mxnet_op;
  const index_t n = static_cast<index_t>(out.Size());
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    LaunchWrite<elemwise_kernel::binary<OP>>(s, n, req, out.dptr<DType>(), lhs.dptr<DType>(),
                                             rhs.dptr<DType>());
  });
}

template <typename xpu, typename LOP, typename ROP>
void ElemwiseBinaryOp::BackwardUseNone(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                       const std::vector<TBlob>& inputs,
                                       const std::vector<OpReqType>& req,
                                       const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  // The gradient that shares memory with ograd (in place) is computed last.
  if (outputs[1].dptr_ == inputs[0].dptr_) {
    ApplyUnary<xpu, LOP>(s, inputs[0], req[0], outputs[0]);
    ApplyUnary<xpu, ROP>(s, inputs[0], req[1], outputs[1]);
  } else {
    ApplyUnary<xpu, ROP>(s, inputs[0], req[1], outputs[1]);
    ApplyUnary<xpu, LOP>(s, inputs[0], req[0], outputs[0]);
  }
}

template <typename xpu, typename LOP, typename ROP>
void ElemwiseBinaryOp::BackwardUseIn(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                     const std::vector<TBlob>& inputs,
                                     const std::vector<OpReqType>& req,
                                     const std::vector<TBlob>& outputs) {
  using namespace mxnet_op;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t n = static_cast<index_t>(inputs[0].Size());
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaunchWrite2<elemwise_kernel::binary_bwd_use_in<LOP, ROP>>(
        s, n, req[0], outputs[0].dptr<DType>(), req[1], outputs[1].dptr<DType>(),
        inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>());
  });
}

/*!
 * \brief Explicit instantiations of the same-shape CPU functions. The broadcasting ops fall back
 *        to them for equal shapes; the `extern` declarations below stop each broadcast unit
 *        from compiling its own copy, and each elemwise_binary_op_*.cc instantiates the ones of
 *        the ops it registers (the same macro without `extern`).
 */
#define MXNET_BINARY_SAME_SHAPE_CPU(OP)                                                      \
  template void ElemwiseBinaryOp::ComputeSameShape<mshadow::cpu, OP>(                      \
      mshadow::Stream<mshadow::cpu>*, const TBlob&, const TBlob&, OpReqType,               \
      const TBlob&)
#define MXNET_BINARY_BWD_USE_NONE_CPU(LOP, ROP)                                              \
  template void ElemwiseBinaryOp::BackwardUseNone<mshadow::cpu, LOP, ROP>(                 \
      const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>&,                 \
      const std::vector<OpReqType>&, const std::vector<TBlob>&)
#define MXNET_BINARY_BWD_USE_IN_CPU(LOP, ROP)                                                \
  template void ElemwiseBinaryOp::BackwardUseIn<mshadow::cpu, LOP, ROP>(                   \
      const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>&,                 \
      const std::vector<OpReqType>&, const std::vector<TBlob>&)

// elemwise_binary_op_basic.cc
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::plus);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::minus);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::mul);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::div);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::mod);
extern MXNET_BINARY_BWD_USE_NONE_CPU(mshadow_op::identity, mshadow_op::identity);
extern MXNET_BINARY_BWD_USE_NONE_CPU(mshadow_op::identity, mshadow_op::negation);
extern MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::mul_left, binary_grad::mul_right);
extern MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::div_left, binary_grad::div_right);
extern MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::one, binary_grad::mod_right);
// elemwise_binary_op_extended.cc
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::power);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::maximum);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::minimum);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::hypot);
extern MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::power_left, binary_grad::power_right);
extern MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::ge, binary_grad::lt);
extern MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::le, binary_grad::gt);
extern MXNET_BINARY_BWD_USE_IN_CPU(binary_grad::hypot_left, binary_grad::hypot_right);
// elemwise_binary_op_logic.cc
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::eq);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::ne);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::gt);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::ge);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::lt);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::le);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::logical_and);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::logical_or);
extern MXNET_BINARY_SAME_SHAPE_CPU(mshadow_op::logical_xor);

// ------------------------------------------------------------------------------------------
// add_n / ElementWiseSum
// ------------------------------------------------------------------------------------------

struct ElementWiseSumParam : public dmlc::Parameter<ElementWiseSumParam> {
  int num_args;
  DMLC_DECLARE_PARAMETER(ElementWiseSumParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1).describe("Number of inputs to be summed.");
  }
};

/*!
 * \brief out (req) sum(inputs). Works in blocks through a small stack buffer, so the output may
 *        share memory with any input.
 */
inline void ElementWiseSumCPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  using namespace mxnet_op;
  if (req[0] == kNullOp) return;
  const index_t n = static_cast<index_t>(outputs[0].Size());
  const OpReqType r = req[0];
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    std::vector<const DType*> in(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) in[k] = inputs[k].dptr<DType>();
    DType* out = outputs[0].dptr<DType>();
    const DType* const* x = in.data();
    const size_t num = in.size();
    auto run = [=](index_t begin, index_t end) {
      constexpr index_t kBlock = 1024;
      using A = typename mshadow_op::NativeType<DType>::type;
      A acc[kBlock];
      for (index_t b = begin; b < end; b += kBlock) {
        const index_t len = std::min(kBlock, end - b);
        for (index_t i = 0; i < len; ++i) acc[i] = static_cast<A>(x[0][b + i]);
        for (size_t k = 1; k < num; ++k) {
          const DType* xk = x[k] + b;
          for (index_t i = 0; i < len; ++i) acc[i] += static_cast<A>(xk[i]);
        }
        DType* o = out + b;
        if (r == kAddTo) {
          for (index_t i = 0; i < len; ++i) o[i] = static_cast<DType>(static_cast<A>(o[i]) + acc[i]);
        } else {
          for (index_t i = 0; i < len; ++i) o[i] = static_cast<DType>(acc[i]);
        }
      }
    };
    ParallelRanges(n, run);
  });
}

/*! \brief Up to eight input pointers by value (a kernel argument needs no device array). */
template <typename DType>
struct SumPack {
  static constexpr int kMax = 8;
  const DType* x[kMax];
  int n;
};

/*! \brief out[i] (req) = sum of the pack's inputs at i, accumulated in the native type. */
struct sum_pack {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, SumPack<DType> p, DType* out, int req) {
    using A = typename mshadow_op::NativeType<DType>::type;
    A acc = static_cast<A>(p.x[0][i]);
    for (int k = 1; k < p.n; ++k) acc += static_cast<A>(p.x[k][i]);
    out[i] = req == kAddTo ? static_cast<DType>(static_cast<A>(out[i]) + acc)
                           : static_cast<DType>(acc);
  }
};

/*! \brief add_n / ElementWiseSum: the CPU's blocked loop, or one GPU kernel per 8 inputs. */
template <typename xpu>
void ElementWiseSumCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    ElementWiseSumCPU(attrs, ctx, inputs, req, outputs);
  } else {
    if (req[0] == kNullOp) return;
    const index_t n = static_cast<index_t>(outputs[0].Size());
    MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
      for (size_t k0 = 0; k0 < inputs.size(); k0 += SumPack<DType>::kMax) {
        SumPack<DType> p;
        p.n = static_cast<int>(std::min<size_t>(SumPack<DType>::kMax, inputs.size() - k0));
        for (int k = 0; k < p.n; ++k) p.x[k] = inputs[k0 + k].dptr<DType>();
        // Later packs add to what the first wrote (the output may alias an input of pack 0).
        const int r = k0 == 0 ? static_cast<int>(req[0]) : static_cast<int>(kAddTo);
        mxnet_op::Kernel<sum_pack, xpu>::Launch(ctx.get_stream<xpu>(), n, p,
                                                 outputs[0].dptr<DType>(), r);
      }
    });
  }
}

}  // namespace op
}  // namespace mxnet

/*! \brief A same-shape binary op (lhs, rhs) -> output, in-place capable on lhs. */
#define MXNET_OPERATOR_REGISTER_BINARY(name)                                                \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(2)                                                                    \
      .set_num_outputs(1)                                                                   \
      .set_attr<nnvm::FListInputNames>(                                                     \
          "FListInputNames",                                                                \
          [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"lhs", "rhs"}; })    \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::BinarySameShape)            \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::BinarySameType)                \
      .set_attr<nnvm::FInplaceOption>(                                                      \
          "FInplaceOption",                                                                 \
          [](const nnvm::NodeAttrs&) {                                                      \
            return std::vector<std::pair<int, int>>{{0, 0}, {1, 0}};                        \
          })                                                                                \
      .add_argument("lhs", "NDArray-or-Symbol", "first input")                              \
      .add_argument("rhs", "NDArray-or-Symbol", "second input")

/*! \brief Backward op taking only ograd and giving both input gradients (same shapes). */
#define MXNET_REGISTER_BINARY_BWD_USE_NONE(name, LOP, ROP)                                  \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(1)                                                                    \
      .set_num_outputs(2)                                                                   \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::ElemwiseShape<1, 2>)        \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<1, 2>)            \
      .set_attr<nnvm::FInplaceOption>(                                                      \
          "FInplaceOption",                                                                 \
          [](const nnvm::NodeAttrs&) {                                                      \
            return std::vector<std::pair<int, int>>{{0, 0}, {0, 1}};                        \
          })                                                                                \
      .set_attr<::mxnet::FCompute>(                                                         \
          "FCompute<cpu>",                                                                  \
          ::mxnet::op::ElemwiseBinaryOp::BackwardUseNone<mshadow::cpu, LOP, ROP>)           \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")

/*! \brief Backward op taking (ograd, lhs, rhs) and giving both input gradients. */
#define MXNET_REGISTER_BINARY_BWD_USE_IN(name, LOP, ROP)                                    \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(3)                                                                    \
      .set_num_outputs(2)                                                                   \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::ElemwiseShape<3, 2>)        \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<3, 2>)            \
      .set_attr<nnvm::FInplaceOption>(                                                      \
          "FInplaceOption",                                                                 \
          [](const nnvm::NodeAttrs&) { return std::vector<std::pair<int, int>>{{0, 0}}; })  \
      .set_attr<::mxnet::FCompute>(                                                         \
          "FCompute<cpu>",                                                                  \
          ::mxnet::op::ElemwiseBinaryOp::BackwardUseIn<mshadow::cpu, LOP, ROP>)             \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")              \
      .add_argument("lhs", "NDArray-or-Symbol", "The first input")                          \
      .add_argument("rhs", "NDArray-or-Symbol", "The second input")

#endif  // MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_OP_INL_H_
