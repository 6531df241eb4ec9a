/*!
 * \file quantized_rnn.cc
 * \brief _contrib_quantized_rnn: an LSTM over uint8 data (scale / shift quantization) with int8
 *        weights, computed the way MXNet 1.9.1's CPU build (oneDNN int8 LSTM) computes it.
 *
 * Inputs: data (T, N, I) uint8, parameters (the float32 vector of RNN, same layout), state and
 * state_cell (L*D, N, H) float32, and two float32 scalars (shape (1,)): the data scale s and
 * shift z, so that a real value x is stored as u = x * s + z (uint8). The inputs are named
 * min_data / max_data in the graph (FListInputNames), as in 1.9.1, while the documented
 * arguments are data_scale / data_shift.
 *
 * Arithmetic (reproduced from probing 1.9.1 on an AVX2 machine):
 *  - one int8 scale per gate row r (4H rows), shared by every layer and direction:
 *    ws_r = 127 / m_r, m_r the largest |w| in row r of the (4H, n) blocks 1.9.1 reads from the
 *    parameter vector (located by probing it one element at a time):
 *      layer 0, each direction: its i2h (4H, I_0) and h2h (4H, H) matrices;
 *      layer 1, direction 0: a (4H, H) block at the start of its i2h matrix and another 4H * I_0
 *        elements further on (not its h2h matrix unless its input size is I_0);
 *      layers 2.., direction 0, bidirectional only: (4H, H) blocks at the start of the i2h
 *        matrix and 4H * H elements further on;
 *      nothing else: not the reverse direction above layer 0, not the layers above 1 of a
 *        unidirectional network, and no layer above 0 when I_0 = H and unidirectional (1.9.1
 *        then runs all layers as one oneDNN primitive).
 *    Blocks may reach into the biases; where they run past the end of the vector 1.9.1 reads
 *    undefined memory and this version uses only the elements inside;
 *  - weights q = round_half_even(w * ws_r) (int8); the hidden state and every layer's output
 *    are uint8 u = round_half_even(h * s + z) (saturated to [0, 255]), the cell state float32;
 *  - gates: acc = sum_k u_k q_k for the input and for the hidden state, exactly in int32 (1.9.1's
 *    oneDNN AVX2 kernels saturate each pair of products to int16 first, which loses precision
 *    when |u_k q_k + u_k+1 q_k+1| > 32767; VNNI CPUs and this version do not); then
 *    gate = float(acc) * (1 / (ws_r * s)) + (b_i2h + b_h2h - comp_r * z / (ws_r * s)),
 *    comp_r the sum of the row's int8 weights (i2h and h2h);
 *  - i, f, o = sigmoid, g = tanh, c = f c + i g, h = o tanh(c) in float32;
 *  - output and final hidden state: (u - z) / s; final cell state: c.
 * p, lstm_state_clip_min/max/nan are accepted and ignored, as in 1.9.1.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../nn/rnn-inl.h"
#include "../operator_common.h"
#include "../host_fallback.h"
#include "./quantization_utils-inl.h"

namespace mxnet {
namespace op {
namespace {

const char* kQRnn = "_contrib_quantized_rnn";

enum QRnnIn { kData, kParams, kState, kStateCell, kScale, kShift, kNumIn };

int QRnnNumOutputs(const NodeAttrs& attrs) {
  return nnvm::get<RNNParam>(attrs.parsed).state_outputs ? 3 : 1;
}

void QRnnCheckParam(const RNNParam& param) {
  if (param.mode != rnn_enum::kLstm) {
    MX_THROW(ValueError) << kQRnn << ": only mode='lstm' is supported (as in MXNet 1.9.1), "
                         << "got mode=" << RNNModeName(param.mode);
  }
  if (param.projection_size.has_value()) {
    MX_THROW(ValueError) << kQRnn << ": projection_size is not supported, got "
                         << param.projection_size.value();
  }
  if (param.use_sequence_length) {
    MX_THROW(ValueError) << kQRnn << ": use_sequence_length=True is not supported (the operator "
                         << "has no sequence_length input)";
  }
  if (param.state_size == 0 || param.num_layers == 0) {
    MX_THROW(ValueError) << kQRnn << ": state_size (" << param.state_size << ") and num_layers ("
                         << param.num_layers << ") must be positive";
  }
}

bool QRnnShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  QRnnCheckParam(param);
  if (in->size() != kNumIn) {
    MX_THROW(ValueError) << kQRnn << ": expected 6 inputs (data, parameters, state, state_cell, "
                         << "data_scale, data_shift), got " << in->size();
  }
  quant::RangeShapes(kQRnn, in, kScale, kNumIn,
                     quant::Names({"data", "parameters", "state", "state_cell", "data_scale",
                                   "data_shift"}));
  const mxnet::TShape& dshape = (*in)[kData];
  if (!ndim_is_known(dshape)) return false;
  if (dshape.ndim() != 3) {
    MX_THROW(ValueError) << kQRnn << ": data must have 3 dimensions (sequence length, batch, "
                         << "input size), got shape " << dshape;
  }
  if (!shape_is_known(dshape)) return false;
  const RNNDims dims(param, dshape);
  auto expect = [&](int i, const mxnet::TShape& want, const char* name) {
    const mxnet::TShape got = (*in)[i];
    if (ndim_is_known(got) && !shape_assign(&(*in)[i], want)) {
      MX_THROW(ValueError) << kQRnn << ": " << name << " has shape " << got << ", expected "
                           << want << " for data of shape " << dshape << " (state_size="
                           << param.state_size << ", num_layers=" << param.num_layers
                           << ", bidirectional=" << param.bidirectional << ")";
    }
    (*in)[i] = want;
  };
  expect(kParams, mxnet::TShape({dims.ParamSize()}), "parameters");
  const mxnet::TShape sshape({dims.L * dims.D, dims.N, dims.H});
  expect(kState, sshape, "state");
  expect(kStateCell, sshape, "state_cell");
  out->resize(QRnnNumOutputs(attrs));
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({dims.T, dims.N, dims.D * dims.H}));
  for (size_t i = 1; i < out->size(); ++i) SHAPE_ASSIGN_CHECK(*out, i, sshape);
  return true;
}

bool QRnnType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  QRnnCheckParam(param);
  const std::vector<std::string> names =
      quant::Names({"data", "parameters", "state", "state_cell", "data_scale", "data_shift"});
  quant::CheckInType(kQRnn, in, kData, "data", {mshadow::kUint8});
  quant::RangeTypes(kQRnn, in, kParams, kNumIn, names);
  out->resize(QRnnNumOutputs(attrs));
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, mshadow::kFloat32);
  return (*in)[kData] != -1;
}

/*! \brief sum_k u_k q_k, exact (int64: any K). */
inline int64_t Dot(const uint8_t* u, const int8_t* q, index_t K) {
  int64_t acc = 0;
  for (index_t k = 0; k < K; ++k) acc += static_cast<int32_t>(u[k]) * q[k];
  return acc;
}

inline float Sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

inline uint8_t QuantU8(float v, float scale, float shift) {
  return quant::SatRound<uint8_t>(static_cast<double>(v * scale + shift));
}

void QRnnCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  QRnnCheckParam(param);
  const RNNDims dims(param, inputs[kData].shape_);
  const index_t T = dims.T, N = dims.N, H = dims.H, L = dims.L, D = dims.D, G = 4 * dims.H;
  const float scale = quant::Scalar(inputs[kScale]);
  const float shift = quant::Scalar(inputs[kShift]);
  const float* w = inputs[kParams].dptr<float>();
  const index_t nparam = dims.ParamSize();

  // Per-row weight scales, shared by every layer and direction (see the file comment): the
  // row maxima of the (4H, ncol) blocks that 1.9.1 reads, elements past the vector skipped.
  std::vector<float> wmax(G, 0.f);
  auto read_block = [&](index_t start, index_t ncol) {
    for (index_t r = 0; r < G; ++r) {
      for (index_t k = 0; k < ncol; ++k) {
        const index_t i = start + r * ncol + k;
        if (i < nparam) wmax[r] = std::max(wmax[r], std::fabs(w[i]));
      }
    }
  };
  const index_t I0 = dims.I;
  for (index_t d = 0; d < D; ++d) {
    read_block(dims.WeightOffset(0, d), I0);
    read_block(dims.WeightOffset(0, d) + G * I0, H);
  }
  if (L > 1 && !(D == 1 && I0 == H)) {
    const index_t o1 = dims.WeightOffset(1, 0);
    read_block(o1, H);
    read_block(o1 + G * I0, H);
    if (D == 2) {
      for (index_t l = 2; l < L; ++l) {
        read_block(dims.WeightOffset(l, 0), H);
        read_block(dims.WeightOffset(l, 0) + G * H, H);
      }
    }
  }
  std::vector<float> wscale(G), deq(G);
  for (index_t r = 0; r < G; ++r) {
    wscale[r] = wmax[r] > 0.f ? quant::kInt8Limit / wmax[r] : 0.f;
    const float wd = wscale[r] * scale;
    deq[r] = wd != 0.f ? 1.f / wd : 0.f;
  }

  const float* h0 = inputs[kState].dptr<float>();
  const float* c0 = inputs[kStateCell].dptr<float>();
  float* y = outputs[0].dptr<float>();
  float* hy = param.state_outputs ? outputs[1].dptr<float>() : nullptr;
  float* cy = param.state_outputs ? outputs[2].dptr<float>() : nullptr;

  // The uint8 input of the current layer, (T, N, Il), and the uint8 output, (T, N, D*H).
  std::vector<uint8_t> xin(inputs[kData].dptr<uint8_t>(),
                           inputs[kData].dptr<uint8_t>() + T * N * dims.I);
  std::vector<uint8_t> xout(T * N * D * H);
  std::vector<int8_t> qx, qh;
  std::vector<float> bias(G);
  std::vector<uint8_t> hq(N * H), hq_next(N * H);
  std::vector<float> c(N * H), gates(N * G);

  for (index_t l = 0; l < L; ++l) {
    const index_t Il = dims.InputSize(l);
    for (index_t d = 0; d < D; ++d) {
      const index_t xo = dims.WeightOffset(l, d), ho = xo + G * Il;
      const index_t bo = dims.BiasOffset(l, d);
      qx.resize(G * Il);
      qh.resize(G * H);
      for (index_t r = 0; r < G; ++r) {
        int32_t comp = 0;
        for (index_t k = 0; k < Il; ++k) {
          const float v = w[xo + r * Il + k] * wscale[r];
          qx[r * Il + k] = quant::SatRound<int8_t>(static_cast<double>(v));
          comp += qx[r * Il + k];
        }
        for (index_t k = 0; k < H; ++k) {
          const float v = w[ho + r * H + k] * wscale[r];
          qh[r * H + k] = quant::SatRound<int8_t>(static_cast<double>(v));
          comp += qh[r * H + k];
        }
        const float b = w[bo + r] + w[bo + G + r];
        const float wd = wscale[r] * scale;
        bias[r] = wd != 0.f ? b - static_cast<float>(comp) * shift / wd : b;
      }
      const index_t sidx = (l * D + d) * N * H;
      for (index_t i = 0; i < N * H; ++i) {
        hq[i] = QuantU8(h0[sidx + i], scale, shift);
        c[i] = c0[sidx + i];
      }
      for (index_t s = 0; s < T; ++s) {
        const index_t t = d == 0 ? s : T - 1 - s;
        const uint8_t* xt = xin.data() + t * N * Il;
#pragma omp parallel for if (N * G * (Il + H) > 65536)
        for (index_t n = 0; n < N; ++n) {
          for (index_t r = 0; r < G; ++r) {
            const int64_t acc = Dot(xt + n * Il, qx.data() + r * Il, Il) +
                                Dot(hq.data() + n * H, qh.data() + r * H, H);
            gates[n * G + r] = static_cast<float>(acc) * deq[r] + bias[r];
          }
          for (index_t j = 0; j < H; ++j) {
            const float* g = gates.data() + n * G;
            const float gi = Sigmoid(g[j]), gf = Sigmoid(g[H + j]);
            const float gg = std::tanh(g[2 * H + j]), go = Sigmoid(g[3 * H + j]);
            const float cn = gf * c[n * H + j] + gi * gg;
            c[n * H + j] = cn;
            const float h = go * std::tanh(cn);
            const uint8_t u = QuantU8(h, scale, shift);
            hq_next[n * H + j] = u;
            xout[(t * N + n) * D * H + d * H + j] = u;
          }
        }
        hq.swap(hq_next);
      }
      if (hy != nullptr) {
        for (index_t i = 0; i < N * H; ++i) {
          hy[sidx + i] = (static_cast<float>(hq[i]) - shift) / scale;
          cy[sidx + i] = c[i];
        }
      }
    }
    xin.swap(xout);
    xout.assign(T * N * D * H, 0);
  }
  for (index_t i = 0; i < T * N * D * H; ++i) y[i] = (static_cast<float>(xin[i]) - shift) / scale;
  (void)req;
  (void)ctx;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_quantized_rnn)
.describe(R"code(RNN operator for input data type of uint8. The weight of each gates is converted
to int8, while bias is accumulated in type float32. The hidden state and cell state are in type
float32. For the input data, two more arguments of type float32 must be provided representing the
thresholds of quantizing argument from data type float32 to uint8. The final outputs contain the
recurrent result in float32. It only supports quantization for Vanilla LSTM network.

``data`` holds ``u = x * data_scale + data_shift`` (uint8) in TNC layout; ``parameters``,
``state`` and ``state_cell`` are laid out as for ``RNN`` (float32). The computation follows
MXNet 1.9.1's CPU (oneDNN int8 LSTM) arithmetic: one int8 scale ``127 / max|w|`` per gate row
shared by all layers and directions; u8 x s8 dot products summed exactly (1.9.1's AVX2 kernels
saturate pairs of products to int16, its VNNI ones do not); gates dequantized by
``1 / (weight_scale * data_scale)`` with the data shift folded into the float32 bias; the hidden state (and every layer's output) re-quantized
to uint8 with the data scale and shift at each step; the cell state kept in float32. The output
and final hidden state are dequantized as ``(u - data_shift) / data_scale``.

The per-row weight scales come from the parts of ``parameters`` that 1.9.1 reads for them (all
of layer 0, and some blocks of the first direction of the layers above), so results match 1.9.1
(outputs bit for bit, final cell state to float rounding), except where 1.9.1 reads past the
end of ``parameters`` (a unidirectional network whose input size is well above ``state_size``).
Only ``mode='lstm'`` is supported;
``projection_size`` and ``use_sequence_length`` are rejected; ``p`` and the LSTM state clipping
arguments are accepted and ignored, as in 1.9.1. The graph input names of the two scalars are
``min_data`` and ``max_data`` (as in 1.9.1).

.. Note::
    This operator only supports forward propagation. DO NOT use it in training.
)code" ADD_FILELINE)
.set_num_inputs(6)
.set_num_outputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(QRnnNumOutputs(attrs));
})
.set_attr_parser(ParamParser<RNNParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data", "parameters", "state", "state_cell", "min_data",
                                  "max_data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  if (nnvm::get<RNNParam>(attrs.parsed).state_outputs) {
    // 1.9.1 spells the third name "statecell_ouput".
    return std::vector<std::string>{"output", "state_output", "statecell_ouput"};
  }
  return std::vector<std::string>{"output"};
})
.set_attr<mxnet::FInferShape>("FInferShape", QRnnShape)
.set_attr<nnvm::FInferType>("FInferType", QRnnType)
.set_attr<FCompute>("FCompute<cpu>", QRnnCompute)
#if MXNET_USE_CUDA  // host path: the CPU's emulation of oneDNN's int8 LSTM on host copies
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(QRnnCompute))
#endif
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "Input data.")
.add_argument("parameters", "NDArray-or-Symbol", "weight.")
.add_argument("state", "NDArray-or-Symbol", "initial hidden state of the RNN")
.add_argument("state_cell", "NDArray-or-Symbol",
              "initial cell state for LSTM networks (only for LSTM)")
.add_argument("data_scale", "NDArray-or-Symbol", "quantization scale of data.")
.add_argument("data_shift", "NDArray-or-Symbol", "quantization shift of data.")
.add_arguments(RNNParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
