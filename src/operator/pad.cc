/*!
 * \file pad.cc
 * \brief Pad (alias pad): pads the spatial axes of a 4-D or 5-D array, numpy.pad style, with
 *        mode constant (constant_value), edge (repeat the border element) or reflect (mirror
 *        without repeating the border; pad < axis size). pad_width holds (before, after) per
 *        axis and must be zero on the first two axes (1.9.1 restrictions).
 *        _backward_Pad sums every output gradient into the input element it was read from.
 *        The kernels, for both devices, are in pad-inl.h (pad.cu registers the GPU's).
 */
#include <string>
#include <vector>

#include "./elemwise_op_common.h"
#include "./pad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(PadParam);

namespace {

bool PadShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const PadParam& p = nnvm::get<PadParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() != 4 && d.ndim() != 5) {
    MX_THROW(ValueError) << "Pad: only 4-D or 5-D input is supported, got data of shape " << d;
  }
  if (p.pad_width.ndim() != 2 * d.ndim()) {
    MX_THROW(ValueError) << "Pad: pad_width must have 2 * ndim = " << 2 * d.ndim()
                         << " entries for data of shape " << d << ", got " << p.pad_width;
  }
  for (int i = 0; i < 4; ++i) {
    if (p.pad_width[i] != 0) {
      MX_THROW(ValueError) << "Pad: padding on the first two axes must be zero, got pad_width="
                           << p.pad_width;
    }
  }
  mxnet::TShape o = d;
  for (int i = 0; i < d.ndim(); ++i) {
    const dim_t before = p.pad_width[2 * i], after = p.pad_width[2 * i + 1];
    if (before < 0 || after < 0) {
      MX_THROW(ValueError) << "Pad: pad widths must be non-negative, got pad_width="
                           << p.pad_width;
    }
    if (p.mode == pad_enum::kReflect && (before >= d[i] || after >= d[i])) {
      MX_THROW(ValueError) << "Pad: reflect padding needs pad widths smaller than the axis size, "
                           << "got pad_width=" << p.pad_width << " for data of shape " << d;
    }
    if (p.mode == pad_enum::kEdge && d[i] == 0 && before + after > 0) {
      MX_THROW(ValueError) << "Pad: edge padding of an empty axis, data shape " << d;
    }
    o[i] = d[i] + before + after;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(Pad)
.add_alias("pad")
.describe(R"code(Pads an input array with a constant or edge values of the array.

.. note:: `Pad` is deprecated. Use `pad` instead.

.. note:: Current implementation only supports 4D and 5D input arrays with padding applied
   only on axes 1, 2 and 3. Expects axes 4 and 5 in `pad_width` to be zero.

This operation pads an input array with either a `constant_value` or edge values
along each axis of the input array. The amount of padding is specified by `pad_width`.

`pad_width` is a tuple of integer padding widths for each axis of the format
``(before_1, after_1, ... , before_N, after_N)``. The `pad_width` should be of length ``2*N``
where ``N`` is the number of dimensions of the array.

For dimension ``N`` of the input array, ``before_N`` and ``after_N`` indicates how many values
to add before and after the elements of the array along dimension ``N``.
The widths of the higher two dimensions ``before_1``, ``after_1``, ``before_2``,
``after_2`` must be 0.

Example::

   x = [[[[  1.   2.   3.]
          [  4.   5.   6.]]

         [[  7.   8.   9.]
          [ 10.  11.  12.]]]]

   pad(x,mode="edge", pad_width=(0,0,0,0,1,1,1,1)) =

         [[[[  1.   1.   2.   3.   3.]
            [  1.   1.   2.   3.   3.]
            [  4.   4.   5.   6.   6.]
            [  4.   4.   5.   6.   6.]]

           [[  7.   7.   8.   9.   9.]
            [  7.   7.   8.   9.   9.]
            [ 10.  10.  11.  12.  12.]
            [ 10.  10.  11.  12.  12.]]]]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<PadParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", PadShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", PadCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_Pad"})
.add_argument("data", "NDArray-or-Symbol", "An n-dimensional input array.")
.add_arguments(PadParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Pad)
.describe("Backward of Pad: out_grad -> data_grad (gradients summed into their source).")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<PadParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", PadGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
