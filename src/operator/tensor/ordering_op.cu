/*!
 * \file ordering_op.cu
 * \brief GPU kernels of topk, sort, argsort and _backward_topk: every row is sorted by one CUB
 *        segmented radix sort of (key, column) pairs, then the kept entries are written out.
 *
 * The order is the CPU's (SortRows): NaN is the largest value and ties keep the column order,
 * for ascending and descending sorts alike. Keys are doubles made so that one stable ascending
 * sort gives it: descending sorts negate the value; NaN becomes +NaN (above +inf) or, negated,
 * -NaN (below -inf); -0.0 becomes +0.0. Every dtype's values convert to doubles exactly except
 * int64 beyond 2^53, whose neighbours may then tie.
 */
#include <cub/device/device_segmented_radix_sort.cuh>

#include <climits>
#include <cmath>

#include "./broadcast_reduce_op-inl.h"
#include "./ordering_op-inl.h"

namespace mxnet {
namespace op {
namespace {

/*! \brief keys[r * n + j] = the sort key of row r's element j; cols[.] = j. */
struct sort_keys {
  template <typename DType>
  __device__ static void Map(index_t t, const DType* data, double* keys, int32_t* cols, index_t n,
                             index_t inner, bool ascend) {
    const index_t r = t / n, j = t % n;
    const index_t o = r / inner, i = r % inner;
    double v = static_cast<double>(data[(o * n + j) * inner + i]);
    if (isnan(v)) {
      keys[t] = ascend ? __longlong_as_double(0x7ff8000000000000LL)
                       : __longlong_as_double(static_cast<long long>(0xfff8000000000000ULL));
    } else {
      keys[t] = (ascend ? v : -v) + 0.0;  // + 0.0 turns -0.0 into +0.0
    }
    cols[t] = static_cast<int32_t>(j);
  }
};

struct row_offsets {
  MSHADOW_XINLINE static void Map(index_t r, int* offsets, index_t n) {
    offsets[r] = static_cast<int>(r * n);
  }
};

/*! \brief The input offset of kept entry pos (laid out (outer, k, inner)) and its column. */
MSHADOW_XINLINE index_t KeptSource(index_t pos, const int32_t* sorted, index_t n, index_t k,
                                   index_t inner, index_t* col) {
  const index_t i = pos % inner, j = (pos / inner) % k, o = pos / (k * inner);
  *col = sorted[(o * inner + i) * n + j];
  return (o * n + *col) * inner + i;
}

struct write_values {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t pos, const int32_t* sorted, const DType* x, DType* v,
                                  index_t n, index_t k, index_t inner, int req) {
    index_t col;
    KERNEL_ASSIGN(v[pos], req, x[KeptSource(pos, sorted, n, k, inner, &col)]);
  }
};

struct write_indices {
  template <typename IType>
  MSHADOW_XINLINE static void Map(index_t pos, const int32_t* sorted, IType* id, index_t n,
                                  index_t k, index_t inner, int req) {
    index_t col;
    KeptSource(pos, sorted, n, k, inner, &col);
    KERNEL_ASSIGN(id[pos], req, static_cast<IType>(col));
  }
};

struct write_mask {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t pos, const int32_t* sorted, DType* m, index_t n,
                                  index_t k, index_t inner, int req) {
    index_t col;
    const index_t off = KeptSource(pos, sorted, n, k, inner, &col);
    m[off] = req == kAddTo ? static_cast<DType>(m[off] + DType(1)) : DType(1);
  }
};

/*! \brief g[off(pos)] += og[pos]: the kept entries of a row are distinct, so no atomics. */
struct topk_grad {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t pos, const DType* og, const IType* id, DType* g,
                                  index_t n, index_t k, index_t inner) {
    const index_t i = pos % inner, o = pos / (k * inner);
    const index_t off = (o * n + static_cast<index_t>(id[pos])) * inner + i;
    g[off] = static_cast<DType>(g[off] + og[pos]);
  }
};

/*!
 * \brief The GPU sort of every row of `in` per spec s, then its kept entries written into the
 *        outputs asked for (the GPU form of SortOutputs).
 */
void SortOutputsGPU(mshadow::Stream<gpu>* s, const TBlob& in, const SortSpec& spec,
                    const TBlob* values, const TBlob* indices, const TBlob* mask,
                    const std::vector<OpReqType>& req) {
  const index_t rows = spec.outer * spec.inner, n = spec.n, k = spec.k, inner = spec.inner;
  const index_t total = rows * n, kept = rows * k;
  if (total > INT_MAX || rows > INT_MAX) {
    MX_THROW(ValueError) << "sort on the GPU: " << total << " elements in " << rows
                         << " rows exceed the 32-bit limit of one segmented sort";
  }
  const OpReqType mask_req = req[0];
  if (mask != nullptr && mask_req != kNullOp && mask_req != kAddTo) {
    MSHADOW_TYPE_SWITCH(mask->type_flag_, DType, {
      mxnet_op::Kernel<mxnet_op::set_zero, gpu>::Launch(s, mask->Size(), mask->dptr<DType>());
    });
  }
  if (total == 0 || kept == 0) return;
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  reduce_gpu::Scratch pairs(static_cast<size_t>(total) * 2 * (sizeof(double) + sizeof(int32_t)) +
                            (rows + 1) * sizeof(int));
  double* keys_in = pairs.get<double>();
  double* keys_out = keys_in + total;
  int32_t* cols_in = reinterpret_cast<int32_t*>(keys_out + total);
  int32_t* cols_out = cols_in + total;
  int* offsets = reinterpret_cast<int*>(cols_out + total);
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    mxnet_op::Kernel<sort_keys, gpu>::Launch(s, total, static_cast<const DType*>(in.dptr<DType>()),
                                             keys_in, cols_in, n, inner, spec.ascend);
  });
  mxnet_op::Kernel<row_offsets, gpu>::Launch(s, rows + 1, offsets, n);
  size_t temp_bytes = 0;
  CUDA_CALL(cub::DeviceSegmentedRadixSort::SortPairs(
      nullptr, temp_bytes, keys_in, keys_out, cols_in, cols_out, static_cast<int>(total),
      static_cast<int>(rows), offsets, offsets + 1, 0, static_cast<int>(sizeof(double) * 8),
      stream));
  reduce_gpu::Scratch temp(temp_bytes);
  CUDA_CALL(cub::DeviceSegmentedRadixSort::SortPairs(
      temp.get<void>(), temp_bytes, keys_in, keys_out, cols_in, cols_out,
      static_cast<int>(total), static_cast<int>(rows), offsets, offsets + 1, 0,
      static_cast<int>(sizeof(double) * 8), stream));
  if (values != nullptr && req[0] != kNullOp) {
    MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
      mxnet_op::Kernel<write_values, gpu>::Launch(
          s, kept, static_cast<const int32_t*>(cols_out),
          static_cast<const DType*>(in.dptr<DType>()), values->dptr<DType>(), n, k, inner,
          static_cast<int>(req[0]));
    });
  }
  if (indices != nullptr) {
    const OpReqType r = req[values != nullptr ? 1 : 0];
    if (r != kNullOp) {
      MSHADOW_TYPE_SWITCH(indices->type_flag_, IType, {
        mxnet_op::Kernel<write_indices, gpu>::Launch(s, kept, static_cast<const int32_t*>(cols_out),
                                                     indices->dptr<IType>(), n, k, inner,
                                                     static_cast<int>(r));
      });
    }
  }
  if (mask != nullptr && mask_req != kNullOp) {
    MSHADOW_TYPE_SWITCH(mask->type_flag_, DType, {
      mxnet_op::Kernel<write_mask, gpu>::Launch(s, kept, static_cast<const int32_t*>(cols_out),
                                                mask->dptr<DType>(), n, k, inner,
                                                static_cast<int>(mask_req));
    });
  }
}

void TopKComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const TopKParam& p = nnvm::get<TopKParam>(attrs.parsed);
  const SortSpec s = MakeSortSpec("topk", inputs[0].shape_, p.axis, p.k, p.is_ascend);
  mshadow::Stream<gpu>* st = ctx.get_stream<gpu>();
  switch (p.ret_typ) {
    case topk_enum::kReturnIndices:
      SortOutputsGPU(st, inputs[0], s, nullptr, &outputs[0], nullptr, req);
      break;
    case topk_enum::kReturnMask:
      SortOutputsGPU(st, inputs[0], s, nullptr, nullptr, &outputs[0], req);
      break;
    default:
      SortOutputsGPU(st, inputs[0], s, &outputs[0], &outputs[1], nullptr, req);
      break;
  }
}

/*! \brief inputs: ograd of the values, values, indices; output: grad of data. */
void TopKBackwardGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TopKParam& p = nnvm::get<TopKParam>(attrs.parsed);
  const TBlob& igrad = outputs[0];
  const TBlob& idx = inputs[2];
  SortSpec s = MakeSortSpec("topk", igrad.shape_, p.axis, 0, p.is_ascend);
  const index_t rows = s.outer * s.inner;
  s.k = rows == 0 ? 0 : static_cast<index_t>(idx.Size()) / rows;
  mshadow::Stream<gpu>* st = ctx.get_stream<gpu>();
  MSHADOW_TYPE_SWITCH(igrad.type_flag_, DType, {
    if (req[0] != kAddTo) {
      mxnet_op::Kernel<mxnet_op::set_zero, gpu>::Launch(st, igrad.Size(), igrad.dptr<DType>());
    }
    MSHADOW_TYPE_SWITCH(idx.type_flag_, IType, {
      mxnet_op::Kernel<topk_grad, gpu>::Launch(
          st, rows * s.k, static_cast<const DType*>(inputs[0].dptr<DType>()),
          static_cast<const IType*>(idx.dptr<IType>()), igrad.dptr<DType>(), s.n, s.k, s.inner);
    });
  });
}

void SortComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const SortParam& p = nnvm::get<SortParam>(attrs.parsed);
  const SortSpec s = MakeSortSpec("sort", inputs[0].shape_, p.axis, 0, p.is_ascend);
  SortOutputsGPU(ctx.get_stream<gpu>(), inputs[0], s, &outputs[0], &outputs[1], nullptr, req);
}

void ArgSortComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const ArgSortParam& p = nnvm::get<ArgSortParam>(attrs.parsed);
  const SortSpec s = MakeSortSpec("argsort", inputs[0].shape_, p.axis, 0, p.is_ascend);
  SortOutputsGPU(ctx.get_stream<gpu>(), inputs[0], s, nullptr, &outputs[0], nullptr, req);
}

}  // namespace

NNVM_REGISTER_OP(topk).set_attr<FCompute>("FCompute<gpu>", TopKComputeGPU);
NNVM_REGISTER_OP(_backward_topk).set_attr<FCompute>("FCompute<gpu>", TopKBackwardGPU);
NNVM_REGISTER_OP(sort).set_attr<FCompute>("FCompute<gpu>", SortComputeGPU);
NNVM_REGISTER_OP(argsort).set_attr<FCompute>("FCompute<gpu>", ArgSortComputeGPU);

}  // namespace op
}  // namespace mxnet
