/*!
 * \file np_broadcast_reduce_op-inl.h
 * \brief NumPy-semantics reductions (_np_sum, _np_prod, _np_max, _np_min, _npi_mean): the
 *        same kernels as the classic reductions (ReduceWithPlan / ForEachBroadcast), but a
 *        reduction over every axis gives a 0-d array (shape ()) instead of shape (1,), and
 *        an optional output dtype (NumPy's `dtype=` argument).
 */
#ifndef MXNET_OPERATOR_NUMPY_NP_BROADCAST_REDUCE_OP_INL_H_
#define MXNET_OPERATOR_NUMPY_NP_BROADCAST_REDUCE_OP_INL_H_

#include <algorithm>
#include <vector>

#include "../tensor/broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

struct NumpyReduceAxesParam : public dmlc::Parameter<NumpyReduceAxesParam> {
  dmlc::optional<mxnet::TShape> axis;
  dmlc::optional<int> dtype;
  bool keepdims;
  dmlc::optional<double> initial;
  DMLC_DECLARE_PARAMETER(NumpyReduceAxesParam) {
    DMLC_DECLARE_FIELD(axis)
        .set_default(dmlc::optional<mxnet::TShape>())
        .describe("Axis or axes along which a reduction is performed. None reduces every "
                  "axis into a 0-d array. Negative values count from the last axis.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(dmlc::optional<int>())
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .add_enum("int8", mshadow::kInt8)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int64", mshadow::kInt64)
        .add_enum("bool", mshadow::kBool)
        .describe("The type of the returned array (default: the input's type).");
    DMLC_DECLARE_FIELD(keepdims).set_default(false).describe(
        "If True, the reduced axes are left in the result as dimensions of size one.");
    DMLC_DECLARE_FIELD(initial).set_default(dmlc::optional<double>()).describe(
        "Starting value of the reduction (only None is supported).");
  }
};

/*! \brief Reduced axes in [0, ndim), sorted; every axis when `axis` is None. */
inline std::vector<bool> NumpyReducedAxes(const char* op, const mxnet::TShape& ishape,
                                          const dmlc::optional<mxnet::TShape>& axis) {
  const int nd = ishape.ndim();
  std::vector<bool> reduced(nd, !axis.has_value());
  if (!axis.has_value()) return reduced;
  for (dim_t a : axis.value()) {
    const int k = CheckAxis(op, static_cast<int>(a), nd);
    if (reduced[k]) {
      MX_THROW(ValueError) << op << ": duplicate value in 'axis', got axis=" << axis.value();
    }
    reduced[k] = true;
  }
  return reduced;
}

/*! \brief The output shape: reduced axes dropped (or kept as 1 with keepdims). */
inline mxnet::TShape NumpyReduceShapeImpl(const char* op, const mxnet::TShape& ishape,
                                          const dmlc::optional<mxnet::TShape>& axis,
                                          bool keepdims) {
  const std::vector<bool> reduced = NumpyReducedAxes(op, ishape, axis);
  std::vector<dim_t> out;
  for (int i = 0; i < ishape.ndim(); ++i) {
    if (!reduced[i]) {
      out.push_back(ishape[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return mxnet::TShape(out.begin(), out.end());
}

/*! \brief The keepdims form of the output (what the reduce plan is built from). */
inline mxnet::TShape NumpyReduceSmall(const nnvm::NodeAttrs& attrs, const mxnet::TShape& ishape) {
  const NumpyReduceAxesParam& param = nnvm::get<NumpyReduceAxesParam>(attrs.parsed);
  return NumpyReduceShapeImpl(attrs.op->name.c_str(), ishape, param.axis, true);
}

inline bool NumpyReduceAxesShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                                 mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  const NumpyReduceAxesParam& param = nnvm::get<NumpyReduceAxesParam>(attrs.parsed);
  if (param.initial.has_value()) {
    MX_THROW(NotImplementedError) << attrs.op->name << ": initial=" << param.initial.value()
                                  << " is not supported (only initial=None)";
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0,
                     NumpyReduceShapeImpl(attrs.op->name.c_str(), ishape, param.axis,
                                          param.keepdims));
  return shape_is_known(out_attrs->at(0));
}

inline bool NumpyReduceAxesType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                                std::vector<int>* out_attrs) {
  const NumpyReduceAxesParam& param = nnvm::get<NumpyReduceAxesParam>(attrs.parsed);
  if (param.dtype.has_value()) {
    TYPE_ASSIGN_CHECK(*out_attrs, 0, param.dtype.value());
    return (*in_attrs)[0] != -1;
  }
  return ElemwiseType<1, 1>(attrs, in_attrs, out_attrs);
}

/*! \brief Forward: reduce with Reducer, reading DType and writing the output's type. */
template <typename xpu, typename Reducer>
void NumpyReduceAxesCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& outputs) {
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  const ReducePlan p = MakeReducePlan(in.shape_, NumpyReduceSmall(attrs, in.shape_));
  // A differing output dtype must be one of the accumulating types NumPy programs ask for.
  const int otype = out.type_flag_;
  if (otype != in.type_flag_ && otype != mshadow::kFloat32 && otype != mshadow::kFloat64 &&
      otype != mshadow::kInt32 && otype != mshadow::kInt64) {
    MX_THROW(TypeError) << attrs.op->name << ": output dtype code " << otype
                        << " is not supported for an input of dtype code " << in.type_flag_
                        << " (use float32, float64, int32 or int64)";
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    ReducePlannedTo<Reducer>(ctx.get_stream<xpu>(), p, in.dptr<DType>(), out, req[0]);
  });
}

/*! \brief Gradient of sum/mean: broadcast the output gradient (divided by n for mean). */
template <typename xpu, bool normalize>
void NumpyReduceBackwardUseNone(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  const TBlob& ograd = inputs[0];
  const TBlob& igrad = outputs[0];
  if (req[0] == kNullOp) return;
  if (ograd.type_flag_ != igrad.type_flag_) {
    MX_THROW(TypeError) << attrs.op->name << ": the gradient of a reduction with a dtype "
                        << "different from its input's is not supported";
  }
  const ReducePlan p = MakeReducePlan(igrad.shape_, NumpyReduceSmall(attrs, igrad.shape_));
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_TYPE_SWITCH(igrad.type_flag_, DType, {
    if (!normalize) {  // a plain copy, exact for every dtype
      BroadcastPlanned(s, p, ograd.dptr<DType>(), igrad.dptr<DType>(), req[0]);
    } else {
      using A = typename mshadow_op::AccType<DType>::type;
      const A scale = p.red_size > 0 ? A(1) / A(p.red_size) : A(1);
      BroadcastScaledPlanned(s, p, ograd.dptr<DType>(), igrad.dptr<DType>(), scale, req[0]);
    }
  });
}

/*! \brief Gradient of prod/max/min from (ograd, data, out). */
template <typename xpu, typename GradOp>
void NumpyReduceBackwardUseInOut(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                 const std::vector<TBlob>& inputs,
                                 const std::vector<OpReqType>& req,
                                 const std::vector<TBlob>& outputs) {
  const TBlob& data = inputs[1];
  const ReducePlan p = MakeReducePlan(data.shape_, NumpyReduceSmall(attrs, data.shape_));
  ReduceBackwardUseInOutImpl<GradOp>(ctx.get_stream<xpu>(), p, inputs[0], data, inputs[2], req[0],
                                     outputs[0]);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NUMPY_NP_BROADCAST_REDUCE_OP_INL_H_
