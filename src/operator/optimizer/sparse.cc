/*!
 * \file sparse.cc
 * \brief Optimizer updates with a row_sparse gradient (MXNet 1.9.1's lazy_update: only the rows
 *        listed in grad.indices change, in the weight and in every state) and the
 *        _sparse_adagrad_update operator.
 */
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../sparse/sparse_ops-inl.h"
#include "./optimizer_op-inl.h"
#include "./sparse_adagrad-inl.h"

namespace mxnet {
namespace op {

namespace {

/*!
 * \brief Storage inference of an update(weight, grad, states...): FComputeEx when the grad is
 *        row_sparse, weight and states dense and lazy_update is on; else the dense update.
 */
template <typename Param>
bool LazyUpdateStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                     std::vector<int>* in, std::vector<int>* out) {
  const Param& p = nnvm::get<Param>(attrs.parsed);
  if (!p.lazy_update || (*in)[1] != kRowSparseStorage) return false;
  // Weight and states: dense or row_sparse (a row_sparse weight, e.g. of a sparse linear
  // model, is updated as a full-row array; the output keeps the weight's storage type).
  for (size_t i = 0; i < in->size(); ++i) {
    if (i != 1 && (*in)[i] != kDefaultStorage && (*in)[i] != kRowSparseStorage) return false;
  }
  const int weight = (*in)[0];
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != weight) return false;
  return DispatchEx(out, mode, weight);
}

/*!
 * \brief The dense values of `a`: a itself when dense; for a row_sparse array, its stored
 *        values after making it hold every row (missing rows become zeros), so updates
 *        written there are the array's new values.
 */
NDArray FullRowValues(const NDArray& a) {
  if (a.storage_type() != kRowSparseStorage) return a;
  const int64_t n = a.shape()[0];
  const std::vector<int64_t> rows = SparseAuxAsInt64(a, 0);
  bool full = static_cast<int64_t>(rows.size()) == n;
  for (int64_t i = 0; full && i < n; ++i) full = rows[i] == i;
  if (!full) {
    NDArray dense = NewPart(a.shape(), a.dtype());
    CastStorageInto(a, dense);
    std::vector<int64_t> all(n);
    for (int64_t i = 0; i < n; ++i) all[i] = i;
    a.SetSparseParts(dense, {Int64Part(all)});
  }
  return a.sparse_data();
}

/*! \brief Runs a dense-weight lazy update on row_sparse weight/states through their values. */
template <void (*kUpdate)(const nnvm::NodeAttrs&, const OpContext&, const std::vector<NDArray>&,
                          const std::vector<OpReqType>&, const std::vector<NDArray>&)>
void LazyUpdateEx(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                  const std::vector<NDArray>& out) {
  std::vector<NDArray> values(in), out_values(out);
  for (size_t i = 0; i < in.size(); ++i) {
    if (i != 1) values[i] = FullRowValues(in[i]);
  }
  for (size_t i = 0; i < out.size(); ++i) out_values[i] = FullRowValues(out[i]);
  kUpdate(attrs, ctx, values, req, out_values);
}

/*!
 * \brief Runs step(row_id, k) for every stored gradient row (k = position in grad.data) after
 *        making `out` a copy of `weight` (steps then update out's rows in place).
 */
template <typename Step>
void ForEachGradRow(const char* name, const NDArray& weight, const NDArray& grad,
                    OpReqType req, const NDArray& out, Step step) {
  if (req == kNullOp) return;
  if (req == kAddTo) {
    MX_THROW(NotImplementedError) << name << ": req 'add' is not supported with a row_sparse grad";
  }
  grad.CheckSparseFormat(false);  // data rows match the indices, indices in range
  const TBlob w = weight.data(), o = out.data();
  if (o.dptr_ != w.dptr_) {
    std::memcpy(o.dptr_, w.dptr_, o.Size() * mshadow::mshadow_sizeof(o.type_flag_));
  }
  const std::vector<int64_t> rows = SparseAuxAsInt64(grad, 0);
  const int64_t nrow = weight.shape()[0];
  for (int64_t r : rows) {
    if (r < 0 || r >= nrow) {
      MX_THROW(IndexError) << name << ": gradient row index " << r << " is out of range [0, "
                           << nrow << ")";
    }
  }
#pragma omp parallel for if (rows.size() * RowLength(weight.shape()) > 32768)
  for (int64_t k = 0; k < static_cast<int64_t>(rows.size()); ++k) step(rows[k], k);
}

void SGDRspComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                     const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                     const std::vector<NDArray>& out) {
  const SGDParam& p = nnvm::get<SGDParam>(attrs.parsed);
  const int64_t len = RowLength(in[0].shape());
  MSHADOW_REAL_TYPE_SWITCH(in[0].dtype(), DType, {
    DType* o = out[0].data().dptr<DType>();
    const DType* g = in[1].sparse_data().Size() ? in[1].sparse_data().data().dptr<DType>() : nullptr;
    ForEachGradRow("sgd_update", in[0], in[1], req[0], out[0], [&](int64_t r, int64_t k) {
      SGDStep<DType, DType>(len, o + r * len, o + r * len, g + k * len, nullptr, nullptr, p.lr,
                            p.wd, 0.f, p.rescale_grad, p.clip_gradient, kWriteInplace);
    });
  });
}

void SGDMomRspComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                        const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                        const std::vector<NDArray>& out) {
  const SGDMomParam& p = nnvm::get<SGDMomParam>(attrs.parsed);
  const int64_t len = RowLength(in[0].shape());
  MSHADOW_REAL_TYPE_SWITCH(in[0].dtype(), DType, {
    DType* o = out[0].data().dptr<DType>();
    DType* mom = in[2].data().dptr<DType>();
    const DType* g = in[1].sparse_data().Size() ? in[1].sparse_data().data().dptr<DType>() : nullptr;
    ForEachGradRow("sgd_mom_update", in[0], in[1], req[0], out[0], [&](int64_t r, int64_t k) {
      SGDStep<DType, DType>(len, o + r * len, o + r * len, g + k * len, mom + r * len, nullptr,
                            p.lr, p.wd, p.momentum, p.rescale_grad, p.clip_gradient,
                            kWriteInplace);
    });
  });
}

void AdamRspComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                      const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                      const std::vector<NDArray>& out) {
  const AdamParam& p = nnvm::get<AdamParam>(attrs.parsed);
  const int64_t len = RowLength(in[0].shape());
  MSHADOW_REAL_TYPE_SWITCH(in[0].dtype(), DType, {
    typedef OptAcc<DType> A;
    DType* o = out[0].data().dptr<DType>();
    DType* mean = in[2].data().dptr<DType>();
    DType* var = in[3].data().dptr<DType>();
    const DType* g = in[1].sparse_data().Size() ? in[1].sparse_data().data().dptr<DType>() : nullptr;
    ForEachGradRow("adam_update", in[0], in[1], req[0], out[0], [&](int64_t r, int64_t k) {
      for (int64_t j = 0; j < len; ++j) {
        const int64_t i = r * len + j;
        const A weight = static_cast<A>(o[i]);
        // As the dense adam_update: weight decay is added before clipping.
        const A grad = OptClip(A(p.rescale_grad) * static_cast<A>(g[k * len + j]) + A(p.wd) * weight,
                               A(p.clip_gradient));
        const A m = A(p.beta1) * static_cast<A>(mean[i]) + (A(1) - A(p.beta1)) * grad;
        const A v = A(p.beta2) * static_cast<A>(var[i]) + (A(1) - A(p.beta2)) * grad * grad;
        mean[i] = DType(m);
        var[i] = DType(v);
        o[i] = DType(weight - A(p.lr) * m / (std::sqrt(v) + A(p.epsilon)));
      }
    });
  });
}

}  // namespace

NNVM_REGISTER_OP(sgd_update)
.set_attr<FInferStorageType>("FInferStorageType", LazyUpdateStype<SGDParam>)
.set_attr<FComputeEx>("FComputeEx<cpu>", LazyUpdateEx<SGDRspComputeEx>);

NNVM_REGISTER_OP(sgd_mom_update)
.set_attr<FInferStorageType>("FInferStorageType", LazyUpdateStype<SGDMomParam>)
.set_attr<FComputeEx>("FComputeEx<cpu>", LazyUpdateEx<SGDMomRspComputeEx>);

NNVM_REGISTER_OP(adam_update)
.set_attr<FInferStorageType>("FInferStorageType", LazyUpdateStype<AdamParam>)
.set_attr<FComputeEx>("FComputeEx<cpu>", LazyUpdateEx<AdamRspComputeEx>);

// ---------------------------------------------------------------------- _sparse_adagrad_update

DMLC_REGISTER_PARAMETER(SparseAdagradParam);

namespace {

bool AdagradShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  for (size_t i = 1; i < in->size(); ++i) {
    if (shape_is_known((*in)[i]) && shape_is_known((*in)[0]) && (*in)[i] != (*in)[0]) {
      MX_THROW(ValueError) << "_sparse_adagrad_update: input " << i << " has shape " << (*in)[i]
                           << ", the weight has shape " << (*in)[0];
    }
  }
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return shape_is_known((*out)[0]);
}

bool AdagradType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  for (size_t i = 1; i < in->size(); ++i) {
    if ((*in)[i] != -1 && (*in)[0] != -1 && (*in)[i] != (*in)[0]) {
      MX_THROW(TypeError) << "_sparse_adagrad_update: input " << i << " has dtype "
                          << mshadow::dtype_string((*in)[i]) << ", the weight has "
                          << mshadow::dtype_string((*in)[0]);
    }
  }
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1;
}

const char* StypeStr(int s) {
  return s == kCSRStorage ? "csr" : s == kRowSparseStorage ? "row_sparse" : "default";
}

bool AdagradStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                  std::vector<int>* in, std::vector<int>* out) {
  const SparseAdagradParam& p = nnvm::get<SparseAdagradParam>(attrs.parsed);
  if ((*in)[0] != kDefaultStorage || (*in)[1] != kRowSparseStorage ||
      (*in)[2] != kDefaultStorage) {
    MX_THROW(NotImplementedError) << "_sparse_adagrad_update: storage types (weight, grad, "
                                     "history) = ("
                                  << StypeStr((*in)[0]) << ", " << StypeStr((*in)[1]) << ", "
                                  << StypeStr((*in)[2])
                                  << ") are not supported; expected (default, row_sparse, default)";
  }
  if (p.wd != 0.0f) {
    MX_THROW(ValueError) << "_sparse_adagrad_update: non-zero weight decay (wd=" << p.wd
                         << ") is not supported";
  }
  return DispatchEx(out, mode, kDefaultStorage);
}

void AdagradRspComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                         const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                         const std::vector<NDArray>& out) {
  const SparseAdagradParam& p = nnvm::get<SparseAdagradParam>(attrs.parsed);
  const int64_t len = RowLength(in[0].shape());
  MSHADOW_REAL_TYPE_SWITCH(in[0].dtype(), DType, {
    DType* o = out[0].data().dptr<DType>();
    DType* hist = in[2].data().dptr<DType>();
    const DType* g = in[1].sparse_data().Size() ? in[1].sparse_data().data().dptr<DType>() : nullptr;
    ForEachGradRow("_sparse_adagrad_update", in[0], in[1], req[0], out[0],
                   [&](int64_t r, int64_t k) {
      for (int64_t j = 0; j < len; ++j) {
        sparse_adagrad_step::Step(r * len + j, k * len + j, o, hist, g, p.lr, p.epsilon,
                                  p.rescale_grad, p.clip_gradient);
      }
    });
  });
}

// Reached only with all-dense inputs (storage inference is skipped then).
void AdagradDenseCompute(const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>&,
                         const std::vector<OpReqType>&, const std::vector<TBlob>&) {
  MX_THROW(NotImplementedError) << "_sparse_adagrad_update: the gradient must be row_sparse "
                                   "(got default storage); use the AdaGrad optimizer's dense path";
}

}  // namespace

NNVM_REGISTER_OP(_sparse_adagrad_update)
.describe(R"code(Update function for AdaGrad optimizer.

Referenced from *Adaptive Subgradient Methods for Online Learning and Stochastic Optimization*,
and available at http://www.jmlr.org/papers/volume12/duchi11a/duchi11a.pdf.

Updates are applied by::

    rescaled_grad = clip(rescale_grad * grad, clip_gradient)
    history = history + square(rescaled_grad)
    w = w - learning_rate * rescaled_grad / sqrt(history + epsilon)

Note that non-zero values for the weight decay option are not supported.

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SparseAdagradParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"weight", "grad", "history"};
})
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const nnvm::NodeAttrs&) {
  return std::vector<uint32_t>{2};
})
.set_attr<mxnet::FInferShape>("FInferShape", AdagradShape)
.set_attr<nnvm::FInferType>("FInferType", AdagradType)
.set_attr<FInferStorageType>("FInferStorageType", AdagradStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", AdagradRspComputeEx)
.set_attr<FCompute>("FCompute<cpu>", AdagradDenseCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("weight", "NDArray-or-Symbol", "Weight")
.add_argument("grad", "NDArray-or-Symbol", "Gradient")
.add_argument("history", "NDArray-or-Symbol", "History")
.add_arguments(SparseAdagradParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
