/*!
 * \file krprod.cc
 * \brief khatri_rao: column-wise Kronecker product of matrices A_k of shape (I_k, R); the
 *        output (prod I_k, R) has row (i_1, ..., i_n) (row-major, the first matrix slowest)
 *        equal to prod_k A_k[i_k, :]. Not differentiable, as in 1.9.1.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./krprod-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(KhatriRaoParam);

namespace {

bool KhatriRaoShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  dim_t rows = 1, cols = -1;
  for (size_t i = 0; i < in->size(); ++i) {
    const mxnet::TShape& s = (*in)[i];
    if (!shape_is_known(s)) return false;
    if (s.ndim() != 2) {
      MX_THROW(ValueError) << "khatri_rao: expected every input to be a matrix, got input " << i
                           << " of shape " << s;
    }
    if (cols >= 0 && s[1] != cols) {
      MX_THROW(ValueError) << "khatri_rao: all inputs must have the same number of columns, "
                           << "input 0 has " << cols << " and input " << i << " has shape "
                           << s;
    }
    cols = s[1];
    rows *= s[0];
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({rows, cols}));
  return true;
}

}  // namespace

NNVM_REGISTER_OP(khatri_rao)
.describe(R"code(Computes the Khatri-Rao product of the input matrices.

Given a collection of :math:`n` input matrices,

.. math::
   A_1 \in \mathbb{R}^{M_1 \times M}, \ldots, A_n \in \mathbb{R}^{M_n \times N},

the (column-wise) Khatri-Rao product is defined as the matrix,

.. math::
   X = A_1 \otimes \cdots \otimes A_n \in \mathbb{R}^{(M_1 \cdots M_n) \times N},

where the :math:`k` th column is equal to the column-wise outer product
:math:`{A_1}_k \otimes \cdots \otimes {A_n}_k` where :math:`{A_i}_k` is the kth
column of the ith matrix.

Example::

  >>> A = mx.nd.array([[1, -1],
  >>>                  [2, -3]])
  >>> B = mx.nd.array([[1, 4],
  >>>                  [2, 5],
  >>>                  [3, 6]])
  >>> C = mx.nd.khatri_rao(A, B)
  >>> print(C.asnumpy())
  [[  1.  -4.]
   [  2.  -5.]
   [  3.  -6.]
   [  2. -12.]
   [  4. -15.]
   [  6. -18.]]

)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<KhatriRaoParam>(attrs.parsed).num_args);
})
.set_num_outputs(1)
.set_attr_parser(ParamParser<KhatriRaoParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  std::vector<std::string> names;
  const int n = nnvm::get<KhatriRaoParam>(attrs.parsed).num_args;
  for (int i = 0; i < n; ++i) names.push_back("arg" + std::to_string(i));
  return names;
})
.set_attr<mxnet::FInferShape>("FInferShape", KhatriRaoShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<-1, 1>)
.set_attr<FCompute>("FCompute<cpu>", KhatriRaoCompute<cpu>)
// 1.9.1 registers no gradient for it.
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("args", "NDArray-or-Symbol[]", "Positional input matrices")
.add_arguments(KhatriRaoParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
