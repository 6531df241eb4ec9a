/*!
 * \file sparse_ops-inl.h
 * \brief Helpers shared by the sparse (csr / row_sparse) operator kernels: building outputs
 *        and the storage-type inference boilerplate. Kernels run inside the engine function that
 *        owns the arrays, so they read and replace sparse parts directly.
 */
#ifndef MXNET_OPERATOR_SPARSE_SPARSE_OPS_INL_H_
#define MXNET_OPERATOR_SPARSE_SPARSE_OPS_INL_H_

#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>

#include <cstring>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {

/*! \brief A dense CPU array allocated now (for the parts of a sparse output). */
inline NDArray NewPart(const TShape& shape, int dtype) {
  return NDArray(shape, Context::CPU(), false, dtype);
}

/*! \brief 1-D int64 array holding `v`. */
inline NDArray Int64Part(const std::vector<int64_t>& v) {
  NDArray out = NewPart(TShape(1, static_cast<int64_t>(v.size())), mshadow::kInt64);
  if (!v.empty()) std::memcpy(out.data().dptr_, v.data(), v.size() * sizeof(int64_t));
  return out;
}

/*! \brief Elements per row of a row_sparse array (product of shape[1:]). */
inline int64_t RowLength(const TShape& shape) {
  int64_t n = 1;
  for (int i = 1; i < shape.ndim(); ++i) n *= shape[i];
  return n;
}

/*! \brief Storage type of every output `stype` and FComputeEx dispatch. */
inline bool DispatchEx(std::vector<int>* out_stypes, DispatchMode* mode, int stype) {
  for (int& s : *out_stypes) s = stype;
  *mode = DispatchMode::kFComputeEx;
  return true;
}

/*!
 * \brief out (req) = dot(csr lhs, dense rhs) or dot(lhs.T, rhs); a row_sparse `out` stores the
 *        rows of the columns lhs uses. Runs on the calling thread (inside an engine function).
 */
void CsrDotDenseInto(const NDArray& lhs, const TBlob& rhs, bool transpose_a, OpReqType req,
                     const NDArray& out);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_SPARSE_SPARSE_OPS_INL_H_
