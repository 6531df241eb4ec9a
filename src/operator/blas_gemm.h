/*!
 * \file blas_gemm.h
 * \brief One GEMM entry point for operator kernels, row-major, cblas argument order:
 *
 *   // C(M, N) = alpha * op(A) * op(B) + beta * C,  op(X) = X or X^T
 *   BlasGemm<float>(false, true, M, N, K, 1.f, a, K, b, K, 0.f, c, N);
 *
 * float and double call OpenBLAS (cblas_sgemm / cblas_dgemm) directly on the caller's buffers;
 * float16 converts to float, runs sgemm and converts back; integer types run a plain loop that
 * accumulates in 64 bits and wraps to the output type (as NumPy's integer matmul does).
 * The first call sets OpenBLAS's thread count (OMP_NUM_THREADS / MXNET_OMP_MAX_THREADS, else
 * all cores) so that GEMMs issued from engine worker threads use every core.
 *
 * Also here: the triangular product and solve (BlasTrmm, BlasTrsm; float and double), and the
 * device-dispatching Gemm and Trsm that run the same call on OpenBLAS or cuBLAS.
 */
#ifndef MXNET_OPERATOR_BLAS_GEMM_H_
#define MXNET_OPERATOR_BLAS_GEMM_H_

#include <mshadow/base.h>
#include <mxnet/base.h>

#include <cstdlib>
#include <thread>
#include <type_traits>
#include <vector>

#if MXNET_USE_BLAS_OPEN
#include <cblas.h>
#endif
#if MXNET_USE_OPENMP
#include <omp.h>
#endif

namespace mxnet {
namespace op {

/*! \brief Set OpenBLAS's thread count once per process (idempotent, thread-safe). */
inline void InitBlasThreads() {
#if MXNET_USE_BLAS_OPEN
  static const bool done = []() {
    if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr) return true;  // the user decided
    int n = 0;
    for (const char* var : {"MXNET_OMP_MAX_THREADS", "OMP_NUM_THREADS"}) {
      const char* v = std::getenv(var);
      if (v != nullptr && std::atoi(v) > 0) {
        n = std::atoi(v);
        break;
      }
    }
    if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
    if (n > 0) openblas_set_num_threads(n);
    return true;
  }();
  (void)done;
#endif
}

namespace blas_detail {

template <typename DType>
inline void NaiveGemm(bool ta, bool tb, index_t M, index_t N, index_t K, double alpha,
                      const DType* A, index_t lda, const DType* B, index_t ldb, double beta,
                      DType* C, index_t ldc) {
  typedef typename std::conditional<std::is_integral<DType>::value, int64_t, double>::type Acc;
#pragma omp parallel for if (M * N * K > (1 << 16))
  for (index_t i = 0; i < M; ++i) {
    for (index_t j = 0; j < N; ++j) {
      Acc sum = 0;
      for (index_t k = 0; k < K; ++k) {
        const Acc a = static_cast<Acc>(ta ? A[k * lda + i] : A[i * lda + k]);
        const Acc b = static_cast<Acc>(tb ? B[j * ldb + k] : B[k * ldb + j]);
        sum += a * b;
      }
      DType& c = C[i * ldc + j];
      if (beta == 0) {
        c = static_cast<DType>(alpha == 1 ? sum : static_cast<Acc>(alpha * sum));
      } else {
        c = static_cast<DType>(static_cast<Acc>(beta * static_cast<double>(c)) +
                               (alpha == 1 ? sum : static_cast<Acc>(alpha * sum)));
      }
    }
  }
}

#if MXNET_USE_BLAS_OPEN
/*!
 * \brief C = alpha op(A) op(B) + beta C through gemv when C is one row (M == 1) or one column
 *        (N == 1), returning whether it did: OpenBLAS's gemm is several times slower there
 *        (a batch-1 FullyConnected: 229 us against 36 us for 512 x 784 on one core).
 *        `gemv` is cblas_sgemv or cblas_dgemv.
 */
template <typename DType, typename Gemv>
inline bool GemvForVectorGemm(Gemv gemv, bool ta, bool tb, index_t M, index_t N, index_t K,
                              DType alpha, const DType* A, index_t lda, const DType* B,
                              index_t ldb, DType beta, DType* C, index_t ldc) {
  if (M == 1) {  // c (N) = op(B)^T a, a = op(A) as a K-vector
    const index_t inca = ta ? lda : 1;
    if (tb) {  // B stored (N, K)
      gemv(CblasRowMajor, CblasNoTrans, N, K, alpha, B, ldb, A, inca, beta, C, 1);
    } else {   // B stored (K, N)
      gemv(CblasRowMajor, CblasTrans, K, N, alpha, B, ldb, A, inca, beta, C, 1);
    }
    return true;
  }
  if (N == 1) {  // c (M, stride ldc) = op(A) b, b = op(B) as a K-vector
    const index_t incb = tb ? 1 : ldb;
    if (ta) {  // A stored (K, M)
      gemv(CblasRowMajor, CblasTrans, K, M, alpha, A, lda, B, incb, beta, C, ldc);
    } else {   // A stored (M, K)
      gemv(CblasRowMajor, CblasNoTrans, M, K, alpha, A, lda, B, incb, beta, C, ldc);
    }
    return true;
  }
  return false;
}

/*!
 * \brief C = alpha a b^T + beta C through ger when the inner dimension is 1 (the weight
 *        gradient of a batch-1 FullyConnected): 1.7x faster than OpenBLAS's gemm there.
 *        `ger` is cblas_sger or cblas_dger.
 */
template <typename DType, typename Ger>
inline bool GerForOuterGemm(Ger ger, bool ta, bool tb, index_t M, index_t N, index_t K,
                            DType alpha, const DType* A, index_t lda, const DType* B, index_t ldb,
                            DType beta, DType* C, index_t ldc) {
  if (K != 1) return false;
  if (beta != DType(1)) {
    for (index_t i = 0; i < M; ++i) {
      DType* row = C + i * ldc;
      for (index_t j = 0; j < N; ++j) row[j] = beta == DType(0) ? DType(0) : beta * row[j];
    }
  }
  // a = op(A) (M, 1): A stored (M, 1) or, transposed, (1, M); b = op(B) (1, N) likewise.
  ger(CblasRowMajor, M, N, alpha, A, ta ? 1 : lda, B, tb ? ldb : 1, C, ldc);
  return true;
}
#endif

}  // namespace blas_detail

/*!
 * \brief C(M, N) = alpha * op(A) op(B) + beta * C (row-major; lda/ldb/ldc are row strides of
 *        the stored matrices). beta == 0 never reads C (it may hold garbage or NaN).
 */
template <typename DType>
inline void BlasGemm(bool ta, bool tb, index_t M, index_t N, index_t K, DType alpha,
                     const DType* A, index_t lda, const DType* B, index_t ldb, DType beta,
                     DType* C, index_t ldc) {
  if (M == 0 || N == 0) return;
  blas_detail::NaiveGemm<DType>(ta, tb, M, N, K, static_cast<double>(alpha), A, lda, B, ldb,
                                static_cast<double>(beta), C, ldc);
}

#if MXNET_USE_BLAS_OPEN
template <>
inline void BlasGemm<float>(bool ta, bool tb, index_t M, index_t N, index_t K, float alpha,
                            const float* A, index_t lda, const float* B, index_t ldb, float beta,
                            float* C, index_t ldc) {
  if (M == 0 || N == 0) return;
  if (K == 0) {  // BLAS leaves C untouched when K == 0 only if beta == 1
    for (index_t i = 0; i < M; ++i)
      for (index_t j = 0; j < N; ++j) C[i * ldc + j] = beta == 0.f ? 0.f : beta * C[i * ldc + j];
    return;
  }
  InitBlasThreads();
  if (blas_detail::GemvForVectorGemm<float>(cblas_sgemv, ta, tb, M, N, K, alpha, A, lda, B, ldb,
                                            beta, C, ldc) ||
      blas_detail::GerForOuterGemm<float>(cblas_sger, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta,
                                          C, ldc)) {
    return;
  }
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N,
              K, alpha, A, lda, B, ldb, beta, C, ldc);
}

template <>
inline void BlasGemm<double>(bool ta, bool tb, index_t M, index_t N, index_t K, double alpha,
                             const double* A, index_t lda, const double* B, index_t ldb,
                             double beta, double* C, index_t ldc) {
  if (M == 0 || N == 0) return;
  if (K == 0) {
    for (index_t i = 0; i < M; ++i)
      for (index_t j = 0; j < N; ++j) C[i * ldc + j] = beta == 0. ? 0. : beta * C[i * ldc + j];
    return;
  }
  InitBlasThreads();
  if (blas_detail::GemvForVectorGemm<double>(cblas_dgemv, ta, tb, M, N, K, alpha, A, lda, B, ldb,
                                             beta, C, ldc) ||
      blas_detail::GerForOuterGemm<double>(cblas_dger, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta,
                                           C, ldc)) {
    return;
  }
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N,
              K, alpha, A, lda, B, ldb, beta, C, ldc);
}

template <>
inline void BlasGemm<mshadow::half::half_t>(bool ta, bool tb, index_t M, index_t N, index_t K,
                                            mshadow::half::half_t alpha,
                                            const mshadow::half::half_t* A, index_t lda,
                                            const mshadow::half::half_t* B, index_t ldb,
                                            mshadow::half::half_t beta, mshadow::half::half_t* C,
                                            index_t ldc) {
  if (M == 0 || N == 0) return;
  // Compact float copies of the stored matrices (rows x ld strides collapse to compact).
  const index_t arows = ta ? K : M, acols = ta ? M : K;
  const index_t brows = tb ? N : K, bcols = tb ? K : N;
  std::vector<float> a(arows * acols), b(brows * bcols), c(M * N);
  for (index_t i = 0; i < arows; ++i)
    for (index_t j = 0; j < acols; ++j) a[i * acols + j] = static_cast<float>(A[i * lda + j]);
  for (index_t i = 0; i < brows; ++i)
    for (index_t j = 0; j < bcols; ++j) b[i * bcols + j] = static_cast<float>(B[i * ldb + j]);
  const float fbeta = static_cast<float>(beta);
  if (fbeta != 0.f) {
    for (index_t i = 0; i < M; ++i)
      for (index_t j = 0; j < N; ++j) c[i * N + j] = static_cast<float>(C[i * ldc + j]);
  }
  BlasGemm<float>(ta, tb, M, N, K, static_cast<float>(alpha), a.data(), acols, b.data(), bcols,
                  fbeta, c.data(), N);
  for (index_t i = 0; i < M; ++i)
    for (index_t j = 0; j < N; ++j) C[i * ldc + j] = mshadow::half::half_t(c[i * N + j]);
}
#endif  // MXNET_USE_BLAS_OPEN

/*!
 * \brief In place: B = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), row-major, B (M, N),
 *        A triangular (the `lower` or upper triangle is read, non-unit diagonal) of side M
 *        (left) or N (right). float and double only (OpenBLAS strsm / dtrsm).
 */
inline void BlasTrsm(bool right, bool lower, bool trans, index_t M, index_t N, float alpha,
                     const float* A, index_t lda, float* B, index_t ldb) {
#if MXNET_USE_BLAS_OPEN
  if (M == 0 || N == 0) return;
  InitBlasThreads();
  cblas_strsm(CblasRowMajor, right ? CblasRight : CblasLeft, lower ? CblasLower : CblasUpper,
              trans ? CblasTrans : CblasNoTrans, CblasNonUnit, M, N, alpha, A, lda, B, ldb);
#else
  MX_THROW(NotImplementedError) << "triangular solve (linalg_trsm) needs a build with BLAS";
#endif
}

inline void BlasTrsm(bool right, bool lower, bool trans, index_t M, index_t N, double alpha,
                     const double* A, index_t lda, double* B, index_t ldb) {
#if MXNET_USE_BLAS_OPEN
  if (M == 0 || N == 0) return;
  InitBlasThreads();
  cblas_dtrsm(CblasRowMajor, right ? CblasRight : CblasLeft, lower ? CblasLower : CblasUpper,
              trans ? CblasTrans : CblasNoTrans, CblasNonUnit, M, N, alpha, A, lda, B, ldb);
#else
  MX_THROW(NotImplementedError) << "triangular solve (linalg_trsm) needs a build with BLAS";
#endif
}

/*!
 * \brief In place: B = alpha op(A) B (left) or alpha B op(A) (right), row-major, B (M, N), A
 *        triangular as for BlasTrsm. float and double only (OpenBLAS strmm / dtrmm).
 */
inline void BlasTrmm(bool right, bool lower, bool trans, index_t M, index_t N, float alpha,
                     const float* A, index_t lda, float* B, index_t ldb) {
#if MXNET_USE_BLAS_OPEN
  if (M == 0 || N == 0) return;
  InitBlasThreads();
  cblas_strmm(CblasRowMajor, right ? CblasRight : CblasLeft, lower ? CblasLower : CblasUpper,
              trans ? CblasTrans : CblasNoTrans, CblasNonUnit, M, N, alpha, A, lda, B, ldb);
#else
  MX_THROW(NotImplementedError) << "triangular product (linalg_trmm) needs a build with BLAS";
#endif
}

inline void BlasTrmm(bool right, bool lower, bool trans, index_t M, index_t N, double alpha,
                     const double* A, index_t lda, double* B, index_t ldb) {
#if MXNET_USE_BLAS_OPEN
  if (M == 0 || N == 0) return;
  InitBlasThreads();
  cblas_dtrmm(CblasRowMajor, right ? CblasRight : CblasLeft, lower ? CblasLower : CblasUpper,
              trans ? CblasTrans : CblasNoTrans, CblasNonUnit, M, N, alpha, A, lda, B, ldb);
#else
  MX_THROW(NotImplementedError) << "triangular product (linalg_trmm) needs a build with BLAS";
#endif
}

// ------------------------------------------------------------------- by device

/*!
 * \brief cuBLAS GEMM on the stream of `s`, row-major with BlasGemm's argument order, `batch`
 *        products at element strides sa/sb/sc. dtype is float32, float64 or float16 (float16
 *        accumulates in float32); any other dtype throws naming it. Defined in
 *        blas_gemm_gpu.cc (CUDA builds); MXNET_CUDA_ALLOW_TENSOR_CORE=0 keeps float16 off the
 *        tensor cores, MXNET_CUDA_TENSOR_OP_MATH_ALLOW_CONVERSION=1 lets float32 use TF32.
 */
void GpuGemm(mshadow::Stream<mshadow::gpu>* s, int dtype, bool ta, bool tb, index_t M, index_t N,
             index_t K, double alpha, const void* A, index_t lda, const void* B, index_t ldb,
             double beta, void* C, index_t ldc, index_t batch, index_t sa, index_t sb,
             index_t sc);

/*!
 * \brief C = alpha op(A) op(B) + beta C on either device, `batch` times at element strides
 *        sa/sb/sc (row-major, BlasGemm's argument order).
 */
template <typename DType>
inline void Gemm(mshadow::Stream<mshadow::cpu>*, bool ta, bool tb, index_t M, index_t N,
                 index_t K, double alpha, const DType* A, index_t lda, const DType* B,
                 index_t ldb, double beta, DType* C, index_t ldc, index_t batch = 1,
                 index_t sa = 0, index_t sb = 0, index_t sc = 0) {
  for (index_t i = 0; i < batch; ++i) {
    BlasGemm<DType>(ta, tb, M, N, K, DType(alpha), A + i * sa, lda, B + i * sb, ldb, DType(beta),
                    C + i * sc, ldc);
  }
}

template <typename DType>
inline void Gemm(mshadow::Stream<mshadow::gpu>* s, bool ta, bool tb, index_t M, index_t N,
                 index_t K, double alpha, const DType* A, index_t lda, const DType* B,
                 index_t ldb, double beta, DType* C, index_t ldc, index_t batch = 1,
                 index_t sa = 0, index_t sb = 0, index_t sc = 0) {
  GpuGemm(s, mshadow::DataType<DType>::kFlag, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C,
          ldc, batch, sa, sb, sc);
}

/*!
 * \brief cuBLAS triangular solve on the stream of `s`, BlasTrsm's arguments, `batch` solves.
 *        batch == 1 solves A, B with cublas<t>trsm; batch > 1 runs cublas<t>trsmBatched on
 *        `ptrs`, device memory holding the batch's A_i pointers followed by its B_i pointers
 *        (cuBLAS takes pointer arrays in device memory; a kernel of the caller fills them).
 *        dtype is float32 or float64; any other dtype throws naming it. Defined in
 *        blas_gemm_gpu.cc (CUDA builds).
 */
void GpuTrsm(mshadow::Stream<mshadow::gpu>* s, int dtype, bool right, bool lower, bool trans,
             index_t M, index_t N, double alpha, const void* A, index_t lda, void* B, index_t ldb,
             index_t batch, void* const* ptrs);

/*!
 * \brief B_i = alpha op(A_i)^-1 B_i (left) or alpha B_i op(A_i)^-1 (right) in place on either
 *        device, for A_i = A + i * sa, B_i = B + i * sb, i < batch (row-major, BlasTrsm's
 *        arguments). `ptrs` is read on the GPU only, when batch > 1 (see GpuTrsm).
 */
template <typename DType>
inline void Trsm(mshadow::Stream<mshadow::cpu>*, bool right, bool lower, bool trans, index_t M,
                 index_t N, double alpha, const DType* A, index_t lda, index_t sa, DType* B,
                 index_t ldb, index_t sb, index_t batch, void* const* ptrs = nullptr) {
  (void)ptrs;
  const index_t k = right ? N : M;
  // Many small solves: one per thread; few large ones: let BLAS thread each.
  const bool per_thread = batch > 1 && M * N * k < (index_t(1) << 18);
#pragma omp parallel for if (per_thread)
  for (index_t i = 0; i < batch; ++i) {
    BlasTrsm(right, lower, trans, M, N, static_cast<DType>(alpha), A + i * sa, lda, B + i * sb,
             ldb);
  }
}

template <typename DType>
inline void Trsm(mshadow::Stream<mshadow::gpu>* s, bool right, bool lower, bool trans, index_t M,
                 index_t N, double alpha, const DType* A, index_t lda, index_t sa, DType* B,
                 index_t ldb, index_t sb, index_t batch, void* const* ptrs = nullptr) {
  (void)sa;
  (void)sb;
  GpuTrsm(s, mshadow::DataType<DType>::kFlag, right, lower, trans, M, N, alpha, A, lda, B, ldb,
          batch, ptrs);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_BLAS_GEMM_H_
