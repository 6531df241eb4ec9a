/*!
 * \file hawkes_ll.cc
 * \brief Registration of _contrib_hawkesll (Hawkes process log likelihood) and its gradient
 *        _contrib_backward_hawkesll; the math is in hawkes_ll-inl.h. Each sample is one
 *        sequential walk over its events; GPU calls run it on host copies (host_fallback.h).
 */
#include <string>
#include <vector>

#include "../host_fallback.h"
#include "../operator_common.h"
#include "./hawkes_ll-inl.h"

namespace mxnet {
namespace op {
namespace hawkesll {
namespace {

constexpr const char* kOpName = "_contrib_hawkesll";
const char* const kInputNames[] = {"lda",   "alpha", "beta",         "state",
                                   "lags",  "marks", "valid_length", "max_time"};

void ExpectShape(const TShape& got, const TShape& want, int input, const char* what) {
  if (shape_is_known(got) && got != want) {
    MX_THROW(ValueError) << kOpName << ": expected " << kInputNames[input] << " of shape " << want
                         << " (" << what << "), got " << got;
  }
}

bool HawkesShape(const nnvm::NodeAttrs&, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const TShape& lda = (*in)[kLda];
  const TShape& lags = (*in)[kLags];
  if (shape_is_known(lda) && lda.ndim() != 2) {
    MX_THROW(ValueError) << kOpName << ": expected lda of shape (N, K), got " << lda;
  }
  if (shape_is_known(lags) && lags.ndim() != 2) {
    MX_THROW(ValueError) << kOpName << ": expected lags of shape (N, T), got " << lags;
  }
  if (!shape_is_known(lda) || !shape_is_known(lags)) return false;
  const int64_t N = lda[0], K = lda[1];
  if (lags[0] != N) {
    MX_THROW(ValueError) << kOpName << ": expected lags with N = " << N
                         << " rows (lda has shape " << lda << "), got " << lags;
  }
  const TShape k1(1, K), nk = lda, nt = lags, n1(1, N);
  const TShape want[] = {nk, k1, k1, nk, nt, nt, n1, n1};
  const char* what[] = {"N, K", "K,", "K,", "N, K", "N, T", "N, T", "N,", "N,"};
  for (int i = 0; i < kNumInputs; ++i) {
    ExpectShape((*in)[i], want[i], i, what[i]);
    (*in)[i] = want[i];
  }
  SHAPE_ASSIGN_CHECK(*out, kLoglik, n1);
  SHAPE_ASSIGN_CHECK(*out, kOutState, nk);
  return true;
}

bool HawkesType(const nnvm::NodeAttrs&, std::vector<int>* in, std::vector<int>* out) {
  int t = (*in)[kLda];
  for (int i = 0; t < 0 && i < kNumInputs; ++i) {
    if (i != kMarks) t = (*in)[i];
  }
  if (t < 0) t = (*out)[kLoglik] >= 0 ? (*out)[kLoglik] : (*out)[kOutState];
  if (t < 0) return false;
  if (!mshadow::IsFloatingType(t)) {
    MX_THROW(TypeError) << kOpName << ": expected lda of a floating-point dtype, got "
                        << mshadow::dtype_string(t);
  }
  for (int i = 0; i < kNumInputs; ++i) {
    if (i == kMarks) continue;
    if ((*in)[i] >= 0 && (*in)[i] != t) {
      MX_THROW(TypeError) << kOpName << ": expected " << kInputNames[i] << " of dtype "
                          << mshadow::dtype_string(t) << " (lda's), got "
                          << mshadow::dtype_string((*in)[i]);
    }
    (*in)[i] = t;
  }
  int& m = (*in)[kMarks];
  if (m < 0) m = mshadow::kInt32;
  if (m != mshadow::kInt32 && m != mshadow::kInt64 && m != mshadow::kUint8 &&
      m != mshadow::kInt8) {
    MX_THROW(TypeError) << kOpName << ": expected integer marks (int32), got "
                        << mshadow::dtype_string(m);
  }
  TYPE_ASSIGN_CHECK(*out, kLoglik, t);
  TYPE_ASSIGN_CHECK(*out, kOutState, t);
  return true;
}

/*! \brief Marks as int64 and the valid length of each sample, checked. */
template <typename DType>
void ReadEvents(const std::vector<TBlob>& in, std::vector<int64_t>* marks,
                std::vector<int64_t>* lengths) {
  const int64_t N = in[kLda].shape_[0], K = in[kLda].shape_[1], T = in[kLags].shape_[1];
  marks->resize(N * T);
  MSHADOW_IDX_TYPE_SWITCH(in[kMarks].type_flag_, IType, {
    const IType* m = in[kMarks].dptr<IType>();
    for (int64_t i = 0; i < N * T; ++i) (*marks)[i] = static_cast<int64_t>(m[i]);
  });
  lengths->resize(N);
  const DType* vl = in[kValidLength].dptr<DType>();
  for (int64_t i = 0; i < N; ++i) {
    const double v = static_cast<double>(vl[i]);
    if (!(v >= 0 && v <= static_cast<double>(T))) {
      MX_THROW(ValueError) << kOpName << ": valid_length[" << i << "] = " << v
                           << " is not in [0, T = " << T << "]";
    }
    (*lengths)[i] = static_cast<int64_t>(v);
    for (int64_t j = 0; j < (*lengths)[i]; ++j) {
      const int64_t k = (*marks)[i * T + j];
      if (k < 0 || k >= K) {
        MX_THROW(IndexError) << kOpName << ": marks[" << i << ", " << j << "] = " << k
                             << " is not a process id in [0, K = " << K << ")";
      }
    }
  }
}

template <typename Fn>
inline void ForSamples(int64_t n, int64_t work, Fn fn) {
#pragma omp parallel for if (work > 4096)
  for (int64_t i = 0; i < n; ++i) fn(i);
}

template <typename DType>
inline void Put(DType* out, int64_t i, OpReqType req, double v) {
  if (req == kNullOp) return;
  out[i] = req == kAddTo ? DType(static_cast<double>(out[i]) + v) : DType(v);
}

void HawkesForward(const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>& in,
                   const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
  const int64_t N = in[kLda].shape_[0], K = in[kLda].shape_[1], T = in[kLags].shape_[1];
  MSHADOW_REAL_TYPE_SWITCH(in[kLda].type_flag_, DType, {
    std::vector<int64_t> marks, lengths;
    ReadEvents<DType>(in, &marks, &lengths);
    const DType* lda = in[kLda].dptr<DType>();
    const DType* alpha = in[kAlpha].dptr<DType>();
    const DType* beta = in[kBeta].dptr<DType>();
    const DType* state = in[kState].dptr<DType>();
    const DType* lags = in[kLags].dptr<DType>();
    const DType* max_time = in[kMaxTime].dptr<DType>();
    DType* ll = out[kLoglik].dptr<DType>();
    DType* os = out[kOutState].dptr<DType>();
    ForSamples(N, N * T * K, [&](int64_t i) {
      std::vector<double> s(K);
      const double v = SampleLoglik<DType>(K, lda + i * K, alpha, beta, state + i * K,
                                           lags + i * T, marks.data() + i * T, lengths[i],
                                           static_cast<double>(max_time[i]), s.data(), 0.0,
                                           nullptr, nullptr);
      Put(ll, i, req[kLoglik], v);
      for (int64_t k = 0; k < K; ++k) Put(os, i * K + k, req[kOutState], s[k]);
    });
  });
}

/*!
 * \brief Inputs: (loglik grad, out_state grad, the 8 forward inputs); outputs: the gradients of
 *        the 8 inputs (zero for lags, marks, valid_length and max_time).
 */
void HawkesBackward(const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>& in_all,
                    const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
  const std::vector<TBlob> in(in_all.begin() + 2, in_all.end());
  const int64_t N = in[kLda].shape_[0], K = in[kLda].shape_[1], T = in[kLags].shape_[1];
  MSHADOW_REAL_TYPE_SWITCH(in[kLda].type_flag_, DType, {
    std::vector<int64_t> marks, lengths;
    ReadEvents<DType>(in, &marks, &lengths);
    const DType* gll = in_all[0].dptr<DType>();
    const DType* gstate = in_all[1].dptr<DType>();
    const DType* lda = in[kLda].dptr<DType>();
    const DType* alpha = in[kAlpha].dptr<DType>();
    const DType* beta = in[kBeta].dptr<DType>();
    const DType* state = in[kState].dptr<DType>();
    const DType* lags = in[kLags].dptr<DType>();
    const DType* max_time = in[kMaxTime].dptr<DType>();
    std::vector<SampleGrad> grads(N);
    ForSamples(N, N * T * K, [&](int64_t i) {
      SampleGrad& g = grads[i];
      g.lda.assign(K, 0.0);
      g.alpha.assign(K, 0.0);
      g.beta.assign(K, 0.0);
      g.state.assign(K, 0.0);
      std::vector<double> s(K);
      SampleLoglik<DType>(K, lda + i * K, alpha, beta, state + i * K, lags + i * T,
                          marks.data() + i * T, lengths[i], static_cast<double>(max_time[i]),
                          s.data(), static_cast<double>(gll[i]), gstate + i * K, &g);
    });
    DType* d_lda = out[kLda].dptr<DType>();
    DType* d_state = out[kState].dptr<DType>();
    std::vector<double> d_alpha(K, 0.0), d_beta(K, 0.0);
    for (int64_t i = 0; i < N; ++i) {
      for (int64_t k = 0; k < K; ++k) {
        Put(d_lda, i * K + k, req[kLda], grads[i].lda[k]);
        Put(d_state, i * K + k, req[kState], grads[i].state[k]);
        d_alpha[k] += grads[i].alpha[k];
        d_beta[k] += grads[i].beta[k];
      }
    }
    for (int64_t k = 0; k < K; ++k) {
      Put(out[kAlpha].dptr<DType>(), k, req[kAlpha], d_alpha[k]);
      Put(out[kBeta].dptr<DType>(), k, req[kBeta], d_beta[k]);
    }
    for (int i : {kLags, kValidLength, kMaxTime}) {
      if (req[i] == kWriteTo || req[i] == kWriteInplace) {
        DType* z = out[i].dptr<DType>();
        for (size_t j = 0; j < out[i].Size(); ++j) z[j] = DType(0);
      }
    }
    if (req[kMarks] == kWriteTo || req[kMarks] == kWriteInplace) {
      MSHADOW_TYPE_SWITCH(out[kMarks].type_flag_, MType, {
        MType* z = out[kMarks].dptr<MType>();
        for (size_t j = 0; j < out[kMarks].Size(); ++j) z[j] = MType(0);
      });
    }
  });
}

}  // namespace
}  // namespace hawkesll

NNVM_REGISTER_OP(_contrib_hawkesll)
.describe(R"code(Computes the log likelihood of a univariate Hawkes process.

The log likelihood is calculated on point process observations represented
as *ragged* matrices for *lags* (interarrival times w.r.t. the previous point),
and *marks* (identifiers for the process ID). Note that each mark is considered independent,
i.e., computes the joint likelihood of a set of Hawkes processes determined by the conditional intensity:

.. math::

  \lambda_k^*(t) = \lambda_k + \alpha_k \sum_{\{t_i < t, y_i = k\}} \beta_k \exp(-\beta_k (t - t_i))

where :math:`\lambda_k` specifies the background intensity ``lda``, :math:`\alpha_k` specifies the *branching ratio* or ``alpha``, and :math:`\beta_k` the delay density parameter ``beta``.

``lags`` and ``marks`` are two NDArrays of shape (N, T) and correspond to the representation of the point process observation, the first dimension corresponds to the batch index, and the second to the sequence. These are "left-aligned" *ragged* matrices (the first index of the second dimension is the beginning of every sequence. The length of each sequence is given by ``valid_length``, of shape (N,) where ``valid_length[i]`` corresponds to the number of valid points in ``lags[i, :]`` and ``marks[i, :]``.

``max_time`` is the length of the observation period of the point process. That is, specifying ``max_time[i] = 5`` computes the likelihood of the i-th sample as observed on the time interval :math:`(0, 5]`. Naturally, the sum of all valid ``lags[i, :valid_length[i]]`` must be less than or equal to 5.

The input ``state`` specifies the *memory* of the Hawkes process. Invoking the memoryless property of exponential decays, we compute the *memory* as

.. math::

    s_k(t) = \sum_{t_i < t} \exp(-\beta_k (t - t_i)).

The ``state`` to be provided is :math:`s_k(0)` and carries the added intensity due to past events before the current batch. :math:`s_k(T)` is returned from the function where :math:`T` is ``max_time[T]``.

Outputs: the log likelihood of each sample (N,) and the final state (N, K). ``marks`` are
integers (int32); the other inputs share ``lda``'s floating-point dtype. Gradients flow to
``lda``, ``alpha``, ``beta`` and ``state``, from both outputs (MXNet 1.9.1 back-propagates only
the log likelihood's gradient and leaves ``state``'s gradient zero); ``lags``, ``marks``,
``valid_length`` and ``max_time`` get zero gradients.

Example::

  # define the Hawkes process parameters
  lda = nd.array([1.5, 2.0, 3.0]).tile((N, 1))
  alpha = nd.array([0.2, 0.3, 0.4])  # branching ratios should be < 1
  beta = nd.array([1.0, 2.0, 3.0])

  # the "data", or observations
  ia_times = nd.array([[6, 7, 8, 9], [1, 2, 3, 4], [3, 4, 5, 6], [8, 9, 10, 11]])
  marks = nd.zeros((N, T)).astype(np.int32)

  # starting "state" of the process
  states = nd.zeros((N, K))

  valid_length = nd.array([1, 2, 3, 4])  # number of valid points in each sequence
  max_time = nd.ones((N,)) * 100.0  # length of the observation period

  A = nd.contrib.hawkesll(
      lda, alpha, beta, states, ia_times, marks, valid_length, max_time
  )

References:

-  Bacry, E., Mastromatteo, I., & Muzy, J. F. (2015).
   Hawkes processes in finance. Market Microstructure and Liquidity
   , 1(01), 1550005.
)code" ADD_FILELINE)
.set_num_inputs(8)
.set_num_outputs(2)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"lda",   "alpha", "beta",         "state",
                                  "lags",  "marks", "valid_length", "max_time"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"output", "out_state"};
})
.set_attr<mxnet::FInferShape>("FInferShape", hawkesll::HawkesShape)
.set_attr<nnvm::FInferType>("FInferType", hawkesll::HawkesType)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(hawkesll::HawkesForward))
#endif
.set_attr<FCompute>("FCompute<cpu>", hawkesll::HawkesForward)
.set_attr<nnvm::FGradient>("FGradient", [](const nnvm::ObjectPtr& n,
                                           const std::vector<nnvm::NodeEntry>& ograds) {
  std::vector<nnvm::NodeEntry> inputs(ograds.begin(), ograds.end());
  inputs.insert(inputs.end(), n->inputs.begin(), n->inputs.end());
  return MakeGradNode("_contrib_backward_hawkesll", n, inputs, n->attrs.dict);
})
.add_argument("lda", "NDArray-or-Symbol",
              "Shape (N, K) The intensity for each of the K processes, for each sample")
.add_argument("alpha", "NDArray-or-Symbol",
              "Shape (K,) The infectivity factor (branching ratio) for each process")
.add_argument("beta", "NDArray-or-Symbol", "Shape (K,) The decay parameter for each process")
.add_argument("state", "NDArray-or-Symbol", "Shape (N, K) the Hawkes state for each process")
.add_argument("lags", "NDArray-or-Symbol", "Shape (N, T) the interarrival times")
.add_argument("marks", "NDArray-or-Symbol", "Shape (N, T) the marks (process ids)")
.add_argument("valid_length", "NDArray-or-Symbol", "The number of valid points in the process")
.add_argument("max_time", "NDArray-or-Symbol",
              "the length of the interval where the processes were sampled");

NNVM_REGISTER_OP(_contrib_backward_hawkesll)
.describe("Backward of _contrib_hawkesll: (loglik grad, out_state grad, lda, alpha, beta, "
          "state, lags, marks, valid_length, max_time) -> the gradients of the 8 inputs.")
.set_num_inputs(10)
.set_num_outputs(8)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs&, mxnet::ShapeVector* in,
                                                 mxnet::ShapeVector* out) {
  bool ok = true;
  for (int i = 0; i < 8; ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, (*in)[i + 2]);
    ok = ok && shape_is_known((*out)[i]);
  }
  return ok;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs&, std::vector<int>* in,
                                              std::vector<int>* out) {
  bool ok = true;
  for (int i = 0; i < 8; ++i) {
    TYPE_ASSIGN_CHECK(*out, i, (*in)[i + 2]);
    ok = ok && (*out)[i] >= 0;
  }
  return ok;
})
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(hawkesll::HawkesBackward))
#endif
.set_attr<FCompute>("FCompute<cpu>", hawkesll::HawkesBackward);

}  // namespace op
}  // namespace mxnet
