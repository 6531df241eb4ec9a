/*!
 * \file softmax.cc
 * \brief Registration of softmax, log_softmax, softmin, SoftmaxActivation and their backward
 *        operators.
 */
#include "./softmax-inl.h"
#include "../tensor/higher_order_grad-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SoftmaxParam);
DMLC_REGISTER_PARAMETER(SoftmaxActivationParam);

namespace {

uint32_t SoftmaxNumInputs(const NodeAttrs& attrs) {
  return nnvm::get<SoftmaxParam>(attrs.parsed).UseLength() ? 2 : 1;
}

std::vector<std::string> SoftmaxInputNames(const NodeAttrs& attrs) {
  if (nnvm::get<SoftmaxParam>(attrs.parsed).UseLength()) return {"data", "length"};
  return {"data"};
}

/*! \brief Gradient node: (out_grad, output[, length]) -> (data_grad[, length_grad]). */
nnvm::FGradient SoftmaxGradient(const char* backward) {
  return [backward](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], nnvm::NodeEntry{n, 0, 0}};
    if (nnvm::get<SoftmaxParam>(n->attrs.parsed).UseLength()) heads.push_back(n->inputs[1]);
    return MakeGradNode(backward, n, heads, n->attrs.dict);
  };
}

bool SoftmaxGradShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                      mxnet::ShapeVector* out_attrs) {
  SHAPE_ASSIGN_CHECK(*in_attrs, 0, (*in_attrs)[1]);
  SHAPE_ASSIGN_CHECK(*in_attrs, 1, (*in_attrs)[0]);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[1]);
  if (out_attrs->size() > 1) SHAPE_ASSIGN_CHECK(*out_attrs, 1, (*in_attrs)[2]);
  return shape_is_known((*out_attrs)[0]);
}

bool SoftmaxGradType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                     std::vector<int>* out_attrs) {
  TYPE_ASSIGN_CHECK(*in_attrs, 0, (*in_attrs)[1]);
  TYPE_ASSIGN_CHECK(*in_attrs, 1, (*in_attrs)[0]);
  if ((*out_attrs)[0] < 0) (*out_attrs)[0] = (*in_attrs)[1];
  if (out_attrs->size() > 1 && (*out_attrs)[1] < 0) (*out_attrs)[1] = (*in_attrs)[2];
  for (int t : *out_attrs)
    if (t < 0) return false;
  return true;
}

uint32_t SoftmaxGradNumOutputs(const NodeAttrs& attrs) {
  return nnvm::get<SoftmaxParam>(attrs.parsed).UseLength() ? 2 : 1;
}

}  // namespace

// Only softmax lists `length` as a declared argument (1.9.1 signatures); log_softmax and   
// softmin still take it as a second input with use_length=True.                         
#define SOFTMAX_LENGTH_ARGUMENT .add_argument("length", "NDArray-or-Symbol", "The length array.")
#define SOFTMAX_NO_LENGTH_ARGUMENT

#define MXNET_REGISTER_SOFTMAX_FAMILY(name, kind, doc, LENGTH_ARGUMENT)                  \
  NNVM_REGISTER_OP(name)                                                                 \
  .describe(doc ADD_FILELINE)                                                            \
  .set_num_inputs(SoftmaxNumInputs)                                                      \
  .set_num_outputs(1)                                                                    \
  .set_attr_parser(ParamParser<SoftmaxParam>)                                            \
  .set_attr<nnvm::FListInputNames>("FListInputNames", SoftmaxInputNames)                 \
  .set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {     \
    return std::vector<std::string>{"output"};                                           \
  })                                                                                     \
  .set_attr<mxnet::FInferShape>("FInferShape", SoftmaxOpShape)                           \
  .set_attr<nnvm::FInferType>("FInferType", SoftmaxOpType)                               \
  .set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {         \
    return std::vector<std::pair<int, int>>{{0, 0}};                                     \
  })                                                                                     \
  .set_attr<FCompute>("FCompute<cpu>", SoftmaxCompute<cpu, kind>)                        \
  .set_attr<nnvm::FGradient>("FGradient", SoftmaxGradient("_backward_" #name))           \
  .add_argument("data", "NDArray-or-Symbol", "The input array.")                         \
  LENGTH_ARGUMENT                                                                        \
  .add_arguments(SoftmaxParam::__FIELDS__());                                            \
  NNVM_REGISTER_OP(_backward_##name)                                                     \
  .describe("Backward of " #name ": (out_grad, output[, length]) -> (data_grad"          \
            "[, length_grad]).")                                                         \
  .set_num_inputs([](const NodeAttrs& attrs) {                                           \
    return nnvm::get<SoftmaxParam>(attrs.parsed).UseLength() ? 3U : 2U;                  \
  })                                                                                     \
  .set_num_outputs(SoftmaxGradNumOutputs)                                                \
  .set_attr_parser(ParamParser<SoftmaxParam>)                                            \
  .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                      \
  .set_attr<mxnet::FInferShape>("FInferShape", SoftmaxGradShape)                         \
  .set_attr<nnvm::FInferType>("FInferType", SoftmaxGradType)                             \
  .set_attr<FCompute>("FCompute<cpu>", SoftmaxGradCompute<cpu, kind>)                    \
  .add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")               \
  .add_argument("output", "NDArray-or-Symbol", "Output of the forward operator")         \
  .add_argument("length", "NDArray-or-Symbol", "The length array (with use_length)")     \
  .add_arguments(SoftmaxParam::__FIELDS__())

MXNET_REGISTER_SOFTMAX_FAMILY(softmax, SoftmaxKind::kSoftmax,
R"code(Applies the softmax function.

The resulting array contains elements in the range (0,1) and the elements along the given axis sum up to 1.

.. math::
   softmax(\mathbf{z/t})_j = \frac{e^{z_j/t}}{\sum_{k=1}^K e^{z_k/t}}

for :math:`j = 1, ..., K`

t is the temperature parameter in softmax function. By default, t equals 1.0

With ``use_length=True`` a second input ``length`` (the shape of data without ``axis``) gives
the number of valid entries of each row; the others are output as 0.

Example::

  x = [[ 1.  1.  1.]
       [ 1.  1.  1.]]

  softmax(x,axis=0) = [[ 0.5  0.5  0.5]
                       [ 0.5  0.5  0.5]]

  softmax(x,axis=1) = [[ 0.33333334,  0.33333334,  0.33333334],
                       [ 0.33333334,  0.33333334,  0.33333334]]

)code", SOFTMAX_LENGTH_ARGUMENT);

MXNET_REGISTER_SOFTMAX_FAMILY(log_softmax, SoftmaxKind::kLogSoftmax,
R"code(Computes the log softmax of the input.
This is equivalent to computing softmax followed by log.

Examples::

  >>> x = mx.nd.array([1, 2, .1])
  >>> mx.nd.log_softmax(x).asnumpy()
  array([-1.41702998, -0.41702995, -2.31702995], dtype=float32)

  >>> x = mx.nd.array( [[1, 2, .1],[.1, 2, 1]] )
  >>> mx.nd.log_softmax(x, axis=0).asnumpy()
  array([[-0.34115392, -0.69314718, -1.24115396],
         [-1.24115396, -0.69314718, -0.34115392]], dtype=float32)

)code", SOFTMAX_NO_LENGTH_ARGUMENT);

MXNET_REGISTER_SOFTMAX_FAMILY(softmin, SoftmaxKind::kSoftmin,
R"code(Applies the softmin function.

The resulting array contains elements in the range (0,1) and the elements along the given axis sum
up to 1.

.. math::
   softmin(\mathbf{z/t})_j = \frac{e^{-z_j/t}}{\sum_{k=1}^K e^{-z_k/t}}

for :math:`j = 1, ..., K`

t is the temperature parameter in softmax function. By default, t equals 1.0

Example::

  x = [[ 1.  2.  3.]
       [ 3.  2.  1.]]

  softmin(x,axis=0) = [[ 0.88079703,  0.5,  0.11920292],
                       [ 0.11920292,  0.5,  0.88079703]]

  softmin(x,axis=1) = [[ 0.66524094,  0.24472848,  0.09003057],
                       [ 0.09003057,  0.24472848,  0.66524094]]

)code", SOFTMAX_NO_LENGTH_ARGUMENT);

NNVM_REGISTER_OP(SoftmaxActivation)
.describe(R"code(Applies softmax activation to input. This is intended for internal layers.

.. note::

  This operator has been deprecated, please use `softmax`.

If `mode` = ``instance``, this operator will compute a softmax for each instance in the batch.
This is the default mode.

If `mode` = ``channel``, this operator will compute a k-class softmax at each position
of each instance, where `k` = ``num_channel``. This mode can only be used when the input array
has at least 3 dimensions.
This can be used for `fully convolutional network`, `image segmentation`, etc.

Example::

  >>> input_array = mx.nd.array([[3., 0.5, -0.5, 2., 7.],
  >>>                            [2., -.4, 7.,   3., 0.2]])
  >>> softmax_act = mx.nd.SoftmaxActivation(input_array)
  >>> print softmax_act.asnumpy()
  [[  1.78322066e-02   1.46375655e-03   5.38485940e-04   6.56010211e-03   9.73605454e-01]
   [  6.56221947e-03   5.95310994e-04   9.73919690e-01   1.78379621e-02   1.08472735e-03]]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SoftmaxActivationParam>)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const SoftmaxActivationParam& param = nnvm::get<SoftmaxActivationParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (ndim_is_known(d) && d.ndim() < (param.mode == 1 ? 3 : 1)) {
    MX_THROW(ValueError) << "SoftmaxActivation: expected data with at least "
                         << (param.mode == 1 ? 3 : 1) << " dimensions for mode="
                         << (param.mode == 1 ? "channel" : "instance") << ", got " << d;
  }
  return ElemwiseShape<1, 1>(attrs, in, out);
})
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<FCompute>("FCompute<cpu>", SoftmaxActivationCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_SoftmaxActivation"})
.add_argument("data", "NDArray-or-Symbol", "The input array.")
.add_arguments(SoftmaxActivationParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SoftmaxActivation)
.describe("Backward of SoftmaxActivation: (out_grad, output) -> data_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SoftmaxActivationParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const NodeAttrs& attrs) {
  return std::vector<std::pair<int, int>>{{0, 0}};
})
.set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<2, 1>)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<2, 1>)
.set_attr<FCompute>("FCompute<cpu>", SoftmaxActivationGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("output", "NDArray-or-Symbol", "Output of SoftmaxActivation");


// ------------------------------------------------------------------ second-order gradients
// FGradient of the backward ops (see tensor/higher_order_grad-inl.h), built from
// differentiable forward ops so that third order works too.
namespace {

using nnvm::NodeEntry;
using nnvm::ObjectPtr;

NodeEntry BMul(const GradGraphBuilder& b, const NodeEntry& x, const NodeEntry& y) {
  return b.Op("broadcast_mul", {x, y});
}

// ------------------------------------------------------------------ softmax / log_softmax

struct SoftmaxAxis {
  std::unordered_map<std::string, std::string> sum_attrs;  // sum over the softmax axis, keepdims
  double inv_temperature;
};

SoftmaxAxis SoftmaxAttrs(const ObjectPtr& n) {
  const SoftmaxParam& param = nnvm::get<SoftmaxParam>(n->attrs.parsed);
  if (param.UseLength()) {
    MX_THROW(dmlc::NotImplementedError)
        << "Operator " << n->op()->name << " (node " << n->attrs.name
        << ") has no higher-order gradient with use_length=True";
  }
  SoftmaxAxis s;
  s.sum_attrs = {{"axis", std::to_string(param.axis)}, {"keepdims", "True"}};
  s.inv_temperature = param.temperature.has_value() ? 1.0 / param.temperature.value() : 1.0;
  return s;
}

// _backward_softmax(ograd, y) = y (ograd - S) / T with S = sum(ograd y). For g at the output:
//   d/dograd = the same op on (g, y);  d/dy = (g (ograd - S) - ograd sum(g y)) / T.
std::vector<NodeEntry> BackwardSoftmaxGrad(const ObjectPtr& n, const std::vector<NodeEntry>& g) {
  SoftmaxAxis ax = SoftmaxAttrs(n);
  GradGraphBuilder b(n);
  const NodeEntry &ograd = n->inputs[0], &y = n->inputs[1];
  NodeEntry d_ograd(b.Again({g[0], y}), 0, 0);
  NodeEntry s = b.Op("sum", {b.Mul(ograd, y)}, ax.sum_attrs);
  NodeEntry t = b.Op("sum", {b.Mul(g[0], y)}, ax.sum_attrs);
  NodeEntry d_y = b.Sub(BMul(b, g[0], b.Op("broadcast_sub", {ograd, s})), BMul(b, ograd, t));
  return {d_ograd, b.Scale(d_y, ax.inv_temperature)};
}

// _backward_log_softmax(ograd, y) = (ograd - exp(y) S) / T with S = sum(ograd). Its Jacobian
// in ograd is not symmetric, so (unlike softmax) d/dograd is not the op applied to g:
//   d/dograd = (g - sum(g exp(y))) / T;  d/dy = -g exp(y) S / T.
std::vector<NodeEntry> BackwardLogSoftmaxGrad(const ObjectPtr& n,
                                              const std::vector<NodeEntry>& g) {
  SoftmaxAxis ax = SoftmaxAttrs(n);
  GradGraphBuilder b(n);
  const NodeEntry &ograd = n->inputs[0], &y = n->inputs[1];
  NodeEntry prob = b.Op("exp", {y});
  NodeEntry d_ograd = b.Op("broadcast_sub", {g[0], b.Op("sum", {b.Mul(g[0], prob)}, ax.sum_attrs)});
  NodeEntry s = b.Op("sum", {ograd}, ax.sum_attrs);
  NodeEntry d_y = BMul(b, b.Mul(g[0], prob), s);
  return {b.Scale(d_ograd, ax.inv_temperature), b.Scale(d_y, -ax.inv_temperature)};
}

}  // namespace

NNVM_REGISTER_OP(_backward_softmax)
.set_attr<nnvm::FGradient>("FGradient", BackwardSoftmaxGrad);
NNVM_REGISTER_OP(_backward_log_softmax)
.set_attr<nnvm::FGradient>("FGradient", BackwardLogSoftmaxGrad);

}  // namespace op
}  // namespace mxnet
