/*!
 * \file ordering_op-inl.h
 * \brief topk, sort, argsort: parameters and the row-wise sorting kernel.
 *
 * Every op views the input as rows along `axis` (axis=None: one row of the flattened input).
 * Each row is ordered with a stable sort of its indices (ties keep their original order, NaN
 * sorts as the largest value), then the first k entries give values / indices / a mask.
 */
#ifndef MXNET_OPERATOR_TENSOR_ORDERING_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_ORDERING_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

namespace topk_enum {
enum TopKReturnType { kReturnValue, kReturnIndices, kReturnMask, kReturnBoth };
}  // namespace topk_enum

struct TopKParam : public dmlc::Parameter<TopKParam> {
  dmlc::optional<int> axis;
  int k;
  int ret_typ;
  bool is_ascend;
  int dtype;
  DMLC_DECLARE_PARAMETER(TopKParam) {
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>(-1)).describe(
        "Axis along which to choose the top k indices."
        " If not given, the flattened array is used. Default is -1.");
    DMLC_DECLARE_FIELD(k).set_default(1).describe(
        "Number of top elements to select,"
        " should be always smaller than or equal to the element number in the given axis."
        " A global sort is performed if set k < 1.");
    DMLC_DECLARE_FIELD(ret_typ)
        .set_default(topk_enum::kReturnIndices)
        .add_enum("value", topk_enum::kReturnValue)
        .add_enum("indices", topk_enum::kReturnIndices)
        .add_enum("mask", topk_enum::kReturnMask)
        .add_enum("both", topk_enum::kReturnBoth)
        .describe("The return type.\n"
                  " \"value\" means to return the top k values,"
                  " \"indices\" means to return the indices of the top k values,"
                  " \"mask\" means to return a mask array containing 0 and 1. 1 means the top k "
                  "values."
                  " \"both\" means to return a list of both values and indices of top k "
                  "elements.");
    DMLC_DECLARE_FIELD(is_ascend).set_default(false).describe(
        "Whether to choose k largest or k smallest elements."
        " Top K largest elements will be chosen if set to false.");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("uint8", mshadow::kUint8)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int64", mshadow::kInt64)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .set_default(mshadow::kFloat32)
        .describe("DType of the output indices when ret_typ is \"indices\" or \"both\". "
                  "An error will be raised if the selected data type cannot precisely represent "
                  "the indices.");
  }
};

struct SortParam : public dmlc::Parameter<SortParam> {
  dmlc::optional<int> axis;
  bool is_ascend;
  DMLC_DECLARE_PARAMETER(SortParam) {
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>(-1)).describe(
        "Axis along which to choose sort the input tensor."
        " If not given, the flattened array is used. Default is -1.");
    DMLC_DECLARE_FIELD(is_ascend).set_default(true).describe(
        "Whether to sort in ascending or descending order.");
  }
};

struct ArgSortParam : public dmlc::Parameter<ArgSortParam> {
  dmlc::optional<int> axis;
  bool is_ascend;
  int dtype;
  DMLC_DECLARE_PARAMETER(ArgSortParam) {
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>(-1)).describe(
        "Axis along which to sort the input tensor."
        " If not given, the flattened array is used. Default is -1.");
    DMLC_DECLARE_FIELD(is_ascend).set_default(true).describe(
        "Whether to sort in ascending or descending order.");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("uint8", mshadow::kUint8)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("int64", mshadow::kInt64)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .set_default(mshadow::kFloat32)
        .describe("DType of the output indices. It is only valid when ret_typ is \"indices\" "
                  "or \"both\". An error will be raised if the selected data type cannot "
                  "precisely represent the indices.");
  }
};

/*! \brief Everything a sort needs: the row layout and what to produce. */
struct SortSpec {
  index_t outer = 1, n = 1, inner = 1;  // rows: (outer, inner) pairs of n strided elements
  index_t k = 1;                        // entries kept per row
  bool ascend = false;
  bool flatten = false;                 // axis=None
};

/*! \brief The row layout of `shape` for an optional axis and a k (k < 1: the whole row). */
inline SortSpec MakeSortSpec(const char* op, const mxnet::TShape& shape,
                             const dmlc::optional<int>& axis, int k, bool ascend) {
  SortSpec s;
  s.ascend = ascend;
  if (!axis.has_value()) {
    s.flatten = true;
    s.n = static_cast<index_t>(shape.Size());
  } else {
    if (shape.ndim() == 0) MX_THROW(ValueError) << op << ": expected an input with >= 1 dim";
    const int a = CheckAxis(op, axis.value(), shape.ndim());
    for (int i = 0; i < a; ++i) s.outer *= shape[i];
    s.n = shape[a];
    for (int i = a + 1; i < shape.ndim(); ++i) s.inner *= shape[i];
  }
  s.k = k < 1 ? s.n : k;
  if (s.k > s.n) {
    MX_THROW(ValueError) << op << ": k=" << k << " exceeds the " << s.n
                         << " elements along the sorted axis (input shape " << shape << ")";
  }
  return s;
}

/*!
 * \brief For each row, the indices of its first k entries in sorted order, written as
 *        idx[row_out(r, j)] for j < k (rows laid out like the input with n replaced by k).
 */
template <typename DType>
void SortRows(const DType* data, const SortSpec& s, std::vector<index_t>* order) {
  using A = typename ReduceAccType<DType>::type;
  const index_t rows = s.outer * s.inner;
  order->assign(rows * s.k, 0);
  const int nthreads =
      rows * s.n >= mxnet_op::kOmpThreshold && rows > 1 ? mxnet_op::MaxOmpThreads() : 1;
#pragma omp parallel for num_threads(nthreads) schedule(static) if (nthreads > 1)
  for (index_t r = 0; r < rows; ++r) {
    const index_t o = r / s.inner, i = r % s.inner;
    const DType* row = data + o * s.n * s.inner + i;
    std::vector<A> v(s.n);
    for (index_t j = 0; j < s.n; ++j) v[j] = static_cast<A>(row[j * s.inner]);
    std::vector<index_t> idx(s.n);
    std::iota(idx.begin(), idx.end(), 0);
    // NaN is the largest value (numpy's order).
    auto less = [&](index_t a, index_t b) {
      const bool na = IsNanAcc(v[a]), nb = IsNanAcc(v[b]);
      if (na || nb) return !na && nb;
      return v[a] < v[b];
    };
    if (s.ascend) {
      std::stable_sort(idx.begin(), idx.end(), less);
    } else {
      std::stable_sort(idx.begin(), idx.end(), [&](index_t a, index_t b) { return less(b, a); });
    }
    index_t* dst = order->data() + o * s.k * s.inner + i;
    for (index_t j = 0; j < s.k; ++j) dst[j * s.inner] = idx[j];
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_ORDERING_OP_INL_H_
