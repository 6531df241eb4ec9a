/*!
 * \file matrix_op.cu
 * \brief GPU kernels of the shape and data-movement operators: copies (Reshape, Flatten,
 *        expand_dims, squeeze, reshape_like), transposes, tile/repeat (broadcasts and their
 *        sums), reverse, depth_to_space, diag and the slice family: the StridedView and
 *        ReducePlan forms of the CPU code, run by the GPU drivers.
 */
#include "./matrix_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_MATRIX_GPU(name, fn) NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", fn)

MXNET_MATRIX_GPU(Reshape, IdentityCopyCompute<gpu>);
MXNET_MATRIX_GPU(_backward_reshape, IdentityCopyCompute<gpu>);
MXNET_MATRIX_GPU(Flatten, IdentityCopyCompute<gpu>);
MXNET_MATRIX_GPU(expand_dims, IdentityCopyCompute<gpu>);
MXNET_MATRIX_GPU(squeeze, IdentityCopyCompute<gpu>);
MXNET_MATRIX_GPU(_backward_squeeze, IdentityCopyCompute<gpu>);
MXNET_MATRIX_GPU(reshape_like, IdentityCopyCompute<gpu>);
MXNET_MATRIX_GPU(transpose, TransposeCompute<gpu>);
MXNET_MATRIX_GPU(SwapAxis, SwapAxisCompute<gpu>);
MXNET_MATRIX_GPU(tile, TileCompute<gpu>);
MXNET_MATRIX_GPU(_backward_tile, TileBackward<gpu>);
MXNET_MATRIX_GPU(repeat, RepeatCompute<gpu>);
MXNET_MATRIX_GPU(_backward_repeat, RepeatBackward<gpu>);
MXNET_MATRIX_GPU(reverse, ReverseCompute<gpu>);
MXNET_MATRIX_GPU(depth_to_space, (DepthSpaceCompute<gpu, true>));
MXNET_MATRIX_GPU(space_to_depth, (DepthSpaceCompute<gpu, false>));
MXNET_MATRIX_GPU(diag, (DiagCompute<gpu, false>));
MXNET_MATRIX_GPU(_backward_diag, (DiagCompute<gpu, true>));

MXNET_MATRIX_GPU(slice, SliceCompute<gpu>);
MXNET_MATRIX_GPU(_backward_slice, SliceBackward<gpu>);
MXNET_MATRIX_GPU(slice_axis, SliceAxisCompute<gpu>);
MXNET_MATRIX_GPU(_backward_slice_axis, SliceAxisBackward<gpu>);
MXNET_MATRIX_GPU(slice_like, SliceLikeCompute<gpu>);
MXNET_MATRIX_GPU(_backward_slice_like, SliceLikeBackward<gpu>);
MXNET_MATRIX_GPU(_slice_assign, SliceAssignCompute<gpu>);
MXNET_MATRIX_GPU(_slice_assign_scalar, SliceAssignScalarCompute<gpu>);

}  // namespace op
}  // namespace mxnet
