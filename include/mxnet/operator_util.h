/*!
 * \file mxnet/operator_util.h
 * \brief SimpleOp: write a unary or binary operator (or a source with no input) as a function
 *        plus an optional gradient, and register both with one macro. Registration makes an
 *        ordinary nnvm::Op `<name>` (usable from mx.nd, mx.sym and autograd) and its backward
 *        op `_backward_<name>`.
 *
 *   template <typename xpu>
 *   void SmoothL1Forward_(const TBlob& src, const EnvArguments& env, TBlob* ret,
 *                         OpReqType req, RunContext ctx) {
 *     using namespace mshadow::expr;
 *     mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
 *     real_t sigma2 = env.scalar * env.scalar;
 *     MSHADOW_TYPE_SWITCH(ret->type_flag_, DType, {
 *       mshadow::Tensor<xpu, 2, DType> out = ret->get<xpu, 2, DType>(s);
 *       mshadow::Tensor<xpu, 2, DType> in = src.get<xpu, 2, DType>(s);
 *       ASSIGN_DISPATCH(out, req, F<mshadow_op::smooth_l1_loss>(in, ScalarExp<DType>(sigma2)));
 *     });
 *   }
 *   MXNET_REGISTER_SIMPLE_OP(smooth_l1, XPU)
 *   .set_function(XPU::kDevMask, SmoothL1Forward_<XPU>, kNoInplace)
 *   .set_gradient(XPU::kDevMask, SmoothL1BackwardUseIn_<XPU>, kInplaceOutIn)
 *   .set_enable_scalar(true)
 *   .describe("Calculate Smooth L1 Loss(lhs, scalar)");
 *
 * The gradient's type says what the backward op keeps from the forward pass: only the output
 * gradient (T0), also the output value (T1), or also the input(s) (T2 for unary, T1 for
 * binary). set_enable_scalar adds a `scalar` parameter (env.scalar), set_enable_kwargs passes
 * all other parameters as strings (env.kwargs); set_resource_request fills env.resource.
 * Without set_shape_function the output has the input's shape (binary: both inputs must
 * have the same shape).
 */
#ifndef MXNET_OPERATOR_UTIL_H_
#define MXNET_OPERATOR_UTIL_H_

#include <dmlc/parameter.h>
#include <mshadow/expression.h>
#include <mshadow/tensor.h>
#include <mxnet/base.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <mxnet/tensor_blob.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {
namespace op {

/*! \brief Arguments a SimpleOp function gets besides its tensors. */
struct EnvArguments {
  /*! \brief The `scalar` parameter, if enabled. */
  real_t scalar{0};
  /*! \brief The other parameters as strings, if enabled. */
  std::vector<std::pair<std::string, std::string>> kwargs;
  /*! \brief The resources asked for with set_resource_request, in that order. */
  std::vector<Resource> resource;
};

/*! \brief One tensor argument of a gradient function. */
struct GradFunctionArgument {
  TBlob data;
};
/*! \brief The first input of the forward op. */
struct Input0 : public GradFunctionArgument {};
/*! \brief The second input of the forward op. */
struct Input1 : public GradFunctionArgument {};
/*! \brief The output of the forward op. */
struct OutputValue : public GradFunctionArgument {};
/*! \brief The gradient of the output. */
struct OutputGrad : public GradFunctionArgument {};

/*! \brief A function with no input (e.g. a constant fill). */
typedef void (*SourceFunction)(const EnvArguments& env, TBlob* ret, OpReqType req,
                               RunContext ctx);
/*! \brief Output shape of a source function. */
typedef mxnet::TShape (*SourceShapeFunction)(const EnvArguments& env);
typedef void (*UnaryFunction)(const TBlob& src, const EnvArguments& env, TBlob* ret,
                              OpReqType req, RunContext ctx);
typedef mxnet::TShape (*UnaryShapeFunction)(const mxnet::TShape& src, const EnvArguments& env);
/*! \brief Unary gradient that needs only the output gradient. */
typedef void (*UnaryGradFunctionT0)(const OutputGrad& out_grad, const EnvArguments& env,
                                    TBlob* in_grad, OpReqType req, RunContext ctx);
/*! \brief Unary gradient that also needs the output value. */
typedef void (*UnaryGradFunctionT1)(const OutputGrad& out_grad, const OutputValue& out_value,
                                    const EnvArguments& env, TBlob* in_grad, OpReqType req,
                                    RunContext ctx);
/*! \brief Unary gradient that also needs the input. */
typedef void (*UnaryGradFunctionT2)(const OutputGrad& out_grad, const Input0& in_data0,
                                    const EnvArguments& env, TBlob* in_grad, OpReqType req,
                                    RunContext ctx);
typedef void (*BinaryFunction)(const TBlob& lhs, const TBlob& rhs, const EnvArguments& env,
                               TBlob* ret, OpReqType req, RunContext ctx);
typedef mxnet::TShape (*BinaryShapeFunction)(const mxnet::TShape& lhs, const mxnet::TShape& rhs,
                                             const EnvArguments& env);
/*! \brief Binary gradient that needs only the output gradient. */
typedef void (*BinaryGradFunctionT0)(const OutputGrad& out_grad, const EnvArguments& env,
                                     TBlob* lhs_grad, TBlob* rhs_grad, OpReqType req_lhs_grad,
                                     OpReqType req_rhs_grad, RunContext ctx);
/*! \brief Binary gradient that also needs both inputs. */
typedef void (*BinaryGradFunctionT1)(const OutputGrad& out_grad, const Input0& lhs,
                                     const Input1& rhs, const EnvArguments& env, TBlob* lhs_grad,
                                     TBlob* rhs_grad, OpReqType req_lhs_grad,
                                     OpReqType req_rhs_grad, RunContext ctx);

/*! \brief Which arguments may share memory. */
enum SimpleOpInplaceOption {
  /*! \brief None. */
  kNoInplace,
  /*! \brief Unary forward: input with output. */
  kInplaceInOut,
  /*! \brief Unary backward: output gradient with input gradient. */
  kInplaceOutIn,
  /*! \brief Binary forward: lhs with output. */
  kInplaceLhsOut,
  /*! \brief Binary backward: output gradient with lhs gradient. */
  kInplaceOutLhs
};

/*! \brief Argument order of the NDArray function when a scalar is enabled. */
enum SimpleOpScalarOption { kScalarBeforeArray, kArrayBeforeScalar };

/*! \brief Whether the function is also registered as a symbol. */
enum SimpleOpRegOption { kNotRegisterSymbolic, kRegisterSymbolic };

/*! \brief The builder returned by MXNET_REGISTER_SIMPLE_OP. */
class SimpleOpRegEntry {
 public:
  /*! \brief The registered name. */
  std::string name;
  virtual ~SimpleOpRegEntry() = default;
  /*! \brief Also make the op available under symbol_name. */
  virtual SimpleOpRegEntry& set_symbol_op_name(char const* symbol_name) = 0;
  /*! \brief Take a `scalar` parameter (env.scalar). */
  virtual SimpleOpRegEntry& set_enable_scalar(
      bool enable_scalar, SimpleOpScalarOption type_mask = kArrayBeforeScalar) = 0;
  /*! \brief Pass every other parameter as a string in env.kwargs. */
  virtual SimpleOpRegEntry& set_enable_kwargs(bool enable_kwargs) = 0;
  /*! \brief Resources for env.resource (forward and backward). */
  virtual SimpleOpRegEntry& set_resource_request(const std::vector<ResourceRequest>& reqs) = 0;
  virtual SimpleOpRegEntry& set_resource_request(ResourceRequest req) = 0;
  virtual SimpleOpRegEntry& set_shape_function(SourceShapeFunction fshapeinfer) = 0;
  virtual SimpleOpRegEntry& set_shape_function(UnaryShapeFunction fshapeinfer) = 0;
  virtual SimpleOpRegEntry& set_shape_function(BinaryShapeFunction fshapeinfer) = 0;
  virtual SimpleOpRegEntry& set_function(int dev_mask, SourceFunction fsource,
                                         SimpleOpRegOption register_symbolic = kRegisterSymbolic) = 0;
  virtual SimpleOpRegEntry& set_function(int dev_mask, UnaryFunction funary,
                                         SimpleOpInplaceOption inplace_in_out,
                                         SimpleOpRegOption register_symbolic = kRegisterSymbolic) = 0;
  virtual SimpleOpRegEntry& set_function(int dev_mask, BinaryFunction fbinary,
                                         SimpleOpInplaceOption inplace_lhs_out,
                                         SimpleOpRegOption register_symbolic = kRegisterSymbolic) = 0;
  virtual SimpleOpRegEntry& set_gradient(int dev_mask, UnaryGradFunctionT0 fgrad,
                                         SimpleOpInplaceOption inplace_out_in_grad) = 0;
  virtual SimpleOpRegEntry& set_gradient(int dev_mask, UnaryGradFunctionT1 fgrad,
                                         SimpleOpInplaceOption inplace_out_in_grad) = 0;
  virtual SimpleOpRegEntry& set_gradient(int dev_mask, UnaryGradFunctionT2 fgrad,
                                         SimpleOpInplaceOption inplace_out_in_grad) = 0;
  virtual SimpleOpRegEntry& set_gradient(int dev_mask, BinaryGradFunctionT0 fgrad,
                                         SimpleOpInplaceOption inplace_out_lhs_grad) = 0;
  virtual SimpleOpRegEntry& set_gradient(int dev_mask, BinaryGradFunctionT1 fgrad,
                                         SimpleOpInplaceOption inplace_out_lhs_grad) = 0;
  virtual SimpleOpRegEntry& describe(const std::string& description) = 0;
  virtual SimpleOpRegEntry& add_arguments(const std::vector<dmlc::ParamFieldInfo>& args) = 0;
};

/*! \brief The SimpleOp registry. */
class MXNET_DLL SimpleOpRegistry {
 public:
  static SimpleOpRegistry* Get();
  /*! \brief The entry `name`, created (with its nnvm ops) on first use. */
  SimpleOpRegEntry& __REGISTER_OR_FIND__(char const* name);
  /*! \brief The entry `name`, or nullptr. */
  const SimpleOpRegEntry* Find(const std::string& name);

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<SimpleOpRegEntry>> fmap_;
};

/*!
 * \brief out (null: nothing, write/inplace: =, add: +=) the expression, for tensors and
 *        expressions (variadic so that template commas need no parentheses).
 */
#define ASSIGN_DISPATCH(out, req, ...)  \
  {                                     \
    switch (req) {                      \
      case ::mxnet::kNullOp:            \
        break;                          \
      case ::mxnet::kWriteTo:           \
      case ::mxnet::kWriteInplace:      \
        ::mshadow::expr::Assign((out), (__VA_ARGS__)); \
        break;                          \
      case ::mxnet::kAddTo:             \
        ::mshadow::expr::AddAssign((out), (__VA_ARGS__)); \
        break;                          \
      default:                          \
        LOG(FATAL) << "not reached";    \
    }                                   \
  }

/*!
 * \brief Register (or re-open, e.g. in the .cu) SimpleOp Name for device DEV; chain
 *        set_function/set_gradient/... on it.
 */
#define MXNET_REGISTER_SIMPLE_OP(Name, DEV)                                                   \
  static DMLC_ATTRIBUTE_UNUSED ::mxnet::op::SimpleOpRegEntry&                                \
      DMLC_STR_CONCAT(__make_SimpleOpRegEntry_##Name##_##DEV##__, __COUNTER__) =             \
          ::mxnet::op::SimpleOpRegistry::Get()->__REGISTER_OR_FIND__(#Name)

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_UTIL_H_
