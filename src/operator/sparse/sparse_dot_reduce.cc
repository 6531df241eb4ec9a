/*!
 * \file sparse_dot_reduce.cc
 * \brief Sparse kernels used by the symbolic path: the backward of dot(csr, dense|row_sparse)
 *        (row_sparse gradient of the dense/row_sparse weight, as MXNet 1.9.1), sum/mean of a
 *        csr matrix over axis 0 or 1 (dense result) and add_n of row_sparse arrays (the
 *        gradient pass sums several row_sparse gradients with it).
 */
#include <algorithm>
#include <cstring>
#include <vector>

#include "../tensor/broadcast_reduce_op-inl.h"
#include "../tensor/dot-inl.h"
#include "./sparse_ops-inl.h"

namespace mxnet {
namespace op {

namespace {

// ------------------------------------------------------------------ _backward_dot with csr lhs

bool DotBackwardStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                      std::vector<int>* in, std::vector<int>* out) {
  const DotParam& p = nnvm::get<DotParam>(attrs.parsed);
  const int ograd = (*in)[0], lhs = (*in)[1], rhs = (*in)[2];
  if (p.transpose_b || lhs != kCSRStorage || ograd != kDefaultStorage) return false;
  if (rhs != kDefaultStorage && rhs != kRowSparseStorage) return false;
  // no transpose: d rhs = dot(csr.T, ograd) is row_sparse; transpose_a: d rhs = dot(csr, ograd)
  // is dense. d lhs is dense in both cases.
  const int rhs_grad = p.transpose_a ? kDefaultStorage : kRowSparseStorage;
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != kDefaultStorage) return false;
  if ((*out)[1] != kUndefinedStorage && (*out)[1] != rhs_grad) return false;
  (*out)[0] = kDefaultStorage;
  (*out)[1] = rhs_grad;
  *mode = DispatchMode::kFComputeEx;
  return true;
}

/*!
 * \brief c (req) = a * b.T for dense a (m, n), b (k, n) when a_t is false, or b * a.T written
 *        as (k, m) when a_t is true (c then is (k, m)).
 */
template <typename DType>
void GemmABt(const DType* a, const DType* b, int64_t m, int64_t k, int64_t n, OpReqType req,
             DType* c) {
#pragma omp parallel for if (m * k * n > 65536)
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < k; ++j) {
      DType acc = 0;
      for (int64_t t = 0; t < n; ++t) acc += a[i * n + t] * b[j * n + t];
      c[i * k + j] = req == kAddTo ? DType(c[i * k + j] + acc) : acc;
    }
  }
}

void DotBackwardComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                          const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                          const std::vector<NDArray>& out) {
  const DotParam& p = nnvm::get<DotParam>(attrs.parsed);
  const NDArray& csr = in[1];
  csr.CheckSparseFormat(false);
  const TBlob ograd = in[0].data();
  NDArray rhs = in[2];
  if (rhs.is_sparse()) {
    NDArray d = NewPart(rhs.shape(), rhs.dtype());
    CastStorageInto(rhs, d);
    rhs = d;
  }
  // Gradient of the weight.
  CsrDotDenseInto(csr, ograd, !p.transpose_a, req[1], out[1]);
  if (req[0] == kNullOp) return;
  // Gradient of the csr input, dense: ograd (m, n) * rhs.T with rhs (k, n) -> (m, k); with
  // transpose_a: rhs (k, n) * ograd.T -> (k, m).
  const TBlob r = rhs.data(), o = out[0].data();
  const int64_t n = ograd.shape_.ndim() == 1 ? 1 : ograd.Size() / ograd.shape_[0];
  MSHADOW_REAL_TYPE_SWITCH(o.type_flag_, DType, {
    if (!p.transpose_a) {
      GemmABt<DType>(ograd.dptr<DType>(), r.dptr<DType>(), ograd.shape_[0], r.shape_[0], n,
                     req[0], o.dptr<DType>());
    } else {
      GemmABt<DType>(r.dptr<DType>(), ograd.dptr<DType>(), r.shape_[0], ograd.shape_[0], n,
                     req[0], o.dptr<DType>());
    }
  });
}

// ---------------------------------------------------------------- sum / mean of csr, axis 0|1

/*! \brief The single reduced axis (0 or 1) of a csr reduction, or -1 when not supported. */
int CsrReduceAxis(const ReduceAxesParam& p) {
  if (p.exclude || !p.axis.has_value() || p.axis.value().ndim() != 1) return -1;
  int64_t a = p.axis.value()[0];
  if (a < 0) a += 2;
  return a == 0 || a == 1 ? static_cast<int>(a) : -1;
}

bool CsrReduceStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                    std::vector<int>* in, std::vector<int>* out) {
  const ReduceAxesParam& p = nnvm::get<ReduceAxesParam>(attrs.parsed);
  if ((*in)[0] != kCSRStorage || CsrReduceAxis(p) < 0) return false;
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != kDefaultStorage) return false;
  return DispatchEx(out, mode, kDefaultStorage);
}

template <bool kMean>
void CsrReduceComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                        const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                        const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  const ReduceAxesParam& p = nnvm::get<ReduceAxesParam>(attrs.parsed);
  const int axis = CsrReduceAxis(p);
  const NDArray& csr = in[0];
  csr.CheckSparseFormat(false);
  const int64_t nrow = csr.shape()[0], ncol = csr.shape()[1];
  const std::vector<int64_t> indptr = SparseAuxAsInt64(csr, 0), indices = SparseAuxAsInt64(csr, 1);
  const TBlob o = out[0].data();
  MSHADOW_REAL_TYPE_SWITCH(o.type_flag_, DType, {
    const int64_t len = axis == 0 ? ncol : nrow;
    std::vector<DType> acc(len, DType(0));
    const DType* v = indices.empty() ? nullptr : csr.sparse_data().data().dptr<DType>();
    for (int64_t r = 0; r + 1 < static_cast<int64_t>(indptr.size()); ++r) {
      for (int64_t k = indptr[r]; k < indptr[r + 1]; ++k) {
        acc[axis == 0 ? indices[k] : r] += v[k];
      }
    }
    const DType scale = kMean ? DType(1.0 / static_cast<double>(axis == 0 ? nrow : ncol)) : DType(1);
    DType* d = o.dptr<DType>();
    for (int64_t i = 0; i < len; ++i) {
      const DType x = acc[i] * scale;
      d[i] = req[0] == kAddTo ? DType(d[i] + x) : x;
    }
  });
}

// ------------------------------------------------ add_n (ElementWiseSum) of row_sparse arrays

// All row_sparse -> row_sparse (the sum of several row_sparse gradients stays sparse).
bool AddNStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode, std::vector<int>* in,
               std::vector<int>* out) {
  for (int s : *in) {
    if (s != kRowSparseStorage) return false;
  }
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != kRowSparseStorage) return false;
  return DispatchEx(out, mode, kRowSparseStorage);
}

void AddNRspComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                      const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                      const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << attrs.op->name
                                  << ": req 'add' into a row_sparse output is not supported";
  }
  std::vector<std::vector<int64_t>> ids(in.size());
  std::vector<int64_t> rows;
  for (size_t i = 0; i < in.size(); ++i) {
    in[i].CheckSparseFormat(false);
    ids[i] = SparseAuxAsInt64(in[i], 0);
    rows.insert(rows.end(), ids[i].begin(), ids[i].end());
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  const int64_t len = RowLength(out[0].shape());
  TShape sshape = out[0].shape();
  sshape[0] = static_cast<int64_t>(rows.size());
  NDArray data = NewPart(sshape, out[0].dtype());
  MSHADOW_TYPE_SWITCH(out[0].dtype(), DType, {
    DType* d = rows.empty() ? nullptr : data.data().dptr<DType>();
    if (d != nullptr) std::fill(d, d + rows.size() * len, DType(0));
    for (size_t i = 0; i < in.size(); ++i) {
      if (ids[i].empty()) continue;
      const DType* v = in[i].sparse_data().data().dptr<DType>();
      for (size_t k = 0; k < ids[i].size(); ++k) {
        const int64_t pos = std::lower_bound(rows.begin(), rows.end(), ids[i][k]) - rows.begin();
        for (int64_t j = 0; j < len; ++j) d[pos * len + j] += v[k * len + j];
      }
    }
  });
  out[0].SetSparseParts(data, {Int64Part(rows)});
}

// --------------------------- backward of elementwise ops with a row_sparse output gradient

/*! \brief Rows `rows` of `a` (row_sparse or dense) as a dense (rows, ...) array. */
NDArray GatherRows(const NDArray& a, const std::vector<int64_t>& rows) {
  TShape bshape = a.shape();
  bshape[0] = static_cast<int64_t>(rows.size());
  NDArray block = NewPart(bshape, a.dtype());
  const int64_t len = RowLength(a.shape());
  const size_t row_bytes = len * mshadow::mshadow_sizeof(a.dtype());
  char* dst = static_cast<char*>(block.data().dptr_);
  if (rows.empty()) return block;
  std::memset(dst, 0, rows.size() * row_bytes);
  if (a.storage_type() == kRowSparseStorage) {
    const std::vector<int64_t> stored = SparseAuxAsInt64(a, 0);
    if (stored.empty()) return block;
    const char* src = static_cast<const char*>(a.sparse_data().data().dptr_);
    for (size_t k = 0; k < rows.size(); ++k) {
      auto it = std::lower_bound(stored.begin(), stored.end(), rows[k]);
      if (it != stored.end() && *it == rows[k]) {
        std::memcpy(dst + k * row_bytes, src + (it - stored.begin()) * row_bytes, row_bytes);
      }
    }
  } else {
    const char* src = static_cast<const char*>(a.data().dptr_);
    for (size_t k = 0; k < rows.size(); ++k) {
      std::memcpy(dst + k * row_bytes, src + rows[k] * row_bytes, row_bytes);
    }
  }
  return block;
}

// (ograd row_sparse, x row_sparse|dense) -> row_sparse on ograd's rows: f(0, x) = 0 for the
// backward of every zero-preserving unary op, so the other rows of the gradient are 0.
bool RspOgradStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode, std::vector<int>* in,
                   std::vector<int>* out) {
  if (in->size() != 2 || out->size() != 1 || (*in)[0] != kRowSparseStorage) return false;
  if ((*in)[1] != kRowSparseStorage && (*in)[1] != kDefaultStorage) return false;
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != kRowSparseStorage) return false;
  return DispatchEx(out, mode, kRowSparseStorage);
}

void RspOgradComputeEx(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                       const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << attrs.op->name
                                  << ": req 'add' into a row_sparse gradient is not supported";
  }
  static auto& fcompute = nnvm::Op::GetAttr<FCompute>("FCompute<cpu>");
  in[0].CheckSparseFormat(false);
  if (in[1].is_sparse()) in[1].CheckSparseFormat(false);
  const std::vector<int64_t> rows = SparseAuxAsInt64(in[0], 0);
  const NDArray ograd = GatherRows(in[0], rows), x = GatherRows(in[1], rows);
  NDArray data = NewPart(ograd.shape(), out[0].dtype());
  if (!rows.empty()) {
    fcompute[attrs.op](attrs, ctx, {ograd.data(), x.data()}, {kWriteTo}, {data.data()});
  }
  out[0].SetSparseParts(data, {Int64Part(rows)});
}

// _backward_add(ograd row_sparse) = (ograd, ograd), both row_sparse.
bool BackwardAddStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode,
                      std::vector<int>* in, std::vector<int>* out) {
  if ((*in)[0] != kRowSparseStorage) return false;
  for (int s : *out) {
    if (s != kUndefinedStorage && s != kRowSparseStorage) return false;
  }
  return DispatchEx(out, mode, kRowSparseStorage);
}

void BackwardAddComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                          const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                          const std::vector<NDArray>& out) {
  in[0].CheckSparseFormat(false);
  for (size_t i = 0; i < out.size(); ++i) {
    if (req[i] == kNullOp) continue;
    if (req[i] == kAddTo) {
      MX_THROW(NotImplementedError) << attrs.op->name
                                    << ": req 'add' into a row_sparse gradient is not supported";
    }
    CastStorageInto(in[0], out[i]);
  }
}

const bool kRspOgradRegistered = [] {
  for (const char* name : {"_backward_abs", "_backward_sign", "_backward_square",
                           "_backward_sqrt", "_backward_cbrt", "_backward_relu", "_backward_tanh",
                           "_backward_sin", "_backward_sinh", "_backward_tan", "_backward_arcsin",
                           "_backward_arcsinh", "_backward_arctan", "_backward_arctanh",
                           "_backward_degrees", "_backward_radians", "_backward_expm1",
                           "_backward_log1p"}) {
    ::nnvm::Op::Register(name)
        .set_attr<FInferStorageType>("FInferStorageType", RspOgradStype)
        .set_attr<FComputeEx>("FComputeEx<cpu>", RspOgradComputeEx);
  }
  return true;
}();

}  // namespace

NNVM_REGISTER_OP(_backward_add)
.set_attr<FInferStorageType>("FInferStorageType", BackwardAddStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", BackwardAddComputeEx);

NNVM_REGISTER_OP(add_n)
.set_attr<FInferStorageType>("FInferStorageType", AddNStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", AddNRspComputeEx);

NNVM_REGISTER_OP(_backward_dot)
.set_attr<FInferStorageType>("FInferStorageType", DotBackwardStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", DotBackwardComputeEx);

NNVM_REGISTER_OP(sum)
.set_attr<FInferStorageType>("FInferStorageType", CsrReduceStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", CsrReduceComputeEx<false>);

NNVM_REGISTER_OP(mean)
.set_attr<FInferStorageType>("FInferStorageType", CsrReduceStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", CsrReduceComputeEx<true>);

}  // namespace op
}  // namespace mxnet
