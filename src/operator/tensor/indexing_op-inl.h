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
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

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

/*!
 * \brief out[o, m, :] = a[o, idx(m), :] with a viewed as (outer, k, inner) and the indices
 *        flattened to m in [0, M).
 */
template <typename DType, typename IType>
void TakeRows(const DType* a, const IType* idx, DType* out, index_t outer, index_t k,
              index_t inner, index_t M, int mode, OpReqType req, const char* op) {
  if (req == kNullOp) return;
  std::vector<index_t> rows(M);
  for (index_t m = 0; m < M; ++m) rows[m] = TakeIndex(idx[m], k, mode, op);
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
 * \brief The gradient of TakeRows: grad[o, idx(m), :] += ograd[o, m, :] (grad zeroed first
 *        unless req is kAddTo). Parallel over outer rows or over column chunks, never over m
 *        (repeated indices accumulate into the same row).
 */
template <typename DType, typename IType>
void TakeRowsGrad(const DType* ograd, const IType* idx, DType* grad, index_t outer, index_t k,
                  index_t inner, index_t M, int mode, OpReqType req, const char* op) {
  if (req == kNullOp) return;
  if (req != kAddTo) std::fill(grad, grad + outer * k * inner, DType(0));
  std::vector<index_t> rows(M);
  for (index_t m = 0; m < M; ++m) rows[m] = TakeIndex(idx[m], k, mode, op);
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

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_INDEXING_OP_INL_H_
