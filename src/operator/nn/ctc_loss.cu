/*!
 * \file ctc_loss.cu
 * \brief CTCLoss (ctc_loss, _contrib_CTCLoss, _contrib_ctc_loss) and _backward_ctc_loss on the
 *        GPU: ctc_loss-inl.h's kernels, one thread per data row for the log-softmax and the
 *        gradient, one per sequence for the alpha-beta recursion; labels and lengths are
 *        checked on the host first.
 */
#include "./ctc_loss-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(CTCLoss).set_attr<FCompute>("FCompute<gpu>", CTCLossCompute<gpu>);
NNVM_REGISTER_OP(_backward_ctc_loss).set_attr<FCompute>("FCompute<gpu>", CTCLossGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
