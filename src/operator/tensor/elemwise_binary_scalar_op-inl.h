/*!
 * \file elemwise_binary_scalar_op-inl.h
 * \brief Binary operators between an array and a scalar parameter (`_plus_scalar`,
 *        `_rdiv_scalar`, `_greater_scalar`, ...) and their backward ops.
 *
 *   MXNET_OPERATOR_REGISTER_BINARY_SCALAR(_mul_scalar)
 *   .set_attr<FCompute>("FCompute<cpu>", BinaryScalarOp::Compute<cpu, mshadow_op::mul>);
 *
 * Parameters as MXNet 1.9.1: `scalar` (double, default 1) and `is_int` (default true). The
 * scalar is converted to the array dtype; an integer array with `is_int=False` (a float
 * scalar) gives a float64 result, a bool array gives int64 (is_int) or float64.
 *
 * Registration: elemwise_binary_scalar_op_basic.cc (plus, minus, mul, div, mod and reversed
 * forms), _extended.cc (power, rpower, maximum, minimum, hypot) and _logic.cc (comparisons).
 */
#ifndef MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_SCALAR_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_SCALAR_OP_INL_H_

#include <string>
#include <utility>
#include <vector>

#include "./elemwise_binary_op-inl.h"

namespace mxnet {
namespace op {

struct NumpyBinaryScalarParam : public dmlc::Parameter<NumpyBinaryScalarParam> {
  double scalar;
  bool is_int;
  DMLC_DECLARE_PARAMETER(NumpyBinaryScalarParam) {
    DMLC_DECLARE_FIELD(scalar).set_default(1).describe("Scalar input value");
    DMLC_DECLARE_FIELD(is_int).set_default(true).describe(
        "Indicate whether scalar input is int type");
  }
};

/*! \brief True for integer dtype codes (uint8, int8, int32, int64). */
inline bool IsIntType(int t) {
  return t == mshadow::kUint8 || t == mshadow::kInt8 || t == mshadow::kInt32 ||
         t == mshadow::kInt64;
}

/*! \brief The scalar in DType: integers wrap like NumPy's astype, float16 rounds. */
template <typename DType>
MSHADOW_XINLINE DType ScalarAs(double v) {
  if constexpr (std::is_integral<DType>::value) {
    return static_cast<DType>(static_cast<int64_t>(v));
  } else if constexpr (std::is_same<DType, mshadow::half::half_t>::value) {
    return DType(static_cast<float>(v));
  } else {
    return static_cast<DType>(v);
  }
}

inline bool BinaryScalarType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                             std::vector<int>* out_attrs) {
  const NumpyBinaryScalarParam& param = nnvm::get<NumpyBinaryScalarParam>(attrs.parsed);
  const int in = (*in_attrs)[0];
  if (IsIntType(in) && !param.is_int) {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, mshadow::kFloat64);
  } else if (in == mshadow::kBool) {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, param.is_int ? mshadow::kInt64 : mshadow::kFloat64);
  } else {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, in);
    TYPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  }
  return (*in_attrs)[0] != -1 && (*out_attrs)[0] != -1;
}

namespace elemwise_kernel {

/*! \brief OP(DType(in[i]), s) (a write kernel for mxnet_op::LaunchWrite). */
template <typename OP>
struct scalar {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* dst, const IType* in,
                                  DType s) {
    const IType* x = in + begin;
    for (index_t i = 0; i < n; ++i) dst[i] = OP::Map(static_cast<DType>(x[i]), s);
  }
};

/*! \brief ograd[i] * GRAD(in[i], s). */
template <typename GRAD>
struct scalar_bwd {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t begin, index_t n, DType* dst, const DType* ograd,
                                  const DType* in, DType s) {
    const DType* g = ograd + begin;
    const DType* x = in + begin;
    for (index_t i = 0; i < n; ++i) dst[i] = static_cast<DType>(g[i] * GRAD::Map(x[i], s));
  }
};

}  // namespace elemwise_kernel

/*! \brief out (req) OP(DType(in), s): one kernel per (input, output) dtype pair. */
template <typename xpu, typename OP, typename DType, typename IType>
inline void LaunchScalarKernel(mshadow::Stream<xpu>* s, const TBlob& in, OpReqType req,
                               const TBlob& out, double alpha) {
  using namespace mxnet_op;
  LaunchWrite<elemwise_kernel::scalar<OP>>(s, static_cast<index_t>(out.Size()), req,
                                           out.dptr<DType>(), in.dptr<IType>(),
                                           ScalarAs<DType>(alpha));
}

struct BinaryScalarOp {
  /*!
   * \brief outputs[0] = OP(inputs[0], scalar). Besides equal dtypes, only the promotions that
   *        BinaryScalarType produces get a kernel: integer or bool input to float64, bool input
   *        to int64 (instantiating every dtype pair made these units take minutes to compile).
   */
  template <typename xpu, typename OP>
  static void Compute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
    if (req[0] == kNullOp) return;
    const double alpha = nnvm::get<NumpyBinaryScalarParam>(attrs.parsed).scalar;
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    const TBlob& in = inputs[0];
    const TBlob& out = outputs[0];
    const int itype = in.type_flag_;
    const int otype = out.type_flag_;
    if (itype == otype) {
      MSHADOW_TYPE_SWITCH(otype, DType, {
        LaunchScalarKernel<xpu, OP, DType, DType>(s, in, req[0], out, alpha);
      });
    } else if (otype == mshadow::kFloat64 && IsIntType(itype)) {
      MSHADOW_IDX_TYPE_SWITCH(itype, IType, {
        LaunchScalarKernel<xpu, OP, double, IType>(s, in, req[0], out, alpha);
      });
    } else if (otype == mshadow::kFloat64 && itype == mshadow::kBool) {
      LaunchScalarKernel<xpu, OP, double, bool>(s, in, req[0], out, alpha);
    } else if (otype == mshadow::kInt64 && itype == mshadow::kBool) {
      LaunchScalarKernel<xpu, OP, int64_t, bool>(s, in, req[0], out, alpha);
    } else {
      MX_THROW(InternalError) << "Operator " << attrs.op->name << ": no kernel for input dtype "
                              << mshadow::dtype_string(itype) << " and output dtype "
                              << mshadow::dtype_string(otype)
                              << " (type inference should not produce this pair; a bug)";
    }
  }

  /*! \brief outputs[0] = inputs[0] * GRAD(inputs[1], scalar) (backward using x or y). */
  template <typename xpu, typename GRAD>
  static void Backward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
    using namespace mxnet_op;
    if (req[0] == kNullOp) return;
    const double alpha = nnvm::get<NumpyBinaryScalarParam>(attrs.parsed).scalar;
    const index_t n = static_cast<index_t>(outputs[0].Size());
    MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
      LaunchWrite<elemwise_kernel::scalar_bwd<GRAD>>(
          ctx.get_stream<xpu>(), n, req[0], outputs[0].dptr<DType>(), inputs[0].dptr<DType>(),
          inputs[1].dptr<DType>(), ScalarAs<DType>(alpha));
    });
  }
};

}  // namespace op
}  // namespace mxnet

/*! \brief A scalar op (data; scalar, is_int) -> output of the same shape. */
#define MXNET_OPERATOR_REGISTER_BINARY_SCALAR(name)                                         \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(1)                                                                    \
      .set_num_outputs(1)                                                                   \
      .set_attr_parser(::mxnet::op::ParamParser<::mxnet::op::NumpyBinaryScalarParam>)       \
      .set_attr<nnvm::FListInputNames>(                                                     \
          "FListInputNames",                                                                \
          [](const nnvm::NodeAttrs&) { return std::vector<std::string>{"data"}; })          \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::ElemwiseShape<1, 1>)        \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::BinaryScalarType)              \
      .set_attr<nnvm::FInplaceOption>("FInplaceOption", ::mxnet::op::InplaceIn0Out0)        \
      .add_argument("data", "NDArray-or-Symbol", "source input")                            \
      .add_arguments(::mxnet::op::NumpyBinaryScalarParam::__FIELDS__())

/*! \brief Backward of a scalar op from (ograd, x or y): dx = ograd * GRAD(x or y, scalar). */
#define MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD(name, GRAD)                               \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(2)                                                                    \
      .set_num_outputs(1)                                                                   \
      .set_attr_parser(::mxnet::op::ParamParser<::mxnet::op::NumpyBinaryScalarParam>)       \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::ElemwiseShape<2, 1>)        \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<2, 1>)            \
      .set_attr<nnvm::FInplaceOption>("FInplaceOption", ::mxnet::op::InplaceIn0Out0)        \
      .set_attr<::mxnet::FCompute>("FCompute<cpu>",                                         \
                                   ::mxnet::op::BinaryScalarOp::Backward<mshadow::cpu, GRAD>) \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")              \
      .add_argument("data", "NDArray-or-Symbol", "The forward input (output for rpower)")   \
      .add_arguments(::mxnet::op::NumpyBinaryScalarParam::__FIELDS__())

/*! \brief Backward of a scalar op from ograd only: dx = OP(ograd, scalar). */
#define MXNET_OPERATOR_REGISTER_BINARY_SCALAR_BWD_USE_NONE(name, OP)                        \
  NNVM_REGISTER_OP(name)                                                                    \
      .set_num_inputs(1)                                                                    \
      .set_num_outputs(1)                                                                   \
      .set_attr_parser(::mxnet::op::ParamParser<::mxnet::op::NumpyBinaryScalarParam>)       \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape", ::mxnet::op::ElemwiseShape<1, 1>)        \
      .set_attr<nnvm::FInferType>("FInferType", ::mxnet::op::ElemwiseType<1, 1>)            \
      .set_attr<nnvm::FInplaceOption>("FInplaceOption", ::mxnet::op::InplaceIn0Out0)        \
      .set_attr<::mxnet::FCompute>("FCompute<cpu>",                                         \
                                   ::mxnet::op::BinaryScalarOp::Compute<mshadow::cpu, OP>)  \
      .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")              \
      .add_arguments(::mxnet::op::NumpyBinaryScalarParam::__FIELDS__())

#endif  // MXNET_OPERATOR_TENSOR_ELEMWISE_BINARY_SCALAR_OP_INL_H_
