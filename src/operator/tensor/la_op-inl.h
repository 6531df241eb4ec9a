/*!
 * \file la_op-inl.h
 * \brief The linear-algebra operator family (`_linalg_*`): parameters, shape/type inference and
 *        the dense-matrix helpers the kernels share.
 *
 * Every operator works on a batch of matrices: the last two dimensions of a tensor (gemm and
 * gemm2 also accept the row axis elsewhere, see LaAxisView).
 *
 * Both devices (the `xpu`-templated kernels at the end of this file, registered for the CPU in
 * la_op.cc and for the GPU in la_op.cu): gemm, gemm2 and syrk are batched GEMMs in the input
 * dtype straight on the tensor buffers (OpenBLAS / cuBLAS), trmm is OpenBLAS trmm on the CPU
 * and a batched GEMM with a copy of A's triangle on the GPU, trsm is a batched triangular
 * solve (OpenBLAS strsm/dtrsm, cuBLAS trsm/trsmBatched), and sumlogdiag and the
 * diagonal/triangle copies are element-wise kernels.
 *
 * CPU only (la_op_factor.cc): the factorizations load one matrix at a time into a column-major
 * double buffer (DMat), run LAPACK in double (OpenBLAS ships LAPACK) and store the result in the
 * output dtype: LAPACK is column-major and float32 inputs then get double-precision
 * factorizations for free. Batches run in parallel with OpenMP; errors found inside the
 * parallel loop (matrix not positive definite, singular) are collected and thrown after it,
 * naming the operator and the batch index.
 */
#ifndef MXNET_OPERATOR_TENSOR_LA_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_LA_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../blas_gemm.h"
#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

// LAPACK (Fortran ABI, shipped inside OpenBLAS). Trailing size_t arguments are the hidden
// lengths of the character arguments.
extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work,
             const int* lwork, int* info);
void dgelqf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void dorglq_(const int* m, const int* n, const int* k, double* a, const int* lda,
             const double* tau, double* work, const int* lwork, int* info);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda,
             double* w, double* work, const int* lwork, int* iwork, const int* liwork, int* info,
             size_t, size_t);
}

namespace mxnet {
namespace op {

// ------------------------------------------------------------------------------- parameters

struct LaMatrixMacParam : public dmlc::Parameter<LaMatrixMacParam> {
  bool transpose_a, transpose_b;
  double alpha, beta;
  int axis;
  DMLC_DECLARE_PARAMETER(LaMatrixMacParam) {
    DMLC_DECLARE_FIELD(transpose_a).set_default(false)
        .describe("Multiply with transposed of first input (A).");
    DMLC_DECLARE_FIELD(transpose_b).set_default(false)
        .describe("Multiply with transposed of second input (B).");
    DMLC_DECLARE_FIELD(alpha).set_default(1.0).describe("Scalar factor multiplied with A*B.");
    DMLC_DECLARE_FIELD(beta).set_default(1.0).describe("Scalar factor multiplied with C.");
    DMLC_DECLARE_FIELD(axis).set_default(-2).describe("Axis corresponding to the matrix rows.");
  }
};

struct LaMatrixMultParam : public dmlc::Parameter<LaMatrixMultParam> {
  bool transpose_a, transpose_b;
  double alpha;
  int axis;
  DMLC_DECLARE_PARAMETER(LaMatrixMultParam) {
    DMLC_DECLARE_FIELD(transpose_a).set_default(false)
        .describe("Multiply with transposed of first input (A).");
    DMLC_DECLARE_FIELD(transpose_b).set_default(false)
        .describe("Multiply with transposed of second input (B).");
    DMLC_DECLARE_FIELD(alpha).set_default(1.0).describe("Scalar factor multiplied with A*B.");
    DMLC_DECLARE_FIELD(axis).set_default(-2)
        .describe("Axis corresponding to the matrix row indices.");
  }
};

struct LaTriangMatrixMultParam : public dmlc::Parameter<LaTriangMatrixMultParam> {
  bool transpose, rightside, lower;
  double alpha;
  DMLC_DECLARE_PARAMETER(LaTriangMatrixMultParam) {
    DMLC_DECLARE_FIELD(transpose).set_default(false)
        .describe("Use transposed of the triangular matrix");
    DMLC_DECLARE_FIELD(rightside).set_default(false)
        .describe("Multiply triangular matrix from the right to non-triangular one.");
    DMLC_DECLARE_FIELD(lower).set_default(true)
        .describe("True if the triangular matrix is lower triangular, false if it is upper "
                  "triangular.");
    DMLC_DECLARE_FIELD(alpha).set_default(1.0)
        .describe("Scalar factor to be applied to the result.");
  }
};

struct LaSyrkParam : public dmlc::Parameter<LaSyrkParam> {
  bool transpose;
  double alpha;
  DMLC_DECLARE_PARAMETER(LaSyrkParam) {
    DMLC_DECLARE_FIELD(transpose).set_default(false).describe("Use transpose of input matrix.");
    DMLC_DECLARE_FIELD(alpha).set_default(1.0)
        .describe("Scalar factor to be applied to the result.");
  }
};

struct LaDiagParam : public dmlc::Parameter<LaDiagParam> {
  int offset;
  DMLC_DECLARE_PARAMETER(LaDiagParam) {
    DMLC_DECLARE_FIELD(offset).set_default(0)
        .describe("Offset of the diagonal versus the main diagonal. 0 corresponds to the main "
                  "diagonal, a negative/positive value to diagonals below/above the main "
                  "diagonal.");
  }
};

struct LaTrianParam : public dmlc::Parameter<LaTrianParam> {
  int offset;
  bool lower;
  DMLC_DECLARE_PARAMETER(LaTrianParam) {
    DMLC_DECLARE_FIELD(offset).set_default(0)
        .describe("Offset of the diagonal versus the main diagonal. 0 corresponds to the main "
                  "diagonal, a negative/positive value to diagonals below/above the main "
                  "diagonal.");
    DMLC_DECLARE_FIELD(lower).set_default(true)
        .describe("Refer to the lower triangular matrix if lower=true, refer to the upper "
                  "otherwise. Only relevant when offset=0");
  }
};

// --------------------------------------------------------------------------- shape helpers

/*! \brief The operator's registered name for messages ("linalg_gemm2" rather than the internal). */
inline std::string LaName(const nnvm::NodeAttrs& attrs) {
  if (attrs.op == nullptr) return "linalg";
  const std::string& n = attrs.op->name;
  return n.rfind("_linalg_", 0) == 0 ? n.substr(1) : n;
}

/*! \brief Checks that `s` is a batch of matrices (ndim >= 2), square if asked. */
inline void LaCheckMatrices(const nnvm::NodeAttrs& attrs, const char* arg,
                            const mxnet::TShape& s, bool square) {
  if (s.ndim() < 2) {
    MX_THROW(ValueError) << LaName(attrs) << ": input " << arg
                         << " must be a tensor of matrices (ndim >= 2), got shape " << s;
  }
  if (square && s[s.ndim() - 1] >= 0 && s[s.ndim() - 2] >= 0 &&
      s[s.ndim() - 1] != s[s.ndim() - 2]) {
    MX_THROW(ValueError) << LaName(attrs) << ": input " << arg
                         << " must be a tensor of square matrices, got shape " << s;
  }
}

/*! \brief Checks that the leading (batch) dimensions of a and b agree. */
inline void LaCheckSameBatch(const nnvm::NodeAttrs& attrs, const char* an,
                             const mxnet::TShape& a, const char* bn, const mxnet::TShape& b,
                             int a_trailing, int b_trailing) {
  const int na = a.ndim() - a_trailing, nb = b.ndim() - b_trailing;
  bool ok = na == nb;
  for (int i = 0; ok && i < na; ++i) ok = a[i] < 0 || b[i] < 0 || a[i] == b[i];
  if (!ok) {
    MX_THROW(ValueError) << LaName(attrs) << ": inputs " << an << " " << a << " and " << bn
                         << " " << b << " must have the same batch (leading) dimensions";
  }
}

/*! \brief Batch shape of s (all but the last `trailing` dims); (1,) if that is empty. */
inline mxnet::TShape LaBatchShape(const mxnet::TShape& s, int trailing) {
  if (s.ndim() == trailing) return mxnet::TShape(1, 1);
  return mxnet::TShape(s.begin(), s.begin() + (s.ndim() - trailing));
}

/*! \brief s with its last `trailing` dims replaced by `tail`. */
inline mxnet::TShape LaReplaceTail(const mxnet::TShape& s, int trailing,
                                   std::vector<dim_t> tail) {
  std::vector<dim_t> d(s.begin(), s.begin() + (s.ndim() - trailing));
  d.insert(d.end(), tail.begin(), tail.end());
  return mxnet::TShape(d.begin(), d.end());
}

/*! \brief Type inference: all inputs and outputs share one dtype, float32 or float64. */
inline bool LaType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                   std::vector<int>* out_attrs) {
  int dtype = -1;
  for (int t : *in_attrs) if (t != -1) { dtype = t; break; }
  if (dtype == -1) {
    for (int t : *out_attrs) if (t != -1) { dtype = t; break; }
  }
  if (dtype == -1) return false;
  if (dtype != mshadow::kFloat32 && dtype != mshadow::kFloat64) {
    MX_THROW(TypeError) << LaName(attrs) << ": only float32 and float64 are supported, got "
                        << mshadow::dtype_string(dtype);
  }
  for (size_t i = 0; i < in_attrs->size(); ++i) TYPE_ASSIGN_CHECK(*in_attrs, i, dtype);
  for (size_t i = 0; i < out_attrs->size(); ++i) TYPE_ASSIGN_CHECK(*out_attrs, i, dtype);
  return true;
}

#define LA_REAL_TYPE_SWITCH(type, DType, ...)                                             \
  switch (type) {                                                                         \
    case mshadow::kFloat32: { typedef float DType; {__VA_ARGS__} } break;                 \
    case mshadow::kFloat64: { typedef double DType; {__VA_ARGS__} } break;                \
    default:                                                                              \
      MX_THROW(::dmlc::TypeError) << "linalg: only float32 and float64 are supported, got " \
                                  << mshadow::dtype_string(type);                         \
  }

// ----------------------------------------------------------------------- dense double helpers

/*! \brief A column-major double matrix: element (i, j) at v[j * rows + i]. */
struct DMat {
  int rows = 0, cols = 0;
  std::vector<double> v;
  DMat() = default;
  DMat(int r, int c) : rows(r), cols(c), v(static_cast<size_t>(r) * c, 0.0) {}
  double& operator()(int i, int j) { return v[static_cast<size_t>(j) * rows + i]; }
  double operator()(int i, int j) const { return v[static_cast<size_t>(j) * rows + i]; }
  double* data() { return v.data(); }
  const double* data() const { return v.data(); }
};

/*! \brief Matrix b of a batch of row-major (rows, cols) matrices stored at p. */
template <typename DType>
inline DMat LaLoad(const DType* p, index_t b, int rows, int cols) {
  DMat m(rows, cols);
  const DType* src = p + b * static_cast<index_t>(rows) * cols;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = static_cast<double>(src[i * cols + j]);
  return m;
}

/*! \brief Stores m as matrix b of a row-major batch at p, honouring req (write or add). */
template <typename DType>
inline void LaStore(const DMat& m, DType* p, index_t b, OpReqType req) {
  if (req == kNullOp) return;
  DType* dst = p + b * static_cast<index_t>(m.rows) * m.cols;
  for (int i = 0; i < m.rows; ++i)
    for (int j = 0; j < m.cols; ++j) {
      if (req == kAddTo) {
        dst[i * m.cols + j] += static_cast<DType>(m(i, j));
      } else {
        dst[i * m.cols + j] = static_cast<DType>(m(i, j));
      }
    }
}

/*! \brief Stores one scalar per batch entry. */
template <typename DType>
inline void LaStoreScalar(double x, DType* p, index_t b, OpReqType req) {
  if (req == kNullOp) return;
  if (req == kAddTo) {
    p[b] += static_cast<DType>(x);
  } else {
    p[b] = static_cast<DType>(x);
  }
}

/*! \brief op(A) op(B) * alpha (+ beta C when C is given with matching size). */
inline DMat LaMul(const DMat& a, bool ta, const DMat& b, bool tb, double alpha = 1.0) {
  const int m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols;
  const int n = tb ? b.rows : b.cols;
  DMat c(m, n);
  if (m == 0 || n == 0) return c;
  if (k == 0) return c;
  InitBlasThreads();
  cblas_dgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m,
              n, k, alpha, a.data(), std::max(1, a.rows), b.data(), std::max(1, b.rows), 0.0,
              c.data(), std::max(1, m));
  return c;
}

inline DMat LaTranspose(const DMat& a) {
  DMat t(a.cols, a.rows);
  for (int i = 0; i < a.rows; ++i)
    for (int j = 0; j < a.cols; ++j) t(j, i) = a(i, j);
  return t;
}

/*! \brief Zeroes the triangle not referenced (keeps lower incl. diagonal, or upper). */
inline void LaKeepTriangle(DMat* a, bool lower) {
  for (int j = 0; j < a->cols; ++j)
    for (int i = 0; i < a->rows; ++i)
      if (lower ? (i < j) : (i > j)) (*a)(i, j) = 0.0;
}

/*! \brief Copies the lower triangle onto the upper one (a symmetric matrix from its lower part). */
inline void LaSymmetrizeFromLower(DMat* a) {
  for (int j = 0; j < a->cols; ++j)
    for (int i = 0; i < j; ++i) (*a)(i, j) = (*a)(j, i);
}

/*! \brief In place: B = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), A triangular. */
inline void LaTrsm(const DMat& a, bool rightside, bool lower, bool transpose, double alpha,
                   DMat* b) {
  if (b->rows == 0 || b->cols == 0) return;
  InitBlasThreads();
  cblas_dtrsm(CblasColMajor, rightside ? CblasRight : CblasLeft, lower ? CblasLower : CblasUpper,
              transpose ? CblasTrans : CblasNoTrans, CblasNonUnit, b->rows, b->cols, alpha,
              a.data(), std::max(1, a.rows), b->data(), std::max(1, b->rows));
}

/*! \brief Cholesky factor (lower, upper part zeroed) of the symmetric matrix given by the
 *         lower triangle of a. Returns false if a is not positive definite. */
inline bool LaCholesky(DMat* a) {
  const int n = a->rows;
  int info = 0;
  if (n > 0) dpotrf_("L", &n, a->data(), &n, &info, 1);
  LaKeepTriangle(a, true);
  return info == 0;
}

/*! \brief LU factorization in place; returns the pivots (1-based, LAPACK) and info. */
inline int LaLU(DMat* a, std::vector<int>* ipiv) {
  const int n = a->rows;
  ipiv->assign(std::max(1, n), 0);
  int info = 0;
  if (n > 0) dgetrf_(&n, &n, a->data(), &n, ipiv->data(), &info);
  return info;
}

/*! \brief Inverse of a general square matrix; false if it is singular. */
inline bool LaInverse(DMat* a) {
  const int n = a->rows;
  if (n == 0) return true;
  std::vector<int> ipiv;
  if (LaLU(a, &ipiv) != 0) return false;
  int lwork = -1, info = 0;
  double query = 0;
  dgetri_(&n, a->data(), &n, ipiv.data(), &query, &lwork, &info);
  lwork = std::max(1, static_cast<int>(query));
  std::vector<double> work(lwork);
  dgetri_(&n, a->data(), &n, ipiv.data(), work.data(), &lwork, &info);
  return info == 0;
}

/*! \brief sign and log|det| of a square matrix via LU (sign 0, log -inf when singular). */
inline void LaSlogdet(DMat a, double* sign, double* logabs) {
  std::vector<int> ipiv;
  LaLU(&a, &ipiv);
  double s = 1.0, l = 0.0;
  for (int i = 0; i < a.rows; ++i) {
    const double d = a(i, i);
    if (ipiv[i] != i + 1) s = -s;
    if (d < 0) s = -s;
    if (d == 0) {
      s = 0.0;
      l = -std::numeric_limits<double>::infinity();
      break;
    }
    l += std::log(std::fabs(d));
  }
  *sign = s;
  *logabs = l;
}

/*!
 * \brief Runs f(b) for every batch index in parallel. f returns an empty string on success or
 *        an error message; the first error (lowest batch index) is thrown after the loop.
 */
template <typename F>
inline void LaForEachBatch(index_t batch, const std::string& op, F f) {
  std::vector<std::string> errors(batch);
#pragma omp parallel for if (batch > 1)
  for (index_t b = 0; b < batch; ++b) {
    try {
      errors[b] = f(b);
    } catch (const std::exception& e) {
      errors[b] = e.what();
    }
  }
  for (index_t b = 0; b < batch; ++b) {
    if (!errors[b].empty()) {
      MX_THROW(ValueError) << op << ": " << errors[b]
                           << (batch > 1 ? " (batch index " + std::to_string(b) + ")" : "");
    }
  }
}

/*! \brief Number of matrices in a batch of (rows, cols) matrices of total size n. */
inline index_t LaBatchCount(const TBlob& blob, int trailing) {
  index_t n = 1;
  for (int i = 0; i < blob.ndim() - trailing; ++i) n *= blob.shape_[i];
  return n;
}

inline int LaDim(const TBlob& blob, int from_end) {
  return static_cast<int>(blob.shape_[blob.ndim() - from_end]);
}

// ---------------------------------------------------------------- gemm, gemm2 (both devices)

/*!
 * \brief A tensor seen as a batch of matrices whose rows run along `axis` and columns along the
 *        last axis. The dims before the axis (outer) and between it and the last one (inner)
 *        form the batch; matrix (o, i) starts at o * R * inner * C + i * C, row stride
 *        inner * C, so BLAS works on the tensor in place for any axis.
 */
struct LaAxisView {
  index_t outer = 1, rows = 0, inner = 1, cols = 0;
  MSHADOW_XINLINE index_t batch() const { return outer * inner; }
  MSHADOW_XINLINE index_t ld() const { return inner * cols; }
  MSHADOW_XINLINE index_t offset(index_t b) const {
    const index_t o = b / inner, i = b % inner;
    return o * rows * inner * cols + i * cols;
  }
};

inline int LaNormalizeAxis(const nnvm::NodeAttrs& attrs, int axis, const mxnet::TShape& s) {
  const int nd = s.ndim();
  const int ax = axis < 0 ? axis + nd : axis;
  if (ax < 0 || ax > nd - 2) {
    MX_THROW(ValueError) << LaName(attrs) << ": axis " << axis << " is invalid for input shape "
                         << s << " (the row axis must come before the last, column, axis)";
  }
  return ax;
}

inline LaAxisView LaMakeView(const mxnet::TShape& s, int ax) {
  LaAxisView v;
  const int nd = s.ndim();
  for (int i = 0; i < ax; ++i) v.outer *= s[i];
  v.rows = s[ax];
  for (int i = ax + 1; i < nd - 1; ++i) v.inner *= s[i];
  v.cols = s[nd - 1];
  return v;
}

/*! \brief The matrix sizes of a gemm of A and B (rows on axis ax): op(A) is (M, K). */
struct LaGemmDims {
  LaAxisView a, b, out;
  index_t M, N, K;
};

inline LaGemmDims LaGemmSizes(const mxnet::TShape& as, const mxnet::TShape& bs, int ax, bool ta,
                              bool tb) {
  LaGemmDims d;
  d.a = LaMakeView(as, ax);
  d.b = LaMakeView(bs, ax);
  d.M = ta ? d.a.cols : d.a.rows;
  d.K = ta ? d.a.rows : d.a.cols;
  d.N = tb ? d.b.rows : d.b.cols;
  d.out = d.a;
  d.out.rows = d.M;
  d.out.cols = d.N;
  return d;
}

/*!
 * \brief C_b = alpha op(A_b) op(B_b) + beta C_b for every matrix of the batch: OpenMP over
 *        small products on the CPU; on the GPU one strided-batched cuBLAS call per outer index
 *        (matrix (o, i) sits at o * R * inner * C + i * C, a constant stride C within o), or a
 *        single call when inner == 1 (compact matrices at stride R * C).
 */
template <typename DType>
void LaBatchedGemm(mshadow::Stream<mshadow::cpu>*, bool ta, bool tb, index_t M, index_t N,
                   index_t K, DType alpha, const DType* a, const LaAxisView& av, const DType* b,
                   const LaAxisView& bv, DType beta, DType* c, const LaAxisView& cv) {
  const index_t batch = cv.batch();
  // Many small products: one per thread; few large ones: let BLAS thread each.
  const bool per_thread = batch > 1 && M * N * K < (index_t(1) << 18);
#pragma omp parallel for if (per_thread)
  for (index_t i = 0; i < batch; ++i) {
    BlasGemm<DType>(ta, tb, M, N, K, alpha, a + av.offset(i), av.ld(), b + bv.offset(i), bv.ld(),
                    beta, c + cv.offset(i), cv.ld());
  }
}
template <typename DType>
void LaBatchedGemm(mshadow::Stream<mshadow::gpu>* s, bool ta, bool tb, index_t M, index_t N,
                   index_t K, DType alpha, const DType* a, const LaAxisView& av, const DType* b,
                   const LaAxisView& bv, DType beta, DType* c, const LaAxisView& cv) {
  if (cv.inner == 1) {  // rows on the second-last axis: every matrix is compact, one call
    Gemm<DType>(s, ta, tb, M, N, K, static_cast<double>(alpha), a, av.ld(), b, bv.ld(),
                static_cast<double>(beta), c, cv.ld(), cv.outer, av.rows * av.cols,
                bv.rows * bv.cols, cv.rows * cv.cols);
    return;
  }
  for (index_t o = 0; o < cv.outer; ++o) {
    const index_t first = o * cv.inner;
    Gemm<DType>(s, ta, tb, M, N, K, static_cast<double>(alpha),
                a + av.offset(first), av.ld(), b + bv.offset(first), bv.ld(),
                static_cast<double>(beta), c + cv.offset(first), cv.ld(),
                cv.inner, av.cols, bv.cols, cv.cols);
  }
}

/*! \brief out[i] = scale * in[i] (+ out[i] when add). */
struct la_scale_into {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, double scale, const DType* in, bool add,
                                  DType* out) {
    out[i] = static_cast<DType>(scale * static_cast<double>(in[i]) +
                                (add ? static_cast<double>(out[i]) : 0.0));
  }
};
template <typename xpu, typename DType>
void LaScaleInto(mshadow::Stream<xpu>* s, double scale, const DType* in, index_t n, bool add,
                 DType* out) {
  mxnet_op::Kernel<la_scale_into, xpu>::Launch(s, n, scale, in, add, out);
}

/*! \brief Forward of gemm (3 inputs, out = alpha op(A) op(B) + beta C) and gemm2 (2 inputs). */
template <typename xpu, typename Param>
void LaGemmForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const Param& param = nnvm::get<Param>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int ax = LaNormalizeAxis(attrs, param.axis, inputs[0].shape_);
  const LaGemmDims d = LaGemmSizes(inputs[0].shape_, inputs[1].shape_, ax, param.transpose_a,
                                   param.transpose_b);
  LA_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DType* out = outputs[0].dptr<DType>();
    DType gemm_beta = DType(req[0] == kAddTo ? 1 : 0);
    if (inputs.size() == 3) {  // fold beta * C into the output first, then accumulate A*B
      const double beta = nnvm::get<LaMatrixMacParam>(attrs.parsed).beta;
      const DType* c = inputs[2].dptr<DType>();
      LaScaleInto(s, beta, c, outputs[0].Size(), req[0] == kAddTo, out);
      gemm_beta = DType(1);
    }
    LaBatchedGemm<DType>(s, param.transpose_a, param.transpose_b, d.M, d.N, d.K,
                         static_cast<DType>(param.alpha), inputs[0].dptr<DType>(), d.a,
                         inputs[1].dptr<DType>(), d.b, gemm_beta, out, d.out);
  });
}

/*!
 * \brief Backward of gemm/gemm2. inputs: (dOut, A, B); outputs: (dA, dB[, dC]).
 *        dA = alpha dOut op(B)^T (stored transposed when transpose_a),
 *        dB = alpha op(A)^T dOut (stored transposed when transpose_b), dC = beta dOut.
 */
template <typename xpu, typename Param>
void LaGemmBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const Param& param = nnvm::get<Param>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int ax = LaNormalizeAxis(attrs, param.axis, inputs[1].shape_);
  const bool ta = param.transpose_a, tb = param.transpose_b;
  const LaGemmDims d = LaGemmSizes(inputs[1].shape_, inputs[2].shape_, ax, ta, tb);
  const index_t M = d.M, N = d.N, K = d.K;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* g = inputs[0].dptr<DType>();
    const DType* a = inputs[1].dptr<DType>();
    const DType* b = inputs[2].dptr<DType>();
    const DType alpha = static_cast<DType>(param.alpha);
    if (req[0] != kNullOp) {
      const DType beta = DType(req[0] == kAddTo ? 1 : 0);
      DType* da = outputs[0].dptr<DType>();
      if (!ta) {  // dA (M, K) = G (M, N) op(B)^T (N, K)
        LaBatchedGemm<DType>(s, false, !tb, M, K, N, alpha, g, d.out, b, d.b, beta, da, d.a);
      } else {    // dA^T (K, M) = op(B) (K, N) G^T (N, M)
        LaBatchedGemm<DType>(s, tb, true, K, M, N, alpha, b, d.b, g, d.out, beta, da, d.a);
      }
    }
    if (req[1] != kNullOp) {
      const DType beta = DType(req[1] == kAddTo ? 1 : 0);
      DType* db = outputs[1].dptr<DType>();
      if (!tb) {  // dB (K, N) = op(A)^T (K, M) G (M, N)
        LaBatchedGemm<DType>(s, !ta, false, K, N, M, alpha, a, d.a, g, d.out, beta, db, d.b);
      } else {    // dB^T (N, K) = G^T (N, M) op(A) (M, K)
        LaBatchedGemm<DType>(s, true, ta, N, K, M, alpha, g, d.out, a, d.a, beta, db, d.b);
      }
    }
    if (outputs.size() == 3 && req[2] != kNullOp) {
      const double beta = nnvm::get<LaMatrixMacParam>(attrs.parsed).beta;
      LaScaleInto(s, beta, g, outputs[2].Size(), req[2] == kAddTo,
                         outputs[2].dptr<DType>());
    }
  });
}

// ------------------------- syrk, trmm, trsm, sumlogdiag, diagonal/triangle copies (both devices)

/*! \brief A compact batch: `batch` row-major (rows, cols) matrices one after the other. */
inline LaAxisView LaCompactView(index_t batch, index_t rows, index_t cols) {
  LaAxisView v;
  v.outer = batch;
  v.rows = rows;
  v.cols = cols;
  return v;
}

/*!
 * \brief Temp space of the triangular ops (FResourceRequest kTempSpace): room for `nptr`
 *        pointers (cuBLAS's batched pointer arrays, GPU only), then `nelem` DType values.
 */
template <typename DType>
struct LaScratch {
  void** ptrs;
  DType* data;
};
template <typename DType>
LaScratch<DType> LaGetScratch(const OpContext& ctx, index_t nptr, index_t nelem) {
  const size_t ptr_bytes = (static_cast<size_t>(nptr) * sizeof(void*) + 63) / 64 * 64;
  const size_t bytes = ptr_bytes + static_cast<size_t>(nelem) * sizeof(DType);
  char* base = static_cast<char*>(ctx.requested[0].get_space_internal(std::max<size_t>(bytes, 64)));
  return {reinterpret_cast<void**>(base), reinterpret_cast<DType*>(base + ptr_bytes)};
}

/*! \brief ptrs[i] = a + i * sa, ptrs[batch + i] = b + i * sb: cuBLAS's batched pointer arrays. */
struct la_batch_ptrs {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* a, index_t sa, DType* b, index_t sb,
                                  index_t batch, void** ptrs) {
    ptrs[i] = const_cast<DType*>(a) + i * sa;
    ptrs[batch + i] = b + i * sb;
  }
};

/*! \brief out = the lower (or upper) triangle of each n x n matrix of in, zero elsewhere (add:
 *         out += that). */
struct la_triangle_into {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, bool lower, const DType* in, bool add,
                                  DType* out) {
    const index_t r = (i / n) % n, c = i % n;
    const DType v = (lower ? c <= r : c >= r) ? in[i] : DType(0);
    out[i] = add ? DType(out[i] + v) : v;
  }
};

/*! \brief Pointers LaTrsmBatch needs in its scratch: the GPU's batched solve takes arrays. */
template <typename xpu>
index_t LaTrsmPointers(index_t batch) {
  return std::is_same<xpu, mshadow::gpu>::value && batch > 1 ? 2 * batch : 0;
}

/*! \brief B_i = alpha op(A_i)^-1 B_i in place (A_i (k, k) at stride k * k, B_i (m, n)). */
template <typename xpu, typename DType>
void LaTrsmBatch(mshadow::Stream<xpu>* s, const LaTriangMatrixMultParam& p, bool transpose,
                 double alpha, index_t batch, index_t m, index_t n, const DType* a, DType* b,
                 void** ptrs) {
  const index_t k = p.rightside ? n : m;
  if (LaTrsmPointers<xpu>(batch) > 0) {
    mxnet_op::Kernel<la_batch_ptrs, xpu>::Launch(s, batch, a, k * k, b, m * n, batch, ptrs);
  }
  Trsm<DType>(s, p.rightside, p.lower, transpose, m, n, alpha, a, std::max<index_t>(k, 1), k * k,
              b, std::max<index_t>(n, 1), m * n, batch, ptrs);
}

/*! \brief out = alpha op(A) op(A)^T with op(A) = A^T when transposed; inputs (A). */
template <typename xpu>
void LaSyrkForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const LaSyrkParam& p = nnvm::get<LaSyrkParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t m = LaDim(inputs[0], 2), n = LaDim(inputs[0], 1);
  const index_t batch = LaBatchCount(inputs[0], 2);
  const index_t k = p.transpose ? n : m;
  const LaAxisView av = LaCompactView(batch, m, n), cv = LaCompactView(batch, k, k);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* a = inputs[0].dptr<DType>();
    LaBatchedGemm<DType>(s, p.transpose, !p.transpose, k, k, p.transpose ? m : n,
                         static_cast<DType>(p.alpha), a, av, a, av,
                         DType(req[0] == kAddTo ? 1 : 0), outputs[0].dptr<DType>(), cv);
  });
}

/*! \brief inputs (dOut, A); dA = alpha (G + G^T) A, or alpha A (G + G^T) when transposed. */
template <typename xpu>
void LaSyrkBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const LaSyrkParam& p = nnvm::get<LaSyrkParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t m = LaDim(inputs[1], 2), n = LaDim(inputs[1], 1);
  const index_t batch = LaBatchCount(inputs[1], 2);
  const index_t k = p.transpose ? n : m;
  const LaAxisView av = LaCompactView(batch, m, n), gv = LaCompactView(batch, k, k);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* g = inputs[0].dptr<DType>();
    const DType* a = inputs[1].dptr<DType>();
    DType* da = outputs[0].dptr<DType>();
    const DType alpha = static_cast<DType>(p.alpha);
    const DType beta = DType(req[0] == kAddTo ? 1 : 0);
    for (bool tg : {false, true}) {  // G A + G^T A, or A G + A G^T
      if (!p.transpose) {
        LaBatchedGemm<DType>(s, tg, false, m, n, m, alpha, g, gv, a, av, tg ? DType(1) : beta,
                             da, av);
      } else {
        LaBatchedGemm<DType>(s, false, tg, m, n, n, alpha, a, av, g, gv, tg ? DType(1) : beta,
                             da, av);
      }
    }
  });
}

template <typename xpu, typename DType>
void LaTriangleInto(mshadow::Stream<xpu>* s, index_t size, index_t k, bool lower, const DType* in,
                    bool add, DType* out) {
  mxnet_op::Kernel<la_triangle_into, xpu>::Launch(s, size, k, lower, in, add, out);
}

/*! \brief Scratch values LaTrmmBatch needs: a copy of B on the CPU when adding, a copy of A's
 *         triangles on the GPU. */
template <typename xpu>
index_t LaTrmmScratch(bool add, index_t batch, index_t m, index_t n, index_t k) {
  return std::is_same<xpu, mshadow::gpu>::value ? batch * k * k : (add ? batch * m * n : 0);
}

/*!
 * \brief out_i = alpha op(tri(A_i)) B_i (left) or alpha B_i op(tri(A_i)) (right), added to out_i
 *        when `add`; A_i (k, k), B_i (m, n), compact batches. The CPU runs OpenBLAS trmm in place
 *        on a copy of B (the output itself unless adding), one matrix per thread when small.
 */
template <typename DType>
void LaTrmmBatch(mshadow::Stream<mshadow::cpu>*, bool right, bool lower, bool trans,
                 double alpha, index_t batch, index_t m, index_t n, const DType* a,
                 const DType* b, bool add, DType* out, DType* scratch) {
  const index_t k = right ? n : m, size = m * n;
  DType* x = add ? scratch : out;
  const bool per_thread = batch > 1 && size * k < (index_t(1) << 18);
#pragma omp parallel for if (per_thread)
  for (index_t i = 0; i < batch; ++i) {
    DType* xi = x + i * size;
    const DType* bi = b + i * size;
    if (xi != bi) std::copy(bi, bi + size, xi);
    BlasTrmm(right, lower, trans, m, n, static_cast<DType>(alpha), a + i * k * k,
             std::max<index_t>(k, 1), xi, std::max<index_t>(n, 1));
    if (add) {
      DType* oi = out + i * size;
      for (index_t j = 0; j < size; ++j) oi[j] += xi[j];
    }
  }
}

/*! \brief The GPU: cuBLAS has no batched trmm, so a copy of A's triangles (in `scratch`) goes
 *         through one strided-batched GEMM. */
template <typename DType>
void LaTrmmBatch(mshadow::Stream<mshadow::gpu>* s, bool right, bool lower, bool trans,
                 double alpha, index_t batch, index_t m, index_t n, const DType* a,
                 const DType* b, bool add, DType* out, DType* scratch) {
  const index_t k = right ? n : m;
  LaTriangleInto(s, batch * k * k, k, lower, a, false, scratch);
  const LaAxisView tv = LaCompactView(batch, k, k), bv = LaCompactView(batch, m, n);
  const DType al = static_cast<DType>(alpha), beta = DType(add ? 1 : 0);
  if (!right) {
    LaBatchedGemm<DType>(s, trans, false, m, n, k, al, scratch, tv, b, bv, beta, out, bv);
  } else {
    LaBatchedGemm<DType>(s, false, trans, m, n, k, al, b, bv, scratch, tv, beta, out, bv);
  }
}

/*! \brief out = alpha op(tri(A)) B (left) or alpha B op(tri(A)) (right); inputs (A, B). */
template <typename xpu>
void LaTrmmForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const LaTriangMatrixMultParam& p = nnvm::get<LaTriangMatrixMultParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t k = LaDim(inputs[0], 1), m = LaDim(inputs[1], 2), n = LaDim(inputs[1], 1);
  const index_t batch = LaBatchCount(inputs[1], 2);
  const bool add = req[0] == kAddTo;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* scratch = LaGetScratch<DType>(ctx, 0, LaTrmmScratch<xpu>(add, batch, m, n, k)).data;
    LaTrmmBatch<DType>(s, p.rightside, p.lower, p.transpose, p.alpha, batch, m, n,
                       inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), add,
                       outputs[0].dptr<DType>(), scratch);
  });
}

/*!
 * \brief inputs (dOut, A, B); out = alpha op(A) B or alpha B op(A).
 *        d op(A) = alpha G B^T (left) or alpha B^T G (right), transposed back when op is the
 *        transpose and restricted to A's triangle; dB = alpha op(A)^T G or alpha G op(A)^T (a
 *        trmm with the opposite transpose).
 */
template <typename xpu>
void LaTrmmBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const LaTriangMatrixMultParam& p = nnvm::get<LaTriangMatrixMultParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t k = LaDim(inputs[1], 1), m = LaDim(inputs[2], 2), n = LaDim(inputs[2], 1);
  const index_t batch = LaBatchCount(inputs[2], 2);
  const LaAxisView tv = LaCompactView(batch, k, k), bv = LaCompactView(batch, m, n);
  const bool add_db = req[1] == kAddTo;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* g = inputs[0].dptr<DType>();
    const DType* b = inputs[2].dptr<DType>();
    const DType alpha = static_cast<DType>(p.alpha);
    const index_t ntmp = req[0] != kNullOp ? batch * k * k : 0;
    const index_t ntrmm = req[1] != kNullOp ? LaTrmmScratch<xpu>(add_db, batch, m, n, k) : 0;
    DType* tmp = LaGetScratch<DType>(ctx, 0, ntmp + ntrmm).data;
    if (req[0] != kNullOp) {
      // Left: G B^T, or B G^T when transposed; right: B^T G, or G^T B when transposed.
      const bool g_first = p.rightside == p.transpose;
      const DType* x = g_first ? g : b;
      const DType* y = g_first ? b : g;
      if (!p.rightside) {
        LaBatchedGemm<DType>(s, false, true, k, k, n, alpha, x, bv, y, bv, DType(0), tmp, tv);
      } else {
        LaBatchedGemm<DType>(s, true, false, k, k, m, alpha, x, bv, y, bv, DType(0), tmp, tv);
      }
      LaTriangleInto(s, batch * k * k, k, p.lower, tmp, req[0] == kAddTo,
                     outputs[0].dptr<DType>());
    }
    if (req[1] != kNullOp) {
      LaTrmmBatch<DType>(s, p.rightside, p.lower, !p.transpose, p.alpha, batch, m, n,
                         inputs[1].dptr<DType>(), g, add_db, outputs[1].dptr<DType>(),
                         tmp + ntmp);
    }
  });
}

/*! \brief out = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right); inputs (A, B). */
template <typename xpu>
void LaTrsmForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const LaTriangMatrixMultParam& p = nnvm::get<LaTriangMatrixMultParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t m = LaDim(inputs[1], 2), n = LaDim(inputs[1], 1);
  const index_t batch = LaBatchCount(inputs[1], 2), size = batch * m * n;
  const bool add = req[0] == kAddTo;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaScratch<DType> w = LaGetScratch<DType>(ctx, LaTrsmPointers<xpu>(batch), add ? size : 0);
    const DType* b = inputs[1].dptr<DType>();
    DType* out = outputs[0].dptr<DType>();
    DType* x = add ? w.data : out;  // solved in place, then added to the output
    if (x != b) LaScaleInto(s, 1.0, b, size, false, x);
    LaTrsmBatch<xpu, DType>(s, p, p.transpose, p.alpha, batch, m, n, inputs[0].dptr<DType>(), x,
                            w.ptrs);
    if (add) LaScaleInto(s, 1.0, x, size, true, out);
  });
}

/*!
 * \brief inputs (dOut, A, X) with X = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right).
 *        dB = alpha op(A)^-T G (left) or alpha G op(A)^-T (right); with Y = dB / alpha,
 *        d op(A) = -Y X^T (left) or -X^T Y (right), restricted to A's triangle.
 */
template <typename xpu>
void LaTrsmBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp && req[1] == kNullOp) return;
  const LaTriangMatrixMultParam& p = nnvm::get<LaTriangMatrixMultParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t k = LaDim(inputs[1], 1), m = LaDim(inputs[2], 2), n = LaDim(inputs[2], 1);
  const index_t batch = LaBatchCount(inputs[2], 2), size = batch * m * n;
  const LaAxisView tv = LaCompactView(batch, k, k), bv = LaCompactView(batch, m, n);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaScratch<DType> w = LaGetScratch<DType>(ctx, LaTrsmPointers<xpu>(batch),
                                             size + batch * k * k);
    DType* y = w.data;
    DType* tmp = w.data + size;
    const DType* x = inputs[2].dptr<DType>();
    LaScaleInto(s, 1.0, inputs[0].dptr<DType>(), size, false, y);
    LaTrsmBatch<xpu, DType>(s, p, !p.transpose, 1.0, batch, m, n, inputs[1].dptr<DType>(), y,
                            w.ptrs);
    if (req[0] != kNullOp) {
      // Left: -Y X^T, or -X Y^T when transposed; right: -X^T Y, or -Y^T X when transposed.
      const bool y_first = p.rightside == p.transpose;
      const DType* u = y_first ? y : x;
      const DType* v = y_first ? x : y;
      if (!p.rightside) {
        LaBatchedGemm<DType>(s, false, true, k, k, n, DType(-1), u, bv, v, bv, DType(0), tmp, tv);
      } else {
        LaBatchedGemm<DType>(s, true, false, k, k, m, DType(-1), u, bv, v, bv, DType(0), tmp, tv);
      }
      LaTriangleInto(s, batch * k * k, k, p.lower, tmp, req[0] == kAddTo,
                     outputs[0].dptr<DType>());
    }
    if (req[1] != kNullOp) {
      LaScaleInto(s, p.alpha, y, size, req[1] == kAddTo, outputs[1].dptr<DType>());
    }
  });
}

/*! \brief out[b] = sum_i log A_b(i, i), summed in double. */
struct la_sumlogdiag {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, index_t n, const DType* a, bool add, DType* out) {
    double sum = 0.0;
    for (index_t i = 0; i < n; ++i) sum += ::log(static_cast<double>(a[(b * n + i) * n + i]));
    out[b] = add ? DType(out[b] + static_cast<DType>(sum)) : static_cast<DType>(sum);
  }
};

/*! \brief dA_b = diag(g_b / A_b(i, i)), zero off the diagonal. */
struct la_sumlogdiag_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, const DType* g, const DType* a, bool add,
                                  DType* da) {
    const index_t b = i / (n * n), r = (i / n) % n, c = i % n;
    const DType v = r == c ? static_cast<DType>(static_cast<double>(g[b]) /
                                                static_cast<double>(a[i]))
                           : DType(0);
    da[i] = add ? DType(da[i] + v) : v;
  }
};

/*! \brief sumlogdiag: inputs (A) -> one scalar per matrix. */
template <typename xpu>
void LaSumlogdiagCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<la_sumlogdiag, xpu>::Launch(
        ctx.get_stream<xpu>(), LaBatchCount(inputs[0], 2), index_t(LaDim(inputs[0], 1)),
        inputs[0].dptr<DType>(), req[0] == kAddTo, outputs[0].dptr<DType>());
  });
}

/*! \brief Backward of sumlogdiag: inputs (dOut, A) -> dA. */
template <typename xpu>
void LaSumlogdiagGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<la_sumlogdiag_grad, xpu>::Launch(
        ctx.get_stream<xpu>(), inputs[1].Size(), index_t(LaDim(inputs[1], 1)),
        inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), req[0] == kAddTo,
        outputs[0].dptr<DType>());
  });
}

/*!
 * \brief Where the copy ops (extractdiag, makediag, extracttrian, maketrian) put entry t of the
 *        vector of an n x n matrix, and back. A diagonal runs from (r0, c0), r0 = max(0, -offset),
 *        c0 = max(0, offset). A triangle is read in the lower-triangle orientation row by row:
 *        entry t = r (r + 1) / 2 + c (c <= r) is element (r + k, c), k = |offset|, or its mirror
 *        (c, r + k) for an upper triangle (offset > 0, or 0 with lower=false).
 */
struct LaCopyLayout {
  index_t n = 0, len = 0, k = 0, r0 = 0, c0 = 0;
  bool trian = false, upper = false;

  /*! \brief Flat position (row * n + col) in the matrix of vector entry t. */
  MSHADOW_XINLINE index_t pos(index_t t) const {
    if (!trian) return (r0 + t) * n + c0 + t;
    index_t r = static_cast<index_t>((::sqrt(8.0 * static_cast<double>(t) + 1.0) - 1.0) / 2.0);
    while (r > 0 && r * (r + 1) / 2 > t) --r;      // guard the rounding of the square root
    while ((r + 1) * (r + 2) / 2 <= t) ++r;
    const index_t row = r + k, col = t - r * (r + 1) / 2;
    return upper ? col * n + row : row * n + col;
  }
  /*! \brief Vector entry at flat matrix position q, or -1 if q is not copied. */
  MSHADOW_XINLINE index_t index(index_t q) const {
    const index_t i = q / n, j = q % n;
    if (!trian) return (i >= r0 && j - i == c0 - r0) ? i - r0 : -1;
    const index_t row = upper ? j : i, col = upper ? i : j;
    if (row - col < k) return -1;
    const index_t r = row - k;
    return r * (r + 1) / 2 + col;
  }
};

inline LaCopyLayout LaMakeCopyLayout(const nnvm::NodeAttrs& attrs, bool trian, index_t n) {
  LaCopyLayout l;
  l.n = n;
  l.trian = trian;
  if (trian) {
    const LaTrianParam& p = nnvm::get<LaTrianParam>(attrs.parsed);
    l.k = std::abs(p.offset);
    l.upper = p.offset > 0 || (p.offset == 0 && !p.lower);
    const index_t side = std::max<index_t>(n - l.k, 0);
    l.len = side * (side + 1) / 2;
  } else {
    const int offset = nnvm::get<LaDiagParam>(attrs.parsed).offset;
    l.r0 = std::max(0, -offset);
    l.c0 = std::max(0, offset);
    l.len = std::max<index_t>(n - std::abs(offset), 0);
  }
  return l;
}

/*! \brief vec[i] = entry i % len of matrix i / len (add: vec[i] += that). */
struct la_copy_gather {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, LaCopyLayout l, const DType* mat, bool add,
                                  DType* vec) {
    const DType v = mat[(i / l.len) * l.n * l.n + l.pos(i % l.len)];
    vec[i] = add ? DType(vec[i] + v) : v;
  }
};

/*! \brief mat[i] = its vector entry, or zero where none is copied (add: mat[i] += that). */
struct la_copy_scatter {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, LaCopyLayout l, const DType* vec, bool add,
                                  DType* mat) {
    const index_t n2 = l.n * l.n, t = l.index(i % n2);
    const DType v = t >= 0 ? vec[(i / n2) * l.len + t] : DType(0);
    mat[i] = add ? DType(mat[i] + v) : v;
  }
};

/*!
 * \brief extractdiag / extracttrian (gather, matrix input) and makediag / maketrian (scatter,
 *        matrix output); their backward ops are the opposite direction on the same positions.
 */
template <typename xpu, bool kTrian, bool kGather>
void LaCopyCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& mat = kGather ? inputs[0] : outputs[0];
  const LaCopyLayout l = LaMakeCopyLayout(attrs, kTrian, LaDim(mat, 1));
  const index_t batch = LaBatchCount(mat, 2);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const bool add = req[0] == kAddTo;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* in = inputs[0].dptr<DType>();
    DType* out = outputs[0].dptr<DType>();
    if (kGather) {
      mxnet_op::Kernel<la_copy_gather, xpu>::Launch(s, batch * l.len, l, in, add, out);
    } else {
      mxnet_op::Kernel<la_copy_scatter, xpu>::Launch(s, batch * l.n * l.n, l, in, add, out);
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_LA_OP_INL_H_
