/*!
 * \file np_data_dependent_ops.cc
 * \brief mx.np / mx.npx operators whose output shape depends on the input values, as MXNet 1.9.1
 *        names them: _npi_unique, _npx_nonzero (alias _npi_nonzero), _npi_bincount, and the
 *        0-d test _npi_share_memory. Their shapes come from FDataDependentShape, so they run
 *        imperatively and in hybridized blocks (CachedOp runs such graphs op by op); a bound
 *        Symbol executor cannot plan them, as in 1.9.1. None is differentiable.
 */
#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/data_dependent_shape.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "../host_copy.h"
#include "../host_fallback.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct NpUniqueParam : public dmlc::Parameter<NpUniqueParam> {
  bool return_index, return_inverse, return_counts;
  dmlc::optional<int> axis;
  DMLC_DECLARE_PARAMETER(NpUniqueParam) {
    DMLC_DECLARE_FIELD(return_index).set_default(false)
        .describe("Also return the index of each unique value's first occurrence.");
    DMLC_DECLARE_FIELD(return_inverse).set_default(false)
        .describe("Also return, per input element, the index of its unique value.");
    DMLC_DECLARE_FIELD(return_counts).set_default(false)
        .describe("Also return how often each unique value occurs.");
    DMLC_DECLARE_FIELD(axis).set_default(dmlc::optional<int>())
        .describe("The axis whose slices are compared; None flattens the input.");
  }
};

struct NpBincountParam : public dmlc::Parameter<NpBincountParam> {
  int minlength;
  bool has_weights;
  DMLC_DECLARE_PARAMETER(NpBincountParam) {
    DMLC_DECLARE_FIELD(minlength).set_default(0).describe("The least length of the output.");
    DMLC_DECLARE_FIELD(has_weights).set_default(false)
        .describe("Whether the second input, weights, is given.");
  }
};

DMLC_REGISTER_PARAMETER(NpUniqueParam);
DMLC_REGISTER_PARAMETER(NpBincountParam);

namespace {

// ---- unique ------------------------------------------------------------------------------------

/*! \brief The input seen as `rows` slices along the compared axis, each `pre` x `post` values. */
struct RowView {
  index_t pre = 1, rows = 1, post = 1;
  int axis = -1;  // -1: flattened
};

RowView ViewRows(const NpUniqueParam& p, const mxnet::TShape& s) {
  RowView v;
  if (!p.axis.has_value()) {
    v.rows = s.ndim() == 0 ? 1 : s.Size();
    return v;
  }
  int axis = p.axis.value();
  if (axis < -s.ndim() || axis >= s.ndim()) {
    MX_THROW(ValueError) << "_npi_unique: axis " << axis << " is out of range for data of shape "
                         << s;
  }
  v.axis = axis < 0 ? axis + s.ndim() : axis;
  for (int i = 0; i < v.axis; ++i) v.pre *= s[i];
  v.rows = s[v.axis];
  for (int i = v.axis + 1; i < s.ndim(); ++i) v.post *= s[i];
  return v;
}

/*! \brief The unique rows in sorted order: for each, its first row; and each row's rank. */
struct UniqueRows {
  std::vector<index_t> first;    // per unique row: the input row it first occurs at
  std::vector<index_t> inverse;  // per input row: its unique row
  std::vector<int64_t> counts;
};

template <typename DType>
UniqueRows FindUniqueRows(const DType* x, const RowView& v) {
  auto at = [&](index_t row, index_t j) {  // j runs over pre x post
    return x[(j / v.post) * v.rows * v.post + row * v.post + j % v.post];
  };
  const index_t width = v.pre * v.post;
  auto less = [&](index_t a, index_t b) {
    for (index_t j = 0; j < width; ++j) {
      if (at(a, j) < at(b, j)) return true;
      if (at(b, j) < at(a, j)) return false;
    }
    return false;
  };
  std::vector<index_t> order(v.rows);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), less);  // stable: first occurrences lead
  UniqueRows u;
  u.inverse.assign(v.rows, 0);
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || less(order[k - 1], order[k])) {
      u.first.push_back(order[k]);
      u.counts.push_back(0);
    }
    u.inverse[order[k]] = static_cast<index_t>(u.first.size()) - 1;
    ++u.counts.back();
  }
  return u;
}

UniqueRows FindUnique(const NpUniqueParam& p, const TBlob& data) {
  const RowView v = ViewRows(p, data.shape_);
  UniqueRows u;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(data.type_flag_, DType, {
    u = FindUniqueRows(data.dptr<DType>(), v);
  });
  return u;
}

uint32_t UniqueNumOutputs(const NodeAttrs& attrs) {
  const NpUniqueParam& p = nnvm::get<NpUniqueParam>(attrs.parsed);
  return 1 + p.return_index + p.return_inverse + p.return_counts;
}

void UniqueDataShape(const NodeAttrs& attrs, const std::vector<TBlob>& inputs,
                     mxnet::ShapeVector* out) {
  const NpUniqueParam& p = nnvm::get<NpUniqueParam>(attrs.parsed);
  const TBlob& data = inputs[0];
  const RowView v = ViewRows(p, data.shape_);
  const index_t k = static_cast<index_t>(FindUnique(p, data).first.size());
  mxnet::TShape uniq = v.axis < 0 ? mxnet::TShape({k}) : data.shape_;
  if (v.axis >= 0) uniq[v.axis] = k;
  size_t o = 0;
  (*out)[o++] = uniq;
  if (p.return_index) (*out)[o++] = mxnet::TShape({k});
  if (p.return_inverse) (*out)[o++] = mxnet::TShape({v.rows});
  if (p.return_counts) (*out)[o++] = mxnet::TShape({k});
}

bool UniqueShape(const NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (!shape_is_known((*in)[0])) return false;
  ViewRows(nnvm::get<NpUniqueParam>(attrs.parsed), (*in)[0]);  // checks axis
  return std::all_of(out->begin(), out->end(), [](const TShape& s) { return shape_is_known(s); });
}

bool UniqueType(const NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  for (size_t i = 1; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, mshadow::kInt64);
  return (*in)[0] != -1;
}

void UniqueCompute(const NodeAttrs& attrs, const OpContext& ctx, const std::vector<TBlob>& inputs,
                   const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const NpUniqueParam& p = nnvm::get<NpUniqueParam>(attrs.parsed);
  const TBlob& data = inputs[0];
  const RowView v = ViewRows(p, data.shape_);
  const UniqueRows u = FindUnique(p, data);
  const index_t k = static_cast<index_t>(u.first.size());
  const size_t esize = mshadow::mshadow_sizeof(data.type_flag_);
  const char* x = static_cast<const char*>(data.dptr_);
  char* y = static_cast<char*>(outputs[0].dptr_);
  for (index_t a = 0; a < v.pre; ++a) {
    for (index_t r = 0; r < k; ++r) {
      std::memcpy(y + (a * k + r) * v.post * esize,
                  x + (a * v.rows + u.first[r]) * v.post * esize, v.post * esize);
    }
  }
  size_t o = 1;
  if (p.return_index) {
    int64_t* idx = outputs[o++].dptr<int64_t>();
    for (index_t r = 0; r < k; ++r) idx[r] = u.first[r];
  }
  if (p.return_inverse) {
    int64_t* inv = outputs[o++].dptr<int64_t>();
    for (index_t r = 0; r < v.rows; ++r) inv[r] = u.inverse[r];
  }
  if (p.return_counts) std::copy(u.counts.begin(), u.counts.end(), outputs[o++].dptr<int64_t>());
}

// ---- nonzero -----------------------------------------------------------------------------------

/*! \brief Flat positions of the non-zero elements. */
std::vector<index_t> NonzeroPositions(const TBlob& x) {
  std::vector<index_t> pos;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(x.type_flag_, DType, {
    const DType* p = x.dptr<DType>();
    const index_t n = x.shape_.ndim() == 0 ? 1 : x.shape_.Size();
    for (index_t i = 0; i < n; ++i)
      if (p[i] != DType(0)) pos.push_back(i);
  });
  return pos;
}

void NonzeroDataShape(const NodeAttrs& attrs, const std::vector<TBlob>& inputs,
                      mxnet::ShapeVector* out) {
  const int ndim = std::max(1, inputs[0].shape_.ndim());  // a 0-d input counts as (1,)
  (*out)[0] = mxnet::TShape({static_cast<index_t>(NonzeroPositions(inputs[0]).size()), ndim});
}

void NonzeroCompute(const NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const mxnet::TShape& s = inputs[0].shape_;
  const int ndim = std::max(1, s.ndim());
  int64_t* out = outputs[0].dptr<int64_t>();
  for (index_t flat : NonzeroPositions(inputs[0])) {
    for (int d = ndim - 1; d >= 0; --d) {
      const index_t dim = s.ndim() == 0 ? 1 : s[d];
      out[d] = flat % dim;
      flat /= dim;
    }
    out += ndim;
  }
}

// ---- bincount ----------------------------------------------------------------------------------

/*! \brief The output length; rejects float and negative inputs as 1.9.1 does. */
index_t BincountLength(const NodeAttrs& attrs, const TBlob& data) {
  const NpBincountParam& p = nnvm::get<NpBincountParam>(attrs.parsed);
  if (p.minlength < 0) {
    MX_THROW(ValueError) << "_npi_bincount: minlength must be non-negative, got " << p.minlength;
  }
  int64_t top = -1;
  if (data.type_flag_ == mshadow::kFloat32 || data.type_flag_ == mshadow::kFloat64 ||
      data.type_flag_ == mshadow::kFloat16 || data.type_flag_ == mshadow::kBool) {
    MX_THROW(TypeError) << "_npi_bincount: data must have an integer dtype, got "
                        << mshadow::dtype_string(data.type_flag_);
  }
  MSHADOW_IDX_TYPE_SWITCH(data.type_flag_, IType, {
    const IType* x = data.dptr<IType>();
    for (index_t i = 0; i < static_cast<index_t>(data.Size()); ++i) {
      if (x[i] < 0) {
        MX_THROW(ValueError) << "_npi_bincount: data must be non-negative, got " << int64_t(x[i])
                             << " at position " << i;
      }
      top = std::max<int64_t>(top, x[i]);
    }
  });
  return std::max<index_t>(top + 1, p.minlength);
}

void BincountDataShape(const NodeAttrs& attrs, const std::vector<TBlob>& inputs,
                       mxnet::ShapeVector* out) {
  (*out)[0] = mxnet::TShape({BincountLength(attrs, inputs[0])});
}

bool BincountShape(const NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const NpBincountParam& p = nnvm::get<NpBincountParam>(attrs.parsed);
  if (!shape_is_known((*in)[0])) return false;
  if ((*in)[0].ndim() != 1) {
    MX_THROW(ValueError) << "_npi_bincount: data must be 1-d, got shape " << (*in)[0];
  }
  if (p.has_weights && shape_is_known((*in)[1]) && (*in)[1] != (*in)[0]) {
    MX_THROW(ValueError) << "_npi_bincount: weights of shape " << (*in)[1]
                         << " must have the shape of data " << (*in)[0];
  }
  return shape_is_known((*out)[0]);
}

bool BincountType(const NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const NpBincountParam& p = nnvm::get<NpBincountParam>(attrs.parsed);
  // Counts keep the data's dtype; weighted sums take the weights' (1.9.1).
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[p.has_weights ? 1 : 0]);
  return (*out)[0] != -1;
}

void BincountCompute(const NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const NpBincountParam& p = nnvm::get<NpBincountParam>(attrs.parsed);
  const TBlob& data = inputs[0];
  const TBlob& out = outputs[0];
  std::vector<double> weights;
  if (p.has_weights) {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, WType, {
      const WType* w = inputs[1].dptr<WType>();
      for (size_t i = 0; i < inputs[1].Size(); ++i) weights.push_back(static_cast<double>(w[i]));
    });
  }
  MSHADOW_TYPE_SWITCH(out.type_flag_, OType, {
    OType* y = out.dptr<OType>();
    std::fill(y, y + out.Size(), OType(0));
    MSHADOW_IDX_TYPE_SWITCH(data.type_flag_, IType, {
      const IType* x = data.dptr<IType>();
      for (index_t i = 0; i < static_cast<index_t>(data.Size()); ++i) {
        OType& bin = y[static_cast<index_t>(x[i])];
        bin = p.has_weights ? OType(static_cast<double>(bin) + weights[i]) : OType(bin + OType(1));
      }
    });
  });
}

// ---- share_memory ------------------------------------------------------------------------------

/*! \brief Whether the two arrays' memory ranges overlap (pointer arithmetic only). */
bool ShareMemory(const std::vector<TBlob>& inputs) {
  auto range = [](const TBlob& b) {
    const char* p = static_cast<const char*>(b.dptr_);
    return std::make_pair(p, p + b.Size() * mshadow::mshadow_sizeof(b.type_flag_));
  };
  const auto a = range(inputs[0]), b = range(inputs[1]);
  return a.first < a.second && b.first < b.second && a.first < b.second && b.first < a.second;
}

void ShareMemoryCompute(const NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  *outputs[0].dptr<bool>() = ShareMemory(inputs);
}

#if MXNET_USE_CUDA
/*! \brief GPU: the same test on the device pointers; the 0-d result is copied over. */
void ShareMemoryComputeGPU(const NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const bool overlap = ShareMemory(inputs);
  CopyHostToDevice(ctx.get_stream<gpu>(), outputs[0].dptr_, &overlap, sizeof(bool));
}
#endif

}  // namespace

NNVM_REGISTER_OP(_npi_unique)
.describe(R"code(The sorted unique elements of an array (NumPy's unique), and optionally the index
of each one's first occurrence, the inverse index of every input element and the counts. With
``axis`` the unique slices along that axis. Its output shape depends on the values: it runs
imperatively and in hybridized blocks, not in a bound executor. Not differentiable.
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<NpUniqueParam>)
.set_num_inputs(1)
.set_attr<bool>("TNonDifferentiable", true)
.set_num_outputs(UniqueNumOutputs)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<FDataDependentShape>("FDataDependentShape", UniqueDataShape)
.set_attr<mxnet::FInferShape>("FInferShape", UniqueShape)
.set_attr<nnvm::FInferType>("FInferType", UniqueType)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(UniqueCompute))
#endif
.set_attr<FCompute>("FCompute<cpu>", UniqueCompute)
.add_argument("data", "NDArray-or-Symbol", "The input array")
.add_arguments(NpUniqueParam::__FIELDS__());

NNVM_REGISTER_OP(_npx_nonzero)
.add_alias("_npi_nonzero")
.describe(R"code(The indices of the non-zero elements, as an int64 array of shape (N, ndim):
row i holds the coordinates of the i-th non-zero element in C order (the transpose of NumPy's
nonzero). A 0-d input counts as shape (1,). Not differentiable.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_attr<bool>("TNonDifferentiable", true)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"x"};
})
.set_attr<FDataDependentShape>("FDataDependentShape", NonzeroDataShape)
.set_attr<mxnet::FInferShape>("FInferShape", [](const NodeAttrs& attrs, mxnet::ShapeVector* in,
                                                 mxnet::ShapeVector* out) {
  return shape_is_known((*in)[0]) && shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kInt64);
  return (*in)[0] != -1;
})
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(NonzeroCompute))
#endif
.set_attr<FCompute>("FCompute<cpu>", NonzeroCompute)
.add_argument("x", "NDArray-or-Symbol", "The input array");

NNVM_REGISTER_OP(_npi_bincount)
.describe(R"code(Counts the occurrences of each value in a 1-d array of non-negative integers
(NumPy's bincount); with weights, sums the weights per value instead. The output has length
max(data) + 1, at least ``minlength``; it keeps the data's dtype for counts and the weights'
dtype for weighted sums. Not differentiable.
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<NpBincountParam>)
.set_num_inputs([](const NodeAttrs& attrs) {
  return nnvm::get<NpBincountParam>(attrs.parsed).has_weights ? 2u : 1u;
})
.set_attr<bool>("TNonDifferentiable", true)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return nnvm::get<NpBincountParam>(attrs.parsed).has_weights ?
      std::vector<std::string>{"data", "weights"} : std::vector<std::string>{"data"};
})
.set_attr<FDataDependentShape>("FDataDependentShape", BincountDataShape)
.set_attr<mxnet::FInferShape>("FInferShape", BincountShape)
.set_attr<nnvm::FInferType>("FInferType", BincountType)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(BincountCompute))
#endif
.set_attr<FCompute>("FCompute<cpu>", BincountCompute)
.add_argument("data", "NDArray-or-Symbol", "1-d array of non-negative integers")
.add_argument("weights", "NDArray-or-Symbol", "Weights, the shape of data (has_weights=True)")
.add_arguments(NpBincountParam::__FIELDS__());

NNVM_REGISTER_OP(_npi_share_memory)
.describe(R"code(A 0-d boolean: whether the two arrays' memory overlaps (NumPy's shares_memory,
exact). In a bound graph its inputs are the arrays the executor holds.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_attr<bool>("TNonDifferentiable", true)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"a", "b"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const NodeAttrs& attrs, mxnet::ShapeVector* in,
                                                 mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape(0, -1));
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kBool);
  return true;
})
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", ShareMemoryComputeGPU)
#endif
.set_attr<FCompute>("FCompute<cpu>", ShareMemoryCompute)
.add_argument("a", "NDArray-or-Symbol", "First array")
.add_argument("b", "NDArray-or-Symbol", "Second array");

}  // namespace op
}  // namespace mxnet
