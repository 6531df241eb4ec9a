/*!
 * \file dgl_graph.cu
 * \brief _contrib_edge_id (one thread per (u, v) query, scanning row u as the CPU does) and
 *        _contrib_getnnz (from indptr per row; per column with atomic counts) on the GPU.
 */
#include "./dgl_graph-inl.h"

#if MXNET_USE_CUDA
#include "../../ndarray/sparse_gpu.h"
#include "../mxnet_op.h"

namespace mxnet {
namespace op {

using mxnet_op::Kernel;

namespace {

struct edge_id_lookup {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* indptr, const int64_t* indices,
                                  const DType* ids, const int64_t* u, const int64_t* v,
                                  DType* out, int64_t rows, int req) {
    DType val = DType(-1);
    const int64_t r = u[i];
    if (ids != nullptr && r >= 0 && r < rows) {
      for (int64_t q = indptr[r]; q < indptr[r + 1]; ++q) {  // rows may be unsorted
        if (indices[q] == v[i]) {
          val = ids[q];
          break;
        }
      }
    }
    KERNEL_ASSIGN(out[i], req, val);
  }
};

struct nnz_total {
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* indptr, int64_t rows, int64_t* out,
                                  bool add) {
    out[0] = (add ? out[0] : 0) + indptr[rows];
  }
};

struct nnz_per_row {
  MSHADOW_XINLINE static void Map(index_t r, const int64_t* indptr, int64_t* out, bool add) {
    out[r] = (add ? out[r] : 0) + indptr[r + 1] - indptr[r];
  }
};

struct nnz_per_col {
  MSHADOW_XINLINE static void Map(index_t k, const int64_t* indices, int64_t* out, int64_t cols) {
    const int64_t c = indices[k];
#ifdef __CUDA_ARCH__
    if (c >= 0 && c < cols) {
      atomicAdd(reinterpret_cast<unsigned long long*>(out + c), 1ULL);  // NOLINT(runtime/int)
    }
#endif
  }
};

/*! \brief indptr as int64 on the device; an empty one (an all-zero array) as rows + 1 zeros. */
NDArray IndptrOf(const NDArray& csr, mshadow::Stream<gpu>* s) {
  const NDArray& a = csr.sparse_aux(0);
  if (a.Size() == 0) {
    NDArray z = sparse_gpu::NewOn(TShape(1, csr.shape()[0] + 1), csr.ctx(), mshadow::kInt64);
    CUDA_CALL(cudaMemsetAsync(z.data().dptr_, 0, z.Size() * sizeof(int64_t),
                              mshadow::Stream<gpu>::GetStream(s)));
    return z;
  }
  if (a.Size() != static_cast<size_t>(csr.shape()[0] + 1)) {
    MX_THROW(ValueError) << "csr NDArray of shape " << csr.shape() << ": indptr has " << a.Size()
                         << " entries, expected rows + 1 = " << csr.shape()[0] + 1;
  }
  return sparse_gpu::Int64On(a, s);
}

}  // namespace

void EdgeIdGPU(const OpContext& ctx, const NDArray& csr, const NDArray& u, const NDArray& v,
               OpReqType req, const NDArray& out) {
  if (req == kNullOp) return;
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const NDArray indptr = IndptrOf(csr, s);
  const NDArray indices = sparse_gpu::Int64On(csr.sparse_aux(1), s);
  const NDArray u64 = sparse_gpu::Int64On(u, s), v64 = sparse_gpu::Int64On(v, s);
  const NDArray& vals = csr.sparse_data();
  if (vals.Size() != indices.Size()) {
    MX_THROW(ValueError) << "csr NDArray: data has " << vals.Size() << " values but there are "
                         << indices.Size() << " indices";
  }
  const TBlob o = out.data();
  MSHADOW_TYPE_SWITCH(o.type_flag_, DType, {
    const DType* ids = vals.Size() ? vals.data().dptr<DType>() : nullptr;
    const int64_t* ind = indices.Size() ? indices.data().dptr<int64_t>() : nullptr;
    Kernel<edge_id_lookup, gpu>::Launch(s, o.Size(), indptr.data().dptr<int64_t>(), ind, ids,
                                        u64.data().dptr<int64_t>(), v64.data().dptr<int64_t>(),
                                        o.dptr<DType>(), static_cast<int64_t>(csr.shape()[0]),
                                        static_cast<int>(req));
  });
}

void GetnnzGPU(const OpContext& ctx, const NDArray& csr, int axis, OpReqType req,
               const NDArray& out) {
  if (req == kNullOp) return;
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const NDArray indptr = IndptrOf(csr, s);
  int64_t* o = out.data().dptr<int64_t>();
  const bool add = req == kAddTo;
  const int64_t rows = csr.shape()[0], cols = csr.shape()[1];
  if (axis == -100) {
    Kernel<nnz_total, gpu>::Launch(s, 1, indptr.data().dptr<int64_t>(), rows, o, add);
  } else if (axis == 1) {
    Kernel<nnz_per_row, gpu>::Launch(s, rows, indptr.data().dptr<int64_t>(), o, add);
  } else {
    if (!add && cols > 0) {
      CUDA_CALL(cudaMemsetAsync(o, 0, cols * sizeof(int64_t), mshadow::Stream<gpu>::GetStream(s)));
    }
    const NDArray indices = sparse_gpu::Int64On(csr.sparse_aux(1), s);
    if (indices.Size()) {
      Kernel<nnz_per_col, gpu>::Launch(s, indices.Size(), indices.data().dptr<int64_t>(), o,
                                       cols);
    }
  }
}

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
