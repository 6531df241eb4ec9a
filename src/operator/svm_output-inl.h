/*!
 * \file svm_output-inl.h
 * \brief SVMOutput's parameters and kernels for both devices: forward copies the data, the
 *        gradient is one thread per (row, class) after the labels are checked on the host.
 */
#ifndef MXNET_OPERATOR_SVM_OUTPUT_INL_H_
#define MXNET_OPERATOR_SVM_OUTPUT_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "./host_copy.h"
#include "./mxnet_op.h"
#include "./operator_common.h"
#include "./tensor/matrix_op-inl.h"

namespace mxnet {
namespace op {

struct SVMOutputParam : public dmlc::Parameter<SVMOutputParam> {
  float margin;
  float regularization_coefficient;
  bool use_linear;
  DMLC_DECLARE_PARAMETER(SVMOutputParam) {
    DMLC_DECLARE_FIELD(margin).set_default(1.0f)
        .describe("The loss function penalizes outputs that lie outside this margin. Default "
                  "margin is 1.");
    DMLC_DECLARE_FIELD(regularization_coefficient).set_default(1.0f)
        .describe("Regularization parameter for the SVM. This balances the tradeoff between "
                  "coefficient size and error.");
    DMLC_DECLARE_FIELD(use_linear).set_default(false)
        .describe("Whether to use L1-SVM objective. L2-SVM objective is used by default.");
  }
};


namespace svm_kernel {
/*! \brief d loss / d x[r, k] (req), with y the checked class of row r. */
struct hinge_grad {
  template <typename DType, typename LType>
  MSHADOW_XINLINE static void Map(index_t i, DType* g, const DType* x, const LType* label,
                                  index_t cols, double margin, double reg, bool linear,
                                  int req) {
    const index_t r = i / cols, k = i % cols;
    const index_t target = static_cast<index_t>(label[r]);
    const double v = static_cast<double>(x[i]);
    double d;
    if (k == target) {
      d = margin > v ? -reg * (linear ? 1.0 : 2.0 * (margin - v)) : 0.0;
    } else {
      d = margin > -v ? reg * (linear ? 1.0 : 2.0 * (margin + v)) : 0.0;
    }
    g[i] = req == kAddTo ? static_cast<DType>(static_cast<double>(g[i]) + d)
                         : static_cast<DType>(d);
  }
};
}  // namespace svm_kernel

template <typename xpu>
void SVMOutputCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].dptr_ == inputs[0].dptr_) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "SVMOutput: req=add is not supported";
  }
  CopyBlobPlanned(ctx.get_stream<xpu>(), inputs[0], outputs[0], kWriteTo);
}

/*! \brief (label, data) -> (data_grad, label_grad = 0). */
template <typename xpu>
void SVMOutputGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const SVMOutputParam& p = nnvm::get<SVMOutputParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& label = inputs[0];
  const TBlob& data = inputs[1];
  if (req[0] != kNullOp) {
    const index_t rows = data.shape_[0];
    const index_t cols = rows == 0 ? 0 : data.Size() / rows;
    const std::vector<double> y = BlobValuesOnHost(s, label);
    for (index_t r = 0; r < rows; ++r) {
      const int64_t target = static_cast<int64_t>(y[r]);
      if (target < 0 || target >= cols) {
        MX_THROW(IndexError) << "SVMOutput: label[" << r << "]=" << target
                             << " is out of range for " << cols << " classes (data shape "
                             << data.shape_ << ")";
      }
    }
    MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
      MSHADOW_TYPE_SWITCH(label.type_flag_, LType, {
        mxnet_op::Kernel<svm_kernel::hinge_grad, xpu>::Launch(
            s, data.Size(), outputs[0].dptr<DType>(), data.dptr<DType>(), label.dptr<LType>(),
            cols, static_cast<double>(p.margin),
            static_cast<double>(p.regularization_coefficient), p.use_linear,
            static_cast<int>(req[0]));
      });
    });
  }
  if (req[1] == kWriteTo || req[1] == kWriteInplace) ZeroBlob(s, outputs[1]);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_SVM_OUTPUT_INL_H_
