/*!
 * \file batch_norm.cc
 * \brief Registration of BatchNorm and _backward_BatchNorm.
 */
#include "./batch_norm-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(BatchNormParam);

namespace {

bool BatchNormBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                            mxnet::ShapeVector* out_shape) {
  if (in_shape->size() != 8U) {
    MX_THROW(ValueError) << "_backward_BatchNorm: expected 8 inputs (out_grad, mean, var, data, "
                         << "gamma, beta, moving_mean, moving_var), got " << in_shape->size();
  }
  mxnet::ShapeVector fwd_in(in_shape->begin() + 3, in_shape->end()), fwd_out(3);
  const bool ok = BatchNormShape(attrs, &fwd_in, &fwd_out);
  if (ndim_is_known((*in_shape)[0]) && ndim_is_known(fwd_out[0]) &&
      (*in_shape)[0] != fwd_out[0]) {
    MX_THROW(ValueError) << "_backward_BatchNorm: out_grad has shape " << (*in_shape)[0]
                         << " but data has shape " << fwd_out[0];
  }
  for (int i = 0; i < 5; ++i) (*in_shape)[3 + i] = fwd_in[i];
  SHAPE_ASSIGN_CHECK(*in_shape, 1, fwd_out[1]);
  SHAPE_ASSIGN_CHECK(*in_shape, 2, fwd_out[2]);
  SHAPE_ASSIGN_CHECK(*out_shape, 0, fwd_in[0]);
  SHAPE_ASSIGN_CHECK(*out_shape, 1, fwd_in[1]);
  SHAPE_ASSIGN_CHECK(*out_shape, 2, fwd_in[2]);
  return ok;
}

bool BatchNormBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                           std::vector<int>* out_type) {
  int dtype = (*in_type)[3] >= 0 ? (*in_type)[3] : (*in_type)[0];
  if (dtype < 0) return false;
  const int ptype = BNParamType(dtype);
  std::vector<int> fwd_in{dtype, ptype, ptype, ptype, ptype};
  for (int i = 0; i < 5; ++i) {
    if ((*in_type)[3 + i] >= 0) fwd_in[i] = (*in_type)[3 + i];
  }
  std::vector<int> fwd_out(3, -1);
  BatchNormType(attrs, &fwd_in, &fwd_out);
  TYPE_ASSIGN_CHECK(*in_type, 0, dtype);
  TYPE_ASSIGN_CHECK(*in_type, 1, ptype);
  TYPE_ASSIGN_CHECK(*in_type, 2, ptype);
  for (int i = 0; i < 5; ++i) TYPE_ASSIGN_CHECK(*in_type, 3 + i, fwd_in[i]);
  TYPE_ASSIGN_CHECK(*out_type, 0, dtype);
  TYPE_ASSIGN_CHECK(*out_type, 1, ptype);
  TYPE_ASSIGN_CHECK(*out_type, 2, ptype);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(BatchNorm)
.describe(R"code(Batch normalization.

Normalizes a data batch by mean and variance, and applies a scale ``gamma`` as
well as offset ``beta``.

Assume the input has more than one dimension and we normalize along axis 1.
We first compute the mean and variance along this axis:

.. math::

  data\_mean[i] = mean(data[:,i,:,...]) \\
  data\_var[i] = var(data[:,i,:,...])

Then compute the normalized output, which has the same shape as input, as following:

.. math::

  out[:,i,:,...] = \frac{data[:,i,:,...] - data\_mean[i]}{\sqrt{data\_var[i]+\epsilon}} * gamma[i] + beta[i]

Both *mean* and *var* returns a scalar by treating the input as a vector.

Assume the input has size *k* on axis 1, then both ``gamma`` and ``beta``
have shape *(k,)*. If ``output_mean_var`` is set to be true, then outputs both ``data_mean`` and
the inverse of ``data_var``, which are needed for the backward pass. Note that gradient of these
two outputs are blocked.

Besides the inputs and the outputs, this operator accepts two auxiliary
states, ``moving_mean`` and ``moving_var``, which are *k*-length
vectors. They are global statistics for the whole dataset, which are updated
by::

  moving_mean = moving_mean * momentum + data_mean * (1 - momentum)
  moving_var = moving_var * momentum + data_var * (1 - momentum)

If ``use_global_stats`` is set to be true, then ``moving_mean`` and
``moving_var`` are used instead of ``data_mean`` and ``data_var`` to compute
the output. It is often used during inference.

The parameter ``axis`` specifies which axis of the input shape denotes
the 'channel' (separately normalized groups).  The default is 1.  Specifying -1 sets the channel
axis to be the last item in the input shape.

Both ``gamma`` and ``beta`` are learnable parameters. But if ``fix_gamma`` is true,
then set ``gamma`` to 1 and its gradient to 0.

As in MXNet 1.9.1 on CPU, the moving statistics are updated by the backward pass of a
training step.
)code" ADD_FILELINE)
.set_num_inputs(5)
.set_num_outputs(3)
.set_attr_parser(ParamParser<BatchNormParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) {
    return std::vector<std::string>{"data", "gamma", "beta", "moving_mean", "moving_var"};
  })
.set_attr<nnvm::FListOutputNames>("FListOutputNames",
  [](const NodeAttrs& attrs) { return std::vector<std::string>{"output", "mean", "var"}; })
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs",
  [](const NodeAttrs& attrs) {
    return nnvm::get<BatchNormParam>(attrs.parsed).output_mean_var ? 3 : 1;
  })
.set_attr<nnvm::FMutateInputs>("FMutateInputs",
  [](const nnvm::NodeAttrs& attrs) {
    return std::vector<uint32_t>{batchnorm::kMovingMean, batchnorm::kMovingVar};
  })
// Moving statistics start as mean 0 / variance 1 unless the user gave the variable an init.
.set_attr<nnvm::FSetInputVarAttrOnCompose>("FSetInputVarAttrOnCompose",
  [](const nnvm::NodeAttrs& attrs, nnvm::ObjectPtr var, const int index) {
    if (var->attrs.dict.count("__init__")) return;
    if (index == batchnorm::kMovingMean) var->attrs.dict["__init__"] = "[\"zero\", {}]";
    if (index == batchnorm::kMovingVar) var->attrs.dict["__init__"] = "[\"one\", {}]";
  })
.set_attr<mxnet::FInferShape>("FInferShape", BatchNormShape)
.set_attr<nnvm::FInferType>("FInferType", BatchNormType)
.set_attr<FCompute>("FCompute<cpu>", BatchNormCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], nnvm::NodeEntry(n, batchnorm::kMean, 0),
                                       nnvm::NodeEntry(n, batchnorm::kVar, 0)};
    for (const auto& in : n->inputs) heads.push_back(in);
    std::vector<nnvm::NodeEntry> grads =
        MakeGradNode("_backward_BatchNorm", n, heads, n->attrs.dict);
    // The auxiliary states get no gradient.
    for (int i : {batchnorm::kMovingMean, batchnorm::kMovingVar}) {
      std::ostringstream os;
      os << n->attrs.name << "_in" << i << "_backward";
      grads.emplace_back(MakeNode("zeros_like", os.str(), {n->inputs[i]}, nullptr, &n));
    }
    return grads;
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to batch normalization")
.add_argument("gamma", "NDArray-or-Symbol", "gamma array")
.add_argument("beta", "NDArray-or-Symbol", "beta array")
.add_argument("moving_mean", "NDArray-or-Symbol", "running mean of input")
.add_argument("moving_var", "NDArray-or-Symbol", "running variance of input")
.add_arguments(BatchNormParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_BatchNorm)
.describe("Backward of BatchNorm: (out_grad, mean, var, data, gamma, beta, moving_mean, "
          "moving_var) -> (data_grad, gamma_grad, beta_grad); updates the moving statistics "
          "when training.")
.set_num_inputs(8)
.set_num_outputs(3)
.set_attr_parser(ParamParser<BatchNormParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<nnvm::FMutateInputs>("FMutateInputs",
  [](const nnvm::NodeAttrs& attrs) { return std::vector<uint32_t>{6, 7}; })
.set_attr<mxnet::FInferShape>("FInferShape", BatchNormBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", BatchNormBackwardType)
.set_attr<FCompute>("FCompute<cpu>", BatchNormGradCompute<cpu>)
.add_argument("out_grad", "NDArray-or-Symbol", "Gradient of the output")
.add_argument("mean", "NDArray-or-Symbol", "Mean output of the forward pass")
.add_argument("var", "NDArray-or-Symbol", "Inverse std output of the forward pass")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("gamma", "NDArray-or-Symbol", "gamma array")
.add_argument("beta", "NDArray-or-Symbol", "beta array")
.add_argument("moving_mean", "NDArray-or-Symbol", "running mean of input")
.add_argument("moving_var", "NDArray-or-Symbol", "running variance of input")
.add_arguments(BatchNormParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
