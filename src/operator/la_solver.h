/*!
 * \file la_solver.h
 * \brief The dense factorizations of the linalg operators, one entry point per routine with a
 *        CPU form (LAPACK from OpenBLAS, here) and a GPU form (cuSOLVER, la_solver_gpu.cc):
 *
 *   LaPotrf  Cholesky          LaPotri  inverse from a Cholesky factor
 *   LaGeqrf  QR (reflectors)   LaOrgqr  Q from the reflectors
 *   LaSyevd  symmetric eigendecomposition
 *   LaGetrf  LU with pivots    LaGetrs  solve with an LU factorization
 *
 * Each routine runs on a compact batch of row-major matrices. LAPACK and cuSOLVER are
 * column-major: the row-major (m, n) matrix A is, in the same memory, the column-major (n, m)
 * matrix A^T, and every routine works on that view: the lower triangle of a row-major A is the
 * upper triangle of A^T, the QR factorization of A^T is the LQ factorization of A, and
 * eigenvectors in the columns of A^T are in the rows of A. The callers (la_op-inl.h) are
 * written in these row-major terms.
 *
 * `info` receives one LAPACK info code per matrix (device memory on the GPU: LaInfoOnHost reads
 * it back). `work` is DType scratch of LaSolverWork elements: the GPU asks cuSOLVER for its
 * size; the CPU needs none (it converts each matrix to double, as LAPACK runs in double here,
 * and allocates its LAPACK workspace per matrix). Only float and double are instantiated.
 */
#ifndef MXNET_OPERATOR_LA_SOLVER_H_
#define MXNET_OPERATOR_LA_SOLVER_H_

#include <mshadow/base.h>
#include <mxnet/base.h>

#include <algorithm>
#include <vector>

// LAPACK (Fortran ABI, shipped inside OpenBLAS). Trailing size_t arguments are the hidden
// lengths of the character arguments.
extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda,
             const double* tau, double* work, const int* lwork, int* info);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda,
             double* w, double* work, const int* lwork, int* iwork, const int* liwork, int* info,
             size_t, size_t);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info, size_t);
}

namespace mxnet {
namespace op {

/*! \brief The routines, for LaSolverWork. */
enum class LaRoutine { kPotrf, kPotri, kGeqrf, kOrgqr, kSyevd, kGetrf };

// ----------------------------------------------------------------------------------- GPU forms

/*! \brief DType elements of workspace `routine` needs on the GPU for (m, n) row-major matrices
 *         (n, n for the square ones). */
template <typename DType>
index_t LaSolverWork(mshadow::Stream<mshadow::gpu>* s, LaRoutine routine, int m, int n);
/*! \brief Cholesky of the symmetric matrices given by their lower triangles: L in the lower
 *         triangle (the upper one keeps the input). info > 0: not positive definite. */
template <typename DType>
void LaPotrf(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, int* info,
             DType* work, index_t lwork);
/*! \brief (L L^T)^-1 from the lower-triangular L, in the lower triangle (the upper one keeps
 *         the input). info > 0: a zero on L's diagonal. */
template <typename DType>
void LaPotri(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, int* info,
             DType* work, index_t lwork);
/*! \brief LQ of the (m, n) matrices, m <= n: L in the lower triangle of the leading (m, m)
 *         block, the reflectors elsewhere and in tau (m per matrix). */
template <typename DType>
void LaGeqrf(mshadow::Stream<mshadow::gpu>* s, index_t batch, int m, int n, DType* a, DType* tau,
             int* info, DType* work, index_t lwork);
/*! \brief Q (m, n) with orthonormal rows, in place, from LaGeqrf's reflectors. */
template <typename DType>
void LaOrgqr(mshadow::Stream<mshadow::gpu>* s, index_t batch, int m, int n, DType* a,
             const DType* tau, int* info, DType* work, index_t lwork);
/*! \brief Eigenvalues (ascending, n per matrix, in w) and eigenvectors (the rows of a) of the
 *         symmetric matrices given by their lower triangles. info > 0: no convergence. */
template <typename DType>
void LaSyevd(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, DType* w,
             int* info, DType* work, index_t lwork);
/*! \brief LU of A^T with partial pivoting (ipiv: n per matrix, 1-based; det A^T = det A).
 *         info > 0: exactly singular. */
template <typename DType>
void LaGetrf(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, int* ipiv,
             int* info, DType* work, index_t lwork);
/*! \brief b = (A^T)^-1 b in the column-major view, i.e. row-major b = b A^-1 for (n, n) b; with
 *         b = I: A^-1. lu and ipiv from LaGetrf. */
template <typename DType>
void LaGetrs(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, const DType* lu,
             const int* ipiv, DType* b, int* info);
/*! \brief The `n` info codes, copied from the device on the stream (which then waits). */
std::vector<int> LaInfoOnHost(mshadow::Stream<mshadow::gpu>* s, const int* info, index_t n);

// ----------------------------------------------------------------------------------- CPU forms

template <typename DType>
inline index_t LaSolverWork(mshadow::Stream<mshadow::cpu>*, LaRoutine, int, int) {
  return 0;
}

inline std::vector<int> LaInfoOnHost(mshadow::Stream<mshadow::cpu>*, const int* info,
                                     index_t n) {
  return std::vector<int>(info, info + n);
}

namespace la_detail {

/*! \brief f(b, m) for every matrix b of the batch, m a double copy of its `size` values that is
 *         stored back afterwards; matrices run in parallel. */
template <typename DType, typename F>
inline void EachMatrix(index_t batch, index_t size, DType* a, F f) {
#pragma omp parallel for if (batch > 1)
  for (index_t b = 0; b < batch; ++b) {
    std::vector<double> m(a + b * size, a + (b + 1) * size);
    f(b, m.data());
    for (index_t i = 0; i < size; ++i) a[b * size + i] = static_cast<DType>(m[i]);
  }
}

/*! \brief LAPACK's optimal workspace from a query's result (at least 1). */
inline int QueriedWork(double query) { return std::max(1, static_cast<int>(query)); }

}  // namespace la_detail

template <typename DType>
inline void LaPotrf(mshadow::Stream<mshadow::cpu>*, index_t batch, int n, DType* a, int* info,
                    DType*, index_t) {
  if (n == 0) return std::fill(info, info + batch, 0);
  la_detail::EachMatrix(batch, index_t(n) * n, a, [&](index_t b, double* m) {
    dpotrf_("U", &n, m, &n, info + b, 1);
  });
}

template <typename DType>
inline void LaPotri(mshadow::Stream<mshadow::cpu>*, index_t batch, int n, DType* a, int* info,
                    DType*, index_t) {
  if (n == 0) return std::fill(info, info + batch, 0);
  la_detail::EachMatrix(batch, index_t(n) * n, a, [&](index_t b, double* m) {
    dpotri_("U", &n, m, &n, info + b, 1);
  });
}

template <typename DType>
inline void LaGeqrf(mshadow::Stream<mshadow::cpu>*, index_t batch, int m, int n, DType* a,
                    DType* tau, int* info, DType*, index_t) {
  if (m == 0) return std::fill(info, info + batch, 0);
  la_detail::EachMatrix(batch, index_t(m) * n, a, [&](index_t b, double* x) {
    std::vector<double> t(m);
    int lwork = -1;
    double query = 0;
    dgeqrf_(&n, &m, x, &n, t.data(), &query, &lwork, info + b);
    lwork = la_detail::QueriedWork(query);
    std::vector<double> work(lwork);
    dgeqrf_(&n, &m, x, &n, t.data(), work.data(), &lwork, info + b);
    for (int i = 0; i < m; ++i) tau[b * m + i] = static_cast<DType>(t[i]);
  });
}

template <typename DType>
inline void LaOrgqr(mshadow::Stream<mshadow::cpu>*, index_t batch, int m, int n, DType* a,
                    const DType* tau, int* info, DType*, index_t) {
  if (m == 0) return std::fill(info, info + batch, 0);
  la_detail::EachMatrix(batch, index_t(m) * n, a, [&](index_t b, double* x) {
    std::vector<double> t(tau + b * m, tau + (b + 1) * m);
    int lwork = -1;
    double query = 0;
    dorgqr_(&n, &m, &m, x, &n, t.data(), &query, &lwork, info + b);
    lwork = la_detail::QueriedWork(query);
    std::vector<double> work(lwork);
    dorgqr_(&n, &m, &m, x, &n, t.data(), work.data(), &lwork, info + b);
  });
}

template <typename DType>
inline void LaSyevd(mshadow::Stream<mshadow::cpu>*, index_t batch, int n, DType* a, DType* w,
                    int* info, DType*, index_t) {
  if (n == 0) return std::fill(info, info + batch, 0);
  la_detail::EachMatrix(batch, index_t(n) * n, a, [&](index_t b, double* x) {
    std::vector<double> ev(n);
    int lwork = -1, liwork = -1, iquery = 0;
    double query = 0;
    dsyevd_("V", "U", &n, x, &n, ev.data(), &query, &lwork, &iquery, &liwork, info + b, 1, 1);
    lwork = la_detail::QueriedWork(query);
    liwork = std::max(1, iquery);
    std::vector<double> work(lwork);
    std::vector<int> iwork(liwork);
    dsyevd_("V", "U", &n, x, &n, ev.data(), work.data(), &lwork, iwork.data(), &liwork, info + b,
            1, 1);
    for (int i = 0; i < n; ++i) w[b * n + i] = static_cast<DType>(ev[i]);
  });
}

template <typename DType>
inline void LaGetrf(mshadow::Stream<mshadow::cpu>*, index_t batch, int n, DType* a, int* ipiv,
                    int* info, DType*, index_t) {
  if (n == 0) return std::fill(info, info + batch, 0);
  la_detail::EachMatrix(batch, index_t(n) * n, a, [&](index_t b, double* x) {
    dgetrf_(&n, &n, x, &n, ipiv + b * n, info + b);
  });
}

template <typename DType>
inline void LaGetrs(mshadow::Stream<mshadow::cpu>*, index_t batch, int n, const DType* lu,
                    const int* ipiv, DType* b, int* info) {
  if (n == 0) return std::fill(info, info + batch, 0);
  const index_t size = index_t(n) * n;
  la_detail::EachMatrix(batch, size, b, [&](index_t i, double* x) {
    const std::vector<double> f(lu + i * size, lu + (i + 1) * size);
    dgetrs_("N", &n, &n, f.data(), &n, ipiv + i * n, x, &n, info + i, 1);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_LA_SOLVER_H_
