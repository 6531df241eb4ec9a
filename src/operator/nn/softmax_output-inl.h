/*!
 * \file softmax_output-inl.h
 * \brief SoftmaxOutput (softmax forward, cross-entropy gradient backward that ignores the head
 *        gradient) and softmax_cross_entropy (summed cross-entropy loss).
 *
 * SoftmaxOutput views its data as rows of classes, like softmax-inl.h's (outer, n, inner):
 *   default        (d0, prod(rest))      -> outer d0, classes prod(rest), label (d0,)
 *   multi_output   (d0, C, rest...)      -> classes on axis 1, label (d0, rest...)
 *   preserve_shape (..., C)              -> classes on the last axis, label shape[:-1]
 * A label with as many elements as the data is a probability target ("soft" labels).
 */
#ifndef MXNET_OPERATOR_NN_SOFTMAX_OUTPUT_INL_H_
#define MXNET_OPERATOR_NN_SOFTMAX_OUTPUT_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./softmax-inl.h"

namespace mxnet {
namespace op {

namespace softmaxout_enum {
enum SoftmaxOutputOpInputs { kData, kLabel };
enum SoftmaxOutputOpOutputs { kOut };
enum SoftmaxOutputNormType { kNull, kBatch, kValid };
}  // namespace softmaxout_enum

struct SoftmaxOutputParam : public dmlc::Parameter<SoftmaxOutputParam> {
  float grad_scale;
  float ignore_label;
  bool multi_output;
  bool use_ignore;
  bool preserve_shape;
  int normalization;
  bool out_grad;
  float smooth_alpha;
  DMLC_DECLARE_PARAMETER(SoftmaxOutputParam) {
    DMLC_DECLARE_FIELD(grad_scale).set_default(1.0f).describe("Scales the gradient by a float factor.");
    DMLC_DECLARE_FIELD(ignore_label).set_default(-1.0f).describe(
        "The instances whose `labels` == `ignore_label` will be ignored "
        "during backward, if `use_ignore` is set to ``true``).");
    DMLC_DECLARE_FIELD(multi_output).set_default(false).describe(
        "If set to ``true``, the softmax function will be computed along "
        "axis ``1``. This is applied when the shape "
        "of input array differs from the shape of label array.");
    DMLC_DECLARE_FIELD(use_ignore).set_default(false).describe(
        "If set to ``true``, the `ignore_label` value will not contribute "
        "to the backward gradient.");
    DMLC_DECLARE_FIELD(preserve_shape).set_default(false).describe(
        "If set to ``true``, the softmax function will be computed along "
        "the last axis (``-1``).");
    DMLC_DECLARE_FIELD(normalization)
        .add_enum("null", softmaxout_enum::kNull)
        .add_enum("batch", softmaxout_enum::kBatch)
        .add_enum("valid", softmaxout_enum::kValid)
        .set_default(softmaxout_enum::kNull)
        .describe("Normalizes the gradient.");
    DMLC_DECLARE_FIELD(out_grad).set_default(false).describe(
        "Multiplies gradient with output gradient element-wise.");
    DMLC_DECLARE_FIELD(smooth_alpha).set_default(0.0f).set_range(0.0f, 1.0f).describe(
        "Constant for computing a label smoothed version of cross-entropy"
        "for the backwards pass.  This constant gets subtracted from the"
        "one-hot encoding of the gold label and distributed uniformly to"
        "all other labels.");
  }
};

/*! \brief SoftmaxOutput's (outer, classes, inner) view of data of shape s. */
inline SoftmaxGeom SoftmaxOutputGeom(const mxnet::TShape& s, const SoftmaxOutputParam& p) {
  SoftmaxGeom g;
  const int nd = s.ndim();
  if (p.multi_output) {
    g.outer = s[0];
    g.n = nd > 1 ? s[1] : 1;
    for (int i = 2; i < nd; ++i) g.inner *= s[i];
  } else if (p.preserve_shape) {
    for (int i = 0; i + 1 < nd; ++i) g.outer *= s[i];
    g.n = s[nd - 1];
  } else {
    g.outer = s[0];
    for (int i = 1; i < nd; ++i) g.n *= s[i];
  }
  return g;
}

inline bool SoftmaxOutputShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                               mxnet::ShapeVector* out_shape) {
  const SoftmaxOutputParam& param = nnvm::get<SoftmaxOutputParam>(attrs.parsed);
  CHECK_EQ(in_shape->size(), 2U) << "SoftmaxOutput: expected inputs [data, label]";
  const mxnet::TShape& dshape = (*in_shape)[0];
  if (!ndim_is_known(dshape)) {
    if (ndim_is_known((*out_shape)[0])) (*in_shape)[0] = (*out_shape)[0];
    else return false;
  }
  const mxnet::TShape d = (*in_shape)[0];
  if (d.ndim() < 1 || (param.multi_output && d.ndim() < 2)) {
    MX_THROW(ValueError) << "SoftmaxOutput: expected data with at least "
                         << (param.multi_output ? 2 : 1) << " dimensions, got " << d;
  }
  mxnet::TShape lshape;
  if (param.multi_output) {
    lshape = mxnet::TShape(d.ndim() - 1, -1);
    lshape[0] = d[0];
    for (int i = 2; i < d.ndim(); ++i) lshape[i - 1] = d[i];
  } else if (param.preserve_shape || d.ndim() == 1) {
    lshape = mxnet::TShape(std::max(d.ndim() - 1, 1), 1);
    for (int i = 0; i + 1 < d.ndim(); ++i) lshape[i] = d[i];
  } else {
    lshape = mxnet::TShape(1, d[0]);
  }
  const mxnet::TShape& given = (*in_shape)[1];
  if (ndim_is_known(given) && shape_is_known(given) && shape_is_known(d)) {
    // Accept the index-label shape, any shape of the same element count whose first dim is
    // the batch (e.g. (N, 1) or flattened multi-output labels), or a probability label.
    const bool ok = given == lshape || given == d ||
                    (given.Size() == lshape.Size() && given[0] == lshape[0]);
    if (!ok) {
      MX_THROW(ValueError) << "SoftmaxOutput: expected label of shape " << lshape
                           << " (or the data shape " << d << " for probability labels), got "
                           << given;
    }
  } else {
    SHAPE_ASSIGN_CHECK(*in_shape, 1, lshape);
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, d);
  return shape_is_known(d);
}

inline bool SoftmaxOutputType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                              std::vector<int>* out_type) {
  int dtype = (*in_type)[0] >= 0 ? (*in_type)[0] : (*out_type)[0];
  if (dtype < 0) return false;
  TYPE_ASSIGN_CHECK(*in_type, 0, dtype);
  TYPE_ASSIGN_CHECK(*out_type, 0, dtype);
  if ((*in_type)[1] < 0) (*in_type)[1] = dtype;
  return true;
}

template <typename xpu>
void SoftmaxOutputCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[0].Size() == 0) return;
  const SoftmaxOutputParam& param = nnvm::get<SoftmaxOutputParam>(attrs.parsed);
  const SoftmaxGeom g = SoftmaxOutputGeom(inputs[0].shape_, param);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    SoftmaxForwardRows<SoftmaxKind::kSoftmax>(
        ctx.get_stream<xpu>(), g, static_cast<const DType*>(inputs[0].dptr<DType>()),
        outputs[0].dptr<DType>(), static_cast<const index_t*>(nullptr), 1.0,
        static_cast<int>(req[0]));
  });
}

/*! \brief Fill a blob with zeros unless req is null/add. */
inline void ZeroGrad(const TBlob& b, OpReqType req) {
  if (req == kNullOp || req == kAddTo || b.Size() == 0) return;
  std::memset(b.dptr_, 0, b.Size() * mshadow::mshadow_sizeof(b.type_flag_));
}

/*! \brief data_grad rows of SoftmaxOutput (see SoftmaxOutputGradCompute). */
template <typename DType>
inline void SoftmaxOutputGradRows(const SoftmaxOutputParam& param, const SoftmaxGeom& g,
                                  const std::vector<double>& lab, bool soft, double scale,
                                  double off, const DType* y, const DType* og, DType* dx,
                                  OpReqType rq) {
  const index_t rows = g.outer * g.inner;
  const double alpha = param.smooth_alpha;
#pragma omp parallel for if (rows * g.n > 32768)
  for (index_t r = 0; r < rows; ++r) {
    const index_t o = r / g.inner, i = r % g.inner;
    const index_t base = o * g.n * g.inner + i;
    const bool ignored = !soft && param.use_ignore &&
                         static_cast<int>(lab[r]) == static_cast<int>(param.ignore_label);
    const index_t l = soft ? -1 : static_cast<index_t>(lab[r]);
    for (index_t k = 0; k < g.n; ++k) {
      const index_t idx = base + k * g.inner;
      double v = 0.0;
      if (!ignored) {
        double target;
        if (soft) {
          target = lab[idx];
        } else if (alpha > 0) {
          target = k == l ? 1.0 - alpha : off;
        } else {
          target = k == l ? 1.0 : 0.0;
        }
        v = (static_cast<double>(y[idx]) - target) * scale;
        if (param.out_grad) v *= static_cast<double>(og[idx]);
      }
      if (rq == kAddTo) dx[idx] = DType(static_cast<double>(dx[idx]) + v);
      else dx[idx] = DType(v);
    }
  }
}

/*!
 * \brief inputs: out_grad, label, output; outputs: data_grad, label_grad (zeros).
 *        data_grad = (output - target) * grad_scale / normaliser [* out_grad].
 */
template <typename xpu>
void SoftmaxOutputGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const SoftmaxOutputParam& param = nnvm::get<SoftmaxOutputParam>(attrs.parsed);
  ZeroGrad(outputs[1], req[1]);
  if (req[0] == kNullOp || inputs[2].Size() == 0) return;
  const TBlob& ograd = inputs[0];
  const TBlob& label = inputs[1];
  const TBlob& out = inputs[2];
  const SoftmaxGeom g = SoftmaxOutputGeom(out.shape_, param);
  const index_t rows = g.outer * g.inner;
  const bool soft = label.Size() == out.Size() && label.Size() != static_cast<size_t>(rows);
  // Labels as doubles (any label dtype).
  std::vector<double> lab(label.Size());
  MSHADOW_TYPE_SWITCH(label.type_flag_, LType, {
    const LType* lp = label.dptr<LType>();
    for (size_t i = 0; i < lab.size(); ++i) lab[i] = static_cast<double>(lp[i]);
  });
  // Probability labels are never normalised. Index labels: 'batch' divides by the number of
  // label rows (the batch for multi_output, every label otherwise); 'valid' by the count of
  // labels != ignore_label (compared as ints), which MXNet counts even without use_ignore.
  double norm = 1.0;
  if (soft) {
    norm = 1.0;
  } else if (param.normalization == softmaxout_enum::kBatch) {
    norm = static_cast<double>(param.multi_output ? g.outer : rows);
  } else if (param.normalization == softmaxout_enum::kValid) {
    const int ignore = static_cast<int>(param.ignore_label);
    index_t valid = 0;
    for (index_t r = 0; r < rows; ++r) {
      if (static_cast<int>(lab[r]) != ignore) ++valid;
    }
    norm = valid == 0 ? 1.0 : static_cast<double>(valid);
  }
  const double scale = param.grad_scale / norm;
  const double off = g.n > 1 ? param.smooth_alpha / static_cast<double>(g.n - 1) : 0.0;
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    SoftmaxOutputGradRows<DType>(param, g, lab, soft, scale, off, out.dptr<DType>(),
                                 ograd.dptr<DType>(), outputs[0].dptr<DType>(), req[0]);
  });
}

// ------------------------------------------------------------------- softmax_cross_entropy

inline bool SoftmaxCrossEntropyShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                                     mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U);
  const mxnet::TShape& d = (*in_attrs)[0];
  const mxnet::TShape& l = (*in_attrs)[1];
  if (ndim_is_known(d)) {
    if (d.ndim() != 2) {
      MX_THROW(ValueError) << "softmax_cross_entropy: expected 2-D data (batch, classes), got "
                           << d;
    }
    if (ndim_is_known(l) && (l.ndim() != 1 || (l[0] >= 0 && d[0] >= 0 && l[0] != d[0]))) {
      MX_THROW(ValueError) << "softmax_cross_entropy: expected label of shape (" << d[0]
                           << ",), got " << l;
    }
    SHAPE_ASSIGN_CHECK(*in_attrs, 1, mxnet::TShape(1, d[0]));
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(1, 1));
  return shape_is_known((*in_attrs)[0]) && shape_is_known((*in_attrs)[1]);
}

/*! \brief Per-row softmax of (N, C) data into `p` (double). */
template <typename DType>
inline void SoftmaxRows2D(const DType* x, index_t N, index_t C, std::vector<double>* p) {
  p->resize(N * C);
  for (index_t i = 0; i < N; ++i) {
    double mx = -INFINITY, sum = 0;
    for (index_t k = 0; k < C; ++k) mx = std::max(mx, static_cast<double>(x[i * C + k]));
    for (index_t k = 0; k < C; ++k) {
      (*p)[i * C + k] = std::exp(static_cast<double>(x[i * C + k]) - mx);
      sum += (*p)[i * C + k];
    }
    for (index_t k = 0; k < C; ++k) (*p)[i * C + k] /= sum;
  }
}

template <typename xpu>
void SoftmaxCrossEntropyCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                const std::vector<TBlob>& inputs,
                                const std::vector<OpReqType>& req,
                                const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const index_t N = inputs[0].shape_[0], C = inputs[0].shape_[1];
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    std::vector<double> p;
    SoftmaxRows2D(inputs[0].dptr<DType>(), N, C, &p);
    double loss = 0;
    MSHADOW_TYPE_SWITCH(inputs[1].type_flag_, LType, {
      const LType* lab = inputs[1].dptr<LType>();
      for (index_t i = 0; i < N; ++i) {
        index_t l = static_cast<index_t>(lab[i]);
        l = std::max<index_t>(0, std::min<index_t>(C - 1, l));
        loss -= std::log(std::max(p[i * C + l], 1e-300));
      }
    });
    DType* out = outputs[0].dptr<DType>();
    KERNEL_ASSIGN(out[0], req[0], DType(loss));
  });
}

/*! \brief inputs: out_grad (1,), data, label; outputs: data_grad, label_grad (zeros). */
template <typename xpu>
void SoftmaxCrossEntropyGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                    const std::vector<TBlob>& inputs,
                                    const std::vector<OpReqType>& req,
                                    const std::vector<TBlob>& outputs) {
  ZeroGrad(outputs[1], req[1]);
  if (req[0] == kNullOp) return;
  const index_t N = inputs[1].shape_[0], C = inputs[1].shape_[1];
  MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
    std::vector<double> p;
    SoftmaxRows2D(inputs[1].dptr<DType>(), N, C, &p);
    const double og = static_cast<double>(inputs[0].dptr<DType>()[0]);
    MSHADOW_TYPE_SWITCH(inputs[2].type_flag_, LType, {
      const LType* lab = inputs[2].dptr<LType>();
      for (index_t i = 0; i < N; ++i) {
        const index_t l = static_cast<index_t>(lab[i]);
        if (l >= 0 && l < C) p[i * C + l] -= 1.0;
      }
    });
    DType* dx = outputs[0].dptr<DType>();
    for (index_t i = 0; i < N * C; ++i) KERNEL_ASSIGN(dx[i], req[0], DType(p[i] * og));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_SOFTMAX_OUTPUT_INL_H_
