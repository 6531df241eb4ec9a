/*!
 * \file fft.cu
 * \brief _contrib_fft, _contrib_ifft and their gradients on the GPU: the direct DFT kernel of
 *        fft-inl.h (this build has no cuFFT).
 */
#include "./fft-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_contrib_fft)
.set_attr<FCompute>("FCompute<gpu>", DirectDftCompute<gpu, true>);
NNVM_REGISTER_OP(_backward__contrib_fft)
.set_attr<FCompute>("FCompute<gpu>", DirectDftCompute<gpu, false>);
NNVM_REGISTER_OP(_contrib_ifft)
.set_attr<FCompute>("FCompute<gpu>", DirectDftCompute<gpu, false>);
NNVM_REGISTER_OP(_backward__contrib_ifft)
.set_attr<FCompute>("FCompute<gpu>", DirectDftCompute<gpu, true>);

}  // namespace op
}  // namespace mxnet
