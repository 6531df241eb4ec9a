/*!
 * \file sparse_ops.cu
 * \brief cast_storage and _sparse_retain on the GPU. cast_storage runs the storage-cast kernels
 *        of sparse_ndarray.cu (a dense cast is a copy); _sparse_retain sorts and de-duplicates
 *        the requested ids with CUB, checks their range on the host (the count is needed there
 *        to allocate the output anyway) and fills each kept row by a binary search in the
 *        input's stored rows, one thread per output element.
 */
#if MXNET_USE_CUDA
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <vector>

#include "../../ndarray/sparse_gpu.h"
#include "../mxnet_op.h"
#include "./sparse_ops-inl.h"

namespace mxnet {
namespace op {

using mxnet_op::Kernel;

namespace {

struct copy_req {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* in, DType* out, int req) {
    KERNEL_ASSIGN(out[i], req, in[i]);
  }
};

void CastStorageComputeExGPU(const nnvm::NodeAttrs&, const OpContext& ctx,
                             const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                             const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  sparse_gpu::CastStorage(in[0], out[0], ctx.get_stream<gpu>());
}

void CastStorageComputeGPU(const nnvm::NodeAttrs&, const OpContext& ctx,
                           const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& out) {
  if (req[0] == kNullOp || in[0].dptr_ == out[0].dptr_) return;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out[0].type_flag_, DType, {
    Kernel<copy_req, gpu>::Launch(ctx.get_stream<gpu>(), out[0].Size(), in[0].dptr<DType>(),
                                  out[0].dptr<DType>(), static_cast<int>(req[0]));
  });
}

struct ids_to_int64 {
  template <typename IType>
  MSHADOW_XINLINE static void Map(index_t i, const IType* in, int64_t* out) {
    out[i] = static_cast<int64_t>(in[i]);
  }
};

/*!
 * \brief The requested row ids (any dtype, on the device) sorted and unique, as int64 on the
 *        device; throws IndexError for an id outside [0, rows), as the CPU kernel does.
 */
NDArray RetainIdsGPU(const TBlob& idx, Context ctx, int64_t rows, mshadow::Stream<gpu>* s) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  const int64_t n = static_cast<int64_t>(idx.Size());
  if (n == 0) return sparse_gpu::NewOn(TShape(1, 0), ctx, mshadow::kInt64);
  NDArray ids = sparse_gpu::NewOn(TShape(1, n), ctx, mshadow::kInt64);
  MSHADOW_TYPE_SWITCH(idx.type_flag_, IType, {
    Kernel<ids_to_int64, gpu>::Launch(s, n, idx.dptr<IType>(), ids.data().dptr<int64_t>());
  });
  NDArray sorted = sparse_gpu::NewOn(TShape(1, n), ctx, mshadow::kInt64);
  NDArray unique = sparse_gpu::NewOn(TShape(1, n), ctx, mshadow::kInt64);
  NDArray count = sparse_gpu::NewOn(TShape(1, 1), ctx, mshadow::kInt64);
  const int64_t* keys = ids.data().dptr<int64_t>();
  int64_t* srt = sorted.data().dptr<int64_t>();
  int64_t* uni = unique.data().dptr<int64_t>();
  int64_t* cnt = count.data().dptr<int64_t>();
  size_t sort_bytes = 0, unique_bytes = 0;
  CUDA_CALL(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, keys, srt, n, 0, 64, stream));
  CUDA_CALL(cub::DeviceSelect::Unique(nullptr, unique_bytes, srt, uni, cnt, n, stream));
  NDArray temp = sparse_gpu::NewOn(
      TShape(1, static_cast<int64_t>(std::max(sort_bytes, unique_bytes))), ctx, mshadow::kUint8);
  CUDA_CALL(cub::DeviceRadixSort::SortKeys(temp.data().dptr_, sort_bytes, keys, srt, n, 0, 64,
                                           stream));
  CUDA_CALL(cub::DeviceSelect::Unique(temp.data().dptr_, unique_bytes, srt, uni, cnt, n,
                                      stream));
  const int64_t kept = sparse_gpu::ReadInt64(cnt, s);
  const int64_t lo = sparse_gpu::ReadInt64(uni, s);
  const int64_t hi = sparse_gpu::ReadInt64(uni + kept - 1, s);
  for (int64_t r : {lo, hi}) {
    if (r < 0 || r >= rows) {
      MX_THROW(IndexError) << "_sparse_retain: row index " << r << " is out of range [0, " << rows
                           << ")";
    }
  }
  TShape shape(1, kept);
  return unique.AsArray(shape, mshadow::kInt64);
}

/*! \brief Output element i of the kept rows: the input's stored row, found by binary search. */
struct retain_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* ids, const int64_t* have,
                                  int64_t n_have, const DType* vals, DType* out,
                                  int64_t row_len) {
    const int64_t k = i / row_len, j = i % row_len;
    const int64_t id = ids[k];
    int64_t lo = 0, hi = n_have;  // first position with have[pos] >= id
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      if (have[mid] < id) lo = mid + 1; else hi = mid;
    }
    out[i] = (lo < n_have && have[lo] == id) ? vals[lo * row_len + j] : DType(0);
  }
};

void RetainComputeExGPU(const nnvm::NodeAttrs&, const OpContext& ctx,
                        const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                        const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const NDArray& src = in[0];
  const NDArray ids = RetainIdsGPU(in[1].data(), src.ctx(), src.shape()[0], s);
  const NDArray have = sparse_gpu::Int64On(src.sparse_aux(0), s);
  const int64_t row_len = RowLength(src.shape());
  const int64_t kept = static_cast<int64_t>(ids.Size());
  const int64_t n_have = static_cast<int64_t>(have.Size());
  if (src.sparse_data().Size() != static_cast<size_t>(n_have * row_len)) {
    MX_THROW(ValueError) << "row_sparse NDArray of shape " << src.shape() << ": data shape "
                         << src.sparse_data().shape() << " does not match " << n_have
                         << " indices";
  }
  TShape sshape = src.shape();
  sshape[0] = kept;
  NDArray data = sparse_gpu::NewOn(sshape, src.ctx(), src.dtype());
  MSHADOW_TYPE_SWITCH_WITH_BOOL(src.dtype(), DType, {
    const DType* vals = n_have ? src.sparse_data().data().dptr<DType>() : nullptr;
    const int64_t* hv = n_have ? have.data().dptr<int64_t>() : nullptr;
    const int64_t* iv = kept ? ids.data().dptr<int64_t>() : nullptr;
    Kernel<retain_rows, gpu>::Launch(s, kept * row_len, iv, hv, n_have, vals,
                                     kept ? data.data().dptr<DType>() : nullptr, row_len);
  });
  out[0].SetSparseParts(data, {ids});
}

struct mark_rows {
  MSHADOW_XINLINE static void Map(index_t k, const int64_t* ids, int64_t* keep) {
    keep[ids[k]] = 1;
  }
};

struct keep_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* keep, const DType* in, DType* out,
                                  int64_t row_len) {
    out[i] = keep[i / row_len] ? in[i] : DType(0);
  }
};

// Dense input: rows not listed become zero.
void RetainComputeGPU(const nnvm::NodeAttrs&, const OpContext& ctx, const std::vector<TBlob>& in,
                      const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
  if (req[0] == kNullOp) return;
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const Context dev = ctx.run_ctx.ctx;
  const int64_t rows = in[0].shape_[0];
  const NDArray ids = RetainIdsGPU(in[1], dev, rows, s);
  NDArray keep = sparse_gpu::NewOn(TShape(1, std::max<int64_t>(rows, 1)), dev, mshadow::kInt64);
  CUDA_CALL(cudaMemsetAsync(keep.data().dptr_, 0, keep.Size() * sizeof(int64_t),
                            mshadow::Stream<gpu>::GetStream(s)));
  if (ids.Size()) {
    Kernel<mark_rows, gpu>::Launch(s, ids.Size(), ids.data().dptr<int64_t>(),
                                   keep.data().dptr<int64_t>());
  }
  const int64_t row_len = RowLength(in[0].shape_);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in[0].type_flag_, DType, {
    Kernel<keep_rows, gpu>::Launch(s, in[0].Size(), keep.data().dptr<int64_t>(),
                                   in[0].dptr<DType>(), out[0].dptr<DType>(), row_len);
  });
}

}  // namespace

NNVM_REGISTER_OP(cast_storage)
.set_attr<FComputeEx>("FComputeEx<gpu>", CastStorageComputeExGPU)
.set_attr<FCompute>("FCompute<gpu>", CastStorageComputeGPU);

NNVM_REGISTER_OP(_sparse_retain)
.set_attr<FComputeEx>("FComputeEx<gpu>", RetainComputeExGPU)
.set_attr<FCompute>("FCompute<gpu>", RetainComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
