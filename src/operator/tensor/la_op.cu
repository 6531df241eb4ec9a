/*!
 * \file la_op.cu
 * \brief GPU kernels of the linalg operators (la_op-inl.h, shared with the CPU): gemm, gemm2,
 *        syrk and trmm as batched cuBLAS GEMMs, trsm as cuBLAS (batched) triangular solves,
 *        sumlogdiag and the diagonal/triangle copies as element-wise kernels; the factorizations
 *        (potrf, potri, gelqf, syevd, inverse, det, slogdet) on cuSOLVER (../la_solver_gpu.cc)
 *        with GEMMs, solves and element-wise kernels around them; with their gradients.
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

NNVM_REGISTER_OP(_linalg_syrk)
.set_attr<FCompute>("FCompute<gpu>", LaSyrkForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_syrk)
.set_attr<FCompute>("FCompute<gpu>", LaSyrkBackward<gpu>);

NNVM_REGISTER_OP(_linalg_trmm)
.set_attr<FCompute>("FCompute<gpu>", LaTrmmForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_trmm)
.set_attr<FCompute>("FCompute<gpu>", LaTrmmBackward<gpu>);

NNVM_REGISTER_OP(_linalg_trsm)
.set_attr<FCompute>("FCompute<gpu>", LaTrsmForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_trsm)
.set_attr<FCompute>("FCompute<gpu>", LaTrsmBackward<gpu>);

NNVM_REGISTER_OP(_linalg_sumlogdiag)
.set_attr<FCompute>("FCompute<gpu>", LaSumlogdiagCompute<gpu>);
NNVM_REGISTER_OP(_backward_linalg_sumlogdiag)
.set_attr<FCompute>("FCompute<gpu>", LaSumlogdiagGradCompute<gpu>);

NNVM_REGISTER_OP(_linalg_extractdiag)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, false, true>));
NNVM_REGISTER_OP(_backward_linalg_extractdiag)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, false, false>));
NNVM_REGISTER_OP(_linalg_makediag)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, false, false>));
NNVM_REGISTER_OP(_backward_linalg_makediag)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, false, true>));
NNVM_REGISTER_OP(_linalg_extracttrian)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, true, true>));
NNVM_REGISTER_OP(_backward_linalg_extracttrian)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, true, false>));
NNVM_REGISTER_OP(_linalg_maketrian)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, true, false>));
NNVM_REGISTER_OP(_backward_linalg_maketrian)
.set_attr<FCompute>("FCompute<gpu>", (LaCopyCompute<gpu, true, true>));

NNVM_REGISTER_OP(_linalg_potrf)
.set_attr<FCompute>("FCompute<gpu>", LaPotrfForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_potrf)
.set_attr<FCompute>("FCompute<gpu>", LaPotrfBackward<gpu>);
NNVM_REGISTER_OP(_linalg_potri)
.set_attr<FCompute>("FCompute<gpu>", LaPotriForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_potri)
.set_attr<FCompute>("FCompute<gpu>", LaPotriBackward<gpu>);

NNVM_REGISTER_OP(_linalg_gelqf)
.set_attr<FCompute>("FCompute<gpu>", LaGelqfForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_gelqf)
.set_attr<FCompute>("FCompute<gpu>", LaGelqfBackward<gpu>);

NNVM_REGISTER_OP(_linalg_syevd)
.set_attr<FCompute>("FCompute<gpu>", LaSyevdForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_syevd)
.set_attr<FCompute>("FCompute<gpu>", LaSyevdBackward<gpu>);

NNVM_REGISTER_OP(_linalg_inverse)
.set_attr<FCompute>("FCompute<gpu>", LaInverseForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_inverse)
.set_attr<FCompute>("FCompute<gpu>", LaInverseBackward<gpu>);

NNVM_REGISTER_OP(_linalg_det)
.set_attr<FCompute>("FCompute<gpu>", LaDetForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_det)
.set_attr<FCompute>("FCompute<gpu>", (LaDetBackward<gpu, false>));
NNVM_REGISTER_OP(_linalg_slogdet)
.set_attr<FCompute>("FCompute<gpu>", LaDetForward<gpu>);
NNVM_REGISTER_OP(_backward_linalg_slogdet)
.set_attr<FCompute>("FCompute<gpu>", (LaDetBackward<gpu, true>));

}  // namespace op
}  // namespace mxnet
