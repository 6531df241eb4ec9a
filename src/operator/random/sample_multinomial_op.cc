/*!
 * \file sample_multinomial_op.cc
 * \brief _sample_multinomial (draws category indices from rows of probabilities, optionally
 *        with their log-probabilities, differentiable w.r.t. the probabilities) and _shuffle
 *        (random permutation along the first axis).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./sample_multinomial_op-inl.h"
#include "./sampler.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SampleMultinomialParam);

namespace {

bool SampleMultinomialShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                            mxnet::ShapeVector* out_attrs) {
  const SampleMultinomialParam& param = nnvm::get<SampleMultinomialParam>(attrs.parsed);
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), param.get_prob ? 2U : 1U);
  const mxnet::TShape& d = (*in_attrs)[0];
  if (!ndim_is_known(d)) return false;
  if (d.ndim() < 1) {
    MX_THROW(ValueError) << "_sample_multinomial: expected data with at least 1 dimension "
                         << "(the categories on the last axis), got " << d;
  }
  const int extra = ndim_is_known(param.shape) ? param.shape.ndim() : 0;
  mxnet::TShape oshape(d.ndim() - 1 + extra, -1);
  for (int i = 0; i + 1 < d.ndim(); ++i) oshape[i] = d[i];
  for (int i = 0; i < extra; ++i) oshape[d.ndim() - 1 + i] = param.shape[i];
  for (size_t i = 0; i < out_attrs->size(); ++i) SHAPE_ASSIGN_CHECK(*out_attrs, i, oshape);
  return shape_is_known(d);
}

bool SampleMultinomialType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                           std::vector<int>* out_attrs) {
  const SampleMultinomialParam& param = nnvm::get<SampleMultinomialParam>(attrs.parsed);
  const int dtype = (*in_attrs)[0];
  if (dtype < 0) return false;
  TYPE_ASSIGN_CHECK(*out_attrs, 0, param.dtype);
  if (param.get_prob) TYPE_ASSIGN_CHECK(*out_attrs, 1, dtype);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_sample_multinomial)
.add_alias("sample_multinomial")
.describe(R"code(Concurrent sampling from multiple multinomial distributions.

*data* is an *n* dimensional array whose last dimension has length *k*, where
*k* is the number of possible outcomes of each multinomial distribution. This
operator will draw *shape* samples from each distribution. If shape is empty
one sample will be drawn from each distribution.

If *get_prob* is true, a second array containing log likelihood of the drawn
samples will also be returned. This is usually used for reinforcement learning
where you can provide reward as head gradient for this array to estimate
gradient.

Note that the input distribution must be normalized, i.e. *data* must sum to
1 along its last axis.

Examples::

   probs = [[0, 0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1, 0]]

   // Draw a single sample for each distribution
   sample_multinomial(probs) = [3, 0]

   // Draw a vector containing two samples for each distribution
   sample_multinomial(probs, shape=(2)) = [[4, 2],
                                           [0, 0]]

   // requests log likelihood
   sample_multinomial(probs, get_prob=True) = [2, 1], [0.2, 0.3]
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs([](const NodeAttrs& attrs) {
  return nnvm::get<SampleMultinomialParam>(attrs.parsed).get_prob ? 2U : 1U;
})
.set_attr_parser(ParamParser<SampleMultinomialParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", SampleMultinomialShape)
.set_attr<nnvm::FInferType>("FInferType", SampleMultinomialType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kParallelRandom,
                                      ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", SampleMultinomialCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    if (!nnvm::get<SampleMultinomialParam>(n->attrs.parsed).get_prob) {
      return MakeZeroGradNodes(n, ograds);
    }
    std::vector<nnvm::NodeEntry> heads{ograds[1], n->inputs[0], nnvm::NodeEntry{n, 0, 0}};
    return MakeGradNode("_backward_sample_multinomial", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol",
              "Distribution probabilities. Must sum to one on the last axis.")
.add_arguments(SampleMultinomialParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_sample_multinomial)
.describe("Backward of _sample_multinomial with get_prob: (log_prob_grad, data, samples) -> "
          "data_grad.")
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SampleMultinomialParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return (*out)[0] >= 0;
})
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", SampleMultinomialBackward<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the log-probability output")
.add_argument("data", "NDArray-or-Symbol", "Distribution probabilities")
.add_argument("samples", "NDArray-or-Symbol", "The drawn samples")
.add_arguments(SampleMultinomialParam::__FIELDS__());

NNVM_REGISTER_OP(_shuffle)
.add_alias("shuffle")
.describe(R"code(Randomly shuffle the elements.

This shuffles the array along the first axis.
The order of the elements in each subarray does not change.
For example, if a 2D array is given, the order of the rows randomly changes,
but the order of the elements in each row does not change.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  if (ndim_is_known((*in)[0]) && (*in)[0].ndim() == 0) {
    MX_THROW(ValueError) << "_shuffle: expected an array with at least 1 dimension, got a "
                         << "scalar of shape " << (*in)[0];
  }
  return ElemwiseShape<1, 1>(attrs, in, out);
})
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kRandom, ResourceRequest::kTempSpace};
})
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", ShuffleCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Data to be shuffled.");

}  // namespace op
}  // namespace mxnet
