/*!
 * \file sparse_ndarray.cu
 * \brief GPU storage casts of sparse NDArrays (sparse_gpu.h): element-parallel scatters and
 *        gathers, and for dense -> csr / row_sparse a count per row, a CUB prefix sum and the
 *        total read by the host to allocate the parts. Indices are handled as int64 on the
 *        device and converted to the destination's aux dtypes at the end.
 */
#include "./sparse_gpu.h"

#if MXNET_USE_CUDA
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <vector>

#include "../common/cuda_launch.h"
#include "../common/cuda_utils.h"

namespace mxnet {
namespace sparse_gpu {

namespace {

// The shared launcher (common/cuda_launch.h), in the form the scatters below call it.
template <typename OP>
struct Kernel {
  template <typename... Args>
  static void Launch(mshadow::Stream<gpu>* s, index_t n, Args... args) {
    common::cuda::LaunchMap<OP>(mshadow::Stream<gpu>::GetStream(s), n, args...);
  }
};

struct aux_to_int64 {
  template <typename IType>
  MSHADOW_XINLINE static void Map(index_t i, const IType* in, int64_t* out) {
    out[i] = static_cast<int64_t>(in[i]);
  }
};

struct int64_to_aux {
  template <typename IType>
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* in, IType* out) {
    out[i] = static_cast<IType>(in[i]);
  }
};

/*! \brief csr -> dense, one thread per stored value (its row found in indptr). */
struct csr_scatter {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t k, const int64_t* indptr, const int64_t* indices,
                                  const DType* vals, DType* out, int64_t nrow, int64_t ncol) {
    int64_t lo = 0, hi = nrow;  // last row r with indptr[r] <= k
    while (hi - lo > 1) {
      const int64_t mid = (lo + hi) / 2;
      if (indptr[mid] <= k) lo = mid; else hi = mid;
    }
    const int64_t c = indices[k];
    if (c >= 0 && c < ncol) out[lo * ncol + c] = vals[k];
  }
};

/*! \brief row_sparse -> dense, one thread per stored element. */
struct rsp_scatter {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* rows, const DType* vals, DType* out,
                                  int64_t row_len, int64_t nrow) {
    const int64_t r = rows[i / row_len];
    if (r >= 0 && r < nrow) out[r * row_len + i % row_len] = vals[i];
  }
};

/*! \brief Non-zeros of each row of a dense (nrow, ncol) matrix. */
struct count_row_nnz {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, const DType* in, int64_t* cnt, int64_t ncol) {
    int64_t n = 0;
    for (int64_t c = 0; c < ncol; ++c) n += (in[r * ncol + c] != DType(0)) ? 1 : 0;
    cnt[r] = n;
  }
};

/*! \brief 1 for a row with a non-zero, else 0. */
struct flag_nonzero_row {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, const DType* in, int64_t* flag, int64_t row_len) {
    int64_t f = 0;
    for (int64_t j = 0; j < row_len && !f; ++j) f = (in[r * row_len + j] != DType(0)) ? 1 : 0;
    flag[r] = f;
  }
};

/*! \brief dense -> csr: row r writes its non-zeros from indptr[r] on. */
struct fill_csr {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, const DType* in, const int64_t* indptr,
                                  int64_t* indices, DType* vals, int64_t ncol) {
    int64_t k = indptr[r];
    for (int64_t c = 0; c < ncol; ++c) {
      const DType x = in[r * ncol + c];
      if (x != DType(0)) {
        indices[k] = c;
        vals[k] = x;
        ++k;
      }
    }
  }
};

/*! \brief dense -> row_sparse: a kept row r gets slot pos[r]. */
struct fill_rsp_rows {
  MSHADOW_XINLINE static void Map(index_t r, const int64_t* flag, const int64_t* pos,
                                  int64_t* rows) {
    if (flag[r]) rows[pos[r]] = r;
  }
};

struct gather_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* rows, const DType* in, DType* out,
                                  int64_t row_len) {
    out[i] = in[rows[i / row_len] * row_len + i % row_len];
  }
};

/*!
 * \brief With no engine stream (s == nullptr), wait for the default stream before scratch
 *        arrays go back to the pool: an engine function on the device's stream may take them.
 */
void WaitIfNoStream(mshadow::Stream<gpu>* s) {
  if (s == nullptr) CUDA_CALL(cudaStreamSynchronize(nullptr));
}

/*! \brief The stream to queue on, and the waits a null stream calls for. */
class StreamScope {
 public:
  StreamScope(mshadow::Stream<gpu>* s, Context ctx) : s_(s), guard_(ctx.dev_id) {
    if (s_ == nullptr) CUDA_CALL(cudaDeviceSynchronize());
  }
  ~StreamScope() {
    if (s_ == nullptr) cudaStreamSynchronize(nullptr);
  }
  cudaStream_t stream() const { return mshadow::Stream<gpu>::GetStream(s_); }

 private:
  mshadow::Stream<gpu>* s_;
  common::cuda::DeviceGuard guard_;
};

/*! \brief `a` (int64 on the device) as an array of aux dtype `dtype`. */
NDArray AuxAs(const NDArray& a, int dtype, mshadow::Stream<gpu>* s) {
  if (a.dtype() == dtype) return a;
  NDArray out = NewOn(a.shape(), a.ctx(), dtype);
  MSHADOW_IDX_TYPE_SWITCH(dtype, IType, {
    Kernel<int64_to_aux>::Launch(s, a.Size(), a.data().dptr<int64_t>(),
                                      out.data().dptr<IType>());
  });
  return out;
}

void SparseToDense(const NDArray& src, const TBlob& dst, mshadow::Stream<gpu>* s) {
  const size_t total = dst.Size();
  if (total == 0) return;
  CUDA_CALL(cudaMemsetAsync(dst.dptr_, 0, total * mshadow::mshadow_sizeof(dst.type_flag_),
                            mshadow::Stream<gpu>::GetStream(s)));
  const NDArray& data = src.sparse_data();
  if (data.Size() == 0) return;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(dst.type_flag_, DType, {
    const DType* v = data.data().dptr<DType>();
    DType* out = dst.dptr<DType>();
    const int64_t nrow = src.shape()[0];
    if (src.storage_type() == kCSRStorage) {
      if (src.sparse_aux(0).Size() != static_cast<size_t>(nrow + 1)) {
        MX_THROW(ValueError) << "csr NDArray of shape " << src.shape() << ": indptr has "
                             << src.sparse_aux(0).Size() << " entries, expected " << nrow + 1;
      }
      const NDArray indptr = Int64On(src.sparse_aux(0), s);
      const NDArray indices = Int64On(src.sparse_aux(1), s);
      const int64_t nnz = std::min<int64_t>(indices.Size(), data.Size());
      Kernel<csr_scatter>::Launch(s, nnz, indptr.data().dptr<int64_t>(),
                                       indices.data().dptr<int64_t>(), v, out, nrow,
                                       static_cast<int64_t>(src.shape()[1]));
      WaitIfNoStream(s);  // before the int64 copies of the aux arrays are freed
    } else {
      const NDArray rows = Int64On(src.sparse_aux(0), s);
      const int64_t row_len = static_cast<int64_t>(total / nrow);
      const int64_t n = std::min<int64_t>(rows.Size() * row_len, data.Size());
      Kernel<rsp_scatter>::Launch(s, n, rows.data().dptr<int64_t>(), v, out, row_len,
                                       nrow);
      WaitIfNoStream(s);
    }
  });
}

void DenseToSparse(const TBlob& src, const NDArray& out, mshadow::Stream<gpu>* s) {
  const TShape& shape = out.shape();
  const Context ctx = out.ctx();
  const int64_t nrow = shape[0];
  const int64_t row_len = nrow == 0 ? 0 : static_cast<int64_t>(shape.Size() / nrow);
  NDArray counts = NewOn(TShape(1, nrow + 1), ctx, mshadow::kInt64);
  NDArray pos = NewOn(TShape(1, nrow + 1), ctx, mshadow::kInt64);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(src.type_flag_, DType, {
    const DType* in = src.dptr<DType>();
    int64_t* cnt = counts.data().dptr<int64_t>();
    int64_t* p = pos.data().dptr<int64_t>();
    if (out.storage_type() == kCSRStorage) {
      Kernel<count_row_nnz>::Launch(s, nrow, in, cnt, row_len);
      ExclusiveScan(cnt, p, nrow, ctx, s);
      const int64_t nnz = ReadInt64(p + nrow, s);
      NDArray data = NewOn(TShape(1, nnz), ctx, src.type_flag_);
      NDArray indices = NewOn(TShape(1, nnz), ctx, mshadow::kInt64);
      if (nnz > 0) {
        Kernel<fill_csr>::Launch(s, nrow, in, static_cast<const int64_t*>(p),
                                      indices.data().dptr<int64_t>(), data.data().dptr<DType>(),
                                      row_len);
      }
      out.SetSparseParts(data, {AuxAs(pos, out.aux_type(0), s),
                                AuxAs(indices, out.aux_type(1), s)});
      WaitIfNoStream(s);  // before the scratch arrays are freed
    } else {
      Kernel<flag_nonzero_row>::Launch(s, nrow, in, cnt, row_len);
      ExclusiveScan(cnt, p, nrow, ctx, s);
      const int64_t kept = ReadInt64(p + nrow, s);
      TShape sshape = shape;
      sshape[0] = kept;
      NDArray data = NewOn(sshape, ctx, src.type_flag_);
      NDArray rows = NewOn(TShape(1, kept), ctx, mshadow::kInt64);
      if (kept > 0) {
        Kernel<fill_rsp_rows>::Launch(s, nrow, static_cast<const int64_t*>(cnt),
                                           static_cast<const int64_t*>(p),
                                           rows.data().dptr<int64_t>());
        Kernel<gather_rows>::Launch(s, kept * row_len,
                                         static_cast<const int64_t*>(rows.data().dptr<int64_t>()),
                                         in, data.data().dptr<DType>(), row_len);
      }
      out.SetSparseParts(data, {AuxAs(rows, out.aux_type(0), s)});
      WaitIfNoStream(s);
    }
  });
}

}  // namespace

NDArray Int64On(const NDArray& a, mshadow::Stream<gpu>* s) {
  if (a.dtype() == mshadow::kInt64) return a;
  NDArray out = NewOn(a.shape(), a.ctx(), mshadow::kInt64);
  MSHADOW_TYPE_SWITCH(a.dtype(), IType, {
    Kernel<aux_to_int64>::Launch(s, a.Size(), a.data().dptr<IType>(),
                                      out.data().dptr<int64_t>());
  });
  return out;
}

void ExclusiveScan(const int64_t* in, int64_t* out, int64_t n, Context ctx,
                   mshadow::Stream<gpu>* s) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  CUDA_CALL(cudaMemsetAsync(out, 0, sizeof(int64_t), stream));
  if (n <= 0) return;
  size_t temp_bytes = 0;
  CUDA_CALL(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, in, out + 1, n, stream));
  NDArray temp = NewOn(TShape(1, static_cast<int64_t>(temp_bytes)), ctx, mshadow::kUint8);
  CUDA_CALL(cub::DeviceScan::InclusiveSum(temp.data().dptr_, temp_bytes, in, out + 1, n,
                                          stream));
  WaitIfNoStream(s);  // before temp is freed
}

int64_t ReadInt64(const int64_t* p, mshadow::Stream<gpu>* s) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  int64_t v = 0;
  CUDA_CALL(cudaMemcpyAsync(&v, p, sizeof(v), cudaMemcpyDeviceToHost, stream));
  CUDA_CALL(cudaStreamSynchronize(stream));
  return v;
}

void CastStorage(const NDArray& src, const NDArray& out, mshadow::Stream<gpu>* s) {
  CHECK(src.dtype() == out.dtype()) << "sparse_gpu::CastStorage: a dtype change is a bug here";
  StreamScope scope(s, out.ctx());
  const int sin = src.storage_type(), sout = out.storage_type();
  const size_t elem = mshadow::mshadow_sizeof(src.dtype());
  if (sin == kDefaultStorage && sout == kDefaultStorage) {
    const size_t bytes = src.shape().Size() * elem;
    if (bytes) {
      CUDA_CALL(cudaMemcpyAsync(out.data().dptr_, src.data().dptr_, bytes,
                                cudaMemcpyDeviceToDevice, scope.stream()));
    }
    return;
  }
  if (sin == sout) {  // same layout: copies of the parts (aux converted to out's aux dtypes)
    const NDArray& d = src.sparse_data();
    NDArray data = NewOn(d.shape(), out.ctx(), out.dtype());
    if (d.Size()) {
      CUDA_CALL(cudaMemcpyAsync(data.data().dptr_, d.data().dptr_, d.Size() * elem,
                                cudaMemcpyDeviceToDevice, scope.stream()));
    }
    std::vector<NDArray> aux;
    for (size_t i = 0; i < src.num_aux(); ++i) {
      const NDArray a = Int64On(src.sparse_aux(i), s);
      NDArray copy = NewOn(a.shape(), out.ctx(), mshadow::kInt64);
      if (a.Size()) {
        CUDA_CALL(cudaMemcpyAsync(copy.data().dptr_, a.data().dptr_, a.Size() * sizeof(int64_t),
                                  cudaMemcpyDeviceToDevice, scope.stream()));
      }
      aux.push_back(AuxAs(copy, out.aux_type(i), s));
      WaitIfNoStream(s);  // before the int64 copies are freed
    }
    out.SetSparseParts(data, aux);
    return;
  }
  if (sout == kDefaultStorage) {
    SparseToDense(src, out.data(), s);
    return;
  }
  if (sin == kDefaultStorage) {
    DenseToSparse(src.data(), out, s);
    return;
  }
  // csr <-> row_sparse: through a dense array on the device.
  NDArray dense = NewOn(src.shape(), out.ctx(), out.dtype());
  SparseToDense(src, dense.data(), s);
  DenseToSparse(dense.data(), out, s);  // waits before returning when s is null
}

}  // namespace sparse_gpu
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
