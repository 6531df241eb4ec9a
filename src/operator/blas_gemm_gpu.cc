/*!
 * \file blas_gemm_gpu.cc
 * \brief GpuGemm: row-major GEMMs on cuBLAS (CUDA builds only).
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

int CheckedInt(index_t v, const char* name, index_t M, index_t N, index_t K) {
  if (v < 0 || v > INT_MAX) {
    MX_THROW(ValueError) << "GPU GEMM (M=" << M << ", N=" << N << ", K=" << K << "): " << name
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
  const int lda_c = CheckedInt(ldb, "ldb", M, N, K), ldb_c = CheckedInt(lda, "lda", M, N, K);
  const int ldc_c = CheckedInt(ldc, "ldc", M, N, K);
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

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
