/*!
 * \file sampler.h
 * \brief Scalar samplers of the distributions behind _random_*, _random_*_like and _sample_*,
 *        drawn from one parallel-random state view (common::random::RandGenerator::Impl), and
 *        the chunked parallel loop that makes results depend on the seed only, not on the
 *        number of threads:
 *
 *   ParallelSample<float>(ctx.requested[0], n, [&](Gen::Impl* rng, index_t i) {
 *     out[i] = SampleGamma(rng, alpha, beta);
 *   });
 *
 * Chunk c of the n outputs (chunks of a size that depends on n only) always uses state c.
 */
#ifndef MXNET_OPERATOR_RANDOM_SAMPLER_H_
#define MXNET_OPERATOR_RANDOM_SAMPLER_H_

#include <mxnet/base.h>
#include <mxnet/random_generator.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cmath>

namespace mxnet {
namespace op {

/*! \brief Uniform in (0, 1]: safe for log(). */
template <typename Rng>
MSHADOW_XINLINE double SampleUnitOpen(Rng* rng) {
  return 1.0 - static_cast<double>(rng->uniform());
}

template <typename Rng>
MSHADOW_XINLINE double SampleUniform(Rng* rng, double low, double high) {
  return low + (high - low) * static_cast<double>(rng->uniform());
}

template <typename Rng>
MSHADOW_XINLINE double SampleNormal(Rng* rng, double loc, double scale) {
  return loc + scale * static_cast<double>(rng->normal());
}

template <typename Rng>
MSHADOW_XINLINE double SampleExponential(Rng* rng, double lam) {
  return -std::log(SampleUnitOpen(rng)) / lam;
}

/*! \brief Gamma with shape alpha and scale beta (mean alpha * beta): Marsaglia and Tsang. */
template <typename Rng>
MSHADOW_XINLINE double SampleGamma(Rng* rng, double alpha, double beta) {
  if (alpha <= 0 || beta <= 0) return alpha == 0 ? 0.0 : NAN;
  double boost = 1.0;
  if (alpha < 1.0) {  // G(a) = G(a + 1) * U^(1/a)
    boost = std::pow(SampleUnitOpen(rng), 1.0 / alpha);
    alpha += 1.0;
  }
  const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double x, v;
    do {
      x = static_cast<double>(rng->normal());
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = SampleUnitOpen(rng);
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v * beta * boost;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v * beta * boost;
  }
}

/*! \brief Poisson: multiplication method for small lam, rejection from a Lorentzian above. */
template <typename Rng>
MSHADOW_XINLINE double SamplePoisson(Rng* rng, double lam) {
  if (!(lam > 0)) return 0.0;
  if (lam < 12.0) {
    const double limit = std::exp(-lam);
    double prod = static_cast<double>(rng->uniform());
    double k = 0;
    while (prod > limit) {
      prod *= static_cast<double>(rng->uniform());
      k += 1;
    }
    return k;
  }
  const double sq = std::sqrt(2.0 * lam), alxm = std::log(lam);
  const double g = lam * alxm - std::lgamma(lam + 1.0);
  double em, t, y;
  do {
    do {
      y = std::tan(M_PI * static_cast<double>(rng->uniform()));
      em = sq * y + lam;
    } while (em < 0.0);
    em = std::floor(em);
    t = 0.9 * (1.0 + y * y) * std::exp(em * alxm - std::lgamma(em + 1.0) - g);
  } while (static_cast<double>(rng->uniform()) > t);
  return em;
}

/*! \brief Failures before the k-th success with success probability p (Gamma-Poisson mixture). */
template <typename Rng>
MSHADOW_XINLINE double SampleNegativeBinomial(Rng* rng, double k, double p) {
  if (p >= 1.0) return 0.0;
  return SamplePoisson(rng, SampleGamma(rng, k, (1.0 - p) / p));
}

/*! \brief Mean mu, variance mu + alpha * mu^2. */
template <typename Rng>
MSHADOW_XINLINE double SampleGeneralizedNegativeBinomial(Rng* rng, double mu, double alpha) {
  if (alpha == 0) return SamplePoisson(rng, mu);
  return SamplePoisson(rng, SampleGamma(rng, 1.0 / alpha, alpha * mu));
}

/*!
 * \brief Run fn(&rng, i) for i in [0, n) over the resource's parallel states: chunk c of a
 *        size fixed by n uses state c, chunks run in parallel.
 */
template <typename AType, typename Fn>
inline void ParallelSample(const Resource& res, index_t n, Fn fn) {
  typedef common::random::RandGenerator<cpu, AType> Gen;
  Gen* gen = res.get_parallel_random<cpu, AType>();
  const index_t kStates = Gen::kNumRandomStates;
  const index_t step = std::max<index_t>(4096, (n + kStates - 1) / kStates);
  const index_t nchunk = (n + step - 1) / step;
#pragma omp parallel for if (nchunk > 1)
  for (index_t c = 0; c < nchunk; ++c) {
    typename Gen::Impl rng(gen, static_cast<int>(c));
    const index_t end = std::min(n, (c + 1) * step);
    for (index_t i = c * step; i < end; ++i) fn(&rng, i);
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_RANDOM_SAMPLER_H_
