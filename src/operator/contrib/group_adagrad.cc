/*!
 * \file group_adagrad.cc
 * \brief _contrib_group_adagrad_update: AdaGrad with one accumulated squared gradient per row
 *        (group) of the weight, as MXNet 1.9.1's optimizer.contrib.GroupAdaGrad uses it for
 *        embeddings. With a row_sparse gradient only the stored rows change (lazy update); a
 *        dense gradient updates every row (MXNet 1.9.1's CPU build has only the sparse form).
 *        `history` holds one value per row: shape (rows,) or (rows, 1, ...).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../optimizer/optimizer_op-inl.h"
#include "../sparse/sparse_ops-inl.h"
#include "./group_adagrad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(GroupAdagradParam);

namespace {

constexpr const char* kOpName = "_contrib_group_adagrad_update";

bool GroupAdagradShape(const nnvm::NodeAttrs&, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  TShape& w = (*in)[0];
  if (!shape_is_known(w) && shape_is_known((*out)[0])) w = (*out)[0];
  if (!shape_is_known(w) && shape_is_known((*in)[1])) w = (*in)[1];
  if (!shape_is_known(w)) return false;
  if (w.ndim() < 1) {
    MX_THROW(ValueError) << kOpName << ": expected a weight with at least 1 dimension, got shape "
                         << w;
  }
  if (shape_is_known((*in)[1]) && (*in)[1] != w) {
    MX_THROW(ValueError) << kOpName << ": expected grad of the weight's shape " << w
                         << ", got shape " << (*in)[1];
  }
  TShape& h = (*in)[2];
  if (!shape_is_known(h)) {
    h = TShape(2, 1);
    h[0] = w[0];
  } else if (h.ndim() < 1 || h[0] != w[0] || static_cast<int64_t>(h.Size()) != w[0]) {
    MX_THROW(ValueError) << kOpName << ": expected history with one value per weight row, shape ("
                         << w[0] << ", 1) or (" << w[0] << ",), got shape " << h
                         << " for weight shape " << w;
  }
  (*in)[1] = w;
  SHAPE_ASSIGN_CHECK(*out, 0, w);
  return true;
}

bool GroupAdagradType(const nnvm::NodeAttrs&, std::vector<int>* in, std::vector<int>* out) {
  int dtype = (*in)[0] >= 0 ? (*in)[0] : (*out)[0];
  for (size_t i = 1; dtype < 0 && i < in->size(); ++i) dtype = (*in)[i];
  if (dtype < 0) return false;
  static const char* names[] = {"weight", "grad", "history"};
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] >= 0 && (*in)[i] != dtype) {
      MX_THROW(TypeError) << kOpName << ": expected " << names[i] << " of dtype "
                          << mshadow::dtype_string(dtype) << ", got "
                          << mshadow::dtype_string((*in)[i]);
    }
    (*in)[i] = dtype;
  }
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
}

bool GroupAdagradStype(const nnvm::NodeAttrs&, const int, DispatchMode* mode,
                       std::vector<int>* in, std::vector<int>* out) {
  const int g = (*in)[1];
  if ((*in)[0] != kDefaultStorage || (*in)[2] != kDefaultStorage ||
      (g != kDefaultStorage && g != kRowSparseStorage)) {
    auto str = [](int s) {
      return s == kCSRStorage ? "csr" : s == kRowSparseStorage ? "row_sparse" : "default";
    };
    MX_THROW(NotImplementedError) << kOpName << ": storage types (weight, grad, history) = ("
                                  << str((*in)[0]) << ", " << str(g) << ", " << str((*in)[2])
                                  << ") are not supported; expected (default, row_sparse or "
                                     "default, default)";
  }
  if (g == kDefaultStorage) return false;  // dense FCompute
  return DispatchEx(out, mode, kDefaultStorage);
}

/*! \brief fn(r) for r in [0, rows), with OpenMP when rows * len is large. */
template <typename Fn>
inline void ParallelRows(int64_t rows, int64_t len, Fn fn) {
#pragma omp parallel for if (rows * len > 32768)
  for (int64_t r = 0; r < rows; ++r) fn(r);
}

void GroupAdagradRspComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                              const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                              const std::vector<NDArray>& out) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << kOpName
                                  << ": req 'add' is not supported with a row_sparse grad";
  }
  const GroupAdagradParam& p = nnvm::get<GroupAdagradParam>(attrs.parsed);
  const NDArray& grad = in[1];
  grad.CheckSparseFormat(false);
  const int64_t rows = in[0].shape()[0];
  const int64_t len = RowLength(in[0].shape());
  const std::vector<int64_t> idx = SparseAuxAsInt64(grad, 0);
  for (int64_t r : idx) {
    if (r < 0 || r >= rows) {
      MX_THROW(IndexError) << kOpName << ": gradient row index " << r << " is out of range [0, "
                           << rows << ")";
    }
  }
  const TBlob w = in[0].data(), o = out[0].data();
  if (o.dptr_ != w.dptr_) {  // rows without a gradient keep the weight's values
    std::memcpy(o.dptr_, w.dptr_, o.Size() * mshadow::mshadow_sizeof(o.type_flag_));
  }
  if (idx.empty()) return;
  MSHADOW_REAL_TYPE_SWITCH(in[0].dtype(), DType, {
    DType* ow = o.dptr<DType>();
    DType* hist = in[2].data().dptr<DType>();
    const DType* g = grad.sparse_data().data().dptr<DType>();
    ParallelRows(static_cast<int64_t>(idx.size()), len, [&](int64_t k) {
      const int64_t r = idx[k];
      GroupAdagradRow(p.lr, p.rescale_grad, p.clip_gradient, p.epsilon, len, ow + r * len,
                      ow + r * len, g + k * len, hist + r, kWriteInplace);
    });
  });
}

}  // namespace

NNVM_REGISTER_OP(_contrib_group_adagrad_update)
.describe(R"code(Update function for Group AdaGrad optimizer.

Referenced from *Adaptive Subgradient Methods for Online Learning and Stochastic Optimization*,
and available at http://www.jmlr.org/papers/volume12/duchi11a/duchi11a.pdf but
uses only a single learning rate for every row of the parameter array.

Updates are applied by::

    grad = clip(grad * rescale_grad, clip_gradient)
    history += mean(square(grad), axis=1, keepdims=True)
    div = grad / sqrt(history + float_stable_eps)
    weight -= div * lr

``history`` holds one value per weight row (shape ``(rows, 1)`` or ``(rows,)``), and the mean
runs over all elements of the row. Weights are updated lazily if the gradient is sparse
(row_sparse): only the rows stored in the gradient change, in the weight and in ``history``.
A dense gradient updates every row.

Note that non-zero values for the weight decay option are not supported.

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<GroupAdagradParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"weight", "grad", "history"};
})
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const nnvm::NodeAttrs&) {
  return std::vector<uint32_t>{2};
})
.set_attr<mxnet::FInferShape>("FInferShape", GroupAdagradShape)
.set_attr<nnvm::FInferType>("FInferType", GroupAdagradType)
.set_attr<FInferStorageType>("FInferStorageType", GroupAdagradStype)
.set_attr<FCompute>("FCompute<cpu>", GroupAdagradCompute<cpu>)
.set_attr<FComputeEx>("FComputeEx<cpu>", GroupAdagradRspComputeEx)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("history", "NDArray-or-Symbol", "History")
.add_arguments(GroupAdagradParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
