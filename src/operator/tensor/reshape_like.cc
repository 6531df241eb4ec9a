/*!
 * \file reshape_like.cc
 * \brief reshape_like: reshape lhs so that lhs.shape[lhs_begin:lhs_end] becomes
 *        rhs.shape[rhs_begin:rhs_end]; the data is copied unchanged (row-major order).
 *        The gradient of lhs is the output gradient reshaped back; rhs gets none.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./matrix_op-inl.h"

namespace mxnet {
namespace op {

struct ReshapeLikeParam : public dmlc::Parameter<ReshapeLikeParam> {
  dmlc::optional<int> lhs_begin, rhs_begin, lhs_end, rhs_end;
  DMLC_DECLARE_PARAMETER(ReshapeLikeParam) {
    DMLC_DECLARE_FIELD(lhs_begin).set_default(dmlc::optional<int>())
        .describe("Defaults to 0. The beginning index along which the lhs dimensions are to be "
                  "reshaped. Supports negative indices.");
    DMLC_DECLARE_FIELD(lhs_end).set_default(dmlc::optional<int>())
        .describe("Defaults to None. The ending index along which the lhs dimensions are to be "
                  "used for reshaping. Supports negative indices.");
    DMLC_DECLARE_FIELD(rhs_begin).set_default(dmlc::optional<int>())
        .describe("Defaults to 0. The beginning index along which the rhs dimensions are to be "
                  "used for reshaping. Supports negative indices.");
    DMLC_DECLARE_FIELD(rhs_end).set_default(dmlc::optional<int>())
        .describe("Defaults to None. The ending index along which the rhs dimensions are to be "
                  "used for reshaping. Supports negative indices.");
  }
};

DMLC_REGISTER_PARAMETER(ReshapeLikeParam);

namespace {

/*! \brief Resolve an optional (possibly negative) bound of an axis range into [0, ndim]. */
int ResolveBound(const dmlc::optional<int>& v, int fallback, int ndim, const char* arg,
                 const mxnet::TShape& shape) {
  int b = v.has_value() ? v.value() : fallback;
  if (b < 0) b += ndim;
  if (b < 0 || b > ndim) {
    MX_THROW(ValueError) << "reshape_like: " << arg << "=" << v.value()
                         << " is out of range for an input of shape " << shape;
  }
  return b;
}

bool ReshapeLikeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  const ReshapeLikeParam& p = nnvm::get<ReshapeLikeParam>(attrs.parsed);
  const mxnet::TShape& lhs = (*in)[0];
  const mxnet::TShape& rhs = (*in)[1];
  if (!shape_is_known(lhs) || !shape_is_known(rhs)) return false;
  const int lb = ResolveBound(p.lhs_begin, 0, lhs.ndim(), "lhs_begin", lhs);
  const int le = ResolveBound(p.lhs_end, lhs.ndim(), lhs.ndim(), "lhs_end", lhs);
  const int rb = ResolveBound(p.rhs_begin, 0, rhs.ndim(), "rhs_begin", rhs);
  const int re = ResolveBound(p.rhs_end, rhs.ndim(), rhs.ndim(), "rhs_end", rhs);
  if (lb > le || rb > re) {
    MX_THROW(ValueError) << "reshape_like: empty or reversed axis range (lhs [" << lb << ", "
                         << le << "), rhs [" << rb << ", " << re << ")) for lhs " << lhs
                         << " and rhs " << rhs;
  }
  std::vector<dim_t> dims;
  for (int i = 0; i < lb; ++i) dims.push_back(lhs[i]);
  for (int i = rb; i < re; ++i) dims.push_back(rhs[i]);
  for (int i = le; i < lhs.ndim(); ++i) dims.push_back(lhs[i]);
  mxnet::TShape oshape(dims.begin(), dims.end());
  if (oshape.Size() != lhs.Size()) {
    MX_THROW(ValueError) << "reshape_like: cannot reshape lhs of shape " << lhs << " into "
                         << oshape << " (lhs[" << lb << ":" << le << "] replaced by rhs[" << rb
                         << ":" << re << "] of rhs shape " << rhs
                         << "): the sizes differ";
  }
  SHAPE_ASSIGN_CHECK(*out, 0, oshape);
  return true;
}

bool ReshapeLikeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  TYPE_ASSIGN_CHECK(*in, 0, (*out)[0]);
  return (*out)[0] != -1;
}

}  // namespace

NNVM_REGISTER_OP(reshape_like)
.add_alias("_npx_reshape_like")
.describe(R"code(Reshape some or all dimensions of `lhs` to have the same shape as some or all
dimensions of `rhs`.

The dimensions ``lhs[lhs_begin:lhs_end]`` are replaced by ``rhs[rhs_begin:rhs_end]``; negative
indices count from the end and the total size must be unchanged.

Example::

  - lhs shape = (30, 7), rhs shape = (15, 2, 4), lhs_begin=0, lhs_end=1, rhs_begin=0, rhs_end=2
    output shape = (15, 2, 7)
  - lhs shape = (3, 5), rhs shape = (1, 15, 4), lhs_begin=0, lhs_end=2, rhs_begin=1, rhs_end=2
    output shape = (15,)

Without the index arguments the output has the shape of `rhs`.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ReshapeLikeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"lhs", "rhs"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ReshapeLikeShape)
.set_attr<nnvm::FInferType>("FInferType", ReshapeLikeType)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    // lhs: the output gradient reshaped back to lhs's shape; rhs: only its shape is used.
    auto back = MakeNode("reshape_like", n->attrs.name + "_backward",
                         {ograds[0], n->inputs[0]}, nullptr, &n);
    auto zero = MakeNode("zeros_like", n->attrs.name + "_rhs_backward", {n->inputs[1]},
                         nullptr, &n);
    return std::vector<nnvm::NodeEntry>{nnvm::NodeEntry{back, 0, 0},
                                        nnvm::NodeEntry{zero, 0, 0}};
  })
.add_argument("lhs", "NDArray-or-Symbol", "First input.")
.add_argument("rhs", "NDArray-or-Symbol", "Second input.")
.add_arguments(ReshapeLikeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
