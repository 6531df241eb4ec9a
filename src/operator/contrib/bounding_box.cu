/*!
 * \file bounding_box.cu
 * \brief The box operators on the GPU: bounding_box-inl.h's kernels (element-wise parts one
 *        thread per element, NMS and matching one thread per batch item).
 */
#include "./bounding_box-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_box_iou).set_attr<FCompute>("FCompute<gpu>", BoxIoUCompute<gpu>);
NNVM_REGISTER_OP(_contrib_box_nms).set_attr<FCompute>("FCompute<gpu>", BoxNMSCompute<gpu>);
NNVM_REGISTER_OP(_backward_contrib_box_nms)
.set_attr<FCompute>("FCompute<gpu>", BoxNMSGradCompute<gpu>);
NNVM_REGISTER_OP(_contrib_bipartite_matching)
.set_attr<FCompute>("FCompute<gpu>", BipartiteCompute<gpu>);
NNVM_REGISTER_OP(_contrib_box_encode)
.set_attr<FCompute>("FCompute<gpu>", BoxEncodeCompute<gpu>);
NNVM_REGISTER_OP(_contrib_box_decode)
.set_attr<FCompute>("FCompute<gpu>", BoxDecodeCompute<gpu>);

}  // namespace op
}  // namespace mxnet
