/*!
 * \file elemwise_binary_broadcast_op_extended.cc
 * \brief Broadcasting broadcast_power/maximum/minimum/hypot and their backward ops
 *        (kernels in elemwise_binary_broadcast_op-inl.h).
 */
#include "./elemwise_binary_broadcast_op-inl.h"

namespace mxnet {
namespace op {

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_power)
.describe(R"code(Returns result of first array elements raised to powers from second array, element-wise with broadcasting.

Example::

   x = [[ 1.,  1.,  1.],
        [ 1.,  1.,  1.]]

   y = [[ 0.],
        [ 1.]]

   broadcast_power(x, y) = [[ 2.,  2.,  2.],
                            [ 4.,  4.,  4.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::power>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_broadcast_power"});
MXNET_REGISTER_BROADCAST_BWD_USE_IN(_backward_broadcast_power, binary_grad::power_left,
                                    binary_grad::power_right);

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_maximum)
.add_alias("_npi_maximum")
.describe(R"code(Returns element-wise maximum of the input arrays with broadcasting.

This function compares two input arrays and returns a new array having the element-wise maxima.

Example::

   x = [[ 1.,  1.,  1.],
        [ 1.,  1.,  1.]]

   y = [[ 0.],
        [ 1.]]

   broadcast_maximum(x, y) = [[ 1.,  1.,  1.],
                              [ 1.,  1.,  1.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::maximum>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_broadcast_maximum"});
MXNET_REGISTER_BROADCAST_BWD_USE_IN(_backward_broadcast_maximum, binary_grad::ge,
                                    binary_grad::lt);

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_minimum)
.add_alias("_npi_minimum")
.describe(R"code(Returns element-wise minimum of the input arrays with broadcasting.

This function compares two input arrays and returns a new array having the element-wise minima.

Example::

   x = [[ 1.,  1.,  1.],
        [ 1.,  1.,  1.]]

   y = [[ 0.],
        [ 1.]]

   broadcast_minimum(x, y) = [[ 0.,  0.,  0.],
                              [ 1.,  1.,  1.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::minimum>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_broadcast_minimum"});
MXNET_REGISTER_BROADCAST_BWD_USE_IN(_backward_broadcast_minimum, binary_grad::le,
                                    binary_grad::gt);

MXNET_OPERATOR_REGISTER_BINARY_BROADCAST(broadcast_hypot)
.describe(R"code( Returns the hypotenuse of a right angled triangle, given its "legs"
with broadcasting.

It is equivalent to doing :math:`sqrt(x_1^2 + x_2^2)`.

Example::

   x = [[ 3.,  3.,  3.]]

   y = [[ 4.],
        [ 4.]]

   broadcast_hypot(x, y) = [[ 5.,  5.,  5.],
                            [ 5.,  5.,  5.]]

   z = [[ 0.],
        [ 4.]]

   broadcast_hypot(x, z) = [[ 3.,  3.,  3.],
                            [ 5.,  5.,  5.]]
)code" ADD_FILELINE)
.set_attr<FCompute>("FCompute<cpu>", BinaryBroadcastCompute<cpu, mshadow_op::hypot>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_broadcast_hypot"});
MXNET_REGISTER_BROADCAST_BWD_USE_IN(_backward_broadcast_hypot, binary_grad::hypot_left,
                                    binary_grad::hypot_right);

}  // namespace op
}  // namespace mxnet
