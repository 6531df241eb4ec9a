/*!
 * \file broadcast_reduce_norm_value.cc
 * \brief Registration of norm (L1 / L2 over all or some axes, optional out_dtype) and its
 *        gradient; kernels in broadcast_reduce_op-inl.h.
 */
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(NormParam);

namespace {

inline mxnet::TShape NormSmall(const NormParam& param, const mxnet::TShape& ishape) {
  return ReduceSmallShape("norm", ishape, param.axis, false);
}

void NormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const NormParam& param = nnvm::get<NormParam>(attrs.parsed);
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  const ReducePlan p = MakeReducePlan(in.shape_, NormSmall(param, in.shape_));
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    if (param.ord == 1) {
      ReduceWithPlanTo<red::nrm1>(p, in.dptr<DType>(), out, req[0]);
    } else {
      ReduceWithPlanTo<red::nrm2>(p, in.dptr<DType>(), out, req[0]);
    }
  });
}

/*! \brief inputs: ograd, data, out (the norm). */
void NormBackwardCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const NormParam& param = nnvm::get<NormParam>(attrs.parsed);
  const TBlob& data = inputs[1];
  const ReducePlan p = MakeReducePlan(data.shape_, NormSmall(param, data.shape_));
  if (inputs[0].type_flag_ != data.type_flag_ || inputs[2].type_flag_ != data.type_flag_) {
    MX_THROW(TypeError) << "norm backward: expected the output dtype ("
                        << mshadow::dtype_string(inputs[2].type_flag_)
                        << ") to equal the input dtype ("
                        << mshadow::dtype_string(data.type_flag_)
                        << "); gradients of norm with out_dtype are not supported";
  }
  if (param.ord == 1) {
    ReduceBackwardUseInOutImpl<red_grad::nrm1>(p, inputs[0], data, inputs[2], req[0], outputs[0]);
  } else {
    ReduceBackwardUseInOutImpl<red_grad::nrm2>(p, inputs[0], data, inputs[2], req[0], outputs[0]);
  }
}

}  // namespace

NNVM_REGISTER_OP(norm)
    .add_alias("_sparse_norm")
    .describe(R"code(Computes the norm on an NDArray.

This operator computes the norm on an NDArray with the specified axis, depending
on the value of the ord parameter. By default, it computes the L2 norm on the entire
array. Currently only ord=2 supports sparse ndarrays.

Examples::

  x = [[[1, 2],
        [3, 4]],
       [[2, 2],
        [5, 6]]]

  norm(x, ord=2, axis=1) = [[3.1622777 4.472136 ]
                            [5.3851647 6.3245554]]

  norm(x, ord=1, axis=1) = [[4., 6.],
                            [7., 8.]]

)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser([](NodeAttrs* attrs) {
      ParamParser<NormParam>(attrs);
      const NormParam& param = nnvm::get<NormParam>(attrs->parsed);
      if (param.ord != 1 && param.ord != 2) {
        MX_THROW(ValueError) << "norm: expected ord 1 or 2, got ord=" << param.ord;
      }
    })
    .set_attr<mxnet::FInferShape>("FInferShape", NormShape)
    .set_attr<nnvm::FInferType>("FInferType", NormType)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs& attrs) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<FCompute>("FCompute<cpu>", NormCompute)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_norm"})
    .add_argument("data", "NDArray-or-Symbol", "The input")
    .add_arguments(NormParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_norm)
    .set_num_inputs(3)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<NormParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<mxnet::FInferShape>("FInferShape", ReduceBackwardInOutShape)
    .set_attr<nnvm::FInferType>("FInferType", ReduceBackwardInOutType)
    .set_attr<FCompute>("FCompute<cpu>", NormBackwardCompute)
    .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
    .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")
    .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")
    .add_arguments(NormParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
