/*!
 * \file smooth_l1_unary.cu
 * \brief smooth_l1 (SimpleOp) and its gradient on the GPU: the CPU's functions with gpu
 *        tensors (mshadow expressions evaluate as one kernel in a .cu).
 */
#include "./smooth_l1_unary-inl.h"

namespace mxnet {
namespace op {

MXNET_REGISTER_SIMPLE_OP(smooth_l1, gpu)
.set_function(gpu::kDevMask, SmoothL1Forward_<gpu>, kNoInplace)
.set_gradient(gpu::kDevMask, SmoothL1BackwardUseIn_<gpu>, kInplaceOutIn);

}  // namespace op
}  // namespace mxnet
