/*!
 * \file pad.cc
 * \brief Pad (alias pad): pads the spatial axes of a 4-D or 5-D array, numpy.pad style, with
 *        mode constant (constant_value), edge (repeat the border element) or reflect (mirror
 *        without repeating the border; pad < axis size). pad_width holds (before, after) per
 *        axis and must be zero on the first two axes (1.9.1 restrictions).
 *        _backward_Pad sums every output gradient into the input element it was read from.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "./elemwise_op_common.h"
#include "./operator_common.h"

namespace mxnet {
namespace op {

namespace pad_enum {
enum PadMode { kConstant, kEdge, kReflect };
}  // namespace pad_enum

struct PadParam : public dmlc::Parameter<PadParam> {
  int mode;
  double constant_value;
  mxnet::TShape pad_width;
  DMLC_DECLARE_PARAMETER(PadParam) {
    DMLC_DECLARE_FIELD(mode)
        .add_enum("constant", pad_enum::kConstant)
        .add_enum("edge", pad_enum::kEdge)
        .add_enum("reflect", pad_enum::kReflect)
        .describe("Padding type to use. \"constant\" pads with `constant_value` \"edge\" pads "
                  "using the edge values of the input array \"reflect\" pads by reflecting "
                  "values with respect to the edges.");
    DMLC_DECLARE_FIELD(pad_width)
        .describe("Widths of the padding regions applied to the edges of each axis. It is a "
                  "tuple of integer padding widths for each axis of the format ``(before_1, "
                  "after_1, ... , before_N, after_N)``. It should be of length ``2*N`` where "
                  "``N`` is the number of dimensions of the array.This is equivalent to "
                  "pad_width in numpy.pad, but flattened.");
    DMLC_DECLARE_FIELD(constant_value).set_default(0.0)
        .describe("The value used for padding when `mode` is \"constant\".");
  }
};

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

/*! \brief Input coordinate read for output coordinate `i` of one axis, -1 for a constant. */
inline dim_t SourceCoord(dim_t i, dim_t before, dim_t n, int mode) {
  dim_t s = i - before;
  if (s >= 0 && s < n) return s;
  if (mode == pad_enum::kConstant) return -1;
  if (mode == pad_enum::kEdge) return s < 0 ? 0 : n - 1;
  return s < 0 ? -s : 2 * (n - 1) - s;  // reflect
}

/*! \brief For every output element, the flat input index it reads (-1: constant). */
std::vector<index_t> PadSources(const PadParam& p, const mxnet::TShape& in,
                                const mxnet::TShape& out) {
  const int nd = in.ndim();
  std::vector<index_t> src(out.Size());
  std::vector<dim_t> coord(nd, 0);
  for (size_t flat = 0; flat < src.size(); ++flat) {
    index_t s = 0;
    for (int k = 0; k < nd && s >= 0; ++k) {
      const dim_t c = SourceCoord(coord[k], p.pad_width[2 * k], in[k], p.mode);
      s = c < 0 ? -1 : s * in[k] + c;
    }
    src[flat] = s;
    for (int k = nd - 1; k >= 0; --k) {
      if (++coord[k] < out[k]) break;
      coord[k] = 0;
    }
  }
  return src;
}

void PadCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const PadParam& p = nnvm::get<PadParam>(attrs.parsed);
  const std::vector<index_t> src = PadSources(p, inputs[0].shape_, outputs[0].shape_);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    const DType* x = inputs[0].dptr<DType>();
    DType* o = outputs[0].dptr<DType>();
    const DType fill = static_cast<DType>(p.constant_value);
    for (size_t i = 0; i < src.size(); ++i) {
      const DType v = src[i] < 0 ? fill : x[src[i]];
      o[i] = req[0] == kAddTo ? static_cast<DType>(o[i] + v) : v;
    }
  });
}

void PadGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const PadParam& p = nnvm::get<PadParam>(attrs.parsed);
  const std::vector<index_t> src = PadSources(p, outputs[0].shape_, inputs[0].shape_);
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    std::vector<double> acc(outputs[0].Size(), 0.0);
    for (size_t i = 0; i < src.size(); ++i)
      if (src[i] >= 0) acc[src[i]] += static_cast<double>(og[i]);
    DType* g = outputs[0].dptr<DType>();
    for (size_t j = 0; j < acc.size(); ++j)
      g[j] = req[0] == kAddTo ? static_cast<DType>(g[j] + acc[j]) : static_cast<DType>(acc[j]);
  });
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
.set_attr<FCompute>("FCompute<cpu>", PadCompute)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_Pad"})
.add_argument("data", "NDArray-or-Symbol", "An n-dimensional input array.")
.add_arguments(PadParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_Pad)
.describe("Backward of Pad: out_grad -> data_grad (gradients summed into their source).")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<PadParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", PadGradCompute);

}  // namespace op
}  // namespace mxnet
