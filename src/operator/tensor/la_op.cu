/*!
 * \file la_op.cu
 * \brief GPU kernels of linalg_gemm and linalg_gemm2 and their gradients: the batched GEMMs of
 *        la_op-inl.h on cuBLAS (strided batches per outer index, any row axis).
 */
#include "./la_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_linalg_gemm)
.set_attr<FCompute>("FCompute<gpu>", (LaGemmForward<gpu, LaMatrixMacParam>));
NNVM_REGISTER_OP(_backward_linalg_gemm)
.set_attr<FCompute>("FCompute<gpu>", (LaGemmBackward<gpu, LaMatrixMacParam>));
NNVM_REGISTER_OP(_linalg_gemm2)
.set_attr<FCompute>("FCompute<gpu>", (LaGemmForward<gpu, LaMatrixMultParam>));
NNVM_REGISTER_OP(_backward_linalg_gemm2)
.set_attr<FCompute>("FCompute<gpu>", (LaGemmBackward<gpu, LaMatrixMultParam>));

}  // namespace op
}  // namespace mxnet
