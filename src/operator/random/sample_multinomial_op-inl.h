/*!
 * \file sample_multinomial_op-inl.h
 * \brief _sample_multinomial, its gradient and _shuffle for both devices.
 *        Multinomial: one thread per distribution normalizes its cumulative probabilities
 *        (flagging negative ones, reported on the host), then one thread per draw inverts the
 *        CDF: the CPU draws its uniforms from the parallel generator's states, the GPU from
 *        per-draw Philox streams. The gradient gathers per (distribution, outcome) in the
 *        CPU's draw order. Shuffle: the permutation is drawn on the host (kRandom, a host
 *        generator on every device, so a seed gives the same order on both), then rows are
 *        gathered by a kernel.
 */
#ifndef MXNET_OPERATOR_RANDOM_SAMPLE_MULTINOMIAL_OP_INL_H_
#define MXNET_OPERATOR_RANDOM_SAMPLE_MULTINOMIAL_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/random_generator.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "../host_copy.h"
#include "../mshadow_op.h"
#include "../mxnet_op.h"
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


/*! \brief (number of distributions, categories, draws per distribution). */
inline void MultinomialDims(const mxnet::TShape& dshape, const SampleMultinomialParam& p, index_t* ndist,
                     index_t* k, index_t* each) {
  *k = dshape[dshape.ndim() - 1];
  *ndist = 1;
  for (int i = 0; i + 1 < dshape.ndim(); ++i) *ndist *= dshape[i];
  *each = 1;
  if (ndim_is_known(p.shape))
    for (int i = 0; i < p.shape.ndim(); ++i) *each *= p.shape[i];
}


namespace multinomial {

/*! \brief Row r: cum[r, :] = normalized running sums (all 1 for an all-zero row); bad[r] = 1
 *         when a probability is negative (or NaN). */
struct normalize_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, const DType* p, index_t k, double* cum, int* bad) {
    double acc = 0;
    int negative = 0;
    for (index_t j = 0; j < k; ++j) {
      const double v = static_cast<double>(p[r * k + j]);
      if (!(v >= 0)) negative = 1;
      acc += v;
      cum[r * k + j] = acc;
    }
    for (index_t j = 0; j < k; ++j) cum[r * k + j] = acc > 0 ? cum[r * k + j] / acc : 1.0;
    bad[r] = negative;
  }
};

/*! \brief The outcome of uniform u in a row's cumulative probabilities (upper bound). */
MSHADOW_XINLINE index_t Pick(const double* c, index_t k, double u) {
  index_t lo = 0, hi = k;
  while (lo < hi) {
    const index_t mid = (lo + hi) / 2;
    if (c[mid] <= u) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < k - 1 ? lo : k - 1;
}

/*! \brief Draw i (GPU): its own Philox stream. */
struct draw_philox {
  template <typename OType, typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const double* cum, index_t k, index_t each,
                                  uint32_t seed, uint64_t call, OType* out, const DType* p,
                                  DType* log_prob) {
    common::random::PhiloxStream<double> rng(seed, call, i);
    const index_t r = i / each;
    const index_t j = Pick(cum + r * k, k, static_cast<double>(rng.uniform()));
    out[i] = static_cast<OType>(j);
    if (log_prob != nullptr) log_prob[i] = DType(::log(static_cast<double>(p[r * k + j])));
  }
};

/*! \brief dx[r, j] (req) sum over the row's draws of j, in draw order, of og / p[r, j]. */
struct gather_grad {
  template <typename DType, typename SType>
  MSHADOW_XINLINE static void Map(index_t e, const DType* og, const DType* p, const SType* s,
                                  index_t k, index_t each, DType* dx, bool add) {
    const index_t r = e / k, j = e % k;
    DType acc = add ? dx[e] : DType(0);
    for (index_t t = 0; t < each; ++t) {
      const index_t i = r * each + t;
      if (static_cast<index_t>(s[i]) == j) {
        acc = DType(static_cast<double>(acc) + static_cast<double>(og[i]) /
                                                   static_cast<double>(p[e]));
      }
    }
    dx[e] = acc;
  }
};

/*! \brief Row i of out = row perm[i] of src. */
struct gather_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* out, const DType* src, const index_t* perm,
                                  index_t row) {
    out[e] = src[perm[e / row] * row + e % row];
  }
};

}  // namespace multinomial

template <typename xpu>
void SampleMultinomialCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  using namespace multinomial;  // NOLINT(build/namespaces)
  const SampleMultinomialParam& param = nnvm::get<SampleMultinomialParam>(attrs.parsed);
  index_t ndist, k, each;
  MultinomialDims(inputs[0].shape_, param, &ndist, &k, &each);
  if (ndist * each == 0) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const size_t cum_bytes = static_cast<size_t>(ndist * k) * sizeof(double);
  char* space = ctx.requested[1].get_space_typed_ptr<char>(cum_bytes + ndist * sizeof(int));
  double* cum = reinterpret_cast<double*>(space);
  int* bad = reinterpret_cast<int*>(space + cum_bytes);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<normalize_rows, xpu>::Launch(s, ndist, inputs[0].dptr<DType>(), k, cum,
                                                  bad);
  });
  const std::vector<double> flags =
      BlobValuesOnHost(s, TBlob(bad, mxnet::TShape(1, ndist), xpu::kDevMask, mshadow::kInt32));
  for (index_t r = 0; r < ndist; ++r) {
    if (flags[r] != 0) {
      MX_THROW(ValueError) << "_sample_multinomial: expected non-negative probabilities, got a "
                           << "negative (or NaN) one in distribution " << r << " of data shape "
                           << inputs[0].shape_;
    }
  }
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* p = inputs[0].dptr<DType>();
    DType* log_prob = param.get_prob ? outputs[1].dptr<DType>() : nullptr;
    MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, OType, {
      OType* out = outputs[0].dptr<OType>();
      if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
        ParallelSample<double>(ctx.requested[0], ndist * each, [&](auto* rng, index_t i) {
          const index_t r = i / each;
          const index_t j = Pick(cum + r * k, k, static_cast<double>(rng->uniform()));
          out[i] = static_cast<OType>(j);
          if (log_prob != nullptr) {
            log_prob[i] = DType(std::log(static_cast<double>(p[r * k + j])));
          }
        });
      } else {
        auto* gen = ctx.requested[0].get_parallel_random<xpu, float>();
        mxnet_op::Kernel<draw_philox, xpu>::Launch(s, ndist * each, cum, k, each, gen->seed(),
                                                   gen->NextCall(), out, p, log_prob);
      }
    });
  });
}

/*! \brief inputs: log-prob out_grad, data, samples; output: data_grad. d log p / d p = 1/p. */
template <typename xpu>
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
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const std::vector<double> samples = BlobValuesOnHost(s, inputs[2]);
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!(samples[i] >= 0 && samples[i] < k)) {
      MX_THROW(ValueError) << "_backward_sample_multinomial: sample " << i << " is "
                           << samples[i] << ", outside [0, " << k << ")";
    }
  }
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(inputs[2].type_flag_, SType, {
      mxnet_op::Kernel<multinomial::gather_grad, xpu>::Launch(
          s, ndist * k, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
          inputs[2].dptr<SType>(), k, each, outputs[0].dptr<DType>(), req[0] == kAddTo);
    });
  });
}

template <typename xpu>
void ShuffleCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& in = inputs[0];
  const TBlob& out = outputs[0];
  if (in.Size() == 0) return;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t rows = in.shape_[0];
  const index_t row = in.Size() / rows;
  std::vector<index_t> perm(rows);
  std::iota(perm.begin(), perm.end(), 0);
  mshadow::Random<cpu, float>* rnd = ctx.requested[0].get_random<cpu, float>(nullptr);
  std::shuffle(perm.begin(), perm.end(), rnd->GetRndEngine());
  const size_t bytes = in.Size() * mshadow::mshadow_sizeof(in.type_flag_);
  const bool in_place = in.dptr_ == out.dptr_;
  char* space = ctx.requested[1].get_space_typed_ptr<char>(rows * sizeof(index_t) +
                                                           (in_place ? bytes : 0));
  index_t* dperm = reinterpret_cast<index_t*>(space);
  CopyHostToDevice(s, dperm, perm.data(), perm.size() * sizeof(index_t));
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    const DType* src = in.dptr<DType>();
    if (in_place) {  // permute from a copy
      DType* copy = reinterpret_cast<DType*>(space + rows * sizeof(index_t));
      mxnet_op::Kernel<mxnet_op::op_with_req<mshadow_op::identity, kWriteTo>, xpu>::Launch(
          s, in.Size(), copy, src);
      src = copy;
    }
    mxnet_op::Kernel<multinomial::gather_rows, xpu>::Launch(s, in.Size(), out.dptr<DType>(),
                                                            src, dperm, row);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_RANDOM_SAMPLE_MULTINOMIAL_OP_INL_H_
