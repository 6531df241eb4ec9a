/*!
 * \file dot-inl.h
 * \brief dot and batch_dot: parameters, shape/type inference and GEMM kernels.
 *
 * dot(lhs, rhs): lhs is viewed as a matrix (prod(shape[:-1]), shape[-1]) — or, transposed,
 * (shape[0], prod(shape[1:]))^T — and rhs as (shape[0], prod(shape[1:])) — or, transposed,
 * (prod(shape[:-1]), shape[-1])^T; the result has the free dims of lhs then those of rhs.
 * 1-D x 1-D gives shape (1,). batch_dot does one such product per leading index:
 * (B, M, K) x (B, K, N) -> (B, M, N), with transpose flags on the last two axes.
 * Every product is one Gemm call (OpenBLAS or cuBLAS) straight on the input and output buffers;
 * batch_dot is one strided-batched call.
 */
#ifndef MXNET_OPERATOR_TENSOR_DOT_INL_H_
#define MXNET_OPERATOR_TENSOR_DOT_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../blas_gemm.h"
#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct DotParam : public dmlc::Parameter<DotParam> {
  bool transpose_a;
  bool transpose_b;
  dmlc::optional<int> forward_stype;
  DMLC_DECLARE_PARAMETER(DotParam) {
    DMLC_DECLARE_FIELD(transpose_a)
        .describe("If true then transpose the first input before dot.")
        .set_default(false);
    DMLC_DECLARE_FIELD(transpose_b)
        .describe("If true then transpose the second input before dot.")
        .set_default(false);
    DMLC_DECLARE_FIELD(forward_stype)
        .describe("The desired storage type of the forward output given by user, if the"
                  "combination of input storage types and this hint does not match"
                  "any implemented ones, the dot operator will perform fallback operation"
                  "and still produce an output of the desired storage type.")
        .add_enum("default", kDefaultStorage)
        .add_enum("row_sparse", kRowSparseStorage)
        .add_enum("csr", kCSRStorage)
        .set_default(dmlc::optional<int>());
  }
};

/*! \brief Matrix view of one dot operand: stored rows x cols, and whether it is transposed. */
struct DotDims {
  index_t M, K, N;  // op(lhs) is (M, K), op(rhs) is (K, N)
};

/*! \brief Product of dims [begin, end) of s (1 when empty). */
inline index_t DotProd(const mxnet::TShape& s, int begin, int end) {
  index_t p = 1;
  for (int i = begin; i < end; ++i) p *= s[i];
  return p;
}

/*! \brief Matrix sizes of a dot of known shapes (no checks). */
inline DotDims DotMatrixDims(const mxnet::TShape& l, const mxnet::TShape& r, bool ta, bool tb) {
  DotDims d;
  const int ln = l.ndim(), rn = r.ndim();
  if (ln == 1 && rn == 1) {
    d.M = 1;
    d.K = l[0];
    d.N = 1;
    return d;
  }
  if (ta) {
    d.K = l[0];
    d.M = DotProd(l, 1, ln);
  } else {
    d.M = DotProd(l, 0, ln - 1);
    d.K = l[ln - 1];
  }
  if (tb) {
    d.N = DotProd(r, 0, rn - 1);
  } else {
    d.N = DotProd(r, 1, rn);
  }
  return d;
}

inline bool DotShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                     mxnet::ShapeVector* out_attrs) {
  const DotParam& param = nnvm::get<DotParam>(attrs.parsed);
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& l = (*in_attrs)[0];
  const mxnet::TShape& r = (*in_attrs)[1];
  if (!ndim_is_known(l) || !ndim_is_known(r)) return false;
  if (l.ndim() == 0 || r.ndim() == 0) {
    MX_THROW(ValueError) << "dot: expected inputs with at least 1 dimension, got lhs " << l
                         << " and rhs " << r;
  }
  const bool ta = param.transpose_a, tb = param.transpose_b;
  if (l.ndim() == 1 && r.ndim() == 1) {
    if (ta || tb) {
      MX_THROW(ValueError) << "dot: cannot transpose 1-D inputs (transpose_a=" << ta
                           << ", transpose_b=" << tb << ")";
    }
    if (l[0] >= 0 && r[0] >= 0 && l[0] != r[0]) {
      MX_THROW(ValueError) << "dot: shape mismatch: lhs " << l << " and rhs " << r
                           << " must have the same length";
    }
    SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(1, 1));
    return shape_is_known(l) && shape_is_known(r);
  }
  // The contracted axis of each side.
  const int lk = ta ? 0 : l.ndim() - 1;
  const int rk = tb ? r.ndim() - 1 : 0;
  if (l[lk] >= 0 && r[rk] >= 0 && l[lk] != r[rk]) {
    MX_THROW(ValueError) << "dot: shape mismatch: lhs " << l << (ta ? " (transposed)" : "")
                         << " and rhs " << r << (tb ? " (transposed)" : "")
                         << ": expected the contracted dimensions to be equal, got " << l[lk]
                         << " and " << r[rk];
  }
  std::vector<dim_t> out;
  if (l.ndim() > 1) {
    for (int i = 0; i < l.ndim(); ++i)
      if (i != lk) out.push_back(l[i]);
  }
  if (r.ndim() > 1) {
    for (int i = 0; i < r.ndim(); ++i)
      if (i != rk) out.push_back(r[i]);
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(out.begin(), out.end()));
  return shape_is_known(l) && shape_is_known(r);
}

/*!
 * \brief out (req) = op(a) op(b), `batch` products of matrices of sizes d stored back to back.
 */
template <typename xpu, typename DType>
inline void DotGemm(mshadow::Stream<xpu>* s, const DotDims& d, bool ta, bool tb, const DType* a,
                    const DType* b, DType* out, OpReqType req, index_t batch = 1) {
  if (req == kNullOp) return;
  Gemm<DType>(s, ta, tb, d.M, d.N, d.K, 1.0, a, ta ? d.M : d.K, b, tb ? d.K : d.N,
              req == kAddTo ? 1.0 : 0.0, out, d.N, batch, d.M * d.K, d.K * d.N, d.M * d.N);
}

/*!
 * \brief Gradients of out = op(A) op(B) with out gradient G (M, N), `batch` times:
 *        dA = G op(B)^T (stored transposed when ta), dB = op(A)^T G (stored transposed when tb).
 */
template <typename xpu, typename DType>
inline void DotGemmBackward(mshadow::Stream<xpu>* s, const DotDims& d, bool ta, bool tb,
                            const DType* g, const DType* a, const DType* b, DType* da,
                            OpReqType req_a, DType* db, OpReqType req_b, index_t batch = 1) {
  const index_t M = d.M, N = d.N, K = d.K;
  const index_t lda = ta ? M : K, ldb = tb ? K : N;
  const index_t sa = M * K, sb = K * N, sg = M * N;
  if (req_a != kNullOp) {
    const double beta = req_a == kAddTo ? 1.0 : 0.0;
    if (!ta) {  // dA (M, K) = G (M, N) . op(B)^T (N, K)
      Gemm<DType>(s, false, !tb, M, K, N, 1.0, g, N, b, ldb, beta, da, K, batch, sg, sb, sa);
    } else {    // dA^T (K, M) = op(B) (K, N) . G^T (N, M)
      Gemm<DType>(s, tb, true, K, M, N, 1.0, b, ldb, g, N, beta, da, M, batch, sb, sg, sa);
    }
  }
  if (req_b != kNullOp) {
    const double beta = req_b == kAddTo ? 1.0 : 0.0;
    if (!tb) {  // dB (K, N) = op(A)^T (K, M) . G (M, N)
      Gemm<DType>(s, !ta, false, K, N, M, 1.0, a, lda, g, N, beta, db, N, batch, sa, sg, sb);
    } else {    // dB^T (N, K) = G^T (N, M) . op(A) (M, K)
      Gemm<DType>(s, true, ta, N, K, M, 1.0, g, N, a, lda, beta, db, K, batch, sg, sa, sb);
    }
  }
}

template <typename xpu>
void DotForward_(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const DotParam& param = nnvm::get<DotParam>(attrs.parsed);
  const DotDims d = DotMatrixDims(inputs[0].shape_, inputs[1].shape_, param.transpose_a,
                                  param.transpose_b);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DotGemm(ctx.get_stream<xpu>(), d, param.transpose_a, param.transpose_b,
            inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), outputs[0].dptr<DType>(), req[0]);
  });
}

/*! \brief inputs: out_grad, lhs, rhs; outputs: lhs_grad, rhs_grad. */
template <typename xpu>
void DotBackward_(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const DotParam& param = nnvm::get<DotParam>(attrs.parsed);
  const DotDims d = DotMatrixDims(inputs[1].shape_, inputs[2].shape_, param.transpose_a,
                                  param.transpose_b);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DotGemmBackward(ctx.get_stream<xpu>(), d, param.transpose_a, param.transpose_b,
                    inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
                    outputs[0].dptr<DType>(), req[0], outputs[1].dptr<DType>(), req[1]);
  });
}

// ---------------------------------------------------------------------------------- batch_dot

inline bool BatchDotShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                          mxnet::ShapeVector* out_attrs) {
  const DotParam& param = nnvm::get<DotParam>(attrs.parsed);
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& l = (*in_attrs)[0];
  const mxnet::TShape& r = (*in_attrs)[1];
  if (!ndim_is_known(l) || !ndim_is_known(r)) return false;
  if (l.ndim() < 3 || l.ndim() != r.ndim()) {
    MX_THROW(ValueError) << "batch_dot: expected lhs and rhs with the same number (>= 3) of "
                         << "dimensions, got lhs " << l << " and rhs " << r;
  }
  const int nd = l.ndim();
  for (int i = 0; i < nd - 2; ++i) {
    if (l[i] >= 0 && r[i] >= 0 && l[i] != r[i]) {
      MX_THROW(ValueError) << "batch_dot: expected equal batch dimensions, got lhs " << l
                           << " and rhs " << r;
    }
  }
  const bool ta = param.transpose_a, tb = param.transpose_b;
  const dim_t M = ta ? l[nd - 1] : l[nd - 2], Kl = ta ? l[nd - 2] : l[nd - 1];
  const dim_t Kr = tb ? r[nd - 1] : r[nd - 2], N = tb ? r[nd - 2] : r[nd - 1];
  if (Kl >= 0 && Kr >= 0 && Kl != Kr) {
    MX_THROW(ValueError) << "batch_dot: shape mismatch: lhs " << l << (ta ? " (transposed)" : "")
                         << " and rhs " << r << (tb ? " (transposed)" : "")
                         << ": expected the contracted dimensions to be equal, got " << Kl
                         << " and " << Kr;
  }
  mxnet::TShape out(nd, -1);
  for (int i = 0; i < nd - 2; ++i) out[i] = l[i] >= 0 ? l[i] : r[i];
  out[nd - 2] = M;
  out[nd - 1] = N;
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, out);
  return shape_is_known(l) && shape_is_known(r);
}

/*! \brief Batch count and per-batch matrix sizes of a batch_dot of known shapes. */
inline DotDims BatchDotDims(const mxnet::TShape& l, const mxnet::TShape& r, bool ta, bool tb,
                            index_t* batch) {
  const int nd = l.ndim();
  *batch = DotProd(l, 0, nd - 2);
  DotDims d;
  d.M = ta ? l[nd - 1] : l[nd - 2];
  d.K = ta ? l[nd - 2] : l[nd - 1];
  d.N = tb ? r[nd - 2] : r[nd - 1];
  return d;
}

template <typename xpu>
void BatchDotForward_(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const DotParam& param = nnvm::get<DotParam>(attrs.parsed);
  index_t batch;
  const DotDims d = BatchDotDims(inputs[0].shape_, inputs[1].shape_, param.transpose_a,
                                 param.transpose_b, &batch);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DotGemm(ctx.get_stream<xpu>(), d, param.transpose_a, param.transpose_b,
            inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), outputs[0].dptr<DType>(), req[0],
            batch);
  });
}

/*! \brief inputs: out_grad, lhs, rhs; outputs: lhs_grad, rhs_grad. */
template <typename xpu>
void BatchDotBackward_(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const DotParam& param = nnvm::get<DotParam>(attrs.parsed);
  index_t batch;
  const DotDims d = BatchDotDims(inputs[1].shape_, inputs[2].shape_, param.transpose_a,
                                 param.transpose_b, &batch);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DotGemmBackward(ctx.get_stream<xpu>(), d, param.transpose_a, param.transpose_b,
                    inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
                    outputs[0].dptr<DType>(), req[0], outputs[1].dptr<DType>(), req[1], batch);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_DOT_INL_H_
