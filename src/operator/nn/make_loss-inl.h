/*!
 * \file make_loss-inl.h
 * \brief MakeLoss (turn any symbol into a loss: forward identity, backward a constant gradient
 *        that ignores the head gradient) and make_loss (forward identity, gradient ones).
 *
 * MakeLoss's gradient is grad_scale / d, with d = 1 (normalization 'null'), the batch size
 * data.shape[0] ('batch') or the count of output elements > valid_thresh ('valid', at
 * least 1). _backward_MakeLoss inputs: (output); output: data_grad.
 */
#ifndef MXNET_OPERATOR_NN_MAKE_LOSS_INL_H_
#define MXNET_OPERATOR_NN_MAKE_LOSS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cstring>
#include <string>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace make_loss_enum {
enum MakeLossOpInputs { kData };
enum MakeLossOpOutputs { kOut };
enum MakeLossOpType { kNull, kBatch, kValid };
}  // namespace make_loss_enum

struct MakeLossParam : public dmlc::Parameter<MakeLossParam> {
  float grad_scale;
  int normalization;
  float valid_thresh;
  DMLC_DECLARE_PARAMETER(MakeLossParam) {
    DMLC_DECLARE_FIELD(grad_scale).set_default(1.0f).describe(
        "Gradient scale as a supplement to unary and binary operators");
    DMLC_DECLARE_FIELD(valid_thresh).set_default(0.0f).describe(
        "clip each element in the array to 0 when it is less than ``valid_thresh``. This is "
        "used when ``normalization`` is set to ``'valid'``.");
    DMLC_DECLARE_FIELD(normalization)
        .add_enum("null", make_loss_enum::kNull)
        .add_enum("batch", make_loss_enum::kBatch)
        .add_enum("valid", make_loss_enum::kValid)
        .set_default(make_loss_enum::kNull)
        .describe("If this is set to null, the output gradient will not be normalized. If this "
                  "is set to batch, the output gradient will be divided by the batch size. If "
                  "this is set to valid, the output gradient will be divided by the number of "
                  "valid input elements.");
  }
};

/*! \brief out (req) in: the identity forward of MakeLoss and make_loss. */
template <typename xpu>
void LossIdentityCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const OpReqType rq = req[0];
  if (rq == kNullOp || (rq == kWriteInplace && inputs[0].dptr_ == outputs[0].dptr_)) return;
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* x = inputs[0].dptr<DType>();
    DType* y = outputs[0].dptr<DType>();
    const index_t n = inputs[0].Size();
    if (rq == kAddTo) {
      for (index_t i = 0; i < n; ++i) y[i] += x[i];
    } else if (n > 0) {  // zero-size arrays may have no memory: memcpy must not see null
      std::memcpy(y, x, n * sizeof(DType));
    }
  });
}

/*! \brief count of elements of `out` greater than thresh (the 'valid' normaliser). */
template <typename DType>
inline index_t CountAbove(const TBlob& out, double thresh) {
  const DType* p = out.dptr<DType>();
  index_t count = 0;
  for (index_t i = 0, n = out.Size(); i < n; ++i) {
    if (static_cast<double>(p[i]) > thresh) ++count;
  }
  return count;
}

template <typename xpu>
void MakeLossGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const MakeLossParam& param = nnvm::get<MakeLossParam>(attrs.parsed);
  const TBlob& out = inputs[0];
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    double denom = 1.0;
    if (param.normalization == make_loss_enum::kBatch) {
      denom = out.ndim() > 0 && out.shape_[0] > 0 ? static_cast<double>(out.shape_[0]) : 1.0;
    } else if (param.normalization == make_loss_enum::kValid) {
      const index_t valid = CountAbove<DType>(out, param.valid_thresh);
      denom = valid > 0 ? static_cast<double>(valid) : 1.0;
    }
    const DType g = DType(static_cast<double>(param.grad_scale) / denom);
    DType* dx = outputs[0].dptr<DType>();
    const index_t n = outputs[0].Size();
    for (index_t i = 0; i < n; ++i) KERNEL_ASSIGN(dx[i], req[0], g);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_MAKE_LOSS_INL_H_
