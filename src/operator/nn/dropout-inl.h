/*!
 * \file dropout-inl.h
 * \brief Dropout: in training (or with mode='always') zero each element with probability p and
 *        scale the kept ones by 1/(1-p); otherwise the identity.
 *
 * Outputs: `output` (visible) and `mask` (hidden). The mask holds the factor each element was
 * multiplied by (0 or 1/(1-p); 1 when dropout is off), so the backward is ograd * mask. With
 * `axes`, the mask has size 1 on those axes and is shared along them ("variational" dropout).
 * Random numbers come from the kParallelRandom resource in chunks of a size fixed by the mask
 * size, so a seed gives the same mask whatever the thread count.
 */
#ifndef MXNET_OPERATOR_NN_DROPOUT_INL_H_
#define MXNET_OPERATOR_NN_DROPOUT_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/random_generator.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"
#include "../random/sampler.h"

namespace mxnet {
namespace op {

namespace dropout {
enum DropoutOpInputs { kData };
enum DropoutOpOutputs { kOut, kMask };
enum DropoutOpMode { kTraining, kAlways };
}  // namespace dropout

struct DropoutParam : public dmlc::Parameter<DropoutParam> {
  float p;
  int mode;
  mxnet::TShape axes;
  dmlc::optional<bool> cudnn_off;
  DMLC_DECLARE_PARAMETER(DropoutParam) {
    DMLC_DECLARE_FIELD(p).set_default(0.5).set_range(0, 1).describe(
        "Fraction of the input that gets dropped out during training time.");
    DMLC_DECLARE_FIELD(mode)
        .add_enum("training", dropout::kTraining)
        .add_enum("always", dropout::kAlways)
        .set_default(dropout::kTraining)
        .describe("Whether to only turn on dropout during training or to also turn on for "
                  "inference.");
    DMLC_DECLARE_FIELD(axes).set_default(mxnet::TShape(0, 0)).describe(
        "Axes for variational dropout kernel.");
    DMLC_DECLARE_FIELD(cudnn_off).set_default(dmlc::optional<bool>(false)).describe(
        "Whether to turn off cudnn in dropout operator. This option is ignored if axes is "
        "specified.");
  }
};

/*! \brief The mask shape: the data shape with every axis in `axes` set to 1. */
inline mxnet::TShape DropoutMaskShape(const DropoutParam& param, const mxnet::TShape& dshape) {
  mxnet::TShape mshape = dshape;
  for (int i = 0; i < param.axes.ndim(); ++i) {
    int ax = static_cast<int>(param.axes[i]);
    if (ax < 0) ax += dshape.ndim();
    if (ax < 0 || ax >= dshape.ndim()) {
      MX_THROW(ValueError) << "Dropout: axes entry " << param.axes[i]
                           << " is out of range for data of shape " << dshape;
    }
    mshape[ax] = 1;
  }
  return mshape;
}

inline bool DropoutShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                         mxnet::ShapeVector* out_shape) {
  const DropoutParam& param = nnvm::get<DropoutParam>(attrs.parsed);
  CHECK_EQ(in_shape->size(), 1U) << "Dropout: expected one input (data)";
  if (!ndim_is_known((*in_shape)[0]) && ndim_is_known((*out_shape)[0])) {
    SHAPE_ASSIGN_CHECK(*in_shape, 0, (*out_shape)[0]);
  }
  const mxnet::TShape& dshape = (*in_shape)[0];
  if (!ndim_is_known(dshape)) return false;
  SHAPE_ASSIGN_CHECK(*out_shape, dropout::kOut, dshape);
  SHAPE_ASSIGN_CHECK(*out_shape, dropout::kMask, DropoutMaskShape(param, dshape));
  return shape_is_known(dshape);
}

inline bool DropoutType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                        std::vector<int>* out_type) {
  const int dtype = (*in_type)[0] >= 0 ? (*in_type)[0] : (*out_type)[0];
  if (dtype < 0) return false;
  if (!mshadow::IsFloatingType(dtype)) {
    MX_THROW(TypeError) << "Dropout: expected floating-point data "
                           "(float16, bfloat16, float32 or float64), got "
                        << mshadow::dtype_string(dtype);
  }
  TYPE_ASSIGN_CHECK(*in_type, 0, dtype);
  TYPE_ASSIGN_CHECK(*out_type, dropout::kOut, dtype);
  TYPE_ASSIGN_CHECK(*out_type, dropout::kMask, dtype);
  return true;
}

/*!
 * \brief Strides that map a data coordinate to the flat index of a (broadcast) operand of
 *        shape `small` (same ndim; size-1 axes get stride 0).
 */
inline std::vector<index_t> BroadcastStrides(const mxnet::TShape& small) {
  std::vector<index_t> stride(small.ndim(), 0);
  index_t s = 1;
  for (int d = small.ndim() - 1; d >= 0; --d) {
    stride[d] = small[d] == 1 ? 0 : s;
    s *= small[d];
  }
  return stride;
}

/*! \brief Flat index into the broadcast operand of data element i (see BroadcastStrides). */
inline index_t BroadcastIndex(index_t i, const mxnet::TShape& big,
                              const std::vector<index_t>& stride) {
  index_t idx = 0;
  for (int d = big.ndim() - 1; d >= 0 && i > 0; --d) {
    idx += (i % big[d]) * stride[d];
    i /= big[d];
  }
  return idx;
}

/*!
 * \brief mask[i] = kept with probability keep_prob, else 0: element i draws from its own
 *        Philox stream (the GPU's dropout masks: Dropout, and the RNN's between layers).
 */
struct dropout_mask_philox {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* mask, uint32_t seed, uint64_t call,
                                  float keep_prob, DType kept) {
    common::random::PhiloxStream<float> rng(seed, call, i);
    mask[i] = rng.uniform() < keep_prob ? kept : DType(0.0f);
  }
};

/*!
 * \brief BroadcastIndex as a value a device kernel can take: data index -> flat index of an
 *        operand broadcast along some axes (`same`: the operand has the data's shape).
 */
struct BroadcastMap {
  static constexpr int kMaxDim = 10;
  int ndim = 0;
  index_t shape[kMaxDim] = {};
  index_t stride[kMaxDim] = {};
  bool same = true;

  MSHADOW_XINLINE index_t Of(index_t i) const {
    if (same) return i;
    index_t idx = 0;
    for (int d = ndim - 1; d >= 0 && i > 0; --d) {
      idx += (i % shape[d]) * stride[d];
      i /= shape[d];
    }
    return idx;
  }
};

/*! \brief The map of operand shape `small` (data's ndim, size-1 axes broadcast) over `data`. */
inline BroadcastMap MakeBroadcastMap(const mxnet::TShape& data, const mxnet::TShape& small,
                                     const char* op) {
  BroadcastMap m;
  m.same = data == small;
  if (m.same) return m;
  if (data.ndim() > BroadcastMap::kMaxDim) {
    MX_THROW(ValueError) << op << ": broadcasting over data with " << data.ndim()
                         << " dimensions " << data << " is not supported on the GPU (at most "
                         << BroadcastMap::kMaxDim << ")";
  }
  const std::vector<index_t> stride = BroadcastStrides(small);
  m.ndim = data.ndim();
  for (int d = 0; d < m.ndim; ++d) {
    m.shape[d] = data[d];
    m.stride[d] = stride[d];
  }
  return m;
}

/*! \brief out (req) a[i] * b[broadcast index of i]; b has a's ndim with some axes of size 1. */
template <typename DType>
inline void MultiplyBroadcast(const TBlob& a, const TBlob& b, const TBlob& out, OpReqType req) {
  const index_t n = a.Size();
  const DType* pa = a.dptr<DType>();
  const DType* pb = b.dptr<DType>();
  DType* po = out.dptr<DType>();
  if (b.shape_ == a.shape_) {
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
    for (index_t i = 0; i < n; ++i) KERNEL_ASSIGN(po[i], req, DType(pa[i] * pb[i]));
    return;
  }
  const std::vector<index_t> stride = BroadcastStrides(b.shape_);
  const mxnet::TShape& shape = a.shape_;
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
  for (index_t i = 0; i < n; ++i) {
    KERNEL_ASSIGN(po[i], req, DType(pa[i] * pb[BroadcastIndex(i, shape, stride)]));
  }
}

/*! \brief out (req) data: the inactive (identity) forward. */
template <typename DType>
inline void CopyWithReq(const TBlob& data, const TBlob& out, OpReqType req) {
  if (req == kNullOp || (req == kWriteInplace && out.dptr_ == data.dptr_)) return;
  const DType* pd = data.dptr<DType>();
  DType* po = out.dptr<DType>();
  const index_t n = data.Size();
#pragma omp parallel for if (n >= mxnet_op::kOmpThreshold)
  for (index_t i = 0; i < n; ++i) KERNEL_ASSIGN(po[i], req, pd[i]);
}

template <typename DType>
void DropoutForwardImpl(const DropoutParam& param, const OpContext& ctx, const TBlob& data,
                        const TBlob& out, const TBlob& mask, OpReqType req) {
  const bool active = (ctx.is_train || param.mode == dropout::kAlways) && param.p > 0;
  DType* pm = mask.dptr<DType>();
  const index_t nmask = mask.Size();
  if (!active) {
    // Identity; the mask of ones keeps the backward (ograd * mask) right.
    std::fill(pm, pm + nmask, DType(1.0f));
    CopyWithReq<DType>(data, out, req);
    return;
  }
  const double pkeep = 1.0 - static_cast<double>(param.p);
  // p == 1 drops everything: the kept-value scale would be 1/0, use 0 (all outputs zero).
  const DType kept(static_cast<float>(pkeep > 0 ? 1.0 / pkeep : 0.0));
  const float keep_prob = static_cast<float>(pkeep);
  ParallelSample<float>(ctx.requested[0], nmask, [&](auto* rng, index_t i) {
    pm[i] = rng->uniform() < keep_prob ? kept : DType(0.0f);
  });
  MultiplyBroadcast<DType>(data, mask, out, req);
}

template <typename xpu>
void DropoutCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const DropoutParam& param = nnvm::get<DropoutParam>(attrs.parsed);
  MSHADOW_REAL_TYPE_SWITCH(inputs[dropout::kData].type_flag_, DType, {
    DropoutForwardImpl<DType>(param, ctx, inputs[dropout::kData], outputs[dropout::kOut],
                              outputs[dropout::kMask], req[dropout::kOut]);
  });
}

/*! \brief inputs: out_grad, mask; output: data_grad = out_grad * mask (broadcast). */
template <typename xpu>
void DropoutGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    MultiplyBroadcast<DType>(inputs[0], inputs[1], outputs[0], req[0]);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_DROPOUT_INL_H_
