/*!
 * \file blas_gemm_gpu.cc
 * \brief GpuGemm and GpuTrsm: row-major GEMMs and triangular solves on cuBLAS (CUDA builds
 *        only).
 *
 * cuBLAS is column-major: the row-major C(M, N) = op(A) op(B) is the column-major
 * C^T(N, M) = op(B)^T op(A)^T, so the operands swap and M and N trade places; the stored row
 * strides are the column-major leading dimensions unchanged. Each engine thread keeps one cuBLAS
 * handle per device (a handle must not be used by two threads at once) and points it at the
 * stream of the operation before every call.
 */
#if MXNET_USE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <string>
#include <unordered_map>

#include "../common/cuda_utils.h"
#include "../common/env_util.h"
#include "./blas_gemm.h"

namespace mxnet {
namespace op {
namespace {

[[noreturn]] void ThrowCublas(cublasStatus_t st, const std::string& what) {
  int dev = -1;
  cudaGetDevice(&dev);
  MX_THROW(::dmlc::Error) << what << " on gpu(" << dev << ") failed: " << cublasGetStatusName(st)
                         << " (" << cublasGetStatusString(st) << ")";
}

#define CUBLAS_CALL(expr, what)                        \
  do {                                                 \
    const cublasStatus_t st_ = (expr);                 \
    if (st_ != CUBLAS_STATUS_SUCCESS) ThrowCublas(st_, what); \
  } while (0)

/*!
 * \brief This thread's handle for the current device. Handles are never destroyed: engine
 *        threads live as long as the process, and destroying a handle after the CUDA driver has
 *        shut down at exit would fail.
 */
cublasHandle_t ThreadHandle() {
  thread_local std::unordered_map<int, cublasHandle_t> handles;
  int dev = 0;
  CUDA_CALL(cudaGetDevice(&dev));
  auto it = handles.find(dev);
  if (it != handles.end()) return it->second;
  cublasHandle_t h = nullptr;
  CUBLAS_CALL(cublasCreate(&h), "cublasCreate");
  handles.emplace(dev, h);
  return h;
}

struct MathPolicy {
  bool fp16_tensor_cores;  // MXNET_CUDA_ALLOW_TENSOR_CORE (default on)
  bool fp32_via_tf32;      // MXNET_CUDA_TENSOR_OP_MATH_ALLOW_CONVERSION (default off)
};

const MathPolicy& Policy() {
  static const MathPolicy p{
      common::GetEnvInt("MXNET_CUDA_ALLOW_TENSOR_CORE", 1) != 0,
      common::GetEnvInt("MXNET_CUDA_TENSOR_OP_MATH_ALLOW_CONVERSION", 0) != 0};
  return p;
}

int CheckedInt(index_t v, const char* name, index_t M, index_t N, index_t K,
               const char* what = "GPU GEMM") {
  if (v < 0 || v > INT_MAX) {
    MX_THROW(ValueError) << what << " (M=" << M << ", N=" << N << ", K=" << K << "): " << name
                         << "=" << v << " is beyond cuBLAS's 32-bit limit";
  }
  return static_cast<int>(v);
}

}  // namespace

void GpuGemm(mshadow::Stream<mshadow::gpu>* s, int dtype, bool ta, bool tb, index_t M, index_t N,
             index_t K, double alpha, const void* A, index_t lda, const void* B, index_t ldb,
             double beta, void* C, index_t ldc, index_t batch, index_t sa, index_t sb,
             index_t sc) {
  if (M == 0 || N == 0 || batch == 0) return;
  cudaDataType_t data_type;
  cublasComputeType_t compute;
  const MathPolicy& policy = Policy();
  switch (dtype) {
    case mshadow::kFloat32:
      data_type = CUDA_R_32F;
      compute = policy.fp32_via_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      break;
    case mshadow::kFloat64:
      data_type = CUDA_R_64F;
      compute = CUBLAS_COMPUTE_64F;
      break;
    case mshadow::kFloat16:
      data_type = CUDA_R_16F;
      compute = policy.fp16_tensor_cores ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_PEDANTIC;
      break;
    default:
      MX_THROW(TypeError) << "GPU GEMM (dot, batch_dot, FullyConnected, linalg_gemm): dtype "
                          << mshadow::dtype_string(dtype)
                          << " is not supported on the GPU (float16, float32, float64 are)";
  }
  const int m = CheckedInt(N, "N", M, N, K), n = CheckedInt(M, "M", M, N, K);
  const int k = CheckedInt(K, "K", M, N, K);
  int lda_c = CheckedInt(ldb, "ldb", M, N, K), ldb_c = CheckedInt(lda, "lda", M, N, K);
  const int ldc_c = CheckedInt(ldc, "ldc", M, N, K);
  if (k == 0) {  // C = beta C reads neither A nor B, but cuBLAS still checks their strides
    lda_c = std::max(lda_c, std::max(1, std::max(m, n)));
    ldb_c = std::max(ldb_c, std::max(1, std::max(m, n)));
  }
  const cublasOperation_t op_a = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
  // Scalars in the compute type: double for 64F, float otherwise.
  const double alpha_d = alpha, beta_d = beta;
  const float alpha_f = static_cast<float>(alpha), beta_f = static_cast<float>(beta);
  const void* pa = compute == CUBLAS_COMPUTE_64F ? static_cast<const void*>(&alpha_d) : &alpha_f;
  const void* pb = compute == CUBLAS_COMPUTE_64F ? static_cast<const void*>(&beta_d) : &beta_f;

  cublasHandle_t h = ThreadHandle();
  CUBLAS_CALL(cublasSetStream(h, mshadow::Stream<mshadow::gpu>::GetStream(s)), "cublasSetStream");
  if (batch == 1) {
    CUBLAS_CALL(cublasGemmEx(h, op_a, op_b, m, n, k, pa, B, data_type, lda_c, A, data_type, ldb_c,
                             pb, C, data_type, ldc_c, compute, CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
  } else {
    CUBLAS_CALL(cublasGemmStridedBatchedEx(h, op_a, op_b, m, n, k, pa, B, data_type, lda_c, sb, A,
                                           data_type, ldb_c, sa, pb, C, data_type, ldc_c, sc,
                                           CheckedInt(batch, "batch", M, N, K), compute,
                                           CUBLAS_GEMM_DEFAULT),
                "cublasGemmStridedBatchedEx");
  }
}

void GpuTrsm(mshadow::Stream<mshadow::gpu>* s, int dtype, bool right, bool lower, bool trans,
             index_t M, index_t N, double alpha, const void* A, index_t lda, void* B, index_t ldb,
             index_t batch, void* const* ptrs) {
  if (M == 0 || N == 0 || batch == 0) return;
  if (dtype != mshadow::kFloat32 && dtype != mshadow::kFloat64) {
    MX_THROW(TypeError) << "GPU triangular solve (linalg_trsm): dtype "
                        << mshadow::dtype_string(dtype)
                        << " is not supported on the GPU (float32, float64 are)";
  }
  const index_t K = right ? N : M;
  // Row-major B (M, N) is column-major B^T (N, M): op(A) X = B becomes X^T op(A)^T = B^T with
  // A^T the column-major view of A, so the side and the triangle swap, the transpose stays.
  const char* what = "GPU triangular solve (linalg_trsm)";
  const int m = CheckedInt(N, "N", M, N, K, what), n = CheckedInt(M, "M", M, N, K, what);
  const int lda_c = CheckedInt(lda, "lda", M, N, K, what);
  const int ldb_c = CheckedInt(ldb, "ldb", M, N, K, what);
  const cublasSideMode_t side = right ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const cublasOperation_t op = trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasDiagType_t diag = CUBLAS_DIAG_NON_UNIT;
  if (batch > 1 && ptrs == nullptr) {
    MX_THROW(::dmlc::Error) << "GpuTrsm: a batch of " << batch
                            << " solves needs the device pointer arrays (this is a bug)";
  }
  const int nb = CheckedInt(batch, "batch", M, N, K, what);

  cublasHandle_t h = ThreadHandle();
  CUBLAS_CALL(cublasSetStream(h, mshadow::Stream<mshadow::gpu>::GetStream(s)), "cublasSetStream");
  if (dtype == mshadow::kFloat32) {
    const float a = static_cast<float>(alpha);
    if (batch == 1) {
      CUBLAS_CALL(cublasStrsm(h, side, uplo, op, diag, m, n, &a, static_cast<const float*>(A),
                              lda_c, static_cast<float*>(B), ldb_c),
                  "cublasStrsm");
    } else {
      float* const* p = reinterpret_cast<float* const*>(ptrs);
      CUBLAS_CALL(cublasStrsmBatched(h, side, uplo, op, diag, m, n, &a, p, lda_c, p + batch,
                                     ldb_c, nb),
                  "cublasStrsmBatched");
    }
  } else {
    const double a = alpha;
    if (batch == 1) {
      CUBLAS_CALL(cublasDtrsm(h, side, uplo, op, diag, m, n, &a, static_cast<const double*>(A),
                              lda_c, static_cast<double*>(B), ldb_c),
                  "cublasDtrsm");
    } else {
      double* const* p = reinterpret_cast<double* const*>(ptrs);
      CUBLAS_CALL(cublasDtrsmBatched(h, side, uplo, op, diag, m, n, &a, p, lda_c, p + batch,
                                     ldb_c, nb),
                  "cublasDtrsmBatched");
    }
  }
}

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
