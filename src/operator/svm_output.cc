/*!
 * \file svm_output.cc
 * \brief SVMOutput: a loss head. Forward is the identity on data (N, K...) viewed as (N, K);
 *        backward ignores the head gradient and returns the gradient of the one-vs-rest hinge
 *        loss (label[i] is the class index of row i):
 *          L2 (default): reg * sum_i [max(0, m - x[i, y_i])^2 + sum_{k != y_i} max(0, m + x[i, k])^2]
 *          L1 (use_linear): the same without the squares.
 *        _backward_SVMOutput inputs (label, data) -> (data_grad, label_grad = 0).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cstring>
#include <string>
#include <vector>

#include "./elemwise_op_common.h"
#include "./operator_common.h"

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

DMLC_REGISTER_PARAMETER(SVMOutputParam);

namespace {

bool SVMOutputShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() < 2) {
    MX_THROW(ValueError) << "SVMOutput: expected data of shape (batch, classes...), got " << d;
  }
  const mxnet::TShape& label = (*in)[1];
  if (ndim_is_known(label) && (label.ndim() != 1 || (label[0] >= 0 && label[0] != d[0]))) {
    MX_THROW(ValueError) << "SVMOutput: expected label of shape (" << d[0]
                         << ",) for data of shape " << d << ", got " << label;
  }
  SHAPE_ASSIGN_CHECK(*in, 1, mxnet::TShape(1, d[0]));
  SHAPE_ASSIGN_CHECK(*out, 0, d);
  return true;
}

bool SVMOutputType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  if ((*in)[0] < 0) return false;
  if ((*in)[1] < 0) (*in)[1] = (*in)[0];
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return true;
}

void SVMOutputCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].dptr_ == inputs[0].dptr_) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "SVMOutput: req=add is not supported";
  }
  std::memcpy(outputs[0].dptr_, inputs[0].dptr_,
              inputs[0].Size() * mshadow::mshadow_sizeof(inputs[0].type_flag_));
}

template <typename DType, typename LType>
void SVMGrad(const SVMOutputParam& p, const TBlob& label, const TBlob& data, const TBlob& grad,
             OpReqType req) {
  const index_t rows = data.shape_[0];
  const index_t cols = rows == 0 ? 0 : data.Size() / rows;
  const LType* y = label.dptr<LType>();
  const DType* x = data.dptr<DType>();
  DType* g = grad.dptr<DType>();
  const double m = p.margin, reg = p.regularization_coefficient;
  for (index_t r = 0; r < rows; ++r) {
    const int64_t target = static_cast<int64_t>(y[r]);
    if (target < 0 || target >= cols) {
      MX_THROW(IndexError) << "SVMOutput: label[" << r << "]=" << target
                           << " is out of range for " << cols << " classes (data shape "
                           << data.shape_ << ")";
    }
    for (index_t k = 0; k < cols; ++k) {
      const double v = static_cast<double>(x[r * cols + k]);
      double d;
      if (k == target) {
        d = m > v ? -reg * (p.use_linear ? 1.0 : 2.0 * (m - v)) : 0.0;
      } else {
        d = m > -v ? reg * (p.use_linear ? 1.0 : 2.0 * (m + v)) : 0.0;
      }
      DType& dst = g[r * cols + k];
      dst = req == kAddTo ? static_cast<DType>(dst + d) : static_cast<DType>(d);
    }
  }
}

void SVMOutputGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  const SVMOutputParam& p = nnvm::get<SVMOutputParam>(attrs.parsed);
  if (req[0] != kNullOp) {
    MSHADOW_REAL_TYPE_SWITCH(inputs[1].type_flag_, DType, {
      MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, LType, {
        SVMGrad<DType, LType>(p, inputs[0], inputs[1], outputs[0], req[0]);
      });
    });
  }
  if (req[1] == kWriteTo || req[1] == kWriteInplace) {
    std::memset(outputs[1].dptr_, 0,
                outputs[1].Size() * mshadow::mshadow_sizeof(outputs[1].type_flag_));
  }
}

}  // namespace

NNVM_REGISTER_OP(SVMOutput)
.describe(R"code(Computes support vector machine based transformation of the input.

This tutorial demonstrates using SVM as output layer for classification instead of softmax:
https://github.com/apache/mxnet/tree/v1.x/example/svm_mnist.

)code" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SVMOutputParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "label"};
})
.set_attr<mxnet::FInferShape>("FInferShape", SVMOutputShape)
.set_attr<nnvm::FInferType>("FInferType", SVMOutputType)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", SVMOutputCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_SVMOutput", n, {n->inputs[1], n->inputs[0]},
                        n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data for SVM transformation.")
.add_argument("label", "NDArray-or-Symbol", "Class label for the input data.")
.add_arguments(SVMOutputParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SVMOutput)
.describe("Backward of SVMOutput: (label, data) -> (data_grad, label_grad).")
.set_num_inputs(2)
.set_num_outputs(2)
.set_attr_parser(ParamParser<SVMOutputParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[0]);
  return shape_is_known((*out)[0]) && shape_is_known((*out)[1]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  TYPE_ASSIGN_CHECK(*out, 1, (*in)[0]);
  return (*out)[0] != -1 && (*out)[1] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", SVMOutputGradCompute);

}  // namespace op
}  // namespace mxnet
