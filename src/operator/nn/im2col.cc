/*!
 * \file im2col.cc
 * \brief im2col / col2im: sliding blocks of (N, C, spatial...) (1 to 3 spatial axes) as the
 *        columns of (N, C * prod(kernel), L), L = number of block positions; row
 *        c * prod(kernel) + (kernel offset, row-major) and column = block position (row-major).
 *        Block position o of an axis reads input index o * stride - pad + k * dilate (zero
 *        outside). col2im is the adjoint: it sums every column entry back into the image.
 *        Each is the other's backward (_backward_im2col, _backward_col2im).
 */
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./im2col-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(Im2colParam);
DMLC_REGISTER_PARAMETER(Col2imParam);

namespace {

bool Im2colShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const Im2colParam& p = nnvm::get<Im2colParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() != p.kernel.ndim() + 2) {
    MX_THROW(ValueError) << "im2col: expected data with " << p.kernel.ndim() + 2
                         << " dimensions (batch, channel, spatial...) for kernel=" << p.kernel
                         << ", got " << d;
  }
  const BlockGeometry g = MakeGeometry("im2col", SpatialOf(d), p.kernel, p.stride, p.dilate,
                                       p.pad);
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1] * g.kernel_size, g.blocks}));
  return true;
}

bool Col2imShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const Col2imParam& p = nnvm::get<Col2imParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (p.output_size.ndim() != p.kernel.ndim()) {
    MX_THROW(ValueError) << "col2im: output_size=" << p.output_size << " and kernel="
                         << p.kernel << " must have the same number of dimensions";
  }
  const BlockGeometry g = MakeGeometry("col2im", p.output_size, p.kernel, p.stride, p.dilate,
                                       p.pad);
  if (d.ndim() != 3 || d[1] % g.kernel_size != 0 || d[2] != g.blocks) {
    MX_THROW(ValueError) << "col2im: expected data of shape (batch, channel * "
                         << g.kernel_size << ", " << g.blocks << ") for output_size="
                         << p.output_size << " and kernel=" << p.kernel << ", got " << d;
  }
  mxnet::TShape o(2 + p.output_size.ndim(), -1);
  o[0] = d[0];
  o[1] = d[1] / g.kernel_size;
  for (int i = 0; i < p.output_size.ndim(); ++i) o[i + 2] = p.output_size[i];
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

/*! \brief Backward shape/type: the single output is like forward input 1 of the backward. */
bool SecondInputShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
}

bool FirstInputType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1;
}

}  // namespace

NNVM_REGISTER_OP(im2col)
.describe(R"code(Extract sliding blocks from input array.

This operator is used in vanilla convolution implementation to transform the sliding
blocks on image to column matrix, then the convolution operation can be computed
by matrix multiplication between column and convolution weight. Due to the close
relation between im2col and convolution, the concept of **kernel**, **stride**,
**dilate** and **pad** in this operator are inherited from convolution operator.

Given the input data of shape :math:`(N, C, *)`, where :math:`N` is the batch size,
:math:`C` is the channel size, and :math:`*` is the arbitrary spatial dimension,
the output column array is always with shape :math:`(N, C \times \prod(\text{kernel}), W)`,
where :math:`C \times \prod(\text{kernel})` is the block size, and :math:`W` is the
block number which is the spatial size of the convolution output with same input parameters.
Only 1-D, 2-D and 3-D of spatial dimension is supported in this operator.

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Im2colParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", Im2colShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", Im2colCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_im2col", n, {ograds[0], n->inputs[0]}, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array to extract sliding blocks.")
.add_arguments(Im2colParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_im2col)
.describe("Backward of im2col: (out_grad, data) -> data_grad (col2im of out_grad).")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Im2colParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", SecondInputShape)
.set_attr<nnvm::FInferType>("FInferType", FirstInputType)
.set_attr<FCompute>("FCompute<cpu>", Im2colGradCompute<cpu>);

NNVM_REGISTER_OP(col2im)
.describe(R"code(Combining the output column matrix of im2col back to image array.

Like :class:`~mxnet.ndarray.im2col`, this operator is also used in the vanilla convolution
implementation. Despite the name, col2im is not the reverse operation of im2col. Since there
may be overlaps between neighbouring sliding blocks, the column elements cannot be directly
put back into image. Instead, they are accumulated (i.e., summed) in the input image
just like the gradient computation, so col2im is the gradient of im2col and vice versa.

Using the notation in im2col, given an input column array of shape
:math:`(N, C \times  \prod(\text{kernel}), W)`, this operator accumulates the column elements
into output array of shape :math:`(N, C, \text{output_size}[0], \text{output_size}[1], \dots)`.
Only 1-D, 2-D and 3-D of spatial dimension is supported in this operator.

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Col2imParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", Col2imShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", Col2imCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_col2im", n, {ograds[0], n->inputs[0]}, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array to combine sliding blocks.")
.add_arguments(Col2imParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_col2im)
.describe("Backward of col2im: (out_grad, data) -> data_grad (im2col of out_grad).")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Col2imParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", SecondInputShape)
.set_attr<nnvm::FInferType>("FInferType", FirstInputType)
.set_attr<FCompute>("FCompute<cpu>", Col2imGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
