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
 * The factorizations (potrf, potri, gelqf, syevd, inverse, det, slogdet and their gradients,
 * registered in la_op_factor.cc and la_op.cu) are written once too: a device routine from
 * la_solver.h (LAPACK in double on the CPU, cuSOLVER on the GPU) does the factorization in the
 * op's temp space, and batched GEMMs, triangular solves and element-wise kernels do the rest.
 * The routines' info codes are read on the host after the batch: a failure (matrix not positive
 * definite, singular) raises a ValueError naming the operator, the input's shape and, for a
 * batch, the index of the first failing matrix.
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
#include "../la_solver.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

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

// ------------------------------ potrf, potri, gelqf, syevd, inverse, det, slogdet (both devices)

inline std::string LaShapeText(const TBlob& blob) {
  std::ostringstream os;
  os << blob.shape_;
  return os.str();
}

/*!
 * \brief The op's temp space (FResourceRequest kTempSpace) cut into consecutive 64-byte-aligned
 *        arrays: Reserve each (its offset is returned), Allocate once, then Get.
 */
class LaTempPlan {
 public:
  template <typename T>
  size_t Reserve(index_t count) {
    const size_t at = bytes_;
    bytes_ += (static_cast<size_t>(count) * sizeof(T) + 63) / 64 * 64;
    return at;
  }
  void Allocate(const OpContext& ctx) {
    base_ = static_cast<char*>(ctx.requested[0].get_space_internal(std::max<size_t>(bytes_, 64)));
  }
  template <typename T>
  T* Get(size_t at) const {
    return reinterpret_cast<T*>(base_ + at);
  }

 private:
  size_t bytes_ = 0;
  char* base_ = nullptr;
};

/*!
 * \brief Raises the first failure among the batch's info codes (read on the host): info > 0 is
 *        `what` went wrong with the input, info < 0 a bad argument to the routine (a bug).
 */
template <typename xpu>
void LaCheckInfo(mshadow::Stream<xpu>* s, const int* info, index_t batch,
                 const nnvm::NodeAttrs& attrs, const std::string& what) {
  const std::vector<int> codes = LaInfoOnHost(s, info, batch);
  for (index_t b = 0; b < batch; ++b) {
    if (codes[b] == 0) continue;
    const std::string where = batch > 1 ? " (batch index " + std::to_string(b) + ")" : "";
    if (codes[b] < 0) {
      MX_THROW(::dmlc::Error) << LaName(attrs) << ": argument " << -codes[b]
                              << " of the factorization routine is invalid (this is a bug)"
                              << where;
    }
    MX_THROW(ValueError) << LaName(attrs) << ": " << what << where;
  }
}

inline bool LaWrites(OpReqType req) { return req == kWriteTo || req == kWriteInplace; }

/*! \brief out = the symmetric matrix whose lower triangle is in's (add: out += that); in == out
 *         is allowed without add. */
struct la_sym_from_lower {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, const DType* in, bool add, DType* out) {
    const index_t r = (i / n) % n, c = i % n;
    const DType v = c <= r ? in[i] : in[i + (c - r) * n + (r - c)];
    out[i] = add ? DType(out[i] + v) : v;
  }
};

/*! \brief out = scale (in + in^T) (add: out += that). */
struct la_sym_sum {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, double scale, const DType* in, bool add,
                                  DType* out) {
    const index_t r = (i / n) % n, c = i % n;
    const double v = scale * (static_cast<double>(in[i]) +
                              static_cast<double>(in[i + (c - r) * n + (r - c)]));
    out[i] = static_cast<DType>(add ? static_cast<double>(out[i]) + v : v);
  }
};

/*! \brief Phi of potrf's gradient, in place: the lower triangle with its diagonal halved. */
struct la_phi {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, DType* x) {
    const index_t r = (i / n) % n, c = i % n;
    x[i] = c < r ? x[i] : (c == r ? DType(x[i] * DType(0.5)) : DType(0));
  }
};

/*! \brief out = the identity, for a batch of (n, n) matrices. */
struct la_identity {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, DType* out) {
    out[i] = (i / n) % n == i % n ? DType(1) : DType(0);
  }
};

/*! \brief L (m, m) of the LQ factorization: the lower triangle of the leading (m, m) block of
 *         each (m, n) matrix LaGeqrf factorized (add: out += that). */
struct la_lq_l {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t m, index_t n, const DType* qr, bool add,
                                  DType* out) {
    const index_t b = i / (m * m), r = (i / m) % m, c = i % m;
    const DType v = c <= r ? qr[b * m * n + r * n + c] : DType(0);
    out[i] = add ? DType(out[i] + v) : v;
  }
};

/*! \brief Signs each eigenvector (row `row` of the batch) so that its entry of largest magnitude
 *         (the first one on ties) is positive, a deterministic choice as MXNet makes. */
struct la_sign_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t row, index_t n, DType* u) {
    DType* p = u + row * n;
    index_t best = 0;
    for (index_t j = 1; j < n; ++j) {
      const DType a = p[j] < DType(0) ? DType(-p[j]) : p[j];
      const DType m = p[best] < DType(0) ? DType(-p[best]) : p[best];
      if (a > m) best = j;
    }
    if (p[best] < DType(0)) {
      for (index_t j = 0; j < n; ++j) p[j] = -p[j];
    }
  }
};

/*! \brief syevd's gradient, in place on x = U dU^T: dw on the diagonal, x_ij / (w_j - w_i)
 *         off it. */
struct la_syevd_inner {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, const DType* dw, const DType* w,
                                  DType* x) {
    const index_t b = i / (n * n), r = (i / n) % n, c = i % n;
    x[i] = r == c ? dw[b * n + r]
                  : static_cast<DType>(static_cast<double>(x[i]) /
                                       (static_cast<double>(w[b * n + c]) -
                                        static_cast<double>(w[b * n + r])));
  }
};

/*!
 * \brief From the LU factors of matrix b: det into `first` (slogdet: the sign into `first`, log
 *        |det| into `second`); a null output is skipped. A zero pivot gives sign 0, log -inf.
 */
struct la_det_from_lu {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, index_t n, const DType* lu, const int* ipiv,
                                  bool slog, DType* first, bool add_first, DType* second,
                                  bool add_second) {
    double sign = 1.0, logabs = 0.0;
    for (index_t i = 0; i < n; ++i) {
      const double d = static_cast<double>(lu[(b * n + i) * n + i]);
      if (ipiv[b * n + i] != i + 1) sign = -sign;
      if (d < 0) sign = -sign;
      if (d == 0) {
        sign = 0.0;
        logabs = -std::numeric_limits<double>::infinity();
        break;
      }
      logabs += ::log(d < 0 ? -d : d);
    }
    const double v0 = slog ? sign : (sign == 0.0 ? 0.0 : sign * ::exp(logabs));
    if (first != nullptr) {
      first[b] = static_cast<DType>(add_first ? static_cast<double>(first[b]) + v0 : v0);
    }
    if (slog && second != nullptr) {
      second[b] = static_cast<DType>(add_second ? static_cast<double>(second[b]) + logabs
                                                : logabs);
    }
  }
};

/*! \brief det / slogdet gradient: dA = scale_b A^-T from the row-major A^-1 in inv, with
 *         scale_b = g_b det_b (det) or g_b (slogdet, det == null); zero where A is singular. */
struct la_det_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, index_t n, const DType* inv, const int* info,
                                  const DType* g, const DType* det, bool add, DType* out) {
    const index_t b = i / (n * n), r = (i / n) % n, c = i % n;
    const double scale = det != nullptr ? static_cast<double>(g[b]) * static_cast<double>(det[b])
                                        : static_cast<double>(g[b]);
    const double v =
        info[b] != 0 ? 0.0 : scale * static_cast<double>(inv[(b * n + c) * n + r]);
    out[i] = static_cast<DType>(add ? static_cast<double>(out[i]) + v : v);
  }
};

/*! \brief out[i] = in[i] for int arrays (info codes). */
struct la_copy_ints {
  MSHADOW_XINLINE static void Map(index_t i, const int* in, int* out) { out[i] = in[i]; }
};
template <typename xpu>
void LaCopyInts(mshadow::Stream<xpu>* s, const int* in, index_t n, int* out) {
  mxnet_op::Kernel<la_copy_ints, xpu>::Launch(s, n, in, out);
}

/*! \brief Copies `size` values (no copy when in place). */
template <typename xpu, typename DType>
void LaCopy(mshadow::Stream<xpu>* s, const DType* in, index_t size, DType* out) {
  if (in != out) LaScaleInto(s, 1.0, in, size, false, out);
}

/*!
 * \brief The Cholesky routines that work in place on a copy of the batch of n x n matrices A
 *        (potrf, potri): the copy goes to the output, or to temp space when req is kAddTo;
 *        factor(s, batch, n, x, info, work, lwork) runs on it, a failure raises "<input> <fails>",
 *        and finish(s, size, n, x, add, out) writes the result.
 */
template <typename xpu, typename Factor, typename Finish>
void LaFactorCopyOfA(const nnvm::NodeAttrs& attrs, const OpContext& ctx, const TBlob& a,
                     OpReqType req, const TBlob& output, LaRoutine routine, const char* fails,
                     Factor factor, Finish finish) {
  if (req == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int n = LaDim(a, 1);
  const index_t batch = LaBatchCount(a, 2), size = batch * n * n;
  const bool add = req == kAddTo;
  LA_REAL_TYPE_SWITCH(a.type_flag_, DType, {
    const index_t lwork = LaSolverWork<DType>(s, routine, n, n);
    LaTempPlan t;
    const size_t x_at = t.Reserve<DType>(add ? size : 0), work_at = t.Reserve<DType>(lwork);
    const size_t info_at = t.Reserve<int>(batch);
    t.Allocate(ctx);
    DType* out = output.dptr<DType>();
    DType* x = add ? t.Get<DType>(x_at) : out;
    int* info = t.Get<int>(info_at);
    LaCopy(s, a.dptr<DType>(), size, x);
    factor(s, batch, n, x, info, t.Get<DType>(work_at), lwork);
    LaCheckInfo(s, info, batch, attrs, "input A of shape " + LaShapeText(a) + " " + fails);
    finish(s, size, index_t(n), x, add, out);
  });
}

/*! \brief potrf: A -> its Cholesky factor L (lower, zero above), A = L L^T. */
template <typename xpu>
void LaPotrfForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  LaFactorCopyOfA<xpu>(
      attrs, ctx, inputs[0], req[0], outputs[0], LaRoutine::kPotrf,
      "is not (symmetric) positive definite: Cholesky factorization failed",
      [](auto* s, index_t batch, int n, auto* x, int* info, auto* work, index_t lwork) {
        LaPotrf(s, batch, n, x, info, work, lwork);
      },
      [](auto* s, index_t size, index_t n, auto* x, bool add, auto* out) {
        LaTriangleInto(s, size, n, true, x, add, out);
      });
}

/*! \brief potrf backward, inputs (dL, L) -> dA = sym(L^-T Phi(L^T dL) L^-1). */
template <typename xpu>
void LaPotrfBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t n = LaDim(inputs[1], 1), batch = LaBatchCount(inputs[1], 2);
  const index_t size = batch * n * n;
  const LaAxisView v = LaCompactView(batch, n, n);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaTempPlan t;
    const size_t ptrs_at = t.Reserve<void*>(LaTrsmPointers<xpu>(batch));
    const size_t p_at = t.Reserve<DType>(size);
    t.Allocate(ctx);
    DType* p = t.Get<DType>(p_at);
    void** ptrs = t.Get<void*>(ptrs_at);
    const DType* l = inputs[1].dptr<DType>();
    LaBatchedGemm<DType>(s, true, false, n, n, n, DType(1), l, v, inputs[0].dptr<DType>(), v,
                         DType(0), p, v);
    mxnet_op::Kernel<la_phi, xpu>::Launch(s, size, n, p);
    LaTriangMatrixMultParam tp;
    tp.lower = true;
    tp.rightside = false;
    LaTrsmBatch<xpu, DType>(s, tp, true, 1.0, batch, n, n, l, p, ptrs);   // L^-T P
    tp.rightside = true;
    LaTrsmBatch<xpu, DType>(s, tp, false, 1.0, batch, n, n, l, p, ptrs);  // (L^-T P) L^-1
    mxnet_op::Kernel<la_sym_sum, xpu>::Launch(s, size, n, 0.5, p, req[0] == kAddTo,
                                              outputs[0].dptr<DType>());
  });
}

/*! \brief potri: the lower-triangular L -> (L L^T)^-1. */
template <typename xpu>
void LaPotriForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  LaFactorCopyOfA<xpu>(
      attrs, ctx, inputs[0], req[0], outputs[0], LaRoutine::kPotri,
      "is not an invertible Cholesky factor (zero on the diagonal)",
      [](auto* s, index_t batch, int n, auto* x, int* info, auto* work, index_t lwork) {
        LaPotri(s, batch, n, x, info, work, lwork);
      },
      [](auto* s, index_t size, index_t n, auto* x, bool add, auto* out) {
        mxnet_op::Kernel<la_sym_from_lower, xpu>::Launch(s, size, n, x, add, out);
      });
}

/*! \brief potri backward, inputs (dO, L, O) -> dL = -tril(O (dO + dO^T) O tril(L)). */
template <typename xpu>
void LaPotriBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t n = LaDim(inputs[1], 1), batch = LaBatchCount(inputs[1], 2);
  const index_t size = batch * n * n;
  const LaAxisView v = LaCompactView(batch, n, n);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* t1 = LaGetScratch<DType>(ctx, 0, 3 * size).data;
    DType* t2 = t1 + size;
    DType* t3 = t2 + size;
    const DType* o = inputs[2].dptr<DType>();
    mxnet_op::Kernel<la_sym_sum, xpu>::Launch(s, size, n, 1.0, inputs[0].dptr<DType>(), false,
                                              t1);
    LaBatchedGemm<DType>(s, false, false, n, n, n, DType(1), o, v, t1, v, DType(0), t2, v);
    LaBatchedGemm<DType>(s, false, false, n, n, n, DType(1), t2, v, o, v, DType(0), t1, v);
    LaTriangleInto(s, size, n, true, inputs[1].dptr<DType>(), false, t3);
    LaBatchedGemm<DType>(s, false, false, n, n, n, DType(-1), t1, v, t3, v, DType(0), t2, v);
    LaTriangleInto(s, size, n, true, t2, req[0] == kAddTo, outputs[0].dptr<DType>());
  });
}

/*! \brief gelqf: A (m, n), m <= n -> (Q (m, n) with orthonormal rows, L (m, m) lower), A = L Q;
 *         the QR factorization of A^T. */
template <typename xpu>
void LaGelqfForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp && req[1] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int m = LaDim(inputs[0], 2), n = LaDim(inputs[0], 1);
  const index_t batch = LaBatchCount(inputs[0], 2), size = batch * m * n;
  const bool q_direct = LaWrites(req[0]);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const index_t lwork = std::max(LaSolverWork<DType>(s, LaRoutine::kGeqrf, m, n),
                                   LaSolverWork<DType>(s, LaRoutine::kOrgqr, m, n));
    LaTempPlan t;
    const size_t x_at = t.Reserve<DType>(q_direct ? 0 : size);
    const size_t tau_at = t.Reserve<DType>(batch * m), work_at = t.Reserve<DType>(lwork);
    const size_t info_at = t.Reserve<int>(batch);
    t.Allocate(ctx);
    DType* x = q_direct ? outputs[0].dptr<DType>() : t.Get<DType>(x_at);
    DType* tau = t.Get<DType>(tau_at);
    DType* work = t.Get<DType>(work_at);
    int* info = t.Get<int>(info_at);
    LaCopy(s, inputs[0].dptr<DType>(), size, x);
    // geqrf and orgqr report bad arguments only (info < 0): nothing to check about the input.
    LaGeqrf(s, batch, m, n, x, tau, info, work, lwork);
    if (req[1] != kNullOp) {
      mxnet_op::Kernel<la_lq_l, xpu>::Launch(s, batch * m * m, index_t(m), index_t(n), x,
                                             req[1] == kAddTo, outputs[1].dptr<DType>());
    }
    if (req[0] != kNullOp) {
      LaOrgqr(s, batch, m, n, x, tau, info, work, lwork);
      if (!q_direct) LaScaleInto(s, 1.0, x, size, true, outputs[0].dptr<DType>());
    }
  });
}

/*!
 * \brief gelqf backward, inputs (dQ, dL, Q, L) -> dA = L^-T (dQ + sym_from_lower(M) Q) with
 *        M = L^T tril(dL) - dQ Q^T.
 */
template <typename xpu>
void LaGelqfBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t m = LaDim(inputs[2], 2), n = LaDim(inputs[2], 1);
  const index_t batch = LaBatchCount(inputs[2], 2), size = batch * m * n, msize = batch * m * m;
  const LaAxisView vmm = LaCompactView(batch, m, m), vmn = LaCompactView(batch, m, n);
  const bool add = req[0] == kAddTo;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaTempPlan t;
    const size_t ptrs_at = t.Reserve<void*>(LaTrsmPointers<xpu>(batch));
    const size_t dl_at = t.Reserve<DType>(msize), mm_at = t.Reserve<DType>(msize);
    const size_t x_at = t.Reserve<DType>(add ? size : 0);
    t.Allocate(ctx);
    DType* dl = t.Get<DType>(dl_at);
    DType* mm = t.Get<DType>(mm_at);
    DType* out = outputs[0].dptr<DType>();
    DType* x = add ? t.Get<DType>(x_at) : out;
    const DType* dq = inputs[0].dptr<DType>();
    const DType* q = inputs[2].dptr<DType>();
    const DType* l = inputs[3].dptr<DType>();
    LaTriangleInto(s, msize, m, true, inputs[1].dptr<DType>(), false, dl);
    LaBatchedGemm<DType>(s, true, false, m, m, m, DType(1), l, vmm, dl, vmm, DType(0), mm, vmm);
    LaBatchedGemm<DType>(s, false, true, m, m, n, DType(-1), dq, vmn, q, vmn, DType(1), mm, vmm);
    mxnet_op::Kernel<la_sym_from_lower, xpu>::Launch(s, msize, m, mm, false, mm);
    LaCopy(s, dq, size, x);
    LaBatchedGemm<DType>(s, false, false, m, n, m, DType(1), mm, vmm, q, vmn, DType(1), x, vmn);
    LaTriangMatrixMultParam tp;
    tp.lower = true;
    tp.rightside = false;
    LaTrsmBatch<xpu, DType>(s, tp, true, 1.0, batch, m, n, l, x, t.Get<void*>(ptrs_at));
    if (add) LaScaleInto(s, 1.0, x, size, true, out);
  });
}

/*! \brief syevd: symmetric A (lower triangle read) -> (U, w), U A = diag(w) U, w ascending, each
 *         row of U signed so that its largest entry is positive. */
template <typename xpu>
void LaSyevdForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp && req[1] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int n = LaDim(inputs[0], 1);
  const index_t batch = LaBatchCount(inputs[0], 2), size = batch * n * n;
  const bool u_direct = LaWrites(req[0]), w_direct = LaWrites(req[1]);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const index_t lwork = LaSolverWork<DType>(s, LaRoutine::kSyevd, n, n);
    LaTempPlan t;
    const size_t x_at = t.Reserve<DType>(u_direct ? 0 : size);
    const size_t w_at = t.Reserve<DType>(w_direct ? 0 : batch * n);
    const size_t work_at = t.Reserve<DType>(lwork), info_at = t.Reserve<int>(batch);
    t.Allocate(ctx);
    DType* x = u_direct ? outputs[0].dptr<DType>() : t.Get<DType>(x_at);
    DType* w = w_direct ? outputs[1].dptr<DType>() : t.Get<DType>(w_at);
    int* info = t.Get<int>(info_at);
    LaCopy(s, inputs[0].dptr<DType>(), size, x);
    LaSyevd(s, batch, n, x, w, info, t.Get<DType>(work_at), lwork);
    LaCheckInfo(s, info, batch, attrs, "eigenvalue computation did not converge for input A of "
                "shape " + LaShapeText(inputs[0]));
    mxnet_op::Kernel<la_sign_rows, xpu>::Launch(s, batch * n, index_t(n), x);
    if (req[0] == kAddTo) LaScaleInto(s, 1.0, x, size, true, outputs[0].dptr<DType>());
    if (req[1] == kAddTo) LaScaleInto(s, 1.0, w, batch * n, true, outputs[1].dptr<DType>());
  });
}

/*! \brief syevd backward, inputs (dU, dw, U, w) -> dA = sym(U^T (diag(dw) + F o (U dU^T)) U),
 *         F_ij = 1 / (w_j - w_i). */
template <typename xpu>
void LaSyevdBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t n = LaDim(inputs[2], 1), batch = LaBatchCount(inputs[2], 2);
  const index_t size = batch * n * n;
  const LaAxisView v = LaCompactView(batch, n, n);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* t1 = LaGetScratch<DType>(ctx, 0, 2 * size).data;
    DType* t2 = t1 + size;
    const DType* u = inputs[2].dptr<DType>();
    LaBatchedGemm<DType>(s, false, true, n, n, n, DType(1), u, v, inputs[0].dptr<DType>(), v,
                         DType(0), t1, v);
    mxnet_op::Kernel<la_syevd_inner, xpu>::Launch(s, size, n, inputs[1].dptr<DType>(),
                                                  inputs[3].dptr<DType>(), t1);
    LaBatchedGemm<DType>(s, true, false, n, n, n, DType(1), u, v, t1, v, DType(0), t2, v);
    LaBatchedGemm<DType>(s, false, false, n, n, n, DType(1), t2, v, u, v, DType(0), t1, v);
    mxnet_op::Kernel<la_sym_sum, xpu>::Launch(s, size, n, 0.5, t1, req[0] == kAddTo,
                                              outputs[0].dptr<DType>());
  });
}

/*! \brief Temp-space layout of the LU-based ops: LU copy, pivots, info codes, workspace. */
template <typename DType>
struct LaLUSpace {
  size_t lu_at, ipiv_at, info_at, work_at;
  index_t lwork;
};
template <typename xpu, typename DType>
LaLUSpace<DType> LaReserveLU(mshadow::Stream<xpu>* s, LaTempPlan* t, index_t batch, int n) {
  LaLUSpace<DType> l;
  l.lwork = LaSolverWork<DType>(s, LaRoutine::kGetrf, n, n);
  l.lu_at = t->Reserve<DType>(batch * n * n);
  l.ipiv_at = t->Reserve<int>(batch * n);
  l.info_at = t->Reserve<int>(batch);
  l.work_at = t->Reserve<DType>(l.lwork);
  return l;
}
/*! \brief LU factors of a copy of the batch a, in the reserved space. */
template <typename xpu, typename DType>
void LaFactorLU(mshadow::Stream<xpu>* s, const LaTempPlan& t, const LaLUSpace<DType>& l,
                index_t batch, int n, const DType* a) {
  DType* lu = t.Get<DType>(l.lu_at);
  LaCopy(s, a, batch * n * n, lu);
  LaGetrf(s, batch, n, lu, t.Get<int>(l.ipiv_at), t.Get<int>(l.info_at), t.Get<DType>(l.work_at),
          l.lwork);
}
/*! \brief x = A^-1 from LaFactorLU's factors (garbage where A is singular). */
template <typename xpu, typename DType>
void LaInverseFromLU(mshadow::Stream<xpu>* s, const LaTempPlan& t, const LaLUSpace<DType>& l,
                     index_t batch, int n, DType* x) {
  mxnet_op::Kernel<la_identity, xpu>::Launch(s, batch * n * n, index_t(n), x);
  LaGetrs(s, batch, n, t.Get<DType>(l.lu_at), t.Get<int>(l.ipiv_at), x, t.Get<int>(l.info_at));
}

/*! \brief inverse: A -> A^-1 (LU, then a solve against the identity). */
template <typename xpu>
void LaInverseForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int n = LaDim(inputs[0], 1);
  const index_t batch = LaBatchCount(inputs[0], 2), size = batch * n * n;
  const bool add = req[0] == kAddTo;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaTempPlan t;
    const LaLUSpace<DType> l = LaReserveLU<xpu, DType>(s, &t, batch, n);
    const size_t x_at = t.Reserve<DType>(add ? size : 0);
    t.Allocate(ctx);
    LaFactorLU(s, t, l, batch, n, inputs[0].dptr<DType>());
    LaCheckInfo(s, t.Get<int>(l.info_at), batch, attrs, "input A of shape " +
                LaShapeText(inputs[0]) + " is singular (not invertible)");
    DType* out = outputs[0].dptr<DType>();
    DType* x = add ? t.Get<DType>(x_at) : out;
    LaInverseFromLU(s, t, l, batch, n, x);
    if (add) LaScaleInto(s, 1.0, x, size, true, out);
  });
}

/*! \brief inverse backward, inputs (dO, O) -> dA = -O^T dO O^T. */
template <typename xpu>
void LaInverseBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t n = LaDim(inputs[1], 1), batch = LaBatchCount(inputs[1], 2);
  const LaAxisView v = LaCompactView(batch, n, n);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* t1 = LaGetScratch<DType>(ctx, 0, batch * n * n).data;
    const DType* o = inputs[1].dptr<DType>();
    LaBatchedGemm<DType>(s, true, false, n, n, n, DType(1), o, v, inputs[0].dptr<DType>(), v,
                         DType(0), t1, v);
    LaBatchedGemm<DType>(s, false, true, n, n, n, DType(-1), t1, v, o, v,
                         DType(req[0] == kAddTo ? 1 : 0), outputs[0].dptr<DType>(), v);
  });
}

/*! \brief det (one output) or slogdet (sign, log|det|), from the LU factors. */
template <typename xpu>
void LaDetForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const bool slog = outputs.size() == 2;
  if (req[0] == kNullOp && (!slog || req[1] == kNullOp)) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const int n = LaDim(inputs[0], 1);
  const index_t batch = LaBatchCount(inputs[0], 2);
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaTempPlan t;
    const LaLUSpace<DType> l = LaReserveLU<xpu, DType>(s, &t, batch, n);
    t.Allocate(ctx);
    LaFactorLU(s, t, l, batch, n, inputs[0].dptr<DType>());  // a singular A is no error here
    DType* first = req[0] != kNullOp ? outputs[0].dptr<DType>() : nullptr;
    DType* second = slog && req[1] != kNullOp ? outputs[1].dptr<DType>() : nullptr;
    mxnet_op::Kernel<la_det_from_lu, xpu>::Launch(
        s, batch, index_t(n), t.Get<DType>(l.lu_at), t.Get<int>(l.ipiv_at), slog, first,
        req[0] == kAddTo, second, slog && req[1] == kAddTo);
  });
}

/*!
 * \brief det backward: inputs (dDet, A, det) -> dA = dDet det A^-T;
 *        slogdet backward: inputs (dSign, dLogabs, A) -> dA = dLogabs A^-T. A singular A gets a
 *        zero gradient (as in MXNet 1.9.1).
 */
template <typename xpu, bool kSlog>
void LaDetBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& ablob = kSlog ? inputs[2] : inputs[1];
  const int n = LaDim(ablob, 1);
  const index_t batch = LaBatchCount(ablob, 2), size = batch * n * n;
  LA_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    LaTempPlan t;
    const LaLUSpace<DType> l = LaReserveLU<xpu, DType>(s, &t, batch, n);
    const size_t inv_at = t.Reserve<DType>(size), info_at = t.Reserve<int>(batch);
    t.Allocate(ctx);
    LaFactorLU(s, t, l, batch, n, ablob.dptr<DType>());
    // getrs overwrites the info codes with its own (0): keep getrf's, which flag singular A.
    int* singular = t.Get<int>(info_at);
    LaCopyInts(s, t.Get<int>(l.info_at), batch, singular);
    DType* inv = t.Get<DType>(inv_at);
    LaInverseFromLU(s, t, l, batch, n, inv);
    const DType* g = kSlog ? inputs[1].dptr<DType>() : inputs[0].dptr<DType>();
    const DType* det = kSlog ? nullptr : inputs[2].dptr<DType>();
    mxnet_op::Kernel<la_det_grad, xpu>::Launch(s, size, index_t(n), inv, singular, g, det,
                                               req[0] == kAddTo, outputs[0].dptr<DType>());
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_LA_OP_INL_H_
