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
#include <mxnet/resource.h>

#include <cstring>
#include <string>
#include <type_traits>
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
  const index_t n = inputs[0].Size();
  if (n == 0) return;  // zero-size arrays may have no memory
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* x = inputs[0].dptr<DType>();
    DType* y = outputs[0].dptr<DType>();
    if (std::is_same<xpu, cpu>::value && rq != kAddTo) {
      std::memcpy(y, x, n * sizeof(DType));
    } else {
      mxnet_op::Kernel<mxnet_op::copy_with_req, xpu>::Launch(ctx.get_stream<xpu>(), n, y, x,
                                                   static_cast<int>(rq));
    }
  });
}

/*! \brief dx[i] (req) scale / max(*valid, 1), or scale when valid is null. */
struct loss_gradient_fill {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, int req, double scale,
                                  const index_t* valid) {
    const double denom = (valid != nullptr && *valid > 0) ? static_cast<double>(*valid) : 1.0;
    KERNEL_ASSIGN(dx[i], req, DType(scale / denom));
  }
};

/*! \brief *count = the number of elements of `out` greater than thresh (the 'valid'
 *          normaliser), written on out's device: a host loop here, a kernel in make_loss.cu. */
template <typename DType>
inline void CountAbove(mshadow::Stream<cpu>* s, const TBlob& out, double thresh, index_t* count) {
  const DType* p = out.dptr<DType>();
  index_t c = 0;
  for (index_t i = 0, n = out.Size(); i < n; ++i) {
    if (static_cast<double>(p[i]) > thresh) ++c;
  }
  *count = c;
}
#if MXNET_USE_CUDA
template <typename DType>
void CountAbove(mshadow::Stream<gpu>* s, const TBlob& out, double thresh, index_t* count);
#endif

/*! \brief Temp space (valid normalisation): one index_t on the device. */
template <typename xpu>
void MakeLossGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const MakeLossParam& param = nnvm::get<MakeLossParam>(attrs.parsed);
  const TBlob& out = inputs[0];
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  double scale = param.grad_scale;
  index_t* valid = nullptr;
  if (param.normalization == make_loss_enum::kBatch) {
    scale /= out.ndim() > 0 && out.shape_[0] > 0 ? static_cast<double>(out.shape_[0]) : 1.0;
  }
  MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
    if (param.normalization == make_loss_enum::kValid) {
      valid = static_cast<index_t*>(ctx.requested[0].get_space_internal(sizeof(index_t)));
      CountAbove<DType>(s, out, param.valid_thresh, valid);
    }
    mxnet_op::Kernel<loss_gradient_fill, xpu>::Launch(s, outputs[0].Size(),
                                                      outputs[0].dptr<DType>(),
                                                      static_cast<int>(req[0]), scale, valid);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_MAKE_LOSS_INL_H_
