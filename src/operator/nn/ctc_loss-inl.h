/*!
 * \file ctc_loss-inl.h
 * \brief CTCLoss (Connectionist Temporal Classification): the negative log-likelihood of each
 *        label sequence under the per-step softmax of the activations `data` (T, N, C),
 *        summed over every alignment. Inputs: data, label (N, L)[, data_lengths (N,)]
 *        [, label_lengths (N,)]; output: loss (N,).
 *
 *        blank_label 'first' reserves class 0 for the blank and pads labels with 0;
 *        'last' reserves class C-1 and pads with -1 (MXNet 1.9.1's rules). A label sequence
 *        that needs more steps than the data has (length + repeated neighbours > T) gets
 *        loss 0 and gradient 0, as in MXNet 1.9.1.
 *
 *        The backward (_backward_ctc_loss) recomputes the forward and backward variables in
 *        log space and returns out_grad[n] * (softmax - posterior of each class) per step; steps
 *        beyond a sequence's data length get gradient 0. Labels and lengths get no gradient.
 *
 *        One implementation serves the CPU (ctc_loss.cc) and the GPU (ctc_loss.cu): the labels
 *        and lengths are checked on the host (host_copy.h), then one item per data row computes
 *        its log-softmax, one item per sequence runs the alpha-beta recursion over the steps
 *        and one item per data row turns the posteriors into the gradient, all in double.
 */
#ifndef MXNET_OPERATOR_NN_CTC_LOSS_INL_H_
#define MXNET_OPERATOR_NN_CTC_LOSS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <cmath>
#include <string>
#include <vector>

#include "../host_copy.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./spatial_kernel_util-inl.h"

namespace mxnet {
namespace op {

namespace ctc_loss {
enum CTCLossOpInputs { kData, kLabel };
enum BlankLabel { kFirst, kLast };
}  // namespace ctc_loss

struct CTCLossParam : public dmlc::Parameter<CTCLossParam> {
  bool use_data_lengths;
  bool use_label_lengths;
  int blank_label;
  DMLC_DECLARE_PARAMETER(CTCLossParam) {
    DMLC_DECLARE_FIELD(use_data_lengths).set_default(false)
        .describe("Whether the data lenghts are decided by `data_lengths`. "
                  "If false, the lengths are equal to the max sequence length.");
    DMLC_DECLARE_FIELD(use_label_lengths).set_default(false)
        .describe("Whether the label lenghts are decided by `label_lengths`, or derived from "
                  "`padding_mask`. If false, the lengths are derived from the first occurrence "
                  "of the value of `padding_mask`. The value of `padding_mask` is ``0`` when "
                  "first CTC label is reserved for blank, and ``-1`` when last label is "
                  "reserved for blank. See `blank_label`.");
    DMLC_DECLARE_FIELD(blank_label)
        .add_enum("first", ctc_loss::kFirst)
        .add_enum("last", ctc_loss::kLast)
        .set_default(ctc_loss::kFirst)
        .describe("Set the label that is reserved for blank label.If \"first\", 0-th label is "
                  "reserved, and label values for tokens in the vocabulary are between ``1`` "
                  "and ``alphabet_size-1``, and the padding mask is ``-1``. If \"last\", last "
                  "label value ``alphabet_size-1`` is reserved for blank label instead, and "
                  "label values for tokens in the vocabulary are between ``0`` and "
                  "``alphabet_size-2``, and the padding mask is ``0``.");
  }
};

/*! \brief Number of inputs of CTCLoss for these parameters (2 to 4). */
inline int CTCLossNumInputs(const CTCLossParam& p) {
  return 2 + (p.use_data_lengths ? 1 : 0) + (p.use_label_lengths ? 1 : 0);
}

/*! \brief Index among the inputs of data_lengths / label_lengths (-1 when not used). */
inline int CTCDataLengthsIndex(const CTCLossParam& p) { return p.use_data_lengths ? 2 : -1; }
inline int CTCLabelLengthsIndex(const CTCLossParam& p) {
  return p.use_label_lengths ? (p.use_data_lengths ? 3 : 2) : -1;
}

// ---- kernels shared by the CPU (ctc_loss.cc) and the GPU (ctc_loss.cu) ----------------------
//
// All in double. logp (T*N rows of C) holds the log-softmax of every data row; alpha and beta
// hold T x (2*max_labels+1) values per sequence (the first 2*L+1 of each step's row used);
// info[2*b] is sequence b's log-likelihood and info[2*b+1] the number of its steps that get a
// gradient (0 when no alignment fits). labels and the lengths are the blobs' values as doubles,
// already checked on the host (CTCCheckSequences).

namespace ctc_loss {

MSHADOW_XINLINE double NegInf() { return -static_cast<double>(INFINITY); }

/*! \brief log(exp(a) + exp(b)). */
MSHADOW_XINLINE double LogAdd(double a, double b) {
  if (a == NegInf()) return b;
  if (b == NegInf()) return a;
  const double m = a < b ? b : a;
  return m + log1p(exp(-fabs(a - b)));
}

/*!
 * \brief Number of labels of a sequence: *label_length when given, else the values before the
 *        first `padding`.
 */
MSHADOW_XINLINE index_t LabelCount(const double* row, index_t max_labels,
                                   const double* label_length, double padding) {
  if (label_length) return static_cast<index_t>(*label_length);
  index_t n = 0;
  while (n < max_labels && row[n] != padding) ++n;
  return n;
}

/*! \brief *dst (req) = v, added in double. */
template <typename DType>
MSHADOW_XINLINE void Assign(DType* dst, int req, double v) {
  if (req == kNullOp) return;
  *dst = req == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v)
                       : static_cast<DType>(v);
}

/*! \brief The shapes and rules of one call. */
struct CTCGeom {
  index_t T, N, C, max_labels, S;  // S = 2 * max_labels + 1, the stride of alpha/beta rows
  int blank;
  double padding;
};

/*! \brief dst[i] = src[i] as double (labels and lengths of any dtype). */
struct to_double {
  template <typename T>
  MSHADOW_XINLINE static void Map(index_t i, double* dst, const T* src) {
    dst[i] = static_cast<double>(src[i]);
  }
};

/*! \brief Item r = t * N + b: logp row r = log-softmax of data row r. */
struct log_softmax_row {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, double* logp, const DType* data, index_t C) {
    const DType* row = data + r * C;
    double mx = NegInf();
    for (index_t c = 0; c < C; ++c) {
      const double v = static_cast<double>(row[c]);
      mx = mx < v ? v : mx;
    }
    double sum = 0;
    for (index_t c = 0; c < C; ++c) sum += exp(static_cast<double>(row[c]) - mx);
    const double lse = mx + log(sum);
    for (index_t c = 0; c < C; ++c) logp[r * C + c] = static_cast<double>(row[c]) - lse;
  }
};

/*!
 * \brief Item b: the forward variables (and the backward ones when beta is not null) of
 *        sequence b in log space, its loss -log p into loss[b] (req; loss may be null) and
 *        info[2b], info[2b+1]. data_lengths / label_lengths may be null.
 */
struct alpha_beta {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, CTCGeom g, const double* logp,
                                  const double* labels, const double* data_lengths,
                                  const double* label_lengths, double* alpha, double* beta,
                                  double* info, DType* loss, int req) {
    const index_t T = data_lengths ? static_cast<index_t>(data_lengths[b]) : g.T;
    const double* lab = labels + b * g.max_labels;
    const index_t L = LabelCount(lab, g.max_labels, label_lengths ? label_lengths + b : nullptr,
                                 g.padding);
    index_t repeats = 0;
    for (index_t i = 1; i < L; ++i) repeats += lab[i] == lab[i - 1];
    // An alignment needs one step per label plus a blank between equal neighbours.
    if (T == 0 || L + repeats > T) {
      info[2 * b] = 0;
      info[2 * b + 1] = 0;
      if (loss) Assign(loss + b, req, 0.0);
      return;
    }
    const index_t S = 2 * L + 1, C = g.C, N = g.N;
    // Extended label: blank, l0, blank, l1, ..., blank.
    auto ext = [&](index_t s) -> int {
      return (s & 1) ? static_cast<int>(lab[s / 2]) : g.blank;
    };
    auto can_skip = [&](index_t s) {  // may a path jump from s-2 straight to s?
      return s >= 2 && ext(s) != g.blank && ext(s) != ext(s - 2);
    };
    auto lp = [&](index_t t, index_t s) { return logp[(t * N + b) * C + ext(s)]; };
    double* a = alpha + b * g.T * g.S;
    for (index_t s = 0; s < S; ++s) a[s] = NegInf();
    a[0] = lp(0, 0);
    if (S > 1) a[1] = lp(0, 1);
    for (index_t t = 1; t < T; ++t) {
      for (index_t s = 0; s < S; ++s) {
        double v = a[(t - 1) * S + s];
        if (s >= 1) v = LogAdd(v, a[(t - 1) * S + s - 1]);
        if (can_skip(s)) v = LogAdd(v, a[(t - 1) * S + s - 2]);
        a[t * S + s] = v == NegInf() ? NegInf() : v + lp(t, s);
      }
    }
    double log_prob = a[(T - 1) * S + S - 1];
    if (S > 1) log_prob = LogAdd(log_prob, a[(T - 1) * S + S - 2]);
    if (loss) Assign(loss + b, req, -log_prob);
    info[2 * b] = log_prob;
    info[2 * b + 1] = static_cast<double>(T);
    if (beta == nullptr || !SpIsFinite(log_prob)) return;
    // beta includes the emission of step t, like alpha.
    double* be = beta + b * g.T * g.S;
    for (index_t s = 0; s < S; ++s) be[(T - 1) * S + s] = NegInf();
    be[(T - 1) * S + S - 1] = lp(T - 1, S - 1);
    if (S > 1) be[(T - 1) * S + S - 2] = lp(T - 1, S - 2);
    for (index_t t = T - 2; t >= 0; --t) {
      for (index_t s = 0; s < S; ++s) {
        double v = be[(t + 1) * S + s];
        if (s + 1 < S) v = LogAdd(v, be[(t + 1) * S + s + 1]);
        if (s + 2 < S && can_skip(s + 2)) v = LogAdd(v, be[(t + 1) * S + s + 2]);
        be[t * S + s] = v == NegInf() ? NegInf() : v + lp(t, s);
      }
    }
  }
};

/*!
 * \brief Item r = t * N + b: grad row r (req) = out_grad[b] * (softmax - posterior of each
 *        class) at step t of sequence b, 0 past its steps. Overwrites logp row r and beta row
 *        (b, t) on the way.
 */
struct grad_row {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, CTCGeom g, DType* grad, int req,
                                  const DType* out_grad, double* logp, const double* alpha,
                                  double* beta, const double* info, const double* labels,
                                  const double* label_lengths) {
    const index_t t = r / g.N, b = r % g.N, C = g.C;
    DType* row = grad + r * C;
    if (t >= static_cast<index_t>(info[2 * b + 1])) {
      for (index_t c = 0; c < C; ++c) Assign(row + c, req, 0.0);
      return;
    }
    const double scale = static_cast<double>(out_grad[b]);
    const double log_prob = info[2 * b];
    if (!SpIsFinite(log_prob)) {  // no alignment has probability: no direction
      for (index_t c = 0; c < C; ++c) Assign(row + c, req, scale * 0.0);
      return;
    }
    const double* lab = labels + b * g.max_labels;
    const index_t L = LabelCount(lab, g.max_labels, label_lengths ? label_lengths + b : nullptr,
                                 g.padding);
    const index_t S = 2 * L + 1;
    auto ext = [&](index_t s) -> int {
      return (s & 1) ? static_cast<int>(lab[s / 2]) : g.blank;
    };
    double* lp = logp + r * C;
    const double* a = alpha + b * g.T * g.S + t * S;
    double* post = beta + b * g.T * g.S + t * S;
    // d(-log p)/d a_tc = softmax_tc - posterior probability of class c at step t.
    for (index_t s = 0; s < S; ++s) post[s] = exp(a[s] + post[s] - lp[ext(s)] - log_prob);
    for (index_t c = 0; c < C; ++c) lp[c] = exp(lp[c]);
    for (index_t s = 0; s < S; ++s) lp[ext(s)] -= post[s];
    for (index_t c = 0; c < C; ++c) Assign(row + c, req, scale * lp[c]);
  }
};

}  // namespace ctc_loss

/*! \brief The padding value of unused label slots under blank_label (0 or -1). */
inline double CTCPadding(const CTCLossParam& p) {
  return p.blank_label == ctc_loss::kFirst ? 0.0 : -1.0;
}

/*!
 * \brief Checks every sequence's data length, label length and labels (values read on the
 *        host) and throws a ValueError naming the first bad one.
 */
inline void CTCCheckSequences(const CTCLossParam& p, const TBlob& data, const TBlob& label,
                              const std::vector<double>& labels,
                              const std::vector<double>& data_lengths,
                              const std::vector<double>& label_lengths) {
  const index_t batch = data.shape_[1];
  const index_t max_steps = data.shape_[0];
  const index_t num_classes = data.shape_[2];
  const index_t max_labels = label.shape_[1];
  const int blank = p.blank_label == ctc_loss::kFirst ? 0 : static_cast<int>(num_classes) - 1;
  const double padding = CTCPadding(p);
  for (index_t b = 0; b < batch; ++b) {
    if (p.use_data_lengths) {
      const double len = data_lengths[b];
      if (!(len >= 0 && len <= max_steps)) {
        MX_THROW(ValueError) << "CTCLoss: data_lengths[" << b << "] = " << len
                             << " is outside [0, " << max_steps << "] for data of shape "
                             << data.shape_;
      }
    }
    index_t num_labels = max_labels;
    if (p.use_label_lengths) {
      const double len = label_lengths[b];
      if (!(len >= 0 && len <= max_labels)) {
        MX_THROW(ValueError) << "CTCLoss: label_lengths[" << b << "] = " << len
                             << " is outside [0, " << max_labels << "] for label of shape "
                             << label.shape_;
      }
      num_labels = static_cast<index_t>(len);
    }
    // Without label_lengths, a sequence ends at the first padding value.
    for (index_t i = 0; i < num_labels; ++i) {
      const double v = labels[b * max_labels + i];
      if (!p.use_label_lengths && v == padding) break;
      const int symbol = static_cast<int>(v);
      if (symbol < 0 || symbol >= num_classes || symbol == blank || symbol != v) {
        MX_THROW(ValueError) << "CTCLoss: label[" << b << ", " << i << "] = " << v
                             << " is not a class in [0, " << num_classes
                             << ") other than the blank " << blank << " (blank_label='"
                             << (p.blank_label == ctc_loss::kFirst ? "first" : "last")
                             << "', data shape " << data.shape_ << ", label shape "
                             << label.shape_ << ")";
      }
    }
  }
}

/*!
 * \brief The loss (when loss is not null) and the data gradient (when grad is not null) of a
 *        call on either device. inputs are the forward op's; out_grad is the loss's gradient.
 */
template <typename xpu>
void CTCLossRun(const CTCLossParam& p, const OpContext& ctx, const std::vector<TBlob>& inputs,
                const TBlob* loss, OpReqType loss_req, const TBlob* out_grad, const TBlob* grad,
                OpReqType grad_req) {
  using mxnet_op::Kernel;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& data = inputs[ctc_loss::kData];
  const TBlob& label = inputs[ctc_loss::kLabel];
  const int dl_index = CTCDataLengthsIndex(p), ll_index = CTCLabelLengthsIndex(p);
  // Check every value a kernel will use as a position before any kernel runs.
  const std::vector<double> labels_h = BlobValuesOnHost(s, label);
  const std::vector<double> dl_h =
      dl_index >= 0 ? BlobValuesOnHost(s, inputs[dl_index]) : std::vector<double>();
  const std::vector<double> ll_h =
      ll_index >= 0 ? BlobValuesOnHost(s, inputs[ll_index]) : std::vector<double>();
  CTCCheckSequences(p, data, label, labels_h, dl_h, ll_h);

  ctc_loss::CTCGeom g;
  g.T = data.shape_[0];
  g.N = data.shape_[1];
  g.C = data.shape_[2];
  g.max_labels = label.shape_[1];
  g.S = 2 * g.max_labels + 1;
  g.blank = p.blank_label == ctc_loss::kFirst ? 0 : static_cast<int>(g.C) - 1;
  g.padding = CTCPadding(p);
  if (g.N == 0) return;
  // Temp space (doubles): labels, lengths, logp, alpha, beta (gradient only), info.
  const size_t n_labels = static_cast<size_t>(g.N * g.max_labels);
  const size_t n_logp = static_cast<size_t>(g.T * g.N * g.C);
  const size_t n_ab = static_cast<size_t>(g.N * g.T * g.S);
  const size_t n_beta = grad ? n_ab : 0;
  const size_t total = n_labels + 2 * g.N + n_logp + n_ab + n_beta + 2 * g.N;
  double* ws = ctx.requested[0].get_space_typed_ptr<double>(total);
  double* labels = ws;
  double* dl = labels + n_labels;
  double* ll = dl + g.N;
  double* logp = ll + g.N;
  double* alpha = logp + n_logp;
  double* beta = alpha + n_ab;
  double* info = beta + n_beta;
  auto to_double = [&](const TBlob& b, double* dst) {
    MSHADOW_TYPE_SWITCH(b.type_flag_, T, {
      Kernel<ctc_loss::to_double, xpu>::Launch(s, b.Size(), dst, b.dptr<T>());
    });
  };
  to_double(label, labels);
  if (dl_index >= 0) to_double(inputs[dl_index], dl);
  if (ll_index >= 0) to_double(inputs[ll_index], ll);
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    LaunchGrouped<ctc_loss::log_softmax_row>(s, g.T * g.N, 1, logp, data.dptr<DType>(), g.C);
    LaunchGrouped<ctc_loss::alpha_beta>(
        s, g.N, 1, g, static_cast<const double*>(logp), static_cast<const double*>(labels),
        static_cast<const double*>(dl_index >= 0 ? dl : nullptr),
        static_cast<const double*>(ll_index >= 0 ? ll : nullptr), alpha,
        grad ? beta : static_cast<double*>(nullptr), info,
        loss ? loss->dptr<DType>() : static_cast<DType*>(nullptr), static_cast<int>(loss_req));
    if (grad) {
      LaunchGrouped<ctc_loss::grad_row>(
          s, g.T * g.N, 1, g, grad->dptr<DType>(), static_cast<int>(grad_req),
          static_cast<const DType*>(out_grad->dptr<DType>()), logp,
          static_cast<const double*>(alpha), beta, static_cast<const double*>(info),
          static_cast<const double*>(labels),
          static_cast<const double*>(ll_index >= 0 ? ll : nullptr));
    }
  });
}

/*! \brief FCompute of CTCLoss: (data, label[, data_lengths][, label_lengths]) -> loss. */
template <typename xpu>
void CTCLossCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  CTCLossRun<xpu>(nnvm::get<CTCLossParam>(attrs.parsed), ctx, inputs, &outputs[0], req[0],
                  nullptr, nullptr, kNullOp);
}

/*!
 * \brief FCompute of _backward_ctc_loss: (out_grad, data, label[, lengths]) -> the gradients
 *        of the forward inputs (zero for labels and lengths).
 */
template <typename xpu>
void CTCLossGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const CTCLossParam& p = nnvm::get<CTCLossParam>(attrs.parsed);
  const std::vector<TBlob> fwd_inputs(inputs.begin() + 1, inputs.end());
  if (req[ctc_loss::kData] != kNullOp) {
    CTCLossRun<xpu>(p, ctx, fwd_inputs, nullptr, kNullOp, &inputs[0],
                    &outputs[ctc_loss::kData], req[ctc_loss::kData]);
  }
  // Labels and lengths are not differentiable.
  for (size_t i = 1; i < outputs.size(); ++i) {
    ZeroUnlessAddTo(ctx.get_stream<xpu>(), outputs[i], req[i]);
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_CTC_LOSS_INL_H_
