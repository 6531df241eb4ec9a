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
 */
#ifndef MXNET_OPERATOR_NN_CTC_LOSS_INL_H_
#define MXNET_OPERATOR_NN_CTC_LOSS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../operator_common.h"

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

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_CTC_LOSS_INL_H_
