/*!
 * \file ctc_loss.cc
 * \brief CTCLoss forward and _backward_ctc_loss (see ctc_loss-inl.h): a plain forward-backward
 *        algorithm in log space, one sequence per OpenMP iteration.
 */
#include "./ctc_loss-inl.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(CTCLossParam);

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double LogAdd(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

/*! \brief One sequence of the batch: its label symbols and its number of data steps. */
struct CTCSequence {
  std::vector<int> labels;
  index_t steps = 0;
};

template <typename T>
double ReadValue(const TBlob& blob, index_t i) {
  return static_cast<double>(blob.dptr<T>()[i]);
}

double ReadAny(const TBlob& blob, index_t i) {
  double v = 0;
  MSHADOW_TYPE_SWITCH(blob.type_flag_, T, { v = ReadValue<T>(blob, i); });
  return v;
}

/*! \brief The labels and data length of sequence b, validated against the data shape. */
CTCSequence ReadSequence(const CTCLossParam& p, const std::vector<TBlob>& inputs, index_t b) {
  const TBlob& data = inputs[ctc_loss::kData];
  const TBlob& label = inputs[ctc_loss::kLabel];
  const index_t max_steps = data.shape_[0];
  const index_t num_classes = data.shape_[2];
  const index_t max_labels = label.shape_[1];
  const int blank = p.blank_label == ctc_loss::kFirst ? 0 : static_cast<int>(num_classes) - 1;
  CTCSequence seq;
  seq.steps = max_steps;
  if (p.use_data_lengths) {
    const double len = ReadAny(inputs[CTCDataLengthsIndex(p)], b);
    if (!(len >= 0 && len <= max_steps)) {
      MX_THROW(ValueError) << "CTCLoss: data_lengths[" << b << "] = " << len
                           << " is outside [0, " << max_steps << "] for data of shape "
                           << data.shape_;
    }
    seq.steps = static_cast<index_t>(len);
  }
  index_t num_labels = max_labels;
  if (p.use_label_lengths) {
    const double len = ReadAny(inputs[CTCLabelLengthsIndex(p)], b);
    if (!(len >= 0 && len <= max_labels)) {
      MX_THROW(ValueError) << "CTCLoss: label_lengths[" << b << "] = " << len
                           << " is outside [0, " << max_labels << "] for label of shape "
                           << label.shape_;
    }
    num_labels = static_cast<index_t>(len);
  }
  // Without label_lengths, a sequence ends at the first padding value.
  const double padding = p.blank_label == ctc_loss::kFirst ? 0.0 : -1.0;
  for (index_t i = 0; i < num_labels; ++i) {
    const double v = ReadAny(label, b * max_labels + i);
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
    seq.labels.push_back(symbol);
  }
  return seq;
}

/*!
 * \brief The loss of one sequence; when `grad` is given, also d loss / d activations for every
 *        step of the sequence (row-major steps x classes; rows past seq.steps are left alone).
 */
template <typename DType>
double SequenceLoss(const DType* data, index_t batch, index_t b, index_t num_classes, int blank,
                    const CTCSequence& seq, std::vector<double>* grad) {
  const index_t T = seq.steps;
  const index_t L = static_cast<index_t>(seq.labels.size());
  index_t repeats = 0;
  for (index_t i = 1; i < L; ++i) repeats += seq.labels[i] == seq.labels[i - 1];
  // An alignment needs one step per label plus a blank between equal neighbours.
  if (T == 0 || L + repeats > T) return 0.0;

  // Log-softmax of the activations of every step.
  const index_t C = num_classes;
  std::vector<double> logp(T * C);
  for (index_t t = 0; t < T; ++t) {
    const DType* row = data + (t * batch + b) * C;
    double mx = kNegInf;
    for (index_t c = 0; c < C; ++c) mx = std::max(mx, static_cast<double>(row[c]));
    double sum = 0;
    for (index_t c = 0; c < C; ++c) sum += std::exp(static_cast<double>(row[c]) - mx);
    const double lse = mx + std::log(sum);
    for (index_t c = 0; c < C; ++c) logp[t * C + c] = static_cast<double>(row[c]) - lse;
  }

  // Extended label: blank, l0, blank, l1, ..., blank.
  const index_t S = 2 * L + 1;
  std::vector<int> ext(S, blank);
  for (index_t i = 0; i < L; ++i) ext[2 * i + 1] = seq.labels[i];
  auto can_skip = [&](index_t s) {  // may a path jump from s-2 straight to s?
    return s >= 2 && ext[s] != blank && ext[s] != ext[s - 2];
  };

  std::vector<double> alpha(T * S, kNegInf);
  alpha[0] = logp[blank];
  if (S > 1) alpha[1] = logp[ext[1]];
  for (index_t t = 1; t < T; ++t) {
    for (index_t s = 0; s < S; ++s) {
      double a = alpha[(t - 1) * S + s];
      if (s >= 1) a = LogAdd(a, alpha[(t - 1) * S + s - 1]);
      if (can_skip(s)) a = LogAdd(a, alpha[(t - 1) * S + s - 2]);
      alpha[t * S + s] = a == kNegInf ? kNegInf : a + logp[t * C + ext[s]];
    }
  }
  double log_prob = alpha[(T - 1) * S + S - 1];
  if (S > 1) log_prob = LogAdd(log_prob, alpha[(T - 1) * S + S - 2]);
  const double loss = -log_prob;
  if (grad == nullptr) return loss;

  grad->assign(T * C, 0.0);
  if (!std::isfinite(log_prob)) return loss;  // no alignment has probability: no direction
  // beta includes the emission of step t, like alpha.
  std::vector<double> beta(T * S, kNegInf);
  beta[(T - 1) * S + S - 1] = logp[(T - 1) * C + ext[S - 1]];
  if (S > 1) beta[(T - 1) * S + S - 2] = logp[(T - 1) * C + ext[S - 2]];
  for (index_t t = T - 2; t >= 0; --t) {
    for (index_t s = 0; s < S; ++s) {
      double v = beta[(t + 1) * S + s];
      if (s + 1 < S) v = LogAdd(v, beta[(t + 1) * S + s + 1]);
      if (s + 2 < S && can_skip(s + 2)) v = LogAdd(v, beta[(t + 1) * S + s + 2]);
      beta[t * S + s] = v == kNegInf ? kNegInf : v + logp[t * C + ext[s]];
    }
  }
  // d(-log p)/d a_tc = softmax_tc - posterior probability of class c at step t.
  for (index_t t = 0; t < T; ++t) {
    double* g = grad->data() + t * C;
    for (index_t c = 0; c < C; ++c) g[c] = std::exp(logp[t * C + c]);
    for (index_t s = 0; s < S; ++s) {
      const double lg = alpha[t * S + s] + beta[t * S + s] - logp[t * C + ext[s]] - log_prob;
      if (lg != kNegInf) g[ext[s]] -= std::exp(lg);
    }
  }
  return loss;
}

int BlankIndex(const CTCLossParam& p, index_t num_classes) {
  return p.blank_label == ctc_loss::kFirst ? 0 : static_cast<int>(num_classes) - 1;
}

template <typename DType>
void Assign(DType* dst, OpReqType req, double v) {
  if (req == kNullOp) return;
  *dst = req == kAddTo ? static_cast<DType>(static_cast<double>(*dst) + v)
                       : static_cast<DType>(v);
}

template <typename DType>
void LossPerSequence(const DType* x, DType* out, OpReqType req, index_t batch, index_t C,
                     int blank, const std::vector<CTCSequence>& seqs) {
  #pragma omp parallel for
  for (index_t b = 0; b < batch; ++b) {
    Assign(out + b, req, SequenceLoss(x, batch, b, C, blank, seqs[b], nullptr));
  }
}

template <typename DType>
void GradPerSequence(const DType* x, const DType* out_grad, DType* gx, OpReqType req, index_t T,
                     index_t batch, index_t C, int blank, const std::vector<CTCSequence>& seqs) {
  #pragma omp parallel for
  for (index_t b = 0; b < batch; ++b) {
    std::vector<double> g;
    SequenceLoss(x, batch, b, C, blank, seqs[b], &g);
    const double scale = static_cast<double>(out_grad[b]);
    const index_t steps = static_cast<index_t>(g.size()) / C;  // 0 when infeasible
    for (index_t t = 0; t < T; ++t) {
      DType* row = gx + (t * batch + b) * C;
      for (index_t c = 0; c < C; ++c) {
        Assign(row + c, req, t < steps ? scale * g[t * C + c] : 0.0);
      }
    }
  }
}

void CTCLossCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const CTCLossParam& p = nnvm::get<CTCLossParam>(attrs.parsed);
  const TBlob& data = inputs[ctc_loss::kData];
  const index_t batch = data.shape_[1], C = data.shape_[2];
  // Validate every sequence before any output is written (errors must not be lost in OpenMP).
  std::vector<CTCSequence> seqs(batch);
  for (index_t b = 0; b < batch; ++b) seqs[b] = ReadSequence(p, inputs, b);
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    LossPerSequence(data.dptr<DType>(), outputs[0].dptr<DType>(), req[0], batch, C,
                    BlankIndex(p, C), seqs);
  });
}

void CTCLossGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const CTCLossParam& p = nnvm::get<CTCLossParam>(attrs.parsed);
  const std::vector<TBlob> fwd_inputs(inputs.begin() + 1, inputs.end());
  const TBlob& data = fwd_inputs[ctc_loss::kData];
  const index_t T = data.shape_[0], batch = data.shape_[1], C = data.shape_[2];
  std::vector<CTCSequence> seqs(batch);
  for (index_t b = 0; b < batch; ++b) seqs[b] = ReadSequence(p, fwd_inputs, b);
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    GradPerSequence(data.dptr<DType>(), inputs[0].dptr<DType>(),
                    outputs[ctc_loss::kData].dptr<DType>(), req[ctc_loss::kData], T, batch, C,
                    BlankIndex(p, C), seqs);
  });
  // Labels and lengths are not differentiable.
  for (size_t i = 1; i < outputs.size(); ++i) {
    if (req[i] == kNullOp || req[i] == kAddTo) continue;
    MSHADOW_TYPE_SWITCH(outputs[i].type_flag_, T2, {
      std::fill(outputs[i].dptr<T2>(), outputs[i].dptr<T2>() + outputs[i].Size(), T2(0));
    });
  }
}

bool CTCLossShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const CTCLossParam& p = nnvm::get<CTCLossParam>(attrs.parsed);
  const TShape& d = (*in)[ctc_loss::kData];
  const TShape& l = (*in)[ctc_loss::kLabel];
  if (!ndim_is_known(d)) return false;
  if (d.ndim() != 3) {
    MX_THROW(ValueError) << "CTCLoss: data must be 3-D (sequence_length, batch_size, "
                         << "alphabet_size), got shape " << d;
  }
  if (ndim_is_known(l)) {
    if (l.ndim() != 2) {
      MX_THROW(ValueError) << "CTCLoss: label must be 2-D (batch_size, label_sequence_length), "
                           << "got shape " << l << " (data shape " << d << ")";
    }
    if (d[1] >= 0 && l[0] >= 0 && d[1] != l[0]) {
      MX_THROW(ValueError) << "CTCLoss: the batch size of label " << l << " differs from that "
                           << "of data " << d << " (data is sequence_length x batch_size x "
                           << "alphabet_size)";
    }
  }
  if (d[2] >= 0 && d[2] < 2) {
    MX_THROW(ValueError) << "CTCLoss: alphabet_size (data.shape[2]) must be at least 2 (one "
                         << "class plus the blank), data shape " << d;
  }
  const char* names[2] = {"data_lengths", "label_lengths"};
  const int idx[2] = {CTCDataLengthsIndex(p), CTCLabelLengthsIndex(p)};
  for (int k = 0; k < 2; ++k) {
    if (idx[k] < 0) continue;
    const TShape& s = (*in)[idx[k]];
    if (ndim_is_known(s) && (s.ndim() != 1 || (d[1] >= 0 && s[0] >= 0 && s[0] != d[1]))) {
      MX_THROW(ValueError) << "CTCLoss: " << names[k] << " must have shape (batch_size,) = ("
                           << d[1] << ",), got " << s;
    }
    SHAPE_ASSIGN_CHECK(*in, idx[k], TShape({d[1]}));
  }
  SHAPE_ASSIGN_CHECK(*out, 0, TShape({d[1]}));
  return shape_is_known(d) && shape_is_known((*in)[ctc_loss::kLabel]);
}

bool CTCLossType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int dtype = (*in)[ctc_loss::kData];
  if (dtype < 0) return false;
  // Labels and lengths keep their own dtype; unknown ones default to the data's.
  for (size_t i = 1; i < in->size(); ++i) if ((*in)[i] < 0) (*in)[i] = dtype;
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
}

std::vector<std::string> CTCLossInputNames(const NodeAttrs& attrs) {
  const CTCLossParam& p = nnvm::get<CTCLossParam>(attrs.parsed);
  std::vector<std::string> names{"data", "label"};
  if (p.use_data_lengths) names.emplace_back("data_lengths");
  if (p.use_label_lengths) names.emplace_back("label_lengths");
  return names;
}

}  // namespace

NNVM_REGISTER_OP(CTCLoss)
.add_alias("ctc_loss")
.add_alias("_contrib_CTCLoss")
.add_alias("_contrib_ctc_loss")
.describe(R"code(Connectionist Temporal Classification Loss.

.. note:: The existing alias ``contrib_CTCLoss`` is deprecated.

The shapes of the inputs and outputs:

- **data**: `(sequence_length, batch_size, alphabet_size)`
- **label**: `(batch_size, label_sequence_length)`
- **out**: `(batch_size)`

The `data` tensor consists of sequences of activation vectors (without applying softmax),
with i-th channel in the last dimension corresponding to i-th label
for i between 0 and alphabet_size-1 (i.e always 0-indexed).
Alphabet size should include one additional value reserved for blank label.
When `blank_label` is ``"first"``, the ``0``-th channel is be reserved for
activation of blank label, or otherwise if it is "last", ``(alphabet_size-1)``-th channel should be
reserved for blank label.

``label`` is an index matrix of integers. When `blank_label` is ``"first"``,
the value 0 is then reserved for blank label, and should not be passed in this matrix. Otherwise,
when `blank_label` is ``"last"``, the value `(alphabet_size-1)` is reserved for blank label.

If a sequence of labels is shorter than *label_sequence_length*, use the special
padding value at the end of the sequence to conform it to the correct
length. The padding value is `0` when `blank_label` is ``"first"``, and `-1` otherwise.

For example, suppose the vocabulary is `[a, b, c]`, and in one batch we have three sequences
'ba', 'cbb', and 'abac'. When `blank_label` is ``"first"``, we can index the labels as
`{'a': 1, 'b': 2, 'c': 3}`, and we reserve the 0-th channel for blank label in data tensor.
The resulting `label` tensor should be padded to be::

  [[2, 1, 0, 0], [3, 2, 2, 0], [1, 2, 1, 3]]

When `blank_label` is ``"last"``, we can index the labels as
`{'a': 0, 'b': 1, 'c': 2}`, and we reserve the channel index 3 for blank label in data tensor.
The resulting `label` tensor should be padded to be::

  [[1, 0, -1, -1], [2, 1, 1, -1], [0, 1, 0, 2]]

``out`` is a list of CTC loss values, one per example in the batch.

See *Connectionist Temporal Classification: Labelling Unsegmented
Sequence Data with Recurrent Neural Networks*, A. Graves *et al*. for more
information on the definition and the algorithm.

)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return CTCLossNumInputs(nnvm::get<CTCLossParam>(attrs.parsed));
})
.set_num_outputs(1)
.set_attr_parser(ParamParser<CTCLossParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", CTCLossInputNames)
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"out"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CTCLossShape)
.set_attr<nnvm::FInferType>("FInferType", CTCLossType)
.set_attr<FCompute>("FCompute<cpu>", CTCLossCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    heads.insert(heads.end(), n->inputs.begin(), n->inputs.end());
    return MakeGradNode("_backward_ctc_loss", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input ndarray")
.add_argument("label", "NDArray-or-Symbol", "Ground-truth labels for the loss.")
.add_argument("data_lengths", "NDArray-or-Symbol",
              "Lengths of data for each of the samples. Only required when use_data_lengths "
              "is true.")
.add_argument("label_lengths", "NDArray-or-Symbol",
              "Lengths of labels for each of the samples. Only required when "
              "use_label_lengths is true.")
.add_arguments(CTCLossParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_ctc_loss)
.describe("Backward of CTCLoss: (out_grad, data, label[, data_lengths][, label_lengths]) -> "
          "gradients of every input (zero for labels and lengths).")
.set_num_inputs([](const NodeAttrs& attrs) {
  return 1 + CTCLossNumInputs(nnvm::get<CTCLossParam>(attrs.parsed));
})
.set_num_outputs([](const NodeAttrs& attrs) {
  return CTCLossNumInputs(nnvm::get<CTCLossParam>(attrs.parsed));
})
.set_attr_parser(ParamParser<CTCLossParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  for (size_t i = 0; i < out->size(); ++i) SHAPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
  for (const auto& s : *out) if (!shape_is_known(s)) return false;
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, (*in)[i + 1]);
  for (int t : *out) if (t < 0) return false;
  return true;
})
.set_attr<FCompute>("FCompute<cpu>", CTCLossGradCompute)
.add_arguments(CTCLossParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
