/*!
 * \file allclose_op.cu
 * \brief _contrib_allclose on the GPU (allclose_op-inl.h).
 */
#include "./allclose_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_allclose).set_attr<FCompute>("FCompute<gpu>", AllCloseCompute<gpu>);

}  // namespace op
}  // namespace mxnet
