/*!
 * \file allclose_op.cc
 * \brief Registration of _contrib_allclose.
 */
#include "./allclose_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(AllCloseParam);

NNVM_REGISTER_OP(_contrib_allclose)
.describe(R"code(This operators implements the numpy.allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)

.. math::

    f(x) = |a-b|<=atol+rtol|b|

where
:math:`a, b` are the input tensors of equal types an shapes
:math:`atol, rtol` the values of absolute and relative tolerance (by default, rtol=1e-05, atol=1e-08)

Examples::

  a = [1e10, 1e-7],
  b = [1.00001e10, 1e-8]
  y = allclose(a, b)
  y = False

  a = [1e10, 1e-8],
  b = [1.00001e10, 1e-9]
  y = allclose(a, b)
  y = True

The result is a one-element array holding 1 (close) or 0.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<AllCloseParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"a", "b"};
})
.set_attr<mxnet::FInferShape>("FInferShape", AllCloseShape)
.set_attr<nnvm::FInferType>("FInferType", AllCloseType)
.set_attr<FCompute>("FCompute<cpu>", AllCloseCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("a", "NDArray-or-Symbol", "Input array a")
.add_argument("b", "NDArray-or-Symbol", "Input array b")
.add_arguments(AllCloseParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
