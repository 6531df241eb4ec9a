// Sparse NDArrays (csr, row_sparse): creation, part access, storage casts and format checks.
// The parts live on the array's device. CPU kernels read them directly; on a GPU the casts run
// the kernels of sparse_ndarray.cu (sparse_gpu.h), and the host reads (format checks, aux
// values as int64, copies between devices) go through host copies of the parts.
#include <mxnet/ndarray.h>

#include <cstring>
#include <sstream>
#include <string>
#include <utility>

#include "../common/cast.h"
#include "./device_copy.h"
#include "./sparse_gpu.h"
#include "./sparse_parts.h"

namespace mxnet {

namespace {

const char* StypeName(int stype) {
  switch (stype) {
    case kDefaultStorage: return "default";
    case kRowSparseStorage: return "row_sparse";
    case kCSRStorage: return "csr";
    default: return "undefined";
  }
}

size_t NumAuxOf(int stype) { return stype == kCSRStorage ? 2 : stype == kRowSparseStorage ? 1 : 0; }

/*! \brief A dense CPU array with its memory allocated now (kernels write it at once). */
NDArray NewDense(const TShape& shape, int dtype) {
  return NDArray(shape, Context::CPU(), false, dtype);
}

bool OnGPU(const NDArray& a) { return a.ctx().dev_mask() == gpu::kDevMask; }

/*! \brief A new copy of the dense `src` on `ctx` (waits for nothing: kernels and parts). */
NDArray CopyOn(const NDArray& src, Context ctx) {
  NDArray out(src.shape(), ctx, false, src.dtype());
  const size_t bytes = src.Size() * mshadow::mshadow_sizeof(src.dtype());
  if (bytes == 0) return out;
  if (ctx.dev_mask() == cpu::kDevMask && src.ctx().dev_mask() == cpu::kDevMask) {
    std::memcpy(out.data().dptr_, src.data().dptr_, bytes);
  } else {
    device_copy::CopyBytesSync(out.data().dptr_, ctx, src.data().dptr_, src.ctx(), bytes);
  }
  return out;
}

/*! \brief The dense `src` on `ctx`: itself when it is there, else a copy. */
NDArray PartOn(const NDArray& src, Context ctx) {
  return src.ctx() == ctx ? src : CopyOn(src, ctx);
}

TShape RowSparseStorageShape(const TShape& shape, int64_t rows) {
  TShape s = shape;
  s[0] = rows;
  return s;
}

/*! \brief Writes int64 values into a new 1-D array of dtype `dtype`. */
NDArray AuxFromInt64(const std::vector<int64_t>& v, int dtype) {
  NDArray out = NewDense(TShape(1, static_cast<int64_t>(v.size())), dtype);
  TBlob b = out.data();
  MSHADOW_TYPE_SWITCH(dtype, IType, {
    IType* p = b.dptr<IType>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<IType>(v[i]);
  });
  return out;
}

/*! \brief A copy of `src` converted to `dtype` (src itself if it already has it). */
NDArray AsDType(const NDArray& src, int dtype) {
  if (src.dtype() == dtype) return src;
  NDArray out = NewDense(src.shape(), dtype);
  TBlob dst = out.data();
  common::CastCopy(src.data(), kWriteTo, dst);
  return out;
}

/*! \brief Scatter the stored values of `src` (dtype = dst dtype) into the zeroed dense `dst`. */
void SparseToDense(const NDArray& src, const TBlob& dst) {
  const size_t total = dst.shape_.Size();
  if (total == 0) return;
  std::memset(dst.dptr_, 0, total * mshadow::mshadow_sizeof(dst.type_flag_));
  const NDArray& data = src.sparse_data();
  if (data.Size() == 0) return;
  TBlob vals = data.data();
  MSHADOW_TYPE_SWITCH_WITH_BOOL(dst.type_flag_, DType, {
    const DType* v = vals.dptr<DType>();
    DType* out = dst.dptr<DType>();
    if (src.storage_type() == kCSRStorage) {
      const int64_t ncol = src.shape()[1];
      std::vector<int64_t> indptr = SparseAuxAsInt64(src, 0);
      std::vector<int64_t> indices = SparseAuxAsInt64(src, 1);
      for (size_t r = 0; r + 1 < indptr.size(); ++r) {
        for (int64_t k = indptr[r]; k < indptr[r + 1]; ++k) out[r * ncol + indices[k]] = v[k];
      }
    } else {
      const int64_t row = static_cast<int64_t>(total / src.shape()[0]);
      std::vector<int64_t> indices = SparseAuxAsInt64(src, 0);
      for (size_t k = 0; k < indices.size(); ++k) {
        std::memcpy(out + indices[k] * row, v + k * row, row * sizeof(DType));
      }
    }
  });
}

/*! \brief Fill the sparse `out` (dtype = src dtype) with the non-zeros of the dense `src`. */
void DenseToSparse(const TBlob& src, const NDArray& out) {
  const TShape& shape = out.shape();
  MSHADOW_TYPE_SWITCH(src.type_flag_, DType, {
    const DType* in = src.dptr<DType>();
    if (out.storage_type() == kCSRStorage) {
      const int64_t nrow = shape[0], ncol = shape[1];
      std::vector<int64_t> indptr(nrow + 1, 0), indices;
      std::vector<DType> vals;
      for (int64_t r = 0; r < nrow; ++r) {
        for (int64_t c = 0; c < ncol; ++c) {
          const DType x = in[r * ncol + c];
          if (x != DType(0)) {
            indices.push_back(c);
            vals.push_back(x);
          }
        }
        indptr[r + 1] = static_cast<int64_t>(indices.size());
      }
      NDArray data = NewDense(TShape(1, static_cast<int64_t>(vals.size())), src.type_flag_);
      if (!vals.empty()) std::memcpy(data.data().dptr_, vals.data(), vals.size() * sizeof(DType));
      out.SetSparseParts(data, {AuxFromInt64(indptr, out.aux_type(0)),
                                AuxFromInt64(indices, out.aux_type(1))});
    } else {
      const int64_t nrow = shape[0];
      const int64_t row = nrow == 0 ? 0 : static_cast<int64_t>(shape.Size() / nrow);
      std::vector<int64_t> rows;
      for (int64_t r = 0; r < nrow; ++r) {
        for (int64_t c = 0; c < row; ++c) {
          if (in[r * row + c] != DType(0)) {
            rows.push_back(r);
            break;
          }
        }
      }
      NDArray data = NewDense(RowSparseStorageShape(shape, rows.size()), src.type_flag_);
      DType* d = data.Size() ? data.data().dptr<DType>() : nullptr;
      for (size_t k = 0; k < rows.size(); ++k) {
        std::memcpy(d + k * row, in + rows[k] * row, row * sizeof(DType));
      }
      out.SetSparseParts(data, {AuxFromInt64(rows, out.aux_type(0))});
    }
  });
}


}  // namespace

std::shared_ptr<NDArray::SparseParts> NDArray::SparseParts::Create(
    int stype, const TShape& shape, Context ctx, int dtype, std::vector<int> aux_types,
    std::vector<TShape> aux_shapes, TShape storage_shape) {
  if (stype != kCSRStorage && stype != kRowSparseStorage) {
    MX_THROW(ValueError) << "sparse NDArray: unknown storage type " << stype;
  }
#if !MXNET_USE_CUDA
  if (ctx.dev_mask() != cpu::kDevMask) {
    MX_THROW(NotImplementedError) << "sparse NDArray on " << ctx << " needs a GPU build";
  }
#endif
  if (stype == kCSRStorage && shape.ndim() != 2) {
    MX_THROW(ValueError) << "csr NDArray: shape must be 2-D, got " << shape;
  }
  if (stype == kRowSparseStorage && shape.ndim() < 1) {
    MX_THROW(ValueError) << "row_sparse NDArray: shape must have at least 1 dimension, got "
                         << shape;
  }
  const size_t naux = NumAuxOf(stype);
  if (aux_types.empty()) aux_types.assign(naux, mshadow::kInt64);
  if (aux_types.size() != naux) {
    MX_THROW(ValueError) << StypeName(stype) << " NDArray: expected " << naux
                         << " aux types, got " << aux_types.size();
  }
  for (int t : aux_types) {
    if (t != mshadow::kInt64 && t != mshadow::kInt32 && t != mshadow::kUint8 &&
        t != mshadow::kInt8) {
      MX_THROW(TypeError) << StypeName(stype) << " NDArray: aux dtype "
                          << mshadow::dtype_string(t) << " is not an integer type";
    }
  }
  if (aux_shapes.empty()) {
    if (stype == kCSRStorage) {
      aux_shapes = {TShape(1, shape[0] + 1), TShape(1, 0)};
    } else {
      aux_shapes = {TShape(1, 0)};
    }
  }
  if (aux_shapes.size() != naux) {
    MX_THROW(ValueError) << StypeName(stype) << " NDArray: expected " << naux
                         << " aux shapes, got " << aux_shapes.size();
  }
  // An empty indptr stands for an all-zero matrix: give it its valid form (rows + 1 zeros).
  if (stype == kCSRStorage && aux_shapes[0].Size() == 0 && aux_shapes[1].Size() == 0) {
    aux_shapes[0] = TShape(1, shape[0] + 1);
  }
  if (storage_shape.ndim() <= 0) {
    storage_shape = stype == kCSRStorage ? TShape(1, aux_shapes[1].Size())
                                         : RowSparseStorageShape(shape, aux_shapes[0].Size());
  }
  auto parts = std::make_shared<SparseParts>();
  parts->data = NDArray(storage_shape, ctx, false, dtype);
  for (size_t i = 0; i < naux; ++i) {
    NDArray aux = NewDense(aux_shapes[i], aux_types[i]);  // zeros, made on the host
    TBlob b = aux.data();
    if (b.Size()) std::memset(b.dptr_, 0, b.Size() * mshadow::mshadow_sizeof(aux_types[i]));
    parts->aux.push_back(PartOn(aux, ctx));
  }
  return parts;
}

size_t NDArray::num_aux() const { return sparse_ ? sparse_->aux.size() : 0; }

int NDArray::aux_type(size_t i) const {
  if (i >= num_aux()) {
    MX_THROW(IndexError) << "aux_type: aux index " << i << " out of range for a "
                         << StypeName(stype_) << " NDArray with " << num_aux() << " aux arrays";
  }
  return sparse_->aux[i].dtype();
}

TShape NDArray::aux_shape(size_t i) const {
  aux_type(i);  // range check
  return sparse_->aux[i].shape();
}

TShape NDArray::storage_shape() const { return sparse_ ? sparse_->data.shape() : shape_; }

const NDArray& NDArray::sparse_data() const {
  CHECK(sparse_) << "sparse_data() of a dense NDArray";
  return sparse_->data;
}

const NDArray& NDArray::sparse_aux(size_t i) const {
  aux_type(i);
  return sparse_->aux[i];
}

void NDArray::SetSparseParts(const NDArray& data, const std::vector<NDArray>& aux) const {
  CHECK(sparse_) << "SetSparseParts on a dense NDArray";
  CHECK_EQ(aux.size(), sparse_->aux.size()) << "SetSparseParts: aux count";
  sparse_->data = data;
  sparse_->aux = aux;
}

NDArray NDArray::DataNDArray() const {
  if (!is_sparse()) {
    MX_THROW(ValueError) << "DataNDArray: the array is dense";
  }
  WaitToRead();
  return CopyOn(sparse_->data, ctx());
}

NDArray NDArray::AuxNDArray(size_t i) const {
  aux_type(i);
  WaitToRead();
  return CopyOn(sparse_->aux[i], ctx());
}

void NDArray::SyncCopyFromNDArray(const NDArray& src, int i) const {
  if (i == -1 && !is_sparse()) {
    SyncCopyFromNDArray(src);
    return;
  }
  if (!is_sparse()) {
    MX_THROW(ValueError) << "SyncCopyFromNDArray: aux index " << i << " given for a dense NDArray";
  }
  if (src.is_none() || src.is_sparse()) {
    MX_THROW(ValueError) << "SyncCopyFromNDArray: the source of a sparse part must be dense";
  }
  if (i < -1 || i >= static_cast<int>(num_aux())) {
    MX_THROW(IndexError) << "SyncCopyFromNDArray: aux index " << i << " out of range for a "
                         << StypeName(stype_) << " NDArray";
  }
  src.WaitToRead();
  WaitToWrite();
  const int dtype = i == -1 ? dtype_ : sparse_->aux[i].dtype();
  const NDArray host = PartOn(src, Context::CPU());
  NDArray part = AsDType(host, dtype);
  if (part.SharesChunk(src)) part = CopyOn(src, Context::CPU());  // own a private copy
  part = PartOn(part, ctx());
  if (i == -1) {
    sparse_->data = part;
  } else {
    sparse_->aux[i] = part;
  }
}

void NDArray::SyncCheckFormat(bool full_check) const {
  if (!is_sparse()) return;
  WaitToRead();
  CheckSparseFormat(full_check);
}

void NDArray::CheckSparseFormat(bool full_check) const {
  if (!is_sparse()) return;
  const NDArray& data = sparse_->data;
  if (stype_ == kCSRStorage) {
    const int64_t nrow = shape_[0], ncol = shape_[1];
    std::vector<int64_t> indptr = SparseAuxAsInt64(*this, 0);
    std::vector<int64_t> indices = SparseAuxAsInt64(*this, 1);
    if (indptr.size() != static_cast<size_t>(nrow + 1)) {
      MX_THROW(ValueError) << "csr NDArray of shape " << shape_ << ": indptr has "
                           << indptr.size() << " entries, expected rows + 1 = " << nrow + 1;
    }
    if (indptr[0] != 0) {
      MX_THROW(ValueError) << "csr NDArray: indptr must start with 0, got " << indptr[0];
    }
    for (int64_t r = 0; r < nrow; ++r) {
      if (indptr[r + 1] < indptr[r]) {
        MX_THROW(ValueError) << "csr NDArray: indptr must be non-decreasing, but indptr["
                             << r + 1 << "] = " << indptr[r + 1] << " < indptr[" << r
                             << "] = " << indptr[r];
      }
    }
    if (indptr[nrow] != static_cast<int64_t>(indices.size())) {
      MX_THROW(ValueError) << "csr NDArray: indptr[-1] = " << indptr[nrow]
                           << " differs from the number of indices " << indices.size();
    }
    if (data.Size() != indices.size()) {
      MX_THROW(ValueError) << "csr NDArray: data has " << data.Size() << " values but there are "
                           << indices.size() << " indices";
    }
    for (size_t k = 0; k < indices.size(); ++k) {
      if (indices[k] < 0 || indices[k] >= ncol) {
        MX_THROW(ValueError) << "csr NDArray: column index " << indices[k] << " at position " << k
                             << " is out of range [0, " << ncol << ")";
      }
    }
    if (full_check) {
      for (int64_t r = 0; r < nrow; ++r) {
        for (int64_t k = indptr[r] + 1; k < indptr[r + 1]; ++k) {
          if (indices[k] <= indices[k - 1]) {
            MX_THROW(ValueError) << "csr NDArray: column indices of row " << r
                                 << " must be strictly increasing, got " << indices[k - 1]
                                 << " then " << indices[k];
          }
        }
      }
    }
  } else {
    std::vector<int64_t> indices = SparseAuxAsInt64(*this, 0);
    if (data.shape().ndim() != shape_.ndim() ||
        data.shape()[0] != static_cast<int64_t>(indices.size())) {
      MX_THROW(ValueError) << "row_sparse NDArray of shape " << shape_ << ": data shape "
                           << data.shape() << " does not match " << indices.size() << " indices";
    }
    for (size_t k = 0; k < indices.size(); ++k) {
      if (indices[k] < 0 || indices[k] >= shape_[0]) {
        MX_THROW(ValueError) << "row_sparse NDArray: row index " << indices[k] << " at position "
                             << k << " is out of range [0, " << shape_[0] << ")";
      }
      if (full_check && k > 0 && indices[k] <= indices[k - 1]) {
        MX_THROW(ValueError) << "row_sparse NDArray: row indices must be strictly increasing, got "
                             << indices[k - 1] << " then " << indices[k];
      }
    }
  }
}

std::vector<int64_t> SparseAuxAsInt64(const NDArray& sparse, size_t i) {
  const NDArray aux = PartOn(sparse.sparse_aux(i), Context::CPU());
  std::vector<int64_t> out(aux.Size());
  if (out.empty()) return out;
  TBlob b = aux.data();
  MSHADOW_TYPE_SWITCH(aux.dtype(), IType, {
    const IType* p = b.dptr<IType>();
    for (size_t k = 0; k < out.size(); ++k) out[k] = static_cast<int64_t>(p[k]);
  });
  return out;
}

void CastStorageInto(const NDArray& src, const NDArray& out) {
  if (src.shape() != out.shape()) {
    MX_THROW(ValueError) << "cast_storage: shapes differ: source " << src.shape()
                         << ", destination " << out.shape();
  }
  if (OnGPU(src) || OnGPU(out)) {
#if MXNET_USE_CUDA
    if (src.ctx() == out.ctx() && src.dtype() == out.dtype()) {
      // No stream here: the kernels wait for the device, run on the default stream and finish.
      sparse_gpu::CastStorage(src, out, nullptr);
      return;
    }
#endif
    CastStorageAcrossDevices(src, out);  // other devices or a dtype change: on the host
    return;
  }
  const int sin = src.storage_type(), sout = out.storage_type();
  src.CheckSparseFormat(false);  // a malformed layout must not index out of bounds
  if (sin == kDefaultStorage && sout == kDefaultStorage) {
    TBlob dst = out.data();
    common::CastCopy(src.data(), kWriteTo, dst);
    return;
  }
  if (sin == sout) {  // same sparse layout: copy the parts (values converted)
    NDArray data = NewDense(src.sparse_data().shape(), out.dtype());
    if (data.Size()) {
      TBlob d = data.data();
      common::CastCopy(src.sparse_data().data(), kWriteTo, d);
    }
    std::vector<NDArray> aux;
    for (size_t i = 0; i < src.num_aux(); ++i) {
      aux.push_back(AuxFromInt64(SparseAuxAsInt64(src, i), out.aux_type(i)));
    }
    out.SetSparseParts(data, aux);
    return;
  }
  if (sout == kDefaultStorage) {
    if (src.dtype() == out.dtype()) {
      SparseToDense(src, out.data());
    } else {
      NDArray tmp = NewDense(src.shape(), src.dtype());
      SparseToDense(src, tmp.data());
      TBlob dst = out.data();
      common::CastCopy(tmp.data(), kWriteTo, dst);
    }
    return;
  }
  // -> sparse from dense or from the other sparse layout: through a dense array of out's dtype.
  NDArray dense = NewDense(src.shape(), out.dtype());
  CastStorageInto(src, dense);
  DenseToSparse(dense.data(), out);
}

NDArray HostCopyOf(const NDArray& a) {
  if (a.ctx().dev_mask() == cpu::kDevMask) return a;
  if (!a.is_sparse()) return CopyOn(a, Context::CPU());
  std::vector<int> aux_types;
  std::vector<TShape> aux_shapes;
  for (size_t i = 0; i < a.num_aux(); ++i) {
    aux_types.push_back(a.aux_type(i));
    aux_shapes.push_back(a.aux_shape(i));
  }
  NDArray host(a.storage_type(), a.shape(), Context::CPU(), a.dtype(), aux_types, aux_shapes);
  std::vector<NDArray> aux;
  for (size_t i = 0; i < a.num_aux(); ++i) aux.push_back(CopyOn(a.sparse_aux(i), Context::CPU()));
  host.SetSparseParts(CopyOn(a.sparse_data(), Context::CPU()), aux);
  return host;
}

void MoveSparseParts(const NDArray& host, const NDArray& out) {
  std::vector<NDArray> aux;
  for (size_t i = 0; i < host.num_aux(); ++i) aux.push_back(PartOn(host.sparse_aux(i), out.ctx()));
  out.SetSparseParts(PartOn(host.sparse_data(), out.ctx()), aux);
}

void CastStorageAcrossDevices(const NDArray& src, const NDArray& out) {
  const NDArray from = HostCopyOf(src);
  if (out.ctx().dev_mask() == cpu::kDevMask) {
    CastStorageInto(from, out);
    return;
  }
  if (!out.is_sparse()) {
    NDArray tmp(out.shape(), Context::CPU(), false, out.dtype());
    CastStorageInto(from, tmp);
    const size_t bytes = tmp.Size() * mshadow::mshadow_sizeof(out.dtype());
    if (bytes) {
      device_copy::CopyBytesSync(out.data().dptr_, out.ctx(), tmp.data().dptr_, Context::CPU(),
                                 bytes);
    }
    return;
  }
  std::vector<int> aux_types;
  for (size_t i = 0; i < out.num_aux(); ++i) aux_types.push_back(out.aux_type(i));
  NDArray tmp(out.storage_type(), out.shape(), Context::CPU(), out.dtype(), aux_types);
  CastStorageInto(from, tmp);
  MoveSparseParts(tmp, out);
}

}  // namespace mxnet
