/*!
 * \file broadcast_reduce_norm_value.cc
 * \brief Registration of norm (L1 / L2 over all or some axes, optional out_dtype) and its
 *        gradient; kernels in broadcast_reduce_op-inl.h.
 */
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(NormParam);


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
    .set_attr<FCompute>("FCompute<cpu>", NormCompute<cpu>)
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
    .set_attr<FCompute>("FCompute<cpu>", NormBackwardCompute<cpu>)
    .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
    .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")
    .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")
    .add_arguments(NormParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
