/*!
 * \file np_matrix_op.cc
 * \brief _np_reshape (numpy.reshape): a new shape for the same elements in row-major order;
 *        0-d and zero-size shapes are ordinary shapes, and one dimension may be -1 (inferred).
 *        The gradient is the output gradient reshaped back (reshape_like).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "../tensor/matrix_op-inl.h"

namespace mxnet {
namespace op {

struct NumpyReshapeParam : public dmlc::Parameter<NumpyReshapeParam> {
  mxnet::TShape newshape;
  std::string order;
  DMLC_DECLARE_PARAMETER(NumpyReshapeParam) {
    DMLC_DECLARE_FIELD(newshape).describe(
        "The new shape, compatible with the original one; one dimension may be -1 and is "
        "then inferred from the size of the array.");
    DMLC_DECLARE_FIELD(order).set_default("C").describe(
        "Read and write elements in C (row-major) order; only 'C' is supported.");
  }
};

DMLC_REGISTER_PARAMETER(NumpyReshapeParam);

namespace {

/*! \brief newshape with its -1 resolved for an input of `ishape`. */
mxnet::TShape NumpyReshapeTarget(const mxnet::TShape& ishape, const mxnet::TShape& newshape) {
  std::vector<dim_t> dims(newshape.begin(), newshape.end());
  int unknown = -1;
  dim_t known = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == -1) {
      if (unknown != -1) {
        MX_THROW(ValueError) << "_np_reshape: can only specify one unknown dimension, got "
                             << "newshape=" << newshape;
      }
      unknown = static_cast<int>(i);
    } else if (dims[i] < 0) {
      MX_THROW(ValueError) << "_np_reshape: invalid dimension " << dims[i] << " in newshape="
                           << newshape;
    } else {
      known *= dims[i];
    }
  }
  const dim_t size = ishape.Size();
  if (unknown != -1) {
    if (known == 0 || size % known != 0) {
      MX_THROW(ValueError) << "_np_reshape: cannot reshape array of size " << size
                           << " (shape " << ishape << ") into shape " << newshape;
    }
    dims[unknown] = size / known;
  }
  mxnet::TShape out(dims.begin(), dims.end());
  if (out.Size() != size) {
    MX_THROW(ValueError) << "_np_reshape: cannot reshape array of size " << size << " (shape "
                         << ishape << ") into shape " << newshape;
  }
  return out;
}

bool NumpyReshapeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                       mxnet::ShapeVector* out) {
  const NumpyReshapeParam& p = nnvm::get<NumpyReshapeParam>(attrs.parsed);
  if (p.order != "C") {
    MX_THROW(NotImplementedError) << "_np_reshape: only order='C' is supported, got order='"
                                  << p.order << "'";
  }
  if (!shape_is_known((*in)[0])) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, NumpyReshapeTarget((*in)[0], p.newshape));
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_np_reshape)
.describe(R"code(Gives a new shape to an array without changing its data (numpy.reshape).

Example::

  x = [[1, 2], [3, 4]]
  _np_reshape(x, newshape=(4,))  = [1, 2, 3, 4]
  _np_reshape(x, newshape=(-1, 1)) has shape (4, 1)
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<NumpyReshapeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"a"};
})
.set_attr<mxnet::FInferShape>("FInferShape", NumpyReshapeShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", IdentityCopyCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    // The output gradient, read back in the input's shape.
    std::vector<nnvm::NodeEntry> inputs{ograds[0], n->inputs[0]};
    std::unordered_map<std::string, std::string> dict;
    auto p = MakeNode("reshape_like", n->attrs.name + "_backward", &inputs, &dict, &n);
    return std::vector<nnvm::NodeEntry>{nnvm::NodeEntry(p, 0, 0)};
  })
.add_argument("a", "NDArray-or-Symbol", "Array to be reshaped.")
.add_arguments(NumpyReshapeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
