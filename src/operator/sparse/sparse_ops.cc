/*!
 * \file sparse_ops.cc
 * \brief Storage conversion and the sparse forms of common operators:
 *   cast_storage (any -> any), _sparse_retain (row_sparse rows by index),
 *   dot(csr, dense) and dot(csr.T, dense), elemwise_add/_sub/_mul of two row_sparse or two csr
 *   arrays, zeros_like of a sparse array (an empty array of the same storage type), and the
 *   elementwise ops with f(0) = 0 (abs, sqrt, relu, x * scalar, ...) on the stored values.
 * Other storage combinations of these ops run their dense FCompute on densified inputs.
 */
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "../elemwise_op_common.h"
#include "../tensor/dot-inl.h"
#include "./sparse_ops-inl.h"

namespace mxnet {
namespace op {

// ------------------------------------------------------------------------------ cast_storage

struct CastStorageParam : public dmlc::Parameter<CastStorageParam> {
  int stype;
  DMLC_DECLARE_PARAMETER(CastStorageParam) {
    DMLC_DECLARE_FIELD(stype)
        .add_enum("default", kDefaultStorage)
        .add_enum("row_sparse", kRowSparseStorage)
        .add_enum("csr", kCSRStorage)
        .describe("Output storage type.");
  }
};
DMLC_REGISTER_PARAMETER(CastStorageParam);

namespace {

bool CastStorageShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  const CastStorageParam& p = nnvm::get<CastStorageParam>(attrs.parsed);
  const TShape& s = (*in)[0];
  if (p.stype == kCSRStorage && s.ndim() >= 0 && s.ndim() != 2) {
    MX_THROW(ValueError) << "cast_storage: csr needs a 2-D input, got shape " << s;
  }
  if (p.stype == kRowSparseStorage && s.ndim() == 0) {
    MX_THROW(ValueError) << "cast_storage: row_sparse needs at least 1 dimension, got shape " << s;
  }
  return ElemwiseShape<1, 1>(attrs, in, out);
}

bool CastStorageStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                      std::vector<int>* in, std::vector<int>* out) {
  const CastStorageParam& p = nnvm::get<CastStorageParam>(attrs.parsed);
  if ((*out)[0] == kUndefinedStorage) (*out)[0] = p.stype;
  *mode = DispatchMode::kFComputeEx;
  return true;
}

void CastStorageComputeEx(const nnvm::NodeAttrs&, const OpContext&,
                          const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                          const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  CastStorageInto(in[0], out[0]);
}

// Dense graphs (executor) see cast_storage as a copy.
void CastStorageCompute(const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>& in,
                        const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
  if (req[0] == kNullOp || in[0].dptr_ == out[0].dptr_) return;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out[0].type_flag_, DType, {
    const DType* src = in[0].dptr<DType>();
    DType* dst = out[0].dptr<DType>();
    const size_t n = out[0].Size();
    if (req[0] == kAddTo) {
      for (size_t i = 0; i < n; ++i) dst[i] += src[i];
    } else {
      std::memcpy(dst, src, n * sizeof(DType));
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(cast_storage)
.add_alias("_sparse_cast_storage")
.describe(R"code(Casts tensor storage type to the new type.

When an NDArray with default storage type is cast to csr or row_sparse storage,
the result is compact, which means:

- for csr, zero values will not be retained
- for row_sparse, row slices of all zeros will not be retained

The storage type of ``cast_storage`` output depends on stype parameter:

- cast_storage(csr, 'default') = default
- cast_storage(row_sparse, 'default') = default
- cast_storage(default, 'csr') = csr
- cast_storage(default, 'row_sparse') = row_sparse
- cast_storage(csr, 'csr') = csr
- cast_storage(row_sparse, 'row_sparse') = row_sparse

Example::

    dense = [[ 0.,  1.,  0.],
             [ 2.,  0.,  3.],
             [ 0.,  0.,  0.],
             [ 0.,  0.,  0.]]

    # cast to row_sparse storage type
    rsp = cast_storage(dense, 'row_sparse')
    rsp.indices = [0, 1]
    rsp.values = [[ 0.,  1.,  0.],
                  [ 2.,  0.,  3.]]

    # cast to csr storage type
    csr = cast_storage(dense, 'csr')
    csr.indices = [1, 0, 2]
    csr.values = [ 1.,  2.,  3.]
    csr.indptr = [0, 1, 3, 3, 3]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CastStorageParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CastStorageShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FInferStorageType>("FInferStorageType", CastStorageStype)
.set_attr<bool>("TSparseFromDense", true)
.set_attr<FComputeEx>("FComputeEx<cpu>", CastStorageComputeEx)
.set_attr<FCompute>("FCompute<cpu>", CastStorageCompute)
.set_attr<nnvm::FGradient>("FGradient",
                           [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& og) {
                             return MakeGradNode("_copy", n, {og[0]}, {});
                           })
.add_argument("data", "NDArray-or-Symbol", "The input.")
.add_arguments(CastStorageParam::__FIELDS__());

// ---------------------------------------------------------------------------- _sparse_retain

namespace {

/*! \brief The requested row ids (any dtype) as sorted, unique int64 values in [0, rows). */
std::vector<int64_t> RetainIds(const TBlob& idx, int64_t rows) {
  std::vector<int64_t> ids(idx.Size());
  MSHADOW_TYPE_SWITCH(idx.type_flag_, IType, {
    const IType* p = idx.dptr<IType>();
    for (size_t k = 0; k < ids.size(); ++k) ids[k] = static_cast<int64_t>(p[k]);
  });
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (int64_t r : ids) {
    if (r < 0 || r >= rows) {
      MX_THROW(IndexError) << "_sparse_retain: row index " << r << " is out of range [0, " << rows
                           << ")";
    }
  }
  return ids;
}

bool RetainShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if ((*in)[1].ndim() > 1) {
    MX_THROW(ValueError) << "_sparse_retain: indices must be 1-D, got shape " << (*in)[1];
  }
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return shape_is_known((*out)[0]);
}

bool RetainType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1;
}

bool RetainStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode, std::vector<int>* in,
                 std::vector<int>* out) {
  if ((*in)[0] != kRowSparseStorage || (*in)[1] != kDefaultStorage ||
      ((*out)[0] != kUndefinedStorage && (*out)[0] != kRowSparseStorage)) {
    return false;
  }
  return DispatchEx(out, mode, kRowSparseStorage);
}

// Output rows = the requested ids (MXNet 1.9.1 keeps them all); values copied where stored.
void RetainComputeEx(const nnvm::NodeAttrs&, const OpContext&, const std::vector<NDArray>& in,
                     const std::vector<OpReqType>& req, const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  const NDArray& src = in[0];
  src.CheckSparseFormat(false);
  const std::vector<int64_t> ids = RetainIds(in[1].data(), src.shape()[0]);
  const std::vector<int64_t> have = SparseAuxAsInt64(src, 0);
  const int64_t row = RowLength(src.shape());
  TShape sshape = src.shape();
  sshape[0] = static_cast<int64_t>(ids.size());
  NDArray data = NewPart(sshape, src.dtype());
  const size_t elem = mshadow::mshadow_sizeof(src.dtype());
  char* dst = static_cast<char*>(data.data().dptr_);
  const char* vals = have.empty() ? nullptr : static_cast<const char*>(src.sparse_data().data().dptr_);
  for (size_t k = 0; k < ids.size(); ++k) {
    auto it = std::lower_bound(have.begin(), have.end(), ids[k]);
    char* d = dst + k * row * elem;
    if (it != have.end() && *it == ids[k]) {
      std::memcpy(d, vals + (it - have.begin()) * row * elem, row * elem);
    } else {
      std::memset(d, 0, row * elem);
    }
  }
  out[0].SetSparseParts(data, {Int64Part(ids)});
}

// Dense input: rows not listed become zero.
void RetainCompute(const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>& in,
                   const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
  if (req[0] == kNullOp) return;
  const int64_t rows = in[0].shape_[0];
  const std::vector<int64_t> ids = RetainIds(in[1], rows);
  const int64_t row = RowLength(in[0].shape_);
  const size_t elem = mshadow::mshadow_sizeof(in[0].type_flag_);
  char* dst = static_cast<char*>(out[0].dptr_);
  const char* src = static_cast<const char*>(in[0].dptr_);
  std::vector<bool> keep(rows, false);
  for (int64_t r : ids) keep[r] = true;
  for (int64_t r = 0; r < rows; ++r) {
    if (!keep[r]) {
      std::memset(dst + r * row * elem, 0, row * elem);
    } else if (dst != src) {
      std::memcpy(dst + r * row * elem, src + r * row * elem, row * elem);
    }
  }
}

}  // namespace

NNVM_REGISTER_OP(_sparse_retain)
.describe(R"code(Pick rows specified by user input index array from a row sparse matrix
and save them in the output sparse matrix.

Example::

  data = [[1, 2], [3, 4], [5, 6]]
  indices = [0, 1, 3]
  shape = (4, 2)
  rsp_in = row_sparse_array(data, indices)
  to_retain = [0, 3]
  rsp_out = retain(rsp_in, to_retain)
  rsp_out.data = [[1, 2], [5, 6]]
  rsp_out.indices = [0, 3]

The storage type of ``retain`` output depends on storage types of inputs

- retain(row_sparse, default) = row_sparse
- otherwise, ``retain`` is not supported

)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data", "indices"};
})
.set_attr<mxnet::FInferShape>("FInferShape", RetainShape)
.set_attr<nnvm::FInferType>("FInferType", RetainType)
.set_attr<FInferStorageType>("FInferStorageType", RetainStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", RetainComputeEx)
.set_attr<FCompute>("FCompute<cpu>", RetainCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "The input array for sparse_retain operator.")
.add_argument("indices", "NDArray-or-Symbol", "The index array of rows ids that will be retained.");

// --------------------------------------------------------------------------- dot(csr, dense)

namespace {

bool DotStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode, std::vector<int>* in,
              std::vector<int>* out) {
  const DotParam& p = nnvm::get<DotParam>(attrs.parsed);
  const int lhs = (*in)[0], rhs = (*in)[1];
  if (p.transpose_b) return false;
  if (lhs == kDefaultStorage && rhs == kCSRStorage && !p.transpose_a) {
    // dot(dns, csr) = csr on CPU (MXNet 1.9.1), unless forward_stype says otherwise.
    int want = p.forward_stype.has_value() ? p.forward_stype.value() : kCSRStorage;
    if ((*out)[0] != kUndefinedStorage) want = (*out)[0];
    if (want == kRowSparseStorage) return false;
    return DispatchEx(out, mode, want);
  }
  if (lhs != kCSRStorage) return false;
  // dot(csr, rsp) = dns (the row_sparse weight of a sparse linear model); dot(csr.T, rsp)
  // = rsp, as dot(csr.T, dns).
  if (rhs != kDefaultStorage && rhs != kRowSparseStorage) return false;
  // dot(csr, dns) = dns; dot(csr.T, dns) = row_sparse unless forward_stype asks for dense.
  int want = p.transpose_a ? kRowSparseStorage : kDefaultStorage;
  if (p.forward_stype.has_value()) want = p.forward_stype.value();
  if (want == kCSRStorage) return false;
  if ((*out)[0] != kUndefinedStorage) want = (*out)[0];
  if (want == kCSRStorage) return false;
  return DispatchEx(out, mode, want);
}

template <typename DType>
void CsrDotDense(const NDArray& lhs, const DType* rhs, int64_t ncol_rhs, bool transpose_a,
                 DType* out) {
  const std::vector<int64_t> indptr = SparseAuxAsInt64(lhs, 0);
  const std::vector<int64_t> indices = SparseAuxAsInt64(lhs, 1);
  if (indices.empty()) return;
  const DType* v = lhs.sparse_data().data().dptr<DType>();
  const int64_t nrow = static_cast<int64_t>(indptr.size()) - 1;
  if (!transpose_a) {
    // Rows of the output are independent.
#pragma omp parallel for if (nrow * ncol_rhs > 32768)
    for (int64_t r = 0; r < nrow; ++r) {
      DType* o = out + r * ncol_rhs;
      for (int64_t k = indptr[r]; k < indptr[r + 1]; ++k) {
        const DType a = v[k];
        const DType* b = rhs + indices[k] * ncol_rhs;
        for (int64_t j = 0; j < ncol_rhs; ++j) o[j] += a * b[j];
      }
    }
  } else {
    for (int64_t r = 0; r < nrow; ++r) {
      const DType* b = rhs + r * ncol_rhs;
      for (int64_t k = indptr[r]; k < indptr[r + 1]; ++k) {
        const DType a = v[k];
        DType* o = out + indices[k] * ncol_rhs;
        for (int64_t j = 0; j < ncol_rhs; ++j) o[j] += a * b[j];
      }
    }
  }
}

/*! \brief A dense copy of `a` when it is sparse (a itself when dense). */
NDArray DenseOf(const NDArray& a) {
  if (!a.is_sparse()) return a;
  NDArray d = NewPart(a.shape(), a.dtype());
  CastStorageInto(a, d);
  return d;
}

void DotComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&, const std::vector<NDArray>& in,
                  const std::vector<OpReqType>& req, const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  const DotParam& p = nnvm::get<DotParam>(attrs.parsed);
  if (in[0].storage_type() == kDefaultStorage) {
    // dot(dns, csr): dense product, then stored as the output's storage type.
    if (req[0] == kAddTo) {
      MX_THROW(NotImplementedError) << "dot(default, csr): req 'add' is not supported";
    }
    const NDArray rhs = DenseOf(in[1]);
    const TBlob a = in[0].data(), b = rhs.data();
    const int64_t m = a.shape_[0], k = a.Size() / m, n = b.Size() / b.shape_[0];
    NDArray dense = out[0].is_sparse() ? NewPart(out[0].shape(), out[0].dtype()) : out[0];
    MSHADOW_REAL_TYPE_SWITCH(a.type_flag_, DType, {
      const DType* x = a.dptr<DType>();
      const DType* y = b.dptr<DType>();
      DType* o = dense.data().dptr<DType>();
      std::fill(o, o + m * n, DType(0));
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t t = 0; t < k; ++t) {
          const DType xv = x[i * k + t];
          if (xv == DType(0)) continue;
          for (int64_t j = 0; j < n; ++j) o[i * n + j] += xv * y[t * n + j];
        }
      }
    });
    if (out[0].is_sparse()) CastStorageInto(dense, out[0]);
    return;
  }
  CsrDotDenseInto(in[0], DenseOf(in[1]).data(), p.transpose_a, req[0], out[0]);
}

}  // namespace

void CsrDotDenseInto(const NDArray& lhs, const TBlob& rhs, bool transpose_a, OpReqType req,
                     const NDArray& out) {
  if (req == kNullOp) return;
  lhs.CheckSparseFormat(false);
  const int64_t ncol = rhs.shape_.ndim() == 1 ? 1 : static_cast<int64_t>(rhs.Size() / rhs.shape_[0]);
  const bool dense_out = !out.is_sparse();
  if (!dense_out && req == kAddTo) {
    MX_THROW(NotImplementedError) << "dot: req 'add' into a row_sparse output is not supported";
  }
  // The product accumulates into a dense buffer: the output itself when dense.
  NDArray acc = dense_out ? out : NewPart(out.shape(), out.dtype());
  TBlob o = acc.data();
  const size_t bytes = o.Size() * mshadow::mshadow_sizeof(o.type_flag_);
  NDArray old;
  if (dense_out && req == kAddTo) {  // keep the old values to add them back
    old = NewPart(o.shape_, o.type_flag_);
    std::memcpy(old.data().dptr_, o.dptr_, bytes);
  }
  if (bytes) std::memset(o.dptr_, 0, bytes);
  MSHADOW_REAL_TYPE_SWITCH(o.type_flag_, DType, {
    CsrDotDense<DType>(lhs, rhs.dptr<DType>(), ncol, transpose_a, o.dptr<DType>());
    if (!old.is_none()) {
      const DType* a = old.data().dptr<DType>();
      DType* d = o.dptr<DType>();
      for (size_t i = 0; i < o.Size(); ++i) d[i] += a[i];
    }
  });
  if (!dense_out) {
    // Stored rows: the columns the csr matrix uses (MXNet keeps them even if the sum is 0).
    std::vector<int64_t> rows = SparseAuxAsInt64(lhs, 1);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    TShape sshape = out.shape();
    sshape[0] = static_cast<int64_t>(rows.size());
    NDArray data = NewPart(sshape, out.dtype());
    const size_t row_bytes = ncol * mshadow::mshadow_sizeof(o.type_flag_);
    for (size_t k = 0; k < rows.size(); ++k) {
      std::memcpy(static_cast<char*>(data.data().dptr_) + k * row_bytes,
                  static_cast<const char*>(o.dptr_) + rows[k] * row_bytes, row_bytes);
    }
    out.SetSparseParts(data, {Int64Part(rows)});
  }
}

NNVM_REGISTER_OP(dot)
.set_attr<FInferStorageType>("FInferStorageType", DotStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", DotComputeEx);

// ------------------------- elemwise_add/_sub/_mul of (row_sparse, row_sparse) and (csr, csr)

namespace {

enum class RspBinary { kAdd, kSub, kMul };

// (row_sparse, row_sparse) -> row_sparse; (csr, csr) -> csr; other pairs run densified.
bool SparseBinaryStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode,
                       std::vector<int>* in, std::vector<int>* out) {
  const int s = (*in)[0];
  if ((s != kRowSparseStorage && s != kCSRStorage) || (*in)[1] != s) return false;
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != s) return false;
  return DispatchEx(out, mode, s);
}

template <RspBinary kOp, typename DType>
DType BinaryValue(DType x, DType y) {
  return kOp == RspBinary::kAdd ? DType(x + y) : kOp == RspBinary::kSub ? DType(x - y)
                                                                        : DType(x * y);
}

/*! \brief csr (op) csr, row by row: union (add, sub) or intersection (mul) of the columns. */
template <RspBinary kOp>
void CsrBinary(const NDArray& lhs, const NDArray& rhs, const NDArray& out) {
  const std::vector<int64_t> lp = SparseAuxAsInt64(lhs, 0), li = SparseAuxAsInt64(lhs, 1);
  const std::vector<int64_t> rp = SparseAuxAsInt64(rhs, 0), ri = SparseAuxAsInt64(rhs, 1);
  const int64_t nrow = out.shape()[0];
  std::vector<int64_t> indptr(nrow + 1, 0), indices;
  MSHADOW_TYPE_SWITCH(out.dtype(), DType, {
    const DType* lv = li.empty() ? nullptr : lhs.sparse_data().data().dptr<DType>();
    const DType* rv = ri.empty() ? nullptr : rhs.sparse_data().data().dptr<DType>();
    std::vector<DType> vals;
    for (int64_t r = 0; r < nrow; ++r) {
      // Column -> value for each side (rows are short: sorting the entries is enough).
      std::vector<std::pair<int64_t, DType>> a, b;
      if (r + 1 < static_cast<int64_t>(lp.size())) {
        for (int64_t k = lp[r]; k < lp[r + 1]; ++k) a.emplace_back(li[k], lv[k]);
      }
      if (r + 1 < static_cast<int64_t>(rp.size())) {
        for (int64_t k = rp[r]; k < rp[r + 1]; ++k) b.emplace_back(ri[k], rv[k]);
      }
      auto by_col = [](const std::pair<int64_t, DType>& x, const std::pair<int64_t, DType>& y) {
        return x.first < y.first;
      };
      std::stable_sort(a.begin(), a.end(), by_col);
      std::stable_sort(b.begin(), b.end(), by_col);
      size_t i = 0, j = 0;
      while (i < a.size() || j < b.size()) {
        const bool take_a = i < a.size() && (j >= b.size() || a[i].first <= b[j].first);
        const bool take_b = j < b.size() && (i >= a.size() || b[j].first <= a[i].first);
        const int64_t col = take_a ? a[i].first : b[j].first;
        const DType x = take_a ? a[i].second : DType(0), y = take_b ? b[j].second : DType(0);
        if (take_a) ++i;
        if (take_b) ++j;
        if (kOp == RspBinary::kMul && !(take_a && take_b)) continue;
        indices.push_back(col);
        vals.push_back(BinaryValue<kOp>(x, y));
      }
      indptr[r + 1] = static_cast<int64_t>(indices.size());
    }
    NDArray data = NewPart(TShape(1, static_cast<int64_t>(vals.size())), out.dtype());
    if (!vals.empty()) std::memcpy(data.data().dptr_, vals.data(), vals.size() * sizeof(DType));
    out.SetSparseParts(data, {Int64Part(indptr), Int64Part(indices)});
  });
}

template <RspBinary kOp>
void RspBinaryComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                        const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                        const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << attrs.op->name
                                  << ": req 'add' into a row_sparse output is not supported";
  }
  in[0].CheckSparseFormat(false);
  in[1].CheckSparseFormat(false);
  if (in[0].storage_type() == kCSRStorage) {
    CsrBinary<kOp>(in[0], in[1], out[0]);
    return;
  }
  const std::vector<int64_t> li = SparseAuxAsInt64(in[0], 0), ri = SparseAuxAsInt64(in[1], 0);
  const int64_t row = RowLength(out[0].shape());
  // Output rows: the union (add, sub) or intersection (mul) of the sorted row ids.
  std::vector<int64_t> rows;
  if (kOp == RspBinary::kMul) {
    std::set_intersection(li.begin(), li.end(), ri.begin(), ri.end(), std::back_inserter(rows));
  } else {
    std::set_union(li.begin(), li.end(), ri.begin(), ri.end(), std::back_inserter(rows));
  }
  TShape sshape = out[0].shape();
  sshape[0] = static_cast<int64_t>(rows.size());
  NDArray data = NewPart(sshape, out[0].dtype());
  MSHADOW_TYPE_SWITCH(out[0].dtype(), DType, {
    const DType* lv = li.empty() ? nullptr : in[0].sparse_data().data().dptr<DType>();
    const DType* rv = ri.empty() ? nullptr : in[1].sparse_data().data().dptr<DType>();
    DType* o = rows.empty() ? nullptr : data.data().dptr<DType>();
    size_t a = 0, b = 0;
    for (size_t k = 0; k < rows.size(); ++k) {
      while (a < li.size() && li[a] < rows[k]) ++a;
      while (b < ri.size() && ri[b] < rows[k]) ++b;
      const DType* x = (a < li.size() && li[a] == rows[k]) ? lv + a * row : nullptr;
      const DType* y = (b < ri.size() && ri[b] == rows[k]) ? rv + b * row : nullptr;
      DType* d = o + k * row;
      for (int64_t j = 0; j < row; ++j) {
        const DType xv = x ? x[j] : DType(0), yv = y ? y[j] : DType(0);
        d[j] = kOp == RspBinary::kAdd ? DType(xv + yv)
             : kOp == RspBinary::kSub ? DType(xv - yv) : DType(xv * yv);
      }
    }
  });
  out[0].SetSparseParts(data, {Int64Part(rows)});
}

}  // namespace

NNVM_REGISTER_OP(elemwise_add)
.set_attr<FInferStorageType>("FInferStorageType", SparseBinaryStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", RspBinaryComputeEx<RspBinary::kAdd>);

NNVM_REGISTER_OP(elemwise_sub)
.set_attr<FInferStorageType>("FInferStorageType", SparseBinaryStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", RspBinaryComputeEx<RspBinary::kSub>);

NNVM_REGISTER_OP(elemwise_mul)
.set_attr<FInferStorageType>("FInferStorageType", SparseBinaryStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", RspBinaryComputeEx<RspBinary::kMul>);

// ------------------------------------------------------------------- zeros_like(sparse)

namespace {

bool ZerosLikeStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode, std::vector<int>* in,
                    std::vector<int>* out) {
  const int s = (*in)[0];
  if (s != kRowSparseStorage && s != kCSRStorage) return false;
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != s) return false;
  return DispatchEx(out, mode, s);
}

void ZerosLikeComputeEx(const nnvm::NodeAttrs&, const OpContext&, const std::vector<NDArray>&,
                        const std::vector<OpReqType>& req, const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  const NDArray& o = out[0];
  TShape sshape = o.shape();
  if (o.storage_type() == kCSRStorage) {
    out[0].SetSparseParts(NewPart(TShape(1, 0), o.dtype()),
                          {Int64Part(std::vector<int64_t>(o.shape()[0] + 1, 0)),
                           Int64Part({})});
  } else {
    sshape[0] = 0;
    out[0].SetSparseParts(NewPart(sshape, o.dtype()), {Int64Part({})});
  }
}

}  // namespace

NNVM_REGISTER_OP(zeros_like)
.set_attr<FInferStorageType>("FInferStorageType", ZerosLikeStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", ZerosLikeComputeEx);

// ------------------------------------- zero-preserving elementwise ops on sparse arrays
// f(0) = 0, so f of a sparse array has the same layout: run the op's dense kernel on the stored
// values and keep the aux arrays (MXNet 1.9.1 keeps the layout even where f(x) becomes 0).

namespace {

bool ZeroPreservingStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode,
                         std::vector<int>* in, std::vector<int>* out) {
  const int s = (*in)[0];
  if (s != kRowSparseStorage && s != kCSRStorage) return false;
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != s) return false;
  return DispatchEx(out, mode, s);
}

void ZeroPreservingComputeEx(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                             const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << attrs.op->name
                                  << ": req 'add' into a sparse output is not supported";
  }
  static auto& fcompute = nnvm::Op::GetAttr<FCompute>("FCompute<cpu>");
  const NDArray& src = in[0];
  src.CheckSparseFormat(false);
  NDArray data = NewPart(src.sparse_data().shape(), out[0].dtype());
  if (data.Size() != 0) {
    fcompute[attrs.op](attrs, ctx, {src.sparse_data().data()}, {kWriteTo}, {data.data()});
  }
  std::vector<NDArray> aux;
  for (size_t i = 0; i < src.num_aux(); ++i) aux.push_back(Int64Part(SparseAuxAsInt64(src, i)));
  out[0].SetSparseParts(data, aux);
}

// Canonical names only (registering an alias here would create a second, empty op).
const bool kZeroPreservingRegistered = [] {
  for (const char* name : {"abs", "sign", "round", "rint", "ceil", "floor", "trunc", "fix",
                           "square", "sqrt", "cbrt", "relu", "tanh", "sin", "sinh", "tan",
                           "arcsin", "arcsinh", "arctan", "arctanh", "degrees", "radians",
                           "expm1", "log1p", "negative", "_copy", "_mul_scalar",
                           "_div_scalar"}) {
    ::nnvm::Op::Register(name)
        .set_attr<FInferStorageType>("FInferStorageType", ZeroPreservingStype)
        .set_attr<FComputeEx>("FComputeEx<cpu>", ZeroPreservingComputeEx);
  }
  return true;
}();

}  // namespace

}  // namespace op
}  // namespace mxnet
