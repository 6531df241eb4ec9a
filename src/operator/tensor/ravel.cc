/*!
 * \file ravel.cc
 * \brief _ravel_multi_index / _unravel_index (aliases ravel_multi_index, unravel_index):
 *        conversions between flat indices and coordinate tuples of a row-major `shape`.
 *        Like 1.9.1 neither checks bounds: the first coordinate of unravel is not reduced
 *        modulo shape[0], so shape[0] may be -1.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./ravel-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(RavelParam);

namespace {

const mxnet::TShape& RavelTarget(const nnvm::NodeAttrs& attrs) {
  const RavelParam& p = nnvm::get<RavelParam>(attrs.parsed);
  if (!ndim_is_known(p.shape) || p.shape.ndim() == 0) {
    MX_THROW(ValueError) << attrs.op->name << ": the argument 'shape' is required and must "
                         << "have at least one dimension, got " << p.shape;
  }
  // Dimensions are positive (the first may be -1, as 1.9.1 allows): a zero would divide by
  // zero, a negative one would give indices with no meaning.
  for (int i = 0; i < p.shape.ndim(); ++i) {
    if (p.shape[i] <= 0 && !(i == 0 && p.shape[i] == -1)) {
      MX_THROW(ValueError) << attrs.op->name << ": the argument 'shape' must have positive "
                           << "dimensions (the first may be -1), got " << p.shape;
    }
  }
  return p.shape;
}

bool RavelShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const mxnet::TShape& target = RavelTarget(attrs);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  if (d.ndim() < 1 || (d[0] >= 0 && d[0] != target.ndim())) {
    MX_THROW(ValueError) << "ravel_multi_index: expected data of shape (" << target.ndim()
                         << ", ...) (one row per dimension of shape=" << target << "), got "
                         << d;
  }
  mxnet::TShape oshape(d.ndim() - 1, -1);
  for (int i = 1; i < d.ndim(); ++i) oshape[i - 1] = d[i];
  SHAPE_ASSIGN_CHECK(*out, 0, oshape);
  return shape_is_known(oshape);
}

bool UnravelShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                  mxnet::ShapeVector* out) {
  const mxnet::TShape& target = RavelTarget(attrs);
  const mxnet::TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  mxnet::TShape oshape(d.ndim() + 1, -1);
  oshape[0] = target.ndim();
  for (int i = 0; i < d.ndim(); ++i) oshape[i + 1] = d[i];
  SHAPE_ASSIGN_CHECK(*out, 0, oshape);
  return shape_is_known(oshape);
}

}  // namespace

NNVM_REGISTER_OP(_ravel_multi_index)
.add_alias("ravel_multi_index")
.describe(R"code(Converts a batch of index arrays into an array of flat indices. The operator
follows numpy conventions so a single multi index is given by a column of the input matrix. The
leading dimension may be left unspecified by using -1 as placeholder.

Examples::

   A = [[3,6,6],[4,5,1]]
   ravel(A, shape=(7,6)) = [22,41,37]
   ravel(A, shape=(-1,6)) = [22,41,37]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<RavelParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", RavelShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", RavelCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "Batch of multi-indices")
.add_arguments(RavelParam::__FIELDS__());

NNVM_REGISTER_OP(_unravel_index)
.add_alias("unravel_index")
.describe(R"code(Converts an array of flat indices into a batch of index arrays. The operator
follows numpy conventions so a single multi index is given by a column of the output matrix. The
leading dimension may be left unspecified by using -1 as placeholder.

Examples::

   A = [22,41,37]
   unravel(A, shape=(7,6)) = [[3,6,6],[4,5,1]]
   unravel(A, shape=(-1,6)) = [[3,6,6],[4,5,1]]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<RavelParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", UnravelShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", UnravelCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", MakeZeroGradNodes)
.add_argument("data", "NDArray-or-Symbol", "Array of flat indices")
.add_arguments(RavelParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
