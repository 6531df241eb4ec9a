/*!
 * \file regression_output-inl.h
 * \brief LinearRegressionOutput, LogisticRegressionOutput, MAERegressionOutput: loss heads whose
 *        backward ignores the head gradient and returns
 *        grad_scale / num_output * f(output, label), with num_output = label.Size() / batch.
 */
#ifndef MXNET_OPERATOR_REGRESSION_OUTPUT_INL_H_
#define MXNET_OPERATOR_REGRESSION_OUTPUT_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "./elemwise_op_common.h"
#include "./mxnet_op.h"
#include "./operator_common.h"

namespace mxnet {
namespace op {

namespace reg_enum {
enum RegressionOutputOpInputs { kData, kLabel };
enum RegressionOutputOutputs { kOut };
}  // namespace reg_enum

struct RegressionOutputParam : public dmlc::Parameter<RegressionOutputParam> {
  float grad_scale;
  DMLC_DECLARE_PARAMETER(RegressionOutputParam) {
    DMLC_DECLARE_FIELD(grad_scale).set_default(1.0f).describe("Scale the gradient by a float factor");
  }
};

/*! \brief The three heads: forward map and gradient of (output, label). */
struct LinearRegKind {
  MSHADOW_XINLINE static double Forward(double x) { return x; }
  MSHADOW_XINLINE static double Grad(double out, double label) { return out - label; }
};
struct LogisticRegKind {
  MSHADOW_XINLINE static double Forward(double x) { return 1.0 / (1.0 + exp(-x)); }
  MSHADOW_XINLINE static double Grad(double out, double label) { return out - label; }
};
struct MAERegKind {
  MSHADOW_XINLINE static double Forward(double x) { return x; }
  MSHADOW_XINLINE static double Grad(double out, double label) {
    const double d = out - label;
    return d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0);
  }
};

template <int n_in>
inline bool RegressionOpShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                              mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U) << "expected inputs [data, label]";
  const mxnet::TShape& dshape = (*in_attrs)[0];
  if (!ndim_is_known(dshape)) return false;
  const mxnet::TShape& lshape = (*in_attrs)[1];
  if (!ndim_is_known(lshape)) {
    if (dshape.ndim() == 2 && dshape[1] == 1) {
      (*in_attrs)[1] = mxnet::TShape(1, dshape[0]);  // (N, 1) data takes an (N,) label
    } else {
      (*in_attrs)[1] = dshape;
    }
  } else if (shape_is_known(lshape) && shape_is_known(dshape) &&
             (lshape[0] != dshape[0] || lshape.Size() != dshape.Size())) {
    MX_THROW(ValueError) << attrs.op->name << ": expected label of shape " << dshape
                         << " (the data shape), got " << lshape;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, dshape);
  return shape_is_known(dshape);
}

inline bool RegressionOpType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                             std::vector<int>* out_attrs) {
  const int dtype = (*in_attrs)[0] >= 0 ? (*in_attrs)[0] : (*out_attrs)[0];
  if (dtype < 0) return false;
  TYPE_ASSIGN_CHECK(*in_attrs, 0, dtype);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, dtype);
  if ((*in_attrs)[1] < 0) (*in_attrs)[1] = dtype;
  return true;
}

template <typename Kind>
struct regression_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, int req) {
    KERNEL_ASSIGN(y[i], req, DType(Kind::Forward(static_cast<double>(x[i]))));
  }
};

template <typename Kind>
struct regression_backward {
  template <typename DType, typename LType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, const DType* y, const LType* l,
                                  double scale, int req) {
    const double g = Kind::Grad(static_cast<double>(y[i]), static_cast<double>(l[i])) * scale;
    KERNEL_ASSIGN(dx[i], req, DType(g));
  }
};

template <typename xpu, typename Kind>
void RegressionForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<regression_forward<Kind>, xpu>::Launch(
        ctx.get_stream<xpu>(), inputs[0].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), static_cast<int>(req[0]));
  });
}

/*! \brief inputs: label, output; outputs: data_grad, label_grad (zeros). */
template <typename xpu, typename Kind>
void RegressionBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const RegressionOutputParam& param = nnvm::get<RegressionOutputParam>(attrs.parsed);
  const TBlob& label = inputs[0];
  const TBlob& out = inputs[1];
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  if (req[1] != kNullOp && req[1] != kAddTo && outputs[1].Size() > 0) {
    MSHADOW_TYPE_SWITCH(outputs[1].type_flag_, LType, {
      mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, outputs[1].Size(),
                                                        outputs[1].dptr<LType>());
    });
  }
  if (req[0] == kNullOp || out.Size() == 0) return;
  const double num_output =
      static_cast<double>(label.Size()) / static_cast<double>(label.shape_[0]);
  const double scale = param.grad_scale / num_output;
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    MSHADOW_TYPE_SWITCH(label.type_flag_, LType, {
      mxnet_op::Kernel<regression_backward<Kind>, xpu>::Launch(
          s, out.Size(), outputs[0].dptr<DType>(), out.dptr<DType>(), label.dptr<LType>(),
          scale, static_cast<int>(req[0]));
    });
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_REGRESSION_OUTPUT_INL_H_
