/*!
 * \file matrix_slice_op.cc
 * \brief Slicing: slice (crop), slice_axis, slice_like, _slice_assign (_crop_assign),
 *        _slice_assign_scalar (_crop_assign_scalar), and their gradients.
 */
#include "./matrix_op-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SliceParam);
DMLC_REGISTER_PARAMETER(SliceAssignScalarParam);
DMLC_REGISTER_PARAMETER(SliceAxisParam);
DMLC_REGISTER_PARAMETER(SliceLikeParam);

namespace {

// ---------------------------------------------------------------- slice

bool SliceShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) return false;
  const SliceRange r = RangeOf(nnvm::get<SliceParam>(attrs.parsed), dshape, "slice");
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, r.oshape);
  return true;
}

// ---------------------------------------------------------------- slice_axis

bool SliceAxisShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                    mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!shape_is_known(dshape)) return false;
  const SliceRange r = SliceAxisRange(nnvm::get<SliceAxisParam>(attrs.parsed), dshape);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, r.oshape);
  return true;
}

// ---------------------------------------------------------------- slice_like

bool SliceLikeShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                    mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& ishape = (*in_attrs)[0];
  const mxnet::TShape& fshape = (*in_attrs)[1];
  if (!shape_is_known(ishape) || !shape_is_known(fshape)) return false;
  const SliceRange r = SliceLikeRange(nnvm::get<SliceLikeParam>(attrs.parsed), ishape, fshape);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, r.oshape);
  return true;
}

bool SliceLikeType(const NodeAttrs& attrs, std::vector<int>* in_attrs,
                   std::vector<int>* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[0]);
  TYPE_ASSIGN_CHECK(*in_attrs, 0, (*out_attrs)[0]);
  return (*out_attrs)[0] != -1;
}

// ---------------------------------------------------------------- _slice_assign(_scalar)

bool SliceAssignShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                      mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  CHECK_EQ(out_attrs->size(), 1U);
  const mxnet::TShape& lshape = (*in_attrs)[0];
  if (!shape_is_known(lshape)) return false;
  const SliceRange r = RangeOf(nnvm::get<SliceParam>(attrs.parsed), lshape, "_slice_assign");
  const mxnet::TShape& rshape = (*in_attrs)[1];
  if (ndim_is_known(rshape) && rshape != r.oshape) {
    MX_THROW(ValueError) << "_slice_assign: expected rhs of shape " << r.oshape
                         << " (the slice of lhs " << lshape << "), got " << rshape;
  }
  SHAPE_ASSIGN_CHECK(*in_attrs, 1, r.oshape);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, lshape);
  return true;
}

/*! \brief The begin/end/step entries of a slice-op dict (drops everything else). */
std::unordered_map<std::string, std::string> SliceDict(const nnvm::NodeAttrs& attrs) {
  std::unordered_map<std::string, std::string> d;
  for (const char* key : {"begin", "end", "step"}) {
    auto it = attrs.dict.find(key);
    if (it != attrs.dict.end()) d[key] = it->second;
  }
  return d;
}

}  // namespace

NNVM_REGISTER_OP(slice)
    .add_alias("_npi_slice")
    .add_alias("_npx_slice")
    .add_alias("crop")
    .add_alias("_sparse_slice")
    .describe(R"code(Slices a region of the array.

.. note:: ``crop`` is deprecated. Use ``slice`` instead.

This function returns a sliced array between the indices given
by `begin` and `end` with the corresponding `step`.

For an input array of ``shape=(d_0, d_1, ..., d_n-1)``,
slice operation with ``begin=(b_0, b_1...b_m-1)``,
``end=(e_0, e_1, ..., e_m-1)``, and ``step=(s_0, s_1, ..., s_m-1)``,
where m <= n, results in an array with the shape
``(|e_0-b_0|/|s_0|, ..., |e_m-1-b_m-1|/|s_m-1|, d_m, ..., d_n-1)``.

The resulting array's *k*-th dimension contains elements
from the *k*-th dimension of the input array starting
from index ``b_k`` (inclusive) with step ``s_k``
until reaching ``e_k`` (exclusive).

If the *k*-th elements are `None` in the sequence of `begin`, `end`,
and `step`, the following rule will be used to set default values.
If `s_k` is `None`, set `s_k=1`. If `s_k > 0`, set `b_k=0`, `e_k=d_k`;
else, set `b_k=d_k-1`, `e_k=-1`.

Example::

  x = [[  1.,   2.,   3.,   4.],
       [  5.,   6.,   7.,   8.],
       [  9.,  10.,  11.,  12.]]

  slice(x, begin=(0,1), end=(2,4)) = [[ 2.,  3.,  4.],
                                     [ 6.,  7.,  8.]]
  slice(x, begin=(None, 0), end=(None, 3), step=(-1, 2)) = [[9., 11.],
                                                            [5.,  7.],
                                                            [1.,  3.]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", SliceShape)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_slice"})
    .set_attr<FCompute>("FCompute<cpu>", SliceCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Source input")
    .add_arguments(SliceParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_slice)
    .set_num_inputs(1)
    // Second order: the gradient of the scatter is the forward slice of g.
    .set_attr<nnvm::FGradient>("FGradient", LinearForwardAgainGrad)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", SliceBackward<cpu>);

NNVM_REGISTER_OP(slice_axis)
    .describe(R"code(Slices along a given axis.

Returns an array slice along a given `axis` starting from the `begin` index
to the `end` index.

Examples::

  x = [[  1.,   2.,   3.,   4.],
       [  5.,   6.,   7.,   8.],
       [  9.,  10.,  11.,  12.]]

  slice_axis(x, axis=0, begin=1, end=3) = [[  5.,   6.,   7.,   8.],
                                           [  9.,  10.,  11.,  12.]]

  slice_axis(x, axis=1, begin=0, end=2) = [[  1.,   2.],
                                           [  5.,   6.],
                                           [  9.,  10.]]

  slice_axis(x, axis=1, begin=-3, end=-1) = [[  2.,   3.],
                                             [  6.,   7.],
                                             [ 10.,  11.]]
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceAxisParam>)
    .set_attr<mxnet::FInferShape>("FInferShape", SliceAxisShape)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_slice_axis"})
    .set_attr<FCompute>("FCompute<cpu>", SliceAxisCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Source input")
    .add_arguments(SliceAxisParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_slice_axis)
    .set_num_inputs(1)
    // Second order: the gradient of the scatter is the forward slice_axis of g.
    .set_attr<nnvm::FGradient>("FGradient", LinearForwardAgainGrad)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceAxisParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", SliceAxisBackward<cpu>);

NNVM_REGISTER_OP(slice_like)
    .describe(R"code(Slices a region of the array like the shape of another array.

This function is similar to ``slice``, however, the `begin` are always `0`s
and `end` of specific axes are inferred from the second input `shape_like`.

Given the second `shape_like` input of ``shape=(d_0, d_1, ..., d_n-1)``,
a ``slice_like`` operator with default empty `axes`, it performs the
following operation:

`` out = slice(input, begin=(0, 0, ..., 0), end=(d_0, d_1, ..., d_n-1))``.

When `axes` is not empty, it is used to speficy which axes are being sliced.

Given a 4-d input data, ``slice_like`` operator with ``axes=(0, 2, -1)``
will perform the following operation:

`` out = slice(input, begin=(0, 0, 0, 0), end=(d_0, None, d_2, d_3))``.

Note that it is allowed to have first and second input with different dimensions,
however, you have to make sure the `axes` are specified and not exceeding the
dimension limits.

For example, given `input_1` with ``shape=(2,3,4,5)`` and `input_2` with
``shape=(1,2,3)``, it is not allowed to use:

`` out = slice_like(a, b)`` because ndim of `input_1` is 4, and ndim of `input_2`
is 3.

The following is allowed in this situation:

`` out = slice_like(a, b, axes=(0, 2))``

Example::

  x = [[  1.,   2.,   3.,   4.],
       [  5.,   6.,   7.,   8.],
       [  9.,  10.,  11.,  12.]]

  y = [[  0.,   0.,   0.],
       [  0.,   0.,   0.]]

  slice_like(x, y) = [[ 1.,  2.,  3.]
                      [ 5.,  6.,  7.]]
  slice_like(x, y, axes=(0, 1)) = [[ 1.,  2.,  3.]
                                   [ 5.,  6.,  7.]]
  slice_like(x, y, axes=(0)) = [[ 1.,  2.,  3.,  4.]
                                [ 5.,  6.,  7.,  8.]]
  slice_like(x, y, axes=(-1)) = [[  1.,   2.,   3.]
                                 [  5.,   6.,   7.]
                                 [  9.,  10.,  11.]]
)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceLikeParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data", "shape_like"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", SliceLikeShape)
    .set_attr<nnvm::FInferType>("FInferType", SliceLikeType)
    .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_slice_like"})
    .set_attr<FCompute>("FCompute<cpu>", SliceLikeCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Source input")
    .add_argument("shape_like", "NDArray-or-Symbol", "Shape like input")
    .add_arguments(SliceLikeParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_slice_like)
    .set_num_inputs(1)
    .set_num_outputs(2)
    .set_attr_parser(ParamParser<SliceLikeParam>)
    .set_attr<nnvm::TIsBackward>("TIsBackward", true)
    .set_attr<FCompute>("FCompute<cpu>", SliceLikeBackward<cpu>);

NNVM_REGISTER_OP(_slice_assign)
    .add_alias("_npi_slice_assign")
    .add_alias("_crop_assign")
    .describe(R"code(Assign the rhs to a cropped subset of lhs.

Requirements
------------
- output should be explicitly given and be the same as lhs.
- lhs and rhs are of the same data type, and on the same device.

From:src/operator/tensor/matrix_op.cc
)code")
    .set_num_inputs(2)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"lhs", "rhs"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", SliceAssignShape)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption",
                                    [](const NodeAttrs&) {
                                      return std::vector<std::pair<int, int>>{{0, 0}};
                                    })
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          std::unordered_map<std::string, std::string> d = SliceDict(n->attrs);
          std::vector<nnvm::NodeEntry> og{ograds[0]};
          std::vector<nnvm::NodeEntry> ret;
          d["scalar"] = "0";
          ret.emplace_back(nnvm::NodeEntry{
              MakeNode("_slice_assign_scalar", n->attrs.name + "_backward_lhs", &og, &d, &n), 0,
              0});
          d.erase("scalar");
          ret.emplace_back(nnvm::NodeEntry{
              MakeNode("slice", n->attrs.name + "_backward_rhs", &og, &d, &n), 0, 0});
          return ret;
        })
    .set_attr<FCompute>("FCompute<cpu>", SliceAssignCompute<cpu>)
    .add_argument("lhs", "NDArray-or-Symbol", "Source input")
    .add_argument("rhs", "NDArray-or-Symbol", "value to assign")
    .add_arguments(SliceParam::__FIELDS__());

NNVM_REGISTER_OP(_slice_assign_scalar)
    .add_alias("_npi_slice_assign_scalar")
    .add_alias("_crop_assign_scalar")
    .describe(R"code((Assign the scalar to a cropped subset of the input.

Requirements
------------
- output should be explicitly given and be the same as input
)
)code")
    .set_num_inputs(1)
    .set_num_outputs(1)
    .set_attr_parser(ParamParser<SliceAssignScalarParam>)
    .set_attr<nnvm::FListInputNames>("FListInputNames",
                                     [](const NodeAttrs&) {
                                       return std::vector<std::string>{"data"};
                                     })
    .set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
    .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
    .set_attr<nnvm::FInplaceOption>("FInplaceOption",
                                    [](const NodeAttrs&) {
                                      return std::vector<std::pair<int, int>>{{0, 0}};
                                    })
    .set_attr<nnvm::FGradient>(
        "FGradient",
        [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
          std::unordered_map<std::string, std::string> d = SliceDict(n->attrs);
          d["scalar"] = "0";
          std::vector<nnvm::NodeEntry> og{ograds[0]};
          return std::vector<nnvm::NodeEntry>{nnvm::NodeEntry{
              MakeNode("_slice_assign_scalar", n->attrs.name + "_backward", &og, &d, &n), 0, 0}};
        })
    .set_attr<FCompute>("FCompute<cpu>", SliceAssignScalarCompute<cpu>)
    .add_argument("data", "NDArray-or-Symbol", "Source input")
    .add_arguments(SliceAssignScalarParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
