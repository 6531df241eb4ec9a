/*!
 * \file pdf_op.cu
 * \brief The _random_pdf_* densities and their gradients on the GPU (pdf_op-inl.h).
 */
#include "./pdf_op-inl.h"

namespace mxnet {
namespace op {

#define MXNET_PDF_GPU(dist, Dist)                                                        \
  NNVM_REGISTER_OP(_random_pdf_##dist)                                                   \
      .set_attr<FCompute>("FCompute<gpu>", (PdfCompute<gpu, pdf::Dist>));                \
  NNVM_REGISTER_OP(_backward_pdf_##dist)                                                 \
      .set_attr<FCompute>("FCompute<gpu>", (PdfGradCompute<gpu, pdf::Dist>))

MXNET_PDF_GPU(uniform, Uniform);
MXNET_PDF_GPU(normal, Normal);
MXNET_PDF_GPU(gamma, Gamma);
MXNET_PDF_GPU(exponential, Exponential);
MXNET_PDF_GPU(poisson, Poisson);
MXNET_PDF_GPU(negative_binomial, NegativeBinomial);
MXNET_PDF_GPU(generalized_negative_binomial, GeneralizedNegativeBinomial);

NNVM_REGISTER_OP(_random_pdf_dirichlet)
.set_attr<FCompute>("FCompute<gpu>", DirichletCompute<gpu>);
NNVM_REGISTER_OP(_backward_pdf_dirichlet)
.set_attr<FCompute>("FCompute<gpu>", DirichletGradCompute<gpu>);

}  // namespace op
}  // namespace mxnet
