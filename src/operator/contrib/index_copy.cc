/*!
 * \file index_copy.cc
 * \brief _contrib_index_copy(old_tensor, index_vector, new_tensor): a copy of old_tensor whose
 *        rows index_vector[i] (along the first axis) are replaced by new_tensor[i].
 *        _contrib_backward_index_copy inputs (out_grad, old_tensor, index_vector, new_tensor);
 *        old_grad = out_grad with the copied rows zeroed, new_grad[i] = out_grad[index[i]],
 *        index_grad = 0.
 */
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./index_copy-inl.h"

namespace mxnet {
namespace op {

namespace {

bool IndexCopyShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const mxnet::TShape& old = (*in)[0];
  const mxnet::TShape& index = (*in)[1];
  const mxnet::TShape& fresh = (*in)[2];
  if (!shape_is_known(old) || !shape_is_known(index) || !shape_is_known(fresh)) return false;
  bool ok = index.ndim() == 1 && old.ndim() >= 1 && fresh.ndim() == old.ndim() &&
            fresh[0] == index[0];
  for (int i = 1; ok && i < old.ndim(); ++i) ok = fresh[i] == old[i];
  if (!ok) {
    MX_THROW(ValueError) << "_contrib_index_copy: expected index_vector of shape (k,) and "
                         << "new_tensor of shape (k, old_tensor.shape[1:]...), got old_tensor "
                         << old << ", index_vector " << index << ", new_tensor " << fresh;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, old);
  return true;
}

bool IndexCopyType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*in, 2, (*in)[0]);
  TYPE_ASSIGN_CHECK(*in, 0, (*in)[2]);
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1 && (*in)[1] != -1;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_index_copy)
.describe(R"code(Copies the elements of a `new_tensor` into the `old_tensor`.

This operator copies the elements by selecting the indices in the order given in `index`.
The output will be a new tensor containing the rest elements of old tensor and
the copied elements of new tensor.
For example, if `index[i] == j`, then the `i` th row of `new_tensor` is copied to the
`j` th row of output.

The `index` must be a vector and it must have the same size with the `0` th dimension of
`new_tensor`. Also, the `0` th dimension of old_tensor must `>=` the `0` th dimension of
`new_tensor`, or an error will be raised.

Examples::

    x = mx.nd.zeros((5,3))
    t = mx.nd.array([[1,2,3],[4,5,6],[7,8,9]])
    index = mx.nd.array([0,4,2])

    mx.nd.contrib.index_copy(x, index, t)

    [[1. 2. 3.]
     [0. 0. 0.]
     [7. 8. 9.]
     [0. 0. 0.]
     [4. 5. 6.]]
    <NDArray 5x3 @cpu(0)>

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"old_tensor", "index_vector", "new_tensor"};
})
.set_attr<mxnet::FInferShape>("FInferShape", IndexCopyShape)
.set_attr<nnvm::FInferType>("FInferType", IndexCopyType)
.set_attr<FResourceRequest>("FResourceRequest", [](const nnvm::NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", IndexCopyCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_contrib_backward_index_copy"})
.add_argument("old_tensor", "NDArray-or-Symbol", "Old tensor")
.add_argument("index_vector", "NDArray-or-Symbol", "Index vector")
.add_argument("new_tensor", "NDArray-or-Symbol", "New tensor to be copied");

NNVM_REGISTER_OP(_contrib_backward_index_copy)
.describe("Backward of _contrib_index_copy: (out_grad, old_tensor, index_vector, new_tensor) "
          "-> (old_grad, index_grad, new_grad).")
.set_num_inputs(4)
.set_num_outputs(3)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  for (int i = 0; i < 3; ++i) SHAPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]) && shape_is_known((*out)[2]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (int i = 0; i < 3; ++i) TYPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
  return (*out)[0] != -1 && (*out)[1] != -1 && (*out)[2] != -1;
})
.set_attr<FResourceRequest>("FResourceRequest", [](const nnvm::NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", IndexCopyGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
