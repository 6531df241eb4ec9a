/*!
 * \file ravel.cu
 * \brief _ravel_multi_index and _unravel_index on the GPU (ravel-inl.h).
 */
#include "./ravel-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_ravel_multi_index).set_attr<FCompute>("FCompute<gpu>", RavelCompute<gpu>);
NNVM_REGISTER_OP(_unravel_index).set_attr<FCompute>("FCompute<gpu>", UnravelCompute<gpu>);

}  // namespace op
}  // namespace mxnet
