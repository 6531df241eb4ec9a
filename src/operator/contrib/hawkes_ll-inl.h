/*!
 * \file hawkes_ll-inl.h
 * \brief Log likelihood of marked, univariate-per-mark Hawkes processes with exponential decay
 *        (_contrib_hawkesll) and its gradient (_contrib_backward_hawkesll).
 *
 * For sample i and mark k, with background intensity lda[i, k], branching ratio alpha[k] and
 * decay beta[k], the memory s_k(t) = state[i, k] e^{-beta t} + sum_{t_j < t, y_j = k}
 * e^{-beta (t - t_j)} gives the intensity lda + alpha beta s_k(t). Event times are the
 * cumulative sums of lags[i, :valid_length[i]]; the observation window is (0, max_time[i]].
 *
 *   loglik[i]       = sum_j log(lda[y_j] + alpha beta s_{y_j}(t_j-))
 *                     - sum_k (lda_k T + alpha_k (state_k + n_k - s_k(T)))
 *   out_state[i, k] = s_k(T)
 *
 * (n_k the number of events of mark k, T = max_time[i]). One pass over the events carries s
 * and ds/dbeta for every mark, which gives the forward values and every gradient.
 */
#ifndef MXNET_OPERATOR_CONTRIB_HAWKES_LL_INL_H_
#define MXNET_OPERATOR_CONTRIB_HAWKES_LL_INL_H_

#include <mxnet/op_attr_types.h>

#include <cmath>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {
namespace hawkesll {

enum Inputs { kLda, kAlpha, kBeta, kState, kLags, kMarks, kValidLength, kMaxTime, kNumInputs };
enum Outputs { kLoglik, kOutState, kNumOutputs };

/*! \brief Gradients of one sample (per mark); alpha and beta ones are summed over samples. */
struct SampleGrad {
  std::vector<double> lda, alpha, beta, state;
};

/*!
 * \brief Forward (and, with grad != nullptr, gradient) of sample i. `gll` and `gstate` are the
 *        head gradients of loglik[i] and out_state[i, :] (used only with grad).
 * \param lda, state  this sample's rows (K values); lags and marks its T values.
 */
template <typename DType>
double SampleLoglik(int64_t K, const DType* lda, const DType* alpha, const DType* beta,
                    const DType* state, const DType* lags, const int64_t* marks, int64_t n,
                    double T, double* out_state, double gll, const DType* gstate,
                    SampleGrad* grad) {
  std::vector<double> s(K), ds(K), a(K), b(K);
  for (int64_t k = 0; k < K; ++k) {
    s[k] = static_cast<double>(state[k]);
    ds[k] = 0.0;  // d s_k / d beta_k
    a[k] = static_cast<double>(alpha[k]);
    b[k] = static_cast<double>(beta[k]);
  }
  std::vector<double> count(K, 0.0);
  // Per mark: sum over events of 1/lam, s/lam, (s + beta ds)/lam, e^{-beta t}/lam.
  std::vector<double> inv(K, 0.0), s_inv(K, 0.0), sb_inv(K, 0.0), e_inv(K, 0.0);
  double ll = 0.0, t = 0.0;
  for (int64_t j = 0; j < n; ++j) {
    const double dt = static_cast<double>(lags[j]);
    t += dt;
    for (int64_t k = 0; k < K; ++k) {
      const double e = std::exp(-b[k] * dt);
      ds[k] = (ds[k] - dt * s[k]) * e;
      s[k] *= e;
    }
    const int64_t k = marks[j];
    const double lam = static_cast<double>(lda[k]) + a[k] * b[k] * s[k];
    ll += std::log(lam);
    if (grad != nullptr) {
      inv[k] += 1.0 / lam;
      s_inv[k] += s[k] / lam;
      sb_inv[k] += (s[k] + b[k] * ds[k]) / lam;
      e_inv[k] += std::exp(-b[k] * t) / lam;
    }
    s[k] += 1.0;
    count[k] += 1.0;
  }
  const double rest = T - t;  // decay to the end of the window
  for (int64_t k = 0; k < K; ++k) {
    const double e = std::exp(-b[k] * rest);
    ds[k] = (ds[k] - rest * s[k]) * e;
    s[k] *= e;
    out_state[k] = s[k];
    const double st = static_cast<double>(state[k]);
    ll -= static_cast<double>(lda[k]) * T + a[k] * (st + count[k] - s[k]);
  }
  if (grad != nullptr) {
    for (int64_t k = 0; k < K; ++k) {
      const double st = static_cast<double>(state[k]);
      const double gs = gstate != nullptr ? static_cast<double>(gstate[k]) : 0.0;
      const double eT = std::exp(-b[k] * T);
      grad->lda[k] = gll * (inv[k] - T);
      grad->alpha[k] += gll * (b[k] * s_inv[k] - (st + count[k] - s[k]));
      // d loglik / d beta: events a (s + beta ds)/lam; compensator -a (-ds(T)) = a ds(T).
      grad->beta[k] += gll * (a[k] * sb_inv[k] + a[k] * ds[k]) + gs * ds[k];
      // s(t) carries state e^{-beta t}: d lam / d state = a b e^{-beta t}; d s(T) = e^{-beta T}.
      grad->state[k] = gll * (a[k] * b[k] * e_inv[k] - a[k] * (1.0 - eT)) + gs * eT;
    }
  }
  return ll;
}

}  // namespace hawkesll
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_HAWKES_LL_INL_H_
