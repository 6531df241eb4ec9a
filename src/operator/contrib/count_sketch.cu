/*!
 * \file count_sketch.cu
 * \brief _contrib_count_sketch and its gradient on the GPU (count_sketch-inl.h).
 */
#include "./count_sketch-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_count_sketch)
.set_attr<FCompute>("FCompute<gpu>", CountSketchCompute<gpu>);
NNVM_REGISTER_OP(_backward__contrib_count_sketch)
.set_attr<FCompute>("FCompute<gpu>", CountSketchGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
