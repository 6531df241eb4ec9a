/*!
 * \file proposal.cu
 * \brief Proposal and MultiProposal on the GPU: proposal-inl.h's kernels (anchors and output
 *        rows one thread each, sort + NMS one thread per image).
 */
#include "./proposal-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_Proposal).set_attr<FCompute>("FCompute<gpu>", ProposalCompute<gpu>);
NNVM_REGISTER_OP(_contrib_MultiProposal)
.set_attr<FCompute>("FCompute<gpu>", ProposalCompute<gpu>);

}  // namespace op
}  // namespace mxnet
