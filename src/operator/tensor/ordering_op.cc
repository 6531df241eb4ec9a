/*!
 * \file ordering_op.cc
 * \brief Registration of topk, sort, argsort and _backward_topk.
 */
#include "./ordering_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(TopKParam);
DMLC_REGISTER_PARAMETER(SortParam);
DMLC_REGISTER_PARAMETER(ArgSortParam);

namespace {

uint32_t TopKNumOutputs(const NodeAttrs& attrs) {
  const int r = nnvm::get<TopKParam>(attrs.parsed).ret_typ;
  return r == topk_enum::kReturnIndices || r == topk_enum::kReturnMask ? 1 : 2;
}

uint32_t TopKNumVisibleOutputs(const NodeAttrs& attrs) {
  return nnvm::get<TopKParam>(attrs.parsed).ret_typ == topk_enum::kReturnBoth ? 2 : 1;
}

/*! \brief The shape of the k kept entries of each row. */
mxnet::TShape TopKShapeOf(const mxnet::TShape& ishape, const SortSpec& s,
                          const dmlc::optional<int>& axis) {
  if (s.flatten) return mxnet::TShape({s.k});
  mxnet::TShape o = ishape;
  o[CheckAxis("topk", axis.value(), ishape.ndim())] = s.k;
  return o;
}

bool TopKShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
               mxnet::ShapeVector* out_attrs) {
  const TopKParam& p = nnvm::get<TopKParam>(attrs.parsed);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!shape_is_known(ishape)) return false;
  const SortSpec s = MakeSortSpec("topk", ishape, p.axis, p.k, p.is_ascend);
  const mxnet::TShape kshape = TopKShapeOf(ishape, s, p.axis);
  if (p.ret_typ == topk_enum::kReturnMask) {
    SHAPE_ASSIGN_CHECK(*out_attrs, 0, ishape);
  } else {
    for (size_t i = 0; i < out_attrs->size(); ++i) SHAPE_ASSIGN_CHECK(*out_attrs, i, kshape);
  }
  return true;
}

bool TopKType(const NodeAttrs& attrs, std::vector<int>* in_attrs, std::vector<int>* out_attrs) {
  const TopKParam& p = nnvm::get<TopKParam>(attrs.parsed);
  const int dtype = (*in_attrs)[0];
  switch (p.ret_typ) {
    case topk_enum::kReturnIndices:
      TYPE_ASSIGN_CHECK(*out_attrs, 0, p.dtype);
      break;
    case topk_enum::kReturnMask:
      TYPE_ASSIGN_CHECK(*out_attrs, 0, dtype);
      break;
    default:
      TYPE_ASSIGN_CHECK(*out_attrs, 0, dtype);
      TYPE_ASSIGN_CHECK(*out_attrs, 1, p.dtype);
      break;
  }
  return dtype != -1;
}

/*! \brief Writes the results of a sort of `in` per spec s into the outputs asked for. */
void SortOutputs(const TBlob& in, const SortSpec& s, const TBlob* values, const TBlob* indices,
                 const TBlob* mask, const std::vector<OpReqType>& req) {
  MSHADOW_TYPE_SWITCH(in.type_flag_, DType, {
    const DType* x = in.dptr<DType>();
    std::vector<index_t> order;
    SortRows(x, s, &order);
    const index_t rows = s.outer * s.inner;
    auto src_of = [&](index_t pos) {  // input offset of kept entry at output position pos
      const index_t o = pos / (s.k * s.inner), i = pos % s.inner;
      return (o * s.n + order[pos]) * s.inner + i;
    };
    const index_t total = rows * s.k;
    if (values != nullptr && req[0] != kNullOp) {
      DType* v = values->dptr<DType>();
      for (index_t pos = 0; pos < total; ++pos) KERNEL_ASSIGN(v[pos], req[0], x[src_of(pos)]);
    }
    if (indices != nullptr) {
      const OpReqType r = req[values != nullptr ? 1 : 0];
      if (r != kNullOp) {
        MSHADOW_TYPE_SWITCH(indices->type_flag_, IType, {
          IType* id = indices->dptr<IType>();
          for (index_t pos = 0; pos < total; ++pos) {
            KERNEL_ASSIGN(id[pos], r, static_cast<IType>(order[pos]));
          }
        });
      }
    }
    if (mask != nullptr && req[0] != kNullOp) {
      DType* m = mask->dptr<DType>();
      if (req[0] != kAddTo) std::fill(m, m + mask->Size(), DType(0));
      for (index_t pos = 0; pos < total; ++pos) {
        const index_t off = src_of(pos);
        m[off] = req[0] == kAddTo ? static_cast<DType>(m[off] + DType(1)) : DType(1);
      }
    }
  });
}

void TopKCompute(const NodeAttrs& attrs, const OpContext& ctx, const std::vector<TBlob>& inputs,
                 const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const TopKParam& p = nnvm::get<TopKParam>(attrs.parsed);
  const SortSpec s = MakeSortSpec("topk", inputs[0].shape_, p.axis, p.k, p.is_ascend);
  switch (p.ret_typ) {
    case topk_enum::kReturnIndices:
      SortOutputs(inputs[0], s, nullptr, &outputs[0], nullptr, req);
      break;
    case topk_enum::kReturnMask:
      SortOutputs(inputs[0], s, nullptr, nullptr, &outputs[0], req);
      break;
    default:
      SortOutputs(inputs[0], s, &outputs[0], &outputs[1], nullptr, req);
      break;
  }
}

/*! \brief inputs: ograd of the values, values, indices; output: grad of data. */
void TopKBackward(const NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TopKParam& p = nnvm::get<TopKParam>(attrs.parsed);
  const TBlob& igrad = outputs[0];
  const TBlob& idx = inputs[2];
  SortSpec s = MakeSortSpec("topk", igrad.shape_, p.axis, 0, p.is_ascend);
  const index_t rows = s.outer * s.inner;
  s.k = rows == 0 ? 0 : static_cast<index_t>(idx.Size()) / rows;
  MSHADOW_TYPE_SWITCH(igrad.type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(idx.type_flag_, IType, {
      DType* g = igrad.dptr<DType>();
      const DType* og = inputs[0].dptr<DType>();
      const IType* id = idx.dptr<IType>();
      if (req[0] != kAddTo) std::fill(g, g + igrad.Size(), DType(0));
      for (index_t pos = 0; pos < rows * s.k; ++pos) {
        const index_t o = pos / (s.k * s.inner), i = pos % s.inner;
        const index_t off = (o * s.n + static_cast<index_t>(id[pos])) * s.inner + i;
        g[off] = static_cast<DType>(g[off] + og[pos]);
      }
    });
  });
}

std::vector<nnvm::NodeEntry> SortGrad(const nnvm::ObjectPtr& n,
                                      const std::vector<nnvm::NodeEntry>& ograds,
                                      const std::unordered_map<std::string, std::string>& dict) {
  std::vector<nnvm::NodeEntry> outs;
  for (uint32_t i = 0; i < n->num_outputs(); ++i) outs.emplace_back(nnvm::NodeEntry{n, i, 0});
  return MakeNonlossGradNode("_backward_topk", n, {ograds[0]}, outs, dict);
}

std::string OptionalIntString(const dmlc::optional<int>& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

NNVM_REGISTER_OP(topk)
    .add_alias("_npx_topk")
    .describe(R"code(Returns the indices of the top *k* elements in an input array along the given
 axis (by default).
 If ret_type is set to 'value' returns the value of top *k* elements (instead of indices).
 In case of ret_type = 'both', both value and index would be returned.
 The returned elements will be sorted.

Examples::

  x = [[ 0.3,  0.2,  0.4],
       [ 0.1,  0.3,  0.2]]

  // returns an index of the largest element on last axis
  topk(x) = [[ 2.],
             [ 1.]]

  // returns the value of top-2 largest elements on last axis
  topk(x, ret_typ='value', k=2) = [[ 0.4,  0.3],
                                   [ 0.3,  0.2]]

  // returns the value of top-2 smallest elements on last axis
  topk(x, ret_typ='value', k=2, is_ascend=1) = [[ 0.2 ,  0.3],
                                               [ 0.1 ,  0.2]]

  // returns the value of top-2 largest elements on axis 0
  topk(x, axis=0, ret_typ='value', k=2) = [[ 0.3,  0.3,  0.4],
                                           [ 0.1,  0.2,  0.2]]

  // flattens and then returns list of both values and indices
  topk(x, ret_typ='both', k=2) = [[[ 0.4,  0.3], [ 0.3,  0.2]] ,  [[ 2.,  0.], [ 1.,  2.]]]

)code")
    .set_num_inputs(1)
    .set_num_outputs(TopKNumOutputs)
    .set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", TopKNumVisibleOutputs)
    .set_attr_parser(ParamParser<TopKParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", TopKShape)
    .set_attr<nnvm::FInferType>("FInferType", TopKType)
    .set_attr<FCompute>("FCompute<cpu>", TopKCompute)
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          const TopKParam& p = nnvm::get<TopKParam>(n->attrs.parsed);
          if (p.ret_typ == topk_enum::kReturnValue || p.ret_typ == topk_enum::kReturnBoth) {
            return SortGrad(n, ograds, n->attrs.dict);
          }
          return MakeZeroGradNodes(n, ograds);
        })
    .add_argument("data", "NDArray-or-Symbol", "The input array")
    .add_arguments(TopKParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_topk)
    .set_num_inputs(3)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<TopKParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", TopKBackward);

NNVM_REGISTER_OP(sort)
    .add_alias("_npi_sort")
    .describe(R"code(Returns a sorted copy of an input array along the given axis.

Examples::

  x = [[ 1, 4],
       [ 3, 1]]

  // sorts along the last axis
  sort(x) = [[ 1.,  4.],
             [ 1.,  3.]]

  // flattens and then sorts
  sort(x, axis=None) = [ 1.,  1.,  3.,  4.]

  // sorts along the first axis
  sort(x, axis=0) = [[ 1.,  1.],
                     [ 3.,  4.]]

  // in a descend order
  sort(x, is_ascend=0) = [[ 4.,  1.],
                          [ 3.,  1.]]

)code")
    .set_num_inputs(1)
    .set_num_outputs(2)
    .set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs",
                                        [](const NodeAttrs&) { return uint32_t(1); })
    .set_attr_parser(ParamParser<SortParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<mxnet::FInferShape>(
        "FInferShape",
        [](const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs, mxnet::ShapeVector* out_attrs) {
          const SortParam& p = nnvm::get<SortParam>(attrs.parsed);
          const mxnet::TShape& ishape = (*in_attrs)[0];
          if (!shape_is_known(ishape)) return false;
          const SortSpec s = MakeSortSpec("sort", ishape, p.axis, 0, p.is_ascend);
          const mxnet::TShape o = s.flatten ? mxnet::TShape({s.n}) : ishape;
          SHAPE_ASSIGN_CHECK(*out_attrs, 0, o);
          SHAPE_ASSIGN_CHECK(*out_attrs, 1, o);
          return true;
        })
    .set_attr<nnvm::FInferType>("FInferType",
                                [](const NodeAttrs& attrs, std::vector<int>* in_attrs,
                                   std::vector<int>* out_attrs) {
                                  TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
                                  TYPE_ASSIGN_CHECK(*out_attrs, 1, mshadow::kFloat32);
                                  return (*in_attrs)[0] != -1;
                                })
    .set_attr<FCompute>("FCompute<cpu>",
                        [](const NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
                          const SortParam& p = nnvm::get<SortParam>(attrs.parsed);
                          const SortSpec s =
                              MakeSortSpec("sort", inputs[0].shape_, p.axis, 0, p.is_ascend);
                          SortOutputs(inputs[0], s, &outputs[0], &outputs[1], nullptr, req);
                        })
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          const SortParam& p = nnvm::get<SortParam>(n->attrs.parsed);
          return SortGrad(n, ograds,
                          {{"axis", OptionalIntString(p.axis)},
                           {"k", "0"},
                           {"ret_typ", "value"},
                           {"is_ascend", p.is_ascend ? "1" : "0"}});
        })
    .add_argument("data", "NDArray-or-Symbol", "The input array")
    .add_arguments(SortParam::__FIELDS__());

NNVM_REGISTER_OP(argsort)
    .add_alias("_npi_argsort")
    .describe(R"code(Returns the indices that would sort an input array along the given axis.

This function performs sorting along the given axis and returns an array of indices having same
shape as an input array that index data in sorted order.

Examples::

  x = [[ 0.3,  0.2,  0.4],
       [ 0.1,  0.3,  0.2]]

  // sort along axis -1
  argsort(x) = [[ 1.,  0.,  2.],
                [ 0.,  2.,  1.]]

  // sort along axis 0
  argsort(x, axis=0) = [[ 1.,  0.,  1.]
                        [ 0.,  1.,  0.]]

  // flatten and then sort
  argsort(x, axis=None) = [ 3.,  1.,  5.,  0.,  4.,  2.]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<ArgSortParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<mxnet::FInferShape>(
        "FInferShape",
        [](const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs, mxnet::ShapeVector* out_attrs) {
          const ArgSortParam& p = nnvm::get<ArgSortParam>(attrs.parsed);
          const mxnet::TShape& ishape = (*in_attrs)[0];
          if (!shape_is_known(ishape)) return false;
          const SortSpec s = MakeSortSpec("argsort", ishape, p.axis, 0, p.is_ascend);
          SHAPE_ASSIGN_CHECK(*out_attrs, 0, s.flatten ? mxnet::TShape({s.n}) : ishape);
          return true;
        })
    .set_attr<nnvm::FInferType>("FInferType",
                                [](const NodeAttrs& attrs, std::vector<int>* in_attrs,
                                   std::vector<int>* out_attrs) {
                                  const ArgSortParam& p = nnvm::get<ArgSortParam>(attrs.parsed);
                                  TYPE_ASSIGN_CHECK(*out_attrs, 0, p.dtype);
                                  return (*in_attrs)[0] != -1;
                                })
    .set_attr<FCompute>("FCompute<cpu>",
                        [](const NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
                          const ArgSortParam& p = nnvm::get<ArgSortParam>(attrs.parsed);
                          const SortSpec s =
                              MakeSortSpec("argsort", inputs[0].shape_, p.axis, 0, p.is_ascend);
                          SortOutputs(inputs[0], s, nullptr, &outputs[0], nullptr, req);
                        })
    .set_attr<bool>("TNonDifferentiable", true)
    .set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
    .add_argument("data", "NDArray-or-Symbol", "The input array")
    .add_arguments(ArgSortParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
