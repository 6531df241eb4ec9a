/*!
 * \file ctc_loss.cc
 * \brief CTCLoss forward and _backward_ctc_loss (see ctc_loss-inl.h): a plain forward-backward
 *        algorithm in log space, one sequence per OpenMP iteration (the header's kernels,
 *        shared with ctc_loss.cu).
 */
#include "./ctc_loss-inl.h"

#include <string>
#include <vector>

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(CTCLossParam);

namespace {

std::vector<ResourceRequest> CTCTempSpace(const NodeAttrs&) {
  return {ResourceRequest::kTempSpace};  // log-softmax, alpha, beta and the labels as doubles
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
.set_attr<FResourceRequest>("FResourceRequest", CTCTempSpace)
.set_attr<FCompute>("FCompute<cpu>", CTCLossCompute<cpu>)
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
.set_attr<FResourceRequest>("FResourceRequest", CTCTempSpace)
.set_attr<FCompute>("FCompute<cpu>", CTCLossGradCompute<cpu>)
.add_arguments(CTCLossParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
