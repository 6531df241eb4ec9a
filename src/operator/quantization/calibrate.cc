/*!
 * \file calibrate.cc
 * \brief _contrib_calibrate_entropy(hist, hist_edges, num_quantized_bins=255) -> (threshold,
 *        divergence): the entropy (KL-divergence) calibration of MXNet 1.x's quantization.
 *
 * For a histogram of n bins centred on zero (n odd), each candidate window of 2i+1 bins around
 * the centre, i = num_quantized_bins/2 .. n/2, gives
 *   p: the window's counts, the counts outside it added to its first and last bin;
 *   q: the window's counts merged into num_quantized_bins bins (the last takes the remainder),
 *      each spread evenly over the bins of its group that are non-zero in the window, and zero
 *      where p is zero;
 *   both smoothed (a zero bin gets 1e-4, taken evenly from the non-zero ones) and normalized;
 *   divergence = sum p log(p / q) (infinite when q has no non-zero bin).
 * The output is the window's right edge with the least divergence, and that divergence.
 * A search over one small histogram: GPU calls run it on host copies (host_fallback.h).
 */
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../host_fallback.h"
#include "./quantization_utils-inl.h"

namespace mxnet {
namespace op {

struct CalibrateEntropyParam : public dmlc::Parameter<CalibrateEntropyParam> {
  int num_quantized_bins;
  DMLC_DECLARE_PARAMETER(CalibrateEntropyParam) {
    DMLC_DECLARE_FIELD(num_quantized_bins).set_default(255)
        .describe("The number of quantized bins.");
  }
};
DMLC_REGISTER_PARAMETER(CalibrateEntropyParam);

namespace {

/*! \brief Replaces zeros by eps, taking the same total evenly from the non-zero bins; false
 *         when every bin is zero. */
bool Smooth(std::vector<double>* d) {
  constexpr double kEps = 0.0001;
  const size_t zeros = std::count(d->begin(), d->end(), 0.0);
  if (zeros == d->size()) return false;
  const double take = kEps * static_cast<double>(zeros) / static_cast<double>(d->size() - zeros);
  for (double& v : *d) v = v == 0.0 ? kEps : v - take;
  return true;
}

/*! \brief KL(p || q) of the normalized distributions. */
double Divergence(const std::vector<double>& p, const std::vector<double>& q) {
  double sp = 0, sq = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    sp += p[i];
    sq += q[i];
  }
  double kl = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double pi = p[i] / sp, qi = q[i] / sq;
    if (pi > 0) kl += pi * std::log(pi / qi);
  }
  return kl;
}

/*! \brief The divergence of the window [a, b) of `hist` quantized into `bins` bins. */
double WindowDivergence(const std::vector<double>& hist, size_t a, size_t b, size_t bins) {
  const size_t width = b - a;
  std::vector<double> p(hist.begin() + a, hist.begin() + b);
  for (size_t k = 0; k < a; ++k) p.front() += hist[k];
  for (size_t k = b; k < hist.size(); ++k) p.back() += hist[k];
  const size_t merged = width / bins;
  std::vector<double> q(width, 0.0);
  for (size_t j = 0; j < bins; ++j) {
    const size_t start = j * merged, stop = j + 1 == bins ? width : start + merged;
    double total = 0;
    size_t nonzero = 0;
    for (size_t k = start; k < stop; ++k) {
      total += hist[a + k];
      nonzero += hist[a + k] != 0;
    }
    if (nonzero == 0) continue;
    for (size_t k = start; k < stop; ++k) q[k] = total / static_cast<double>(nonzero);
  }
  for (size_t k = 0; k < width; ++k) {
    if (p[k] == 0) q[k] = 0;
  }
  if (!Smooth(&p) || !Smooth(&q)) return std::numeric_limits<double>::infinity();
  return Divergence(p, q);
}

bool CalibrateShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const TShape& hist = (*in)[0];
  const TShape& edges = (*in)[1];
  if (shape_is_known(hist) && hist.ndim() != 1) {
    MX_THROW(ValueError) << "_contrib_calibrate_entropy: hist must be 1-d, got shape " << hist;
  }
  if (shape_is_known(hist) && shape_is_known(edges) &&
      (edges.ndim() != 1 || edges[0] != hist[0] + 1)) {
    MX_THROW(ValueError) << "_contrib_calibrate_entropy: hist_edges must have one more entry "
                         << "than hist " << hist << ", got shape " << edges;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, TShape({1}));
  SHAPE_ASSIGN_CHECK(*out, 1, TShape({1}));
  return true;
}

bool CalibrateType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*in, 0, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*in, 1, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
  TYPE_ASSIGN_CHECK(*out, 1, mshadow::kFloat32);
  return true;
}

void CalibrateCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  const int bins = nnvm::get<CalibrateEntropyParam>(attrs.parsed).num_quantized_bins;
  const size_t n = inputs[0].Size();
  if (bins < 1 || static_cast<size_t>(bins) > n) {
    MX_THROW(ValueError) << "_contrib_calibrate_entropy: num_quantized_bins must be in [1, "
                         << n << "] (the histogram's bins), got " << bins;
  }
  const float* h = inputs[0].dptr<float>();
  const float* edges = inputs[1].dptr<float>();
  const std::vector<double> hist(h, h + n);
  const size_t zero = n / 2, half = static_cast<size_t>(bins) / 2;
  double best = std::numeric_limits<double>::infinity();
  size_t best_stop = zero + half + 1;
  for (size_t i = half; i <= zero; ++i) {
    const double d = WindowDivergence(hist, zero - i, zero + i + 1, static_cast<size_t>(bins));
    if (d < best) {  // the first window wins ties, as argmin
      best = d;
      best_stop = zero + i + 1;
    }
  }
  *outputs[0].dptr<float>() = edges[best_stop];
  *outputs[1].dptr<float>() = static_cast<float>(best);
}

}  // namespace

NNVM_REGISTER_OP(_contrib_calibrate_entropy)
.describe(R"code(Provide calibrated min/max for input histogram.

Returns the threshold (the right edge of the window of the histogram, centred on zero, whose
quantization into ``num_quantized_bins`` bins loses the least information, measured as the
KL divergence) and that divergence, as MXNet 1.x's entropy calibration. ``hist`` has an odd
number of bins centred on zero and ``hist_edges`` one more entry.

.. Note::
    This operator only supports forward propagation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(2)
.set_attr_parser(ParamParser<CalibrateEntropyParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"hist", "hist_edges"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"threshold", "divergence"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CalibrateShape)
.set_attr<nnvm::FInferType>("FInferType", CalibrateType)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(CalibrateCompute))
#endif
.set_attr<FCompute>("FCompute<cpu>", CalibrateCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("hist", "NDArray-or-Symbol", "A ndarray/symbol of type `float32`")
.add_argument("hist_edges", "NDArray-or-Symbol", "A ndarray/symbol of type `float32`")
.add_arguments(CalibrateEntropyParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
