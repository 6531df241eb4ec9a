/*!
 * \file broadcast_reduce_op_value.cc
 * \brief Registration of the value reductions (sum, mean, prod, nansum, nanprod, max, min)
 *        and of the broadcasts (broadcast_to, broadcast_like, broadcast_axis), with their
 *        gradients. norm is in broadcast_reduce_norm_value.cc.
 */
#include "./broadcast_reduce_op-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ReduceAxesParam);
DMLC_REGISTER_PARAMETER(BroadcastAxesParam);
DMLC_REGISTER_PARAMETER(BroadcastToParam);
DMLC_REGISTER_PARAMETER(BroadcastLikeParam);

#define MXNET_OPERATOR_REGISTER_REDUCE(name)                                             \
  NNVM_REGISTER_OP(name)                                                                 \
      .set_num_inputs(1)                                                                 \
      .set_num_outputs(1)                                                                \
      .set_attr_parser(ParamParser<ReduceAxesParam>)                                     \
      .set_attr<mxnet::FInferShape>("FInferShape", ReduceAxesShape)                      \
      .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)                      \
      .set_attr<nnvm::FListInputNames>("FListInputNames",                                \
                                       [](const NodeAttrs& attrs) {                      \
                                         return std::vector<std::string>{"data"};        \
                                       })                                                \
      .add_argument("data", "NDArray-or-Symbol", "The input")                            \
      .add_arguments(ReduceAxesParam::__FIELDS__())

#define MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(name)                \
  NNVM_REGISTER_OP(name)                                             \
      .set_num_outputs(1)                                            \
      .set_attr_parser(ParamParser<ReduceAxesParam>)                 \
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)

// ---------------------------------------------------------------- sum / mean / prod / nan*

MXNET_OPERATOR_REGISTER_REDUCE(sum)
    .add_alias("sum_axis")
    .add_alias("_sparse_sum")
    .describe(R"code(Computes the sum of array elements over given axes.

.. Note::

  `sum` and `sum_axis` are equivalent.

Example::

  data = [[[1, 2], [2, 3], [1, 3]],
          [[1, 4], [4, 3], [5, 2]],
          [[7, 1], [7, 2], [7, 3]]]

  sum(data, axis=1)
  [[  4.   8.]
   [ 10.   9.]
   [ 21.   6.]]

  sum(data, axis=[1,2])
  [ 12.  19.  27.]

  data = [[1, 2, 0],
          [3, 0, 1],
          [4, 1, 0]]

  sum(data, axis=0, exclude=True)
  [ 3.  4.  5.]

)code")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesCompute<cpu, red::sum>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_sum"});

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_backward_sum)
    .set_num_inputs(1)
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesBackwardUseNone<cpu, false>)
    // Second order: broadcasting is linear; its gradient is the same reduction of g.
    .set_attr<nnvm::FGradient>("FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& g) {
          return std::vector<nnvm::NodeEntry>{GradGraphBuilder(n).Op("sum", {g[0]}, n->attrs.dict)};
        });

MXNET_OPERATOR_REGISTER_REDUCE(mean)
    .add_alias("_sparse_mean")
    .describe(R"code(Computes the mean of array elements over given axes.

Integer inputs give the truncated integer mean (the sum divided by the count in the input
dtype).

Example::

  data = [[1, 2], [3, 4]]
  mean(data)          = [ 2.5]
  mean(data, axis=0)  = [ 2.  3.]

)code")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesCompute<cpu, red::mean>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_mean"});

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_backward_mean)
    .set_num_inputs(1)
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesBackwardUseNone<cpu, true>)
    // Second order: broadcast / count is linear; its gradient is the mean of g.
    .set_attr<nnvm::FGradient>("FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& g) {
          return std::vector<nnvm::NodeEntry>{GradGraphBuilder(n).Op("mean", {g[0]}, n->attrs.dict)};
        });

MXNET_OPERATOR_REGISTER_REDUCE(prod)
    .describe(R"code(Computes the product of array elements over given axes.

Example::

  data = [[1, 2], [3, 4]]
  prod(data, axis=1) = [ 2.  12.]

)code")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesCompute<cpu, red::prod>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_prod"});

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_backward_prod)
    .set_num_inputs(3)
    .set_attr<mxnet::FInferShape>("FInferShape", ReduceBackwardInOutShape, 11)
    .set_attr<nnvm::FInferType>("FInferType", ReduceBackwardInOutType, 11)
    .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
    .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")
    .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesBackwardUseInOut<cpu, red_grad::prod>);

MXNET_OPERATOR_REGISTER_REDUCE(nansum)
    .describe(R"code(Computes the sum of array elements over given axes treating Not a Numbers (``NaN``) as zero.

Example::

  data = [[1, nan], [3, 4]]
  nansum(data, axis=0) = [ 4.  4.]

)code")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesCompute<cpu, red::nansum>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_nansum"});

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_backward_nansum)
    .set_num_inputs(3)
    .set_attr<mxnet::FInferShape>("FInferShape", ReduceBackwardInOutShape, 11)
    .set_attr<nnvm::FInferType>("FInferType", ReduceBackwardInOutType, 11)
    .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
    .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")
    .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesBackwardUseInOut<cpu, red_grad::nansum>);

MXNET_OPERATOR_REGISTER_REDUCE(nanprod)
    .describe(R"code(Computes the product of array elements over given axes treating Not a Numbers (``NaN``) as one.

Example::

  data = [[1, nan], [3, 4]]
  nanprod(data, axis=0) = [ 3.  4.]

)code")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesCompute<cpu, red::nanprod>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_nanprod"});

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_backward_nanprod)
    .set_num_inputs(3)
    .set_attr<mxnet::FInferShape>("FInferShape", ReduceBackwardInOutShape, 11)
    .set_attr<nnvm::FInferType>("FInferType", ReduceBackwardInOutType, 11)
    .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
    .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")
    .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesBackwardUseInOut<cpu, red_grad::nanprod>);

// ---------------------------------------------------------------- max / min

MXNET_OPERATOR_REGISTER_REDUCE(max)
    .add_alias("max_axis")
    .describe(R"code(Computes the max of array elements over given axes. ``NaN`` propagates.

Example::

  data = [[1, 5], [3, 4]]
  max(data, axis=0) = [ 3.  5.]

)code")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesCompute<cpu, red::maximum>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_max"});

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_backward_max)
    .set_num_inputs(3)
    .set_attr<mxnet::FInferShape>("FInferShape", ReduceBackwardInOutShape, 11)
    .set_attr<nnvm::FInferType>("FInferType", ReduceBackwardInOutType, 11)
    .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
    .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")
    .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesBackwardUseInOut<cpu, red_grad::eq>);

MXNET_OPERATOR_REGISTER_REDUCE(min)
    .add_alias("min_axis")
    .describe(R"code(Computes the min of array elements over given axes. ``NaN`` propagates.

Example::

  data = [[1, 5], [3, 4]]
  min(data, axis=0) = [ 1.  4.]

)code")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesCompute<cpu, red::minimum>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseInOut{"_backward_min"});

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_backward_min)
    .set_num_inputs(3)
    .set_attr<mxnet::FInferShape>("FInferShape", ReduceBackwardInOutShape, 11)
    .set_attr<nnvm::FInferType>("FInferType", ReduceBackwardInOutType, 11)
    .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
    .add_argument("data", "NDArray-or-Symbol", "Input of the forward operator")
    .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")
    .set_attr<FCompute>("FCompute<cpu>", ReduceAxesBackwardUseInOut<cpu, red_grad::eq>);

// ---------------------------------------------------------------- broadcasts

/*! \brief Gradient of the broadcasts: sum ograd back to the input's shape. */
static std::vector<nnvm::NodeEntry> BroadcastGrad(const nnvm::ObjectPtr& n,
                                                  const std::vector<nnvm::NodeEntry>& ograds) {
  std::vector<nnvm::NodeEntry> heads{ograds[0]};
  return MakeGradNode("_broadcast_backward", n, heads, {{"keepdims", "true"}});
}

#define MXNET_OPERATOR_REGISTER_BROADCAST(name)                                       \
  NNVM_REGISTER_OP(name)                                                              \
      .set_num_inputs(1)                                                              \
      .set_num_outputs(1)                                                             \
      .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)                   \
      .set_attr<nnvm::FListInputNames>("FListInputNames",                             \
                                       [](const NodeAttrs& attrs) {                   \
                                         return std::vector<std::string>{"data"};     \
                                       })                                             \
      .set_attr<nnvm::FGradient>("FGradient", BroadcastGrad)                          \
      .set_attr<FCompute>("FCompute<cpu>", BroadcastCompute<cpu>)                     \
      .add_argument("data", "NDArray-or-Symbol", "The input")

MXNET_OPERATOR_REGISTER_BROADCAST(broadcast_axis)
    .add_alias("broadcast_axes")
    .describe(R"code(Broadcasts the input array over particular axes.

Broadcasting is allowed on axes with size 1, such as from `(2,1,3,1)` to
`(2,8,3,9)`. Elements will be duplicated on the broadcasted axes.

`broadcast_axes` is an alias to the function `broadcast_axis`.

Example::

   // given x of shape (1,2,1)
   x = [[[ 1.],
         [ 2.]]]

   // broadcast x on on axis 2
   broadcast_axis(x, axis=2, size=3) = [[[ 1.,  1.,  1.],
                                         [ 2.,  2.,  2.]]]
   // broadcast x on on axes 0 and 2
   broadcast_axis(x, axis=(0,2), size=(2,3)) = [[[ 1.,  1.,  1.],
                                                 [ 2.,  2.,  2.]],
                                                [[ 1.,  1.,  1.],
                                                 [ 2.,  2.,  2.]]]
)code")
    .set_attr_parser(ParamParser<BroadcastAxesParam>)
    .add_arguments(BroadcastAxesParam::__FIELDS__())
    .set_attr<mxnet::FInferShape>("FInferShape", BroadcastAxesShape, 11);

MXNET_OPERATOR_REGISTER_BROADCAST(broadcast_to)
    .describe(R"code(Broadcasts the input array to a new shape.

Broadcasting is a mechanism that allows NDArrays to perform arithmetic operations
with arrays of different shapes efficiently without creating multiple copies of arrays.

Broadcasting is allowed on axes with size 1, such as from `(2,1,3,1)` to
`(2,8,3,9)`. Elements will be duplicated on the broadcasted axes.

For example::

   broadcast_to([[1,2,3]], shape=(2,3)) = [[ 1.,  2.,  3.],
                                           [ 1.,  2.,  3.]])

The dimension which you do not want to change can also be kept as `0` which means copy the
original value. So with `shape=(2,0)`, we will obtain the same result as in the above example.

)code")
    .set_attr_parser(ParamParser<BroadcastToParam>)
    .add_arguments(BroadcastToParam::__FIELDS__())
    .set_attr<mxnet::FInferShape>("FInferShape", BroadcastToShape, 11);

NNVM_REGISTER_OP(broadcast_like)
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<BroadcastLikeParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs& attrs) {
                                       return std::vector<std::string>{"lhs", "rhs"};
                                     })
    .set_attr<nnvm::FInferType>("FInferType",
                                [](const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                                   std::vector<int>* out_attrs) {
                                  CHECK_EQ(in_attrs->size(), 2U);
                                  TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
                                  TYPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
                                  return (*out_attrs)[0] != -1;
                                })
    .set_attr<mxnet::FInferShape>("FInferShape", BroadcastLikeShape)
    .set_attr<FCompute>("FCompute<cpu>", BroadcastCompute<cpu>)
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          std::vector<nnvm::NodeEntry> ret = BroadcastGrad(n, ograds);
          ret.push_back(MakeZeroGradNodes(n, ograds)[1]);
          return ret;
        })
    .describe(R"code(Broadcasts lhs to have the same shape as rhs.

Broadcasting is a mechanism that allows NDArrays to perform arithmetic operations
with arrays of different shapes efficiently without creating multiple copies of arrays.

Broadcasting is allowed on axes with size 1, such as from `(2,1,3,1)` to
`(2,8,3,9)`. Elements will be duplicated on the broadcasted axes.

For example::

   broadcast_like([[1,2,3]], [[5,6,7],[7,8,9]]) = [[ 1.,  2.,  3.],
                                                   [ 1.,  2.,  3.]])

   broadcast_like([9], [1,2,3,4,5], lhs_axes=(0,), rhs_axes=(-1,)) = [9,9,9,9,9]

)code")
    .add_argument("lhs", "NDArray-or-Symbol", "First input.")
    .add_argument("rhs", "NDArray-or-Symbol", "Second input.")
    .add_arguments(BroadcastLikeParam::__FIELDS__());

MXNET_OPERATOR_REGISTER_REDUCE_BACKWARD(_broadcast_backward)
    .set_num_inputs(1)
    .set_attr<FCompute>("FCompute<cpu>", BroadcastBackwardCompute<cpu>);

}  // namespace op
}  // namespace mxnet
