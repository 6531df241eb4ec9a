/*!
 * \file matrix_op.cc
 * \brief Registration of the shape ops: Reshape, Flatten, transpose, SwapAxis, expand_dims,
 *        squeeze, tile, repeat, reverse, depth_to_space, space_to_depth, diag (stack, Concat
 *        and split live in concat_split_op.cc, the slices in matrix_slice_op.cc).
 */
#include <memory>

#include "./matrix_op-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(ReshapeParam);
DMLC_REGISTER_PARAMETER(TransposeParam);
DMLC_REGISTER_PARAMETER(SwapAxisParam);
DMLC_REGISTER_PARAMETER(ExpandDimParam);
DMLC_REGISTER_PARAMETER(SqueezeParam);
DMLC_REGISTER_PARAMETER(TileParam);
DMLC_REGISTER_PARAMETER(RepeatParam);
DMLC_REGISTER_PARAMETER(ReverseParam);
DMLC_REGISTER_PARAMETER(DepthToSpaceParam);
DMLC_REGISTER_PARAMETER(DiagParam);

namespace {

std::vector<std::string> DataInputName(const NodeAttrs&) { return {"data"}; }

std::vector<std::pair<int, int>> InplaceZero(const NodeAttrs&) { return {{0, 0}}; }

std::vector<bool> InplaceIdentityTrue(const NodeAttrs&) { return {true}; }

/*! \brief Output 0 gets input 0's dtype and back (any dtype, including bool). */
bool SameType(const NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  return ElemwiseType<1, 1>(attrs, in, out);
}

// ---------------------------------------------------------------- Reshape / Flatten

bool ReshapeShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                  mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U) << "Reshape: expected 1 input";
  CHECK_EQ(out_attrs->size(), 1U);
  const ReshapeParam& param = nnvm::get<ReshapeParam>(attrs.parsed);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) {
    // Backward inference (as 1.9.1): an input with one unknown dim and a known output size
    // (e.g. Gluon's deferred RNN weights flattened with reshape(-1)).
    const mxnet::TShape& out = (*out_attrs)[0];
    if (!ndim_is_known(dshape) || !shape_is_known(out)) return false;
    int unknown = -1;
    dim_t known = 1;
    for (int i = 0; i < dshape.ndim(); ++i) {
      if (dshape[i] >= 0) {
        known *= dshape[i];
      } else if (unknown >= 0) {
        return false;
      } else {
        unknown = i;
      }
    }
    if (unknown < 0 || known <= 0 || out.Size() % known != 0) return false;
    (*in_attrs)[0][unknown] = static_cast<dim_t>(out.Size()) / known;
  }
  mxnet::TShape oshape;
  if (param.shape.ndim() > 0) {
    oshape = InferReshapeShape(dshape, mxnet::TShape(param.shape.begin(), param.shape.end()),
                               param.reverse);
  } else if (param.target_shape.ndim() > 0) {
    oshape = ReshapeTargetShape(param, dshape);
  } else {
    MX_THROW(ValueError) << "Reshape: expected a target shape (shape=...), got none for input "
                         << dshape;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, oshape);
  return true;
}

bool FlattenShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                  mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U) << "Flatten: expected 1 input";
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) return false;
  if (dshape.ndim() == 0) {
    SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape({1, 1}));
    return true;
  }
  dim_t rest = 1;
  for (int i = 1; i < dshape.ndim(); ++i) rest *= dshape[i];
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape({dshape[0], rest}));
  return true;
}

// ---------------------------------------------------------------- transpose / SwapAxis

bool TransposeShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                    mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& shp = (*in_attrs)[0];
  if (!ndim_is_known(shp)) return false;
  const TransposeParam& param = nnvm::get<TransposeParam>(attrs.parsed);
  const std::vector<int> axes = TransposeAxes("transpose", param.axes, shp.ndim());
  mxnet::TShape ret(shp.ndim(), -1);
  for (int i = 0; i < shp.ndim(); ++i) ret[i] = shp[axes[i]];
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, ret);
  return shape_is_known(ret);
}


std::vector<nnvm::NodeEntry> TransposeGrad(const nnvm::ObjectPtr& n,
                                           const std::vector<nnvm::NodeEntry>& ograds) {
  const TransposeParam& param = nnvm::get<TransposeParam>(n->attrs.parsed);
  std::unordered_map<std::string, std::string> dict;
  if (param.axes.ndim() > 0) {
    mxnet::TShape inv(param.axes.ndim(), -1);
    const int nd = param.axes.ndim();
    for (int i = 0; i < nd; ++i) inv[(param.axes[i] + nd) % nd] = i;
    std::ostringstream os;
    os << inv;
    dict["axes"] = os.str();
  }
  std::vector<nnvm::NodeEntry> heads{ograds[0]};
  return MakeGradNode("transpose", n, heads, dict);
}


bool SwapAxisShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                   mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& shp = (*in_attrs)[0];
  if (!ndim_is_known(shp)) return false;
  const std::vector<int> axes = SwapAxes(nnvm::get<SwapAxisParam>(attrs.parsed), shp.ndim());
  mxnet::TShape ret(shp.ndim(), -1);
  for (int i = 0; i < shp.ndim(); ++i) ret[i] = shp[axes[i]];
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, ret);
  return shape_is_known(ret);
}


// ---------------------------------------------------------------- expand_dims / squeeze

bool ExpandDimShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                    mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const ExpandDimParam& param = nnvm::get<ExpandDimParam>(attrs.parsed);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  const int nd = ishape.ndim();
  int axis = param.axis;
  if (axis < 0) axis += nd + 1;
  if (axis < 0 || axis > nd) {
    MX_THROW(ValueError) << "expand_dims: axis " << param.axis << " is out of range for an "
                         << "input with " << nd << " dimension(s), expected an axis in ["
                         << -nd - 1 << ", " << nd << "]";
  }
  std::vector<dim_t> v(ishape.begin(), ishape.end());
  v.insert(v.begin() + axis, 1);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(v.begin(), v.end()));
  return shape_is_known(ishape);
}

bool SqueezeShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                  mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const SqueezeParam& param = nnvm::get<SqueezeParam>(attrs.parsed);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) return false;
  const int nd = dshape.ndim();
  std::vector<bool> drop(nd, false);
  if (param.axis.has_value()) {
    for (dim_t a : param.axis.value()) {
      const int ax = CheckAxis("squeeze", static_cast<int>(a), nd);
      if (dshape[ax] != 1) {
        MX_THROW(ValueError) << "squeeze: cannot select axis " << a
                             << " to squeeze out: it has size " << dshape[ax]
                             << ", expected 1 (input shape " << dshape << ")";
      }
      if (drop[ax]) MX_THROW(ValueError) << "squeeze: duplicate value in axis=" << param.axis;
      drop[ax] = true;
    }
  } else {
    for (int i = 0; i < nd; ++i) drop[i] = dshape[i] == 1;
  }
  std::vector<dim_t> v;
  for (int i = 0; i < nd; ++i) {
    if (!drop[i]) v.push_back(dshape[i]);
  }
  if (v.empty()) v.push_back(1);  // (1, 1, 1) squeezes to (1,)
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(v.begin(), v.end()));
  return true;
}

// ---------------------------------------------------------------- tile / repeat

bool TileShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
               mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const TileParam& param = nnvm::get<TileParam>(attrs.parsed);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!shape_is_known(ishape)) return false;
  for (dim_t r : param.reps) {
    if (r < 0) {
      MX_THROW(ValueError) << "tile: expected non-negative reps, got reps=" << param.reps;
    }
  }
  std::vector<index_t> in, rp;
  TilePadded(ishape, param.reps, &in, &rp);
  std::vector<dim_t> o(in.size());
  for (size_t i = 0; i < in.size(); ++i) o[i] = in[i] * rp[i];
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(o.begin(), o.end()));
  return true;
}



bool RepeatShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                 mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const RepeatParam& param = nnvm::get<RepeatParam>(attrs.parsed);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!shape_is_known(ishape)) return false;
  if (param.repeats < 0) {
    MX_THROW(ValueError) << "repeat: expected repeats >= 0, got repeats=" << param.repeats;
  }
  if (!param.axis.has_value()) {
    SHAPE_ASSIGN_CHECK(*out_attrs, 0,
                       mxnet::TShape({static_cast<dim_t>(ishape.Size()) * param.repeats}));
    return true;
  }
  const int axis = CheckAxis("repeat", param.axis.value(), ishape.ndim());
  mxnet::TShape o = ishape;
  o[axis] *= param.repeats;
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, o);
  return true;
}



// ---------------------------------------------------------------- reverse

bool ReverseShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                  mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const ReverseParam& param = nnvm::get<ReverseParam>(attrs.parsed);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  if (!ndim_is_known(ishape)) return false;
  for (int a : param.axis) CheckAxis("reverse", a, ishape.ndim());
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, ishape);
  SHAPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  return shape_is_known(ishape);
}


// ---------------------------------------------------------------- depth_to_space / space_to_depth

template <bool to_space>
bool DepthSpaceShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                     mxnet::ShapeVector* out_attrs) {
  const char* op = to_space ? "depth_to_space" : "space_to_depth";
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& s = (*in_attrs)[0];
  if (!shape_is_known(s)) return false;
  const int b = nnvm::get<DepthToSpaceParam>(attrs.parsed).block_size;
  if (s.ndim() != 4) {
    MX_THROW(ValueError) << op << ": expected a 4-D input (N, C, H, W), got " << s;
  }
  if (b <= 0) MX_THROW(ValueError) << op << ": expected block_size > 0, got " << b;
  mxnet::TShape o = s;
  if (to_space) {
    if (s[1] % (b * b) != 0) {
      MX_THROW(ValueError) << op << ": the channel dimension " << s[1]
                           << " must be a multiple of block_size^2 = " << b * b;
    }
    o[1] = s[1] / (b * b);
    o[2] = s[2] * b;
    o[3] = s[3] * b;
  } else {
    if (s[2] % b != 0 || s[3] % b != 0) {
      MX_THROW(ValueError) << op << ": height " << s[2] << " and width " << s[3]
                           << " must be multiples of block_size " << b;
    }
    o[1] = s[1] * b * b;
    o[2] = s[2] / b;
    o[3] = s[3] / b;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, o);
  return true;
}


// ---------------------------------------------------------------- diag



bool DiagShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
               mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const DiagParam& param = nnvm::get<DiagParam>(attrs.parsed);
  const mxnet::TShape& s = (*in_attrs)[0];
  if (!shape_is_known(s)) return false;
  if (s.ndim() == 0) MX_THROW(ValueError) << "diag: expected an input with at least 1 dim";
  if (s.ndim() == 1) {
    const dim_t m = s[0] + (param.k >= 0 ? param.k : -param.k);
    SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape({m, m}));
    return true;
  }
  mxnet::TShape o;
  DiagView(param, s, &o);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, o);
  return true;
}


}  // namespace

// ================================================================ registrations

NNVM_REGISTER_OP(Reshape)
    .add_alias("reshape")
    .describe(R"code(Reshapes the input array.

.. note:: ``Reshape`` is deprecated, use ``reshape``

Given an array and a shape, this function returns a copy of the array in the new shape.
The shape is a tuple of integers such as (2,3,4). The size of the new shape should be same as
the size of the input array.

Example::

  reshape([1,2,3,4], shape=(2,2)) = [[1,2], [3,4]]

Some dimensions of the shape can take special values from the set {0, -1, -2, -3, -4}. The
significance of each is explained below:

- ``0``  copy this dimension from the input to the output shape.

  Example::

  - input shape = (2,3,4), shape = (4,0,2), output shape = (4,3,2)
  - input shape = (2,3,4), shape = (2,0,0), output shape = (2,3,4)

- ``-1`` infers the dimension of the output shape by using the remainder of the input
  dimensions keeping the size of the new array same as that of the input array.
  At most one dimension of shape can be -1.

  Example::

  - input shape = (2,3,4), shape = (6,1,-1), output shape = (6,1,4)
  - input shape = (2,3,4), shape = (3,-1,8), output shape = (3,1,8)
  - input shape = (2,3,4), shape=(-1,), output shape = (24,)

- ``-2`` copy all/remainder of the input dimensions to the output shape.

  Example::

  - input shape = (2,3,4), shape = (-2,), output shape = (2,3,4)
  - input shape = (2,3,4), shape = (2,-2), output shape = (2,3,4)
  - input shape = (2,3,4), shape = (-2,1,1), output shape = (2,3,4,1,1)

- ``-3`` use the product of two consecutive dimensions of the input shape as the output
  dimension.

  Example::

  - input shape = (2,3,4), shape = (-3,4), output shape = (6,4)
  - input shape = (2,3,4,5), shape = (-3,-3), output shape = (6,20)
  - input shape = (2,3,4), shape = (0,-3), output shape = (2,12)
  - input shape = (2,3,4), shape = (-3,-2), output shape = (6,4)

- ``-4`` split one dimension of the input into two dimensions passed subsequent to -4 in
  shape (can contain -1).

  Example::

  - input shape = (2,3,4), shape = (-4,1,2,-2), output shape =(1,2,3,4)
  - input shape = (2,3,4), shape = (2,-4,-1,3,-2), output shape = (2,1,3,4)

If the argument `reverse` is set to 1, then the special values are inferred from right to
left.

  Example::

  - without reverse=1, for input shape = (10,5,4), shape = (-1,0), output shape would be
    (40,5)
  - with reverse=1, output shape will be (50,4).

The new shape must have as many elements as the input; a mismatch raises an error.

)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<ReshapeParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", ReshapeShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceZero)
    .set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_reshape"})
    .set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Input data to reshape.")
    .add_arguments(ReshapeParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_reshape)
    .set_num_inputs(1)
    // Second order: reshaping is linear; the gradient is the forward reshape (Flatten, ...) of g.
    .set_attr<nnvm::FGradient>("FGradient", LinearForwardAgainGrad)
    .set_num_outputs(1)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceZero)
    .set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
    .set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>);

NNVM_REGISTER_OP(Flatten)
    .add_alias("_npx_batch_flatten")
    .add_alias("flatten")
    .describe(R"code(Flattens the input array into a 2-D array by collapsing the higher dimensions.

.. note:: `Flatten` is deprecated. Use `flatten` instead.

For an input array with shape ``(d1, d2, ..., dk)``, `flatten` operation reshapes
the input array into an output array of shape ``(d1, d2*...*dk)``.

Note that the behavior of this function is different from numpy.ndarray.flatten,
which behaves similar to mxnet.ndarray.reshape((-1,)).

Example::

    x = [[
        [1,2,3],
        [4,5,6],
        [7,8,9]
    ],
    [    [1,2,3],
        [4,5,6],
        [7,8,9]
    ]],

    flatten(x) = [[ 1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9.],
       [ 1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9.]]

)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr<mxnet::FInferShape>("FInferShape", FlattenShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceZero)
    .set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_reshape"})
    .set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Input array.");

NNVM_REGISTER_OP(transpose)
    .describe(R"code(Permutes the dimensions of an array.

Examples::

  x = [[ 1, 2],
       [ 3, 4]]

  transpose(x) = [[ 1.,  3.],
                  [ 2.,  4.]]

  x = [[[ 1.,  2.],
        [ 3.,  4.]],

       [[ 5.,  6.],
        [ 7.,  8.]]]

  transpose(x) = [[[ 1.,  5.],
                   [ 3.,  7.]],

                  [[ 2.,  6.],
                   [ 4.,  8.]]]

  transpose(x, axes=(1,0,2)) = [[[ 1.,  2.],
                                 [ 5.,  6.]],

                                [[ 3.,  4.],
                                 [ 7.,  8.]]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<TransposeParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", TransposeShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", TransposeGrad)
    .set_attr<FCompute>("FCompute<cpu>", TransposeCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Source input")
    .add_arguments(TransposeParam::__FIELDS__());

NNVM_REGISTER_OP(SwapAxis)
    .add_alias("_npi_swapaxes")
    .add_alias("swapaxes")
    .describe(R"code(Interchanges two axes of an array.

Examples::

  x = [[1, 2, 3]])
  swapaxes(x, 0, 1) = [[ 1],
                       [ 2],
                       [ 3]]

  x = [[[ 0, 1],
        [ 2, 3]],
       [[ 4, 5],
        [ 6, 7]]]  // (2,2,2) array

 swapaxes(x, 0, 2) = [[[ 0, 4],
                       [ 2, 6]],
                      [[ 1, 5],
                       [ 3, 7]]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SwapAxisParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", SwapAxisShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"SwapAxis"})
    .set_attr<FCompute>("FCompute<cpu>", SwapAxisCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Input array.")
    .add_arguments(SwapAxisParam::__FIELDS__());

NNVM_REGISTER_OP(expand_dims)
    .add_alias("_npi_expand_dims")
    .describe(R"code(Inserts a new axis of size 1 into the array shape.

For example, given ``x`` with shape ``(2,3,4)``, then ``expand_dims(x, axis=1)``
will return a new array with shape ``(2,1,3,4)``.

)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<ExpandDimParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", ExpandDimShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceZero)
    .set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_reshape"})
    .set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Source input")
    .add_arguments(ExpandDimParam::__FIELDS__());

NNVM_REGISTER_OP(squeeze)
    .describe(R"code(Remove single-dimensional entries from the shape of an array.
Same behavior of defining the output tensor shape as numpy.squeeze for the most of cases.
See the following note for exception.

Examples::

  data = [[[0], [1], [2]]]
  squeeze(data) = [0, 1, 2]
  squeeze(data, axis=0) = [[0], [1], [2]]
  squeeze(data, axis=2) = [[0, 1, 2]]
  squeeze(data, axis=(0, 2)) = [0, 1, 2]

.. Note::
  The output of this operator will keep at least one dimension not removed. For example,
  squeeze([[[4]]]) = [4], while in numpy.squeeze, the output will become a scalar.
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SqueezeParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", SqueezeShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceZero)
    .set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_squeeze"})
    .set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol[]", "data to squeeze")
    .add_arguments(SqueezeParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_squeeze)
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption", InplaceZero)
    .set_attr<nnvm::FInplaceIdentity>("FInplaceIdentity", InplaceIdentityTrue)
    .set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>);

NNVM_REGISTER_OP(tile)
    .add_alias("_npi_tile")
    .describe(R"code(Repeats the whole array multiple times.

If ``reps`` has length *d*, and input array has dimension of *n*. There are
three cases:

- **n=d**. Repeat *i*-th dimension of the input by ``reps[i]`` times::

    x = [[1, 2],
         [3, 4]]

    tile(x, reps=(2,3)) = [[ 1.,  2.,  1.,  2.,  1.,  2.],
                           [ 3.,  4.,  3.,  4.,  3.,  4.],
                           [ 1.,  2.,  1.,  2.,  1.,  2.],
                           [ 3.,  4.,  3.,  4.,  3.,  4.]]

- **n>d**. ``reps`` is promoted to length *n* by pre-pending 1's to it. Thus for
  an input shape ``(2,3)``, ``repos=(2,)`` is treated as ``(1,2)``::


    tile(x, reps=(2,)) = [[ 1.,  2.,  1.,  2.],
                          [ 3.,  4.,  3.,  4.]]

- **n<d**. The input is promoted to be d-dimensional by prepending new axes. So a
  shape ``(2,2)`` array is promoted to ``(1,2,2)`` for 3-D replication::

    tile(x, reps=(2,2,3)) = [[[ 1.,  2.,  1.,  2.,  1.,  2.],
                              [ 3.,  4.,  3.,  4.,  3.,  4.],
                              [ 1.,  2.,  1.,  2.,  1.,  2.],
                              [ 3.,  4.,  3.,  4.,  3.,  4.]],

                             [[ 1.,  2.,  1.,  2.,  1.,  2.],
                              [ 3.,  4.,  3.,  4.,  3.,  4.],
                              [ 1.,  2.,  1.,  2.,  1.,  2.],
                              [ 3.,  4.,  3.,  4.,  3.,  4.]]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<TileParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", TileShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_tile"})
    .set_attr<FCompute>("FCompute<cpu>", TileCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Input data array")
    .add_arguments(TileParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_tile)
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<TileParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", TileBackward<cpu>);

NNVM_REGISTER_OP(repeat)
    .add_alias("_np_repeat")
    .describe(R"code(Repeats elements of an array.

By default, ``repeat`` flattens the input array into 1-D and then repeats the
elements::

  x = [[ 1, 2],
       [ 3, 4]]

  repeat(x, repeats=2) = [ 1.,  1.,  2.,  2.,  3.,  3.,  4.,  4.]

The parameter ``axis`` specifies the axis along which to perform repeat::

  repeat(x, repeats=2, axis=1) = [[ 1.,  1.,  2.,  2.],
                                  [ 3.,  3.,  4.,  4.]]

  repeat(x, repeats=2, axis=0) = [[ 1.,  2.],
                                  [ 1.,  2.],
                                  [ 3.,  4.],
                                  [ 3.,  4.]]

  repeat(x, repeats=2, axis=-1) = [[ 1.,  1.,  2.,  2.],
                                   [ 3.,  3.,  4.,  4.]]

)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<RepeatParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", RepeatShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_repeat"})
    .set_attr<FCompute>("FCompute<cpu>", RepeatCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Input data array")
    .add_arguments(RepeatParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_repeat)
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<RepeatParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", RepeatBackward<cpu>);

NNVM_REGISTER_OP(reverse)
    .add_alias("flip")
    .describe(R"code(Reverses the order of elements along given axis while preserving array shape.

Note: reverse and flip are equivalent. We use reverse in the following examples.

Examples::

  x = [[ 0.,  1.,  2.,  3.,  4.],
       [ 5.,  6.,  7.,  8.,  9.]]

  reverse(x, axis=0) = [[ 5.,  6.,  7.,  8.,  9.],
                        [ 0.,  1.,  2.,  3.,  4.]]

  reverse(x, axis=1) = [[ 4.,  3.,  2.,  1.,  0.],
                        [ 9.,  8.,  7.,  6.,  5.]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<ReverseParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", ReverseShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"reverse"})
    .set_attr<FCompute>("FCompute<cpu>", ReverseCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Input data array")
    .add_arguments(ReverseParam::__FIELDS__());

NNVM_REGISTER_OP(depth_to_space)
    .describe(R"code(Rearranges(permutes) data from depth into blocks of spatial data.
Similar to ONNX DepthToSpace operator:
https://github.com/onnx/onnx/blob/master/docs/Operators.md#DepthToSpace.
The output is a new tensor where the values from depth dimension are moved in spatial blocks
to height and width dimension. The reverse of this operation is ``space_to_depth``.

.. math::

    \begin{gather*}
    x \prime = reshape(x, [N, block\_size, block\_size, C / (block\_size ^ 2), H, W]) \\
    x \prime \prime = transpose(x \prime, [0, 3, 4, 1, 5, 2]) \\
    y = reshape(x \prime \prime, [N, C / (block\_size ^ 2), H * block\_size, W * block\_size])
    \end{gather*}

where :math:`x` is an input tensor with default layout as :math:`[N, C, H, W]`: [batch,
channels, height, width] and :math:`y` is the output tensor of layout
:math:`[N, C / (block\_size ^ 2), H * block\_size, W * block\_size]`

Example::

  x = [[[[0, 1, 2],
         [3, 4, 5]],
        [[6, 7, 8],
         [9, 10, 11]],
        [[12, 13, 14],
         [15, 16, 17]],
        [[18, 19, 20],
         [21, 22, 23]]]]

  depth_to_space(x, 2) = [[[[0, 6, 1, 7, 2, 8],
                            [12, 18, 13, 19, 14, 20],
                            [3, 9, 4, 10, 5, 11],
                            [15, 21, 16, 22, 17, 23]]]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<DepthToSpaceParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", DepthSpaceShape<true>)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"space_to_depth"})
    .set_attr<FCompute>("FCompute<cpu>", DepthSpaceCompute<cpu, true>)
    .add_argument("data", "NDArray-or-Symbol", "Input ndarray")
    .add_arguments(DepthToSpaceParam::__FIELDS__());

NNVM_REGISTER_OP(space_to_depth)
    .describe(R"code(Rearranges(permutes) blocks of spatial data into depth.
Similar to ONNX SpaceToDepth operator:
https://github.com/onnx/onnx/blob/master/docs/Operators.md#SpaceToDepth

The output is a new tensor where the values from height and width dimension are
moved to the depth dimension. The reverse of this operation is ``depth_to_space``.

.. math::

    \begin{gather*}
    x \prime = reshape(x, [N, C, H / block\_size, block\_size, W / block\_size, block\_size]) \\
    x \prime \prime = transpose(x \prime, [0, 3, 5, 1, 2, 4]) \\
    y = reshape(x \prime \prime, [N, C * (block\_size ^ 2), H / block\_size, W / block\_size])
    \end{gather*}

where :math:`x` is an input tensor with default layout as :math:`[N, C, H, W]`: [batch,
channels, height, width] and :math:`y` is the output tensor of layout
:math:`[N, C * (block\_size ^ 2), H / block\_size, W / block\_size]`

Example::

  x = [[[[0, 6, 1, 7, 2, 8],
         [12, 18, 13, 19, 14, 20],
         [3, 9, 4, 10, 5, 11],
         [15, 21, 16, 22, 17, 23]]]]


  space_to_depth(x, 2) = [[[[0, 1, 2],
                            [3, 4, 5]],
                           [[6, 7, 8],
                            [9, 10, 11]],
                           [[12, 13, 14],
                            [15, 16, 17]],
                           [[18, 19, 20],
                            [21, 22, 23]]]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<DepthToSpaceParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", DepthSpaceShape<false>)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"depth_to_space"})
    .set_attr<FCompute>("FCompute<cpu>", DepthSpaceCompute<cpu, false>)
    .add_argument("data", "NDArray-or-Symbol", "Input ndarray")
    .add_arguments(DepthToSpaceParam::__FIELDS__());

NNVM_REGISTER_OP(diag)
    .describe(R"code(Extracts a diagonal or constructs a diagonal array.

``diag``'s behavior depends on the input array dimensions:

- 1-D arrays: constructs a 2-D array with the input as its diagonal, all other elements are
  zero.
- N-D arrays: extracts the diagonals of the sub-arrays with axes specified by ``axis1`` and
  ``axis2``. The output shape would be decided by removing the axes numbered ``axis1`` and
  ``axis2`` from the input shape and appending to the result a new axis with the size of the
  diagonals in question.

  For example, when the input shape is `(2, 3, 4, 5)`, ``axis1`` and ``axis2`` are 0 and 2
  respectively and ``k`` is 0, the resulting shape would be `(3, 5, 2)`.

Examples::

  x = [[1, 2, 3],
       [4, 5, 6]]

  diag(x) = [1, 5]

  diag(x, k=1) = [2, 6]

  diag(x, k=-1) = [4]

  x = [1, 2, 3]

  diag(x) = [[1, 0, 0],
             [0, 2, 0],
             [0, 0, 3]]

  diag(x, k=1) = [[0, 1, 0],
                  [0, 0, 2],
                  [0, 0, 0]]

)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<DiagParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", DiagShape)
    .set_attr<nnvm::FInferType>("FInferType", SameType)
    .set_attr<nnvm::FListInputNames>("FListInputNames", DataInputName)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_diag"})
    .set_attr<FCompute>("FCompute<cpu>", DiagCompute<cpu, false>)
    .add_argument("data", "NDArray-or-Symbol", "Input ndarray")
    .add_arguments(DiagParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_diag)
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<DiagParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", DiagCompute<cpu, true>);

}  // namespace op
}  // namespace mxnet
