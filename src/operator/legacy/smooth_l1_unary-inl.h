/*!
 * \file smooth_l1_unary-inl.h
 * \brief smooth_l1, written as a SimpleOp (seed 001's example): a unary function with a
 *        `scalar` parameter sigma,
 *          f(x) = 0.5 * (sigma * x)^2        if |x| < 1 / sigma^2
 *                 |x| - 0.5 / sigma^2        otherwise
 *        and a gradient that needs the input (UnaryGradFunctionT2):
 *          f'(x) = clip(sigma^2 * x, -1, 1).
 */
#ifndef MXNET_OPERATOR_LEGACY_SMOOTH_L1_UNARY_INL_H_
#define MXNET_OPERATOR_LEGACY_SMOOTH_L1_UNARY_INL_H_

#include <mxnet/operator_util.h>

#include "../mshadow_op.h"

#if defined(__CUDACC__)
#define XPU gpu
#else
#define XPU cpu
#endif

namespace mxnet {
namespace op {
namespace mshadow_op {

/*!
 * \brief Smooth L1 loss (Fast R-CNN) of x with b = sigma^2:
 *        0.5 * b * x^2 if |x| < 1/b, else |x| - 0.5/b.
 */
struct smooth_l1_loss {
  template <typename DType>
  MSHADOW_XINLINE static DType Map(DType a_, DType b_) {
    using A = typename AccType<DType>::type;
    const A a = static_cast<A>(a_), b = static_cast<A>(b_);
    const A abs_a = a < A(0) ? -a : a;
    if (abs_a < A(1) / b) return static_cast<DType>(A(0.5) * a * a * b);
    return static_cast<DType>(abs_a - A(0.5) / b);
  }
};

/*! \brief Derivative of smooth_l1_loss in x (b = sigma^2): clip(b * x, -1, 1). */
struct smooth_l1_gradient {
  template <typename DType>
  MSHADOW_XINLINE static DType Map(DType a_, DType b_) {
    using A = typename AccType<DType>::type;
    const A a = static_cast<A>(a_), b = static_cast<A>(b_);
    if (a > A(1) / b) return static_cast<DType>(A(1));
    if (a < -A(1) / b) return static_cast<DType>(A(-1));
    return static_cast<DType>(b * a);
  }
};

}  // namespace mshadow_op

template <typename xpu>
void SmoothL1Forward_(const TBlob& src, const EnvArguments& env, TBlob* ret, OpReqType req,
                      RunContext ctx) {
  using namespace mshadow;
  using namespace mshadow::expr;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  real_t sigma2 = env.scalar * env.scalar;
  MSHADOW_TYPE_SWITCH(ret->type_flag_, DType, {
    mshadow::Tensor<xpu, 2, DType> out = ret->FlatTo2D<xpu, DType>(s);
    mshadow::Tensor<xpu, 2, DType> in = src.FlatTo2D<xpu, DType>(s);
    ASSIGN_DISPATCH(out, req, F<mshadow_op::smooth_l1_loss>(in, ScalarExp<DType>(sigma2)));
  });
}

template <typename xpu>
void SmoothL1BackwardUseIn_(const OutputGrad& out_grad, const Input0& in_data0,
                            const EnvArguments& env, TBlob* in_grad, OpReqType req,
                            RunContext ctx) {
  using namespace mshadow;
  using namespace mshadow::expr;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  real_t sigma2 = env.scalar * env.scalar;
  MSHADOW_TYPE_SWITCH(in_grad->type_flag_, DType, {
    mshadow::Tensor<xpu, 2, DType> src = in_data0.data.FlatTo2D<xpu, DType>(s);
    mshadow::Tensor<xpu, 2, DType> ograd = out_grad.data.FlatTo2D<xpu, DType>(s);
    mshadow::Tensor<xpu, 2, DType> igrad = in_grad->FlatTo2D<xpu, DType>(s);
    ASSIGN_DISPATCH(igrad, req,
                    ograd * F<mshadow_op::smooth_l1_gradient>(src, ScalarExp<DType>(sigma2)));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_LEGACY_SMOOTH_L1_UNARY_INL_H_
