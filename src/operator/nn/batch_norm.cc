/*!
 * \file batch_norm.cc
 * \brief Registration of BatchNorm and its variants on the same kernels:
 *        _contrib_BatchNormWithReLU (relu fused on the output) and _contrib_SyncBatchNorm
 *        (channel axis 1, reports the batch variance instead of the inverse std), with their
 *        backward operators.
 */
#include <mxnet/resource.h>

#include <string>
#include <utility>
#include <vector>

#include "./batch_norm-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(BatchNormParam);

struct SyncBatchNormParam : public dmlc::Parameter<SyncBatchNormParam> {
  float eps;
  float momentum;
  bool fix_gamma;
  bool use_global_stats;
  bool output_mean_var;
  int ndev;
  std::string key;
  DMLC_DECLARE_PARAMETER(SyncBatchNormParam) {
    DMLC_DECLARE_FIELD(eps).set_default(1e-3f).describe("Epsilon to prevent div 0");
    DMLC_DECLARE_FIELD(momentum).set_default(0.9f).describe("Momentum for moving average");
    DMLC_DECLARE_FIELD(fix_gamma).set_default(true).describe("Fix gamma while training");
    DMLC_DECLARE_FIELD(use_global_stats).set_default(false)
        .describe("Whether use global moving statistics instead of local batch-norm. This will "
                  "force change batch-norm into a scale shift operator.");
    DMLC_DECLARE_FIELD(output_mean_var).set_default(false)
        .describe("Output All,normal mean and var");
    DMLC_DECLARE_FIELD(ndev).set_default(1).describe("The count of GPU devices");
    DMLC_DECLARE_FIELD(key).describe("Hash key for synchronization, please set the same hash key "
                                     "for same layer, Block.prefix is typically used as in "
                                     ":class:`gluon.nn.contrib.SyncBatchNorm`.");
  }
};

DMLC_REGISTER_PARAMETER(SyncBatchNormParam);

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


/*!
 * \brief Parses SyncBatchNorm's attributes and stores the equivalent BatchNormParam (channel
 *        axis 1), so that the BatchNorm shape, type and kernel functions serve it unchanged.
 */
void SyncBatchNormParser(nnvm::NodeAttrs* attrs) {
  ParamParser<SyncBatchNormParam>(attrs);
  const SyncBatchNormParam sync = nnvm::get<SyncBatchNormParam>(attrs->parsed);
  if (sync.ndev != 1) {
    // Each device would see only its own slice of the batch; without a cross-device
    // rendezvous the statistics would silently differ from synchronized ones.
    MX_THROW(ValueError) << attrs->op->name << " (name=\"" << attrs->name << "\", key=\""
                         << sync.key << "\"): ndev=" << sync.ndev << " is not supported: this "
                         << "build synchronizes no devices, so only ndev=1 (the same result "
                         << "as BatchNorm over axis 1) is computed";
  }
  BatchNormParam bn;
  bn.Init(std::vector<std::pair<std::string, std::string>>{});
  bn.eps = sync.eps;
  bn.momentum = sync.momentum;
  bn.fix_gamma = sync.fix_gamma;
  bn.use_global_stats = sync.use_global_stats;
  bn.output_mean_var = sync.output_mean_var;
  bn.axis = 1;
  attrs->parsed = std::move(bn);
}

/*! \brief Runs _backward_BatchNorm's kernel with the output gradient and the inverse std given
 *         as host vectors (a relu-masked gradient, an inverse std computed from a variance). */
template <typename DType, typename AType>
void BackwardWith(const BatchNormParam& param, bool training, const std::vector<TBlob>& bn_in,
                  const DType* dy, const AType* invstd, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  const BNDims d = MakeBNDims(param, bn_in[3].shape_);
  BatchNormBackwardImpl<DType, AType>(
      param, training, d, dy, bn_in[1].dptr<AType>(), invstd, bn_in[3].dptr<DType>(),
      bn_in[4].dptr<AType>(), bn_in[6].dptr<AType>(), bn_in[7].dptr<AType>(),
      outputs[0].dptr<DType>(), req[0], outputs[1].dptr<AType>(), req[1],
      outputs[2].dptr<AType>(), req[2]);
}

void BatchNormReLUCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  if (req[0] == kAddTo) {
    MX_THROW(ValueError) << "_contrib_BatchNormWithReLU: the output cannot be accumulated into "
                         << "(grad_req/req 'add')";
  }
  BatchNormCompute<cpu>(attrs, ctx, inputs, req, outputs);
  if (req[0] == kNullOp) return;
  BNTypeSwitch(outputs[0].type_flag_, "_contrib_BatchNormWithReLU", [&](auto dtag, auto) {
    using DType = decltype(dtag);
    DType* y = outputs[0].dptr<DType>();
    const index_t n = outputs[0].Size();
#pragma omp parallel for if (n > 65536)
    for (index_t i = 0; i < n; ++i) {
      if (!(static_cast<float>(y[i]) > 0.f)) y[i] = DType(0);
    }
  });
}

/*! \brief inputs: out_grad, output, mean, invstd, data, gamma, beta, moving_mean, moving_var. */
void BatchNormReLUGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  const bool training = ctx.is_train && !param.use_global_stats;
  std::vector<TBlob> bn_in(inputs);
  bn_in.erase(bn_in.begin() + 1);
  BNTypeSwitch(inputs[4].type_flag_, "_backward_contrib_BatchNormWithReLU",
               [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    const index_t n = inputs[0].Size();
    const DType* dy = inputs[0].dptr<DType>();
    const DType* y = inputs[1].dptr<DType>();
    std::vector<DType> masked(n);
#pragma omp parallel for if (n > 65536)
    for (index_t i = 0; i < n; ++i) masked[i] = static_cast<float>(y[i]) > 0.f ? dy[i] : DType(0);
    BackwardWith<DType, AType>(param, training, bn_in, masked.data(), bn_in[2].dptr<AType>(),
                               req, outputs);
  });
}

/*! \brief Forward of SyncBatchNorm: BatchNorm, then the inverse std output becomes the variance. */
void SyncBatchNormCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  BatchNormCompute<cpu>(attrs, ctx, inputs, req, outputs);
  const double eps = nnvm::get<BatchNormParam>(attrs.parsed).eps;
  BNTypeSwitch(inputs[0].type_flag_, "_contrib_SyncBatchNorm", [&](auto, auto atag) {
    using AType = decltype(atag);
    AType* v = outputs[batchnorm::kVar].dptr<AType>();
    for (index_t c = 0; c < outputs[batchnorm::kVar].Size(); ++c) {
      const double invstd = static_cast<double>(v[c]);
      v[c] = static_cast<AType>(1.0 / (invstd * invstd) - eps);
    }
  });
}

/*! \brief inputs: out_grad, mean, var (the variance), data, gamma, beta, moving_mean, moving_var. */
void SyncBatchNormGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const BatchNormParam& param = nnvm::get<BatchNormParam>(attrs.parsed);
  const bool training = ctx.is_train && !param.use_global_stats;
  BNTypeSwitch(inputs[3].type_flag_, "_backward__contrib_SyncBatchNorm",
               [&](auto dtag, auto atag) {
    using DType = decltype(dtag);
    using AType = decltype(atag);
    const AType* var = inputs[2].dptr<AType>();
    std::vector<AType> invstd(inputs[2].Size());
    for (size_t c = 0; c < invstd.size(); ++c)
      invstd[c] = static_cast<AType>(1.0 / std::sqrt(static_cast<double>(var[c]) + param.eps));
    BackwardWith<DType, AType>(param, training, inputs, inputs[0].dptr<DType>(), invstd.data(),
                               req, outputs);
  });
}

/*! \brief Shape/type of _backward_contrib_BatchNormWithReLU: _backward_BatchNorm's, with the
 *         forward output (input 1) shaped like the data. */
bool BatchNormReLUBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                                mxnet::ShapeVector* out_shape) {
  if (in_shape->size() != 9U) {
    MX_THROW(ValueError) << "_backward_contrib_BatchNormWithReLU: expected 9 inputs, got "
                         << in_shape->size();
  }
  mxnet::ShapeVector bn(*in_shape);
  bn.erase(bn.begin() + 1);
  const bool ok = BatchNormBackwardShape(attrs, &bn, out_shape);
  for (size_t i = 0; i < bn.size(); ++i) (*in_shape)[i < 1 ? i : i + 1] = bn[i];
  SHAPE_ASSIGN_CHECK(*in_shape, 1, bn[3]);
  return ok;
}

bool BatchNormReLUBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                               std::vector<int>* out_type) {
  std::vector<int> bn(*in_type);
  bn.erase(bn.begin() + 1);
  if (!BatchNormBackwardType(attrs, &bn, out_type)) return false;
  for (size_t i = 0; i < bn.size(); ++i) (*in_type)[i < 1 ? i : i + 1] = bn[i];
  TYPE_ASSIGN_CHECK(*in_type, 1, bn[3]);
  return true;
}

/*!
 * \brief FGradient of the BatchNorm family: the backward op reads (out_grad, [output,] mean,
 *        var, inputs...); the moving statistics get no gradient.
 */
struct BNFamilyGrad {
  const char* backward_op;
  bool reads_output;
  std::vector<nnvm::NodeEntry> operator()(const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& ograds) const {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    if (reads_output) heads.emplace_back(n, batchnorm::kOut, 0);
    heads.emplace_back(n, batchnorm::kMean, 0);
    heads.emplace_back(n, batchnorm::kVar, 0);
    for (const auto& in : n->inputs) heads.push_back(in);
    std::vector<nnvm::NodeEntry> grads = MakeGradNode(backward_op, n, heads, n->attrs.dict);
    for (int i : {batchnorm::kMovingMean, batchnorm::kMovingVar}) {
      std::ostringstream os;
      os << n->attrs.name << "_in" << i << "_backward";
      grads.emplace_back(MakeNode("zeros_like", os.str(), {n->inputs[i]}, nullptr, &n));
    }
    return grads;
  }
};


/*! \brief What BatchNorm and its variants share: inputs, outputs, auxiliary states, inference. */
/*! \brief Temp space: the GPU kernels' per-channel partial sums and coefficients. */
std::vector<ResourceRequest> BNTempSpace(const NodeAttrs&) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
}

nnvm::Op& BatchNormInterface(nnvm::Op& op) {  // NOLINT(runtime/references): registry chaining
  return op.set_num_inputs(5)
      .set_attr<FResourceRequest>("FResourceRequest", BNTempSpace)
      .set_num_outputs(3)
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
      .add_argument("data", "NDArray-or-Symbol", "Input data to batch normalization")
      .add_argument("gamma", "NDArray-or-Symbol", "gamma array")
      .add_argument("beta", "NDArray-or-Symbol", "beta array")
      .add_argument("moving_mean", "NDArray-or-Symbol", "running mean of input")
      .add_argument("moving_var", "NDArray-or-Symbol", "running variance of input");
}

/*! \brief What the backward operators share; `moving` are the moving statistics' inputs. */
nnvm::Op& BatchNormBackwardInterface(nnvm::Op& op, uint32_t moving) {  // NOLINT(runtime/references)
  op.set_attr<nnvm::TIsBackward>("TIsBackward", true);
  op.set_attr<FResourceRequest>("FResourceRequest", BNTempSpace);
  if (moving == 6) {
    op.set_attr<nnvm::FMutateInputs>("FMutateInputs",
      [](const nnvm::NodeAttrs& attrs) { return std::vector<uint32_t>{6, 7}; });
  } else {
    op.set_attr<nnvm::FMutateInputs>("FMutateInputs",
      [](const nnvm::NodeAttrs& attrs) { return std::vector<uint32_t>{7, 8}; });
  }
  return op;
}

}  // namespace

static nnvm::Op& batch_norm_op = BatchNormInterface(nnvm::Op::Register("BatchNorm"))
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
.set_attr_parser(ParamParser<BatchNormParam>)
.set_attr<FCompute>("FCompute<cpu>", BatchNormCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", BNFamilyGrad{"_backward_BatchNorm", false})
.add_arguments(BatchNormParam::__FIELDS__());

static nnvm::Op& batch_norm_backward_op =
    BatchNormBackwardInterface(nnvm::Op::Register("_backward_BatchNorm"), 6)
.describe("Backward of BatchNorm: (out_grad, mean, var, data, gamma, beta, moving_mean, "
          "moving_var) -> (data_grad, gamma_grad, beta_grad); updates the moving statistics "
          "when training.")
.set_num_inputs(8)
.set_num_outputs(3)
.set_attr_parser(ParamParser<BatchNormParam>)
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

static nnvm::Op& batch_norm_relu_op =
    BatchNormInterface(nnvm::Op::Register("_contrib_BatchNormWithReLU"))
.describe(R"code(Batch normalization followed by relu: max(BatchNorm(data), 0).

Parameters, auxiliary states and the mean/var outputs are BatchNorm's. The moving statistics are
updated by the backward pass of a training step, as BatchNorm's are.
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<BatchNormParam>)
.set_attr<FCompute>("FCompute<cpu>", BatchNormReLUCompute)
.set_attr<nnvm::FGradient>("FGradient",
                           BNFamilyGrad{"_backward_contrib_BatchNormWithReLU", true})
.add_arguments(BatchNormParam::__FIELDS__());

static nnvm::Op& batch_norm_relu_backward_op =
    BatchNormBackwardInterface(nnvm::Op::Register("_backward_contrib_BatchNormWithReLU"), 7)
.describe("Backward of _contrib_BatchNormWithReLU: (out_grad, output, mean, var, data, gamma, "
          "beta, moving_mean, moving_var) -> (data_grad, gamma_grad, beta_grad).")
.set_num_inputs(9)
.set_num_outputs(3)
.set_attr_parser(ParamParser<BatchNormParam>)
.set_attr<mxnet::FInferShape>("FInferShape", BatchNormReLUBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", BatchNormReLUBackwardType)
.set_attr<FCompute>("FCompute<cpu>", BatchNormReLUGradCompute);

static nnvm::Op& sync_batch_norm_op =
    BatchNormInterface(nnvm::Op::Register("_contrib_SyncBatchNorm"))
.describe(R"code(Batch normalization synchronized across devices (channel axis 1).

With ndev=1, the only count this build computes, the result is BatchNorm's over axis 1; the
``var`` output is the batch variance (BatchNorm reports the inverse standard deviation there).
)code" ADD_FILELINE)
.set_attr_parser(SyncBatchNormParser)
.set_attr<FCompute>("FCompute<cpu>", SyncBatchNormCompute)
.set_attr<nnvm::FGradient>("FGradient", BNFamilyGrad{"_backward__contrib_SyncBatchNorm", false})
.add_arguments(SyncBatchNormParam::__FIELDS__());

static nnvm::Op& sync_batch_norm_backward_op =
    BatchNormBackwardInterface(nnvm::Op::Register("_backward__contrib_SyncBatchNorm"), 6)
.describe("Backward of _contrib_SyncBatchNorm: (out_grad, mean, var, data, gamma, beta, "
          "moving_mean, moving_var) -> (data_grad, gamma_grad, beta_grad).")
.set_num_inputs(8)
.set_num_outputs(3)
.set_attr_parser(SyncBatchNormParser)
.set_attr<mxnet::FInferShape>("FInferShape", BatchNormBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", BatchNormBackwardType)
.set_attr<FCompute>("FCompute<cpu>", SyncBatchNormGradCompute);

}  // namespace op
}  // namespace mxnet
