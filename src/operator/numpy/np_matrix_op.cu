/*!
 * \file np_matrix_op.cu
 * \brief _np_reshape on the GPU: the copy the classic Reshape runs (matrix_op-inl.h).
 */
#include "../tensor/matrix_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_np_reshape).set_attr<FCompute>("FCompute<gpu>", IdentityCopyCompute<gpu>);

}  // namespace op
}  // namespace mxnet
