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
#include "./sampler.h"

namespace mxnet {
namespace op {

struct SampleMultinomialParam : public dmlc::Parameter<SampleMultinomialParam> {
  mxnet::TShape shape;
  bool get_prob;
  int dtype;
  DMLC_DECLARE_PARAMETER(SampleMultinomialParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape(0, 1))
        .describe("Shape to be sampled from each random distribution.");
    DMLC_DECLARE_FIELD(get_prob).set_default(false).describe(
        "Whether to also return the log probability of sampled result. "
        "This is usually used for differentiating through stochastic variables, "
        "e.g. in reinforcement learning.");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("uint8", mshadow::kUint8)
        .add_enum("int32", mshadow::kInt32)
        .add_enum("float16", mshadow::kFloat16)
        .add_enum("float32", mshadow::kFloat32)
        .add_enum("float64", mshadow::kFloat64)
        .set_default(mshadow::kInt32)
        .describe("DType of the output in case this can't be inferred.");
  }
};

DMLC_REGISTER_PARAMETER(SampleMultinomialParam);

namespace {

/*! \brief (number of distributions, categories, draws per distribution). */
void MultinomialDims(const mxnet::TShape& dshape, const SampleMultinomialParam& p, index_t* ndist,
                     index_t* k, index_t* each) {
  *k = dshape[dshape.ndim() - 1];
  *ndist = 1;
  for (int i = 0; i + 1 < dshape.ndim(); ++i) *ndist *= dshape[i];
  *each = 1;
  if (ndim_is_known(p.shape))
    for (int i = 0; i < p.shape.ndim(); ++i) *each *= p.shape[i];
}

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

void SampleMultinomialCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const SampleMultinomialParam& param = nnvm::get<SampleMultinomialParam>(attrs.parsed);
  index_t ndist, k, each;
  MultinomialDims(inputs[0].shape_, param, &ndist, &k, &each);
  if (ndist * each == 0) return;
  // Row-normalised cumulative distributions (double).
  std::vector<double> cum(ndist * k);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* p = inputs[0].dptr<DType>();
    for (index_t r = 0; r < ndist; ++r) {
      double acc = 0;
      for (index_t j = 0; j < k; ++j) {
        const double v = static_cast<double>(p[r * k + j]);
        if (v < 0) {
          MX_THROW(ValueError) << "_sample_multinomial: expected non-negative probabilities, "
                               << "got " << v << " in distribution " << r;
        }
        acc += v;
        cum[r * k + j] = acc;
      }
      for (index_t j = 0; j < k; ++j) cum[r * k + j] = acc > 0 ? cum[r * k + j] / acc : 1.0;
    }
  });
  std::vector<index_t> picks(ndist * each);
  ParallelSample<double>(ctx.requested[0], ndist * each, [&](auto* rng, index_t i) {
    const double u = static_cast<double>(rng->uniform());
    const double* c = cum.data() + (i / each) * k;
    const index_t j = std::upper_bound(c, c + k, u) - c;
    picks[i] = std::min<index_t>(j, k - 1);
  });
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, OType, {
    OType* out = outputs[0].dptr<OType>();
    for (index_t i = 0; i < ndist * each; ++i) out[i] = static_cast<OType>(picks[i]);
  });
  if (param.get_prob) {
    MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
      const DType* p = inputs[0].dptr<DType>();
      DType* lp = outputs[1].dptr<DType>();
      for (index_t i = 0; i < ndist * each; ++i) {
        lp[i] = DType(std::log(static_cast<double>(p[(i / each) * k + picks[i]])));
      }
    });
  }
}

/*! \brief inputs: log-prob out_grad, data, samples; output: data_grad. d log p / d p = 1/p. */
void SampleMultinomialBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const SampleMultinomialParam& param = nnvm::get<SampleMultinomialParam>(attrs.parsed);
  index_t ndist, k, each;
  MultinomialDims(inputs[1].shape_, param, &ndist, &k, &each);
  const size_t draws = static_cast<size_t>(ndist) * static_cast<size_t>(each);
  if (inputs[0].Size() != draws || inputs[2].Size() != draws) {
    MX_THROW(ValueError) << "_backward_sample_multinomial: out_grad " << inputs[0].shape_
                         << " and samples " << inputs[2].shape_ << " must hold " << draws
                         << " draws (" << ndist << " distributions of " << k << " outcomes, "
                         << each << " draws each) for probabilities " << inputs[1].shape_;
  }
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    const DType* og = inputs[0].dptr<DType>();
    const DType* p = inputs[1].dptr<DType>();
    DType* dx = outputs[0].dptr<DType>();
    if (req[0] != kAddTo) std::fill(dx, dx + ndist * k, DType(0));
    MSHADOW_TYPE_SWITCH(inputs[2].type_flag_, SType, {
      const SType* s = inputs[2].dptr<SType>();
      for (index_t i = 0; i < ndist * each; ++i) {
        const index_t r = i / each, j = static_cast<index_t>(s[i]);
        if (j < 0 || j >= k) {
          MX_THROW(ValueError) << "_backward_sample_multinomial: sample " << i << " is " << j
                               << ", outside [0, " << k << ")";
        }
        dx[r * k + j] = DType(static_cast<double>(dx[r * k + j]) +
                              static_cast<double>(og[i]) / static_cast<double>(p[r * k + j]));
      }
    });
  });
}

void ShuffleCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  if (in.Size() == 0) return;
  const index_t rows = in.shape_[0];
  const size_t row_bytes = in.Size() / rows * mshadow::mshadow_sizeof(in.type_flag_);
  std::vector<index_t> perm(rows);
  std::iota(perm.begin(), perm.end(), 0);
  mshadow::Random<cpu, float>* rnd = ctx.requested[0].get_random<cpu, float>(nullptr);
  std::shuffle(perm.begin(), perm.end(), rnd->GetRndEngine());
  const char* src = static_cast<const char*>(in.dptr_);
  std::vector<char> copy;
  if (in.dptr_ == out.dptr_) {  // in place: permute from a copy
    copy.assign(src, src + rows * row_bytes);
    src = copy.data();
  }
  char* dst = static_cast<char*>(out.dptr_);
#pragma omp parallel for if (rows * row_bytes > (1 << 20))
  for (index_t i = 0; i < rows; ++i) {
    std::memcpy(dst + i * row_bytes, src + perm[i] * row_bytes, row_bytes);
  }
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
  return std::vector<ResourceRequest>{ResourceRequest::kParallelRandom};
})
.set_attr<FCompute>("FCompute<cpu>", SampleMultinomialCompute)
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
.set_attr<FCompute>("FCompute<cpu>", SampleMultinomialBackward)
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
  return std::vector<ResourceRequest>{ResourceRequest::kRandom};
})
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", ShuffleCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Data to be shuffled.");

}  // namespace op
}  // namespace mxnet
