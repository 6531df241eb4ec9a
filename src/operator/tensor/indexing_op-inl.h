/*!
 * \file indexing_op-inl.h
 * \brief Indexing ops: take, batch_take, Embedding, one_hot, gather_nd, scatter_nd.
 *        Parameters, index conversion rules and CPU kernels.
 *
 * Indices arrive in any dtype (usually float32, as MXNet 1.x code passes them); they are
 * truncated to integers, then clipped / wrapped / checked per the op's mode.
 */
#ifndef MXNET_OPERATOR_TENSOR_INDEXING_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_INDEXING_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

namespace take_ {
enum TakeOpMode { kRaise, kWrap, kClip };
}  // namespace take_

/*! \brief add_enum for every dtype an MXNet "dtype" parameter of these ops accepts. */
#define MXNET_ADD_ALL_TYPES_NO_BOOL                 \
  .add_enum("float32", mshadow::kFloat32)           \
      .add_enum("float64", mshadow::kFloat64)       \
      .add_enum("float16", mshadow::kFloat16)       \
      .add_enum("bfloat16", mshadow::kBfloat16)     \
      .add_enum("uint8", mshadow::kUint8)           \
      .add_enum("int8", mshadow::kInt8)             \
      .add_enum("int32", mshadow::kInt32)           \
      .add_enum("int64", mshadow::kInt64)

struct TakeParam : public dmlc::Parameter<TakeParam> {
  int axis;
  int mode;
  DMLC_DECLARE_PARAMETER(TakeParam) {
    DMLC_DECLARE_FIELD(axis).set_default(0).describe(
        "The axis of input array to be taken."
        "For input tensor of rank r, it could be in the range of [-r, r-1]");
    DMLC_DECLARE_FIELD(mode)
        .add_enum("raise", take_::kRaise)
        .add_enum("wrap", take_::kWrap)
        .add_enum("clip", take_::kClip)
        .set_default(take_::kClip)
        .describe("Specify how out-of-bound indices bahave. Default is \"clip\"."
                  " \"clip\" means clip to the range. So, if all indices mentioned are too large,"
                  " they are replaced by the index that addresses the last element along an axis."
                  " \"wrap\" means to wrap around."
                  " \"raise\" means to raise an error when index out of range.");
  }
};

struct EmbeddingParam : public dmlc::Parameter<EmbeddingParam> {
  int input_dim;
  int output_dim;
  int dtype;
  bool sparse_grad;
  DMLC_DECLARE_PARAMETER(EmbeddingParam) {
    DMLC_DECLARE_FIELD(input_dim).set_lower_bound(1).describe(
        "Vocabulary size of the input indices.");
    DMLC_DECLARE_FIELD(output_dim).set_lower_bound(1).describe(
        "Dimension of the embedding vectors.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(mshadow::kFloat32) MXNET_ADD_ALL_TYPES_NO_BOOL
        .describe("Data type of weight.");
    DMLC_DECLARE_FIELD(sparse_grad).set_default(false).describe(
        "Compute row sparse gradient in the backward calculation. If set to True, "
        "the grad's storage type is row_sparse.");
  }
};

struct OneHotParam : public dmlc::Parameter<OneHotParam> {
  int depth;
  double on_value;
  double off_value;
  int dtype;
  DMLC_DECLARE_PARAMETER(OneHotParam) {
    DMLC_DECLARE_FIELD(depth).describe("Depth of the one hot dimension.");
    DMLC_DECLARE_FIELD(on_value).set_default(1.0).describe(
        "The value assigned to the locations represented by indices.");
    DMLC_DECLARE_FIELD(off_value).set_default(0.0).describe(
        "The value assigned to the locations not represented by indices.");
    DMLC_DECLARE_FIELD(dtype)
        .set_default(mshadow::kFloat32) MXNET_ADD_ALL_TYPES_NO_BOOL
        .describe("DType of the output");
  }
};

struct ScatterNDParam : public dmlc::Parameter<ScatterNDParam> {
  mxnet::TShape shape;
  DMLC_DECLARE_PARAMETER(ScatterNDParam) {
    DMLC_DECLARE_FIELD(shape).describe("Shape of output.");
  }
};

/*! \brief An index value along an axis of length k after take's mode rule. */
template <typename IType>
inline index_t TakeIndex(IType v, index_t k, int mode, const char* op) {
  index_t j = static_cast<index_t>(v);
  if (mode == take_::kWrap) {
    j %= k;
    if (j < 0) j += k;
  } else if (mode == take_::kClip) {
    j = j < 0 ? 0 : (j >= k ? k - 1 : j);
  } else if (j < -k || j >= k) {
    MX_THROW(IndexError) << op << ": index " << j << " is out of bounds for an axis of size "
                         << k << " (mode='raise')";
  } else if (j < 0) {
    j += k;
  }
  return j;
}

/*! \brief The row of each of the M indices after take's mode rule (raises before any write). */
template <typename IType>
std::vector<index_t> TakeRowIndices(const IType* idx, index_t M, index_t k, int mode,
                                    const char* op) {
  std::vector<index_t> rows(M);
  for (index_t m = 0; m < M; ++m) rows[m] = TakeIndex(idx[m], k, mode, op);
  return rows;
}

/*! \brief out[o, m, :] (req) a[o, rows[m], :] with a viewed as (outer, k, inner). */
template <typename DType>
void TakeRowsAt(const DType* a, const std::vector<index_t>& rows, DType* out, index_t outer,
                index_t k, index_t inner, OpReqType req) {
  const index_t M = static_cast<index_t>(rows.size());
  const index_t n = outer * M;
  const int nthreads = n * inner >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (index_t t = 0; t < n; ++t) {
    const index_t o = t / M, m = t % M;
    const DType* src = a + (o * k + rows[m]) * inner;
    DType* dst = out + t * inner;
    if (req == kAddTo) {
      for (index_t i = 0; i < inner; ++i) dst[i] += src[i];
    } else {
      std::memcpy(dst, src, inner * sizeof(DType));
    }
  }
}

/*!
 * \brief out[o, m, :] = a[o, idx(m), :] with a viewed as (outer, k, inner) and the indices
 *        flattened to m in [0, M). Only the index conversion depends on the index dtype.
 */
template <typename DType, typename IType>
void TakeRows(const DType* a, const IType* idx, DType* out, index_t outer, index_t k,
              index_t inner, index_t M, int mode, OpReqType req, const char* op) {
  if (req == kNullOp) return;
  TakeRowsAt(a, TakeRowIndices(idx, M, k, mode, op), out, outer, k, inner, req);
}

/*! \brief grad[o, rows[m], :] += ograd[o, m, :], grad zeroed first unless req is kAddTo. */
template <typename DType>
void TakeRowsGradAt(const DType* ograd, const std::vector<index_t>& rows, DType* grad,
                    index_t outer, index_t k, index_t inner, OpReqType req) {
  const index_t M = static_cast<index_t>(rows.size());
  if (req != kAddTo) std::fill(grad, grad + outer * k * inner, DType(0));
  const int nthreads =
      outer * M * inner >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;
  if (outer >= nthreads) {
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
    for (index_t o = 0; o < outer; ++o) {
      for (index_t m = 0; m < M; ++m) {
        const DType* src = ograd + (o * M + m) * inner;
        DType* dst = grad + (o * k + rows[m]) * inner;
        for (index_t i = 0; i < inner; ++i) dst[i] += src[i];
      }
    }
    return;
  }
  const index_t chunk = std::max<index_t>(16, (inner + nthreads - 1) / nthreads);
  const index_t nchunks = (inner + chunk - 1) / chunk;
  for (index_t o = 0; o < outer; ++o) {
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
    for (index_t c = 0; c < nchunks; ++c) {
      const index_t i0 = c * chunk, i1 = std::min(inner, i0 + chunk);
      for (index_t m = 0; m < M; ++m) {
        const DType* src = ograd + (o * M + m) * inner;
        DType* dst = grad + (o * k + rows[m]) * inner;
        for (index_t i = i0; i < i1; ++i) dst[i] += src[i];
      }
    }
  }
}

/*!
 * \brief The gradient of TakeRows: grad[o, idx(m), :] += ograd[o, m, :] (grad zeroed first
 *        unless req is kAddTo). Parallel over outer rows or over column chunks, never over m
 *        (repeated indices accumulate into the same row).
 */
template <typename DType, typename IType>
void TakeRowsGrad(const DType* ograd, const IType* idx, DType* grad, index_t outer, index_t k,
                  index_t inner, index_t M, int mode, OpReqType req, const char* op) {
  if (req == kNullOp) return;
  TakeRowsGradAt(ograd, TakeRowIndices(idx, M, k, mode, op), grad, outer, k, inner, req);
}

/*!
 * \brief Element offsets of gather_nd / scatter_nd: for y in [0, N), the offset into an array
 *        of shape dshape addressed by indices[:, y] (M leading dims; negative indices wrap,
 *        out-of-range ones raise IndexError). The trailing dims form rows of length K.
 */
template <typename IType>
std::vector<index_t> NDIndexOffsets(const IType* indices, index_t M, index_t N,
                                    const mxnet::TShape& dshape, const char* op) {
  std::vector<index_t> strides(M);
  index_t s = 1;
  for (int i = dshape.ndim() - 1; i >= 0; --i) {
    if (i < M) strides[i] = s;
    s *= dshape[i];
  }
  std::vector<index_t> off(N, 0);
  for (index_t y = 0; y < N; ++y) {
    index_t o = 0;
    for (index_t j = 0; j < M; ++j) {
      index_t v = static_cast<index_t>(indices[j * N + y]);
      const index_t len = dshape[j];
      if (v < -len || v >= len) {
        MX_THROW(IndexError) << op << ": index " << v << " is out of bounds for dimension " << j
                             << " of size " << len << " (data shape " << dshape << ")";
      }
      if (v < 0) v += len;
      o += v * strides[j];
    }
    off[y] = o;
  }
  return off;
}

/*! \brief gather_nd / scatter_nd: M indexed dims, N index tuples, K elements per row. */
inline void NDSplit(const mxnet::TShape& dshape, const mxnet::TShape& ishape, index_t* M, index_t* N,
             index_t* K) {
  *M = ishape[0];
  *N = static_cast<index_t>(ishape.Size()) / std::max<index_t>(1, *M);
  *K = 1;
  for (int i = static_cast<int>(*M); i < dshape.ndim(); ++i) *K *= dshape[i];
}

// ------------------------------------------------------------------ compute, by device

/*! \brief Zeros over a blob unless req is null or add. */
template <typename xpu>
inline void ZeroIfWrite(mshadow::Stream<xpu>* s, const TBlob& b, OpReqType req) {
  if (req != kWriteTo && req != kWriteInplace) return;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(b.type_flag_, DType, {
    mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, static_cast<index_t>(b.Size()),
                                                      b.dptr<DType>());
  });
}

inline void TakeSplit(const TakeParam& param, const mxnet::TShape& ashape, index_t* outer,
                      index_t* k, index_t* inner) {
  const int axis = CheckAxis("take", param.axis, ashape.ndim());
  *outer = 1;
  *inner = 1;
  for (int i = 0; i < axis; ++i) *outer *= ashape[i];
  *k = ashape[axis];
  for (int i = axis + 1; i < ashape.ndim(); ++i) *inner *= ashape[i];
}

/*! \brief out[t] (req) = on or off: one_hot's element t = (i, c) of the (n, depth) output. */
struct one_hot_element {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t t, const IType* idx, DType* out, index_t depth,
                                  DType on, DType off, int req) {
    const index_t i = t / depth, c = t % depth;
    KERNEL_ASSIGN(out[t], req, c == static_cast<index_t>(idx[i]) ? on : off);
  }
};

/*! \brief out[i] (req) = a[i, clip(idx[i])] of an (n, m) array: batch_take's element i. */
struct batch_take_element {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* a, const IType* idx, DType* out,
                                  index_t m, int req) {
    index_t j = static_cast<index_t>(idx[i]);
    j = j < 0 ? 0 : (j >= m ? m - 1 : j);
    KERNEL_ASSIGN(out[i], req, a[i * m + j]);
  }
};

/*!
 * \brief The GPU forms of TakeRows / TakeRowsGrad (indexing_op_gpu.cuh). mode 'raise' checks
 *        the indices on the host first (the only mode that must see every index).
 */
template <typename DType, typename IType>
void TakeRowsGPU(mshadow::Stream<mshadow::gpu>* s, const DType* a, const IType* idx, DType* out,
                 index_t outer, index_t k, index_t inner, index_t M, int mode, OpReqType req,
                 const char* op);
template <typename DType, typename IType>
void TakeRowsGradGPU(mshadow::Stream<mshadow::gpu>* s, const DType* ograd, const IType* idx,
                     DType* grad, index_t outer, index_t k, index_t inner, index_t M, int mode,
                     OpReqType req);

template <typename xpu, typename DType, typename IType>
inline void TakeRowsOn(mshadow::Stream<xpu>* s, const DType* a, const IType* idx, DType* out,
                       index_t outer, index_t k, index_t inner, index_t M, int mode,
                       OpReqType req, const char* op) {
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    TakeRows(a, idx, out, outer, k, inner, M, mode, req, op);
  } else {
    TakeRowsGPU(s, a, idx, out, outer, k, inner, M, mode, req, op);
  }
}

template <typename xpu, typename DType, typename IType>
inline void TakeRowsGradOn(mshadow::Stream<xpu>* s, const DType* ograd, const IType* idx,
                           DType* grad, index_t outer, index_t k, index_t inner, index_t M,
                           int mode, OpReqType req, const char* op) {
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
    TakeRowsGrad(ograd, idx, grad, outer, k, inner, M, mode, req, op);
  } else {
    TakeRowsGradGPU(s, ograd, idx, grad, outer, k, inner, M, mode, req);
  }
}

/*! \brief Gradients accumulate with atomics on the GPU: float16/32/64 only there. */
#define MXNET_TAKE_GRAD_TYPE_SWITCH(xpu, type, DType, ...)              \
  if constexpr (std::is_same<xpu, mshadow::cpu>::value) {               \
    MSHADOW_TYPE_SWITCH(type, DType, __VA_ARGS__);                      \
  } else {                                                              \
    MSHADOW_REAL_TYPE_SWITCH(type, DType, __VA_ARGS__);                 \
  }

template <typename xpu>
void TakeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const TakeParam& param = nnvm::get<TakeParam>(attrs.parsed);
  index_t outer, k, inner;
  TakeSplit(param, inputs[0].shape_, &outer, &k, &inner);
  const index_t M = inputs[1].Size();
  if (M > 0 && k == 0) MX_THROW(IndexError) << "take: cannot take from an empty axis";
  if (outputs[0].Size() == 0) return;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      TakeRowsOn(ctx.get_stream<xpu>(), static_cast<const DType*>(inputs[0].dptr<DType>()),
                 static_cast<const IType*>(inputs[1].dptr<IType>()), outputs[0].dptr<DType>(),
                 outer, k, inner, M, param.mode, req[0], "take");
    });
  });
}

/*! \brief inputs: ograd, indices; outputs: grad of a, grad of indices (zeros). */
template <typename xpu>
void TakeBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const TakeParam& param = nnvm::get<TakeParam>(attrs.parsed);
  index_t outer, k, inner;
  TakeSplit(param, outputs[0].shape_, &outer, &k, &inner);
  const int mode = param.mode == take_::kRaise ? take_::kClip : param.mode;
  MXNET_TAKE_GRAD_TYPE_SWITCH(xpu, outputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      TakeRowsGradOn(ctx.get_stream<xpu>(), static_cast<const DType*>(inputs[0].dptr<DType>()),
                     static_cast<const IType*>(inputs[1].dptr<IType>()),
                     outputs[0].dptr<DType>(), outer, k, inner,
                     static_cast<index_t>(inputs[1].Size()), mode, req[0], "take");
    });
  });
  if (outputs.size() > 1) ZeroIfWrite(ctx.get_stream<xpu>(), outputs[1], req[1]);
}

template <typename xpu>
void BatchTakeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  // batch_take is take along axis 1 of an (n, m) array with one index per row, clipped: row i
  // takes a[i, idx[i]], i.e. TakeRows with outer = n, M = 1 and a per-row index.
  const index_t n = inputs[1].Size();
  const index_t m = n == 0 ? 0 : static_cast<index_t>(inputs[0].Size()) / n;
  if (req[0] == kNullOp || n == 0) return;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      mxnet_op::Kernel<batch_take_element, xpu>::Launch(
          ctx.get_stream<xpu>(), n, static_cast<const DType*>(inputs[0].dptr<DType>()),
          static_cast<const IType*>(inputs[1].dptr<IType>()), outputs[0].dptr<DType>(), m,
          static_cast<int>(req[0]));
    });
  });
}

template <typename xpu>
void EmbeddingCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const TBlob& weight = inputs[1];
  const index_t k = weight.shape_[0], d = weight.shape_[1];
  MSHADOW_TYPE_SWITCH(weight.type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, IType, {
      TakeRowsOn(ctx.get_stream<xpu>(), static_cast<const DType*>(weight.dptr<DType>()),
                 static_cast<const IType*>(inputs[0].dptr<IType>()), outputs[0].dptr<DType>(), 1,
                 k, d, static_cast<index_t>(inputs[0].Size()), take_::kClip, req[0],
                 "Embedding");
    });
  });
}

/*! \brief inputs: ograd, data; outputs: grad of data (zeros), grad of weight. */
template <typename xpu>
void EmbeddingBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const TBlob& wgrad = outputs[1];
  const index_t k = wgrad.shape_[0], d = wgrad.shape_[1];
  ZeroIfWrite(ctx.get_stream<xpu>(), outputs[0], req[0]);
  MXNET_TAKE_GRAD_TYPE_SWITCH(xpu, wgrad.type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      TakeRowsGradOn(ctx.get_stream<xpu>(), static_cast<const DType*>(inputs[0].dptr<DType>()),
                     static_cast<const IType*>(inputs[1].dptr<IType>()), wgrad.dptr<DType>(), 1,
                     k, d, static_cast<index_t>(inputs[1].Size()), take_::kClip, req[1],
                     "Embedding");
    });
  });
}

template <typename xpu>
void OneHotCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  const OneHotParam& param = nnvm::get<OneHotParam>(attrs.parsed);
  if (req[0] == kNullOp || param.depth == 0) return;
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, IType, {
      mxnet_op::Kernel<one_hot_element, xpu>::Launch(
          ctx.get_stream<xpu>(), static_cast<index_t>(outputs[0].Size()),
          static_cast<const IType*>(inputs[0].dptr<IType>()), outputs[0].dptr<DType>(),
          static_cast<index_t>(param.depth), static_cast<DType>(param.on_value),
          static_cast<DType>(param.off_value), static_cast<int>(req[0]));
    });
  });
}

}  // namespace op
}  // namespace mxnet

#ifdef __CUDACC__
#include "./indexing_op_gpu.cuh"
#endif

#endif  // MXNET_OPERATOR_TENSOR_INDEXING_OP_INL_H_
