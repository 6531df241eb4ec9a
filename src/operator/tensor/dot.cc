/*!
 * \file dot.cc
 * \brief Registration of dot, batch_dot and their backward operators.
 */
#include "./dot-inl.h"
#include "./higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(DotParam);

namespace {

/*!
 * \brief Backward shapes: the gradients have the shapes of lhs and rhs (inputs 1, 2), and
 *        out_grad (input 0) must have the forward output's shape: the kernels rely on it.
 */
template <bool (*ForwardShape)(const nnvm::NodeAttrs&, mxnet::ShapeVector*, mxnet::ShapeVector*)>
bool DotBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                      mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 3U);
  CHECK_EQ(out_attrs->size(), 2U);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[1]);
  SHAPE_ASSIGN_CHECK(*out_attrs, 1, (*in_attrs)[2]);
  const mxnet::ShapeVector& in = *in_attrs;
  if (shape_is_known(in[0]) && shape_is_known(in[1]) && shape_is_known(in[2])) {
    mxnet::ShapeVector fwd_in{in[1], in[2]}, fwd_out(1);
    if (!ForwardShape(attrs, &fwd_in, &fwd_out) || fwd_out[0] != in[0]) {
      MX_THROW(ValueError) << attrs.op->name << ": out_grad has shape " << in[0]
                           << " but lhs " << in[1] << " and rhs " << in[2]
                           << " give an output of shape " << fwd_out[0];
    }
  }
  return shape_is_known((*out_attrs)[0]) && shape_is_known((*out_attrs)[1]);
}

std::vector<nnvm::NodeEntry> DotGrad(const char* backward, const nnvm::ObjectPtr& n,
                                     const std::vector<nnvm::NodeEntry>& ograds) {
  std::vector<nnvm::NodeEntry> heads{ograds[0], n->inputs[0], n->inputs[1]};
  return MakeGradNode(backward, n, heads, n->attrs.dict);
}

}  // namespace

NNVM_REGISTER_OP(dot)
MXNET_ADD_SPARSE_OP_ALIAS(dot)
.describe(R"doc(Dot product of two arrays.

``dot``'s behavior depends on the input array dimensions:

- 1-D arrays: inner product of vectors (output shape ``(1,)``)
- 2-D arrays: matrix multiplication
- N-D arrays: a sum product over the last axis of the first input and the first
  axis of the second input

  For example, given 3-D ``x`` with shape `(n,m,k)` and ``y`` with shape `(k,r,s)`, the
  result array will have shape `(n,m,r,s)`. It is computed by::

    dot(x,y)[i,j,a,b] = sum(x[i,j,:]*y[:,a,b])

  Example::

    x = reshape([0,1,2,3,4,5,6,7], shape=(2,2,2))
    y = reshape([7,6,5,4,3,2,1,0], shape=(2,2,2))
    dot(x,y)[0,0,1,1] = 0
    sum(x[0,0,:]*y[:,1,1]) = 0

``transpose_a`` transposes ``lhs`` viewed as ``(shape[0], prod(shape[1:]))``; ``transpose_b``
transposes ``rhs`` viewed as ``(prod(shape[:-1]), shape[-1])``. Computed with BLAS GEMM for
float32/float64 (float16 accumulates in float32; integer types use a plain loop).
)doc" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<DotParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) {
    return std::vector<std::string>{"lhs", "rhs"};
  })
.set_attr<mxnet::FInferShape>("FInferShape", DotShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<FCompute>("FCompute<cpu>", DotForward_<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return DotGrad("_backward_dot", n, ograds);
  })
.add_argument("lhs", "NDArray-or-Symbol", "The first input")
.add_argument("rhs", "NDArray-or-Symbol", "The second input")
.add_arguments(DotParam::__FIELDS__());

namespace {
// Second order of dot. _backward_dot(ograd, a, b) = (da, db) with <g0, da> + <g1, db> =
// <ograd, dot(g0, b) + dot(a, g1)> (same transpose flags). Hence
//   d/dograd = dot(g0, b) + dot(a, g1),  d/da = _backward_dot(ograd, a, g1)[0],
//   d/db = _backward_dot(ograd, g0, b)[1].
std::vector<nnvm::NodeEntry> BackwardDotGrad(const nnvm::ObjectPtr& n,
                                             const std::vector<nnvm::NodeEntry>& g) {
  GradGraphBuilder b(n);
  const nnvm::NodeEntry &ograd = n->inputs[0], &lhs = n->inputs[1], &rhs = n->inputs[2];
  nnvm::NodeEntry d_ograd = b.Add(b.Op("dot", {g[0], rhs}, n->attrs.dict),
                                  b.Op("dot", {lhs, g[1]}, n->attrs.dict));
  nnvm::ObjectPtr for_lhs = b.Again({ograd, lhs, g[1]});
  nnvm::ObjectPtr for_rhs = b.Again({ograd, g[0], rhs});
  return {d_ograd, nnvm::NodeEntry(for_lhs, 0, 0), nnvm::NodeEntry(for_rhs, 1, 0)};
}
}  // namespace

NNVM_REGISTER_OP(_backward_dot)
.set_attr<nnvm::FGradient>("FGradient", BackwardDotGrad)
.describe("Backward of dot: (out_grad, lhs, rhs) -> (lhs_grad, rhs_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<DotParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", DotBackwardShape<DotShape>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<3, 2>)
.set_attr<FCompute>("FCompute<cpu>", DotBackward_<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("lhs", "NDArray-or-Symbol", "The first input")
.add_argument("rhs", "NDArray-or-Symbol", "The second input")
.add_arguments(DotParam::__FIELDS__());

NNVM_REGISTER_OP(batch_dot)
.describe(R"doc(Batchwise dot product.

``batch_dot`` is used to compute dot product of ``x`` and ``y`` when ``x`` and
``y`` are data in batch, namely N-D (N >= 3) arrays in shape of `(B0, ..., B_i, :, :)`.

For example, given ``x`` with shape `(B_0, ..., B_i, N, M)` and ``y`` with shape
`(B_0, ..., B_i, M, K)`, the result array will have shape `(B_0, ..., B_i, N, K)`,
which is computed by::

   batch_dot(x,y)[b_0, ..., b_i, :, :] = dot(x[b_0, ..., b_i, :, :], y[b_0, ..., b_i, :, :])

``transpose_a`` / ``transpose_b`` transpose the last two axes of ``lhs`` / ``rhs``.
)doc" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<DotParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) {
    return std::vector<std::string>{"lhs", "rhs"};
  })
.set_attr<mxnet::FInferShape>("FInferShape", BatchDotShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<FCompute>("FCompute<cpu>", BatchDotForward_<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return DotGrad("_backward_batch_dot", n, ograds);
  })
.add_argument("lhs", "NDArray-or-Symbol", "The first input")
.add_argument("rhs", "NDArray-or-Symbol", "The second input")
.add_arguments(DotParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_batch_dot)
.describe("Backward of batch_dot: (out_grad, lhs, rhs) -> (lhs_grad, rhs_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<DotParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", DotBackwardShape<BatchDotShape>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<3, 2>)
.set_attr<FCompute>("FCompute<cpu>", BatchDotBackward_<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("lhs", "NDArray-or-Symbol", "The first input")
.add_argument("rhs", "NDArray-or-Symbol", "The second input")
.add_arguments(DotParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
