/*!
 * \file rnn.cc
 * \brief Registration of RNN, _backward_RNN and _rnn_param_concat (the Concat Gluon uses to
 *        pack the per-layer parameters into RNN's flat vector). GPU kernels: rnn.cu.
 */
#include "../elemwise_op_common.h"
#include "./rnn-inl.h"
#include "./rnn_generic-inl.h"
#include "./rnn_param_concat-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(RNNParam);

namespace {

uint32_t RNNNumInputs(const NodeAttrs& attrs) {
  return RNNInputs(nnvm::get<RNNParam>(attrs.parsed)).count;
}

uint32_t RNNNumOutputs(const NodeAttrs& attrs) {
  return RNNNumVisibleOutputs(nnvm::get<RNNParam>(attrs.parsed)) + 1;
}

/*! \brief The CPU's RNN: the OpenMP/AVX2 path, or with MXNET_RNN_GENERIC=1 the device-generic
 *         implementation the GPU runs (rnn_generic-inl.h), so that it can be tested here. */
void RNNComputeCPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (rnn_generic::RequestedOnCpu()) {
    rnn_generic::Compute<cpu>(attrs, ctx, inputs, req, outputs);
  } else {
    RNNCompute<cpu>(attrs, ctx, inputs, req, outputs);
  }
}

void RNNGradComputeCPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (rnn_generic::RequestedOnCpu()) {
    rnn_generic::GradCompute<cpu>(attrs, ctx, inputs, req, outputs);
  } else {
    RNNGradCompute<cpu>(attrs, ctx, inputs, req, outputs);
  }
}

}  // namespace

NNVM_REGISTER_OP(RNN)
.describe(R"code(Applies recurrent layers (vanilla RNN with relu or tanh, LSTM, GRU) to a
sequence in TNC layout (sequence length, batch, input size).

Vanilla RNN (``mode='rnn_relu'`` / ``'rnn_tanh'``)::

  h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)

LSTM (``mode='lstm'``, gates in the order i, f, g, o)::

  i_t = sigmoid(W_ii x_t + b_ii + W_hi h_{t-1} + b_hi)
  f_t = sigmoid(W_if x_t + b_if + W_hf h_{t-1} + b_hf)
  g_t = tanh(W_ig x_t + b_ig + W_hg h_{t-1} + b_hg)
  o_t = sigmoid(W_io x_t + b_io + W_ho h_{t-1} + b_ho)
  c_t = f_t * c_{t-1} + i_t * g_t
  h_t = o_t * tanh(c_t)

GRU (``mode='gru'``, gates in the order r, z, n)::

  r_t = sigmoid(W_ir x_t + b_ir + W_hr h_{t-1} + b_hr)
  z_t = sigmoid(W_iz x_t + b_iz + W_hz h_{t-1} + b_hz)
  n_t = tanh(W_in x_t + b_in + r_t * (W_hn h_{t-1} + b_hn))
  h_t = (1 - z_t) * n_t + z_t * h_{t-1}

``parameters`` is one flat vector: every weight (for each layer, for each direction: the
input-to-hidden matrix then the hidden-to-hidden matrix), then every bias in the same order.
``state`` (and ``state_cell`` for LSTM) have shape (num_layers * directions, batch,
state_size). With ``state_outputs=True`` the final states are returned after the output.
With ``p > 0`` dropout is applied to the outputs of all layers but the last, in training only.
``lstm_state_clip_min/max`` clip the LSTM cell state after each step.

With ``projection_size=P`` (LSTMP: LSTM only, ``0 < P < state_size``; on a GPU with cuDNN, as
in MXNet 1.9.1) each step's output is projected, ``r_t = W_hr h_t``, and r_t is the recurrent
state and the layer's output: ``state`` and the output have P features per direction, while
``state_cell`` keeps state_size. Each layer and direction's weights gain W_hr (P, state_size)
after the hidden-to-hidden matrix, which is (4 * state_size, P).
)code" ADD_FILELINE)
.set_num_inputs(RNNNumInputs)
.set_num_outputs(RNNNumOutputs)
.set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs", [](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(RNNNumVisibleOutputs(nnvm::get<RNNParam>(attrs.parsed)));
})
.set_attr_parser(ParamParser<RNNParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return RNNInputNames(nnvm::get<RNNParam>(attrs.parsed));
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  std::vector<std::string> names{"output"};
  if (param.state_outputs) {
    names.emplace_back("state_output");
    if (param.mode == rnn_enum::kLstm) names.emplace_back("statecell_output");
  }
  names.emplace_back("reserve");
  return names;
})
.set_attr<mxnet::FInferShape>("FInferShape", RNNShape)
.set_attr<nnvm::FInferType>("FInferType", RNNType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace,
                                      ResourceRequest::kParallelRandom};
})
.set_attr<FCompute>("FCompute<cpu>", RNNComputeCPU)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    const RNNParam& param = nnvm::get<RNNParam>(n->attrs.parsed);
    const int nvis = RNNNumVisibleOutputs(param);
    std::vector<nnvm::NodeEntry> heads(ograds.begin(), ograds.begin() + nvis);
    for (const nnvm::NodeEntry& e : n->inputs) heads.push_back(e);
    heads.emplace_back(n, static_cast<uint32_t>(nvis), 0);  // the reserve
    return MakeGradNode("_backward_RNN", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input data to RNN")
.add_argument("parameters", "NDArray-or-Symbol",
              "Vector of all RNN trainable parameters concatenated")
.add_argument("state", "NDArray-or-Symbol", "initial hidden state of the RNN")
.add_argument("state_cell", "NDArray-or-Symbol",
              "initial cell state for LSTM networks (only for LSTM)")
.add_argument("sequence_length", "NDArray-or-Symbol",
              "Vector of valid sequence lengths for each element in batch. (Only used if "
              "use_sequence_length kwarg is True)")
.add_arguments(RNNParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_RNN)
.describe("Backward of RNN: (output gradients, forward inputs, reserve) -> input gradients.")
.set_num_inputs([](const NodeAttrs& attrs) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  return static_cast<uint32_t>(RNNNumVisibleOutputs(param) + RNNInputs(param).count + 1);
})
.set_num_outputs(RNNNumInputs)
.set_attr_parser(ParamParser<RNNParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  const int nvis = RNNNumVisibleOutputs(param);
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    SHAPE_ASSIGN_CHECK(*out, i, (*in)[nvis + i]);
    known = known && shape_is_known((*out)[i]);
  }
  return known;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs,
                                              std::vector<int>* in, std::vector<int>* out) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  const int nvis = RNNNumVisibleOutputs(param);
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    TYPE_ASSIGN_CHECK(*out, i, (*in)[nvis + i]);
    known = known && (*out)[i] >= 0;
  }
  return known;
})
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};
})
.set_attr<FCompute>("FCompute<cpu>", RNNGradComputeCPU);

// ------------------------------------------------------------------ _rnn_param_concat

DMLC_REGISTER_PARAMETER(RNNParamConcatParam);

namespace {

/*!
 * \brief Like Concat's, plus: with the output known and exactly one input's length along the
 *        axis unknown, that length is the remainder (Gluon's deferred RNN parameters).
 */
bool RNNParamConcatShape(const NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                         mxnet::ShapeVector* out_shape) {
  const RNNParamConcatParam& param = nnvm::get<RNNParamConcatParam>(attrs.parsed);
  mxnet::TShape common;  // every shape with the axis length set to -1
  int axis = -1;
  auto merge = [&](const mxnet::TShape& s, const char* what, int i) {
    if (!ndim_is_known(s)) return;
    axis = ParamConcatAxis(param, s.ndim());
    mxnet::TShape tmp = s;
    tmp[axis] = -1;
    if (!shape_assign(&common, tmp)) {
      MX_THROW(dmlc::ValueError) << "_rnn_param_concat: " << what << " " << i << " has shape "
                                 << s << ", incompatible with " << common << " outside dim "
                                 << param.dim;
    }
  };
  for (int i = 0; i < param.num_args; ++i) merge((*in_shape)[i], "input", i);
  merge((*out_shape)[0], "output", 0);
  if (!ndim_is_known(common)) return false;
  std::vector<int> unknown;
  dim_t known_sum = 0;
  for (int i = 0; i < param.num_args; ++i) {
    mxnet::TShape s = (*in_shape)[i];
    if (!ndim_is_known(s)) s = common;
    const dim_t len = s[axis];
    s[axis] = -1;
    shape_assign(&s, common);
    s[axis] = len;
    (*in_shape)[i] = s;
    if (len < 0) {
      unknown.push_back(i);
    } else {
      known_sum += len;
    }
  }
  const mxnet::TShape& out = (*out_shape)[0];
  if (!unknown.empty() && ndim_is_known(out) && out[axis] >= 0) {
    // The remainder is shared evenly (the two directions' first-layer weights of a
    // bidirectional layer have the same size).
    const dim_t rest = out[axis] - known_sum;
    const dim_t n = static_cast<dim_t>(unknown.size());
    if (rest < 0 || rest % n != 0) {
      MX_THROW(dmlc::ValueError) << "_rnn_param_concat: cannot split the remaining length "
                                 << rest << " along dim " << param.dim << " (output " << out
                                 << ", known inputs total " << known_sum << ") evenly over "
                                 << n << " input(s) of unknown shape";
    }
    for (int i : unknown) (*in_shape)[i][axis] = rest / n;
    known_sum = out[axis];
    unknown.clear();
  }
  mxnet::TShape oshape = common;
  oshape[axis] = unknown.empty() ? known_sum : -1;
  SHAPE_ASSIGN_CHECK(*out_shape, 0, oshape);
  bool all = shape_is_known((*out_shape)[0]);
  for (const auto& s : *in_shape) all = all && shape_is_known(s);
  return all;
}

}  // namespace

NNVM_REGISTER_OP(_rnn_param_concat)
.add_alias("_npi_rnn_param_concat")
.describe(R"code(Joins the input arrays along dimension ``dim`` (as Concat). Used by Gluon's
RNN layers to pack their parameters into the flat vector of the fused RNN operator; unlike
Concat, the lengths of inputs whose shapes are unknown are inferred from the output
(the remainder is shared evenly among them).
)code" ADD_FILELINE)
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<RNNParamConcatParam>(attrs.parsed).num_args);
})
.set_num_outputs(1)
.set_attr_parser(ParamParser<RNNParamConcatParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  std::vector<std::string> names;
  const int n = nnvm::get<RNNParamConcatParam>(attrs.parsed).num_args;
  for (int i = 0; i < n; ++i) names.push_back("arg" + std::to_string(i));
  return names;
})
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<mxnet::FInferShape>("FInferShape", RNNParamConcatShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<-1, 1>)
.set_attr<FCompute>("FCompute<cpu>", RNNParamConcatCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward_rnn_param_concat"})
.add_argument("data", "NDArray-or-Symbol[]", "List of arrays to concatenate")
.add_arguments(RNNParamConcatParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_rnn_param_concat)
.set_num_inputs(1)
.set_num_outputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<RNNParamConcatParam>(attrs.parsed).num_args);
})
.set_attr_parser(ParamParser<RNNParamConcatParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", RNNParamConcatBackward<cpu>);

}  // namespace op
}  // namespace mxnet
