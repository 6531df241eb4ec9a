/*!
 * \file indexing_op.cc
 * \brief Registration of take, batch_take, Embedding, one_hot, gather_nd, scatter_nd, _scatter_set_nd and
 *        their gradients.
 */
#include "./indexing_op-inl.h"

#include "./broadcast_reduce_op-inl.h"  // CheckAxis

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(TakeParam);
DMLC_REGISTER_PARAMETER(EmbeddingParam);
DMLC_REGISTER_PARAMETER(OneHotParam);
DMLC_REGISTER_PARAMETER(ScatterNDParam);

namespace {

// ---------------------------------------------------------------- take

bool TakeShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
               mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ashape = (*in_attrs)[0];
  const mxnet::TShape& ishape = (*in_attrs)[1];
  if (!shape_is_known(ashape) || !shape_is_known(ishape)) return false;
  if (ashape.ndim() == 0) MX_THROW(ValueError) << "take: expected a with at least 1 dim";
  const TakeParam& param = nnvm::get<TakeParam>(attrs.parsed);
  const int axis = CheckAxis("take", param.axis, ashape.ndim());
  std::vector<dim_t> o;
  for (int i = 0; i < axis; ++i) o.push_back(ashape[i]);
  for (int i = 0; i < ishape.ndim(); ++i) o.push_back(ishape[i]);
  for (int i = axis + 1; i < ashape.ndim(); ++i) o.push_back(ashape[i]);
  if (o.empty()) o.push_back(1);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(o.begin(), o.end()));
  return true;
}

/*! \brief Output takes input 0's dtype; input 1 (indices) keeps its own and must be known. */
bool IndexedType(const NodeAttrs& attrs, std::vector<int>* in_attrs,
                 std::vector<int>* out_attrs) {
  TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
  TYPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  return (*out_attrs)[0] != -1 && (*in_attrs)[1] != -1;
}

// ---------------------------------------------------------------- batch_take

bool BatchTakeShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                    mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ashape = (*in_attrs)[0];
  const mxnet::TShape& ishape = (*in_attrs)[1];
  if (!shape_is_known(ashape) || !shape_is_known(ishape)) return false;
  if (ishape.Size() == 0 || ashape.Size() % ishape.Size() != 0 || ashape[0] != static_cast<dim_t>(ishape.Size())) {
    MX_THROW(ValueError) << "batch_take: expected indices with one entry per row of a (shape "
                         << ashape << "), got indices of shape " << ishape;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, ishape);
  return true;
}

// ---------------------------------------------------------------- Embedding

bool EmbeddingShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                    mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  const EmbeddingParam& param = nnvm::get<EmbeddingParam>(attrs.parsed);
  SHAPE_ASSIGN_CHECK(*in_attrs, 1, mxnet::TShape({param.input_dim, param.output_dim}));
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) return false;
  std::vector<dim_t> o(dshape.begin(), dshape.end());
  o.push_back(param.output_dim);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(o.begin(), o.end()));
  return true;
}

bool EmbeddingType(const NodeAttrs& attrs, std::vector<int>* in_attrs,
                   std::vector<int>* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  const EmbeddingParam& param = nnvm::get<EmbeddingParam>(attrs.parsed);
  const int win = (*in_attrs)[1], wout = (*out_attrs)[0];
  if (win != -1 && wout != -1 && win != wout) {
    MX_THROW(TypeError) << "Embedding: expected weight and output of the same dtype, got weight "
                        << mshadow::dtype_string(win) << " and output "
                        << mshadow::dtype_string(wout);
  }
  const int dtype = win != -1 ? win : (wout != -1 ? wout : param.dtype);
  TYPE_ASSIGN_CHECK(*in_attrs, 1, dtype);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, dtype);
  return (*in_attrs)[0] != -1;
}

// ---------------------------------------------------------------- one_hot

bool OneHotShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                 mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const OneHotParam& param = nnvm::get<OneHotParam>(attrs.parsed);
  if (param.depth < 0) MX_THROW(ValueError) << "one_hot: expected depth >= 0, got " << param.depth;
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!shape_is_known(ishape)) return false;
  std::vector<dim_t> o(ishape.begin(), ishape.end());
  o.push_back(param.depth);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(o.begin(), o.end()));
  return true;
}

bool OneHotType(const NodeAttrs& attrs, std::vector<int>* in_attrs,
                std::vector<int>* out_attrs) {
  const OneHotParam& param = nnvm::get<OneHotParam>(attrs.parsed);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, param.dtype);
  return (*in_attrs)[0] != -1;
}

// ---------------------------------------------------------------- gather_nd / scatter_nd

/*! \brief M (index depth), N (index tuples) and K (trailing row length) of gather/scatter. */
/*! \brief The shape gather_nd produces from data `dshape` and indices `ishape`. */
mxnet::TShape GatherNDOutShape(const char* op, const mxnet::TShape& dshape,
                               const mxnet::TShape& ishape) {
  if (ishape.ndim() < 1) MX_THROW(ValueError) << op << ": expected indices with >= 1 dim";
  if (ishape[0] > dshape.ndim()) {
    MX_THROW(ValueError) << op << ": indices of shape " << ishape << " index " << ishape[0]
                         << " dimensions, but the data " << dshape << " has only "
                         << dshape.ndim();
  }
  std::vector<dim_t> o;
  for (int i = 1; i < ishape.ndim(); ++i) o.push_back(ishape[i]);
  for (int i = static_cast<int>(ishape[0]); i < dshape.ndim(); ++i) o.push_back(dshape[i]);
  if (o.empty()) o.push_back(1);
  return mxnet::TShape(o.begin(), o.end());
}

bool GatherNDShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                   mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  const mxnet::TShape& ishape = (*in_attrs)[1];
  if (!shape_is_known(dshape) || !shape_is_known(ishape)) return false;
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, GatherNDOutShape("gather_nd", dshape, ishape));
  return true;
}

template <typename DType>
void GatherRows(const DType* data, const std::vector<index_t>& off, index_t K, DType* out,
                OpReqType req) {
  for (size_t y = 0; y < off.size(); ++y) {
    const DType* src = data + off[y];
    DType* dst = out + y * K;
    for (index_t i = 0; i < K; ++i) KERNEL_ASSIGN(dst[i], req, src[i]);
  }
}

template <typename DType>
void ScatterRows(const DType* in, const std::vector<index_t>& off, index_t K, DType* out,
                 bool add) {
  for (size_t y = 0; y < off.size(); ++y) {
    const DType* src = in + y * K;
    DType* dst = out + off[y];
    for (index_t i = 0; i < K; ++i) dst[i] = add ? static_cast<DType>(dst[i] + src[i]) : src[i];
  }
}

void GatherNDCompute(const NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  index_t M, N, K;
  NDSplit(inputs[0].shape_, inputs[1].shape_, &M, &N, &K);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      const std::vector<index_t> off =
          NDIndexOffsets(inputs[1].dptr<IType>(), M, N, inputs[0].shape_, "gather_nd");
      GatherRows(inputs[0].dptr<DType>(), off, K, outputs[0].dptr<DType>(), req[0]);
    });
  });
}

/*! \brief inputs: ograd, indices; output: grad of data (scatter-add). */
void GatherNDBackward(const NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  index_t M, N, K;
  NDSplit(outputs[0].shape_, inputs[1].shape_, &M, &N, &K);
  ZeroIfWrite(static_cast<mshadow::Stream<cpu>*>(nullptr), outputs[0], req[0]);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      const std::vector<index_t> off =
          NDIndexOffsets(inputs[1].dptr<IType>(), M, N, outputs[0].shape_, "gather_nd");
      ScatterRows(inputs[0].dptr<DType>(), off, K, outputs[0].dptr<DType>(), true);
    });
  });
}

bool ScatterNDShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                    mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const ScatterNDParam& param = nnvm::get<ScatterNDParam>(attrs.parsed);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, param.shape);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  const mxnet::TShape& ishape = (*in_attrs)[1];
  if (!shape_is_known(dshape) || !shape_is_known(ishape)) return false;
  const mxnet::TShape expected = GatherNDOutShape("scatter_nd", param.shape, ishape);
  if (dshape != expected) {
    MX_THROW(ValueError) << "scatter_nd: expected data of shape " << expected
                         << " for indices of shape " << ishape << " and shape=" << param.shape
                         << ", got " << dshape;
  }
  return true;
}

void ScatterNDCompute(const NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  index_t M, N, K;
  NDSplit(outputs[0].shape_, inputs[1].shape_, &M, &N, &K);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, IType, {
      const std::vector<index_t> off =
          NDIndexOffsets(inputs[1].dptr<IType>(), M, N, outputs[0].shape_, "scatter_nd");
      if (req[0] == kAddTo) {
        ScatterRows(inputs[0].dptr<DType>(), off, K, outputs[0].dptr<DType>(), true);
      } else {
        DType* o = outputs[0].dptr<DType>();
        std::fill(o, o + outputs[0].Size(), DType(0));
        ScatterRows(inputs[0].dptr<DType>(), off, K, o, false);
      }
    });
  });
}

bool ScatterSetNDShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                       mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 3U);
  CHECK_EQ(out_attrs->size(), 1U);
  const ScatterNDParam& param = nnvm::get<ScatterNDParam>(attrs.parsed);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, param.shape);
  SHAPE_ASSIGN_CHECK(*in_attrs, 0, param.shape);
  const mxnet::TShape& dshape = (*in_attrs)[1];
  const mxnet::TShape& ishape = (*in_attrs)[2];
  if (!shape_is_known(dshape) || !shape_is_known(ishape)) return false;
  const mxnet::TShape expected = GatherNDOutShape("_scatter_set_nd", param.shape, ishape);
  if (dshape != expected) {
    MX_THROW(ValueError) << "_scatter_set_nd: expected rhs of shape " << expected
                         << " for indices of shape " << ishape << " and shape=" << param.shape
                         << ", got " << dshape;
  }
  return true;
}

bool ScatterSetNDType(const NodeAttrs& attrs, std::vector<int>* in_attrs,
                      std::vector<int>* out_attrs) {
  CHECK_EQ(in_attrs->size(), 3U);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[1]);
  TYPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  TYPE_ASSIGN_CHECK(*in_attrs, 1, (*out_attrs)[0]);
  return (*out_attrs)[0] != -1 && (*in_attrs)[2] != -1;
}

/*! \brief out = lhs (copied unless in place) with out[indices] = rhs. */
void ScatterSetNDCompute(const NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "_scatter_set_nd: req kAddTo is not supported";
  }
  index_t M, N, K;
  NDSplit(outputs[0].shape_, inputs[2].shape_, &M, &N, &K);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(outputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[2].type_flag_, IType, {
      const std::vector<index_t> off =
          NDIndexOffsets(inputs[2].dptr<IType>(), M, N, outputs[0].shape_, "_scatter_set_nd");
      const DType* lhs = inputs[0].dptr<DType>();
      DType* o = outputs[0].dptr<DType>();
      if (lhs != o) std::copy(lhs, lhs + outputs[0].Size(), o);
      ScatterRows(inputs[1].dptr<DType>(), off, K, o, false);
    });
  });
}

}  // namespace

NNVM_REGISTER_OP(take)
    .add_alias("_npi_take")
    .describe(R"code(Takes elements from an input array along the given axis.

This function slices the input array along a particular axis with the provided indices.

Given data tensor of rank r >= 1, and indices tensor of rank q, gather entries of the axis
dimension of data (by default outer-most one as axis=0) indexed by indices, and concatenates
them in an output tensor of rank q + (r - 1).

Examples::

  x = [4.  5.  6.]

  // Trivial case, take the second element along the first axis.

  take(x, [1]) = [ 5. ]

  // The other trivial case, axis=-1, take the third element along the first axis

  take(x, [3], axis=-1, mode='clip') = [ 6. ]

  x = [[ 1.,  2.],
       [ 3.,  4.],
       [ 5.,  6.]]

  // In this case we will get rows 0 and 1, then 1 and 2. Along axis 0

  take(x, [[0,1],[1,2]]) = [[[ 1.,  2.],
                             [ 3.,  4.]],

                            [[ 3.,  4.],
                             [ 5.,  6.]]]

  // In this case we will get rows 0 and 1, then 1 and 2 (calculated by wrapping around).
  // Along axis 1

  take(x, [[0, 3], [-1, -2]], axis=1, mode='wrap') = [[[ 1.  2.]
                                                       [ 2.  1.]]

                                                      [[ 3.  4.]
                                                       [ 4.  3.]]

                                                      [[ 5.  6.]
                                                       [ 6.  5.]]]

The storage type of ``take`` output depends upon the input storage type:

   - take(default, default) = default

)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<TakeParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"a", "indices"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", TakeShape)
    .set_attr<nnvm::FInferType>("FInferType", IndexedType)
    .set_attr<FCompute>("FCompute<cpu>", TakeCompute<cpu>)
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          return MakeNonlossGradNode("_backward_take", n, ograds, {n->inputs[1]},
                                     n->attrs.dict);
        })
    .add_argument("a", "NDArray-or-Symbol", "The input array.")
    .add_argument("indices", "NDArray-or-Symbol", "The indices of the values to be extracted.")
    .add_arguments(TakeParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_take)
    .set_num_inputs(2)
    .set_num_outputs(2)
    .set_attr_parser(ParamParser<TakeParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", TakeBackward<cpu>);

NNVM_REGISTER_OP(batch_take)
    .describe(R"code(Takes elements from a data batch.

.. note::
  `batch_take` is deprecated. Use `pick` instead.

Given an input array of shape ``(d0, d1)`` and indices of shape ``(i0,)``, the result will be
an output array of shape ``(i0,)`` with::

  output[i] = input[i, indices[i]]

Examples::

  x = [[ 1.,  2.],
       [ 3.,  4.],
       [ 5.,  6.]]

  // takes elements with specified indices
  batch_take(x, [0,1,0]) = [ 1.  4.  5.]

)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"a", "indices"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", BatchTakeShape)
    .set_attr<nnvm::FInferType>("FInferType", IndexedType)
    .set_attr<FCompute>("FCompute<cpu>", BatchTakeCompute<cpu>)
    .set_attr<bool>("TNonDifferentiable", true)
    .add_argument("a", "NDArray-or-Symbol", "The input array")
    .add_argument("indices", "NDArray-or-Symbol", "The index array");

NNVM_REGISTER_OP(Embedding)
    .add_alias("_sparse_Embedding")
    .add_alias("_npx_embedding")
    .describe(R"code(Maps integer indices to vector representations (embeddings).

This operator maps words to real-valued vectors in a high-dimensional space,
called word embeddings. These embeddings can capture semantic and syntactic properties of the
words. For example, it has been noted that in the learned embedding spaces, similar words tend
to be close to each other and dissimilar words far apart.

For an input array of shape (d1, ..., dK),
the shape of an output array is (d1, ..., dK, output_dim).
All the input values should be integers in the range [0, input_dim).

If the input_dim is ip0 and output_dim is op0, then shape of the embedding weight matrix must be
(ip0, op0).

When "sparse_grad" is False, if any index mentioned is too large, it is replaced by the index
that addresses the last vector in an embedding matrix.
When "sparse_grad" is True, an error will be raised if invalid indices are found.

Examples::

  input_dim = 4
  output_dim = 5

  // Each row in weight matrix y represents a word. So, y = (w0,w1,w2,w3)
  y = [[  0.,   1.,   2.,   3.,   4.],
       [  5.,   6.,   7.,   8.,   9.],
       [ 10.,  11.,  12.,  13.,  14.],
       [ 15.,  16.,  17.,  18.,  19.]]

  // Input array x represents n-grams(2-gram). So, x = [(w1,w3), (w0,w2)]
  x = [[ 1.,  3.],
       [ 0.,  2.]]

  // Mapped input x to its vector representation y.
  Embedding(x, y, 4, 5) = [[[  5.,   6.,   7.,   8.,   9.],
                            [ 15.,  16.,  17.,  18.,  19.]],

                           [[  0.,   1.,   2.,   3.,   4.],
                            [ 10.,  11.,  12.,  13.,  14.]]]

``sparse_grad=True`` is accepted, but this implementation always produces a dense weight
gradient.

)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<EmbeddingParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data", "weight"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", EmbeddingShape)
    .set_attr<nnvm::FInferType>("FInferType", EmbeddingType)
    .set_attr<FCompute>("FCompute<cpu>", EmbeddingCompute<cpu>)
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          return MakeNonlossGradNode("_backward_Embedding", n, ograds, {n->inputs[0]},
                                     n->attrs.dict);
        })
    .add_argument("data", "NDArray-or-Symbol", "The input array to the embedding operator.")
    .add_argument("weight", "NDArray-or-Symbol", "The embedding weight matrix.")
    .add_arguments(EmbeddingParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Embedding)
    .set_num_inputs(2)
    .set_num_outputs(2)
    .set_attr_parser(ParamParser<EmbeddingParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", EmbeddingBackward<cpu>);

NNVM_REGISTER_OP(one_hot)
    .add_alias("_npx_one_hot")
    .describe(R"code(Returns a one-hot array.

The locations represented by `indices` take value `on_value`, while all
other locations take value `off_value`.

`one_hot` operation with `indices` of shape ``(i0, i1)`` and `depth`  of ``d`` would result
in an output array of shape ``(i0, i1, d)`` with::

  output[i,j,:] = off_value
  output[i,j,indices[i,j]] = on_value

Examples::

  one_hot([1,0,2,0], 3) = [[ 0.  1.  0.]
                           [ 1.  0.  0.]
                           [ 0.  0.  1.]
                           [ 1.  0.  0.]]

  one_hot([1,0,2,0], 3, on_value=8, off_value=1,
          dtype='int32') = [[1 8 1]
                            [8 1 1]
                            [1 1 8]
                            [8 1 1]]

  one_hot([[1,0],[1,0],[2,0]], 3) = [[[ 0.  1.  0.]
                                      [ 1.  0.  0.]]

                                     [[ 0.  1.  0.]
                                      [ 1.  0.  0.]]

                                     [[ 0.  0.  1.]
                                      [ 1.  0.  0.]]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<OneHotParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"indices"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", OneHotShape)
    .set_attr<nnvm::FInferType>("FInferType", OneHotType)
    .set_attr<FCompute>("FCompute<cpu>", OneHotCompute<cpu>)
    .set_attr<bool>("TNonDifferentiable", true)
    .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
    .add_argument("indices", "NDArray-or-Symbol", "array of locations where to set on_value")
    .add_arguments(OneHotParam::__FIELDS__());

NNVM_REGISTER_OP(gather_nd)
    .add_alias("_npi_gather_nd")
    .add_alias("_npx_gather_nd")
    .describe(R"code(Gather elements or slices from `data` and store to a tensor whose
shape is defined by `indices`.

Given `data` with shape `(X_0, X_1, ..., X_{N-1})` and indices with shape
`(M, Y_0, ..., Y_{K-1})`, the output will have shape `(Y_0, ..., Y_{K-1}, X_M, ..., X_{N-1})`,
where `M <= N`. If `M == N`, output shape will simply be `(Y_0, ..., Y_{K-1})`.

The elements in output is defined as follows::

  output[y_0, ..., y_{K-1}, x_M, ..., x_{N-1}] = data[indices[0, y_0, ..., y_{K-1}],
                                                      ...,
                                                      indices[M-1, y_0, ..., y_{K-1}],
                                                      x_M, ..., x_{N-1}]

Examples::

  data = [[0, 1], [2, 3]]
  indices = [[1, 1, 0], [0, 1, 0]]
  gather_nd(data, indices) = [2, 3, 0]

  data = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
  indices = [[0, 1], [1, 0]]
  gather_nd(data, indices) = [[3, 4], [5, 6]]

Negative indices count from the end of their dimension; indices outside the data raise an
error.

)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data", "indices"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", GatherNDShape)
    .set_attr<nnvm::FInferType>("FInferType", IndexedType)
    .set_attr<FCompute>("FCompute<cpu>", GatherNDCompute)
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[1]};
          auto ret = MakeGradNode("_backward_gather_nd", n, heads, {});
          ret.push_back(MakeZeroGradNodes(n, ograds)[1]);
          return ret;
        })
    .add_argument("data", "NDArray-or-Symbol", "data")
    .add_argument("indices", "NDArray-or-Symbol", "indices");

NNVM_REGISTER_OP(_backward_gather_nd)
    .describe("Accumulates data according to indices and get the result. It's the backward of "
              "`gather_nd`.")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", GatherNDBackward);

NNVM_REGISTER_OP(scatter_nd)
    .describe(R"code(Scatters data into a new tensor according to indices.

Given `data` with shape `(Y_0, ..., Y_{K-1}, X_M, ..., X_{N-1})` and indices with shape
`(M, Y_0, ..., Y_{K-1})`, the output will have shape `(X_0, X_1, ..., X_{N-1})`,
where `M <= N`. If `M == N`, data shape should simply be `(Y_0, ..., Y_{K-1})`.

The elements in output is defined as follows::

  output[indices[0, y_0, ..., y_{K-1}],
         ...,
         indices[M-1, y_0, ..., y_{K-1}],
         x_M, ..., x_{N-1}] = data[y_0, ..., y_{K-1}, x_M, ..., x_{N-1}]

all other entries in output are 0.

.. warning::

    If the indices have duplicates, the result will be non-deterministic and
    the gradient of `scatter_nd` will not be correct!!


Examples::

  data = [2, 3, 0]
  indices = [[1, 1, 0], [0, 1, 0]]
  shape = (2, 2)
  scatter_nd(data, indices, shape) = [[0, 0], [2, 3]]

  data = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
  indices = [[0, 1], [1, 1]]
  shape = (2, 2, 2, 2)
  scatter_nd(data, indices, shape) = [[[[0, 0],
                                        [0, 0]],

                                       [[1, 2],
                                        [3, 4]]],

                                      [[[0, 0],
                                        [0, 0]],

                                       [[5, 6],
                                        [7, 8]]]]

)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<ScatterNDParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data", "indices"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", ScatterNDShape)
    .set_attr<nnvm::FInferType>("FInferType", IndexedType)
    .set_attr<FCompute>("FCompute<cpu>", ScatterNDCompute)
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[1]};
          std::vector<nnvm::NodeEntry> ret{nnvm::NodeEntry{
              MakeNode("gather_nd", n->attrs.name + "_backward", &heads, nullptr, &n), 0, 0}};
          ret.push_back(MakeZeroGradNodes(n, ograds)[1]);
          return ret;
        })
    .add_argument("data", "NDArray-or-Symbol", "data")
    .add_argument("indices", "NDArray-or-Symbol", "indices")
    .add_arguments(ScatterNDParam::__FIELDS__());

NNVM_REGISTER_OP(_scatter_set_nd)
    .add_alias("_npi_scatter_set_nd")
    .describe(R"code(This operator has the same functionality as scatter_nd
except that it does not reset the elements not indexed by the input
index `NDArray` in the input data `NDArray`. output should be explicitly
given and be the same as lhs.

.. note:: This operator is for internal use only.

Examples::

  data = [2, 3, 0]
  indices = [[1, 1, 0], [0, 1, 0]]
  out = [[1, 1], [1, 1]]
  _scatter_set_nd(lhs=out, rhs=data, indices=indices, out=out)
  out = [[0, 1], [2, 3]]

)code")
    .set_num_inputs(3)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<ScatterNDParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"lhs", "rhs", "indices"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", ScatterSetNDShape)
    .set_attr<nnvm::FInferType>("FInferType", ScatterSetNDType)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption",
                                    [](const NodeAttrs&) {
                                      return std::vector<std::pair<int, int>>{{0, 0}};
                                    })
    .set_attr<FCompute>("FCompute<cpu>", ScatterSetNDCompute)
    .set_attr<bool>("TNonDifferentiable", true)
    .add_argument("lhs", "NDArray-or-Symbol", "source input")
    .add_argument("rhs", "NDArray-or-Symbol", "value to assign")
    .add_argument("indices", "NDArray-or-Symbol", "indices")
    .add_arguments(ScatterNDParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
