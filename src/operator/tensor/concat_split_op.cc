/*!
 * \file concat_split_op.cc
 * \brief Joining and splitting along an axis: Concat (concat), stack, SliceChannel (split),
 *        _split_v2, and their gradients.
 *
 * All of them view each array as (outer, width) rows around the axis: outer is the product of
 * the dims before the axis, width the product of the axis dim and the dims after it. Joining
 * copies each input's row segment into the output row; splitting does the reverse.
 */
#include "./concat_split_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ConcatParam);
DMLC_REGISTER_PARAMETER(StackParam);
DMLC_REGISTER_PARAMETER(SliceChannelParam);
DMLC_REGISTER_PARAMETER(SplitParam);

namespace {

std::vector<std::string> ArgNames(int n) {
  std::vector<std::string> ret;
  for (int i = 0; i < n; ++i) ret.push_back("arg" + std::to_string(i));
  return ret;
}

// ---------------------------------------------------------------- Concat

bool ConcatShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                 mxnet::ShapeVector* out_shape) {
  const ConcatParam& param = nnvm::get<ConcatParam>(attrs.parsed);
  CHECK_EQ(in_shape->size(), static_cast<size_t>(param.num_args));
  mxnet::TShape dshape;
  dim_t size = 0;
  bool unknown = false;
  int axis = -1;
  for (int i = 0; i < param.num_args; ++i) {
    mxnet::TShape tmp = (*in_shape)[i];
    if (!ndim_is_known(tmp)) {
      unknown = true;
      continue;
    }
    if (tmp.ndim() == 0) {
      MX_THROW(ValueError) << "Concat: zero-dimensional arrays cannot be concatenated (input "
                           << i << ")";
    }
    axis = CheckAxis("Concat (dim)", param.dim, tmp.ndim());
    if (tmp[axis] < 0) unknown = true;
    size += tmp[axis];
    tmp[axis] = -1;
    if (!shape_assign(&dshape, tmp)) {
      MX_THROW(ValueError) << "Concat: expected every input to have shape " << dshape
                           << " except on dim " << param.dim << ", got input " << i
                           << " of shape " << (*in_shape)[i];
    }
  }
  mxnet::TShape tmp = (*out_shape)[0];
  if (ndim_is_known(tmp) && tmp.ndim() > 0) {
    axis = CheckAxis("Concat (dim)", param.dim, tmp.ndim());
    tmp[axis] = -1;
    shape_assign(&dshape, tmp);
  }
  if (!ndim_is_known(dshape)) return false;
  for (int i = 0; i < param.num_args; ++i) {
    if (!shape_assign(&(*in_shape)[i], dshape)) {
      MX_THROW(ValueError) << "Concat: incompatible input " << i << ": expected " << dshape
                           << ", got " << (*in_shape)[i];
    }
  }
  if (!unknown) dshape[axis] = size;
  if (!shape_assign(&(*out_shape)[0], dshape)) {
    MX_THROW(ValueError) << "Concat: incompatible output shape: expected " << dshape << ", got "
                         << (*out_shape)[0];
  }
  return shape_is_known(dshape) && !unknown;
}

// ---------------------------------------------------------------- stack

bool StackShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                mxnet::ShapeVector* out_attrs) {
  const StackParam& param = nnvm::get<StackParam>(attrs.parsed);
  CHECK_EQ(in_attrs->size(), static_cast<size_t>(param.num_args));
  mxnet::TShape dshape;
  for (int i = 0; i < param.num_args; ++i) {
    if (!shape_assign(&dshape, (*in_attrs)[i])) {
      MX_THROW(ValueError) << "stack: expected all inputs to have the same shape " << dshape
                           << ", got input " << i << " of shape " << (*in_attrs)[i];
    }
  }
  if (!ndim_is_known(dshape)) return false;
  for (int i = 0; i < param.num_args; ++i) SHAPE_ASSIGN_CHECK(*in_attrs, i, dshape);
  int axis = param.axis;
  if (axis < 0) axis += dshape.ndim() + 1;
  if (axis < 0 || axis > dshape.ndim()) {
    MX_THROW(ValueError) << "stack: axis " << param.axis << " is out of range for inputs with "
                         << dshape.ndim() << " dimension(s), expected an axis in ["
                         << -dshape.ndim() - 1 << ", " << dshape.ndim() << "]";
  }
  std::vector<dim_t> o(dshape.begin(), dshape.end());
  o.insert(o.begin() + axis, param.num_args);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(o.begin(), o.end()));
  return shape_is_known(dshape);
}

// ---------------------------------------------------------------- SliceChannel

bool SliceChannelShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                       mxnet::ShapeVector* out_attrs) {
  const SliceChannelParam& param = nnvm::get<SliceChannelParam>(attrs.parsed);
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), static_cast<size_t>(param.num_outputs));
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) return false;
  const int axis = CheckAxis("split", param.axis, dshape.ndim());
  if (dshape[axis] % param.num_outputs != 0) {
    MX_THROW(ValueError) << "split: num_outputs=" << param.num_outputs
                         << " does not evenly divide the length " << dshape[axis] << " of axis "
                         << param.axis << " (input shape " << dshape << ")";
  }
  std::vector<dim_t> o(dshape.begin(), dshape.end());
  o[axis] /= param.num_outputs;
  if (param.squeeze_axis) {
    if (dshape[axis] != param.num_outputs) {
      MX_THROW(ValueError) << "split: squeeze_axis=True requires the length of axis "
                           << param.axis << " (" << dshape[axis]
                           << ") to equal num_outputs=" << param.num_outputs;
    }
    o.erase(o.begin() + axis);
    if (o.empty()) o.push_back(1);
  }
  for (int i = 0; i < param.num_outputs; ++i) {
    SHAPE_ASSIGN_CHECK(*out_attrs, i, mxnet::TShape(o.begin(), o.end()));
  }
  return true;
}

// ---------------------------------------------------------------- _split_v2

/*! \brief Section boundaries [0, i1, i2, ..., len] of a _split_v2 along an axis of length len. */
std::vector<index_t> SplitBounds(const SplitParam& p, index_t len) {
  std::vector<index_t> b;
  if (p.sections > 0) {
    if (len % p.sections != 0) {
      MX_THROW(ValueError) << "_split_v2: sections=" << p.sections
                           << " does not evenly divide the axis length " << len;
    }
    for (int i = 0; i <= p.sections; ++i) b.push_back(len / p.sections * i);
    return b;
  }
  b.push_back(0);
  for (int i = 0; i < p.indices.ndim(); ++i) {
    if (i == 0 && p.indices[i] == 0) continue;  // Python passes a leading 0
    index_t v = p.indices[i];
    if (v < 0) v += len;
    b.push_back(std::max<index_t>(b.back(), std::min(v, len)));
  }
  b.push_back(len);
  return b;
}

int SplitNumOutputs(const NodeAttrs& attrs) {
  const SplitParam& p = nnvm::get<SplitParam>(attrs.parsed);
  if (p.sections > 0) return p.sections;
  int n = p.indices.ndim() + 1;
  if (p.indices.ndim() > 0 && p.indices[0] == 0) --n;
  return n;
}

bool SplitV2Shape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                  mxnet::ShapeVector* out_attrs) {
  const SplitParam& param = nnvm::get<SplitParam>(attrs.parsed);
  CHECK_EQ(in_attrs->size(), 1U);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) return false;
  const int axis = CheckAxis("_split_v2", param.axis, dshape.ndim());
  const std::vector<index_t> b = SplitBounds(param, dshape[axis]);
  CHECK_EQ(out_attrs->size(), b.size() - 1);
  for (size_t i = 0; i + 1 < b.size(); ++i) {
    std::vector<dim_t> o(dshape.begin(), dshape.end());
    o[axis] = b[i + 1] - b[i];
    if (param.squeeze_axis) {
      if (o[axis] != 1) {
        MX_THROW(ValueError) << "_split_v2: squeeze_axis=True requires sections of length 1, "
                             << "got a section of length " << o[axis];
      }
      o.erase(o.begin() + axis);
      if (o.empty()) o.push_back(1);
    }
    SHAPE_ASSIGN_CHECK(*out_attrs, i, mxnet::TShape(o.begin(), o.end()));
  }
  return true;
}

std::vector<std::string> OutputNames(int n) {
  std::vector<std::string> ret;
  for (int i = 0; i < n; ++i) ret.push_back("output" + std::to_string(i));
  return ret;
}

}  // namespace

NNVM_REGISTER_OP(Concat)
    .add_alias("concat")
    .add_alias("_sparse_concat")
    .describe(R"code(Joins input arrays along a given axis.

.. note:: `Concat` is deprecated. Use `concat` instead.

The dimensions of the input arrays should be the same except the axis along
which they will be concatenated.
The dimension of the output array along the concatenated axis will be equal
to the sum of the corresponding dimensions of the input arrays.

Example::

   x = [[1,1],[2,2]]
   y = [[3,3],[4,4],[5,5]]
   z = [[6,6], [7,7],[8,8]]

   concat(x,y,z,dim=0) = [[ 1.,  1.],
                          [ 2.,  2.],
                          [ 3.,  3.],
                          [ 4.,  4.],
                          [ 5.,  5.],
                          [ 6.,  6.],
                          [ 7.,  7.],
                          [ 8.,  8.]]

   Note that you cannot concat x,y,z along dimension 1 since dimension
   0 is not the same for all the input arrays.

   concat(y,z,dim=1) = [[ 3.,  3.,  6.,  6.],
                         [ 4.,  4.,  7.,  7.],
                         [ 5.,  5.,  8.,  8.]]

)code")
    .set_num_inputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(nnvm::get<ConcatParam>(attrs.parsed).num_args);
    })
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<ConcatParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs& attrs) {
                                       return ArgNames(nnvm::get<ConcatParam>(attrs.parsed).num_args);
                                     })
    .set_attr<std::string>("key_var_num_args", "num_args")
    .set_attr<mxnet::FInferShape>("FInferShape", ConcatShape)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<-1, 1>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_Concat"})
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, ConcatParam, true>))
    .add_argument("data", "NDArray-or-Symbol[]", "List of arrays to concatenate")
    .add_arguments(ConcatParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Concat)
    .set_num_inputs(1)
    .set_num_outputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(nnvm::get<ConcatParam>(attrs.parsed).num_args);
    })
    .set_attr_parser(ParamParser<ConcatParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, ConcatParam, false>));

NNVM_REGISTER_OP(stack)
    .describe(R"code(Join a sequence of arrays along a new axis.

The axis parameter specifies the index of the new axis in the dimensions of the
result. For example, if axis=0 it will be the first dimension and if axis=-1 it
will be the last dimension.

Examples::

  x = [1, 2]
  y = [3, 4]

  stack(x, y) = [[1, 2],
                 [3, 4]]
  stack(x, y, axis=1) = [[1, 3],
                         [2, 4]]
)code")
    .set_num_inputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(nnvm::get<StackParam>(attrs.parsed).num_args);
    })
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<StackParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs& attrs) {
                                       return ArgNames(nnvm::get<StackParam>(attrs.parsed).num_args);
                                     })
    .set_attr<std::string>("key_var_num_args", "num_args")
    .set_attr<mxnet::FInferShape>("FInferShape", StackShape)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<-1, 1>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_stack"})
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, StackParam, true>))
    .add_argument("data", "NDArray-or-Symbol[]", "List of arrays to stack")
    .add_arguments(StackParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_stack)
    .set_num_inputs(1)
    .set_num_outputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(nnvm::get<StackParam>(attrs.parsed).num_args);
    })
    .set_attr_parser(ParamParser<StackParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, StackParam, false>));

NNVM_REGISTER_OP(SliceChannel)
    .add_alias("split")
    .describe(R"code(Splits an array along a particular axis into multiple sub-arrays.

.. note:: ``SliceChannel`` is deprecated. Use ``split`` instead.

**Note** that `num_outputs` should evenly divide the length of the axis
along which to split the array.

Example::

   x  = [[[ 1.]
          [ 2.]]
         [[ 3.]
          [ 4.]]
         [[ 5.]
          [ 6.]]]
   x.shape = (3, 2, 1)

   y = split(x, axis=1, num_outputs=2) // a list of 2 arrays with shape (3, 1, 1)
   y = [[[ 1.]]
        [[ 3.]]
        [[ 5.]]]

       [[[ 2.]]
        [[ 4.]]
        [[ 6.]]]

   y[0].shape = (3, 1, 1)

   z = split(x, axis=0, num_outputs=3) // a list of 3 arrays with shape (1, 2, 1)
   z = [[[ 1.]
         [ 2.]]]

       [[[ 3.]
         [ 4.]]]

       [[[ 5.]
         [ 6.]]]

   z[0].shape = (1, 2, 1)

`squeeze_axis=1` removes the axis with length 1 from the shapes of the output arrays.
**Note** that setting `squeeze_axis` to ``1`` removes axis with length 1 only
along the `axis` which it is split.
Also `squeeze_axis` can be set to true only if ``input.shape[axis] == num_outputs``.

Example::

   z = split(x, axis=0, num_outputs=3, squeeze_axis=1) // a list of 3 arrays with shape (2, 1)
   z = [[ 1.]
        [ 2.]]

       [[ 3.]
        [ 4.]]

       [[ 5.]
        [ 6.]]
   z[0].shape = (2, 1)

)code")
    .set_num_inputs(1)
    .set_num_outputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(nnvm::get<SliceChannelParam>(attrs.parsed).num_outputs);
    })
    .set_attr_parser(ParamParser<SliceChannelParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<nnvm::FListOutputNames>(
        "FListOutputNames",
        [](const NodeAttrs& attrs) {
          return OutputNames(nnvm::get<SliceChannelParam>(attrs.parsed).num_outputs);
        })
    .set_attr<mxnet::FInferShape>("FInferShape", SliceChannelShape)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, -1>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_SliceChannel"})
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, SliceChannelParam, false>))
    .add_argument("data", "NDArray-or-Symbol", "The input")
    .add_arguments(SliceChannelParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SliceChannel)
    .set_num_inputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(nnvm::get<SliceChannelParam>(attrs.parsed).num_outputs);
    })
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceChannelParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, SliceChannelParam, true>));

NNVM_REGISTER_OP(_split_v2)
    .add_alias("_npi_split")
    .describe(R"code(Splits an array along a particular axis into multiple sub-arrays.

Example::

   x  = [[[ 1.]
          [ 2.]]
         [[ 3.]
          [ 4.]]
         [[ 5.]
          [ 6.]]]
   x.shape = (3, 2, 1)

   y = split_v2(x, axis=1, indices_or_sections=2) // a list of 2 arrays with shape (3, 1, 1)
   y = [[[ 1.]]
        [[ 3.]]
        [[ 5.]]]

       [[[ 2.]]
        [[ 4.]]
        [[ 6.]]]

   y[0].shape = (3, 1, 1)

   z = split_v2(x, axis=0, indices_or_sections=(1,)) // a list of 2 arrays
   z[0].shape = (1, 2, 1), z[1].shape = (2, 2, 1)

`squeeze_axis=True` removes the axis with length 1 from the shapes of the output arrays.

)code")
    .set_num_inputs(1)
    .set_num_outputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(SplitNumOutputs(attrs));
    })
    .set_attr_parser(ParamParser<SplitParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<nnvm::FListOutputNames>("FListOutputNames",
                                      [](const NodeAttrs& attrs) {
                                        return OutputNames(SplitNumOutputs(attrs));
                                      })
    .set_attr<mxnet::FInferShape>("FInferShape", SplitV2Shape)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, -1>)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_split_v2_backward"})
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, SplitParam, false>))
    .add_argument("data", "NDArray-or-Symbol", "The input")
    .add_arguments(SplitParam::__FIELDS__());

NNVM_REGISTER_OP(_split_v2_backward)
    .set_num_inputs([](const NodeAttrs& attrs) {
      return static_cast<uint32_t>(SplitNumOutputs(attrs));
    })
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SplitParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", (JoinSplitCompute<cpu, SplitParam, true>));

}  // namespace op
}  // namespace mxnet
